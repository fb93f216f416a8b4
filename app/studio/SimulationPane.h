#pragma once
// One simulation and its viewport: a SimulationController (the compute thread) feeding a SliceView.
// The pane polls the controller's slices at display rate and its status a few times a second, so the
// GUI never waits for compute. The slices come through the view's persistently mapped GL buffers where
// it has them (a SliceRing over them: the solver writes each frame there, one host copy), else through
// the controller's triple buffer (the pane copies each frame it takes). In the volume view the pane
// also tells its controller what image to render with each frame (VolumeFeed). A compare view puts
// several panes side by side.
#include <QElapsedTimer>
#include <QStringList>
#include <QTimer>
#include <QWidget>
#include <memory>

#include "app/controller/SimulationController.h"
#include "app/studio/RecordableView.h"
#include "app/studio/RecordedPictures.h"
#include "app/studio/VolumeFeed.h"

namespace iso {

class SliceView;

// The live counters as text lines, laid out for the view's HUD (Overlay) or the status bar (StatusLine);
// one line saying so while there is no solver.
QStringList counterLines(const ControllerStatus& status, double framesPerSecond,
                         CounterLayout layout = CounterLayout::Overlay);

class SimulationPane : public QWidget, public RecordableView {
  Q_OBJECT
 public:
  explicit SimulationPane(QWidget* parent = nullptr);
  ~SimulationPane() override;  // stops the compute thread

  SimulationController& controller() { return *controller_; }
  SliceView* view() const { return view_; }
  const ControllerStatus& lastStatus() const { return status_; }
  // lastStatus() as counters show it: a run that a recording holds at a frame's step, only while the
  // frame is taken, reads as playing.
  ControllerStatus shownStatus() const;
  double framesPerSecond() const { return framesPerSecond_; }
  long shownStep() const { return shownStep_; }  // step of the slices in the last drawn frame

  void stop();  // stops the compute thread (quitting); the view keeps its last frame
  void pollStatus();  // counters, events and rebuilds now (otherwise a few times a second)
  // Whether the pane takes the controller's slices itself (the default). A compare view turns it off
  // and hands each pane the slices of the common step with showSlices.
  void setPollsSlices(bool on);
  void showSlices(std::shared_ptr<const SliceSet> slices);  // drawn at the next paint
  // Whether the counters are drawn over the view (the default); a compare view shows them above it.
  void setHudCounters(bool on);
  // The most frames a second the view draws while the solver computes on the host's cores, where each
  // frame drawn takes CPU time from the solver (all of its drawing, where OpenGL renders in software);
  // SliceView::kMaxFrameRate (the default) for solvers on a GPU.
  void setFrameRateBesideHostSolver(int framesPerSecond);
  // The user's cap on the view's frame rate, over either rule above (1 to SliceView::kMaxFrameRate).
  void setFrameRateCap(int framesPerSecond);

  // How the slices reach the view. Mapped (the default): through the view's mapped GL buffers, set up
  // once its OpenGL is ready and the solver built, re-made when the grid's size changes; the host path
  // until then, and for good when the context cannot or a GL call fails (the reason in the counters).
  // Host: the triple buffer, `reason` saying why in the counters.
  enum class SlicePath { Mapped, Host };
  void setSlicePath(SlicePath path, const QString& reason = {});
  std::size_t mappedSlotFloats() const;  // floats per slot of the mapped buffers in use, 0 on the host path
  // Where a recording's pictures are made (RecordedPictures; Auto by default).
  void setRecordedPictures(PictureMaker maker) { pictures_->setMaker(maker); }
  // What makes the view's own frames of the 3D slices (SliceView::setFrameMaker; Auto by default): on a
  // GPU the solver's device, beside its steps, where OpenGL's frames would take time from it.
  void setViewFrames(PictureMaker maker);
  PictureMaker viewFrames() const { return viewFrames_; }
  const RecordedPictures& recordedPictures() const { return *pictures_; }

