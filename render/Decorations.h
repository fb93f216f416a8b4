#pragma once
// The frame of reference drawn around the wavefield, the same for every renderer of it (the slices,
// a volume): in 3D the grid's box, the absorbing layer's inner faces, metre axes and the source (GL
// lines; their labels painted), in 2D the plane's frame, metre axes, heading, the other slices' traces,
// the source and the absorbing layer (painted); receivers in both; the HUD's text, the colour bars, the
// mouse's hint and messages; and where each goes in a frame (its layout: render/README.md).
//
// What is marked needs no GL. The 3D lines need the renderer's current context (create, update3D,
// draw3D, destroy); the rest is QPainter work on the frame's overlay, in logical pixels.
#include <array>
#include <optional>
#include <utility>
#include <vector>

#include <QByteArray>
#include <QPainter>
#include <QString>
#include <QStringList>

#include "render/Colormap.h"
#include "render/FrameTarget.h"
#include "render/Hud.h"
#include "core/OrbitCamera.h"
#include "render/Overlays.h"
#include "render/SliceGeometry.h"

namespace iso {

class Decorations {
 public:
  // Room around a 2D plane for its heading, metre axes and the colour bar (logical pixels); the 3D
  // scene leaves the colour bar the right margin.
  static constexpr double kMarginLeft = 96, kMarginRight = 118, kMarginTop = 36, kMarginBottom = 54;
  static constexpr double kHudInset = 8;  // the HUD's text from the frame's top left corner

  bool create(GlFunctions* gl);  // needs a current context; false (see lastError) on a GL error
  void destroy(GlFunctions* gl);
  const QString& lastError() const { return lines_.lastError(); }

  // ---- What is marked (no GL); the setters return whether anything changed. ----
  bool setGridSpacing(double dxMetres);  // axis labels in metres; false (and a warning) unless positive
  double gridSpacing() const { return dx_; }
  void setSourceCell(const Cell& cell) { source_ = cell; }  // i < 0: none
  std::optional<Cell> sourceIn(const SliceGeometry& grid) const;  // the source, when it lies in `grid`
  bool setReceivers(const std::vector<Cell>& cells);
  const std::vector<Cell>& receivers() const { return receivers_; }
  // The absorbing layer's width in cells along x, y, z (zeros: none), shaded in 2D, its inner faces
  // drawn in 3D; a source inside it is warned about in the HUD.
  bool setAbsorbingLayer(const std::array<int, 3>& cells);
  bool setHudLines(const QStringList& lines);  // counters, paths: the HUD's first lines
  const QStringList& hudLines() const { return hudLines_; }
  bool setScreenNotice(const QString& line);  // one more HUD line, on screen only (never in pictures)
  const QString& screenNotice() const { return screenNotice_; }
  // What the view says while it has no wavefield (a run that could not start says why instead); ""
  // for the default, that it waits for the first slices.
  void setIdleMessage(const QString& text) { idleMessage_ = text; }
  QString idleMessage() const { return idleMessage_.isEmpty() ? QString("No wavefield yet: waiting for the first slices.") : idleMessage_; }
  void setFieldLabel(const QString& label) { fieldLabel_ = label; }  // the wavefield bar's title
  const QString& fieldLabel() const { return fieldLabel_; }
  const Hud& hud() const { return hud_; }
  // What the marks painted by paint3D and paint2D depend on among these (spacing, source, receivers,
  // absorbing layer), as bytes.
  QByteArray marksKey() const;

  // ---- Layout of a frame. ----
  // The HUD's lines in `target`: none without its HUD, else the caller's lines, the screen notice on
  // screen, a warning when the source lies inside the absorbing layer of `grid`, then `warnings` (the
  // renderer's own).
  QStringList hudText(const FrameTarget& target, const SliceGeometry& grid, const QStringList& warnings) const;
  // The top of a plane and of the colour bars, below a HUD of `hudLines` lines.
  double contentTop(int hudLines) const;
  // The share of the frame's height the HUD covers, which the 3D scene is framed below.
  float coveredTop(const FrameTarget& target, int hudLines) const;
  int sceneWidth(const FrameTarget& target) const;  // logical pixels of the 3D scene, left of the colour bar
  // Where the colour bars paint (the right margin's column, the frame's height) and where the HUD's
  // `lines` paint (its panel in the top-left corner; empty without lines), in logical pixels.
  QRectF colourBarColumn(const FrameTarget& target) const;
  QRectF hudBand(const FrameTarget& target, const QStringList& lines) const;
  PlaneLayout planeLayout(SlicePlane plane, const SliceGeometry& grid, const FrameTarget& target, int hudLines) const;

