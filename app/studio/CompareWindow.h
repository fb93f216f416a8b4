#pragma once
// The compare view: the same scenario computed by 2 to 4 stages side by side, in lockstep. A
// LockstepCoordinator advances every viewport's controller to a common step and raises it only when all
// have reached it, so every viewport shows the same step and none is more than one batch ahead. Each
// viewport's counters time only its own steps; the agreement figure compares its slices with those of
// the reference viewport (cpu-serial when it runs here, else viewport 1) at that same step. Camera, view
// mode and slice point are linked unless "Link views" is off; the stages are remembered (QSettings).
#include <QElapsedTimer>
#include <QFont>
#include <QImage>
#include <QMainWindow>
#include <QStringList>
#include <QTimer>
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "app/controller/LockstepCoordinator.h"
#include "app/studio/HostMemoryRoof.h"
#include "app/studio/RecordableView.h"
#include "core/FieldCompare.h"
#include "core/Scenario.h"

class QAction;
class QComboBox;
class QGridLayout;
class QLabel;
class QSpinBox;
class QToolBar;

namespace iso {

class CompareViewport;
class ExportActions;
struct StudioOptions;

class CompareWindow : public QMainWindow, public RecordableView {
  Q_OBJECT
 public:
  static constexpr int kMinViewports = 2, kMaxViewports = 4;

  // Starts on `base`, paused, with `stages` (see setStages) or, when empty, those remembered from the
  // last session (or a default set).
  explicit CompareWindow(const Scenario& base, const QStringList& stages = {}, QWidget* parent = nullptr);
  ~CompareWindow() override;

  // "stage" or "stage@device" per viewport. Fewer than 2 or more than 4: the window says so, and the
  // first 4 (or the given one plus a second) run. Every viewport restarts at step 0.
  void setStages(const QStringList& specs);
  QStringList stages() const;
  void setBaseScenario(const Scenario& base);  // every viewport restarts on it at step 0

  void setPlaying(bool playing);  // as the Play button does
  bool playButtonChecked() const;
  void stepOnce();
  void reset();
  // Steps between two common frames; kAutoStepsPerFrame (the default) picks them as it runs: as many as
  // keep at least kAutoFramesPerSecond frames a second, from 1 to kMaxAutoStepsPerFrame.
  void setStepsPerFrame(int steps);
  static constexpr int kAutoStepsPerFrame = 0, kMaxAutoStepsPerFrame = 16;
  static constexpr double kAutoFramesPerSecond = 30.0;
  int stepsPerFrame() const { return batch_; }  // the steps per frame in use now
  // Auto's rule, applied twice a second: below the frame-rate goal, halve the steps per frame; well above
  // it (a third more), add one. Halving at once and climbing slowly settles without oscillating.
  static int adaptedStepsPerFrame(int steps, double framesPerSecond);
  void setStopStep(long step);       // the run pauses there (< 0: never)
  void setViewMode(int mode);        // 0 3D, 1 XY, 2 XZ, 3 YZ
  void setLinked(bool linked);
  // Difference mode: every viewport but the reference shows |u - u_ref| at the common step (its own
  // colour bar from 0, its max |Δ| and relative L2 above it); the reference keeps its wavefield.
  void setDifference(bool on);
  bool difference() const { return difference_; }
  // The viewports fill the window's screen: toolbar, sharing note and status bar hidden (F11, Esc).
  void setPresentation(bool on);
  // The counters of every viewport from its status now: what summary() prints is then what they show.
  void refreshCounters();

  int viewportCount() const { return int(viewports_.size()); }
  CompareViewport* viewport(int n) const { return viewports_.at(std::size_t(n)); }
  long shownStep() const { return coordinator_.rendezvousStep(); }  // -1 before the first common frame
  const LockstepCoordinator& coordinator() const { return coordinator_; }
  QString notice() const;  // the window's own message (e.g. too many stages), "" when none
  QImage screenshot(bool wholeWindow);  // the viewports (with the sharing note), or the whole window
  ExportActions* exportActions() const { return exportActions_; }

  // RecordableView: every viewport's picture in one image, in the grid they have on screen, each with
  // its stage (and its counters with the HUD); the lockstep's common step.
  QSize screenPixels() const override;
  // In the volume view, the common step once every viewport shows a frame pictures may be drawn of.
  long imageStep() const override;
  QMetaObject::Connection connectImageStep(QObject* context, std::function<void(long)> slot) override;
  void setPauseAtStep(long step) override { setStopStep(step); }
  void setRunPlaying(bool playing) override;
  QImage renderImage(const ImageOptions& options, QString& error) override;
  void setRecordingNotice(const QString& line) override;  // over every viewport
  void preparePictures(const ImageOptions* options) override;  // every viewport, for its cell of the grid
  QString glInfo() const override;  // the first viewport's: every viewport draws with the same OpenGL

