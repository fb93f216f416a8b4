#include "render/Overlays.h"

#include <algorithm>
#include <cmath>

#include <QFontMetricsF>
#include <QPainterPath>

namespace iso {
namespace {

// x and y run along the top edges from the origin corner (top, back, left); z runs down the
// front-left edge, which stays visible from the default viewpoint (the back one hides behind the
// slices). Each entry: the edge's start (grid units) and the outward direction of its ticks.
struct AxisEdge {
  glm::vec3 start;
  glm::vec3 outward;
};

AxisEdge axisEdge(int axis, const SliceGeometry& g) {
  switch (axis) {
    case 0: return {{0.0f, 0.0f, 0.0f}, {0.0f, -1.0f, 0.0f}};
    case 1: return {{0.0f, 0.0f, 0.0f}, {-1.0f, 0.0f, 0.0f}};
    default: return {{0.0f, float(g.size[1]), 0.0f}, {-1.0f, 0.0f, 0.0f}};
  }
}

const QColor kBoxColour(150, 154, 162, 200);
const QColor kLayerColour(230, 232, 236, 110);  // the absorbing layer's inner faces: fainter than the box
const QColor kSourceColour(80, 255, 120);

// Text with a thin dark halo so it reads on any colour underneath.
void drawHaloText(QPainter& painter, const QRectF& box, int flags, const QString& text, const QColor& colour) {
  painter.setPen(QColor(0, 0, 0, 170));
  for (const QPointF& d : {QPointF(1, 0), QPointF(-1, 0), QPointF(0, 1), QPointF(0, -1)})
    painter.drawText(box.translated(d), flags, text);
  painter.setPen(colour);
  painter.drawText(box, flags, text);
}

QString metres(double value, double step) { return formatTick(value, step); }

// A receiver: a downward triangle (the usual symbol of a geophone) in its colour, outlined in black, and
// its number beside it unless a previous label lies too close (a dense line stays readable).
struct ReceiverMarks {
  QPainter& painter;
  const Hud& hud;
  double size;
  std::vector<QPointF> labelled;

