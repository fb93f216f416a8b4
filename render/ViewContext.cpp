#include "render/ViewContext.h"

#include <QDebug>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>

namespace iso {

// Probed once, with an offscreen context of the same platform.
bool ViewContext::softwareRasterizer() {
  static const bool software = [] {
    QOffscreenSurface surface;
    surface.create();
    QOpenGLContext probe;
    if (!probe.create() || !probe.makeCurrent(&surface)) return false;
    const auto* name = reinterpret_cast<const char*>(probe.functions()->glGetString(GL_RENDERER));
    const QString renderer = QString::fromLatin1(name ? name : "").toLower();
    probe.doneCurrent();
    return renderer.contains("llvmpipe") || renderer.contains("softpipe") || renderer.contains("swrast") ||
           renderer.contains("software");
  }();
  return software;
}

QSurfaceFormat ViewContext::viewFormat() {
  QSurfaceFormat format = QSurfaceFormat::defaultFormat();
  format.setRenderableType(QSurfaceFormat::OpenGL);
  format.setVersion(3, 3);
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setDepthBufferSize(24);
  // No multisampling: the shaders smooth the lines (line.geom) and the slices' crossings (slice.frag)
  // themselves, on every driver alike. Four samples changed a GPU's 3D picture by 0.01 of 255 on average
  // and cost a compute GPU (an H200) 1.7 % of the solver's rate in the window, a software rasterizer
  // several times its work.
  format.setSamples(0);
  return format;
}

ViewContext::ViewContext() = default;
ViewContext::~ViewContext() = default;

bool ViewContext::create(const QSurfaceFormat& format) {
  if (context_) return problem_.isEmpty();
  offscreen_ = std::make_unique<QOffscreenSurface>();
  offscreen_->setFormat(format);
  offscreen_->create();
  context_ = std::make_unique<QOpenGLContext>();
  context_->setFormat(format);
  if (context_->create() && offscreen_->isValid() && context_->makeCurrent(offscreen_.get())) {
    context_->doneCurrent();
    return true;
  }
  problem_ = "Could not create an OpenGL context for the view. Update the graphics driver, or use Mesa's "
             "software renderer (LIBGL_ALWAYS_SOFTWARE=1).";
  qWarning().noquote() << "ViewContext:" << problem_;
  return false;
}

bool ViewContext::makeCurrent() {
  if (context_->makeCurrent(offscreen_.get())) return true;
  qWarning() << "ViewContext: could not make the OpenGL context current";
  return false;
}

bool ViewContext::makeCurrent(QSurface& window) {
  if (context_->makeCurrent(&window)) return true;
  problem_ = "Could not draw into the view's window: the OpenGL context cannot be made current on it.";
  qWarning().noquote() << "ViewContext:" << problem_;
  return false;
}

void ViewContext::doneCurrent() {
  if (context_->surface() == offscreen_.get()) context_->doneCurrent();
}

}  // namespace iso
