#include "render/SliceWindow.h"

#include <QCoreApplication>
#include <QWidget>
#include <utility>

namespace iso {

SliceWindow::SliceWindow(QWidget& inputTarget, std::function<void()> paint, const QSurfaceFormat& format)
    : inputTarget_(inputTarget), paint_(std::move(paint)) {
  setSurfaceType(QSurface::OpenGLSurface);
  setFormat(format);
  // The keyboard stays with the widgets: the main window's shortcuts keep working after a click here.
  setFlag(Qt::WindowDoesNotAcceptFocus);
}

bool SliceWindow::event(QEvent* event) {
  switch (event->type()) {
    case QEvent::MouseButtonPress:
      inputTarget_.setFocus(Qt::MouseFocusReason);
      [[fallthrough]];
    case QEvent::MouseButtonRelease:
    case QEvent::MouseButtonDblClick:
    case QEvent::MouseMove:
    case QEvent::Wheel:
    case QEvent::Leave:
      // Through the application, as if the pointer were over the widget itself: event filters on the
      // view see it too (the compare window's makes a clicked viewport the current one).
      QCoreApplication::sendEvent(&inputTarget_, event);
      return true;
    default:
      return QWindow::event(event);
  }
}

void SliceWindow::exposeEvent(QExposeEvent*) {
  if (isExposed()) paint_();
}

}  // namespace iso