  void draw(const QPointF& at, int index) {
    const QPolygonF triangle{at + QPointF(-size, -0.8 * size), at + QPointF(size, -0.8 * size), at + QPointF(0, 0.9 * size)};
    painter.setPen(QPen(QColor(0, 0, 0, 200), 1.2));
    painter.setBrush(receiverColour(index));
    painter.drawPolygon(triangle);
    const QFontMetricsF metrics(hud.smallFont());
    const double room = metrics.horizontalAdvance(QString::number(index)) + 6.0;
    for (const QPointF& other : labelled)
      if (std::abs(other.x() - at.x()) < room && std::abs(other.y() - at.y()) < metrics.height()) return;
    labelled.push_back(at);
    painter.setFont(hud.smallFont());
    drawHaloText(painter, QRectF(at.x() - 20, at.y() - 0.8 * size - metrics.height() - 1, 40, metrics.height()),
                 Qt::AlignCenter, QString::number(index), receiverColour(index).lighter(130));
  }
};

// The order receivers are marked in: the first and the last (the ends of a line keep their numbers,
// whatever crowds the middle), then the others in turn.
std::vector<std::size_t> markOrder(std::size_t count) {
  std::vector<std::size_t> order;
  if (count > 0) order.push_back(0);
  if (count > 1) order.push_back(count - 1);
  for (std::size_t r = 1; r + 1 < count; ++r) order.push_back(r);
  return order;
}

}  // namespace

QColor axisColour(int axis) {
  static const QColor colours[3] = {QColor(235, 110, 110), QColor(130, 205, 110), QColor(95, 170, 245)};
  return colours[std::clamp(axis, 0, 2)];
}

QString axisName(int axis) { return QStringList{"x", "y", "z"}.value(axis); }

QString axisTitle(int axis) { return axis == 2 ? QString("z, depth (m)") : axisName(axis) + " (m)"; }

QColor receiverColour(int index) {
  // Matplotlib's "tab10": distinct from each other and from the seismic colormap's blue-white-red.
  static const QColor colours[10] = {QColor(31, 119, 180),  QColor(255, 127, 14), QColor(44, 160, 44),
                                     QColor(214, 39, 40),   QColor(148, 103, 189), QColor(140, 86, 75),
                                     QColor(227, 119, 194), QColor(127, 127, 127), QColor(188, 189, 34),
                                     QColor(23, 190, 207)};
  return colours[((index % 10) + 10) % 10];
}

// ---- PlaneLayout ---------------------------------------------------------------------------------

PlaneLayout PlaneLayout::fit(SlicePlane plane, const SliceGeometry& geometry, const QRectF& area) {
  PlaneLayout layout;
  layout.plane = plane;
  layout.columns = std::max(geometry.width(plane), 1);
  layout.rows = std::max(geometry.height(plane), 1);
  double scale = std::min(area.width() / layout.columns, area.height() / layout.rows);
  if (scale >= 1.0) scale = std::floor(scale);
  scale = std::max(scale, 1e-3);
  layout.pixelsPerCell = scale;
  const QSizeF size(layout.columns * scale, layout.rows * scale);
  // Whole-pixel origin, so that cell boundaries fall on pixel boundaries.
  const QPointF origin(std::floor(area.center().x() - 0.5 * size.width()),
                       std::floor(area.center().y() - 0.5 * size.height()));
  layout.rect = QRectF(origin, size);
  return layout;
}

std::optional<std::array<int, 2>> PlaneLayout::cellAt(const QPointF& position) const {
  const double c = std::floor((position.x() - rect.left()) / pixelsPerCell);
  const double r = std::floor((position.y() - rect.top()) / pixelsPerCell);
  if (c < 0 || r < 0 || c >= columns || r >= rows) return std::nullopt;
  return std::array<int, 2>{int(c), int(r)};
}

QPointF PlaneLayout::centreOf(double column, double row) const {
  return {rect.left() + (column + 0.5) * pixelsPerCell, rect.top() + (row + 0.5) * pixelsPerCell};
}

// ---- GL lines (3D) -------------------------------------------------------------------------------

bool Overlays::create(GlFunctions* gl) {
  program_ = std::make_unique<QOpenGLShaderProgram>();
  error_ = buildShaderProgram(*program_, ":/shaders/line.vert", ":/shaders/line.frag", ":/shaders/line.geom");
  if (!error_.isEmpty()) return false;
  gl->glGenVertexArrays(1, &vao_);
  gl->glGenBuffers(1, &vbo_);
  gl->glBindVertexArray(vao_);
  gl->glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  gl->glEnableVertexAttribArray(0);
  gl->glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(Vertex), reinterpret_cast<void*>(offsetof(Vertex, x)));
  gl->glEnableVertexAttribArray(1);
  gl->glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(Vertex), reinterpret_cast<void*>(offsetof(Vertex, r)));
  gl->glBindVertexArray(0);
  uploadedCapacity_ = 0;
  built_ = false;
  error_ = drainGlErrors(gl, "creating the overlay buffers");
  return error_.isEmpty();
}

void Overlays::destroy(GlFunctions* gl) {
  if (vbo_ != 0) gl->glDeleteBuffers(1, &vbo_);
  if (vao_ != 0) gl->glDeleteVertexArrays(1, &vao_);
  vao_ = vbo_ = 0;
  program_.reset();
  built_ = false;
}

std::vector<bool> keepApart(const std::vector<QRectF>& fixed, const std::vector<QRectF>& optional, double gap) {
  std::vector<QRectF> taken;
  for (const QRectF& box : fixed) taken.push_back(box.adjusted(-gap, -gap, gap, gap));
  std::vector<bool> kept;
  for (const QRectF& box : optional) {
    const bool clear = std::none_of(taken.begin(), taken.end(), [&](const QRectF& t) { return t.intersects(box); });
    kept.push_back(clear);
    if (clear) taken.push_back(box.adjusted(-gap, -gap, gap, gap));
  }
  return kept;
}

double Overlays::tickLength() const {
  const std::array<int, 3>& n = scene_.geometry.size;
  return 0.018 * double(std::max({n[0], n[1], n[2]}));
}

