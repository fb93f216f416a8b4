#pragma once
// The wavefield view: the widget that shows a SliceRenderer (render/SliceRenderer.h: three orthogonal
// slices in 3D or one plane in 2D, colour-mapped, with axes, colour bar, marks and HUD) in a native
// window of its own (render/SliceWindow.h says why), with an OpenGL context the view owns
// (render/ViewContext.h). The widget keeps what needs one: the window and its frame pacing, the mouse
// (orbit, pan, zoom, picking), the signals, and a raster label for GL problems; the setters hand what to
// show to the renderer and ask for a frame.
//
// On a compute GPU every OpenGL frame is time the solver loses (docs/PERFORMANCE.md). Given a frame maker
// (setFrameMaker: a PictureRenderer on the solver's device, core/SlicePicture.h), the 3D slice view's
// frames are made by it instead, beside the solver's steps, and shown by a raster widget
// (render/FrameImageWidget.h) without OpenGL; OpenGL then draws only the 3D lines, when the camera, the
// slice point or the marks change. The 2D planes and the volume stay OpenGL's.
//
// Mouse (3D): left drag orbits, right or middle drag pans, the wheel zooms, a double click re-frames; a
// click without drag on a slice emits cellPicked in every mode (cellShiftPicked with Shift held).
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include <QElapsedTimer>
#include <QImage>
#include <QStringList>
#include <QTimer>
#include <QWidget>

#include "core/VolumeView.h"
#include "render/SliceRenderer.h"
#include "render/ViewContext.h"

class QLabel;

namespace iso {

class FrameImageWidget;
class SliceWindow;

class SliceView : public QWidget {
  Q_OBJECT
 public:
  using Mode = SliceRenderer::Mode;
  static constexpr QSize kMaxImageSize = ImageFramebuffer::kMaxSize;
  explicit SliceView(QWidget* parent = nullptr);
  ~SliceView() override;

  // New wavefield planes (GUI thread; the data is shared, not copied; uploaded at the next paint).
  // An inconsistent set (sizes, slice point) is refused with a message in the view; nullptr clears.
  void setSlices(std::shared_ptr<const iso::SliceSet> slices);

  // Persistently mapped pixel-unpack buffers for the wavefield's planes (render/MappedUploads.h):
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
  const QString& mappedProblem() const { return renderer_.mappedProblem(); }
  // Velocity planes (m/s) through the same point, for the optional semi-transparent overlay; drawn only
  // while they match the wavefield's grid and slice point.
  void setVelocitySlices(std::shared_ptr<const iso::SliceSet> velocity);
  void setGridSpacing(double dxMetres);                 // axis labels in metres
  void setSourceCell(int i, int j, int k);              // marker; i < 0 hides it
  void setReceivers(const std::vector<Cell>& cells);    // numbered markers on the slices they lie on
  const std::vector<Cell>& receivers() const { return renderer_.decorations().receivers(); }
  // The absorbing layer's width in cells along x, y, z (zeros: none), shaded in the 2D views; a
  // source inside it is warned about in the HUD.
  void setAbsorbingLayer(const std::array<int, 3>& cells);
  void setMode(Mode mode);
  // At most this many frames a second (1 to kMaxFrameRate, the default: a display shows no more); the
  // frames start a period apart on average (each timer is at most a millisecond late, and the next frame
  // is due a period after this one was due).
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
  float clip() const { return renderer_.clip(); }        // the range in use
  void setVelocityOverlay(bool on, float opacity = 0.35f);
  void setHudLines(const QStringList& lines);            // text drawn over the view (counters, path)
  const QStringList& hudLines() const { return renderer_.decorations().hudLines(); }
  // One more HUD line on screen only, never in renderImage's pictures (a recording's state, which a
  // video should not show); empty removes it.
  void setScreenNotice(const QString& line);
  QString screenNotice() const { return renderer_.decorations().screenNotice(); }

