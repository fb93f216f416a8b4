#pragma once
// The native window a SliceView draws into: a QWindow with an OpenGL surface, embedded in the view
// with QWidget::createWindowContainer. It only hands its exposes and its input to the view.
//
// Why not QOpenGLWidget: a QOpenGLWidget draws into a framebuffer object that Qt then composes with
// every other widget of its top-level window, on every frame. With Mesa's software renderer (llvmpipe,
// what a machine without a GPU has) that composition costs several times what the slices themselves
// cost, on every frame (measured in docs/PERFORMANCE.md, "The live view's cost"). A window of its own
// is presented alone.
#include <QWindow>

namespace iso {

class SliceView;

class SliceWindow : public QWindow {
 public:
  SliceWindow(SliceView& view, const QSurfaceFormat& format);

 protected:
  bool event(QEvent* event) override;
  void exposeEvent(QExposeEvent* event) override;

 private:
  SliceView& view_;
};

}  // namespace iso
