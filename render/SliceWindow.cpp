#include "render/SliceWindow.h"

#include <QMouseEvent>
#include <QWheelEvent>

#include "render/SliceView.h"

namespace iso {

SliceWindow::SliceWindow(SliceView& view, const QSurfaceFormat& format) : view_(view) {
  setSurfaceType(QSurface::OpenGLSurface);
  setFormat(format);
  // The keyboard stays with the widgets: the main window's shortcuts keep working after a click here.
  setFlag(Qt::WindowDoesNotAcceptFocus);
}

bool SliceWindow::event(QEvent* event) {
  switch (event->type()) {
    case QEvent::UpdateRequest:
      view_.paintWindow();
      return true;
    case QEvent::Leave:
      view_.leaveEvent(event);
      return true;
    default:
      return QWindow::event(event);
  }
}

void SliceWindow::exposeEvent(QExposeEvent*) {
  if (isExposed()) view_.paintWindow();
}

void SliceWindow::mousePressEvent(QMouseEvent* event) {
  view_.setFocus(Qt::MouseFocusReason);
  view_.mousePressEvent(event);
}

void SliceWindow::mouseMoveEvent(QMouseEvent* event) { view_.mouseMoveEvent(event); }
void SliceWindow::mouseReleaseEvent(QMouseEvent* event) { view_.mouseReleaseEvent(event); }
void SliceWindow::mouseDoubleClickEvent(QMouseEvent* event) { view_.mouseDoubleClickEvent(event); }
void SliceWindow::wheelEvent(QWheelEvent* event) { view_.wheelEvent(event); }

}  // namespace iso