  Mode mode() const { return renderer_.mode(); }
  GainMode gainMode() const { return renderer_.gain().mode(); }
  QString colormap() const { return renderer_.colormap(); }
  void setFieldLabel(const QString& label);  // colour bar title, "u (arb. units)" by default
  void setMagnitudeRange(bool on);           // colours over [0, clip] (a magnitude), not [-clip, clip]
  // The text shown while the view has no wavefield ("": the default, waiting for the first slices).
  void setIdleMessage(const QString& text);
  void resetCamera();                        // back to the default 3D viewpoint
  const OrbitCamera& camera() const { return renderer_.camera().camera(); }
  // The volume view (Mode::Volume): the camera and size its image must be rendered with to fill the 3D
  // scene of the window (picture null) or of a picture with those options (SliceRenderer::volumeCamera).
  SliceRenderer::VolumeCamera volumeCamera(const ImageOptions* picture = nullptr) const;
  // Its quality and content, as the user chose them; whoever renders the image reads them.
  void setVolumeSettings(const VolumeSettings& settings);
  const VolumeSettings& volumeSettings() const { return volumeSettings_; }
  // Takes another view's 3D camera (a compare view links its views, which show the same grid).
  void setCamera(const OrbitCamera& camera);
  // "OpenGL 4.5 (Core Profile) Mesa … · llvmpipe …" once initialised, or why the view cannot draw.
  QString glInfo() const;
  bool glReady() const { return context_.problem().isEmpty() && renderer_.ready(); }
  // Where the plane is drawn in a 2D mode (logical pixels; cell (col, row) covers a square of
  // planeRect().width() / columns pixels); empty in 3D or without data.
  QRectF planeRect() const;
  // Paints what the view draws over its planes (axes and their labels, marks, colour bars, HUD, the
  // mouse's hint) onto `painter` in the view's logical pixels, placed as in the last frame: every frame
  // paints its overlay with it, and a test can read the text it gets.
  void paintDecorations(QPainter& painter) const { renderer_.paintDecorations(painter, screenTarget()); }

  // The view as it would be drawn (same mode, camera, range, colormap, overlays) into a framebuffer
  // object of options.size pixels, not a scaled grab of the window (SliceRenderer::renderImage).
  // GUI thread; initialises GL if the view was never shown. Format_RGBX8888 (opaque RGBA bytes). A null
  // image and `error` set when the size is out of range or GL fails.
  QImage renderImage(const ImageOptions& options, QString& error);
  // The same pictures read back a picture late, for a stream of them (a recording): startImage draws
  // one and starts reading it back; collectImage calls use(image) with the oldest started once it is
  // back (valid during the call). "" or what failed (SliceRenderer::startImage, collectImage).
  QString startImage(const ImageOptions& options);
  QString collectImage(const std::function<void(const QImage& image)>& use);
  // What a picture for `options` is made of where the solver's device makes it (SliceRenderer::pictureParts).
  std::optional<SliceRenderer::PictureParts> pictureParts(const ImageOptions& options, QString& error);
  // The view as the window shows it, at its size (renderImage with every decoration); initialises GL
  // if the view was never shown. A null image when GL cannot draw.
  QImage grabFramebuffer();
  // The window's own frame: drawn into the window's back buffer as a frame of the view is, then read
  // back instead of presented. Null while the window is not exposed or GL cannot draw.
  QImage grabWindowFrame();
  // root.grab() with each visible SliceView inside it drawn in: a plain grab leaves their native
  // windows out (frames made elsewhere are in it already).
  static QImage grabWithViews(QWidget& root);
  // Makes the 3D slice view's frames with `maker` from the next frame on (null: OpenGL draws them). Each
  // frame is shown a few milliseconds after it started, or when the next one starts if sooner. A maker
  // that fails is not used again (frameMakerProblem says why) until another is given.
  void setFrameMaker(std::shared_ptr<PictureRenderer> maker);
  // Whether the last frame shown was made by the frame maker.
  bool framesMadeElsewhere() const { return madeElsewhere_; }
  const QString& frameMakerProblem() const { return frameMakerProblem_; }
  // While frames are made elsewhere: makes the frame of what is set now and shows it, waiting for it (a
  // grab of the window then has it).
  void showLatestFrame();
  // The last frame the maker made, as shown (null before any).
  QImage madeFrame() const;
  // The step of the slices in the last frame shown (-1: none yet, or a frame without slices). Frames made
  // elsewhere are shown a frame late, so this can lag slices().
  long shownStep() const { return shownStep_; }
  // The wavefield slices the view shows (null before the first ones).
  const std::shared_ptr<const iso::SliceSet>& slices() const { return renderer_.slices(); }

