#pragma once
// The native window a slice view draws into: a QWindow with an OpenGL surface, embedded in the view
// with QWidget::createWindowContainer. It only hands its exposes and its input on to the view that embeds it.
//
// Why not QOpenGLWidget: a QOpenGLWidget draws into a framebuffer object that Qt then composes with
// every other widget of its top-level window, on every frame. With Mesa's software renderer (llvmpipe,
// what a machine without a GPU has) that composition costs several times what the slices themselves
// cost, on every frame (measured in docs/PERFORMANCE.md, "The live view's cost"). A window of its own
// is presented alone.
#include <QWindow>
#include <functional>

class QWidget;

namespace iso {

class SliceWindow : public QWindow {
 public:
  // `inputTarget` (the widget that embeds this window) receives the pointer's events and takes the
  // focus on a click; `paint` is called whenever the window is exposed.
  SliceWindow(QWidget& inputTarget, std::function<void()> paint, const QSurfaceFormat& format);

 protected:
  bool event(QEvent* event) override;
  void exposeEvent(QExposeEvent* event) override;

 private:
  QWidget& inputTarget_;
  std::function<void()> paint_;
};

}  // namespace iso
