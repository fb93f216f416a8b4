#include "render/SliceView.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include <QDebug>
#include <QFontMetricsF>
#include <QLabel>
#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLFunctions>
#include <QOpenGLShaderProgram>
#include <QOpenGLVersionFunctionsFactory>
#include <QPainter>
#include <QPainterPath>
#include <QSurfaceFormat>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <glm/gtc/matrix_transform.hpp>

#include "render/SliceWindow.h"

namespace iso {
namespace {

const QColor kBackground(30, 31, 34);
constexpr int kFieldUnit = 0, kColormapUnit = 1, kVelocityUnit = 2;
constexpr double kClickSlopPixels = 4.0;  // a press and release closer than this is a click
// How long a context that goes away waits for the mapped buffers' users to let go of them.
constexpr std::chrono::seconds kMappedReleaseWait{2};

// Room around a 2D plane for its heading, metre axes and the colour bar (logical pixels).
constexpr double kMarginLeft = 96, kMarginRight = 118, kMarginTop = 36, kMarginBottom = 54;
constexpr double kHudInset = 8;  // the HUD's text from the view's top left corner
constexpr double kTwoColourBarsHeight = 260;  // below it, a view shows the wavefield's colour bar alone

SlicePlane planeOf(SliceView::Mode mode) {
  switch (mode) {
    case SliceView::Mode::PlaneXZ: return SlicePlane::XZ;
    case SliceView::Mode::PlaneYZ: return SlicePlane::YZ;
    default: return SlicePlane::XY;
  }
}

bool positiveFinite(double v) { return std::isfinite(v) && v > 0.0; }

// Multisampling (anti-aliased lines and slice edges) is nearly free on a GPU but multiplies a software
// rasterizer's work: under Mesa's llvmpipe 4 samples nearly double the paint time of a frame
// (docs/PERFORMANCE.md, the live view's cost). Probed once, with an offscreen context of the same platform.
int multisampleSamples() {
  static const int samples = [] {
    QOffscreenSurface surface;
    surface.create();
    QOpenGLContext probe;
    if (!probe.create() || !probe.makeCurrent(&surface)) return 4;
    const auto* name = reinterpret_cast<const char*>(probe.functions()->glGetString(GL_RENDERER));
    const QString renderer = QString::fromLatin1(name ? name : "").toLower();
    probe.doneCurrent();
    const bool software = renderer.contains("llvmpipe") || renderer.contains("softpipe") ||
                          renderer.contains("swrast") || renderer.contains("software");
    return software ? 0 : 4;
  }();
  return samples;
}

}  // namespace

SliceView::SliceView(QWidget* parent) : QWidget(parent) {
  format_ = QSurfaceFormat::defaultFormat();
  format_.setRenderableType(QSurfaceFormat::OpenGL);
  format_.setVersion(3, 3);
  format_.setProfile(QSurfaceFormat::CoreProfile);
  format_.setDepthBufferSize(24);
  format_.setSamples(multisampleSamples());
  window_ = new SliceWindow(*this, format_);
  container_ = QWidget::createWindowContainer(window_, this);
  container_->setFocusPolicy(Qt::NoFocus);  // the view itself takes the keyboard
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(container_);
  QPalette dark = palette();
  dark.setColor(QPalette::Window, kBackground);
  setPalette(dark);
  setAutoFillBackground(true);
  frameTimer_.setSingleShot(true);
  connect(&frameTimer_, &QTimer::timeout, this, &SliceView::paintWindow);
  setMinimumSize(320, 240);
  setMouseTracking(true);  // the value under the pointer, without a button pressed
  setFocusPolicy(Qt::StrongFocus);
}

SliceView::~SliceView() {
  blockSignals(true);  // whoever listens may be half destroyed already
  frameTimer_.stop();
  // The drawing window now: it calls back into this view, whose members go before QWidget's destructor
  // would delete it.
  delete container_;
  container_ = nullptr;
  window_ = nullptr;
  slices_.reset();     // nothing left to draw: no copy out of the mapped buffers
  if (gl_ != nullptr && context_ != nullptr && makeCurrent()) {
    releaseGl();
    doneCurrent();
  }
}

// ---- Setters -------------------------------------------------------------------------------------

void SliceView::setSlices(std::shared_ptr<const SliceSet> slices) {
  if (slices) {
    const std::string problem = sliceSetProblem(*slices);
    if (!problem.empty()) {
      dataProblem_ = QString("Wavefield slices refused: %1").arg(QString::fromStdString(problem));
      qWarning().noquote() << dataProblem_;
      requestFrame();
      return;
    }
  }
  dataProblem_.clear();
  slices_ = std::move(slices);
  geometry_ = slices_ ? SliceGeometry::of(*slices_) : SliceGeometry{};
  fieldDirty_ = true;
  if (slices_) setClipInUse(gain_.update(*slices_));
  requestFrame();
  if (slices_) emit slicesChanged(slices_->step);
}

void SliceView::setVelocitySlices(std::shared_ptr<const SliceSet> velocity) {
  if (velocity) {
    const std::string problem = sliceSetProblem(*velocity);
    if (!problem.empty()) {
      qWarning().noquote() << "Velocity slices refused:" << QString::fromStdString(problem);
      velocity.reset();
    }
  }
  velocity_ = std::move(velocity);
  if (velocity_) {
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    for (std::span<const float> plane : {velocity_->xy, velocity_->xz, velocity_->yz})
      for (float v : plane)
        if (std::isfinite(v)) {
          lo = std::min(lo, v);
          hi = std::max(hi, v);
        }
    velocityRange_ = lo <= hi ? std::array<float, 2>{lo, hi} : std::array<float, 2>{0.0f, 1.0f};
  }
  velocityDirty_ = true;
  requestFrame();
}

void SliceView::setGridSpacing(double dxMetres) {
  if (!positiveFinite(dxMetres)) {
    qWarning() << "SliceView::setGridSpacing: the spacing must be a positive number of metres, got" << dxMetres;
    return;
  }
  dx_ = dxMetres;
  requestFrame();
}

void SliceView::setSourceCell(int i, int j, int k) {
  source_ = {i, j, k};
  requestFrame();
}

void SliceView::setReceivers(const std::vector<Cell>& cells) {
  if (cells == receivers_) return;
  receivers_ = cells;
  requestFrame();
}

void SliceView::setMode(Mode mode) {
  mode_ = mode;
  requestFrame();
}

void SliceView::setMaxFrameRate(int framesPerSecond) {
  maxFrameRate_ = std::clamp(framesPerSecond, 1, kMaxFrameRate);
}

QStringList SliceView::colormapNames() { return Colormap::names(); }

void SliceView::setColormap(const QString& name) {
  if (Colormap::table(name) == nullptr) {
    qWarning().noquote() << "SliceView::setColormap: unknown colormap" << name << "(known:"
                         << Colormap::names().join(", ") + ")";
    return;
  }
  colormapName_ = name;
  colormapDirty_ = true;
  requestFrame();
}

void SliceView::setGainMode(GainMode mode) {
  gain_.setMode(mode);
  setClipInUse(gain_.clip());
  requestFrame();
}

void SliceView::setAutoGain(bool on) { setGainMode(on ? GainMode::Automatic : GainMode::Fixed); }

void SliceView::setClip(float clip) {
  if (!gain_.setFixedClip(clip)) {
    qWarning() << "SliceView::setClip: the range must be a positive finite number, got" << clip;
    return;
  }
  setClipInUse(gain_.clip());
}

float SliceView::clip() const { return clip_; }

void SliceView::setClipInUse(float clip) {
  if (clip == clip_) return;
  clip_ = clip;
  emit clipChanged(clip_);
  requestFrame();
}

void SliceView::setVelocityOverlay(bool on, float opacity) {
  if (!(opacity >= 0.0f && opacity <= 1.0f)) {
    qWarning() << "SliceView::setVelocityOverlay: opacity must lie in [0, 1], got" << opacity << "- clamped";
    opacity = std::isfinite(opacity) ? std::clamp(opacity, 0.0f, 1.0f) : 0.35f;
  }
  overlayOn_ = on;
  overlayOpacity_ = opacity;
  requestFrame();
}

void SliceView::setHudLines(const QStringList& lines) {
  if (lines == hudLines_) return;
  hudLines_ = lines;
  requestFrame();
}

void SliceView::setScreenNotice(const QString& line) {
  if (line == screenNotice_) return;
  screenNotice_ = line;
  requestFrame();
}

void SliceView::setFieldLabel(const QString& label) {
  fieldLabel_ = label;
  requestFrame();
}

void SliceView::resetCamera() {
  if (geometry_.empty()) {
    framedSize_ = {0, 0, 0};  // framed at the first paint with data
  } else {
    camera_.frame(glm::vec3(0.0f), geometry_.boundingRadius());
    framedSize_ = geometry_.size;
  }
  requestFrame();
}

void SliceView::setCamera(const OrbitCamera& camera) {
  camera_ = camera;
  if (!geometry_.empty()) framedSize_ = geometry_.size;  // taken as framed: the next paint keeps it
  requestFrame();
}

std::optional<Cell> SliceView::sourceInGrid() const {
  const Cell& s = source_;
  if (s.i < 0 || geometry_.empty()) return std::nullopt;
  if (s.i >= geometry_.size[0] || s.j < 0 || s.j >= geometry_.size[1] || s.k < 0 || s.k >= geometry_.size[2])
    return std::nullopt;
  return s;
}

bool SliceView::velocityMatches() const {
  return velocity_ && velocityTextures_.hasData() && velocityTextures_.geometry() == fieldTextures_.geometry();
}

// ---- GL lifetime ---------------------------------------------------------------------------------

bool SliceView::failGl(const QString& problem) {
  glProblem_ = problem;
  ready_ = false;
  qWarning().noquote() << "SliceView:" << problem;
  // A raster child widget, not GL painting: the GL context that failed may not be able to show text.
  // Shown from the event loop, since this may run inside a frame.
  QMetaObject::invokeMethod(this, [this] {
    if (glProblem_.isEmpty()) return;
    if (problemLabel_ == nullptr) {
      problemLabel_ = new QLabel(this);
      problemLabel_->setWordWrap(true);
      problemLabel_->setAlignment(Qt::AlignCenter);
      problemLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
      problemLabel_->setStyleSheet("QLabel { background: rgb(60, 20, 20); color: rgb(255, 205, 195);"
                                   " border: 1px solid rgb(235, 90, 80); border-radius: 6px; padding: 12px; }");
    }
    problemLabel_->setText(glProblem_);
    placeProblemLabel();
    container_->hide();  // a native window would cover the label
    problemLabel_->show();
  }, Qt::QueuedConnection);
  return false;
}

void SliceView::placeProblemLabel() {
  if (problemLabel_ == nullptr) return;
  const int w = std::max(200, width() * 4 / 5);
  const int h = problemLabel_->heightForWidth(w);
  problemLabel_->setGeometry((width() - w) / 2, std::max(0, (height() - h) / 2), w, std::min(h, height()));
}

void SliceView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  placeProblemLabel();
}

