#include "app/studio/TracePlotPanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "app/studio/FormControls.h"
#include "app/studio/SeismogramView.h"
#include "app/studio/TracePlot.h"

namespace iso {

TracePlotPanel::TracePlotPanel(SimulationController& controller, QWidget* parent)
    : QWidget(parent), controller_(controller) {
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(2, 2, 2, 2);
  stack_ = new QStackedWidget;
  outer->addWidget(stack_);

  auto* empty = new QLabel("No receivers in this scenario. Shift+click on a slice adds one; the Receivers section of "
                           "the Scenario panel lists them and adds whole lines (Add line…).");
  empty->setAlignment(Qt::AlignCenter);
  empty->setWordWrap(true);  // the dock is narrower than the sentence
  stack_->addWidget(empty);

  auto* splitter = splitter_ = new QSplitter(Qt::Horizontal);
  splitter->setChildrenCollapsible(false);
  plot_ = new TracePlot;
  splitter->addWidget(plot_);
  auto* right = new QWidget;
  auto* column = new QVBoxLayout(right);
  column->setContentsMargins(0, 0, 0, 0);
  column->setSpacing(2);
  style_ = combo({{"Variable density", "Colour by u: red positive, blue negative (the seismic colormap)"},
                  {"Wiggles", "Each trace as a curve about its receiver's band, positive lobes filled black"}},
                 "How the seismogram draws the traces");
  style_->setObjectName("seismogram_style");
  window_ = new QLabel;
  window_->setToolTip(QStringLiteral("The live plots show the most recent %1 samples of each receiver at most; the whole\n"
                                     "record goes to File ▸ Export data ▸ Traces.")
                          .arg(SimulationController::kLiveTraceSamples));
  normalize_ = new QCheckBox("Normalize");
  normalize_->setChecked(true);  // the receiver at the source would otherwise flatten the rest
  normalize_->setObjectName("traces_normalize");
  normalize_->setToolTip("Scale each trace to its own peak |u| in the plot and the seismogram, so that a receiver\n"
                         "beside the source does not hide the weaker arrivals elsewhere");
  QHBoxLayout* header = row({style_, normalize_, window_});
  header->addStretch(1);
  column->addLayout(header);
  seismogram_ = new SeismogramView;
  seismogram_->setNormalized(normalize_->isChecked());
  column->addWidget(seismogram_, 1);
  splitter->addWidget(right);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);
  splitter->setSizes({3000, 2000});  // relative: the plot gets three fifths
  stack_->addWidget(splitter);

  // Narrower than its parts would ask for (the legend's row, the seismogram's header): the form's tab
  // keeps the form's width, which leaves the view half of the window.
  setMinimumWidth(240);
  connect(style_, &QComboBox::currentIndexChanged, this, [this](int index) {
    seismogram_->setStyle(index == 1 ? SeismogramStyle::Wiggle : SeismogramStyle::VariableDensity);
  });
  connect(normalize_, &QCheckBox::toggled, this, [this](bool on) {
    seismogram_->setNormalized(on);
    if (shown_ && !shown_->receivers.empty()) plot_->setTraces(*shown_, on);
  });
  connect(&timer_, &QTimer::timeout, this, [this] {
    // A dock behind another's tab is still "visible" to Qt, with nothing of it on screen: the plot's
    // redraw (tens of milliseconds) is then spent on nothing.
    if (!visibleRegion().isEmpty()) refresh();
  });
  timer_.start(kRefreshMs);
}

void TracePlotPanel::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  const Qt::Orientation orientation = width() >= height() ? Qt::Horizontal : Qt::Vertical;
  if (splitter_->orientation() != orientation) {
    splitter_->setOrientation(orientation);
    splitter_->setSizes({3000, 2000});
  }
}

void TracePlotPanel::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  refresh();
}

void TracePlotPanel::refresh() {
  std::shared_ptr<const LiveTraces> live = controller_.liveTraces();
  if (!live || live == shown_) return;
  shown_ = live;
  stack_->setCurrentIndex(live->receivers.empty() ? 0 : 1);
  if (live->receivers.empty()) return;
  QElapsedTimer cost;
  cost.start();
  plot_->setTraces(*live, normalize_->isChecked());
  // The plot costs the GUI thread about 10 ms for a dozen receivers here: a slower machine or more
  // receivers get fewer updates, so that they take at most a tenth of its time.
  timer_.setInterval(std::clamp(int(10 * cost.elapsed()), kRefreshMs, 1000));
  const SeismogramOptions offsets = withOffsetsOf({}, controller_.activeScenario());
  seismogram_->setOffsets(offsets.dx, offsets.sourceI, offsets.sourceJ);
  seismogram_->setTraces(live);
  const long samples = live->count();
  window_->setText(samples == 0 ? QString()
                                : QStringLiteral("%1–%2 s")
                                      .arg(double(live->firstSample) * live->dt, 0, 'g', 3)
                                      .arg(double(live->firstSample + samples) * live->dt, 0, 'g', 3));
}

SeismogramOptions TracePlotPanel::seismogramOptions() const { return seismogram_->options(); }

}  // namespace iso
