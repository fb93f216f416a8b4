#include "app/studio/CompareViewport.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>
#include <algorithm>

#include "compute/DeviceRegistry.h"
#include "app/studio/SimulationPane.h"
#include "render/SliceView.h"
#include "compute/Stage.h"
#include "core/StageRegistry.h"

namespace iso {

CompareViewport::CompareViewport(int number, QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->setSpacing(2);
  auto* header = new QHBoxLayout;
  number_ = new QLabel(QStringLiteral("<b>%1</b>").arg(number));
  number_->setToolTip("Viewport number. Speed-ups are over viewport 1; agreement is with cpu-serial when it\n"
                      "runs in a viewport, else with viewport 1");
  header->addWidget(number_);
  setCurrent(false);

  stageBox_ = new QComboBox;
  for (const StageInfo& s : StageRegistry::all())
    stageBox_->addItem(QStringLiteral("%1 — %2").arg(QString::fromStdString(s.id), QString::fromStdString(s.title)),
                       QString::fromStdString(s.id));
  stageBox_->setToolTip("The stage this viewport runs");
  stageBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  stageBox_->setMinimumContentsLength(14);
  header->addWidget(stageBox_, 3);

  deviceBox_ = new QComboBox;
  deviceBox_->addItem("scenario's device", QString());
  for (const DeviceInfo& d : listDevices())
    deviceBox_->addItem(QString::fromStdString(d.summary()), QString::fromStdString(d.selector()));
  deviceBox_->setToolTip("OpenCL device of the stage (CPU stages run on the host's cores)");
  deviceBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  deviceBox_->setMinimumContentsLength(10);
  header->addWidget(deviceBox_, 2);
  layout->addLayout(header);

  counters_ = new QLabel;
  counters_->setWordWrap(true);
  counters_->setTextFormat(Qt::RichText);
  countersTip_ = "Mpts/s and GB/s (16 B/pt) of this stage's own steps; % of the measured copy bandwidth of the\n"
                 "memory it runs on (the host's for the host's cores, PoCL included); speed-up over viewport 1;\n"
                 "max |Δ| and relative L2 of the shown slices against the reference at the same step (✓ within\n"
                 "1e-5), from the first step on";
  counters_->setToolTip(countersTip_);
  layout->addWidget(counters_);

  problem_ = new QLabel;
  problem_->setWordWrap(true);
  problem_->setStyleSheet("QLabel { color: white; background: #b3261e; padding: 4px; font-weight: bold; }");
  problem_->hide();
  layout->addWidget(problem_);

  pane_ = new SimulationPane(this);
  pane_->setPollsSlices(false);  // the compare window hands it the slices of the common step
  pane_->setHudCounters(false);  // the counters sit above the view, which keeps its whole height
  pane_->setSlicePath(SimulationPane::SlicePath::Host, "the compare view's lockstep keeps copies of each common step");
  layout->addWidget(pane_, 1);

  auto picked = [this] {
    stage_ = stageBox_->currentData().toString();
    device_ = deviceBox_->currentData().toString();
    deviceBox_->setEnabled(StageRegistry::find(stage_.toStdString()) && StageRegistry::get(stage_.toStdString()).opencl);
    emit specChanged();
  };
  connect(stageBox_, &QComboBox::activated, this, picked);
  connect(deviceBox_, &QComboBox::activated, this, picked);
}

QString CompareViewport::spec() const { return device_.isEmpty() ? stage_ : stage_ + "@" + device_; }

void CompareViewport::setSpec(const QString& spec) {
  const qsizetype at = spec.indexOf('@');
  stage_ = spec.left(at).trimmed();
  device_ = at < 0 ? QString() : spec.mid(at + 1).trimmed();
  showSpecInCombos();
}

void CompareViewport::showSpecInCombos() {
  const QSignalBlocker blockStage(stageBox_), blockDevice(deviceBox_);
  stageBox_->setCurrentIndex(stageBox_->findData(stage_));  // -1 (blank) for an unknown stage
  int device = deviceBox_->findData(device_);
  if (device < 0) {  // a selector typed on the command line ("gpu", a name): shown as given
    deviceBox_->addItem(device_, device_);
    device = deviceBox_->count() - 1;
  }
  deviceBox_->setCurrentIndex(device);
  const StageInfo* info = StageRegistry::find(stage_.toStdString());
  deviceBox_->setEnabled(info && info->opencl);
}

std::optional<Scenario> CompareViewport::scenarioFor(const Scenario& base) {
  const StageInfo* info = StageRegistry::find(stage_.toStdString());
  if (!info) {
    QStringList ids;
    for (const std::string& id : StageRegistry::ids()) ids << QString::fromStdString(id);
    showProblem(QStringLiteral("Unknown stage '%1'. Stages: %2.").arg(stage_, ids.join(", ")));
    return std::nullopt;
  }
  Scenario s = base;
  s.stage = info->id;
  if (info->opencl && !device_.isEmpty()) s.device = device_.toStdString();
  // The base scenario's parameters belong to its own stage; another stage would refuse the ones it does
  // not take.
  s.stageParams = resolveStage(s.stage).execution(s).params;
  clearProblem();
  return s;
}

QString CompareViewport::sharedDevice(const Scenario& base) const {
  const StageInfo* info = StageRegistry::find(stage_.toStdString());
  if (!info) return {};
  if (!info->opencl) return "host";
  try {
    const DeviceInfo d = selectDevice(device_.isEmpty() ? base.device : device_.toStdString());
    return d.type == "CPU" ? "host" : QString::fromStdString(d.name);
  } catch (const std::exception&) {
    return {};  // no such device: the viewport says so when it builds
  }
}

void CompareViewport::setCurrent(bool current) {
  number_->setStyleSheet(current ? "QLabel { background: palette(highlight); color: palette(highlighted-text); padding: 0 4px; }"
                                 : "QLabel { padding: 0 4px; }");
}

void CompareViewport::showProblem(const QString& text) {
  problem_->setText(text);
  problem_->show();
}

void CompareViewport::clearProblem() {
  problem_->clear();
  problem_->hide();
}

void CompareViewport::setCounters(const QString& text, const QString& detail) {
  if (text != counters_->text()) counters_->setText(text);
  countersDetail_ = detail;
  counters_->setToolTip(detail.isEmpty() ? countersTip_ : countersTip_ + "\n\n" + detail);
}

void CompareViewport::setShowsDifference(bool on) {
  if (on == showsDifference_) return;
  showsDifference_ = on;
  SliceView* view = pane_->view();
  view->setColormap(on ? "inferno" : "seismic");
  view->setMagnitudeRange(on);
  // A difference is scaled to each frame's own (robust) level: where the stages differ shows at any step,
  // and the largest difference is the max |Δ| printed above the view.
  view->setGainMode(on ? GainMode::PerFrame : GainMode::Automatic);
  view->setFieldLabel(on ? "|u − u_ref|" : "u (arb. units)");
}

QString CompareViewport::counters() const { return counters_->text(); }

bool CompareViewport::hasProblem() const { return !problem_->isHidden(); }

QString CompareViewport::problem() const { return problem_->text(); }

}  // namespace iso
