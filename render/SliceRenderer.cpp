#include "render/SliceRenderer.h"

#include <array>
#include <cmath>
#include <limits>

#include <QDebug>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QOpenGLShaderProgram>
#include <QOpenGLVersionFunctionsFactory>
#include <QPainter>
#include <QScopeGuard>

#include <glm/gtc/matrix_transform.hpp>

#include "core/GridWorld.h"

namespace iso {
namespace {

const QColor kBackground(30, 31, 34);
constexpr int kFieldUnit = 0, kColormapUnit = 1, kVelocityUnit = 2;
// Every slice's field and velocity at once, for the 3D view's crossings (slice.frag), in SlicePlane order.
constexpr int kCrossingFieldUnit = 3, kCrossingVelocityUnit = 6;
constexpr const char* kCrossingFields[3] = {"fieldXY", "fieldXZ", "fieldYZ"};
constexpr const char* kCrossingVelocities[3] = {"velocityXY", "velocityXZ", "velocityYZ"};

SlicePlane planeOf(SliceRenderer::Mode mode) {
  switch (mode) {
    case SliceRenderer::Mode::PlaneXZ: return SlicePlane::XZ;
    case SliceRenderer::Mode::PlaneYZ: return SlicePlane::YZ;
    default: return SlicePlane::XY;
  }
}

// The velocity overlay's ramp (rock() in slice.frag, the same stops), as the overlay shows it at full
// opacity.
const ColourTable& rockTable() {
  static const ColourTable table = [] {
    constexpr std::array<std::array<double, 3>, 5> stops{
        {{0.15, 0.15, 0.45}, {0.15, 0.50, 0.55}, {0.55, 0.70, 0.25}, {0.90, 0.65, 0.20}, {0.98, 0.92, 0.75}}};
    ColourTable t(Colormap::kEntries);
    for (int n = 0; n < Colormap::kEntries; ++n) {
      const double x = 4.0 * n / (Colormap::kEntries - 1);
      const std::size_t k = std::min<std::size_t>(std::size_t(x), 3);
      const auto channel = [&](int c) { return std::uint8_t(std::lround(255 * (stops[k][c] + (x - k) * (stops[k + 1][c] - stops[k][c])))); };
      t[n] = {channel(0), channel(1), channel(2)};
    }
    return t;
  }();
  return table;
}

// The smallest and largest finite values of a set's planes; {0, 1} when it has none.
std::array<float, 2> finiteRange(const SliceSet& set) {
  float lo = std::numeric_limits<float>::infinity(), hi = -lo;
  for (std::span<const float> plane : {set.xy, set.xz, set.yz})
    for (float v : plane)
      if (std::isfinite(v)) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
  return lo <= hi ? std::array<float, 2>{lo, hi} : std::array<float, 2>{0.0f, 1.0f};
}

// The camera's matrix for a viewport of `pixels`.
glm::mat4 worldToClip(const OrbitCamera& camera, QSize pixels) {
  return camera.projection(float(pixels.width()) / float(std::max(pixels.height(), 1))) * camera.view();
}

}  // namespace

SliceRenderer::SliceRenderer() = default;
SliceRenderer::~SliceRenderer() = default;

// ---- What to show ----------------------------------------------------------------------------------

bool SliceRenderer::setSlices(std::shared_ptr<const SliceSet> slices) {
  if (slices) {
    if (const std::string problem = sliceSetProblem(*slices); !problem.empty()) {
      dataProblem_ = QString("Wavefield slices refused: %1").arg(QString::fromStdString(problem));
      qWarning().noquote() << dataProblem_;
      return false;
    }
  }
  dataProblem_.clear();
  slices_ = std::move(slices);
  geometry_ = slices_ ? SliceGeometry::of(*slices_) : SliceGeometry{};
  fieldDirty_ = true;
  if (slices_) gain_.update(*slices_);
  return true;
}

void SliceRenderer::setVelocitySlices(std::shared_ptr<const SliceSet> velocity) {
  if (velocity) {
    if (const std::string problem = sliceSetProblem(*velocity); !problem.empty()) {
      qWarning().noquote() << "Velocity slices refused:" << QString::fromStdString(problem);
      velocity.reset();
    }
  }
  velocity_ = std::move(velocity);
  if (velocity_) velocityRange_ = finiteRange(*velocity_);
  velocityDirty_ = true;
}

void SliceRenderer::setVelocityOverlay(bool on, float opacity) {
  if (!(opacity >= 0.0f && opacity <= 1.0f)) {
    qWarning() << "setVelocityOverlay: opacity must lie in [0, 1], got" << opacity << "- clamped";
    opacity = std::isfinite(opacity) ? std::clamp(opacity, 0.0f, 1.0f) : 0.35f;
  }
  overlayOn_ = on;
  overlayOpacity_ = opacity;
}

bool SliceRenderer::setColormap(const QString& name) {
  if (Colormap::table(name) == nullptr) {
    qWarning().noquote() << "setColormap: unknown colormap" << name << "(known:" << Colormap::names().join(", ") + ")";
    return false;
  }
  colormapName_ = name;
  colormapDirty_ = true;
  return true;
}

bool SliceRenderer::setClip(float clip) {
  if (gain_.setFixedClip(clip)) return true;
  qWarning() << "setClip: the range must be a positive finite number, got" << clip;
  return false;
}

// A uniform model tints every plane one colour: it tells nothing (the colour bar gives the velocity) and
// only veils the faint waves, so such a tint is left off.
bool SliceRenderer::tints() const { return overlayOn_ && velocityMatches() && velocityRange_[1] > velocityRange_[0]; }

bool SliceRenderer::velocityMatches() const {
  if (madeElsewhere_) return velocity_ && SliceGeometry::of(*velocity_) == geometry_;
  return velocity_ && velocityTextures_.hasData() && velocityTextures_.geometry() == fieldTextures_.geometry();
}

// ---- OpenGL lifetime -------------------------------------------------------------------------------

bool SliceRenderer::fail(const QString& problem) {
  problem_ = problem;
  ready_ = false;
  qWarning().noquote() << "SliceRenderer:" << problem;
  return false;
}

bool SliceRenderer::initialize(QOpenGLContext& context) {
  context_ = &context;
  problem_.clear();
  const QSurfaceFormat got = context.format();
  const bool versionOk = !context.isOpenGLES() && got.version() >= qMakePair(3, 3);
  gl_ = versionOk ? QOpenGLVersionFunctionsFactory::get<GlFunctions>(&context) : nullptr;
  if (gl_ == nullptr || !gl_->initializeOpenGLFunctions()) {
    gl_ = nullptr;
    return fail(QString("This view needs OpenGL 3.3 (core profile), but the system provides OpenGL%1 %2.%3. "
                        "Update the graphics driver, or use Mesa's software renderer (LIBGL_ALWAYS_SOFTWARE=1).")
                    .arg(context.isOpenGLES() ? " ES" : "")
                    .arg(got.majorVersion())
                    .arg(got.minorVersion()));
  }
  glInfo_ = QString("OpenGL %1 · %2")
                .arg(reinterpret_cast<const char*>(gl_->glGetString(GL_VERSION)),
                     reinterpret_cast<const char*>(gl_->glGetString(GL_RENDERER)));
  if (!createGlObjects()) return false;
  fieldDirty_ = velocityDirty_ = colormapDirty_ = true;
  ready_ = true;
  return true;
}

bool SliceRenderer::createGlObjects() {
  program_ = std::make_unique<QOpenGLShaderProgram>();
  if (const QString log = buildShaderProgram(*program_, ":/shaders/slice.vert", ":/shaders/slice.frag"); !log.isEmpty())
    return fail(log);
  program_->bind();
  program_->setUniformValue("field", kFieldUnit);
  program_->setUniformValue("colormap", kColormapUnit);
  program_->setUniformValue("velocity", kVelocityUnit);
  for (int p = 0; p < 3; ++p) {
    program_->setUniformValue(kCrossingFields[p], kCrossingFieldUnit + p);
    program_->setUniformValue(kCrossingVelocities[p], kCrossingVelocityUnit + p);
  }
  program_->release();
  if (!quads_.create(gl_)) return fail(quads_.lastError());
  if (!fieldTextures_.create(gl_)) return fail(fieldTextures_.lastError());
  if (!velocityTextures_.create(gl_)) return fail(velocityTextures_.lastError());
  if (!volumeImage_.create(gl_)) return fail(volumeImage_.lastError());
  if (!colormapTexture_.create(gl_)) return fail(colormapTexture_.lastError());
  if (!decorations_.create(gl_)) return fail(decorations_.lastError());
  if (!windowOverlay_.create(gl_)) return fail(windowOverlay_.lastError());
  if (!imageOverlay_.create(gl_)) return fail(imageOverlay_.lastError());
  return true;
}

void SliceRenderer::release() {
  if (gl_ == nullptr) return;
  // The picture stays, its planes in memory of its own: the mapped buffers go.
  if (slices_ && uploads_.locate(slices_->xy.data(), slices_->memoryFloats() * sizeof(float)))
    slices_ = std::make_shared<const SliceSet>(slices_->copy());
  uploads_.release(gl_);
  fieldTextures_.destroy(gl_);
  velocityTextures_.destroy(gl_);
  volumeImage_.destroy(gl_);
  colormapTexture_.destroy(gl_);
  decorations_.destroy(gl_);
  quads_.destroy(gl_);
  program_.reset();
  image_.destroy(gl_);
  windowOverlay_.destroy(gl_);
  imageOverlay_.destroy(gl_);
  gl_ = nullptr;
  ready_ = false;
}

// ---- Uploads ---------------------------------------------------------------------------------------

std::optional<MappedUploads::Mapping> SliceRenderer::mapBuffers(int count, std::size_t bytes, QString& problem) {
  if (!ready_) {
    problem = problem_.isEmpty() ? QStringLiteral("the renderer's OpenGL is not ready") : problem_;
    return std::nullopt;
  }
  return uploads_.map(*context_, gl_, count, bytes, problem);
}

bool SliceRenderer::uploadPending() {
  if (colormapDirty_) {
    if (!colormapTexture_.select(gl_, colormapName_)) return fail(colormapTexture_.lastError());
    colormapDirty_ = false;
  }
  if (fieldDirty_) {
    if (slices_ && !uploadField()) return false;
    fieldDirty_ = false;
  }
  if (velocityDirty_) {
    if (velocity_ && !velocityTextures_.upload(gl_, *velocity_)) return fail(velocityTextures_.lastError());
    velocityDirty_ = false;
  }
  return true;
}

bool SliceRenderer::uploadField() {
  const auto fromMemory = [this] {
    if (!fieldTextures_.upload(gl_, *slices_)) return fail(fieldTextures_.lastError());
    return volumeImage_.upload(gl_, *slices_) || fail(volumeImage_.lastError());
  };
  // The planes and, in the volume view, the image after them: one piece of a slot.
  const std::size_t bytes = slices_->memoryFloats() * sizeof(float);
  const auto from = uploads_.problem().isEmpty() ? uploads_.locate(slices_->xy.data(), bytes) : std::nullopt;
  if (!from) return fromMemory();
  const bool planes = fieldTextures_.upload(gl_, *slices_, from);
  const bool image = planes && volumeImage_.upload(gl_, *slices_, from->buffer, from->offset + slices_->planeFloats() * sizeof(float));
  // Held until the GL has read the buffer: only then may its slot be written again.
  if (planes) uploads_.fence(gl_, slices_);
  if (image) return true;
  // From now on data in mapped buffers is uploaded from its memory, like any other.
  uploads_.fail(planes ? volumeImage_.lastError() : fieldTextures_.lastError());
  return fromMemory();
}

// ---- Frames ----------------------------------------------------------------------------------------

void SliceRenderer::drawFrame(const FrameTarget& target) {
  if (ready_) uploads_.retire(gl_);
  const bool uploaded = ready_ && uploadPending();
  // The HUD's text covers the top of the view: the volume is framed below it, never under it. Its lines
  // are counted after the uploads, as the frame will paint them (before the first upload of a velocity
  // model it would warn of an overlay that does not match).
  if (is3D(mode_)) camera_.camera().setCoveredTop(decorations_.coveredTop(target, int(hudText(target).size())));
  if (uploaded) {
    clear(target);
    if (hasPicture()) {
      if (mode_ == Mode::Orthogonal3D)
        drawSlices3D(target, fieldTextures_.geometry(), false);
      else if (mode_ == Mode::Volume)
        drawVolume(target);
      else
        drawPlane2D(target);
    }
    if (const QString e = drainGlErrors(gl_, "drawing the frame"); !e.isEmpty()) fail(e);
  }
  if (!ready_) {
    // Without a usable 3.3 context only the plain background is drawn; problem() says why.
    if (context_ == nullptr) return;  // never initialised: nothing to draw with
    QOpenGLFunctions* basic = context_->functions();
    basic->glClearColor(kBackground.redF(), kBackground.greenF(), kBackground.blueF(), 1.0f);
    basic->glClear(GL_COLOR_BUFFER_BIT);
    return;
  }
  drawOverlay(target);
}

void SliceRenderer::clear(const FrameTarget& target) {
  gl_->glViewport(0, 0, target.pixels.width(), target.pixels.height());
  gl_->glClearColor(kBackground.redF(), kBackground.greenF(), kBackground.blueF(), 1.0f);
  gl_->glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
}

void SliceRenderer::drawQuads(const glm::mat4& viewProjection, const std::array<int, 3>& quads, int count,
                              const std::array<SlicePlane, 3>& planes, const SliceGeometry* crossings) {
  program_->bind();
  gl_->glUniformMatrix4fv(program_->uniformLocation("viewProjection"), 1, GL_FALSE, &viewProjection[0][0]);
  if (crossings)
    setCrossings(*crossings);
  else
    program_->setUniformValue("crossings", false);
  program_->setUniformValue("clip", gain_.clip());
  program_->setUniformValue("rangeLow", rangeLow());
  program_->setUniformValue("overlayOpacity", tints() ? overlayOpacity_ : 0.0f);
  program_->setUniformValue("velocityRange", velocityRange_[0], velocityRange_[1]);
  colormapTexture_.bind(gl_, kColormapUnit);
  quads_.bind(gl_);
  for (int n = 0; n < count; ++n) {
    program_->setUniformValue("plane", int(planes[n]));
    fieldTextures_.bind(gl_, planes[n], kFieldUnit);
    velocityTextures_.bind(gl_, planes[n], kVelocityUnit);
    quads_.draw(gl_, quads[n]);
  }
  quads_.release(gl_);
  program_->release();
}

QSize SliceRenderer::scenePixels(const FrameTarget& target) const {
  return {int(std::lround(sceneWidth(target) * target.pixelRatio)), target.pixels.height()};
}

OrbitCamera SliceRenderer::sceneCamera(const FrameTarget& target, int hudLines) const {
  GridCamera framed = camera_;  // as the next frame will have it
  framed.frame(geometry_);
  OrbitCamera camera = framed.camera();
  camera.setCoveredTop(decorations_.coveredTop(target, hudLines));
  return camera;
}

SliceRenderer::VolumeCamera SliceRenderer::volumeCamera(const FrameTarget& target) const {
  const QSize pixels = scenePixels(target);
  return {worldToClip(sceneCamera(target, int(hudText(target).size())), pixels), pixels};
}

glm::mat4 SliceRenderer::sceneViewProjection(const FrameTarget& target) const {
  const glm::mat4 viewProjection = worldToClip(camera_.camera(), scenePixels(target));
  return target.rowsDown ? glm::scale(glm::mat4(1.0f), glm::vec3(1.0f, -1.0f, 1.0f)) * viewProjection : viewProjection;
}

void SliceRenderer::drawSlices3D(const FrameTarget& target, const SliceGeometry& g, bool linesOnly) {
  camera_.frame(g);
  quads_.place3D(gl_, g);
  fieldTextures_.setMagnifyNearest(gl_, false);
  velocityTextures_.setMagnifyNearest(gl_, false);
  const QSize scene = scenePixels(target);
  gl_->glViewport(0, 0, scene.width(), scene.height());
  const glm::mat4 viewProjection = sceneViewProjection(target);
  gl_->glEnable(GL_DEPTH_TEST);
  if (linesOnly) gl_->glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);  // the slices' depth: what hides the lines
  drawQuads(viewProjection, {0, 1, 2}, 3, {SlicePlane::XY, SlicePlane::XZ, SlicePlane::YZ}, linesOnly ? nullptr : &g);
  gl_->glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  gl_->glEnable(GL_BLEND);
  // The lines alone: colour blended as over the slices, alpha summed as the share of the pixel they cover,
  // so that the layer, premultiplied, laid over the slices gives what a frame draws.
  if (linesOnly)
    gl_->glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  else
    gl_->glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  if (!decorations_.update3D(gl_, g, true)) fail(decorations_.lastError());
  decorations_.draw3D(gl_, viewProjection, scene, target.pixelRatio);
  gl_->glDisable(GL_BLEND);
  gl_->glDisable(GL_DEPTH_TEST);
  gl_->glViewport(0, 0, target.pixels.width(), target.pixels.height());
}