bool SliceView::ensureGl() {
  if (context_) return ready_;
  // The offscreen surface serves everything but the window's own frames: uploads, mapped buffers and
  // renderImage work before the window is first shown, and while it is hidden.
  offscreen_ = std::make_unique<QOffscreenSurface>();
  offscreen_->setFormat(format_);
  offscreen_->create();
  context_ = std::make_unique<QOpenGLContext>();
  context_->setFormat(format_);
  if (!context_->create() || !offscreen_->isValid() || !context_->makeCurrent(offscreen_.get()))
    return failGl("Could not create an OpenGL context for the view. Update the graphics driver, or use Mesa's "
                  "software renderer (LIBGL_ALWAYS_SOFTWARE=1).");
  initializeGL();
  context_->doneCurrent();
  return ready_;
}

bool SliceView::makeCurrent() {
  if (context_->makeCurrent(offscreen_.get())) return true;
  qWarning() << "SliceView: could not make the OpenGL context current";
  return false;
}

void SliceView::doneCurrent() { context_->doneCurrent(); }

void SliceView::requestFrame() {
  if (frameTimer_.isActive()) return;
  const qint64 interval = (1000 + maxFrameRate_ - 1) / maxFrameRate_;  // whole milliseconds, rounded up
  const qint64 since = sinceFrame_.isValid() ? sinceFrame_.elapsed() : interval;
  frameTimer_.start(int(std::clamp<qint64>(interval - since, 0, interval)));
}

