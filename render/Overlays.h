#pragma once
// Lines and labels that give the slices their frame of reference: in 3D the bounding box (and the inner
// faces of the absorbing layer), the x/y/z
// axes with metre ticks along three edges from the origin corner, the outlines of the three slices
// and a source marker (GL lines, labels painted afterwards); in 2D the plane's frame, metre axes,
// the traces of the other two slices and the source marker (all painted with QPainter). Receivers are
// numbered triangles, in 2D and 3D, on the slices they lie on.
#include <array>
#include <memory>
#include <optional>
#include <vector>

#include <QColor>
#include <QOpenGLShaderProgram>
#include <QPainter>
#include <QRectF>
#include <QString>

#include "render/GlCheck.h"
#include "render/Hud.h"
#include "core/OrbitCamera.h"
#include "render/SliceGeometry.h"

namespace iso {

// Where a 2D plane lies in the widget (logical pixels): `pixelsPerCell` is an integer when the plane
// is magnified, so every cell is the same block of pixels.
struct PlaneLayout {
  SlicePlane plane = SlicePlane::XY;
  QRectF rect;                // the plane's pixels; cell (col, row) covers one pixelsPerCell square
  double pixelsPerCell = 1.0;
  int columns = 0, rows = 0;

  // Fits the plane into `area`, aspect preserved, integer magnification when it is at least 1.
  static PlaneLayout fit(SlicePlane plane, const SliceGeometry& geometry, const QRectF& area);
  // (column, row) of the cell under a widget position, or nullopt outside the plane.
  std::optional<std::array<int, 2>> cellAt(const QPointF& position) const;
  // Widget position of the centre of grid point (column, row).
  QPointF centreOf(double column, double row) const;
};

// Colours of the axes (x, y, z) — a slice's outline uses the colour of its normal axis.
QColor axisColour(int axis);
// "x", "y", "z".
QString axisName(int axis);
// Axis title with unit, e.g. "z, depth (m)".
QString axisTitle(int axis);
// The colour of receiver `index`: its marker in the view, its trace in the plots (ten colours, repeating).
QColor receiverColour(int index);

// Which labels to draw where there is no room for all: every box of `fixed` (drawn first), then each box of
// `optional` in order unless it comes within `gap` pixels of one already kept. True per optional box.
std::vector<bool> keepApart(const std::vector<QRectF>& fixed, const std::vector<QRectF>& optional, double gap);

class Overlays {
 public:
  bool create(GlFunctions* gl);  // line program, VAO and VBO; false (see lastError) on failure
  void destroy(GlFunctions* gl);
  const QString& lastError() const { return error_; }

  // Rebuilds the 3D lines when the geometry, the spacing, the source or the absorbing layer (its width in
  // cells along x, y, z; zeros: none, else its inner faces are drawn as a second box) changed.
  bool update(GlFunctions* gl, const SliceGeometry& geometry, double dx, const std::optional<Cell>& source,
              const std::array<int, 3>& absorbingCells);
  void draw3D(GlFunctions* gl, const glm::mat4& viewProjection);
  void paintLabels3D(QPainter& painter, const OrbitCamera& camera, int width, int height, const Hud& hud) const;

  void paint2D(QPainter& painter, const PlaneLayout& layout, const SliceGeometry& geometry, double dx,
               const std::optional<Cell>& source, const Hud& hud) const;

  // Receivers (numbered by their index) that lie on the plane shown, or in 3D on any of the three slices.
  static void paintReceivers2D(QPainter& painter, const PlaneLayout& layout, const SliceGeometry& geometry,
                               const std::vector<Cell>& receivers, const Hud& hud);
  static void paintReceivers3D(QPainter& painter, const OrbitCamera& camera, int width, int height,
                               const SliceGeometry& geometry, const std::vector<Cell>& receivers, const Hud& hud);

 private:
  struct Vertex {
    float x, y, z, r, g, b, a;
  };
  struct Label {
    glm::vec3 world;
    QString text;
    QColor colour;
    std::optional<glm::vec3> axisPoint;  // titles: pushed on screen away from this point of their axis
  };
  void addLine(const glm::vec3& gridA, const glm::vec3& gridB, const QColor& colour);
  double tickLength() const;

  std::unique_ptr<QOpenGLShaderProgram> program_;
  GLuint vao_ = 0, vbo_ = 0;
  std::size_t uploadedCapacity_ = 0;  // vertices the VBO can hold
  std::vector<Vertex> vertices_;
  std::vector<Label> labels_;
  std::optional<glm::vec3> sourceWorld_;
  SliceGeometry geometry_;
  double dx_ = 0.0;
  std::optional<Cell> source_;
  std::array<int, 3> absorbingCells_{0, 0, 0};
  bool built_ = false;
  QString error_;
};

}  // namespace iso
