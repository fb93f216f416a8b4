#include "render/OverlayLayer.h"

#include <QOpenGLShaderProgram>
#include <QPainter>
#include <algorithm>
#include <cstring>
#include <utility>

namespace iso {
namespace {

// The pixel rectangle of tile (tx, ty), clipped to the image.
QRect tileRect(const QImage& image, int tx, int ty) {
  const int x = tx * OverlayLayer::kTile, y = ty * OverlayLayer::kTile;
  return QRect(x, y, std::min(OverlayLayer::kTile, image.width() - x), std::min(OverlayLayer::kTile, image.height() - y));
}

// Fully transparent pixels are all zero in a premultiplied format. (An OR over each row, which the
// compiler vectorises, rather than a search that stops at the first pixel.)
bool tileEmpty(const QImage& image, const QRect& r) {
  for (int y = r.top(); y <= r.bottom(); ++y) {
    const auto* row = reinterpret_cast<const quint32*>(image.constScanLine(y)) + r.left();
    quint32 any = 0;
    for (int x = 0; x < r.width(); ++x) any |= row[x];
    if (any != 0) return false;
  }
  return true;
}

// Whether any pixel of [begin, end) is painted: an OR over them, which the compiler vectorises.
bool anyPainted(const quint32* begin, const quint32* end) {
  quint32 any = 0;
  for (const quint32* p = begin; p < end; ++p) any |= *p;
  return any != 0;
}

// The smallest rectangle holding every painted pixel of `image` (empty: none). Row by row: a row with
// anything painted outside the bounds found so far moves them out to its first or last painted pixel.
QRect paintedBounds(const QImage& image) {
  const int w = image.width();
  int left = w, right = -1, top = -1, bottom = -1;
  for (int y = 0; y < image.height(); ++y) {
    const auto* row = reinterpret_cast<const quint32*>(image.constScanLine(y));
    if (!anyPainted(row, row + w)) continue;
    top = top < 0 ? y : top;
    bottom = y;
    if (anyPainted(row, row + left)) left = int(std::find_if(row, row + left, [](quint32 p) { return p != 0; }) - row);
    if (anyPainted(row + right + 1, row + w)) {
      right = w - 1;
      while (row[right] == 0) --right;
    }
  }
  return top < 0 ? QRect() : QRect(QPoint(left, top), QPoint(right, bottom));
}

bool tileSame(const QImage& a, const QImage& b, const QRect& r) {
  const std::size_t bytes = std::size_t(r.width()) * 4;
  for (int y = r.top(); y <= r.bottom(); ++y)
    if (std::memcmp(a.constScanLine(y) + r.left() * 4, b.constScanLine(y) + r.left() * 4, bytes) != 0) return false;
  return true;
}

}  // namespace

OverlayLayer::OverlayLayer(int panels) : panels_(std::size_t(panels)) {}
OverlayLayer::~OverlayLayer() = default;

bool OverlayLayer::create(GlFunctions* gl) {
  program_ = std::make_unique<QOpenGLShaderProgram>();
  if (const QString log = buildShaderProgram(*program_, ":/shaders/overlay.vert", ":/shaders/overlay.frag"); !log.isEmpty()) {
    error_ = log;
    return false;
  }
  program_->bind();
  program_->setUniformValue("overlay", 0);
  program_->release();
  gl->glGenVertexArrays(1, &vao_);
  gl->glGenBuffers(1, &vbo_);
  gl->glBindVertexArray(vao_);
  gl->glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  gl->glEnableVertexAttribArray(0);
  gl->glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 4 * sizeof(float), nullptr);
  gl->glEnableVertexAttribArray(1);
  gl->glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 4 * sizeof(float), reinterpret_cast<void*>(2 * sizeof(float)));
  gl->glBindVertexArray(0);
  for (Panel& panel : panels_) {
    gl->glGenTextures(1, &panel.texture);
    gl->glBindTexture(GL_TEXTURE_2D, panel.texture);
    // One texel per pixel: nothing to filter.
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    panel.uploaded = QImage();
    panel.key.clear();
    panel.pixelRatio = 0.0;  // painted again before it is first drawn
  }
  error_ = drainGlErrors(gl, "creating the overlay layer");
  return error_.isEmpty();
}