void SliceRenderer::setCrossings(const SliceGeometry& g) {
  const glm::mat4 worldToGrid = worldToGridMatrix(g.size);
  gl_->glUniformMatrix4fv(program_->uniformLocation("worldToGrid"), 1, GL_FALSE, &worldToGrid[0][0]);
  const glm::vec3 eye = g.toGrid(camera_.camera().eye());
  program_->setUniformValue("crossings", true);
  program_->setUniformValue("slicePoint", float(g.point[0]) + 0.5f, float(g.point[1]) + 0.5f, float(g.point[2]) + 0.5f);
  program_->setUniformValue("gridSize", float(g.size[0]), float(g.size[1]), float(g.size[2]));
  program_->setUniformValue("eye", eye.x, eye.y, eye.z);
  for (const SlicePlane p : kSlicePlanes) {
    fieldTextures_.bind(gl_, p, kCrossingFieldUnit + int(p));
    velocityTextures_.bind(gl_, p, kCrossingVelocityUnit + int(p));
  }
}

void SliceRenderer::drawVolume(const FrameTarget& target) {
  const SliceGeometry& g = fieldTextures_.geometry();
  camera_.frame(g);
  const QSize scene = scenePixels(target);
  gl_->glViewport(0, 0, scene.width(), scene.height());
  volumeImage_.draw(gl_, target.rowsDown);  // rendered with this camera (volumeCamera), blended
  gl_->glEnable(GL_BLEND);
  gl_->glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  if (!decorations_.update3D(gl_, g, false)) fail(decorations_.lastError());
  decorations_.draw3D(gl_, sceneViewProjection(target), scene, target.pixelRatio);
  gl_->glDisable(GL_BLEND);
  gl_->glViewport(0, 0, target.pixels.width(), target.pixels.height());
}