QSize SliceView::drawWindowFrame() {
  if (!window_ || !window_->isExposed() || !ensureGl()) return {};
  if (!context_->makeCurrent(window_)) {
    failGl("Could not draw into the view's window: the OpenGL context cannot be made current on it.");
    return {};
  }
  gl_->glBindFramebuffer(GL_FRAMEBUFFER, context_->defaultFramebufferObject());
  const double ratio = window_->devicePixelRatio();
  const QSize pixels(int(std::lround(window_->width() * ratio)), int(std::lround(window_->height() * ratio)));
  drawFrame(pixels.width(), pixels.height(), ratio);
  return pixels;
}

void SliceView::paintWindow() {
  frameTimer_.stop();
  sinceFrame_.restart();
  if (drawWindowFrame().isEmpty()) return;
  context_->swapBuffers(window_);
  emit frameDrawn();
}

QImage SliceView::grabWindowFrame() {
  const QSize pixels = drawWindowFrame();
  if (pixels.isEmpty()) return {};
  QImage image(pixels, QImage::Format_RGBX8888);
  gl_->glReadBuffer(GL_BACK);
  gl_->glPixelStorei(GL_PACK_ALIGNMENT, 4);
  gl_->glReadPixels(0, 0, pixels.width(), pixels.height(), GL_RGBA, GL_UNSIGNED_BYTE, image.bits());
  if (!drainGlErrors(gl_, "reading the window's frame back").isEmpty()) return {};
  return image.mirrored();  // GL rows run bottom up
}

QImage SliceView::grabFramebuffer() {
  if (!ensureGl()) return {};
  const double ratio = devicePixelRatioF();
  ImageOptions options;
  options.size = QSize(std::max(1, int(std::lround(width() * ratio))), std::max(1, int(std::lround(height() * ratio))));
  options.scale = ratio;  // the window's layout
  QString error;
  QImage image = renderImage(options, error);
  if (image.isNull()) qWarning().noquote() << "SliceView: could not grab the view:" << error;
  return image;
}

QImage SliceView::grabWithViews(QWidget& root) {
  QImage image = root.grab().toImage();
  QPainter painter(&image);
  for (SliceView* view : root.findChildren<SliceView*>()) {
    if (view->visibleRegion().isEmpty()) continue;
    const QImage picture = view->grabFramebuffer();
    if (!picture.isNull()) painter.drawImage(QRectF(view->mapTo(&root, QPoint(0, 0)), view->size()), picture);
  }
  return image;
}

void SliceView::initializeGL() {
  glProblem_.clear();
  const QSurfaceFormat got = context()->format();
  const bool versionOk = !context()->isOpenGLES() &&
                         (got.majorVersion() > 3 || (got.majorVersion() == 3 && got.minorVersion() >= 3));
  gl_ = versionOk ? QOpenGLVersionFunctionsFactory::get<GlFunctions>(context()) : nullptr;
  if (gl_ == nullptr || !gl_->initializeOpenGLFunctions()) {
    gl_ = nullptr;
    failGl(QString("This view needs OpenGL 3.3 (core profile), but the system provides OpenGL%1 %2.%3. "
                   "Update the graphics driver, or use Mesa's software renderer (LIBGL_ALWAYS_SOFTWARE=1).")
               .arg(context()->isOpenGLES() ? " ES" : "")
               .arg(got.majorVersion())
               .arg(got.minorVersion()));
    return;
  }
  glInfo_ = QString("OpenGL %1 · %2")
                .arg(reinterpret_cast<const char*>(gl_->glGetString(GL_VERSION)),
                     reinterpret_cast<const char*>(gl_->glGetString(GL_RENDERER)));

  sliceProgram_ = std::make_unique<QOpenGLShaderProgram>();
  if (const QString log = buildShaderProgram(*sliceProgram_, ":/shaders/slice.vert", ":/shaders/slice.frag");
      !log.isEmpty()) {
    failGl(log);
    return;
  }
  sliceProgram_->bind();
  sliceProgram_->setUniformValue("field", kFieldUnit);
  sliceProgram_->setUniformValue("colormap", kColormapUnit);
  sliceProgram_->setUniformValue("velocity", kVelocityUnit);
  sliceProgram_->release();

  gl_->glGenVertexArrays(1, &quadVao_);
  gl_->glGenBuffers(1, &quadVbo_);
  gl_->glBindVertexArray(quadVao_);
  gl_->glBindBuffer(GL_ARRAY_BUFFER, quadVbo_);
  gl_->glBufferData(GL_ARRAY_BUFFER, sizeof(quadVertices_), nullptr, GL_DYNAMIC_DRAW);
  quadVertices_.fill(std::numeric_limits<float>::quiet_NaN());  // forces the first upload
  const GLsizei stride = 5 * sizeof(float);
  gl_->glEnableVertexAttribArray(0);
  gl_->glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, nullptr);
  gl_->glEnableVertexAttribArray(1);
  gl_->glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(3 * sizeof(float)));
  gl_->glBindVertexArray(0);
  if (const QString e = drainGlErrors(gl_, "creating the slice quads"); !e.isEmpty()) {
    failGl(e);
    return;
  }

  if (!fieldTextures_.create(gl_)) return void(failGl(fieldTextures_.lastError()));
  if (!velocityTextures_.create(gl_)) return void(failGl(velocityTextures_.lastError()));
  if (!colormapTexture_.create(gl_)) return void(failGl(colormapTexture_.lastError()));
  if (!overlays_.create(gl_)) return void(failGl(overlays_.lastError()));
  if (!overlayLayer_.create(gl_)) return void(failGl(overlayLayer_.lastError()));
  if (!imageOverlay_.create(gl_)) return void(failGl(imageOverlay_.lastError()));
  fieldDirty_ = velocityDirty_ = colormapDirty_ = true;
  ready_ = true;
}