  // RecordableView: the view, and the run of its controller.
  QSize screenPixels() const override;
  QString glInfo() const override;
  long imageStep() const override;
  long restingStep() const override;
  QMetaObject::Connection connectImageStep(QObject* context, std::function<void(long)> slot) override;
  // While the run is to pause at a step (a recording's frames), the pane takes each publication of
  // slices as it comes instead of at its display poll: the run rests at each frame's step only until the
  // GUI thread gets to it, not until the next poll, up to a display period later.
  void setPauseAtStep(long step) override;
  // Over the view's mapped buffers (not yet set up: false, and a recording asks again at its next frame),
  // outside the volume view (whose pictures the solver renders for the frame's camera, so a recording
  // stops the run at each to have them); the window draws at most kStreamFrameRate frames a second
  // meanwhile, leaving the GUI thread to the recorded frames.
  bool streamFrames(long every) override;
  void holdFrames(bool hold) override;
  static constexpr int kStreamFrameRate = 30;
  void setRunPlaying(bool playing) override {
    recordingPlays_ = playing;
    controller_->setPlaying(playing);
  }
  QImage renderImage(const ImageOptions& options, QString& error) override;
  bool readsBackLate() const override { return true; }
  bool drawsVideoPlanes() const override;
  void prepareStream(const ImageOptions& options) override;
  QString startImage(const ImageOptions& options) override;
  QString collectImage(const std::function<void(const QImage& image)>& use) override;
  QString pictureMaker() const override { return pictures_->lastMaker(); }
  void setRecordingNotice(const QString& line) override;
  void preparePictures(const ImageOptions* options) override;

 signals:
  void statusUpdated(const iso::ControllerStatus& status);  // a few times a second
  void controllerEvent(const iso::ControllerEvent& event);
  void rebuilt(const iso::Scenario& active);  // a new solver runs this scenario
  void frameShown(long step);                 // a frame with the slices of that step was drawn
  void viewFramesChanged(PictureMaker maker);  // setViewFrames
  void pictureStep(long step);                // a frame a picture may be drawn of (imageStep) is shown

 private:
  // A picture's HUD shows the counters of exactly the step it draws.
  void showPictureCounters(const ImageOptions& options);
  // The view's frame rate from the rules above: the solver's place, a recording's stream, the user's cap.
  void applyFrameRate();
  // Takes each publication as it comes while a recording needs every frame (a pause step or a stream).
  void updatePublishListener();
  int slicePollMs() const;
  void pollSlices();
  void useMappedBuffers(std::size_t floats);  // buffers of that many floats per slot, or the host path
  void useHostPath(const QString& reason);

  // The counters at `framesPerSecond` (a recording's: its video's) and, in the volume view, its line.
  QStringList hudLines(const ControllerStatus& status, double framesPerSecond) const;
  void applyViewFrames();              // the view's frame maker, as viewFrames_ picks it

  std::unique_ptr<SimulationController> controller_;
  SliceView* view_ = nullptr;
  std::unique_ptr<VolumeFeed> volume_;
  std::unique_ptr<RecordedPictures> pictures_;  // startImage's and collectImage's
  long pictureStep_ = -1;  // imageStep(): the last frame shown that pictures may be drawn of
  QTimer slicePoll_, statusPoll_;
  SlicePath slicePath_ = SlicePath::Mapped;
  std::shared_ptr<SliceRing> ring_;  // over the view's mapped buffers; null on the host path
  ControllerStatus status_;
  std::shared_ptr<const SliceSet> velocity_;
  long shownStep_ = -1;
  long generation_ = 0;
  int framesInWindow_ = 0;
  QElapsedTimer fpsWindow_;
  double framesPerSecond_ = 0.0;
  PictureMaker viewFrames_ = PictureMaker::Auto;
  long pauseStep_ = -1;  // set by a recording, which holds the run at each frame's step
  long streamEvery_ = 0;  // a recording's stream of frames (streamFrames), 0: none
  bool holdingFrames_ = false;
  bool recordingPlays_ = true;  // what a recording last asked of the run: its frames' HUD says so
  bool hudCounters_ = true;
  int frameRateBesideHostSolver_;  // SliceView::kMaxFrameRate until set
  int frameRateCap_;               // SliceView::kMaxFrameRate until set
};

}  // namespace iso