void SliceRenderer::drawPlane2D(const FrameTarget& target) {
  const PlaneLayout layout = planeLayout(target);
  quads_.place2D(gl_, layout.rect);
  // Magnified cells as crisp blocks; a linear filter would blur them into each other.
  fieldTextures_.setMagnifyNearest(gl_, true);
  velocityTextures_.setMagnifyNearest(gl_, true);
  // Logical pixels, y down, like QPainter.
  const float w = float(target.canvas.width()), h = float(target.canvas.height());
  const glm::mat4 pixels = target.rowsDown ? glm::ortho(0.0f, w, 0.0f, h, -1.0f, 1.0f) : glm::ortho(0.0f, w, h, 0.0f, -1.0f, 1.0f);
  drawQuads(pixels, {SliceQuads::kPlaneQuad}, 1, {layout.plane}, nullptr);
}

namespace {

// The device pixels of `target` that cover `logical`.
QRect devicePixels(const FrameTarget& target, const QRectF& logical) {
  const double r = target.pixelRatio;
  const QRectF scaled(logical.x() * r, logical.y() * r, logical.width() * r, logical.height() * r);
  return scaled.toAlignedRect() & QRect(QPoint(0, 0), target.pixels);
}

}  // namespace

void SliceRenderer::drawOverlay(const FrameTarget& target) {
  OverlayLayer& overlay = target.onScreen ? windowOverlay_ : imageOverlay_;
  paintOverlay(target, overlay);
  gl_->glViewport(0, 0, target.pixels.width(), target.pixels.height());
  if (!overlay.draw(gl_, target.pixels, target.rowsDown)) fail(overlay.lastError());
}