void Overlays::addLine(const glm::vec3& gridA, const glm::vec3& gridB, const QColor& colour) {
  for (const glm::vec3& g : {gridA, gridB}) {
    const glm::vec3 w = scene_.geometry.toWorld(g);
    vertices_.push_back({w.x, w.y, w.z, float(colour.redF()), float(colour.greenF()), float(colour.blueF()),
                         float(colour.alphaF())});
  }
}

// A box: the 12 edges between corners that differ in one coordinate.
void Overlays::addBox(const glm::vec3& lo, const glm::vec3& hi, const QColor& colour) {
  for (int a = 0; a < 8; ++a)
    for (int axis = 0; axis < 3; ++axis) {
      if (a & (1 << axis)) continue;
      const glm::vec3 from(a & 1 ? hi.x : lo.x, a & 2 ? hi.y : lo.y, a & 4 ? hi.z : lo.z);
      glm::vec3 to = from;
      to[axis] = hi[axis];
      addLine(from, to, colour);
    }
}

// Slice outlines, in the colour of each slice's normal axis.
void Overlays::addSliceOutlines() {
  const SliceGeometry& g = scene_.geometry;
  for (SlicePlane p : kSlicePlanes) {
    const QColor colour = axisColour(planeAxes(p).normal);
    const float corners[5][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 0}};
    for (int c = 0; c < 4; ++c)
      addLine(g.toGrid(g.planeCorner(p, corners[c][0], corners[c][1])),
              g.toGrid(g.planeCorner(p, corners[c + 1][0], corners[c + 1][1])), colour);
  }
}

// An axis with ticks at round metre values (grid point i, at i·dx metres, is the centre of cell i),
// their labels, and its title beside its middle, beyond the tick labels (placed on screen when painted).
void Overlays::addAxis(int axis) {
  const SliceGeometry& g = scene_.geometry;
  const double dx = scene_.dx;
  const float tick = float(tickLength());
  const AxisEdge edge = axisEdge(axis, g);
  const QColor colour = axisColour(axis);
  glm::vec3 end = edge.start;
  end[axis] = float(g.size[std::size_t(axis)]);
  addLine(edge.start, end, colour);
  const double lengthMetres = double(g.size[std::size_t(axis)] - 1) * dx;
  const std::vector<double> ticks = niceTicks(0.0, lengthMetres, 5);
  const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : lengthMetres;
  for (double m : ticks) {
    if (axis == 1 && m == 0.0) continue;  // x's "0" already marks the corner both axes start from
    glm::vec3 at = edge.start;
    at[axis] = float(m / dx + 0.5);
    addLine(at, at + tick * edge.outward, colour);
    labels_.push_back({g.toWorld(at + 3.2f * tick * edge.outward), metres(m, step), colour, std::nullopt});
  }
  // The title halfway between the two ticks nearest the axis's middle, so that it never hides a tick's label.
  double titleMetres = 0.5 * lengthMetres;
  for (std::size_t t = 0; t + 1 < ticks.size(); ++t)
    if (ticks[t] <= titleMetres && titleMetres < ticks[t + 1]) titleMetres = 0.5 * (ticks[t] + ticks[t + 1]);
  glm::vec3 middle = edge.start;
  middle[axis] = float(titleMetres / dx + 0.5);
  labels_.push_back({g.toWorld(middle + 3.2f * tick * edge.outward), axisTitle(axis), colour, g.toWorld(middle), g.toWorld(end)});
}

// The source: a small cross of three lines, ringed when painted.
void Overlays::addSource(const Cell& source) {
  const glm::vec3 centre(source.i + 0.5f, source.j + 0.5f, source.k + 0.5f);
  const float half = 1.6f * float(tickLength());
  for (int axis = 0; axis < 3; ++axis) {
    glm::vec3 d(0.0f);
    d[axis] = half;
    addLine(centre - d, centre + d, kSourceColour);
  }
  sourceWorld_ = scene_.geometry.toWorld(centre);
}

