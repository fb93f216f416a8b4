#pragma once
// Lines and labels that give the wavefield its frame of reference: in 3D the bounding box (and the inner
// faces of the absorbing layer), the x/y/z axes with metre ticks along three edges from the origin
// corner, the outlines of the three slices (for a renderer of slices) and a source marker (GL lines,
// labels painted afterwards); in 2D the plane's frame, metre axes, heading, the traces of the other two
// slices and the source marker (all painted with QPainter). Receivers are numbered triangles, in 2D on
// the plane shown, in 3D on the slices or anywhere in the grid. Decorations places them in a frame.
#include <array>
#include <memory>
#include <optional>
#include <vector>

#include <QColor>
#include <QFontMetricsF>
#include <QOpenGLShaderProgram>
#include <QPainter>
#include <QRectF>
#include <QSize>
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

  // What the 3D lines show: the grid's box, the absorbing layer's inner faces as a second box (its width
  // in cells along x, y, z; zeros: none), the metre axes, the source, and the outlines of the slices.
  struct Scene {
    SliceGeometry geometry;
    double dx = 0.0;
    std::optional<Cell> source;
    std::array<int, 3> absorbingCells{0, 0, 0};
    bool sliceOutlines = true;  // a renderer of the slices outlines them; a volume has none
    bool operator==(const Scene&) const = default;
  };
  // Rebuilds the 3D lines when the scene changed. False on a GL error (lastError).
  bool update(GlFunctions* gl, const Scene& scene);
  // The lines through viewProjection into a viewport of `viewport` pixels, `pixelRatio` of them to a
  // logical pixel: kLineWidth logical pixels wide, smoothed by their coverage (resources/shaders/line.geom),
  // over the slices they outline. Blending on.
  void draw3D(GlFunctions* gl, const glm::mat4& viewProjection, QSize viewport, double pixelRatio);
  static constexpr float kLineWidth = 1.0f;         // logical pixels
  // Towards the eye, in normalized depth (whose range is 2): what a band needs to stay over the slice it
  // outlines where the slice, sloping away from its edge, lies nearer than the line.
  static constexpr float kLineDepthBias = 0.003f;
  void paintLabels3D(QPainter& painter, const OrbitCamera& camera, int width, int height, const Hud& hud) const;

  void paint2D(QPainter& painter, const PlaneLayout& layout, const SliceGeometry& geometry, double dx,
               const std::optional<Cell>& source, const Hud& hud) const;

  // Receivers (numbered by their index) that lie on the plane shown, or in 3D inside the grid: on any of
  // the three slices with `onSlicesOnly`, anywhere otherwise (a volume).
  static void paintReceivers2D(QPainter& painter, const PlaneLayout& layout, const SliceGeometry& geometry,
                               const std::vector<Cell>& receivers, const Hud& hud);
  static void paintReceivers3D(QPainter& painter, const OrbitCamera& camera, int width, int height,
                               const SliceGeometry& geometry, const std::vector<Cell>& receivers, const Hud& hud,
                               bool onSlicesOnly);

 private:
  struct Vertex {
    float x, y, z, r, g, b, a;
  };
  struct Label {
    glm::vec3 world;
    QString text;
    QColor colour;
    std::optional<glm::vec3> axisPoint;  // titles: pushed on screen away from this point of their axis
    glm::vec3 axisEnd{};                 // titles: the axis's far end (which way the axis runs on screen)
  };
  void addLine(const glm::vec3& gridA, const glm::vec3& gridB, const QColor& colour);
  void addBox(const glm::vec3& lo, const glm::vec3& hi, const QColor& colour);
  void addSliceOutlines();
  void addAxis(int axis);
  void addSource(const Cell& source);
  bool upload(GlFunctions* gl);
  double tickLength() const;
  // Where a label goes on screen (a title pushed outward from its axis), or nullopt when it cannot be shown.
  std::optional<QRectF> labelBox(const Label& label, const OrbitCamera& camera, int width, int height,
                                 const QFontMetricsF& metrics, const QSizeF& tickLabel) const;

  std::unique_ptr<QOpenGLShaderProgram> program_;
  GLuint vao_ = 0, vbo_ = 0;
  std::size_t uploadedCapacity_ = 0;  // vertices the VBO can hold
  std::vector<Vertex> vertices_;
  std::vector<Label> labels_;
  std::optional<glm::vec3> sourceWorld_;
  Scene scene_;  // what the lines show
  bool built_ = false;
  QString error_;
};

}  // namespace iso