void SliceRenderer::paintOverlay(const FrameTarget& target, OverlayLayer& overlay) {
  const QStringList hud = hudText(target);
  const QRect frame(QPoint(0, 0), target.pixels);
  const double ratio = target.pixelRatio;
  const bool decorated = problem_.isEmpty();  // whoever shows the renderer says what is wrong
  overlay.paint(kMarksPanel, frame, ratio, marksKey(target), [&](QPainter& painter) { paintMarks(painter, target); });
  // The bars' frames stay while their labels follow the gain.
  const std::optional<ColourBars> bars = decorated ? colourBars(target) : std::nullopt;
  const QRect column = bars ? devicePixels(target, decorations_.colourBarColumn(target)) : QRect();
  for (const auto part : {Decorations::ColourBarPart::Frames, Decorations::ColourBarPart::Labels}) {
    const OverlayLayer::Paint paint = [&](QPainter& painter) {
      decorations_.paintColourBars(painter, target, int(hud.size()), bars->field, bars->velocity, part);
    };
    const int panel = part == Decorations::ColourBarPart::Frames ? kColourBarFramesPanel : kColourBarLabelsPanel;
    const QByteArray key = bars ? decorations_.colourBarsKey(target, int(hud.size()), bars->field, bars->velocity, part)
                                : QByteArray();
    overlay.paint(panel, column, ratio, key, paint);
  }
  overlay.paint(kHudPanel, decorated ? devicePixels(target, decorations_.hudBand(target, hud)) : QRect(),
                ratio, hud.join('\n').toUtf8(), [&](QPainter& painter) { decorations_.paintHud(painter, target, hud); });
  overlay.paint(kNoticePanel, frame, ratio, noticesKey(target), [&](QPainter& painter) { paintNotices(painter, target); });
}