void SliceView::releaseGl() {
  if (gl_ == nullptr) return;
  releaseMappedBuffers();
  fieldTextures_.destroy(gl_);
  velocityTextures_.destroy(gl_);
  colormapTexture_.destroy(gl_);
  overlays_.destroy(gl_);
  if (quadVbo_ != 0) gl_->glDeleteBuffers(1, &quadVbo_);
  if (quadVao_ != 0) gl_->glDeleteVertexArrays(1, &quadVao_);
  quadVao_ = quadVbo_ = 0;
  sliceProgram_.reset();
  imageFbo_.reset();
  overlayLayer_.destroy(gl_);
  imageOverlay_.destroy(gl_);
  imageBuffer_ = QImage();
  gl_ = nullptr;
  ready_ = false;
}

// ---- Drawing -------------------------------------------------------------------------------------

bool SliceView::uploadPending() {
  if (colormapDirty_) {
    if (!colormapTexture_.select(gl_, colormapName_)) return failGl(colormapTexture_.lastError());
    colormapDirty_ = false;
  }
  if (fieldDirty_) {
    if (slices_ && !uploadField()) return failGl(fieldTextures_.lastError());
    fieldDirty_ = false;
  }
  if (velocityDirty_) {
    if (velocity_ && !velocityTextures_.upload(gl_, *velocity_)) return failGl(velocityTextures_.lastError());
    velocityDirty_ = false;
  }
  return true;
}

// ---- Mapped buffers --------------------------------------------------------------------------------

std::optional<SliceView::MappedBuffers> SliceView::mapSliceBuffers(int count, std::size_t floats, QString& problem) {
  if (!ensureGl()) {
    problem = glProblem_.isEmpty() ? QStringLiteral("the view's OpenGL is not ready") : glProblem_;
    return std::nullopt;
  }
  if (!mappedProblem_.isEmpty()) {
    problem = mappedProblem_;
    return std::nullopt;
  }
  if (!makeCurrent()) {
    problem = QStringLiteral("the view's OpenGL context cannot be made current");
    return std::nullopt;
  }
  MappedSet set;
  const bool made = set.buffers.create(*context(), gl_, count, floats);
  const QString provider = MappedSliceBuffers::provider(*context());
  doneCurrent();
  if (!made) {
    problem = set.buffers.lastError();
    return std::nullopt;
  }
  set.released = std::make_shared<std::atomic<bool>>(false);
  MappedBuffers out{set.buffers.memory(), nullptr, provider};
  // The owner's last copy may go on any thread: it only raises the flag the next paint looks at.
  out.owner = std::shared_ptr<const void>(set.released.get(), [released = set.released](const void*) {
    released->store(true, std::memory_order_release);
  });
  mapped_.push_back(std::move(set));
  return out;
}

std::optional<MappedSliceBuffers::Location> SliceView::mappedLocation(const SliceSet& slices) const {
  for (const MappedSet& set : mapped_)
    if (const auto at = set.buffers.locate(slices.xy.data(), slices.planeFloats())) return at;
  return std::nullopt;
}

bool SliceView::uploadField() {
  const auto from = mappedProblem_.isEmpty() ? mappedLocation(*slices_) : std::nullopt;
  if (!from) return fieldTextures_.upload(gl_, *slices_);
  if (fieldTextures_.upload(gl_, *slices_, from)) {
    // The set is held until the GL has read the buffer; only then may its slot be written again.
    if (GLsync fence = gl_->glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0)) {
      uploads_.push_back({fence, slices_});
      return true;
    }
    mappedProblem_ = drainGlErrors(gl_, "fencing an upload from a mapped buffer");
    if (mappedProblem_.isEmpty()) mappedProblem_ = "glFenceSync returned no fence";
    gl_->glFinish();  // the upload has read the buffer
    return true;
  }
  // From now on planes in mapped buffers are uploaded from their memory, like any other.
  mappedProblem_ = fieldTextures_.lastError();
  return fieldTextures_.upload(gl_, *slices_);
}

void SliceView::retireUploads() {
  std::erase_if(uploads_, [this](const Upload& upload) {
    const GLenum state = gl_->glClientWaitSync(upload.fence, 0, 0);
    if (state == GL_TIMEOUT_EXPIRED) return false;
    if (state == GL_WAIT_FAILED) {
      mappedProblem_ = drainGlErrors(gl_, "waiting for an upload from a mapped buffer");
      if (mappedProblem_.isEmpty()) mappedProblem_ = "glClientWaitSync failed";
      gl_->glFinish();
    }
    gl_->glDeleteSync(upload.fence);
    return true;
  });
}

void SliceView::deleteReleasedBuffers() {
  std::erase_if(mapped_, [this](MappedSet& set) {
    if (!set.released->load(std::memory_order_acquire)) return false;
    set.buffers.destroy(gl_);
    return true;
  });
}

void SliceView::releaseMappedBuffers() {
  if (mapped_.empty()) return;
  // The picture stays, its planes in memory of the view's own.
  if (slices_ && mappedLocation(*slices_)) slices_ = std::make_shared<const SliceSet>(slices_->copy());
  gl_->glFinish();  // every upload has read its buffer
  for (const Upload& upload : uploads_) gl_->glDeleteSync(upload.fence);
  uploads_.clear();
  const auto released = [this] {
    return std::all_of(mapped_.begin(), mapped_.end(),
                       [](const MappedSet& set) { return set.released->load(std::memory_order_acquire); });
  };
  // The writer finishes the frame it writes, a reader the set it reads.
  for (const auto until = std::chrono::steady_clock::now() + kMappedReleaseWait;
       !released() && std::chrono::steady_clock::now() < until;)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (!released())
    qWarning() << "SliceView: slices in the mapped buffers are still in use as the GL context goes away";
  for (MappedSet& set : mapped_) set.buffers.destroy(gl_);
  mapped_.clear();
}

