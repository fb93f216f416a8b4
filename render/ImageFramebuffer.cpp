#include "render/ImageFramebuffer.h"

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
  return {};
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

// With samples, the frame is resolved into a single-sample framebuffer first (a blit on the GPU); either
// way it is read straight into memory kept from the last image (RGBA bytes, what the video encoder
// takes) once the caller has let go of it: a fresh 8 MB (1080p) every frame costs a page fault per 4 KiB,
// and a pass on the CPU to flip or convert it costs more than drawing the frame on a GPU.
QImage ImageFramebuffer::readBack(GlFunctions* gl, QSize drawn, int samples) {
  if (samples > 0) {
    if (!resolved_ || resolved_->size() != drawn) resolved_ = std::make_unique<QOpenGLFramebufferObject>(drawn);
    if (!resolved_->isValid()) return {};
    QOpenGLFramebufferObject::blitFramebuffer(resolved_.get(), framebuffer_.get());
    if (!resolved_->bind()) return {};
  }
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

QImage ImageFramebuffer::render(GlFunctions* gl, const ImageOptions& options, int samples, const Draw& draw,
                                QString& error) {
  if (error = optionsProblem(options); !error.isEmpty()) return {};
  const QSize size = options.size;
  const FrameTarget frame = target(options);
  const QSize drawn = frame.pixels;
  if (error = limitProblem(gl, drawn); !error.isEmpty()) return {};
  if (error = bind(gl, drawn, samples); !error.isEmpty()) return {};
  error = draw(frame);
  QImage image = error.isEmpty() ? readBack(gl, drawn, samples) : QImage();
  QOpenGLFramebufferObject::bindDefault();
  if (!error.isEmpty()) return {};
  if (error = drainGlErrors(gl, "reading the image back"); !error.isEmpty()) return {};
  if (!image.isNull() && drawn != size) image = image.scaled(size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
  if (image.isNull() || image.size() != size) {
    error = QStringLiteral("could not read the %1x%2 image back from OpenGL").arg(size.width()).arg(size.height());
    return {};
  }
  // Every pixel of the framebuffer is opaque (cleared opaque; the overlay is blended over it).
  return image.format() == QImage::Format_RGBX8888 ? image : image.convertToFormat(QImage::Format_RGBX8888);
}

void ImageFramebuffer::destroy() {
  framebuffer_.reset();
  resolved_.reset();
  memory_ = QImage();
}

}  // namespace iso