bool Overlays::update(GlFunctions* gl, const Scene& scene) {
  if (built_ && scene == scene_) return true;
  scene_ = scene;
  vertices_.clear();
  labels_.clear();
  sourceWorld_.reset();
  const glm::vec3 n(scene.geometry.size[0], scene.geometry.size[1], scene.geometry.size[2]);
  addBox(glm::vec3(0.0f), n, kBoxColour);
  // The absorbing layer's inner faces: a second box, inset by the layer's width along each axis.
  const glm::vec3 inset(scene.absorbingCells[0], scene.absorbingCells[1], scene.absorbingCells[2]);
  if (inset != glm::vec3(0.0f) && glm::all(glm::lessThan(2.0f * inset, n))) addBox(inset, n - inset, kLayerColour);
  if (scene.sliceOutlines) addSliceOutlines();
  for (int axis = 0; axis < 3; ++axis) addAxis(axis);
  if (scene.source) addSource(*scene.source);
  return upload(gl);
}

bool Overlays::upload(GlFunctions* gl) {
  gl->glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  const GLsizeiptr bytes = GLsizeiptr(vertices_.size() * sizeof(Vertex));
  if (vertices_.size() > uploadedCapacity_) {
    gl->glBufferData(GL_ARRAY_BUFFER, bytes, vertices_.data(), GL_STATIC_DRAW);
    uploadedCapacity_ = vertices_.size();
  } else {
    gl->glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, vertices_.data());
  }
  error_ = drainGlErrors(gl, "uploading the overlay lines");
  built_ = error_.isEmpty();
  return built_;
}

void Overlays::draw3D(GlFunctions* gl, const glm::mat4& viewProjection, QSize viewport, double pixelRatio) {
  if (!built_ || vertices_.empty()) return;
  program_->bind();
  gl->glUniformMatrix4fv(program_->uniformLocation("viewProjection"), 1, GL_FALSE, &viewProjection[0][0]);
  program_->setUniformValue("viewportPixels", GLfloat(viewport.width()), GLfloat(viewport.height()));
  program_->setUniformValue("halfWidth", GLfloat(kLineWidth * pixelRatio / 2));
  program_->setUniformValue("depthBias", kLineDepthBias);
  gl->glBindVertexArray(vao_);
  // A line's band reaches a pixel or so over the slice whose edge it outlines, where the slice may lie
  // nearer than the line itself: the bias lets the band win there (lines behind a slice by more stay
  // hidden). The bands write no depth, so that one line's faint edge never hides another line.
  gl->glDepthFunc(GL_LEQUAL);
  gl->glDepthMask(GL_FALSE);
  gl->glDrawArrays(GL_LINES, 0, GLsizei(vertices_.size()));
  gl->glDepthMask(GL_TRUE);
  gl->glDepthFunc(GL_LESS);
  gl->glBindVertexArray(0);
  program_->release();
}

std::optional<QRectF> Overlays::labelBox(const Label& label, const OrbitCamera& camera, int width, int height,
                                         const QFontMetricsF& metrics, const QSizeF& tickLabel) const {
  auto at = camera.project(label.world, width, height);
  if (!at) return std::nullopt;
  const QSizeF size(metrics.horizontalAdvance(label.text) + 4.0, metrics.height());
  if (label.axisPoint) {
    // Push the title outward from its axis, on screen, past a tick label at the same spot: the
    // projected outward direction varies with the viewpoint, so this cannot be fixed in 3D. The push is
    // straight across an axis that runs up and down the screen, straight up or down from one that runs
    // across it: pushed aslant, a wide title would drift along its axis onto a tick label.
    const auto anchor = camera.project(*label.axisPoint, width, height);
    const auto axisEnd = camera.project(label.axisEnd, width, height);
    if (!anchor || !axisEnd || glm::length(*at - *anchor) < 1e-3f) return std::nullopt;
    const glm::vec2 away = *at - *anchor, along = *axisEnd - *anchor;
    const bool across = std::abs(along.y) >= std::abs(along.x);
    const glm::vec2 dir = across ? glm::vec2(away.x > 0 ? 1.0f : -1.0f, 0.0f) : glm::vec2(0.0f, away.y > 0 ? 1.0f : -1.0f);
    (across ? at->y : at->x) = (across ? anchor->y : anchor->x);
    const auto extent = [&dir](const QSizeF& s) {
      return 0.5f * (std::abs(dir.x) * float(s.width()) + std::abs(dir.y) * float(s.height()));
    };
    const auto extentAlong = [&dir](const QSizeF& s) {
      return 0.5f * (std::abs(dir.y) * float(s.width()) + std::abs(dir.x) * float(s.height()));
    };
    // A sloping axis brings the tick labels beside the title nearer by its slope times their widths.
    const float slope = across ? std::abs(along.x / along.y) : std::abs(along.y / along.x);
    *at += dir * (extent(tickLabel) + extent(size) + slope * (extentAlong(tickLabel) + extentAlong(size)) + 4.0f);
  }
  // Kept inside the scene, so a title pushed past the edge is still read.
  const double left = std::clamp(double(at->x) - 0.5 * size.width(), 2.0, std::max(2.0, width - size.width() - 2.0));
  return QRectF(left, at->y - 0.5 * size.height(), size.width(), size.height());
}

