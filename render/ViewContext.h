#pragma once
// The OpenGL context a view draws with, and an offscreen surface it can be current on for the work done
// outside the window's own frames (setting up GL, uploads, mapped buffers, pictures), which therefore
// works before the window is first shown and while it is hidden. The window's frames make it current
// on the window, and so does that work while the window is shown (render/SliceView.cpp says why).
#include <memory>

#include <QString>
#include <QSurfaceFormat>

class QOffscreenSurface;
class QOpenGLContext;
class QSurface;

namespace iso {

class ViewContext {
 public:
  // What views draw with: OpenGL 3.3 core profile, a depth buffer, and 4 samples per pixel on a GPU
  // but none on a software rasterizer (Mesa's llvmpipe), where multisampling nearly doubles the cost
  // of a frame (docs/PERFORMANCE.md, the live view's cost).
  static QSurfaceFormat viewFormat();
  // Whether this platform's OpenGL is a software rasterizer (Mesa's llvmpipe), drawing on the CPU's cores.
  static bool softwareRasterizer();

  ViewContext();
  ~ViewContext();

  // Creates the context and its offscreen surface with `format`, once; false (see problem) when it
  // cannot.
  bool create(const QSurfaceFormat& format);
  bool created() const { return context_ != nullptr; }
  // Why the context cannot draw ("" while it can): it could not be created, or made current on a window.
  const QString& problem() const { return problem_; }
  QOpenGLContext& context() const { return *context_; }

  bool makeCurrent();  // on the offscreen surface; false (and a warning) when it cannot
  // On a window, for its frame; false (and problem() set) when it cannot.
  bool makeCurrent(QSurface& window);
  // Releases the context from the offscreen surface. On a window it stays current, as after the window's
  // own frames: releasing it and binding the window again cost NVIDIA's GLX a wait at the next frame
  // (render/SliceView.cpp).
  void doneCurrent();

 private:
  std::unique_ptr<QOffscreenSurface> offscreen_;
  std::unique_ptr<QOpenGLContext> context_;
  QString problem_;
};

}  // namespace iso