 signals:
  void cellPicked(int i, int j, int k);  // a click (no drag) on a slice: the interior cell under it
  void cellShiftPicked(int i, int j, int k);  // the same with Shift held (the studio adds a receiver)
  void cellHovered(int i, int j, int k);  // the cell under the resting or moving pointer; -1s: none
  void clipChanged(float clip);
  void frameDrawn();                      // after each frame drawn in the window, for the frames/s counter
  void slicesChanged(long step);          // setSlices accepted new planes (of that step)
  void cameraMoved();                     // the user orbited, panned, zoomed or re-framed the 3D camera
  void volumeSettingsChanged();

 protected:
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void leaveEvent(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void showEvent(QShowEvent* event) override;

 private:
  // The context, current where makeCurrent puts it, and the renderer initialised in it, on first use.
  // False when GL cannot draw (glInfo says why).
  bool ensureGl();
  QString currentForPictures();  // ensureGl and makeCurrent: "" or why not
  int pictureSamples() const;  // the window's samples per pixel: pictures are drawn as the window draws
  bool makeCurrent();  // on the window while it is shown, else the offscreen surface
  void changed();      // what is shown changed: a frame soon, and clipChanged if the range moved
  void requestFrame();  // a paint of the window soon, at most maxFrameRate_ a second
  void paintWindow();   // draws and presents a frame in the window, if it is exposed
  bool makesFramesElsewhere();  // the frame maker makes this frame
  void paintElsewhere();   // shows the frame started before, if any, and starts this one on the frame maker
  void showMadeFrame();    // collects the oldest frame on its way and shows it
  void dropMadeFrames();   // collects the frames on their way without showing them
  void failFrameMaker(const QString& problem);
  void showFrameImage(bool on);  // the raster widget in place of the GL window, or back
  QSize drawWindowFrame();  // draws one into the window's back buffer; its size in pixels, empty if not
  FrameTarget screenTarget() const;  // the window's frame, laid out for the widget's size
  void showGlProblem();  // the context's or the renderer's problem, in a label in place of the window
  void placeProblemLabel();
  void pick(const QPointF& position, Qt::KeyboardModifiers modifiers);
  std::optional<Cell> cellAt(const QPointF& position) const;  // the interior cell drawn there

  ViewContext context_;
  SliceRenderer renderer_;
  SliceWindow* window_ = nullptr;      // owned by container_
  QWidget* container_ = nullptr;       // child widget holding window_
  QLabel* problemLabel_ = nullptr;     // child widget showing a GL problem in place of the window
  FrameImageWidget* frameImage_ = nullptr;  // child widget showing frames made elsewhere, in place of the window
  std::shared_ptr<PictureRenderer> frameMaker_;
  QString frameMakerProblem_;
  struct FrameOnItsWay {
    QSize pixels;
    double pixelRatio = 1.0;
    long step = -1;
  };
  long shownStep_ = -1;
  std::deque<FrameOnItsWay> madeFrames_;  // started on frameMaker_, not yet shown
  QTimer madeFrameTimer_;                 // shows the last frame started when no other follows
  static constexpr int kMadeFrameWaitMs = 4;  // a few times what the device takes for a frame
  bool madeElsewhere_ = false;
  QTimer frameTimer_;                  // the next paint, single shot
  QElapsedTimer frameClock_;           // the pacing's clock
  qint64 nextFrameDueNs_ = 0;          // on frameClock_: no frame starts before
  int maxFrameRate_ = kMaxFrameRate;
  float clip_ = 1.0f;  // the range in use as last announced (clipChanged fires when it changes)
  VolumeSettings volumeSettings_;

  // Mouse.
  QPointF pressPosition_, lastPosition_;
  Qt::MouseButton pressButton_ = Qt::NoButton;
  bool dragged_ = false;
};

}  // namespace iso