void Overlays::paintLabels3D(QPainter& painter, const OrbitCamera& camera, int width, int height,
                             const Hud& hud) const {
  if (!built_) return;
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing, true);
  painter.setRenderHint(QPainter::TextAntialiasing, true);
  QFont titleFont = hud.font();
  titleFont.setBold(true);
  const QFontMetricsF tickMetrics(hud.smallFont()), titleMetrics(titleFont);
  const QSizeF tickLabel(tickMetrics.horizontalAdvance("0000") + 4.0, tickMetrics.height());
  // Where each label goes on screen; then the titles, and the tick labels that keep clear of what is
  // drawn already (a small view, or an axis seen end-on, has no room for all five of an axis).
  std::vector<QRectF> titleBoxes, tickBoxes;
  std::vector<const Label*> titles, ticks;
  for (const Label& label : labels_) {
    const auto box = labelBox(label, camera, width, height, label.axisPoint ? titleMetrics : tickMetrics, tickLabel);
    if (!box) continue;
    (label.axisPoint ? titleBoxes : tickBoxes).push_back(*box);
    (label.axisPoint ? titles : ticks).push_back(&label);
  }
  painter.setFont(titleFont);
  for (std::size_t i = 0; i < titles.size(); ++i)
    drawHaloText(painter, titleBoxes[i], Qt::AlignCenter, titles[i]->text, titles[i]->colour);
  painter.setFont(hud.smallFont());
  const std::vector<bool> kept = keepApart(titleBoxes, tickBoxes, 3.0);
  for (std::size_t i = 0; i < ticks.size(); ++i)
    if (kept[i]) drawHaloText(painter, tickBoxes[i], Qt::AlignCenter, ticks[i]->text, Hud::textColour());
  if (sourceWorld_) {
    if (const auto at = camera.project(*sourceWorld_, width, height)) {
      painter.setPen(QPen(QColor(0, 0, 0, 180), 3.0));
      painter.setBrush(Qt::NoBrush);
      painter.drawEllipse(QPointF(at->x, at->y), 7.0, 7.0);
      painter.setPen(QPen(kSourceColour, 1.6));
      painter.drawEllipse(QPointF(at->x, at->y), 7.0, 7.0);
    }
  }
  painter.restore();
}

// ---- 2D ------------------------------------------------------------------------------------------

