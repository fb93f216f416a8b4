#include "app/studio/BenchmarkCharts.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsSimpleTextItem>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include "compute/DeviceRegistry.h"
#include "compute/StageParams.h"
#include "app/studio/PictureFile.h"
#include "core/Metrics.h"
#include "core/StageRegistry.h"

namespace iso {
namespace {

// Roofline x range, flop per byte: both conventions' intensity (61/16, 61/12) and the ridge points of
// CPUs and GPUs (peak FLOP/s over bandwidth: about 5 to 30) lie well inside it.
constexpr double kMinIntensity = 0.25, kMaxIntensity = 64.0;

// Three significant digits without an exponent: 31.6, 2998.
QString number(double v) { return QString::number(v, 'f', v >= 100.0 ? 0 : v >= 10.0 ? 1 : 2); }

QString elided(const QString& text, int chars) { return text.size() <= chars ? text : text.left(chars - 1) + "…"; }

// "24³" or "37×29×23" (the superscript is appended: QString::arg would read it as a digit).
QString gridText(int n1, int n2, int n3) {
  return n1 == n2 && n2 == n3 ? QString::number(n1) + "³" : QStringLiteral("%1×%2×%3").arg(n1).arg(n2).arg(n3);
}

bool isHostStage(const std::string& stage) {
  const StageInfo* info = StageRegistry::find(stage);
  return info && !info->opencl;
}

// Stage ids in the teaching order of the registry, then unknown ones (a newer file) as they come.
QStringList stageOrder(const std::vector<const BenchmarkRun*>& runs) {
  std::vector<std::string> known = StageRegistry::ids(), order;
  for (const auto& id : known)
    for (const BenchmarkRun* run : runs)
      if (std::any_of(run->report.rows.begin(), run->report.rows.end(), [&](const BenchmarkRow& r) { return r.stage == id; })) {
        order.push_back(id);
        break;
      }
  for (const BenchmarkRun* run : runs)
    for (const BenchmarkRow& r : run->report.rows)
      if (std::find(order.begin(), order.end(), r.stage) == order.end()) order.push_back(r.stage);
  QStringList out;
  for (const auto& s : order) out << QString::fromStdString(s);
  return out;
}

const BenchmarkRow* rowOf(const BenchmarkReport& report, const QString& stage) {
  for (const BenchmarkRow& r : report.rows)
    if (QString::fromStdString(r.stage) == stage && r.error.empty() && r.throughput.mpts > 0.0) return &r;
  return nullptr;
}

// A log axis over whole decades that holds [lo, hi], labelled every decade, or every second one when
// there are more than `mostLabels` decades (a narrow axis keeps its labels apart).
// The range is kept to what a measurement can be (kMaxPlausibleRate): Qt Charts lays out a log axis over
// hundreds of decades (a damaged report's 1e308) until it fails.
void setDecades(QLogValueAxis* axis, double lo, double hi, int mostLabels) {
  constexpr double kLowest = 1e-6, kHighest = 10.0 * kMaxPlausibleRate;
  lo = std::isfinite(lo) ? std::clamp(lo, kLowest, kHighest / 10.0) : kLowest;
  hi = std::isfinite(hi) ? std::clamp(hi, lo * 10.0, kHighest) : kHighest;
  const double first = std::floor(std::log10(lo)), last = std::ceil(std::log10(hi));
  const bool sparse = last - first > mostLabels;
  axis->setBase(sparse ? 100.0 : 10.0);
  axis->setMinorTickCount(sparse ? 1 : 8);  // a tick at every decade, or at 2..9 of each
  axis->setRange(std::pow(10.0, first), std::pow(10.0, last));
}

QLogValueAxis* logAxis(const QString& title) {
  auto* axis = new QLogValueAxis;
  axis->setBase(10.0);
  axis->setLabelFormat("%g");
  axis->setTitleText(title);
  return axis;
}

void replaceAxes(QChart* chart) {
  chart->removeAllSeries();
  for (QAbstractAxis* axis : chart->axes()) {
    chart->removeAxis(axis);
    delete axis;
  }
}

QChart* newChart(const QString& title) {
  auto* chart = new QChart;
  chart->setTitle(title);
  chart->legend()->setAlignment(Qt::AlignBottom);
  chart->setMargins(QMargins(2, 2, 2, 2));
  chart->layout()->setContentsMargins(0, 0, 0, 0);
  chart->setBackgroundRoundness(0);
  return chart;
}

QString runDevice(const BenchmarkReport& report) {
  for (const BenchmarkRow& r : report.rows)
    if (!isHostStage(r.stage) && !r.device.empty()) return QString::fromStdString(r.device);
  return report.hostCpu.empty() ? QString("host CPU") : QString::fromStdString(report.hostCpu);
}

QString shortDeviceName(const std::string& device) {
  const QString name = QString::fromStdString(device);
  if (name.startsWith("pthread-")) return "PoCL CPU";  // PoCL names its CPU device pthread-<cpu>-<model>
  for (const QString& word : name.split(' ', Qt::SkipEmptyParts))
    if (word.contains(QRegularExpression("[0-9]")) && word.contains(QRegularExpression("[A-Za-z]")) && word.size() <= 10)
      return word;  // the model: H100, A100, MI250X, M2
  return elided(name, 12);
}

QString runGrid(const BenchmarkReport& report) {
  if (report.rows.empty()) return {};
  const BenchmarkRow& r = report.rows.front();
  return gridText(r.n1, r.n2, r.n3);
}

// "#2 H100 512³": the run's number in the panel's list of runs, its device's model and grid; with more
// than two runs only "#2": the legend below a chart a third of the window wide holds two names, and
// the list says what each number is.
QString legendName(const BenchmarkRun* run, std::size_t runs) {
  return QStringLiteral("#%1").arg(run->number) + (runs <= 2 ? " " + benchmarkRunShortLabel(run->report) : QString());
}

}  // namespace

QString benchmarkRunLabel(const BenchmarkReport& report) {
  QString date = QString::fromStdString(report.date);
  date.replace('T', ' ');
  date = date.left(16);  // minutes are enough to tell runs apart
  const QString grid = runGrid(report);
  return elided(runDevice(report), 28) + " · " + date + (grid.isEmpty() ? "" : " · " + grid);
}

QString benchmarkRunShortLabel(const BenchmarkReport& report) {
  return shortDeviceName(runDevice(report).toStdString()) + " " + runGrid(report);
}

std::vector<BenchmarkReport> splitByGrid(const BenchmarkReport& report) {
  std::vector<BenchmarkReport> out;
  for (const BenchmarkRow& row : report.rows) {
    const auto same = std::find_if(out.begin(), out.end(), [&](const BenchmarkReport& r) {
      const BenchmarkRow& f = r.rows.front();
      return f.n1 == row.n1 && f.n2 == row.n2 && f.n3 == row.n3;
    });
    if (same != out.end()) {
      same->rows.push_back(row);
      continue;
    }
    BenchmarkReport part = report;
    part.rows = {row};
    out.push_back(std::move(part));
  }
  if (out.empty()) out.push_back(report);
  return out;
}

bool deviceOnHostCores(const std::string& device) {
  for (const DeviceInfo& d : listDevices())
    if (d.name == device) return d.type == "CPU";
  // A device of another machine: PoCL names its CPU device pthread-<cpu>, CPU runtimes say CPU.
  const QString name = QString::fromStdString(device);
  return name.startsWith("pthread-") || name.contains(QRegularExpression("\\bCPU\\b"));
}

bool runsOnHostCores(const BenchmarkRow& row) { return isHostStage(row.stage) || deviceOnHostCores(row.device); }

std::vector<DeviceRoofline> rooflinesOfReport(const BenchmarkReport& report) {
  std::vector<DeviceRoofline> out;
  // The host's memcpy ceiling (a CPU stage's row) first: the roof of every stage on the host's cores.
  std::vector<const BenchmarkRow*> rows;
  for (const BenchmarkRow& r : report.rows) rows.push_back(&r);
  std::stable_partition(rows.begin(), rows.end(), [](const BenchmarkRow* r) { return isHostStage(r->stage); });
  for (const BenchmarkRow* r : rows) {
    if (r->throughput.ceilingGBs <= 0.0) continue;
    const bool host = runsOnHostCores(*r);
    const std::string device = host ? "host CPU" : r->device;
    if (std::any_of(out.begin(), out.end(), [&](const DeviceRoofline& d) { return d.device == device; })) continue;
    DeviceRoofline d;
    d.device = device;
    d.host = host;
    d.memory.min = d.memory.median = d.memory.max = r->throughput.ceilingGBs;
    d.memoryProbe = r->ceilingName + " (as stored in the file)";
    d.error = "the file holds no compute ceiling";
    out.push_back(std::move(d));
  }
  return out;
}

void onePerMemory(std::vector<DeviceRoofline>& rooflines, const std::function<DeviceRoofline()>& hostRoof) {
  const auto onHost = [](const DeviceRoofline& d) { return !d.host && deviceOnHostCores(d.device); };
  const auto cpuDevice = std::find_if(rooflines.begin(), rooflines.end(), onHost);
  if (cpuDevice == rooflines.end()) return;
  auto host = std::find_if(rooflines.begin(), rooflines.end(), [](const DeviceRoofline& d) { return d.host; });
  if (host == rooflines.end()) {
    DeviceRoofline made = hostRoof();
    made.compute = cpuDevice->compute;  // the same processor: its FMA probe through OpenCL
    made.computeProbe = cpuDevice->computeProbe;
    rooflines.push_back(std::move(made));
  }
  std::erase_if(rooflines, onHost);
}

void measureOnHostMemory(BenchmarkReport& report, const std::vector<DeviceRoofline>& rooflines) {
  const auto host = std::find_if(rooflines.begin(), rooflines.end(), [](const DeviceRoofline& d) { return d.host; });
  if (host == rooflines.end() || host->memory.median <= 0.0) return;
  for (BenchmarkRow& row : report.rows)
    if (!isHostStage(row.stage) && runsOnHostCores(row) && row.error.empty()) {
      row.throughput = onOtherCeiling(row.throughput, host->memory.median);
      row.ceilingName = std::string(kHostCeilingName) + " (the OpenCL device runs on the host's cores)";
    }
}

Throughput onOtherCeiling(Throughput t, double ceilingGBs) {
  t.ceilingGBs = ceilingGBs;
  t.rooflinePercent = ceilingGBs > 0.0 ? 100.0 * t.gbsTraffic / ceilingGBs : 0.0;
  return t;
}

BenchmarkChart::BenchmarkChart(const QString& title, QWidget* parent) : QChartView(newChart(title), parent) {
  setRenderHint(QPainter::Antialiasing);
  setMinimumSize(260, 220);
}

QImage BenchmarkChart::image() { return grab().toImage(); }

bool BenchmarkChart::save(const QString& path, QString& error) {
  // A plain-text title (the chart's may break lines).
  return writePictureFile(path, size(), QString(chart()->title()).replace("<br>", " — "),
                          [this](QPainter& painter) { render(&painter); }, error);
}

// --- throughput -------------------------------------------------------------------------------------

ThroughputChart::ThroughputChart(QWidget* parent) : BenchmarkChart("Throughput per stage", parent) {
  rebuild();
}

void ThroughputChart::setRuns(const std::vector<const BenchmarkRun*>& runs) {
  runs_ = runs;
  rebuild();
}

void ThroughputChart::setLogScale(bool log) {
  log_ = log;
  rebuild();
}

void ThroughputChart::rebuild() {
  QChart* c = chart();
  replaceAxes(c);
  QStringList stages = stageOrder(runs_);
  std::reverse(stages.begin(), stages.end());  // horizontal bars count upwards: the first stage on top
  auto* series = new QHorizontalBarSeries;
  double lo = 0.0, hi = 0.0;
  for (const BenchmarkRun* run : runs_) {
    auto* set = new QBarSet(legendName(run, runs_.size()));
    for (const QString& stage : stages) {
      const BenchmarkRow* row = rowOf(run->report, stage);
      const double v = row ? row->throughput.mpts : 0.0;
      *set << v;
      if (v > 0.0) {
        lo = lo > 0.0 ? std::min(lo, v) : v;
        hi = std::max(hi, v);
      }
    }
    series->append(set);
  }
  c->addSeries(series);
  auto* categories = new QBarCategoryAxis;
  categories->append(stages);
  c->addAxis(categories, Qt::AlignLeft);
  series->attachAxis(categories);
  QAbstractAxis* values = nullptr;
  if (log_) {
    auto* axis = logAxis("Mpts/s (log)");
    setDecades(axis, lo > 0.0 ? lo / 2.0 : 1.0, hi > 0.0 ? hi * 2.0 : 10.0, 4);
    values = axis;
  } else {
    auto* axis = new QValueAxis;
    axis->setTitleText("Mpts/s");
    axis->setRange(0.0, hi > 0.0 ? hi * 1.05 : 1.0);
    axis->setLabelFormat("%g");
    axis->applyNiceNumbers();
    values = axis;
  }
  c->addAxis(values, Qt::AlignBottom);
  series->attachAxis(values);
  c->legend()->setVisible(runs_.size() > 1);
}

// --- roofline ---------------------------------------------------------------------------------------

RooflineChart::RooflineChart(QWidget* parent) : BenchmarkChart("Roofline", parent) {
  connect(chart(), &QChart::plotAreaChanged, this, [this] { placeLabels(); });
  rebuild();
}

void RooflineChart::setRuns(const std::vector<const BenchmarkRun*>& runs) {
  runs_ = runs;
  rebuild();
}

void RooflineChart::setBytesPerPoint(double bytes) {
  bytesPerPoint_ = bytes;
  rebuild();
}

int RooflineChart::stagePointCount() const {
  int n = 0;
  for (QAbstractSeries* s : chart()->series())
    if (auto* scatter = qobject_cast<QScatterSeries*>(s)) n += scatter->count();
  return n;
}

int RooflineChart::ceilingLineCount() const {
  int n = 0;
  for (QAbstractSeries* s : chart()->series()) n += qobject_cast<QLineSeries*>(s) && !qobject_cast<QScatterSeries*>(s);
  return n;
}

void RooflineChart::resizeEvent(QResizeEvent* event) {
  BenchmarkChart::resizeEvent(event);
  placeLabels();
}

namespace {

// Where a roof's figures sit (its right end, or where a memory-only roof leaves the chart) and its text.
struct RoofLine {
  QLineSeries* series;
  QPointF anchor;
  QString text, fullName;
};

// The roof of one memory: bandwidth × intensity up to the ridge, then the compute roof; without a compute
// ceiling only the memory roof (dashed).
RoofLine roofOf(const DeviceRoofline& d, double referenceIntensity) {
  auto* roof = new QLineSeries;
  const double bw = d.memory.median, peak = d.compute.median;
  const QString device = d.host ? QString("host") : shortDeviceName(d.device);
  QString text = device + ": " + number(bw) + " GB/s";
  QPointF anchor;
  if (peak > 0.0) {
    const double ridge = std::clamp(peak / bw, kMinIntensity, kMaxIntensity);
    roof->append(kMinIntensity, std::min(peak, bw * kMinIntensity));
    roof->append(ridge, std::min(peak, bw * ridge));
    roof->append(kMaxIntensity, std::min(peak, bw * kMaxIntensity));
    text += ", " + number(peak) + " GFLOP/s";
    anchor = QPointF(kMaxIntensity, std::min(peak, bw * kMaxIntensity));
  } else {
    roof->append(kMinIntensity, bw * kMinIntensity);
    roof->append(kMaxIntensity, bw * kMaxIntensity);
    QPen pen = roof->pen();
    pen.setStyle(Qt::DashLine);
    roof->setPen(pen);
    anchor = QPointF(referenceIntensity * 4.0, bw * referenceIntensity * 4.0);
  }
  roof->setName(device + " roof");
  const QString full = QString::fromStdString(d.host ? "the host's memory (every stage on its cores, PoCL included)" : d.device) +
                       (d.memoryProbe.empty() ? QString() : "\nmemory: " + QString::fromStdString(d.memoryProbe)) +
                       (d.computeProbe.empty() ? QString() : "\ncompute: " + QString::fromStdString(d.computeProbe));
  return {roof, anchor, text, full};
}

QGraphicsSimpleTextItem* smallLabel(const QString& text, const QString& tip, QGraphicsItem* parent) {
  auto* label = new QGraphicsSimpleTextItem(text, parent);
  QFont font = label->font();
  font.setPointSizeF(font.pointSizeF() * 0.85);
  label->setFont(font);
  label->setToolTip(tip);
  label->setZValue(1000.0);  // above the grid lines, which would otherwise cross out letters
  return label;
}

}  // namespace

double RooflineChart::intensityOf(const BenchmarkRow& row) const {
  return kFlopsPerPoint / (bytesPerPoint_ > 0.0 ? bytesPerPoint_ : row.bytesPerPointStep > 0.0 ? row.bytesPerPointStep : kTrafficBytesPerPoint);
}

void RooflineChart::rebuild() {
  QChart* c = chart();
  for (const PointLabel& l : labels_) delete l.item;
  for (const PointLabel& l : roofLabels_) delete l.item;
  labels_.clear();
  roofLabels_.clear();
  replaceAxes(c);
  c->setTitle(bytesPerPoint_ > 0.0 ? QStringLiteral("Roofline, every stage at %1 B/pt (61 flop/pt: %2 flop/B)").arg(bytesPerPoint_).arg(kFlopsPerPoint / bytesPerPoint_, 0, 'g', 3)
                                   : QStringLiteral("Roofline, each stage at its own bytes per point (61 flop/pt)"));
  auto* x = logAxis("arithmetic intensity (flop/B)");
  x->setRange(kMinIntensity, kMaxIntensity);
  auto* y = logAxis("GFLOP/s");
  c->addAxis(x, Qt::AlignBottom);
  c->addAxis(y, Qt::AlignLeft);
  double lo = 0.0, hi = 0.0;
  const auto extend = [&](double v) {
    if (v <= 0.0) return;
    lo = lo > 0.0 ? std::min(lo, v) : v;
    hi = std::max(hi, v);
  };
  addRoofs(x, y, extend);
  addPoints(x, y, extend);
  setDecades(y, lo > 0.0 ? lo : 1.0, hi > 0.0 ? hi * 1.5 : 10.0, 6);
  c->legend()->setVisible(true);
  placeLabels();
}

// One roof per physical memory: the runs' rooflines, the same ceiling in two runs drawn once.
void RooflineChart::addRoofs(QAbstractAxis* x, QAbstractAxis* y, const std::function<void(double)>& extend) {
  QChart* c = chart();
  std::set<std::string> drawn;
  for (const BenchmarkRun* run : runs_)
    for (const DeviceRoofline& d : run->rooflines) {
      if (d.memory.median <= 0.0 || !drawn.insert(d.device + "/" + std::to_string(d.memory.median)).second) continue;
      const RoofLine roof = roofOf(d, kFlopsPerPoint / kTrafficBytesPerPoint);
      for (const QPointF& p : roof.series->points()) extend(p.y());
      extend(roof.anchor.y());
      c->addSeries(roof.series);
      roof.series->attachAxis(x);
      roof.series->attachAxis(y);
      // Labelled on the line in its colour, not in the legend, which keeps the room for the runs.
      for (QLegendMarker* marker : c->legend()->markers(roof.series)) marker->setVisible(false);
      QGraphicsSimpleTextItem* label = smallLabel(roof.text, roof.fullName, c);
      label->setBrush(roof.series->pen().color());
      roofLabels_.push_back({roof.anchor, label});
    }
}

// Each run's stages as points, each at its own intensity; the first run's named beside them.
void RooflineChart::addPoints(QAbstractAxis* x, QAbstractAxis* y, const std::function<void(double)>& extend) {
  QChart* c = chart();
  const QList<QScatterSeries::MarkerShape> shapes = {QScatterSeries::MarkerShapeCircle, QScatterSeries::MarkerShapeRectangle,
                                                     QScatterSeries::MarkerShapeTriangle, QScatterSeries::MarkerShapeStar};
  for (std::size_t n = 0; n < runs_.size(); ++n) {
    const BenchmarkRun* run = runs_[n];
    auto* points = new QScatterSeries;
    points->setName(runs_.size() == 1 ? QString("stages") : legendName(run, runs_.size()));
    points->setMarkerShape(shapes[int(n) % shapes.size()]);
    points->setMarkerSize(9.0);
    std::vector<QString> names;
    for (const BenchmarkRow& r : run->report.rows) {
      if (!r.error.empty() || r.throughput.gflops <= 0.0) continue;
      points->append(intensityOf(r), r.throughput.gflops);
      names.push_back(QString::fromStdString(r.stage) + QStringLiteral(" (%1 B/pt)").arg(r.bytesPerPointStep, 0, 'g', 3));
      extend(r.throughput.gflops);
    }
    c->addSeries(points);
    points->attachAxis(x);
    points->attachAxis(y);
    connect(points, &QScatterSeries::hovered, this, [points, names, run](const QPointF& p, bool on) {
      if (!on) return QToolTip::hideText();
      QStringList here;  // every stage at this point (stages of equal rates share one)
      for (int i = 0; i < points->count(); ++i)
        if (points->at(i) == p) here << names[std::size_t(i)];
      QToolTip::showText(QCursor::pos(), QStringLiteral("%1: %2 GFLOP/s at %3 flop/B\n%4")
                                             .arg(here.join(", ")).arg(p.y(), 0, 'g', 4).arg(p.x(), 0, 'g', 3).arg(run->label));
    });
    if (n == 0)
      for (int i = 0; i < points->count(); ++i) {
        const QString id = names[std::size_t(i)].section(' ', 0, 0);
        labels_.push_back({points->at(i), smallLabel(id, names[std::size_t(i)] + "\n" + run->label, c)});
      }
  }
}

void RooflineChart::placeLabels() {
  if (chart()->series().isEmpty()) return;
  QAbstractSeries* any = chart()->series().constLast();
  std::vector<QRectF> taken;  // the labels placed so far
  // Roof labels: right-aligned above their anchor, the higher ones pushed up clear of the ones below,
  // so that no label sits on a roof line (two devices with one compute ceiling share its line).
  std::vector<std::pair<QPointF, QGraphicsSimpleTextItem*>> roofs;
  for (const PointLabel& l : roofLabels_) roofs.emplace_back(chart()->mapToPosition(l.value, any), l.item);
  std::sort(roofs.begin(), roofs.end(), [](const auto& a, const auto& b) { return a.first.y() > b.first.y(); });
  double above = 1e9;  // the top of the label placed below
  for (auto& [pos, item] : roofs) {
    const QRectF box = item->boundingRect();
    const double y = std::min(pos.y(), above) - box.height() - 1.0;
    item->setPos(std::max(chart()->plotArea().left(), pos.x() - box.width() - 2.0), y);
    taken.push_back(item->sceneBoundingRect());
    above = y;
  }
  placePointLabels(any, taken);
}

// Points that lie on each other (stages of nearly equal rates and bytes) share one label, "a, b"; each
// label goes to the first place around its point (right, left, above, below, then further out) that
// covers no other label, no point and stays in the plot; where points crowd so that none does, the first
// that covers no other label (in the plot if it can), so that a label may hide a point but never a name.
void RooflineChart::placePointLabels(QAbstractSeries* any, std::vector<QRectF>& taken) {
  constexpr double kSamePoint = 7.0, kGap = 6.0;
  constexpr int kRings = 8;
  std::vector<QRectF> points;
  struct Group {
    QPointF at;
    std::vector<QGraphicsSimpleTextItem*> items;
  };
  std::vector<Group> groups;
  for (const PointLabel& l : labels_) {
    const QPointF at = chart()->mapToPosition(l.value, any);
    points.push_back(QRectF(at - QPointF(5, 5), QSizeF(10, 10)));
    const auto near = std::find_if(groups.begin(), groups.end(), [&](const Group& g) { return QLineF(g.at, at).length() < kSamePoint; });
    if (near != groups.end()) near->items.push_back(l.item);
    else groups.push_back({at, {l.item}});
  }
  const QRectF plot = chart()->plotArea();
  for (Group& g : groups) {
    QGraphicsSimpleTextItem* shown = g.items.front();
    QStringList names, tips;
    for (QGraphicsSimpleTextItem* item : g.items) {
      names << item->text().section(',', 0, 0);
      tips << item->toolTip();
      item->setVisible(item == shown);
    }
    if (g.items.size() > 1) {
      shown->setText(names.join(", "));
      shown->setToolTip(tips.join("\n"));
    }
    const QSizeF size = shown->boundingRect().size();
    const double w = size.width(), h = size.height();
    std::vector<QPointF> candidates;
    for (int ring = 0; ring < kRings; ++ring) {
      const double d = kGap + ring * h;
      for (const QPointF& offset : {QPointF(d, -h / 2), QPointF(-d - w, -h / 2), QPointF(-w / 2, -d - h), QPointF(-w / 2, d),
                                    QPointF(d, -h - d / 2), QPointF(d, d / 2), QPointF(-d - w, -h - d / 2), QPointF(-d - w, d / 2)})
        candidates.push_back(g.at + offset);
    }
    const auto covers = [](const std::vector<QRectF>& rects, const QRectF& r) {
      return std::any_of(rects.begin(), rects.end(), [&](const QRectF& t) { return t.intersects(r); });
    };
    // The tiers, most wanted first: clear of labels and points in the plot; clear of labels in the plot;
    // clear of labels.
    const std::function<bool(const QRectF&)> tiers[] = {
        [&](const QRectF& r) { return plot.contains(r) && !covers(taken, r) && !covers(points, r); },
        [&](const QRectF& r) { return plot.contains(r) && !covers(taken, r); },
        [&](const QRectF& r) { return !covers(taken, r); }};
    QPointF place = candidates.front();
    for (const auto& fits : tiers) {
      const auto found = std::find_if(candidates.begin(), candidates.end(), [&](const QPointF& p) { return fits(QRectF(p, size)); });
      if (found == candidates.end()) continue;
      place = *found;
      break;
    }
    shown->setPos(place);
    taken.push_back(QRectF(place, size));
  }
}

// --- tuning sweep -----------------------------------------------------------------------------------

SweepChart::SweepChart(QWidget* parent) : BenchmarkChart("Tuning sweep", parent) {
  connect(chart(), &QChart::plotAreaChanged, this, &SweepChart::fitCandidateLabels);
  setSweep(nullptr, -1);
}

std::vector<std::string> SweepChart::varyingParameters(const SweepResult& sweep) {
  std::set<std::string> varying;
  for (const StageTiming& a : sweep.candidates)
    for (const auto& [key, value] : a.params)
      for (const StageTiming& b : sweep.candidates) {
        const auto it = b.params.find(key);
        if (it == b.params.end() || it->second != value) varying.insert(key);
      }
  return {varying.begin(), varying.end()};
}

std::vector<QString> SweepChart::candidateLabels(const SweepResult& sweep) {
  const std::vector<std::string> keys = varyingParameters(sweep);
  std::vector<QString> out;
  for (std::size_t n = 0; n < sweep.candidates.size(); ++n) {
    if (keys.size() > kLabelledParameters) {
      out.push_back(QString::number(n + 1));
      continue;
    }
    QStringList values;
    for (const std::string& key : keys) {
      const auto it = sweep.candidates[n].params.find(key);
      values << (it == sweep.candidates[n].params.end() ? QString("–") : QString::number(it->second));
    }
    out.push_back(QStringLiteral("%1: %2").arg(n + 1).arg(values.join(" · ")));
  }
  return out;
}

int SweepChart::candidateCount() const { return int(shown_.size()); }

bool SweepChart::candidateLabelsShown() const { return candidates_ && candidates_->labelsVisible(); }

void SweepChart::fitCandidateLabels() {
  if (!candidates_ || candidates_->count() == 0) return;
  const double height = chart()->plotArea().height();
  const bool labels = height / candidates_->count() >= QFontMetricsF(candidates_->labelsFont()).height();
  candidates_->setLabelsVisible(labels);
  // The title names the labels' values; without labels beside it Qt Charts elides it whole to "⋮", so it
  // goes with them (the chart's own title says what the bars are).
  candidates_->setTitleVisible(labels);
}

void SweepChart::setSweep(const SweepResult* sweep, int chosen) {
  QChart* c = chart();
  replaceAxes(c);
  candidates_ = nullptr;
  shown_.clear();
  if (!sweep) {
    c->setTitle("Tuning sweep (run gpu-slm or gpu-optimized)");
    return;
  }
  c->setTitle("Tuning sweep: " + QString::fromStdString(sweep->stage) + " on " + gridText(sweep->grid.n1, sweep->grid.n2, sweep->grid.n3) +
              (sweep->withoutLayer ? QStringLiteral("<br>timed without the absorbing layer") : QString()));
  const std::vector<QString> labels = candidateLabels(*sweep);
  auto* others = new QBarSet("candidate");
  auto* fastest = new QBarSet(chosen == sweep->best ? "fastest (chosen)" : "fastest");
  auto* picked = new QBarSet("chosen");
  fastest->setColor(QColor(0x2e, 0x9e, 0x44));
  picked->setColor(QColor(0xe0, 0x8a, 0x1e));
  QStringList categories;
  double hi = 0.0;
  // Bottom to top: the first candidate on top.
  for (int i = int(sweep->candidates.size()) - 1; i >= 0; --i) {
    const StageTiming& t = sweep->candidates[std::size_t(i)];
    if (!t.error.empty() || t.mpts <= 0.0) continue;
    shown_.push_back(i);
    categories << labels[std::size_t(i)];
    *others << (i != sweep->best && i != chosen ? t.mpts : 0.0);
    *fastest << (i == sweep->best ? t.mpts : 0.0);
    *picked << (i == chosen && i != sweep->best ? t.mpts : 0.0);
    hi = std::max(hi, t.mpts);
  }
  auto* series = new QHorizontalStackedBarSeries;
  series->append({others, fastest, picked});
  for (QBarSet* set : {others, fastest, picked})
    connect(set, &QBarSet::clicked, this, [this](int bar) {
      if (bar >= 0 && bar < int(shown_.size())) emit candidateClicked(shown_[std::size_t(bar)]);
    });
  c->addSeries(series);
  auto* axisY = new QBarCategoryAxis;
  axisY->append(categories);
  QStringList keys;
  for (const std::string& key : varyingParameters(*sweep)) keys << QString::fromStdString(key);
  const QString title = std::size_t(keys.size()) > kLabelledParameters
                            ? QStringLiteral("candidate (click one: its values below)")
                            : "candidate: " + keys.join(" · ");
  axisY->setTitleText(title);
  c->addAxis(axisY, Qt::AlignLeft);
  series->attachAxis(axisY);
  candidates_ = axisY;
  fitCandidateLabels();
  auto* axisX = new QValueAxis;
  axisX->setTitleText("Mpts/s");
  axisX->setRange(0.0, hi > 0.0 ? hi * 1.1 : 1.0);
  axisX->setLabelFormat("%g");
  axisX->applyNiceNumbers();
  c->addAxis(axisX, Qt::AlignBottom);
  series->attachAxis(axisX);
  // The "chosen" entry only when it differs from the fastest.
  const QList<QLegendMarker*> markers = c->legend()->markers(series);
  if (markers.size() == 3) markers[2]->setVisible(chosen != sweep->best && chosen >= 0);
}

}  // namespace iso