QString SliceRenderer::notReadyProblem() const {
  if (ready_) return {};
  return "the view cannot draw: " + (problem_.isEmpty() ? QStringLiteral("OpenGL is not initialised yet") : problem_);
}

ImageFramebuffer::Draw SliceRenderer::pictureDraw() {
  return [this](const FrameTarget& target) {
    drawFrame(target);
    return problem_;  // drawFrame recorded a GL failure
  };
}

QImage SliceRenderer::renderImage(const ImageOptions& options, int samples, QString& error) {
  if (error = notReadyProblem(); !error.isEmpty()) return {};
  return image_.render(gl_, options, samples, pictureDraw(), error);
}

QString SliceRenderer::startImage(const ImageOptions& options, int samples) {
  if (QString error = notReadyProblem(); !error.isEmpty()) return error;
  return image_.start(gl_, options, samples, pictureDraw());
}

QString SliceRenderer::collectImage(const std::function<void(const QImage& image)>& use) {
  if (QString error = notReadyProblem(); !error.isEmpty()) return error;
  return image_.collect(gl_, use);
}

// ---- Pictures made elsewhere -----------------------------------------------------------------------

void SliceRenderer::finishUploads() {
  if (!ready_) return;
  gl_->glFinish();
  uploads_.retire(gl_);
}