  // ---- The 3D lines (context current). ----
  // Built again when `grid`, the spacing, the source or the absorbing layer changed; the outlines of
  // the three slices with `sliceOutlines`. False on a GL error (lastError).
  bool update3D(GlFunctions* gl, const SliceGeometry& grid, bool sliceOutlines);
  void draw3D(GlFunctions* gl, const glm::mat4& viewProjection, QSize viewport, double pixelRatio) {
    lines_.draw3D(gl, viewProjection, viewport, pixelRatio);
  }

  // ---- Painting, in the frame's logical pixels. ----
  // The labels of the 3D lines, the source's ring and the receivers in `grid` (the grid of the last
  // update3D; with `receiversOnSlicesOnly`, those on its three slices), seen through `camera` in the
  // scene's part of the frame.
  void paint3D(QPainter& painter, const OrbitCamera& camera, const FrameTarget& target, const SliceGeometry& grid,
               bool receiversOnSlicesOnly) const;
  // The plane's frame, axes, heading, the other slices' traces, the absorbing layer, source and receivers.
  void paint2D(QPainter& painter, const PlaneLayout& layout, const SliceGeometry& grid) const;
  // A colour bar: `table` from `lo` (bottom) to `hi` (top), `title` above it and `caption` below it.
  struct ColourBar {
    const ColourTable* table = nullptr;
    double lo = 0.0, hi = 1.0;
    QString title, caption;
  };
  // The colour bars in the right margin, below the HUD: `first` alone, or with `second` beneath it
  // where both keep room for their ticks; whole, or only their frames or their labels
  // (Hud::drawColourBarFrame).
  enum class ColourBarPart { Whole, Frames, Labels };
  void paintColourBars(QPainter& painter, const FrameTarget& target, int hudLines, const ColourBar& first,
                       const std::optional<ColourBar>& second, ColourBarPart part = ColourBarPart::Whole) const;
  // What paintColourBars paints for `part` (Frames or Labels) depends on, as bytes: a key that changes
  // when the painting would.
  QByteArray colourBarsKey(const FrameTarget& target, int hudLines, const ColourBar& first,
                           const std::optional<ColourBar>& second, ColourBarPart part) const;
  void paintHud(QPainter& painter, const FrameTarget& target, const QStringList& lines) const;
  void paintMouseHint(QPainter& painter, const FrameTarget& target) const;  // the 3D view's mouse, at the bottom
  void paintMessage(QPainter& painter, const FrameTarget& target, const QString& text, bool error) const;

 private:
  double hudMaxWidth(const FrameTarget& target) const;  // the widest the HUD's panel may be
  double hudHeight(int lines) const;  // the HUD panel's height (its lines and margin), 0 without lines
  // Each colour bar paintColourBars paints, with the rectangle it is painted in.
  std::vector<std::pair<const ColourBar*, QRectF>> colourBarAreas(const FrameTarget& target, int hudLines,
                                                                  const ColourBar& first,
                                                                  const std::optional<ColourBar>& second) const;
  void paintAbsorbingLayer(QPainter& painter, const PlaneLayout& layout) const;

  Overlays lines_;
  Hud hud_;
  double dx_ = 10.0;
  Cell source_{-1, -1, -1};
  std::vector<Cell> receivers_;
  std::array<int, 3> absorbingCells_{0, 0, 0};
  QStringList hudLines_;
  QString screenNotice_;
  QString fieldLabel_ = "u (arb. units)";
  QString idleMessage_;
};

}  // namespace iso