namespace {

// Dashed traces of the other two slices through the plane, in the colours of their normals.
void paintTraces(QPainter& painter, const PlaneLayout& layout, const SliceGeometry& geometry) {
  const PlaneAxes axes = planeAxes(layout.plane);
  const QRectF& r = layout.rect;
  const QPointF point = layout.centreOf(geometry.point[axes.column], geometry.point[axes.row]);
  const auto dashed = [](int axis) {
    QColor c = axisColour(axis);
    c.setAlpha(170);
    return QPen(c, 1.0, Qt::DashLine);
  };
  painter.setPen(dashed(axes.column));
  painter.drawLine(QPointF(point.x(), r.top()), QPointF(point.x(), r.bottom()));
  painter.setPen(dashed(axes.row));
  painter.drawLine(QPointF(r.left(), point.y()), QPointF(r.right(), point.y()));
}

// A metre axis along the plane: `axis` across its columns below it (horizontal), or down its rows on
// its left, with ticks, their labels and the axis's title.
void paintAxis2D(QPainter& painter, const PlaneLayout& layout, int axis, bool horizontal, double dx, const Hud& hud) {
  const QRectF& r = layout.rect;
  const QFontMetricsF small(hud.smallFont());
  painter.setFont(hud.smallFont());
  const int cells = horizontal ? layout.columns : layout.rows;
  const double lengthMetres = double(cells - 1) * dx;
  const double pixels = horizontal ? r.width() : r.height();
  const std::vector<double> ticks = niceTicks(0.0, lengthMetres, std::max(2, int(pixels / (horizontal ? 90 : 60))));
  const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : lengthMetres;
  painter.setPen(QPen(Hud::textColour(), 1.0));
  for (double m : ticks) {
    const QPointF at = horizontal ? layout.centreOf(m / dx, 0) : layout.centreOf(0, m / dx);
    const QString text = metres(m, step);
    if (horizontal) {
      painter.drawLine(QPointF(at.x(), r.bottom() + 1), QPointF(at.x(), r.bottom() + 6));
      painter.drawText(QRectF(at.x() - 40, r.bottom() + 7, 80, small.height()), Qt::AlignHCenter | Qt::AlignTop, text);
    } else {
      painter.drawLine(QPointF(r.left() - 6, at.y()), QPointF(r.left() - 1, at.y()));
      painter.drawText(QRectF(r.left() - 88, at.y() - 0.5 * small.height(), 80, small.height()),
                       Qt::AlignRight | Qt::AlignVCenter, text);
    }
  }
  QFont titleFont = hud.font();
  titleFont.setBold(true);
  painter.setFont(titleFont);
  painter.setPen(axisColour(axis));
  const QFontMetricsF title(titleFont);
  if (horizontal) {
    painter.drawText(QRectF(r.left(), r.bottom() + 8 + small.height(), r.width(), title.height()),
                     Qt::AlignHCenter | Qt::AlignTop, axisTitle(axis) + QString::fromUtf8(" \u2192"));
  } else {
    painter.save();
    painter.translate(r.left() - 14 - small.horizontalAdvance("00000") - title.height(), r.center().y());
    painter.rotate(-90);
    // Rotated text reads bottom-to-top, so the arrow pointing down the axis goes first.
    painter.drawText(QRectF(-0.5 * r.height(), 0, r.height(), title.height()), Qt::AlignCenter,
                     QString::fromUtf8("\u2190 ") + axisTitle(axis));
    painter.restore();
  }
}

// Which slice this is, above the plane, as wide as the room up to the colour bar (narrow windows
// elide the end).
void paintHeading(QPainter& painter, const PlaneLayout& layout, const SliceGeometry& geometry, double dx, const Hud& hud) {
  const PlaneAxes axes = planeAxes(layout.plane);
  const QRectF& r = layout.rect;
  const int n = axes.normal;
  const int index = geometry.point[n];
  const QString kind = layout.plane == SlicePlane::XY ? "depth slice" : "section";
  QFont headerFont = hud.font();
  headerFont.setBold(true);
  painter.setFont(headerFont);
  const QFontMetricsF header(headerFont);
  const QString heading = QString("%1%2 %3 at %4 = %5 m (%6 = %7)")
                              .arg(axisName(axes.column).toUpper(), axisName(axes.row).toUpper(), kind, axisName(n))
                              .arg(formatTick(index * dx, dx))
                              .arg(QStringList{"i", "j", "k"}.value(n))
                              .arg(index);
  const double headingWidth = std::max(r.width(), painter.device()->width() / painter.device()->devicePixelRatioF() -
                                                      r.left() - 130.0);
  drawHaloText(painter, QRectF(r.left(), r.top() - header.height() - 4, headingWidth, header.height()),
               Qt::AlignLeft | Qt::AlignVCenter, header.elidedText(heading, Qt::ElideRight, headingWidth - 4),
               Hud::textColour());
}

// The source's ring: solid when the source lies in this plane, dashed when it is only projected onto it.
void paintSource2D(QPainter& painter, const PlaneLayout& layout, const SliceGeometry& geometry, const Cell& source) {
  const PlaneAxes axes = planeAxes(layout.plane);
  const std::array<int, 3> s{source.i, source.j, source.k};
  const QPointF at = layout.centreOf(s[axes.column], s[axes.row]);
  const double radius = std::max(6.0, 0.8 * layout.pixelsPerCell);
  const bool inPlane = s[axes.normal] == geometry.point[axes.normal];
  painter.setBrush(Qt::NoBrush);
  painter.setPen(QPen(QColor(0, 0, 0, 180), 3.5));
  painter.drawEllipse(at, radius, radius);
  painter.setPen(QPen(kSourceColour, 1.8, inPlane ? Qt::SolidLine : Qt::DashLine));
  painter.drawEllipse(at, radius, radius);
  if (inPlane) {
    painter.drawLine(at - QPointF(radius * 0.5, 0), at + QPointF(radius * 0.5, 0));
    painter.drawLine(at - QPointF(0, radius * 0.5), at + QPointF(0, radius * 0.5));
  }
}

}  // namespace

