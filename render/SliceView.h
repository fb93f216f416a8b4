#pragma once
// The wavefield view: three orthogonal slices through the slice point, in a perspective 3D view or one
// plane at a time in 2D, colour-mapped over a symmetric range, with axes in metres, a colour bar, a
// source marker, an optional velocity overlay and HUD text. OpenGL 3.3 core, drawn into a native window
// of its own (render/SliceWindow.h says why) with a context the view owns.
//
// Axes: x (n1) and y (n2) horizontal, z (n3) depth pointing down; (x, y, z) is right-handed.
// 2D planes: XY with x right and y down (seen from above), XZ with x right and z down, YZ with y right
// and z down. See SliceGeometry.h. Mouse (3D): left drag orbits, right or middle drag pans, the wheel
// zooms, a double click re-frames; a click without drag on a slice emits cellPicked in every mode
// (cellShiftPicked with Shift held).
#include <algorithm>
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include <QElapsedTimer>
#include <QImage>
#include <QSurfaceFormat>
#include <QStringList>
#include <QTimer>
#include <QWidget>

#include "render/Colormap.h"
#include "render/GainControl.h"
#include "render/Hud.h"
#include "render/MappedSliceBuffers.h"
#include "core/OrbitCamera.h"
#include "render/OverlayLayer.h"
#include "render/Overlays.h"
#include "render/SliceGeometry.h"
#include "render/SliceTextures.h"

class QLabel;
class QOffscreenSurface;
class QOpenGLContext;
class QOpenGLFramebufferObject;
class QOpenGLShaderProgram;

namespace iso {

class SliceWindow;

// What renderImage draws besides the slices (and the 3D lines, always drawn).
struct ImageOptions {
  QSize size;              // pixels, 1x1 to SliceView::kMaxImageSize (and the GL implementation's limit)
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
};

class SliceView : public QWidget {
  Q_OBJECT
 public:
  enum class Mode { Orthogonal3D, PlaneXY, PlaneXZ, PlaneYZ };
  static constexpr QSize kMaxImageSize{3840, 2160};
  explicit SliceView(QWidget* parent = nullptr);
  ~SliceView() override;

  // New wavefield planes (GUI thread; the data is shared, not copied; uploaded at the next paint).
  // An inconsistent set (sizes, slice point) is refused with a message in the view; nullptr clears.
  void setSlices(std::shared_ptr<const iso::SliceSet> slices);

  // Persistently mapped pixel-unpack buffers for the wavefield's planes (render/MappedSliceBuffers.h):
  // `count` buffers of `floats` floats, into which any thread may write planes. A set given to setSlices
  // whose planes lie in one is uploaded from it, and held until the GL has read it (a fence, looked at
  // when painting). The buffers stay mapped while a copy of `owner` lives and are deleted at the first
  // paint after the last one is gone. Null, with `problem` set, when the context cannot (OpenGL < 4.4
  // without ARB_buffer_storage), a GL call fails, or an upload from mapped buffers failed before (see
  // mappedProblem). GUI thread, once GL is ready.
  struct MappedBuffers {
    std::vector<float*> memory;
    std::shared_ptr<const void> owner;
    QString provider;  // "OpenGL 4.5", or "ARB_buffer_storage" below 4.4
  };
  std::optional<MappedBuffers> mapSliceBuffers(int count, std::size_t floats, QString& problem);
  // Why uploading from mapped buffers failed, "" while it works; planes that lie in them are then
  // uploaded from their memory like any other.
  const QString& mappedProblem() const { return mappedProblem_; }
  // Velocity planes (m/s) through the same point, for the optional semi-transparent overlay; drawn only
  // while they match the wavefield's grid and slice point.
  void setVelocitySlices(std::shared_ptr<const iso::SliceSet> velocity);
  void setGridSpacing(double dxMetres);                 // axis labels in metres
  void setSourceCell(int i, int j, int k);              // marker; i < 0 hides it
  void setReceivers(const std::vector<Cell>& cells);    // numbered markers on the slices they lie on
  const std::vector<Cell>& receivers() const { return receivers_; }
  // The absorbing layer's width in cells along x, y, z (zeros: none), shaded in the 2D views; a
  // source inside it is warned about in the HUD.
  void setAbsorbingLayer(const std::array<int, 3>& cells);
  void setMode(Mode mode);
  // At most this many frames a second (1 to kMaxFrameRate, the default: a display shows no more); the
  // frames are paced at whole milliseconds, rounded up.
  void setMaxFrameRate(int framesPerSecond);
  int maxFrameRate() const { return maxFrameRate_; }
  static constexpr int kMaxFrameRate = 60;
  static QStringList colormapNames();                    // "seismic", "grey", "viridis", "inferno"
  void setColormap(const QString& name);
  // The colour range's rule (GainControl): Automatic (the default) follows a robust percentile of |u|
  // with a floor relative to the peak, PerFrame follows it without a floor, Fixed uses setClip's range
  // (or, if setClip was never called, the range in use when Fixed was chosen).
  void setGainMode(GainMode mode);
  void setAutoGain(bool on);                             // Automatic when on, Fixed when off
  void setClip(float clip);                              // manual symmetric range [-clip, clip], used in Fixed mode
  float clip() const;                                    // the range in use
  void setVelocityOverlay(bool on, float opacity = 0.35f);
  void setHudLines(const QStringList& lines);            // text drawn over the view (counters, path)
  const QStringList& hudLines() const { return hudLines_; }
  // One more HUD line on screen only, never in renderImage's pictures (a recording's state, which a
  // video should not show); empty removes it.
  void setScreenNotice(const QString& line);
  QString screenNotice() const { return screenNotice_; }

