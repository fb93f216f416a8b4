#pragma once
// One viewport of the compare view: which stage runs on which device (chosen in its header), the
// simulation pane that runs and draws it, and a message line for what went wrong in this viewport only
// (unknown stage, a device that cannot run it, a failed build). The compare window drives the lockstep
// and writes the counters.
#include <QString>
#include <QWidget>
#include <optional>

#include "core/Scenario.h"

class QComboBox;
class QLabel;

namespace iso {

class SimulationPane;

class CompareViewport : public QWidget {
  Q_OBJECT
 public:
  explicit CompareViewport(int number, QWidget* parent = nullptr);

  SimulationPane* pane() const { return pane_; }
  QString stageId() const { return stage_; }
  QString deviceSelector() const { return device_; }  // "" runs OpenCL stages on the scenario's device
  // Both as "stage" or "stage@device", the form of --compare and of the saved settings.
  QString spec() const;
  void setSpec(const QString& spec);  // an unknown stage is kept and reported by scenarioFor()

  // The base scenario with this viewport's stage and device, its stage parameters reduced to those the
  // stage takes; nullopt (and the reason in the message line) when the stage is unknown.
  std::optional<Scenario> scenarioFor(const Scenario& base);
  // What the stage runs on, for telling which viewports share a device: "host" for the host's cores (a
  // CPU stage, or an OpenCL stage on a CPU device), else the OpenCL device's name; "" when unknown.
  QString sharedDevice(const Scenario& base) const;
  void setCurrent(bool current);  // marks the viewport that unlinked view controls act on
  // Rich text above the view (the view keeps its whole height), and its tooltip's last line.
  void setCounters(const QString& text, const QString& detail = {});
  QString counters() const;
  QString countersDetail() const { return countersDetail_; }  // the tooltip's last line (the slices' path)
  // The view shows |u - u_ref| (the inferno colours from 0, each frame's own range, "|u − u_ref|" on its
  // colour bar) or the wavefield (the seismic colours about 0, automatic gain).
  void setShowsDifference(bool on);
  bool showsDifference() const { return showsDifference_; }

  void showProblem(const QString& text);  // in this viewport, until the next clearProblem
  void clearProblem();
  bool hasProblem() const;
  QString problem() const;

 signals:
  void specChanged();  // the user picked another stage or device

 private:
  void showSpecInCombos();

  QString stage_, device_;
  QComboBox *stageBox_ = nullptr, *deviceBox_ = nullptr;
  QLabel *number_ = nullptr, *counters_ = nullptr, *problem_ = nullptr;
  SimulationPane* pane_ = nullptr;
  QString countersTip_, countersDetail_;
  bool showsDifference_ = false;
};

}  // namespace iso
