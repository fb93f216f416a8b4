#include "render/OverlayLayer.h"

#include <QOpenGLShaderProgram>
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

bool tileSame(const QImage& a, const QImage& b, const QRect& r) {
  const std::size_t bytes = std::size_t(r.width()) * 4;
  for (int y = r.top(); y <= r.bottom(); ++y)
    if (std::memcmp(a.constScanLine(y) + r.left() * 4, b.constScanLine(y) + r.left() * 4, bytes) != 0) return false;
  return true;
}

}  // namespace

OverlayLayer::OverlayLayer() = default;
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
  gl->glGenTextures(1, &texture_);
  gl->glBindTexture(GL_TEXTURE_2D, texture_);
  // One texel per pixel: nothing to filter.
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  uploaded_ = QImage();
  error_ = drainGlErrors(gl, "creating the overlay layer");
  return error_.isEmpty();
}

void OverlayLayer::destroy(GlFunctions* gl) {
  if (texture_ != 0) gl->glDeleteTextures(1, &texture_);
  if (vbo_ != 0) gl->glDeleteBuffers(1, &vbo_);
  if (vao_ != 0) gl->glDeleteVertexArrays(1, &vao_);
  texture_ = vbo_ = vao_ = 0;
  program_.reset();
  uploaded_ = QImage();
}

QImage& OverlayLayer::begin(int widthPx, int heightPx, double pixelRatio) {
  if (painted_.width() != widthPx || painted_.height() != heightPx)
    painted_ = QImage(widthPx, heightPx, QImage::Format_RGBA8888_Premultiplied);
  painted_.setDevicePixelRatio(pixelRatio);
  painted_.fill(Qt::transparent);
  return painted_;
}

void OverlayLayer::addQuad(const QRect& r, bool flipped) {
  const int w = painted_.width(), h = painted_.height();
  const float x0 = 2.0f * r.left() / w - 1.0f, x1 = 2.0f * (r.right() + 1) / w - 1.0f;
  const float up = flipped ? -1.0f : 1.0f;
  const float y0 = up * (1.0f - 2.0f * r.top() / h), y1 = up * (1.0f - 2.0f * (r.bottom() + 1) / h);
  const float s0 = float(r.left()) / w, s1 = float(r.right() + 1) / w;
  const float t0 = float(r.top()) / h, t1 = float(r.bottom() + 1) / h;
  vertices_.insert(vertices_.end(), {x0, y0, s0, t0, x1, y0, s1, t0, x1, y1, s1, t1,
                                     x0, y0, s0, t0, x1, y1, s1, t1, x0, y1, s0, t1});
}

void OverlayLayer::uploadRect(GlFunctions* gl, const QRect& r) {
  gl->glPixelStorei(GL_UNPACK_SKIP_PIXELS, r.left());
  gl->glPixelStorei(GL_UNPACK_SKIP_ROWS, r.top());
  gl->glTexSubImage2D(GL_TEXTURE_2D, 0, r.left(), r.top(), r.width(), r.height(), GL_RGBA, GL_UNSIGNED_BYTE,
                      painted_.constBits());
}

bool OverlayLayer::sendTiles(GlFunctions* gl, bool fresh, bool flipped) {
  // RGBA bytes into RGBA8 storage: a plain copy per row for the driver.
  gl->glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  gl->glPixelStorei(GL_UNPACK_ROW_LENGTH, int(painted_.bytesPerLine() / 4));
  vertices_.clear();
  bool uploadedAny = false;
  // Along each row of tiles, runs of neighbours are sent in one upload and drawn as one quad.
  for (int ty = 0; ty * kTile < painted_.height(); ++ty) {
    QRect drawRun, uploadRun;
    for (int tx = 0; tx * kTile < painted_.width(); ++tx) {
      const QRect r = tileRect(painted_, tx, ty);
      // An empty tile is not drawn, so what the texture holds there does not matter until it is painted
      // on; a painted one the texture holds already is not sent again.
      const bool empty = tileEmpty(painted_, r);
      const bool send = !empty && (fresh || !tileSame(painted_, uploaded_, r));
      if (!empty) drawRun = drawRun.isNull() ? r : drawRun.united(r);
      if (send) uploadRun = uploadRun.isNull() ? r : uploadRun.united(r);
      if (empty && !drawRun.isNull()) addQuad(std::exchange(drawRun, QRect()), flipped);
      if (!send && !uploadRun.isNull()) {
        uploadRect(gl, std::exchange(uploadRun, QRect()));
        uploadedAny = true;
      }
    }
    if (!drawRun.isNull()) addQuad(drawRun, flipped);
    if (!uploadRun.isNull()) {
      uploadRect(gl, uploadRun);
      uploadedAny = true;
    }
  }
  gl->glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
  gl->glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
  gl->glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  return uploadedAny;
}

bool OverlayLayer::draw(GlFunctions* gl, bool flipped) {
  if (painted_.isNull()) return true;
  gl->glActiveTexture(GL_TEXTURE0);
  gl->glBindTexture(GL_TEXTURE_2D, texture_);
  const bool fresh = painted_.size() != uploaded_.size();
  if (fresh) gl->glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, painted_.width(), painted_.height(), 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  const bool uploadedAny = sendTiles(gl, fresh, flipped);
  // The texture now holds this frame's painted tiles; its empty ones may hold older pixels, which the
  // comparison with uploaded_ (whose empty tiles are transparent) sends again once they are painted on.
  if (uploadedAny || fresh) std::swap(painted_, uploaded_);
  if (!vertices_.empty()) {
    gl->glEnable(GL_BLEND);
    gl->glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    program_->bind();
    gl->glBindVertexArray(vao_);
    gl->glBindBuffer(GL_ARRAY_BUFFER, vbo_);
    gl->glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(vertices_.size() * sizeof(float)), vertices_.data(), GL_STREAM_DRAW);
    gl->glDrawArrays(GL_TRIANGLES, 0, GLsizei(vertices_.size() / 4));
    gl->glBindVertexArray(0);
    program_->release();
    gl->glDisable(GL_BLEND);
  }
  error_ = drainGlErrors(gl, "drawing the overlay");
  return error_.isEmpty();
}

}  // namespace iso