void Overlays::paint2D(QPainter& painter, const PlaneLayout& layout, const SliceGeometry& geometry, double dx,
                       const std::optional<Cell>& source, const Hud& hud) const {
  const PlaneAxes axes = planeAxes(layout.plane);
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing, true);
  painter.setRenderHint(QPainter::TextAntialiasing, true);
  paintTraces(painter, layout, geometry);
  // Frame in the colour of the plane's normal, as in the 3D view.
  painter.setPen(QPen(axisColour(axes.normal), 1.0));
  painter.setBrush(Qt::NoBrush);
  painter.drawRect(layout.rect.adjusted(-0.5, -0.5, 0.5, 0.5));
  // Metre axes: the column axis below the plane, the row axis on its left.
  paintAxis2D(painter, layout, axes.column, true, dx, hud);
  paintAxis2D(painter, layout, axes.row, false, dx, hud);
  paintHeading(painter, layout, geometry, dx, hud);
  if (source) paintSource2D(painter, layout, geometry, *source);
  painter.restore();
}

void Overlays::paintReceivers2D(QPainter& painter, const PlaneLayout& layout, const SliceGeometry& geometry,
                                const std::vector<Cell>& receivers, const Hud& hud) {
  if (receivers.empty()) return;
  const PlaneAxes axes = planeAxes(layout.plane);
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing, true);
  ReceiverMarks marks{painter, hud, std::max(4.0, 0.6 * layout.pixelsPerCell), {}};
  for (const std::size_t r : markOrder(receivers.size())) {
    const std::array<int, 3> cell{receivers[r].i, receivers[r].j, receivers[r].k};
    if (cell[axes.normal] != geometry.point[axes.normal]) continue;
    if (cell[axes.column] < 0 || cell[axes.column] >= layout.columns || cell[axes.row] < 0 || cell[axes.row] >= layout.rows)
      continue;
    marks.draw(layout.centreOf(cell[axes.column], cell[axes.row]), int(r));
  }
  painter.restore();
}

void Overlays::paintReceivers3D(QPainter& painter, const OrbitCamera& camera, int width, int height,
                                const SliceGeometry& geometry, const std::vector<Cell>& receivers, const Hud& hud,
                                bool onSlicesOnly) {
  if (receivers.empty() || geometry.empty()) return;
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing, true);
  ReceiverMarks marks{painter, hud, 5.0, {}};
  for (const std::size_t r : markOrder(receivers.size())) {
    const std::array<int, 3> cell{receivers[r].i, receivers[r].j, receivers[r].k};
    bool onSlice = false, inside = true;
    for (int a = 0; a < 3; ++a) {
      onSlice = onSlice || cell[a] == geometry.point[a];
      inside = inside && cell[a] >= 0 && cell[a] < geometry.size[a];
    }
    if ((onSlicesOnly && !onSlice) || !inside) continue;
    const glm::vec3 centre(cell[0] + 0.5f, cell[1] + 0.5f, cell[2] + 0.5f);
    if (const auto at = camera.project(geometry.toWorld(centre), width, height)) marks.draw(QPointF(at->x, at->y), int(r));
  }
  painter.restore();
}

}  // namespace iso