int SliceView::sceneWidth() const {
  // The 3D scene leaves the colour bar its own column, so the bar never hides the volume.
  const int width = int(std::lround(canvas().width()));
  return decorations_.colourBar ? std::max(width - int(kMarginRight), width / 2) : width;
}

QStringList SliceView::hudText() const {
  if (!decorations_.hud) return {};
  QStringList lines = hudLines_;
  if (!canvas_ && !screenNotice_.isEmpty()) lines << screenNotice_;  // renderImage sets canvas_
  if (overlayOn_ && velocity_ && !velocityMatches())
    lines << "velocity overlay hidden: its planes do not match the wavefield's grid and slice point";
  if (const auto source = sourceInGrid()) {
    const std::array<int, 3> at{source->i, source->j, source->k};
    const std::array<int, 3> n{slices_ ? slices_->n1 : 0, slices_ ? slices_->n2 : 0, slices_ ? slices_->n3 : 0};
    for (std::size_t a = 0; a < 3; ++a)
      if (absorbingCells_[a] > 0 && (at[a] < absorbingCells_[a] || at[a] >= n[a] - absorbingCells_[a])) {
        lines << "warning: the source is inside the absorbing layer: its wave is damped as it starts";
        break;
      }
  }
  if (gain_.lastMeasurement().nonFinite > 0)
    lines << QString("warning: %1 NaN/Inf samples in the slices (shown magenta)").arg(gain_.lastMeasurement().nonFinite);
  return lines;
}

double SliceView::hudHeight() const {
  const int lines = int(hudText().size());
  return lines > 0 ? hud_.textLinesHeight(lines) + 4.0 : 0.0;
}

// Below the HUD panel, so that the HUD and the plane's heading never hide each other.
double SliceView::contentTop() const { return kMarginTop + hudHeight(); }

PlaneLayout SliceView::planeLayout() const {
  const double top = contentTop();
  const QSizeF size = canvas();
  const QRectF area(kMarginLeft, top, std::max(size.width() - kMarginLeft - kMarginRight, 16.0),
                    std::max(size.height() - top - kMarginBottom, 16.0));
  return PlaneLayout::fit(planeOf(mode_), geometry_, area);
}

QRectF SliceView::planeRect() const {
  if (mode_ == Mode::Orthogonal3D || geometry_.empty()) return {};
  return planeLayout().rect;
}

void SliceView::drawSliceQuads(const glm::mat4& viewProjection, int first, int count,
                               const std::array<SlicePlane, 3>& planes) {
  sliceProgram_->bind();
  gl_->glUniformMatrix4fv(sliceProgram_->uniformLocation("viewProjection"), 1, GL_FALSE, &viewProjection[0][0]);
  sliceProgram_->setUniformValue("clip", clip_);
  const bool overlay = overlayOn_ && velocityMatches();
  sliceProgram_->setUniformValue("overlayOpacity", overlay ? overlayOpacity_ : 0.0f);
  sliceProgram_->setUniformValue("velocityRange", velocityRange_[0], velocityRange_[1]);
  colormapTexture_.bind(gl_, kColormapUnit);
  gl_->glBindVertexArray(quadVao_);
  for (int n = 0; n < count; ++n) {
    fieldTextures_.bind(gl_, planes[n], kFieldUnit);
    velocityTextures_.bind(gl_, planes[n], kVelocityUnit);
    gl_->glDrawArrays(GL_TRIANGLE_FAN, 4 * (first + n), 4);
  }
  gl_->glBindVertexArray(0);
  sliceProgram_->release();
}

