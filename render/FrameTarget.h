#pragma once
// What a frame is drawn for: a picture of a chosen size (ImageOptions), or the framebuffer it is drawn
// into and the layout it is drawn with (FrameTarget). Shared by the renderers and the widget that shows
// one.
#include <algorithm>

#include <QSize>
#include <QSizeF>

namespace iso {

// A picture drawn off screen: its size, its scale, and what it shows besides the data (the 3D lines are
// always drawn).
struct ImageOptions {
  QSize size;              // pixels, 1x1 to ImageFramebuffer::kMaxSize (and the GL implementation's limit)
  // Pixels per logical pixel of text, margins and line widths; 0 picks max(0.5, min(width/1280,
  // height/720)): a 4K image has the layout of a 1280x720 view with every part three times larger,
  // a 640x360 one the same layout at half size (below that the text would be unreadable).
  double scale = 0.0;
  // The scale a picture of `size` is drawn at: `scale`, or the automatic one.
  double scaleFor(QSize size) const {
    return scale > 0.0 ? scale : std::max(0.5, std::min(size.width() / 1280.0, size.height() / 720.0));
  }
  bool hud = true;         // counters and warnings (top left); the 3D mouse hint is drawn on screen only
  bool colourBar = true;   // the colour bar(s) on the right
  bool labels = true;      // metre axes, headings, tick labels; the source, receivers and absorbing layer marked
  double framesPerSecond = 0.0;  // the frame rate the HUD gives: a video's (0: the view's own)
  // A stream's pictures (ImageFramebuffer::start) read back as a video's yuv420p planes (render/VideoPlanes.h)
  // instead of RGBA: what an encoder takes, converted on the GPU. Needs an even width and height.
  bool videoPlanes = false;
};

// The framebuffer a frame is drawn into (bound by the caller) and how it is laid out.
struct FrameTarget {
  QSize pixels;             // the framebuffer's size
  QSizeF canvas;            // the same in logical pixels: text, margins and line widths are laid out in these
  double pixelRatio = 1.0;  // pixels per logical pixel
  bool hud = true, colourBar = true, labels = true;  // as in ImageOptions
  // A window's frame: with the HUD's screen-only line and the mouse's hint, which a picture leaves out.
  bool onScreen = true;
  // Drawn upside down, so that glReadPixels (rows bottom up) delivers the rows in image order.
  bool rowsDown = false;

  // A window's frame of `canvas` logical pixels, with every decoration.
  static FrameTarget window(QSizeF canvas, QSize pixels, double pixelRatio) {
    FrameTarget target;
    target.canvas = canvas;
    target.pixels = pixels;
    target.pixelRatio = pixelRatio;
    return target;
  }
};

}  // namespace iso