  // A viewport's slices against the reference's at every common step since the start, each difference
  // over the largest norm the reference's slices have had (core/FieldCompare.h, as `iso3dfd verify`).
  struct Agreement {
    RunAgreement run;                        // not compared: the reference itself, or nothing yet
    double tolerance = kReferenceTolerance;  // the larger of the two stages' own (StageInfo)
    bool agrees() const { return run.withinTolerance(tolerance); }
  };
  int referenceIndex() const { return reference_; }  // -1 when no viewport runs
  const Agreement& agreement(int n) const { return agreement_.at(std::size_t(n)); }
  // One line per viewport: stage, device, rates and agreement (for the command line).
  QStringList summary() const;

 signals:
  void commonFrame(long step);  // every running viewport was handed the slices of this step
  void pictureFrame(long step);  // ... and pictures may be drawn of them (imageStep)

 protected:
  void closeEvent(QCloseEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;  // a click on a view makes it current

 private:
  void buildToolbar();
  void addDifferenceActions(QToolBar* tools);
  void showCommonStep();  // the common step's slices (or differences) to every viewport
  Throughput shownThroughput(int n) const;  // viewport n's, against the roof of the memory it ran on
  // How a picture with given options is laid out: a cell of the grid per viewport, its caption lines in
  // a band at the top, the viewport's picture (`view`) below them.
  struct PictureLayout {
    QSize cell;
    ImageOptions view;
    QFont font;
    int captionLines = 0, pad = 0, band = 0;  // band: pixels above the viewport's picture
  };
  // nullopt (and `error`) when the picture is too small for the viewports.
  std::optional<PictureLayout> pictureLayout(const ImageOptions& options, QString& error) const;
  void createViewports(const QStringList& specs);
  void restartAll();  // every viewport on the base scenario with its own stage, step 0
  void deleteRetired();  // viewports taken away, once their compute thread can stop at once
  // Any thread: has pollLockstep run soon on the GUI thread (once, however often it is asked before).
  void requestLockstepPoll();
  void pollLockstep();
  void showStatus();  // the counters of every viewport and the step line, together
  void compareWithReference();
  void onViewportEvent(int n, bool error, const QString& message);
  void updateCounters(int n);
  void updateSharingNote();
  void linkCamera(int from);
  void setCurrentViewport(int n);
  void applyViewMode(int n, int mode);
  void applySlicePoint(int n);
  void saveStages() const;
  void showPlaying(bool playing);
  void adaptStepsPerFrame();  // auto mode: after each common frame
  void applyBatch(int steps);

  Scenario base_;
  std::vector<CompareViewport*> viewports_;
  std::vector<CompareViewport*> retired_;  // hidden, deleted when not in the middle of a build
  std::vector<Agreement> agreement_;
  LockstepCoordinator coordinator_;
  // The controllers call requestLockstepPoll when they publish slices: a common frame is handed out as
  // soon as the last viewport has its step, without a polling period's wait.
  std::atomic<bool> lockstepPollQueued_{false};
  // The counters and the step line change a few times a second, all in one repaint: a text widget that
  // changes makes the window upload its whole backing store again, which costs a software renderer as
  // much as drawing a view.
  QTimer statusTimer_, retiredPoll_;
  int reference_ = -1;
  int current_ = 0;  // the viewport unlinked view controls act on
  bool linked_ = true;
  int stepsPerFrame_ = kAutoStepsPerFrame;  // what was asked for
  int batch_ = 1;                           // what runs: the lockstep's steps per frame (auto starts at 1)
  QElapsedTimer autoWindow_;                // auto mode: frames counted since it started
  int autoFrames_ = 0;
  long stopStep_ = -1;
  QString notice_;
  // Held by a viewport's controller while its solver advances: the stages compute one at a time, so
  // each counter times its own steps with no other stage computing.
  std::shared_ptr<std::mutex> computeTurn_ = std::make_shared<std::mutex>();

  QWidget* grid_ = nullptr;
  QGridLayout* gridLayout_ = nullptr;
  QLabel *sharingNote_ = nullptr, *stepLabel_ = nullptr;
  QAction *playAction_ = nullptr, *linkAction_ = nullptr, *velocityAction_ = nullptr, *differenceAction_ = nullptr,
          *presentAction_ = nullptr;
  bool difference_ = false;
  HostMemoryRoof hostRoof_;
  QSpinBox *count_ = nullptr, *stepsPerFrameBox_ = nullptr, *sliceI_ = nullptr, *sliceJ_ = nullptr, *sliceK_ = nullptr;
  QComboBox* mode_ = nullptr;
  ExportActions* exportActions_ = nullptr;
};

// iso3dfd-studio --compare S1,S2[,S3[,S4]]: runs the compare window; with --steps N --screenshot F it
// saves the view once every viewport shows step N, prints each viewport's figures and quits with 1 when
// a viewport failed or disagrees with the reference beyond its tolerance (Agreement).
int runCompareWindow(const StudioOptions& options);

}  // namespace iso