namespace {

std::uint32_t rgba8(const QColor& c) {
  return std::uint32_t(c.red()) | std::uint32_t(c.green()) << 8 | std::uint32_t(c.blue()) << 16 | 0xff000000u;
}

}  // namespace

QString SliceRenderer::drawLineLayer(const FrameTarget& target) {
  gl_->glViewport(0, 0, target.pixels.width(), target.pixels.height());
  gl_->glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
  gl_->glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  drawSlices3D(target, geometry_, true);
  if (const QString e = drainGlErrors(gl_, "drawing the 3D lines' layer"); !e.isEmpty()) fail(e);
  return problem_;
}

QByteArray SliceRenderer::lineLayerKey(const FrameTarget& target) const {
  return OverlayLayer::keyOf([&](QDataStream& out) {
    out << target.pixels << target.pixelRatio << decorations_.marksKey();
    for (int a = 0; a < 3; ++a) out << geometry_.size[std::size_t(a)] << geometry_.point[std::size_t(a)];
    const glm::mat4 m = worldToClip(camera_.camera(), scenePixels(target));
    out << QByteArray(reinterpret_cast<const char*>(&m), sizeof m);
  });
}

std::optional<PictureLayer> SliceRenderer::lineLayer(const FrameTarget& target, MadeElsewhere& kept, QString& error,
                                                     const std::function<QString()>& makeCurrent) {
  if (const QByteArray key = lineLayerKey(target); key != kept.lineLayerKey || !kept.lineLayer) {
    if (error = makeCurrent(); !error.isEmpty()) return std::nullopt;
    ImageOptions options;  // a picture with the frame's pixels and layout
    options.size = target.pixels;
    options.scale = target.pixelRatio;
    const QImage drawn = image_.render(gl_, options, 0, [this](const FrameTarget& t) { return drawLineLayer(t); }, error);
    if (drawn.isNull()) return std::nullopt;
    // Read back as RGBA bytes, alpha included: premultiplied, as blended.
    const QImage rgba(drawn.constBits(), drawn.width(), drawn.height(), drawn.bytesPerLine(), QImage::Format_RGBA8888_Premultiplied);
    kept.lineLayer = std::make_shared<const QImage>(rgba.convertToFormat(QImage::Format_ARGB32_Premultiplied));
    kept.lineLayerKey = key;
    kept.lineLayerGeneration = ++lineLayerGenerations_;
  }
  PictureLayer l;
  l.width = kept.lineLayer->width(), l.height = kept.lineLayer->height();
  l.stride = int(kept.lineLayer->bytesPerLine() / 4);
  l.pixels = reinterpret_cast<const std::uint32_t*>(kept.lineLayer->constBits());
  l.generation = kept.lineLayerGeneration;
  l.keep = kept.lineLayer;
  return l;
}