void OverlayLayer::destroy(GlFunctions* gl) {
  for (Panel& panel : panels_) {
    if (panel.texture != 0) gl->glDeleteTextures(1, &panel.texture);
    panel = Panel{};
  }
  if (vbo_ != 0) gl->glDeleteBuffers(1, &vbo_);
  if (vao_ != 0) gl->glDeleteVertexArrays(1, &vao_);
  vbo_ = vao_ = 0;
  program_.reset();
}

void OverlayLayer::paint(int index, const QRect& region, double pixelRatio, const QByteArray& key, const Paint& paint) {
  Panel& panel = panels_.at(std::size_t(index));
  if (region == panel.region && pixelRatio == panel.pixelRatio && key == panel.key) return;
  panel.region = region;
  panel.pixelRatio = pixelRatio;
  panel.key = key;
  panel.repainted = true;
  panel.generation = ++paintings_;
  panel.bounds = QRect();
  if (region.isEmpty()) {
    panel.painted = QImage();
    return;
  }
  if (panel.painted.size() != region.size())
    panel.painted = QImage(region.size(), QImage::Format_ARGB32_Premultiplied);
  panel.painted.setDevicePixelRatio(pixelRatio);
  panel.painted.fill(Qt::transparent);
  QPainter painter(&panel.painted);
  painter.setRenderHint(QPainter::Antialiasing, true);
  painter.setRenderHint(QPainter::TextAntialiasing, true);
  painter.translate(-QPointF(region.topLeft()) / pixelRatio);
  paint(painter);
  painter.end();
  panel.bounds = paintedBounds(panel.painted);
}

std::vector<PictureLayer> OverlayLayer::pictureLayers() const {
  std::vector<PictureLayer> layers;
  for (const Panel& panel : panels_) {
    if (panel.region.isEmpty() || panel.bounds.isEmpty()) continue;
    const auto held = std::make_shared<const QImage>(panel.painted);  // shares the pixels: a repaint detaches
    PictureLayer l;
    l.x = panel.region.x() + panel.bounds.x(), l.y = panel.region.y() + panel.bounds.y();
    l.width = panel.bounds.width(), l.height = panel.bounds.height();
    l.stride = int(held->bytesPerLine() / 4);
    l.pixels = reinterpret_cast<const std::uint32_t*>(held->constScanLine(panel.bounds.y())) + panel.bounds.x();
    l.keep = held;
    l.generation = panel.generation;
    layers.push_back(std::move(l));
  }
  return layers;
}

void OverlayLayer::addQuad(const QRect& r, const QRect& region, QSize frame, bool flipped) {
  const int w = frame.width(), h = frame.height();
  const QRect at = r.translated(region.topLeft());
  const float x0 = 2.0f * at.left() / w - 1.0f, x1 = 2.0f * (at.right() + 1) / w - 1.0f;
  const float up = flipped ? -1.0f : 1.0f;
  const float y0 = up * (1.0f - 2.0f * at.top() / h), y1 = up * (1.0f - 2.0f * (at.bottom() + 1) / h);
  const float pw = float(region.width()), ph = float(region.height());
  const float s0 = float(r.left()) / pw, s1 = float(r.right() + 1) / pw;
  const float t0 = float(r.top()) / ph, t1 = float(r.bottom() + 1) / ph;
  vertices_.insert(vertices_.end(), {x0, y0, s0, t0, x1, y0, s1, t0, x1, y1, s1, t1,
                                     x0, y0, s0, t0, x1, y1, s1, t1, x0, y1, s0, t1});
}

void OverlayLayer::uploadRect(GlFunctions* gl, const QImage& image, const QRect& r) {
  gl->glPixelStorei(GL_UNPACK_SKIP_PIXELS, r.left());
  gl->glPixelStorei(GL_UNPACK_SKIP_ROWS, r.top());
  gl->glTexSubImage2D(GL_TEXTURE_2D, 0, r.left(), r.top(), r.width(), r.height(), GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV,
                      image.constBits());
}

