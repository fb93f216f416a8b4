#include "render/SliceView.h"

#include <algorithm>
#include <cmath>

#include <QDebug>
#include <QLabel>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QOpenGLVersionFunctionsFactory>
#include <QPainter>
#include <QVBoxLayout>
#include <QWheelEvent>

#include "render/FrameImageWidget.h"
#include "render/SliceWindow.h"

namespace iso {
namespace {
const QColor kBackground(30, 31, 34);
constexpr double kClickSlopPixels = 4.0;  // a press and release closer than this is a click
}  // namespace

SliceView::SliceView(QWidget* parent) : QWidget(parent) {
  window_ = new SliceWindow(*this, [this] { paintWindow(); }, ViewContext::viewFormat());
  container_ = QWidget::createWindowContainer(window_, this);
  container_->setFocusPolicy(Qt::NoFocus);  // the view itself takes the keyboard
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(container_);
  frameImage_ = new FrameImageWidget(this);
  frameImage_->hide();
  layout->addWidget(frameImage_);
  QPalette dark = palette();
  dark.setColor(QPalette::Window, kBackground);
  setPalette(dark);
  setAutoFillBackground(true);
  frameTimer_.setSingleShot(true);
  frameTimer_.setTimerType(Qt::PreciseTimer);  // a coarse timer may fire 5 % late: 56 frames/s, not 60
  frameClock_.start();
  connect(&frameTimer_, &QTimer::timeout, this, &SliceView::paintWindow);
  madeFrameTimer_.setSingleShot(true);
  madeFrameTimer_.setTimerType(Qt::PreciseTimer);
  connect(&madeFrameTimer_, &QTimer::timeout, this, [this] {
    if (!madeFrames_.empty()) showMadeFrame();
  });
  setMinimumSize(320, 240);
  setMouseTracking(true);  // the value under the pointer, without a button pressed
  setFocusPolicy(Qt::StrongFocus);
}

SliceView::~SliceView() {
  blockSignals(true);  // whoever listens may be half destroyed already
  frameTimer_.stop();
  madeFrameTimer_.stop();
  dropMadeFrames();  // their slices and layers are held until then
  // The drawing window now: it calls back into this view, whose members go before QWidget's destructor
  // would delete it.
  delete container_;
  container_ = nullptr;
  window_ = nullptr;
  renderer_.setSlices(nullptr);  // nothing left to draw: no copy out of the mapped buffers
  if (context_.created() && makeCurrent()) {
    renderer_.release();
    context_.doneCurrent();
  }
}

// ---- What to show ----------------------------------------------------------------------------------

void SliceView::changed() {
  if (const float clip = renderer_.clip(); clip != clip_) {
    clip_ = clip;
    emit clipChanged(clip_);
  }
  requestFrame();
}

void SliceView::setSlices(std::shared_ptr<const SliceSet> slices) {
  const bool accepted = renderer_.setSlices(std::move(slices));
  changed();
  if (accepted && renderer_.slices()) emit slicesChanged(renderer_.slices()->step);
}

void SliceView::setVelocitySlices(std::shared_ptr<const SliceSet> velocity) {
  renderer_.setVelocitySlices(std::move(velocity));
  requestFrame();
}

void SliceView::setGridSpacing(double dxMetres) {
  if (renderer_.decorations().setGridSpacing(dxMetres)) requestFrame();
}

void SliceView::setSourceCell(int i, int j, int k) {
  renderer_.decorations().setSourceCell({i, j, k});
  requestFrame();
}

void SliceView::setReceivers(const std::vector<Cell>& cells) {
  if (renderer_.decorations().setReceivers(cells)) requestFrame();
}

void SliceView::setAbsorbingLayer(const std::array<int, 3>& cells) {
  if (renderer_.decorations().setAbsorbingLayer(cells)) requestFrame();
}

void SliceView::setMode(Mode mode) {
  renderer_.setMode(mode);
  requestFrame();
}

void SliceView::setMaxFrameRate(int framesPerSecond) { maxFrameRate_ = std::clamp(framesPerSecond, 1, kMaxFrameRate); }

QStringList SliceView::colormapNames() { return Colormap::names(); }

void SliceView::setColormap(const QString& name) {
  if (renderer_.setColormap(name)) requestFrame();
}

void SliceView::setGainMode(GainMode mode) {
  renderer_.setGainMode(mode);
  changed();
}

void SliceView::setAutoGain(bool on) { setGainMode(on ? GainMode::Automatic : GainMode::Fixed); }

void SliceView::setClip(float clip) {
  if (renderer_.setClip(clip)) changed();
}

void SliceView::setVelocityOverlay(bool on, float opacity) {
  renderer_.setVelocityOverlay(on, opacity);
  requestFrame();
}

void SliceView::setHudLines(const QStringList& lines) {
  if (renderer_.decorations().setHudLines(lines)) requestFrame();
}

void SliceView::setScreenNotice(const QString& line) {
  if (renderer_.decorations().setScreenNotice(line)) requestFrame();
}

void SliceView::setFieldLabel(const QString& label) {
  renderer_.decorations().setFieldLabel(label);
  requestFrame();
}

void SliceView::setIdleMessage(const QString& text) {
  renderer_.decorations().setIdleMessage(text);
  requestFrame();
}

void SliceView::setMagnitudeRange(bool on) {
  renderer_.setMagnitudeRange(on);
  requestFrame();
}

void SliceView::resetCamera() {
  renderer_.camera().reset(renderer_.geometry());
  requestFrame();
}

void SliceView::setCamera(const OrbitCamera& camera) {
  renderer_.camera().adopt(camera, renderer_.geometry());
  requestFrame();
}

std::optional<SliceView::MappedBuffers> SliceView::mapSliceBuffers(int count, std::size_t floats, QString& problem) {
  if (!ensureGl()) {
    problem = glInfo();
    return std::nullopt;
  }
  if (!makeCurrent()) {
    problem = QStringLiteral("the view's OpenGL context cannot be made current");
    return std::nullopt;
  }
  const auto mapping = renderer_.mapBuffers(count, floats * sizeof(float), problem);
  context_.doneCurrent();
  if (!mapping) return std::nullopt;
  MappedBuffers out{{}, mapping->owner, mapping->provider};
  for (void* memory : mapping->memory) out.memory.push_back(static_cast<float*>(memory));
  return out;
}

SliceRenderer::VolumeCamera SliceView::volumeCamera(const ImageOptions* picture) const {
  return renderer_.volumeCamera(picture ? ImageFramebuffer::target(*picture) : screenTarget());
}

void SliceView::setVolumeSettings(const VolumeSettings& settings) {
  if (settings == volumeSettings_) return;
  volumeSettings_ = settings;
  emit volumeSettingsChanged();
}

QString SliceView::glInfo() const {
  if (!context_.problem().isEmpty()) return context_.problem();
  return renderer_.problem().isEmpty() ? renderer_.glInfo() : renderer_.problem();
}

QRectF SliceView::planeRect() const {
  if (SliceRenderer::is3D(mode()) || renderer_.geometry().empty()) return {};
  return renderer_.planeLayout(screenTarget()).rect;
}

// ---- GL lifetime -----------------------------------------------------------------------------------

bool SliceView::ensureGl() {
  if (!context_.problem().isEmpty()) return false;
  if (context_.created()) return renderer_.ready();
  if (!context_.create(window_->requestedFormat()) || !makeCurrent()) {
    showGlProblem();
    return false;
  }
  renderer_.initialize(context_.context());
  context_.doneCurrent();
  showGlProblem();
  return renderer_.ready();
}

// Work outside the window's frames (uploads, pictures) runs with the context current on the window
// while it is shown, the surface its frames use, and leaves it current there (ViewContext::doneCurrent):
// moving the context between the window and the offscreen surface, or releasing it, made NVIDIA's GLX
// wait at the next window frame, 5-9 ms of the GUI thread per frame of a recording
// (docs/PERFORMANCE.md). Before the window is shown, or while it is hidden, on the offscreen surface.
bool SliceView::makeCurrent() {
  if (window_ && window_->isExposed()) return context_.makeCurrent(*window_);
  return context_.makeCurrent();
}

void SliceView::showGlProblem() {
  const QString problem = context_.problem().isEmpty() ? renderer_.problem() : context_.problem();
  if (problem.isEmpty()) return;
  // A raster child widget, not GL painting: the GL context that failed may not be able to show text.
  // Shown from the event loop, since this may run inside a frame.
  QMetaObject::invokeMethod(this, [this, problem] {
    if (problemLabel_ == nullptr) {
      problemLabel_ = new QLabel(this);
      problemLabel_->setWordWrap(true);
      problemLabel_->setAlignment(Qt::AlignCenter);
      problemLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
      problemLabel_->setStyleSheet("QLabel { background: rgb(60, 20, 20); color: rgb(255, 205, 195);"
                                   " border: 1px solid rgb(235, 90, 80); border-radius: 6px; padding: 12px; }");
    }
    problemLabel_->setText(problem);
    placeProblemLabel();
    container_->hide();  // a native window would cover the label
    problemLabel_->show();
  }, Qt::QueuedConnection);
}

void SliceView::placeProblemLabel() {
  if (problemLabel_ == nullptr) return;
  const int w = std::max(200, width() * 4 / 5);
  const int h = problemLabel_->heightForWidth(w);
  problemLabel_->setGeometry((width() - w) / 2, std::max(0, (height() - h) / 2), w, std::min(h, height()));
}

void SliceView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (madeElsewhere_) requestFrame();  // no window's expose asks for one
}