  Mode mode() const { return mode_; }
  GainMode gainMode() const { return gain_.mode(); }
  QString colormap() const { return colormapName_; }
  void setFieldLabel(const QString& label);  // colour bar title, "u (arb. units)" by default
  void resetCamera();                        // back to the default 3D viewpoint
  const OrbitCamera& camera() const { return camera_; }
  // Takes another view's 3D camera (a compare view links its views, which show the same grid).
  void setCamera(const OrbitCamera& camera);
  // "OpenGL 4.5 (Core Profile) Mesa … · llvmpipe …" once initialised, or why the view cannot draw.
  QString glInfo() const { return glProblem_.isEmpty() ? glInfo_ : glProblem_; }
  bool glReady() const { return ready_; }
  // Where the plane is drawn in a 2D mode (logical pixels; cell (col, row) covers a square of
  // planeRect().width() / columns pixels); empty in 3D or without data.
  QRectF planeRect() const;
  // Paints what the view draws over its planes (axes and their labels, marks, colour bars, HUD, the
  // mouse's hint) onto `painter` in the view's logical pixels, placed as in the last frame: every frame
  // paints its overlay with it, and a test can read the text it gets.
  void paintDecorations(QPainter& painter);

  // The view as it would be drawn (same mode, camera, range, colormap, overlays) into a framebuffer
  // object of options.size pixels, not a scaled grab of the window. GUI thread, after GL initialised.
  // Format_RGBX8888 (opaque RGBA bytes). A null image and `error` set when the size is out of range
  // or GL fails.
  QImage renderImage(const ImageOptions& options, QString& error);
  // The view as the window shows it, at its size (renderImage with every decoration); initialises GL
  // if the view was never shown. A null image when GL cannot draw.
  QImage grabFramebuffer();
  // The window's own frame: drawn into the window's back buffer as a frame of the view is, then read
  // back instead of presented. Null while the window is not exposed or GL cannot draw.
  QImage grabWindowFrame();
  // root.grab() with each visible SliceView inside it drawn in: a plain grab leaves their native
  // windows out.
  static QImage grabWithViews(QWidget& root);
  // The wavefield slices the view shows (null before the first ones).
  const std::shared_ptr<const iso::SliceSet>& slices() const { return slices_; }

 signals:
  void cellPicked(int i, int j, int k);  // a click (no drag) on a slice: the interior cell under it
  void cellShiftPicked(int i, int j, int k);  // the same with Shift held (the studio adds a receiver)
  void cellHovered(int i, int j, int k);  // the cell under the resting or moving pointer; -1s: none
  void clipChanged(float clip);
  void frameDrawn();                      // after each frame drawn in the window, for the frames/s counter
  void slicesChanged(long step);          // setSlices accepted new planes (of that step)
  void cameraMoved();                     // the user orbited, panned, zoomed or re-framed the 3D camera