std::optional<SliceRenderer::PictureParts> SliceRenderer::pictureParts(const ImageOptions& options, QString& error,
                                                                       const std::function<QString()>& makeCurrent) {
  if (error = ImageFramebuffer::optionsProblem(options); !error.isEmpty()) return std::nullopt;
  const FrameTarget target = ImageFramebuffer::target(options);
  if (target.pixels != options.size) {
    error = QStringLiteral("only pictures at their own size are made elsewhere");
    return std::nullopt;
  }
  return partsMadeElsewhere(target, picturesElsewhere_, error, makeCurrent);
}

std::optional<SliceRenderer::PictureParts> SliceRenderer::windowPictureParts(const FrameTarget& target, QString& error,
                                                                             const std::function<QString()>& makeCurrent) {
  return partsMadeElsewhere(target, windowElsewhere_, error, makeCurrent);
}

std::optional<SliceRenderer::PictureParts> SliceRenderer::partsMadeElsewhere(const FrameTarget& target, MadeElsewhere& kept,
                                                                             QString& error,
                                                                             const std::function<QString()>& makeCurrent) {
  if (error = notReadyProblem(); !error.isEmpty()) return std::nullopt;
  if (mode_ != Mode::Orthogonal3D || !slices_) {
    error = QStringLiteral("only frames of the 3D slice view are made elsewhere");
    return std::nullopt;
  }
  const ColourTable* table = Colormap::table(colormapName_);
  madeElsewhere_ = true;  // what the frame shows is the slices set, not what OpenGL holds
  const auto restore = qScopeGuard([this] { madeElsewhere_ = false; });
  // As drawFrame frames the camera: below the HUD, around the grid.
  camera_.camera().setCoveredTop(decorations_.coveredTop(target, int(hudText(target).size())));
  camera_.frame(geometry_);
  PictureParts parts;
  SlicePicture& p = parts.picture;
  p.width = target.pixels.width(), p.height = target.pixels.height();
  p.sceneWidth = scenePixels(target).width();
  p.worldToClip = worldToClip(camera_.camera(), scenePixels(target));
  p.eye = geometry_.toGrid(camera_.camera().eye());
  p.clip = gain_.clip();
  p.rangeLow = rangeLow();
  p.tintOpacity = tints() ? overlayOpacity_ : 0.0f;
  p.velocityRange = velocityRange_;
  p.colormap = rgbaWords(*table);
  p.background = rgba8(kBackground);
  parts.slices = slices_;
  if (tints()) parts.velocity = velocity_;
  const std::optional<PictureLayer> lines = lineLayer(target, kept, error, makeCurrent);
  if (!lines) return std::nullopt;
  parts.layers.push_back(*lines);
  paintOverlay(target, kept.overlay);
  for (PictureLayer& l : kept.overlay.pictureLayers()) parts.layers.push_back(std::move(l));
  return parts;
}

// ---- Layout and decorations ------------------------------------------------------------------------

QStringList SliceRenderer::hudText(const FrameTarget& target) const {
  QStringList warnings;
  if (overlayOn_ && velocity_ && !velocityMatches() && mode_ != Mode::Volume)
    warnings << "velocity overlay hidden: its planes do not match the wavefield's grid and slice point";
  if (const int nonFinite = gain_.lastMeasurement().nonFinite; nonFinite > 0)
    warnings << QString("warning: %1 NaN/Inf samples in the slices (shown magenta)").arg(nonFinite);
  return decorations_.hudText(target, geometry_, warnings);
}

PlaneLayout SliceRenderer::planeLayout(const FrameTarget& target) const {
  return decorations_.planeLayout(planeOf(mode_), geometry_, target, int(hudText(target).size()));
}

