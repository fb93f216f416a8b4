#pragma once
// One simulation and its viewport: a SimulationController (the compute thread) feeding a SliceView.
// The pane polls the controller's slice slot at display rate and its status a few times a second, so
// the GUI never waits for compute. A compare view puts several panes side by side.
#include <QElapsedTimer>
#include <QStringList>
#include <QTimer>
#include <QWidget>
#include <memory>

#include "app/controller/SimulationController.h"

namespace iso {

class SliceView;

// The live counters as text lines, laid out for the view's HUD (Overlay) or the status bar (StatusLine);
// one line saying so while there is no solver.
QStringList counterLines(const ControllerStatus& status, double framesPerSecond,
                         CounterLayout layout = CounterLayout::Overlay);

class SimulationPane : public QWidget {
  Q_OBJECT
 public:
  explicit SimulationPane(QWidget* parent = nullptr);
  ~SimulationPane() override;  // stops the compute thread

  SimulationController& controller() { return *controller_; }
  SliceView* view() const { return view_; }
  const ControllerStatus& lastStatus() const { return status_; }
  double framesPerSecond() const { return framesPerSecond_; }
  long shownStep() const { return shownStep_; }  // step of the slices in the last drawn frame

  void stop();  // stops the compute thread (quitting); the view keeps its last frame
  void pollStatus();  // counters, events and rebuilds now (otherwise a few times a second)
  // Whether the pane takes the controller's slices itself (the default). A compare view turns it off
  // and hands each pane the slices of the common step with showSlices.
  void setPollsSlices(bool on);
  void showSlices(std::shared_ptr<const SliceSet> slices);  // drawn at the next paint

 signals:
  void statusUpdated(const iso::ControllerStatus& status);  // a few times a second
  void controllerEvent(const iso::ControllerEvent& event);
  void rebuilt(const iso::Scenario& active);  // a new solver runs this scenario
  void frameShown(long step);                 // a frame with the slices of that step was drawn

 private:
  void pollSlices();

  std::unique_ptr<SimulationController> controller_;
  SliceView* view_ = nullptr;
  QTimer slicePoll_, statusPoll_;
  ControllerStatus status_;
  std::shared_ptr<const SliceSet> velocity_;
  long pendingStep_ = -1, shownStep_ = -1;
  long generation_ = 0;
  int framesInWindow_ = 0;
  QElapsedTimer fpsWindow_;
  double framesPerSecond_ = 0.0;
};

}  // namespace iso
