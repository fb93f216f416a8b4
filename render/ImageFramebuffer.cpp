#include "render/ImageFramebuffer.h"

#include <algorithm>
#include <cmath>

#include <QOpenGLFramebufferObject>

namespace iso {

ImageFramebuffer::ImageFramebuffer() = default;
ImageFramebuffer::~ImageFramebuffer() = default;

QString ImageFramebuffer::optionsProblem(const ImageOptions& options) {
  const QSize size = options.size;
  if (size.width() <= 0 || size.height() <= 0 || size.width() > kMaxSize.width() || size.height() > kMaxSize.height())
    return QStringLiteral("image size %1x%2 is out of range: 1x1 to %3x%4 pixels")
        .arg(size.width()).arg(size.height()).arg(kMaxSize.width()).arg(kMaxSize.height());
  if (!(options.scale == 0.0 || (std::isfinite(options.scale) && options.scale >= 0.5 && options.scale <= 16.0)))
    return QStringLiteral("image scale %1 is out of range: 0 (automatic) or 0.5 to 16").arg(options.scale);
  return options.videoPlanes ? VideoPlanes::sizeProblem(size) : QString();
}

QSize ImageFramebuffer::drawnSize(QSize size, double scale) {
  if (scale >= 1.0) return size;
  return QSize(int(std::lround(size.width() / scale)), int(std::lround(size.height() / scale)));
}

QString ImageFramebuffer::limitProblem(GlFunctions* gl, QSize drawn) {
  GLint maxRenderbuffer = 0, maxViewport[2] = {0, 0};
  gl->glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &maxRenderbuffer);
  gl->glGetIntegerv(GL_MAX_VIEWPORT_DIMS, maxViewport);
  if (QString e = drainGlErrors(gl, "querying the framebuffer limits"); !e.isEmpty()) return e;
  const int limitW = std::min<int>(maxRenderbuffer, maxViewport[0]), limitH = std::min<int>(maxRenderbuffer, maxViewport[1]);
  if (drawn.width() <= limitW && drawn.height() <= limitH) return {};
  return QStringLiteral("image size %1x%2 exceeds this OpenGL implementation's limit of %3x%4 pixels")
      .arg(drawn.width()).arg(drawn.height()).arg(limitW).arg(limitH);
}

QString ImageFramebuffer::bind(GlFunctions* gl, QSize drawn, int samples) {
  if (!framebuffer_ || framebuffer_->size() != drawn || framebuffer_->format().samples() != samples) {
    framebuffer_.reset();  // the old one first: two 4K framebuffers need not exist at once
    QOpenGLFramebufferObjectFormat format;
    format.setAttachment(QOpenGLFramebufferObject::CombinedDepthStencil);
    format.setSamples(samples);
    framebuffer_ = std::make_unique<QOpenGLFramebufferObject>(drawn, format);
  }
  if (framebuffer_->isValid() && framebuffer_->bind()) return {};
  framebuffer_.reset();
  drainGlErrors(gl, "creating the image framebuffer");
  return QStringLiteral("could not create a %1x%2 framebuffer object (out of graphics memory?)")
      .arg(drawn.width()).arg(drawn.height());
}

// With samples, the frame is resolved into a single-sample framebuffer first (a blit on the GPU).
bool ImageFramebuffer::bindForReading(QSize drawn, int samples) {
  if (samples == 0) return true;
  if (!resolved_ || resolved_->size() != drawn) resolved_ = std::make_unique<QOpenGLFramebufferObject>(drawn);
  if (!resolved_->isValid()) return false;
  QOpenGLFramebufferObject::blitFramebuffer(resolved_.get(), framebuffer_.get());
  return resolved_->bind();
}

// Read straight into memory kept from the last image (RGBA bytes, what the video encoder takes) once the
// caller has let go of it: a fresh 8 MB (1080p) every frame costs a page fault per 4 KiB, and a pass on
// the CPU to flip or convert it costs more than drawing the frame on a GPU.
QImage ImageFramebuffer::readBack(GlFunctions* gl, QSize drawn, int samples) {
  if (!bindForReading(drawn, samples)) return {};
  if (memory_.size() != drawn || !memory_.isDetached()) memory_ = QImage(drawn, QImage::Format_RGBX8888);
  if (memory_.isNull()) return {};
  gl->glPixelStorei(GL_PACK_ALIGNMENT, 4);
  gl->glReadPixels(0, 0, drawn.width(), drawn.height(), GL_RGBA, GL_UNSIGNED_BYTE, memory_.bits());
  return memory_;
}

