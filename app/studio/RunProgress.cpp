#include "app/studio/RunProgress.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QSignalBlocker>
#include <QSpinBox>
#include <cmath>

#include "app/studio/FormControls.h"

namespace iso {

RunProgress::RunProgress(QWidget* parent) : QWidget(parent) {
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(4);
  bar_ = new QProgressBar;
  bar_->setObjectName("run_progress");
  bar_->setTextVisible(true);
  bar_->setMinimumWidth(210);
  bar_->setRange(0, 1);
  bar_->setValue(0);
  bar_->setFormat("no simulation");
  bar_->setToolTip("The run's progress: step / steps, and the time left at the measured rate of steps per second");
  steps_ = intSpin(0, 1000000000, 100, "", "The run's length in time steps (the scenario's steps): the run stops here,\n"
                                          "or with Loop starts again from step 0. Saved with the scenario.");
  steps_->setObjectName("run_steps");
  steps_->setMinimumWidth(80);
  loop_ = new QCheckBox("Loop");
  loop_->setObjectName("run_loop");
  loop_->setToolTip("At the end of the run start again from step 0 (a reset) and play on; off: stop there\n"
                    "(Play then starts the run again)");
  layout->addWidget(bar_);
  layout->addWidget(new QLabel("of"));
  layout->addWidget(steps_);
  layout->addWidget(loop_);
  connect(loop_, &QCheckBox::toggled, this, [this](bool on) { emit runEndChanged(on ? RunEnd::Loop : RunEnd::Stop); });
  connect(steps_, &QSpinBox::valueChanged, this, &RunProgress::stepsEdited);
}

RunEnd RunProgress::runEnd() const { return loop_->isChecked() ? RunEnd::Loop : RunEnd::Stop; }

void RunProgress::setSteps(int steps) {
  const QSignalBlocker quiet(steps_);
  steps_->setValue(steps);
}

QString RunProgress::formatDuration(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  if (s < 60) return QStringLiteral("%1 s").arg(s);
  if (s < 3600) return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QChar('0'));
  return QStringLiteral("%1:%2:%3").arg(s / 3600).arg(s / 60 % 60, 2, 10, QChar('0')).arg(s % 60, 2, 10, QChar('0'));
}

void RunProgress::showStatus(const ControllerStatus& s) {
  if (!s.hasSolver) {
    bar_->setRange(0, 1);
    bar_->setValue(0);
    bar_->setFormat(s.rebuilding ? "building…" : "no simulation");
    return;
  }
  // The rate: steps per wall second between two updates while the run plays. Across k loops the steps
  // are the rest of the pass, k − 1 whole passes and the new one's; any other rebuild starts again.
  long advanced = -1;
  const long loops = s.loops - lastLoops_;
  if (s.generation == lastGeneration_ && s.step >= lastStep_)
    advanced = s.step - lastStep_;
  else if (loops > 0 && s.generation == lastGeneration_ + loops && s.runLength >= lastStep_)
    advanced = s.runLength - lastStep_ + (loops - 1) * s.runLength + s.step;
  if (s.playing && advanced > 0 && sinceLast_.isValid()) {
    const double seconds = sinceLast_.elapsed() / 1000.0;
    if (seconds > 0.0) {
      const double now = double(advanced) / seconds;
      rate_ = rate_ > 0.0 ? 0.7 * rate_ + 0.3 * now : now;
    }
  }
  if (s.playing)
    sinceLast_.start();
  else
    sinceLast_.invalidate();
  lastGeneration_ = s.generation;
  lastLoops_ = s.loops;
  lastStep_ = s.step;

  const long length = std::max(0L, s.runLength);
  // QProgressBar counts in int: a run of up to 10^9 steps fits.
  bar_->setRange(0, int(std::max(1L, length)));
  bar_->setValue(int(length > 0 ? std::min(s.step, length) : 1));
  const int percent = length > 0 ? int(std::min(100.0, 100.0 * double(s.step) / double(length))) : 100;
  QString text = QStringLiteral("step %1 · %2 %").arg(s.step).arg(percent);
  if (s.step >= length && s.runEnd == RunEnd::Stop)
    text += " · done";
  else if (s.playing && rate_ > 0.0 && s.step < length)
    text += " · " + formatDuration(double(length - s.step) / rate_) + " left";
  else if (!s.playing)
    text += " · paused";
  if (s.runEnd == RunEnd::Loop && s.loops > 0) text += QStringLiteral(" · loop %1").arg(s.loops + 1);
  bar_->setFormat(text);
}

}  // namespace iso