std::optional<SliceRenderer::ColourBars> SliceRenderer::colourBars(const FrameTarget& target) const {
  const ColourTable* table = Colormap::table(colormapName_);
  if (table == nullptr || !hasPicture() || !target.colourBar || !problem_.isEmpty()) return std::nullopt;
  const float clip = gain_.clip();
  QString caption = gainCaption(gain_);
  // A magnitude (the compare view's |u − u_ref|) names its largest value under the bar: the bar's top is
  // a percentile, and the max printed beside the view would otherwise be nowhere on it.
  if (magnitudeRange_ && slices_) caption = caption.section('\n', 0, 0) + "\nmax " + QString::number(finiteRange(*slices_)[1], 'e', 1);
  ColourBars bars{{table, magnitudeRange_ ? 0.0f : -clip, clip, decorations_.fieldLabel(), caption}, std::nullopt};
  // The velocity overlay tints slices: the volume has none (its context is the model's contrasts).
  if (overlayOn_ && velocityMatches() && mode_ != Mode::Volume)
    bars.velocity = Decorations::ColourBar{&rockTable(), velocityRange_[0], velocityRange_[1], "v (m/s)", {}};
  return bars;
}

void SliceRenderer::paintMarks(QPainter& painter, const FrameTarget& target) const {
  if (!hasPicture() || !target.labels) return;
  const SliceGeometry& shown = shownGeometry();
  if (is3D(mode_))  // the volume shows every receiver, the slices those on them
    decorations_.paint3D(painter, camera_.camera(), target, shown, mode_ == Mode::Orthogonal3D);
  else
    decorations_.paint2D(painter, planeLayout(target), shown);
}

void SliceRenderer::paintNotices(QPainter& painter, const FrameTarget& target) const {
  if (!problem_.isEmpty()) return;
  // The mouse's hint only on screen: a saved picture or a video cannot be dragged.
  if (is3D(mode_) && hasPicture() && target.hud && target.onScreen) decorations_.paintMouseHint(painter, target);
  if (!dataProblem_.isEmpty())
    decorations_.paintMessage(painter, target, dataProblem_, true);
  else if (!hasPicture())
    decorations_.paintMessage(painter, target, decorations_.idleMessage(), false);
  else if (mode_ == Mode::Volume && !volumeImage_.hasImage())
    decorations_.paintMessage(painter, target, "Waiting for the first volume image.", false);
}

// Recording the painting itself (QPicture) as the key cost 0.7-0.9 ms a frame on an H200's host, more
// than painting the HUD: the labels' places follow from the camera's matrices, the frame, the view, the
// grid shown and what is marked on it.
QByteArray SliceRenderer::marksKey(const FrameTarget& target) const {
  return OverlayLayer::keyOf([&](QDataStream& out) {
    out << hasPicture() << target.labels << int(mode_) << target.canvas << target.colourBar << decorations_.marksKey();
    const SliceGeometry& shown = shownGeometry();
    for (int a = 0; a < 3; ++a) out << shown.size[std::size_t(a)] << shown.point[std::size_t(a)];
    if (is3D(mode_)) {
      const OrbitCamera& camera = camera_.camera();
      const float aspect = float(sceneWidth(target)) / float(std::max(target.canvas.height(), 1.0));
      for (const glm::mat4& m : {camera.view(), camera.projection(aspect)})
        out << QByteArray(reinterpret_cast<const char*>(&m), sizeof m);
    } else {
      const PlaneLayout layout = planeLayout(target);
      out << int(layout.plane) << layout.rect << layout.pixelsPerCell;
    }
  });
}

QByteArray SliceRenderer::noticesKey(const FrameTarget& target) const {
  return OverlayLayer::keyOf([&](QDataStream& out) {
    out << problem_ << int(mode_) << hasPicture() << target.hud << target.onScreen << target.canvas << dataProblem_
        << decorations_.idleMessage() << volumeImage_.hasImage();
  });
}

void SliceRenderer::paintDecorations(QPainter& painter, const FrameTarget& target) const {
  const QStringList hud = hudText(target);
  paintMarks(painter, target);
  if (!problem_.isEmpty()) return;
  if (const std::optional<ColourBars> bars = colourBars(target))
    decorations_.paintColourBars(painter, target, int(hud.size()), bars->field, bars->velocity);
  decorations_.paintHud(painter, target, hud);
  paintNotices(painter, target);
}

}  // namespace iso
