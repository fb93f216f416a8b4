#include "app/studio/LessonRunPage.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "app/studio/CompareViewport.h"
#include "app/studio/CompareWindow.h"
#include "app/studio/MarkdownPage.h"
#include "app/studio/SimulationPane.h"

namespace iso {
namespace {

constexpr int kRefreshMs = 500;

// With non-breaking spaces: a figure and its unit stay on one line.
QString mpts(double v) {
  return v >= 1e4 ? QString::number(v / 1e3, 'f', 1) + "&nbsp;Gpts/s" : QString::number(v, 'f', v >= 100 ? 0 : 1) + "&nbsp;Mpts/s";
}

// The two measurements as a benchmark run, so that the roofline chart places them as it places a
// benchmark's rows: each stage at its own bytes per point, under the roof of the memory it ran on.
BenchmarkRun runOf(const LessonStep& step, const LessonMeasurement& before, const LessonMeasurement& after, const Grid& grid) {
  BenchmarkRun run;
  run.label = QString::fromStdString(step.previous + " → " + step.stage);
  for (const auto& [stage, m] : {std::pair{step.previous, before}, std::pair{step.stage, after}}) {
    if (m.mpts <= 0.0) continue;
    BenchmarkRow row;
    row.stage = stage;
    row.device = m.device;
    row.n1 = grid.n1;
    row.n2 = grid.n2;
    row.n3 = grid.n3;
    row.throughput = computeThroughput(double(grid.interiorSize()), 1.0, double(grid.interiorSize()) / (m.mpts * 1e6), m.ceilingGBs);
    run.report.rows.push_back(row);
    if (m.ceilingGBs <= 0.0) continue;
    const std::string memory = m.onHostCores ? "host CPU" : m.device;
    if (std::any_of(run.rooflines.begin(), run.rooflines.end(), [&](const DeviceRoofline& d) { return d.device == memory; })) continue;
    DeviceRoofline roof;
    roof.device = memory;
    roof.host = m.onHostCores;
    roof.memory.min = roof.memory.median = roof.memory.max = m.ceilingGBs;
    roof.memoryProbe = "the copy bandwidth the counters use";
    run.rooflines.push_back(roof);
  }
  return run;
}

}  // namespace

LessonRunPage::LessonRunPage(const Scenario& scenario, QWidget* parent) : QWidget(parent) {
  compare_ = new CompareWindow(scenario, {"cpu-serial", "cpu-serial"}, this);
  compare_->setWindowFlags(Qt::Widget);
  heading_ = new QLabel;
  heading_->setWordWrap(true);
  QFont large = heading_->font();
  large.setPointSize(kReadingPointSize + 2);
  verdict_ = new QLabel;
  verdict_->setObjectName("lessonVerdict");
  verdict_->setWordWrap(true);
  verdict_->setTextFormat(Qt::RichText);
  verdict_->setFont(large);
  watch_ = new QTextBrowser;
  prepareForReading(watch_);
  roofline_ = new RooflineChart;
  roofline_->setMinimumSize(240, 220);

  auto* side = new QWidget;
  auto* sideLayout = new QVBoxLayout(side);
  sideLayout->setContentsMargins(4, 0, 0, 0);
  sideLayout->addWidget(verdict_);
  sideLayout->addWidget(roofline_, 3);
  sideLayout->addWidget(watch_, 2);
  auto* split = new QSplitter(Qt::Horizontal);
  split->addWidget(compare_);
  split->addWidget(side);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  split->setSizes({900, 340});
  split->setChildrenCollapsible(false);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(heading_);
  layout->addWidget(split, 1);
  connect(&refresh_, &QTimer::timeout, this, &LessonRunPage::refresh);
}

void LessonRunPage::setScenario(const Scenario& scenario) { compare_->setBaseScenario(scenario); }

void LessonRunPage::setStep(const LessonStep& step, const LessonText& text, std::optional<double> prediction) {
  step_ = step;
  prediction_ = prediction;
  heading_->setText(QStringLiteral("<b>%1</b> in viewport 1 beside <b>%2</b> in viewport 2, on the same scenario, step for step")
                        .arg(QString::fromStdString(step.previous), QString::fromStdString(step.stage)));
  showMarkdown(watch_, QString::fromStdString(text.run));
  compare_->setPlaying(false);
  compare_->setStages({QString::fromStdString(step.previous), QString::fromStdString(step.stage)});
  refresh();
}

void LessonRunPage::play(bool on) {
  compare_->setPlaying(on);
  if (on) refresh_.start(kRefreshMs);
  else refresh_.stop();
  refresh();
}

LessonMeasurement LessonRunPage::measurement(int n) const {
  LessonMeasurement m;
  if (n >= compare_->viewportCount() || !compare_->coordinator().active(std::size_t(n))) return m;
  const ControllerStatus& s = compare_->viewport(n)->pane()->lastStatus();
  if (!s.hasSolver) return m;
  const Throughput t = hostRoof_.throughputOf(s);  // PoCL on the host's roof, as the CPU stages
  m.mpts = t.mpts;
  m.rooflinePercent = t.rooflinePercent;
  m.ceilingGBs = t.ceilingGBs;
  m.device = s.device;
  m.onHostCores = s.onHostCores;
  return m;
}

QString LessonRunPage::problem() const {
  QStringList problems;
  for (int n = 0; n < compare_->viewportCount(); ++n)
    if (compare_->viewport(n)->hasProblem()) problems << compare_->viewport(n)->spec() + ": " + compare_->viewport(n)->problem();
  return problems.join("; ");
}

QString LessonRunPage::verdict() const { return verdict_->text(); }

void LessonRunPage::refresh() {
  // The viewports' counters and this page's figures from the same statuses: one speed-up on the page.
  compare_->refreshCounters();
  const LessonMeasurement before = measurement(0), after = measurement(1);
  if (before.mpts > 0.0) emit measured(step_.previous, before);
  if (after.mpts > 0.0) emit measured(step_.stage, after);
  const QString guess = prediction_ ? QStringLiteral("You predicted <b>×%1</b>.").arg(*prediction_, 0, 'f', 2)
                                    : QStringLiteral("No prediction typed (Predict page).");
  if (before.mpts > 0.0 && after.mpts > 0.0) {
    const double speedup = after.mpts / before.mpts;
    QString comparison;
    if (prediction_) {
      const double ratio = speedup / *prediction_;
      comparison = ratio > 1.25 ? " Faster than you expected." : ratio < 0.8 ? " Slower than you expected." : " Close to your prediction.";
    }
    verdict_->setText(QStringLiteral("%1<br>Measured: <b>×%2</b> (%3&nbsp;→ %4).%5")
                          .arg(guess)
                          .arg(speedup, 0, 'f', 2)
                          .arg(mpts(before.mpts), mpts(after.mpts), comparison));
  } else {
    verdict_->setText(guess + "<br>Measured: – (press Play; the speed-up appears after the first steps)");
  }
  run_ = runOf(step_, before, after, compare_->viewportCount() > 0 ? compare_->viewport(0)->pane()->lastStatus().grid : Grid());
  roofline_->setRuns({&run_});
  roofline_->chart()->setTitle(QStringLiteral("Roofline: %1 and %2").arg(QString::fromStdString(step_.previous), QString::fromStdString(step_.stage)));
}

}  // namespace iso