bool OverlayLayer::sendTiles(GlFunctions* gl, Panel& panel, bool fresh) {
  const QImage& painted = panel.painted;
  // Qt paints fastest into its native premultiplied ARGB32 (2-3 times faster than into RGBA bytes:
  // its SIMD blending is written for that format): 32-bit words 0xAARRGGBB, which GL reads as BGRA
  // packed in reverse, on either byte order.
  gl->glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  gl->glPixelStorei(GL_UNPACK_ROW_LENGTH, int(painted.bytesPerLine() / 4));
  panel.runs.clear();
  bool uploadedAny = false;
  // Along each row of tiles, runs of neighbours are sent in one upload and drawn as one quad.
  for (int ty = 0; ty * kTile < painted.height(); ++ty) {
    QRect drawRun, uploadRun;
    for (int tx = 0; tx * kTile < painted.width(); ++tx) {
      const QRect r = tileRect(painted, tx, ty);
      // An empty tile is not drawn, so what the texture holds there does not matter until it is painted
      // on; a painted one the texture holds already is not sent again.
      const bool empty = tileEmpty(painted, r);
      const bool send = !empty && (fresh || !tileSame(painted, panel.uploaded, r));
      if (!empty) drawRun = drawRun.isNull() ? r : drawRun.united(r);
      if (send) uploadRun = uploadRun.isNull() ? r : uploadRun.united(r);
      if (empty && !drawRun.isNull()) panel.runs.push_back(std::exchange(drawRun, QRect()));
      if (!send && !uploadRun.isNull()) {
        uploadRect(gl, painted, std::exchange(uploadRun, QRect()));
        uploadedAny = true;
      }
    }
    if (!drawRun.isNull()) panel.runs.push_back(drawRun);
    if (!uploadRun.isNull()) {
      uploadRect(gl, painted, uploadRun);
      uploadedAny = true;
    }
  }
  gl->glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
  gl->glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
  gl->glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  return uploadedAny;
}

// A panel painted since the last frame: its changed tiles into its texture.
void OverlayLayer::sendPanel(GlFunctions* gl, Panel& panel) {
  panel.repainted = false;
  if (panel.painted.isNull()) {
    panel.runs.clear();
    return;
  }
  gl->glBindTexture(GL_TEXTURE_2D, panel.texture);
  const bool fresh = panel.painted.size() != panel.uploaded.size();
  if (fresh)
    gl->glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, panel.painted.width(), panel.painted.height(), 0, GL_RGBA,
                     GL_UNSIGNED_BYTE, nullptr);
  // The texture now holds this painting's tiles; its empty ones may hold older pixels, which the
  // comparison with `uploaded` (whose empty tiles are transparent) sends again once they are painted on.
  if (sendTiles(gl, panel, fresh) || fresh) std::swap(panel.painted, panel.uploaded);
}

bool OverlayLayer::draw(GlFunctions* gl, QSize frame, bool flipped) {
  gl->glActiveTexture(GL_TEXTURE0);
  vertices_.clear();
  std::vector<std::pair<GLuint, int>> batches;  // per panel with something to blend: texture, vertices
  for (Panel& panel : panels_) {
    if (panel.repainted) sendPanel(gl, panel);
    if (panel.region.isEmpty() || panel.runs.empty()) continue;
    const std::size_t before = vertices_.size();
    for (const QRect& run : panel.runs) addQuad(run, panel.region, frame, flipped);
    batches.emplace_back(panel.texture, int((vertices_.size() - before) / 4));
  }
  if (!batches.empty()) {
    gl->glEnable(GL_BLEND);
    gl->glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    program_->bind();
    gl->glBindVertexArray(vao_);
    gl->glBindBuffer(GL_ARRAY_BUFFER, vbo_);
    gl->glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(vertices_.size() * sizeof(float)), vertices_.data(), GL_STREAM_DRAW);
    int first = 0;
    for (const auto& [texture, count] : batches) {
      gl->glBindTexture(GL_TEXTURE_2D, texture);
      gl->glDrawArrays(GL_TRIANGLES, first, count);
      first += count;
    }
    gl->glBindVertexArray(0);
    program_->release();
    gl->glDisable(GL_BLEND);
  }
  error_ = drainGlErrors(gl, "drawing the overlay");
  return error_.isEmpty();
}

}  // namespace iso