void SliceView::drawSlices3D(int widthPx, int heightPx) {
  const SliceGeometry& g = fieldTextures_.geometry();
  if (framedSize_ != g.size) {
    camera_.frame(glm::vec3(0.0f), g.boundingRadius());
    framedSize_ = g.size;
  }
  std::array<float, 16 * 5> vertices = quadVertices_;
  const float corners[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  for (SlicePlane p : kSlicePlanes)
    for (int c = 0; c < 4; ++c) {
      const glm::vec3 w = g.planeCorner(p, corners[c][0], corners[c][1]);
      float* v = &vertices[(4 * int(p) + c) * 5];
      v[0] = w.x, v[1] = w.y, v[2] = w.z, v[3] = corners[c][0], v[4] = corners[c][1];
    }
  if (vertices != quadVertices_) {
    quadVertices_ = vertices;
    gl_->glBindBuffer(GL_ARRAY_BUFFER, quadVbo_);
    gl_->glBufferSubData(GL_ARRAY_BUFFER, 0, 12 * 5 * sizeof(float), quadVertices_.data());
  }
  fieldTextures_.setMagnifyNearest(gl_, false);
  velocityTextures_.setMagnifyNearest(gl_, false);
  gl_->glViewport(0, 0, widthPx, heightPx);
  glm::mat4 viewProjection = camera_.projection(float(widthPx) / float(std::max(heightPx, 1))) * camera_.view();
  if (imageRowsDown_) viewProjection = glm::scale(glm::mat4(1.0f), glm::vec3(1.0f, -1.0f, 1.0f)) * viewProjection;
  gl_->glEnable(GL_DEPTH_TEST);
  drawSliceQuads(viewProjection, 0, 3, {SlicePlane::XY, SlicePlane::XZ, SlicePlane::YZ});
  gl_->glEnable(GL_BLEND);
  gl_->glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  if (!overlays_.update(gl_, g, dx_, sourceInGrid(), absorbingCells_)) failGl(overlays_.lastError());
  overlays_.draw3D(gl_, viewProjection);
  gl_->glDisable(GL_BLEND);
  gl_->glDisable(GL_DEPTH_TEST);
}

void SliceView::drawPlane2D(const PlaneLayout& layout) {
  const QRectF& r = layout.rect;
  // Texture row 0 (the array's first row) at the top of the rectangle.
  const float quad[4][5] = {{float(r.left()), float(r.top()), 0, 0, 0},
                            {float(r.right()), float(r.top()), 0, 1, 0},
                            {float(r.right()), float(r.bottom()), 0, 1, 1},
                            {float(r.left()), float(r.bottom()), 0, 0, 1}};
  float* target = &quadVertices_[12 * 5];
  if (!std::equal(&quad[0][0], &quad[0][0] + 20, target)) {
    std::copy(&quad[0][0], &quad[0][0] + 20, target);
    gl_->glBindBuffer(GL_ARRAY_BUFFER, quadVbo_);
    gl_->glBufferSubData(GL_ARRAY_BUFFER, 12 * 5 * sizeof(float), 20 * sizeof(float), target);
  }
  // Magnified cells as crisp blocks; a linear filter would blur them into each other.
  fieldTextures_.setMagnifyNearest(gl_, true);
  velocityTextures_.setMagnifyNearest(gl_, true);
  // Logical pixels, y down, like QPainter.
  const QSizeF size = canvas();
  const float w = float(size.width()), h = float(size.height());
  const glm::mat4 pixels = imageRowsDown_ ? glm::ortho(0.0f, w, 0.0f, h, -1.0f, 1.0f) : glm::ortho(0.0f, w, h, 0.0f, -1.0f, 1.0f);
  drawSliceQuads(pixels, 3, 1, {layout.plane, layout.plane, layout.plane});
}

void SliceView::drawFrame(int widthPx, int heightPx, double pixelRatio) {
  const bool draw3D = mode_ == Mode::Orthogonal3D;
  if (draw3D) {
    // The HUD's text covers the top of the view: the volume is framed below it, never under it.
    const double hud = hudHeight();
    camera_.setCoveredTop(float((hud > 0.0 ? kHudInset + hud : 0.0) / std::max(canvas().height(), 1.0)));
  }
  if (ready_) {
    retireUploads();
    deleteReleasedBuffers();
  }
  if (ready_ && uploadPending()) {
    gl_->glViewport(0, 0, widthPx, heightPx);
    gl_->glClearColor(kBackground.redF(), kBackground.greenF(), kBackground.blueF(), 1.0f);
    gl_->glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    if (slices_ && fieldTextures_.hasData()) {
      if (draw3D) {
        drawSlices3D(int(std::lround(sceneWidth() * pixelRatio)), heightPx);
        gl_->glViewport(0, 0, widthPx, heightPx);
      } else {
        drawPlane2D(planeLayout());
      }
    }
    if (const QString e = drainGlErrors(gl_, "drawing the frame"); !e.isEmpty()) failGl(e);
  }

  if (!ready_) {
    // Without a usable 3.3 context only the plain background is drawn; problemLabel_ explains.
    QOpenGLFunctions* basic = context()->functions();
    basic->glClearColor(kBackground.redF(), kBackground.greenF(), kBackground.blueF(), 1.0f);
    basic->glClear(GL_COLOR_BUFFER_BIT);
    return;
  }
  // renderImage has its own layer: a recording alternates between its frames and the window's.
  OverlayLayer& overlay = canvas_ ? imageOverlay_ : overlayLayer_;
  QPainter painter(&overlay.begin(widthPx, heightPx, pixelRatio));
  painter.setRenderHint(QPainter::Antialiasing, true);
  painter.setRenderHint(QPainter::TextAntialiasing, true);
  paintDecorations(painter);
  painter.end();
  gl_->glViewport(0, 0, widthPx, heightPx);
  if (!overlay.draw(gl_, imageRowsDown_)) failGl(overlay.lastError());
}

void SliceView::paintDecorations(QPainter& painter) {
  if (slices_ && fieldTextures_.hasData() && decorations_.labels) {
    if (mode_ != Mode::Orthogonal3D) {
      const PlaneLayout layout = planeLayout();
      paintAbsorbingLayer(painter, layout);
      overlays_.paint2D(painter, layout, fieldTextures_.geometry(), dx_, sourceInGrid(), hud_);
      Overlays::paintReceivers2D(painter, layout, fieldTextures_.geometry(), receivers_, hud_);
    } else {
      const int height = int(std::lround(canvas().height()));
      overlays_.paintLabels3D(painter, camera_, sceneWidth(), height, hud_);
      Overlays::paintReceivers3D(painter, camera_, sceneWidth(), height, fieldTextures_.geometry(), receivers_, hud_);
    }
  }
  paintOverlay(painter);
}

void SliceView::paintOverlay(QPainter& painter) {
  const QRectF area(QPointF(0, 0), canvas());
  if (!glProblem_.isEmpty()) return;  // problemLabel_ says what is wrong
  const bool hasPicture = slices_ && fieldTextures_.hasData();
  // Colour bars on the right: the wavefield, and the velocity when it is overlaid.
  if (hasPicture && decorations_.colourBar) {
    if (const ColourTable* table = Colormap::table(colormapName_)) {
      const double top = contentTop(), bottom = area.height() - kMarginBottom;
      // The velocity's bar only where both bars keep room for their ticks; the wavefield's comes first.
      const bool velocityBar = overlayOn_ && velocityMatches() && bottom - top >= kTwoColourBarsHeight;
      const double split = velocityBar ? top + 0.58 * (bottom - top) : bottom;
      hud_.drawColourBar(painter, QRectF(area.width() - kMarginRight + 14, top, kMarginRight - 18, split - top),
                         *table, -clip_, clip_, fieldLabel_, gainCaption(gain_));
      if (velocityBar) {
        static const ColourTable rock = [] {
          // The overlay's earth-tone ramp (slice.frag), as the overlay shows it at full opacity.
          ColourTable t(Colormap::kEntries);
          for (int n = 0; n < Colormap::kEntries; ++n) {
            const double s = double(n) / (Colormap::kEntries - 1);
            t[n] = {std::uint8_t(std::lround(255 * (0.22 + s * 0.73))), std::uint8_t(std::lround(255 * (0.17 + s * 0.69))),
                    std::uint8_t(std::lround(255 * (0.13 + s * 0.53)))};
          }
          return t;
        }();
        hud_.drawColourBar(painter, QRectF(area.width() - kMarginRight + 14, split + 12, kMarginRight - 18, bottom - split - 12),
                           rock, velocityRange_[0], velocityRange_[1], "v (m/s)");
      }
    }
  }

  hud_.drawTextLines(painter, QPointF(kHudInset, kHudInset), hudText(), area.width() - 2 * kHudInset);

  // The mouse's hint only on screen: a saved picture or a video cannot be dragged.
  if (mode_ == Mode::Orthogonal3D && hasPicture && decorations_.hud && !canvas_) {
    painter.save();
    painter.setFont(hud_.smallFont());
    painter.setPen(QColor(170, 173, 180));
    // One line where it fits, else two (the second starting at the mouse's clicks), elided only beyond that.
    const QString view = QString::fromUtf8("z is depth, pointing down \u00b7 drag: orbit \u00b7 right drag: pan \u00b7 wheel: zoom");
    const QString clicks = QString::fromUtf8("double click: reset \u00b7 click: pick a cell \u00b7 shift+click: add a receiver");
    const QString joined = view + QString::fromUtf8(" \u00b7 ") + clicks;
    const QFontMetricsF metrics(hud_.smallFont());
    const double width = area.width() - 16;
    const QStringList lines = metrics.horizontalAdvance(joined) <= width ? QStringList{joined} : QStringList{view, clicks};
    for (int n = 0; n < lines.size(); ++n)
      painter.drawText(QRectF(8, area.height() - 22 - 16.0 * (lines.size() - 1 - n), width, 18),
                       Qt::AlignLeft | Qt::AlignVCenter, metrics.elidedText(lines[n], Qt::ElideRight, width));
    painter.restore();
  }

  if (!dataProblem_.isEmpty())
    hud_.drawMessage(painter, area, dataProblem_, true);
  else if (!hasPicture)
    hud_.drawMessage(painter, area, "No wavefield yet: waiting for the first slices.", false);
}

// ---- Images at a chosen size ---------------------------------------------------------------------

QImage SliceView::renderImage(const ImageOptions& options, QString& error) {
  const QSize size = options.size;
  if (size.width() <= 0 || size.height() <= 0 || size.width() > kMaxImageSize.width() ||
      size.height() > kMaxImageSize.height()) {
    error = QStringLiteral("image size %1x%2 is out of range: 1x1 to %3x%4 pixels")
                .arg(size.width()).arg(size.height()).arg(kMaxImageSize.width()).arg(kMaxImageSize.height());
    return {};
  }
  if (!(options.scale == 0.0 || (std::isfinite(options.scale) && options.scale >= 0.5 && options.scale <= 16.0))) {
    error = QStringLiteral("image scale %1 is out of range: 0 (automatic) or 0.5 to 16").arg(options.scale);
    return {};
  }
  if (!ensureGl()) {
    error = "the view cannot draw: " + (glProblem_.isEmpty() ? QStringLiteral("OpenGL is not initialised yet") : glProblem_);
    return {};
  }
  if (!makeCurrent()) {
    error = QStringLiteral("the view's OpenGL context cannot be made current");
    return {};
  }
  const struct CurrentGuard {
    SliceView* view;
    ~CurrentGuard() {
      view->canvas_.reset();
      view->decorations_ = ImageOptions{};
      view->doneCurrent();
    }
  } guard{this};
  GLint maxRenderbuffer = 0, maxViewport[2] = {0, 0};
  gl_->glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &maxRenderbuffer);
  gl_->glGetIntegerv(GL_MAX_VIEWPORT_DIMS, maxViewport);
  if (const QString e = drainGlErrors(gl_, "querying the framebuffer limits"); !e.isEmpty()) return error = e, QImage();
  // QPainter cannot draw with fewer than one pixel per logical pixel: a smaller scale is drawn at
  // scale 1 into a larger framebuffer, then reduced to the size asked for.
  const double scale = options.scaleFor(size);
  const double drawScale = std::max(scale, 1.0);
  const QSize drawn = scale < 1.0 ? QSize(int(std::lround(size.width() / scale)), int(std::lround(size.height() / scale))) : size;
  const int limitW = std::min<int>(maxRenderbuffer, maxViewport[0]), limitH = std::min<int>(maxRenderbuffer, maxViewport[1]);
  if (drawn.width() > limitW || drawn.height() > limitH) {
    error = QStringLiteral("image size %1x%2 exceeds this OpenGL implementation's limit of %3x%4 pixels")
                .arg(drawn.width()).arg(drawn.height()).arg(limitW).arg(limitH);
    return {};
  }

  const int samples = format_.samples();  // the same anti-aliasing as the window
  if (!imageFbo_ || imageFbo_->size() != drawn || imageFbo_->format().samples() != samples) {
    imageFbo_.reset();  // the old one first: two 4K framebuffers need not exist at once
    QOpenGLFramebufferObjectFormat format;
    format.setAttachment(QOpenGLFramebufferObject::CombinedDepthStencil);
    format.setSamples(samples);
    imageFbo_ = std::make_unique<QOpenGLFramebufferObject>(drawn, format);
  }
  if (!imageFbo_->isValid() || !imageFbo_->bind()) {
    imageFbo_.reset();
    drainGlErrors(gl_, "creating the image framebuffer");
    error = QStringLiteral("could not create a %1x%2 framebuffer object (out of graphics memory?)")
                .arg(drawn.width()).arg(drawn.height());
    return {};
  }
  canvas_ = QSizeF(drawn.width() / drawScale, drawn.height() / drawScale);
  decorations_ = options;
  // Without samples to resolve, the frame is drawn upside down, so that OpenGL's rows (bottom up) read
  // back straight into the image's (top down): no pass to flip them.
  imageRowsDown_ = samples == 0;
  drawFrame(drawn.width(), drawn.height(), drawScale);
  imageRowsDown_ = false;
  if (!ready_) {  // drawFrame recorded a GL failure
    error = glProblem_;
    return {};
  }
  QImage image;
  if (samples > 0) {
    image = imageFbo_->toImage();  // resolves the samples; flipped from GL rows (bottom up) to image rows
  } else {
    // Read straight into memory kept from the last image (RGBA bytes, what the video encoder takes) once
    // the caller has let go of it: a fresh 8 MB (1080p) every frame costs a page fault per 4 KiB.
    if (imageBuffer_.size() != drawn || !imageBuffer_.isDetached()) imageBuffer_ = QImage(drawn, QImage::Format_RGBX8888);
    if (!imageBuffer_.isNull()) {
      gl_->glPixelStorei(GL_PACK_ALIGNMENT, 4);
      gl_->glReadPixels(0, 0, drawn.width(), drawn.height(), GL_RGBA, GL_UNSIGNED_BYTE, imageBuffer_.bits());
      image = imageBuffer_;
    }
  }
  QOpenGLFramebufferObject::bindDefault();
  if (const QString e = drainGlErrors(gl_, "reading the image back"); !e.isEmpty()) return error = e, QImage();
  if (!image.isNull() && drawn != size) image = image.scaled(size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
  if (image.isNull() || image.size() != size) {
    error = QStringLiteral("could not read the %1x%2 image back from OpenGL").arg(size.width()).arg(size.height());
    return {};
  }
  // Opaque RGBA bytes in memory order: what the video encoder takes, and PNG saves it as RGB. Every
  // pixel of the framebuffer is opaque (cleared opaque; the overlay is blended over it).
  return image.format() == QImage::Format_RGBX8888 ? image : image.convertToFormat(QImage::Format_RGBX8888);
}

// ---- Mouse ---------------------------------------------------------------------------------------

void SliceView::mousePressEvent(QMouseEvent* event) {
  pressPosition_ = lastPosition_ = event->position();
  pressButton_ = event->button();
  dragged_ = false;
  event->accept();
}

void SliceView::mouseMoveEvent(QMouseEvent* event) {
  const QPointF position = event->position();
  if ((position - pressPosition_).manhattanLength() > kClickSlopPixels) dragged_ = true;
  const QPointF delta = position - lastPosition_;
  lastPosition_ = position;
  if (event->buttons() == Qt::NoButton) {
    const auto cell = cellAt(position);
    emit cellHovered(cell ? cell->i : -1, cell ? cell->j : -1, cell ? cell->k : -1);
    return;
  }
  if (!dragged_ || mode_ != Mode::Orthogonal3D) return;
  if (event->buttons() & Qt::LeftButton)
    camera_.orbit(float(delta.x()), float(delta.y()));
  else if (event->buttons() & (Qt::RightButton | Qt::MiddleButton))
    camera_.pan(float(delta.x()), float(delta.y()), sceneWidth(), height());
  requestFrame();
  emit cameraMoved();
}

void SliceView::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() == pressButton_ && pressButton_ == Qt::LeftButton && !dragged_)
    pick(event->position(), event->modifiers());
  pressButton_ = Qt::NoButton;
  dragged_ = false;
}