FrameTarget ImageFramebuffer::target(const ImageOptions& options) {
  const double scale = options.scaleFor(options.size);
  FrameTarget target;
  target.pixels = drawnSize(options.size, scale);
  target.pixelRatio = std::max(scale, 1.0);
  target.canvas = QSizeF(target.pixels.width() / target.pixelRatio, target.pixels.height() / target.pixelRatio);
  target.hud = options.hud, target.colourBar = options.colourBar, target.labels = options.labels;
  target.onScreen = false;
  // Drawn upside down, so that OpenGL's rows (bottom up) read back straight into the image's (top down):
  // no pass to flip them (a resolving blit keeps the orientation).
  target.rowsDown = true;
  return target;
}

QString ImageFramebuffer::drawPicture(GlFunctions* gl, const ImageOptions& options, int samples, const Draw& draw) {
  if (QString error = optionsProblem(options); !error.isEmpty()) return error;
  const FrameTarget frame = target(options);
  if (QString error = limitProblem(gl, frame.pixels); !error.isEmpty()) return error;
  if (QString error = bind(gl, frame.pixels, samples); !error.isEmpty()) return error;
  return draw(frame);
}

QString ImageFramebuffer::delivered(QImage& image, QSize size) {
  if (!image.isNull() && image.size() != size) image = image.scaled(size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
  if (image.isNull() || image.size() != size)
    return QStringLiteral("could not read the %1x%2 image back from OpenGL").arg(size.width()).arg(size.height());
  // Every pixel of the framebuffer is opaque (cleared opaque; the overlay is blended over it).
  if (image.format() != QImage::Format_RGBX8888) image = image.convertToFormat(QImage::Format_RGBX8888);
  return {};
}

QImage ImageFramebuffer::render(GlFunctions* gl, const ImageOptions& options, int samples, const Draw& draw,
                                QString& error) {
  error = drawPicture(gl, options, samples, draw);
  const QSize drawn = target(options).pixels;
  QImage image = error.isEmpty() ? readBack(gl, drawn, samples) : QImage();
  QOpenGLFramebufferObject::bindDefault();
  if (!error.isEmpty()) return {};
  if (error = drainGlErrors(gl, "reading the image back"); !error.isEmpty()) return {};
  if (error = delivered(image, options.size); !error.isEmpty()) return {};
  return image;
}

// The copy into the pixel-pack buffer is queued behind the drawing; the fence says when it has landed.
QString ImageFramebuffer::start(GlFunctions* gl, const ImageOptions& options, int samples, const Draw& draw) {
  if (QString error = optionsProblem(options); !error.isEmpty()) return error;  // before anything is dropped
  if (pending() == kReadSlots) dropOldest(gl);
  int slot = 0;
  while (std::any_of(pending_.begin(), pending_.end(), [&](const PendingRead& p) { return p.slot == slot; })) ++slot;
  QString error = drawPicture(gl, options, samples, draw);
  const QSize drawn = target(options).pixels;
  if (error.isEmpty() && !bindForReading(drawn, samples))
    error = QStringLiteral("could not resolve the %1x%2 picture's samples").arg(drawn.width()).arg(drawn.height());
  if (error.isEmpty() && options.videoPlanes)
    error = videoPlanes_.convert(gl, samples == 0 ? framebuffer_->texture() : resolved_->texture(), options.size);
  GLsync fence = nullptr;
  if (error.isEmpty())
    fence = startRead(gl, slot, options.videoPlanes ? VideoPlanes::planesSize(options.size) : drawn, options.videoPlanes);
  QOpenGLFramebufferObject::bindDefault();
  if (QString glError = drainGlErrors(gl, "starting to read the image back"); error.isEmpty()) error = glError;
  if (!error.isEmpty() || fence == nullptr) {
    if (fence != nullptr) gl->glDeleteSync(fence);
    packBytes_[slot] = 0;  // its storage is specified again next time
    return error.isEmpty() ? QStringLiteral("could not create a fence for the image read-back") : error;
  }
  pending_.push_back({slot, drawn, options.size, options.videoPlanes, fence});
  return {};
}

GLsync ImageFramebuffer::startRead(GlFunctions* gl, int slot, QSize read, bool videoPlanes) {
  const int pixelBytes = videoPlanes ? 1 : 4;
  const std::size_t bytes = std::size_t(read.width()) * std::size_t(read.height()) * std::size_t(pixelBytes);
  if (packBuffers_[slot] == 0) gl->glGenBuffers(1, &packBuffers_[slot]);
  gl->glBindBuffer(GL_PIXEL_PACK_BUFFER, packBuffers_[slot]);
  if (packBytes_[slot] != bytes) {
    gl->glBufferData(GL_PIXEL_PACK_BUFFER, GLsizeiptr(bytes), nullptr, GL_STREAM_READ);
    packBytes_[slot] = bytes;
  }
  gl->glPixelStorei(GL_PACK_ALIGNMENT, pixelBytes);  // rows packed tight: a plane's row is its width
  gl->glReadPixels(0, 0, read.width(), read.height(), videoPlanes ? GL_RED : GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  gl->glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  const GLsync fence = gl->glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  gl->glFlush();  // under way while the caller goes on
  return fence;
}

QString ImageFramebuffer::collect(GlFunctions* gl, const std::function<void(const QImage& image)>& use) {
  if (pending_.empty()) return QStringLiteral("no picture is being read back");
  const PendingRead read = pending_.front();
  pending_.pop_front();
  constexpr GLuint64 kPatienceNs = 10'000'000'000;  // a driver that never signals: an error, not a hang
  const GLenum waited = gl->glClientWaitSync(read.fence, GL_SYNC_FLUSH_COMMANDS_BIT, kPatienceNs);
  gl->glDeleteSync(read.fence);
  if (waited != GL_ALREADY_SIGNALED && waited != GL_CONDITION_SATISFIED)
    return waited == GL_TIMEOUT_EXPIRED ? QStringLiteral("the image read-back did not complete within 10 s")
                                        : drainGlErrors(gl, "waiting for the image read-back");
  gl->glBindBuffer(GL_PIXEL_PACK_BUFFER, packBuffers_[read.slot]);
  const auto* bytes = static_cast<const uchar*>(
      gl->glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, GLsizeiptr(packBytes_[read.slot]), GL_MAP_READ_BIT));
  QString error;
  if (bytes == nullptr) {
    error = QStringLiteral("could not map the image read back (out of memory?)");
  } else if (read.videoPlanes) {
    // Wrapped, not copied: the memory is the buffer's until it is unmapped below.
    const QSize planes = VideoPlanes::planesSize(read.size);
    use(QImage(bytes, planes.width(), planes.height(), planes.width(), QImage::Format_Grayscale8));
    gl->glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
  } else {
    QImage image(bytes, read.drawn.width(), read.drawn.height(), read.drawn.width() * 4, QImage::Format_RGBX8888);
    if (error = delivered(image, read.size); error.isEmpty()) use(image);
    gl->glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
  }
  gl->glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  if (QString glError = drainGlErrors(gl, "collecting the image read back"); error.isEmpty()) error = glError;
  return error;
}

void ImageFramebuffer::dropOldest(GlFunctions* gl) {
  gl->glDeleteSync(pending_.front().fence);
  pending_.pop_front();
}

void ImageFramebuffer::destroy(GlFunctions* gl) {
  while (!pending_.empty()) dropOldest(gl);
  for (int s = 0; s < kReadSlots; ++s)
    if (packBuffers_[s] != 0) gl->glDeleteBuffers(1, &packBuffers_[s]);
  std::fill(std::begin(packBuffers_), std::end(packBuffers_), 0u);
  std::fill(std::begin(packBytes_), std::end(packBytes_), std::size_t(0));
  framebuffer_.reset();
  resolved_.reset();
  videoPlanes_.destroy(gl);
  memory_ = QImage();
}

}  // namespace iso