 protected:
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void leaveEvent(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  friend class SliceWindow;  // asks for its paints
  // The context on the offscreen surface (uploads, mapped buffers, renderImage); created and
  // initialised on first use. False when GL cannot draw (glProblem_ says why).
  bool ensureGl();
  void initializeGL();
  bool makeCurrent();  // on the offscreen surface; false (and a warning) when it cannot
  void doneCurrent();
  QOpenGLContext* context() const { return context_.get(); }
  void requestFrame();  // a paint of the window soon, at most maxFrameRate_ a second
  void paintWindow();   // draws and presents a frame in the window, if it is exposed
  QSize drawWindowFrame();  // draws one into the window's back buffer; its size in pixels, empty if not
  void releaseGl();
  bool failGl(const QString& problem);  // records a GL problem shown in the view; returns false
  void placeProblemLabel();
  bool uploadPending();
  bool uploadField();  // slices_, from the mapped buffer that holds it if one does; false on a GL error
  std::optional<MappedSliceBuffers::Location> mappedLocation(const SliceSet& slices) const;
  void retireUploads();          // lets go of the sets whose upload the GL has finished
  void deleteReleasedBuffers();  // mapped buffers nobody holds any more
  void releaseMappedBuffers();   // all of them, the context going away
  // Draws one frame into the bound framebuffer of widthPx x heightPx; canvas_ and decorations_ say
  // the logical size and what to paint over the slices.
  void drawFrame(int widthPx, int heightPx, double pixelRatio);
  QSizeF canvas() const { return canvas_.value_or(QSizeF(size())); }
  void drawSlices3D(int widthPx, int heightPx);
  void drawPlane2D(const PlaneLayout& layout);
  void drawSliceQuads(const glm::mat4& viewProjection, int first, int count, const std::array<SlicePlane, 3>& planes);
  void paintOverlay(QPainter& painter);
  PlaneLayout planeLayout() const;
  QStringList hudText() const;  // the HUD lines plus the view's own warnings
  double hudHeight() const;   // the HUD panel's height (its lines and margin), 0 without lines
  double contentTop() const;  // top of the plane and colour bars, below the HUD
  int sceneWidth() const;     // logical pixels of the 3D scene, left of the colour bar
  std::optional<Cell> sourceInGrid() const;
  bool velocityMatches() const;
  void setClipInUse(float clip);
  void pick(const QPointF& position, Qt::KeyboardModifiers modifiers);
  void paintAbsorbingLayer(QPainter& painter, const PlaneLayout& layout) const;
  std::optional<Cell> cellAt(const QPointF& position) const;  // the interior cell drawn there

  // The window and its context.
  QSurfaceFormat format_;
  SliceWindow* window_ = nullptr;      // owned by container_
  QWidget* container_ = nullptr;       // child widget holding window_
  std::unique_ptr<QOffscreenSurface> offscreen_;
  std::unique_ptr<QOpenGLContext> context_;
  QTimer frameTimer_;                  // the next paint, single shot
  QElapsedTimer sinceFrame_;           // since the last paint
  int maxFrameRate_ = kMaxFrameRate;

  // GL state (valid between initializeGL and releaseGl).
  GlFunctions* gl_ = nullptr;
  bool ready_ = false;
  QString glInfo_, glProblem_;
  QLabel* problemLabel_ = nullptr;  // child widget showing glProblem_ in place of the window
  std::unique_ptr<QOpenGLShaderProgram> sliceProgram_;
  OverlayLayer overlayLayer_;   // what QPainter draws over the slices, in the widget
  OverlayLayer imageOverlay_;   // the same in renderImage's framebuffer
  QImage imageBuffer_;          // renderImage's last image, whose memory the next one reuses
  bool imageRowsDown_ = false;  // drawing upside down, for a read back in image row order
  // renderImage's framebuffer, kept for the next image of the same size (a recording draws hundreds).
  std::unique_ptr<QOpenGLFramebufferObject> imageFbo_;
  GLuint quadVao_ = 0, quadVbo_ = 0;
  std::array<float, 16 * 5> quadVertices_{};  // 3 slices (3D) + 1 plane (2D), 4 vertices of x y z s t
  SliceTextures fieldTextures_, velocityTextures_;
  Colormap colormapTexture_;
  Overlays overlays_;
  struct MappedSet {
    MappedSliceBuffers buffers;
    std::shared_ptr<std::atomic<bool>> released;  // the last copy of its owner is gone
  };
  std::vector<MappedSet> mapped_;
  struct Upload {  // from a mapped buffer: the set is held until the fence has passed
    GLsync fence = nullptr;
    std::shared_ptr<const SliceSet> slices;
  };
  std::vector<Upload> uploads_;
  QString mappedProblem_;

  // Drawing target: the widget (canvas_ empty, every decoration) or renderImage's framebuffer.
  std::optional<QSizeF> canvas_;
  ImageOptions decorations_;

  // View state.
  Mode mode_ = Mode::Orthogonal3D;
  OrbitCamera camera_;
  std::array<int, 3> framedSize_{0, 0, 0};  // grid size the camera was framed for
  Hud hud_;
  QString colormapName_ = "seismic";
  QString fieldLabel_ = "u (arb. units)";
  QStringList hudLines_;
  QString screenNotice_;
  double dx_ = 10.0;
  Cell source_{-1, -1, -1};
  std::vector<Cell> receivers_;
  bool overlayOn_ = false;
  float overlayOpacity_ = 0.35f;

  // Data.
  std::shared_ptr<const SliceSet> slices_, velocity_;
  SliceGeometry geometry_;  // of slices_
  bool fieldDirty_ = false, velocityDirty_ = false, colormapDirty_ = true;
  std::array<float, 2> velocityRange_{0.0f, 1.0f};
  QString dataProblem_;

  // Colour range.
  GainControl gain_;
  float clip_ = 1.0f;  // gain_.clip() as last applied (clipChanged fires when it changes)

  // Mouse.
  QPointF pressPosition_, lastPosition_;
  Qt::MouseButton pressButton_ = Qt::NoButton;
  bool dragged_ = false;
  std::array<int, 3> absorbingCells_{0, 0, 0};
};

}  // namespace iso