void SliceView::mouseDoubleClickEvent(QMouseEvent* event) {
  if (mode_ != Mode::Orthogonal3D || event->button() != Qt::LeftButton) return;
  resetCamera();
  emit cameraMoved();
}

void SliceView::wheelEvent(QWheelEvent* event) {
  if (mode_ != Mode::Orthogonal3D) return;
  camera_.zoom(float(event->angleDelta().y()) / 120.0f);
  requestFrame();
  event->accept();
  emit cameraMoved();
}

void SliceView::setAbsorbingLayer(const std::array<int, 3>& cells) {
  if (cells == absorbingCells_) return;
  absorbingCells_ = cells;
  requestFrame();
}

void SliceView::paintAbsorbingLayer(QPainter& painter, const PlaneLayout& layout) const {
  const PlaneAxes axes = planeAxes(layout.plane);
  const double across = absorbingCells_[std::size_t(axes.column)] * layout.pixelsPerCell;
  const double down = absorbingCells_[std::size_t(axes.row)] * layout.pixelsPerCell;
  if (across <= 0.0 && down <= 0.0) return;
  const QRectF& outer = layout.rect;
  const QRectF inner = outer.adjusted(across, down, -across, -down);
  painter.save();
  QPainterPath layer;
  layer.addRect(outer);
  layer.addRect(inner);  // odd-even fill: the frame between the two
  painter.fillPath(layer, QColor(255, 255, 255, 38));
  painter.setPen(QPen(QColor(255, 255, 255, 150), 1.0, Qt::DashDotLine));
  painter.drawRect(inner);
  painter.setFont(hud_.smallFont());
  painter.setPen(QColor(255, 255, 255, 190));
  const QString label = QStringLiteral("absorbing layer (%1 cells)").arg(absorbingCells_[std::size_t(axes.column)]);
  if (down >= QFontMetricsF(hud_.smallFont()).height() + 2)
    painter.drawText(QRectF(inner.left(), outer.top(), inner.width(), down), Qt::AlignCenter, label);
  painter.restore();
}

std::optional<Cell> SliceView::cellAt(const QPointF& position) const {
  if (!slices_ || geometry_.empty()) return std::nullopt;
  if (mode_ == Mode::Orthogonal3D) {
    if (position.x() >= sceneWidth()) return std::nullopt;
    const OrbitCamera::Ray ray = camera_.ray(float(position.x()), float(position.y()), sceneWidth(), height());
    return geometry_.pick(ray.origin, ray.direction);
  }
  const PlaneLayout layout = planeLayout();
  if (const auto at = layout.cellAt(position)) return geometry_.cellOnPlane(layout.plane, (*at)[0], (*at)[1]);
  return std::nullopt;
}

void SliceView::pick(const QPointF& position, Qt::KeyboardModifiers modifiers) {
  const auto cell = cellAt(position);
  if (!cell) return;
  if (modifiers & Qt::ShiftModifier)
    emit cellShiftPicked(cell->i, cell->j, cell->k);
  else
    emit cellPicked(cell->i, cell->j, cell->k);
}

void SliceView::leaveEvent(QEvent* event) {
  QWidget::leaveEvent(event);
  emit cellHovered(-1, -1, -1);
}

}  // namespace iso