void SliceView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  placeProblemLabel();
  if (madeElsewhere_) requestFrame();  // no window's expose asks for one
}

// ---- Frames ----------------------------------------------------------------------------------------

void SliceView::requestFrame() {
  if (frameTimer_.isActive()) return;
  const qint64 wait = std::max<qint64>(0, nextFrameDueNs_ - frameClock_.nsecsElapsed());
  frameTimer_.start(int((wait + 999'999) / 1'000'000));  // whole milliseconds, rounded up
}

FrameTarget SliceView::screenTarget() const {
  // The native window's own size while it shows the frames (it may lag the widget's by a resize); the
  // widget's while the frames are made elsewhere (the window is hidden then, and its size stale).
  const bool native = window_ && !madeElsewhere_;
  const double ratio = native ? window_->devicePixelRatio() : devicePixelRatioF();
  const QSize pixels = native ? QSize(int(std::lround(window_->width() * ratio)), int(std::lround(window_->height() * ratio)))
                              : size() * ratio;
  return FrameTarget::window(QSizeF(size()), pixels, ratio);
}

QSize SliceView::drawWindowFrame() {
  if (!window_ || !window_->isExposed() || !ensureGl()) return {};
  if (!context_.makeCurrent(*window_)) {
    showGlProblem();
    return {};
  }
  QOpenGLContext& context = context_.context();
  context.functions()->glBindFramebuffer(GL_FRAMEBUFFER, context.defaultFramebufferObject());
  const FrameTarget target = screenTarget();
  renderer_.drawFrame(target);
  showGlProblem();
  return target.pixels;
}

void SliceView::paintWindow() {
  frameTimer_.stop();
  // The next frame is due one period after this one was due, so that timers firing up to a millisecond
  // late do not push the cadence back (60 frames/s, not 1000/17); after a pause, one period from now.
  const qint64 now = frameClock_.nsecsElapsed(), period = 1'000'000'000 / maxFrameRate_;
  nextFrameDueNs_ = now - nextFrameDueNs_ < period ? nextFrameDueNs_ + period : now + period;
  if (makesFramesElsewhere()) {
    if (isVisible()) paintElsewhere();  // hidden: nothing to make until shown (showEvent)
    return;
  }
  if (madeElsewhere_) {
    dropMadeFrames();
    showFrameImage(false);
  }
  if (drawWindowFrame().isEmpty()) return;
  context_.context().swapBuffers(window_);
  shownStep_ = renderer_.slices() ? renderer_.slices()->step : -1;
  emit frameDrawn();
}

// ---- Frames made elsewhere -------------------------------------------------------------------------

void SliceView::setFrameMaker(std::shared_ptr<PictureRenderer> maker) {
  if (maker == frameMaker_) return;
  dropMadeFrames();
  frameMaker_ = std::move(maker);
  frameMakerProblem_.clear();
  requestFrame();
}

QImage SliceView::madeFrame() const { return frameImage_->frame(); }

bool SliceView::makesFramesElsewhere() {
  return frameMaker_ && frameMakerProblem_.isEmpty() && mode() == Mode::Orthogonal3D && renderer_.slices() && ensureGl();
}

void SliceView::paintElsewhere() {
  showFrameImage(true);
  if (!madeFrames_.empty()) showMadeFrame();  // started a frame period ago: back long since
  bool current = false;
  const auto makeCurrent = [&] {
    current = true;
    return currentForPictures();
  };
  QString error;
  const FrameTarget target = screenTarget();
  std::optional<SliceRenderer::PictureParts> parts = renderer_.windowPictureParts(target, error, makeCurrent);
  if (current) context_.doneCurrent();
  if (!parts) return failFrameMaker(error);
  try {
    frameMaker_->start(parts->picture, std::move(parts->slices), std::move(parts->velocity), std::move(parts->layers),
                       PicturePixels::Rgb32);
  } catch (const std::exception& e) {
    return failFrameMaker(QStringLiteral("making the frame on %1: %2").arg(QString::fromStdString(frameMaker_->deviceName()), e.what()));
  }
  madeFrames_.push_back({target.pixels, target.pixelRatio, renderer_.slices()->step});
  // Shown a little after the device is done with it, if no frame comes first: the frame holds its slot of
  // the slices' ring until then, which a recording's stream would wait for.
  madeFrameTimer_.start(kMadeFrameWaitMs);
}

void SliceView::showMadeFrame() {
  madeFrameTimer_.stop();
  const FrameOnItsWay frame = madeFrames_.front();
  madeFrames_.pop_front();
  try {
    frameMaker_->collect([&](std::span<const std::uint8_t> pixels) { frameImage_->showFrame(pixels, frame.pixels, frame.pixelRatio); });
  } catch (const std::exception& e) {
    return failFrameMaker(QStringLiteral("the frame made on %1: %2").arg(QString::fromStdString(frameMaker_->deviceName()), e.what()));
  }
  shownStep_ = frame.step;
  emit frameDrawn();
}

void SliceView::showLatestFrame() {
  if (!madeElsewhere_) return;
  paintWindow();
  if (!madeFrames_.empty()) showMadeFrame();
}

void SliceView::dropMadeFrames() {
  madeFrameTimer_.stop();
  for (; !madeFrames_.empty(); madeFrames_.pop_front()) {
    try {
      frameMaker_->collect([](std::span<const std::uint8_t>) {});
    } catch (const std::exception&) {
      // Nothing to show, and nothing held any more: what failed is the frame being dropped.
    }
  }
}

void SliceView::failFrameMaker(const QString& problem) {
  frameMakerProblem_ = problem.isEmpty() ? QStringLiteral("the frame could not be made") : problem;
  qWarning().noquote() << "SliceView: frames are drawn by OpenGL again:" << frameMakerProblem_;
  dropMadeFrames();
  showFrameImage(false);
  requestFrame();
}

void SliceView::showFrameImage(bool on) {
  if (on == madeElsewhere_) return;
  madeElsewhere_ = on;
  if (on) {
    if (makeCurrent()) {  // the last upload of the window's frames would hold its slot of the ring
      renderer_.finishUploads();
      context_.doneCurrent();
    }
    frameImage_->show();
    container_->hide();  // a native window would cover it
  } else {
    frameImage_->hide();
    if (problemLabel_ == nullptr || !problemLabel_->isVisible()) container_->show();
  }
}

QImage SliceView::grabWindowFrame() {
  const QSize pixels = drawWindowFrame();
  if (pixels.isEmpty()) return {};
  QImage image(pixels, QImage::Format_RGBX8888);
  auto* gl = QOpenGLVersionFunctionsFactory::get<GlFunctions>(&context_.context());
  if (gl == nullptr) return {};
  gl->glReadBuffer(GL_BACK);
  gl->glPixelStorei(GL_PACK_ALIGNMENT, 4);
  gl->glReadPixels(0, 0, pixels.width(), pixels.height(), GL_RGBA, GL_UNSIGNED_BYTE, image.bits());
  if (!drainGlErrors(gl, "reading the window's frame back").isEmpty()) return {};
  return image.mirrored();  // GL rows run bottom up
}

int SliceView::pictureSamples() const { return window_->requestedFormat().samples(); }

QString SliceView::currentForPictures() {
  if (!ensureGl()) return "the view cannot draw: " + glInfo();
  if (!makeCurrent()) return QStringLiteral("the view's OpenGL context cannot be made current");
  return {};
}

QImage SliceView::renderImage(const ImageOptions& options, QString& error) {
  if (error = ImageFramebuffer::optionsProblem(options); !error.isEmpty()) return {};
  if (error = currentForPictures(); !error.isEmpty()) return {};
  // The same anti-aliasing as the window.
  QImage image = renderer_.renderImage(options, pictureSamples(), error);
  context_.doneCurrent();
  showGlProblem();
  return image;
}

QString SliceView::startImage(const ImageOptions& options) {
  if (QString error = currentForPictures(); !error.isEmpty()) return error;
  const QString error = renderer_.startImage(options, pictureSamples());
  context_.doneCurrent();
  showGlProblem();
  return error;
}

QString SliceView::collectImage(const std::function<void(const QImage& image)>& use) {
  if (QString error = currentForPictures(); !error.isEmpty()) return error;
  const QString error = renderer_.collectImage(use);
  context_.doneCurrent();
  return error;
}

std::optional<SliceRenderer::PictureParts> SliceView::pictureParts(const ImageOptions& options, QString& error) {
  if (!ensureGl()) return (error = "the view cannot draw: " + glInfo(), std::nullopt);
  bool current = false;
  std::optional<SliceRenderer::PictureParts> parts = renderer_.pictureParts(options, error, [&] {
    current = true;
    return currentForPictures();
  });
  if (current) context_.doneCurrent();
  showGlProblem();
  return parts;
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
  for (SliceView* view : root.findChildren<SliceView*>())
    if (view->framesMadeElsewhere()) view->showLatestFrame();
  QImage image = root.grab().toImage();
  QPainter painter(&image);
  for (SliceView* view : root.findChildren<SliceView*>()) {
    // Frames made elsewhere are shown by a raster widget, which the grab has.
    if (view->visibleRegion().isEmpty() || view->framesMadeElsewhere()) continue;
    const QImage picture = view->grabFramebuffer();
    if (!picture.isNull()) painter.drawImage(QRectF(view->mapTo(&root, QPoint(0, 0)), view->size()), picture);
  }
  return image;
}

// ---- Mouse -----------------------------------------------------------------------------------------

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
  if (!dragged_ || !SliceRenderer::is3D(mode())) return;
  OrbitCamera& camera = renderer_.camera().camera();
  if (event->buttons() & Qt::LeftButton)
    camera.orbit(float(delta.x()), float(delta.y()));
  else if (event->buttons() & (Qt::RightButton | Qt::MiddleButton))
    camera.pan(float(delta.x()), float(delta.y()), renderer_.sceneWidth(screenTarget()), height());
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
  if (!SliceRenderer::is3D(mode()) || event->button() != Qt::LeftButton) return;
  resetCamera();
  emit cameraMoved();
}

void SliceView::wheelEvent(QWheelEvent* event) {
  if (!SliceRenderer::is3D(mode())) return;
  renderer_.camera().camera().zoom(float(event->angleDelta().y()) / 120.0f);
  requestFrame();
  event->accept();
  emit cameraMoved();
}

void SliceView::leaveEvent(QEvent* event) {
  QWidget::leaveEvent(event);
  emit cellHovered(-1, -1, -1);
}

std::optional<Cell> SliceView::cellAt(const QPointF& position) const {
  const SliceGeometry& grid = renderer_.geometry();
  if (!renderer_.slices() || grid.empty()) return std::nullopt;
  const FrameTarget target = screenTarget();
  if (mode() == Mode::Volume) return std::nullopt;  // no slice to pick in the volume
  if (mode() == Mode::Orthogonal3D) {
    const int sceneWidth = renderer_.sceneWidth(target);
    if (position.x() >= sceneWidth) return std::nullopt;
    const OrbitCamera::Ray ray = camera().ray(float(position.x()), float(position.y()), sceneWidth, height());
    return grid.pick(ray.origin, ray.direction);
  }
  const PlaneLayout layout = renderer_.planeLayout(target);
  if (const auto at = layout.cellAt(position)) return grid.cellOnPlane(layout.plane, (*at)[0], (*at)[1]);
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

}  // namespace iso
