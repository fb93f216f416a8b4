#pragma once
// What QPainter draws over the slices (axis labels, receivers, colour bar, HUD text), painted by Qt's
// raster engine into images and blended over the frame from textures. Qt's OpenGL paint engine would
// issue GL state changes and draw calls per text item and path, each of which costs a software
// rasterizer (Mesa's llvmpipe) more than painting the same text into memory does.
//
// On a GPU the painting is what costs: at 1080p, clearing, painting and scanning one image of the whole
// frame took 7 ms of the GUI thread per frame, the picture itself 0.1 ms (docs/PERFORMANCE.md). So the
// overlay is made of panels, each a rectangle of the frame holding what one part of the decorations
// paints there (the marks over the whole frame, the colour bars in their column, the HUD in its band),
// and a panel is painted again only when its key (what it would paint) changed, and then only inside
// its rectangle: a running view's frames repaint the HUD's band, while the labels, which change only
// when the camera moves, are neither painted nor sent again. Within a panel the image is handled in
// tiles: only tiles whose pixels changed since the panel's last painting are uploaded, and only tiles
// with something painted in them are blended.
#include <QByteArray>
#include <QDataStream>
#include <QIODevice>
#include <QImage>
#include <QRect>
#include <QString>
#include <functional>
#include <memory>
#include <vector>

#include "core/SlicePicture.h"
#include "render/GlCheck.h"

class QOpenGLShaderProgram;
class QPainter;

namespace iso {

class OverlayLayer {
 public:
  static constexpr int kTile = 16;  // pixels along each side of a tile

  explicit OverlayLayer(int panels);
  ~OverlayLayer();
  bool create(GlFunctions* gl);  // needs a current context; false (see lastError) on a GL error
  void destroy(GlFunctions* gl);

  // Panel `index` of this frame: what `paint` paints in the frame's logical coordinates, at `pixelRatio`
  // device pixels per logical pixel, inside `region` (device pixels of the frame; what falls outside is
  // clipped). `paint` is called only when the region, the ratio or `key` differ from the panel's last
  // painting; otherwise the panel shows what it holds. An empty region shows nothing.
  using Paint = std::function<void(QPainter& painter)>;
  void paint(int index, const QRect& region, double pixelRatio, const QByteArray& key, const Paint& paint);
  // A key: the bytes of what `write(stream)` puts into a QDataStream (a panel's inputs).
  template <class Write>
  static QByteArray keyOf(Write write) {
    QByteArray key;
    QDataStream out(&key, QIODevice::WriteOnly);
    write(out);
    return key;
  }
  // Blends every panel, in index order, over the current viewport of the bound framebuffer (a frame of
  // `frame` pixels); upside down with `flipped` (as the rest of a frame drawn for reading back in image
  // row order). False on a GL error (see lastError).
  bool draw(GlFunctions* gl, QSize frame, bool flipped = false);
  const QString& lastError() const { return error_; }
  // The panels for a renderer that blends them itself (core/SlicePicture.h), in index order: each one's
  // painted pixels within the smallest rectangle that holds them (none: left out), held by the layer,
  // named by the painting (a new generation each time a panel is painted). No GL.
  std::vector<PictureLayer> pictureLayers() const;

 private:
  struct Panel {
    QRect region;
    double pixelRatio = 0.0;
    QByteArray key;
    QImage painted;   // the panel's last painting
    QImage uploaded;  // what the texture holds (the painting before, whose memory the next one reuses)
    bool repainted = false;   // painted since the last draw
    std::uint64_t generation = 0;  // of the painting
    QRect bounds;                  // of its painted pixels, in panel pixels (empty: none)
    std::vector<QRect> runs;  // runs of tiles with something painted, in panel pixels: what is blended
    GLuint texture = 0;
  };
  // Uploads the panel's painted tiles its texture does not hold yet and collects its runs of painted
  // tiles; true when it uploaded any.
  static bool sendTiles(GlFunctions* gl, Panel& panel, bool fresh);
  static void uploadRect(GlFunctions* gl, const QImage& image, const QRect& rect);
  void sendPanel(GlFunctions* gl, Panel& panel);
  // Two triangles over `rect` of a panel at `region` in a frame of `frame` pixels.
  void addQuad(const QRect& rect, const QRect& region, QSize frame, bool flipped);

  std::vector<Panel> panels_;
  std::uint64_t paintings_ = 0;  // panels painted so far: each painting's generation
  std::vector<float> vertices_;  // this frame's quads: x y s t per vertex
  std::unique_ptr<QOpenGLShaderProgram> program_;
  GLuint vao_ = 0, vbo_ = 0;
  QString error_;
};

}  // namespace iso
