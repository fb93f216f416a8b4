#pragma once
// The benchmark panel's three charts (Qt Charts), each drawn from the runs the panel shows: throughput
// per stage (bars, one set per run), the roofline (log-log: each device's memory and compute ceilings,
// each stage a point) and a tuning sweep (throughput per candidate, the fastest and the chosen marked).
// Every chart saves itself as PNG or SVG, written whole or not at all (core/OutputFile).
#include <QChartView>
#include <QString>
#include <functional>
#include <vector>

#include "app/controller/BenchmarkRunner.h"

class QAbstractAxis;
class QBarCategoryAxis;
class QAbstractSeries;
class QGraphicsSimpleTextItem;

namespace iso {

// One run the panel shows: the one made here or one loaded from an `iso3dfd bench --json` file.
struct BenchmarkRun {
  BenchmarkReport report;
  QString label;                          // for legends: device and date
  QString file;                           // where it was loaded from; "" for a run made here
  std::vector<DeviceRoofline> rooflines;  // measured here, or read from the rows' ceilings (no spread)
  int number = 1;                         // in the panel's list of runs, for short legends ("#2 H100 512³")
};

// "NVIDIA H100 80GB HBM3 · 2026-11-23 19:30 · 512³" (the first OpenCL device of the rows, else the
// host's CPU), and the short form for legends: "H100 512³".
QString benchmarkRunLabel(const BenchmarkReport& report);
QString benchmarkRunShortLabel(const BenchmarkReport& report);
// One report per grid of `report`, in the order the grids first appear (`iso3dfd bench --sizes` writes
// the rows of several cubes into one file; each becomes a run of its own).
std::vector<BenchmarkReport> splitByGrid(const BenchmarkReport& report);
// One memory roof per physical memory: every stage that runs on the host's cores (a CPU stage, or an
// OpenCL stage on a CPU device such as PoCL) is measured against the host's copy bandwidth, so that
// their % of roofline compare. Whether a device runs on the host's cores: this machine's device of that
// name is a CPU, or (a device of another machine) its name is PoCL's or says CPU.
bool deviceOnHostCores(const std::string& device);
bool runsOnHostCores(const BenchmarkRow& row);
// The memory ceilings a loaded report names (ceiling_gbs), one per memory: the host's (its CPU stages'
// memcpy, else the first ceiling of a stage on its cores) and each other device's; no spread or compute.
std::vector<DeviceRoofline> rooflinesOfReport(const BenchmarkReport& report);
// Measured rooflines, one per memory: the roof of an OpenCL device on the host's cores goes, the host's
// stands for it (`hostRoof()` makes it when there is none; it takes the device's compute ceiling).
void onePerMemory(std::vector<DeviceRoofline>& rooflines, const std::function<DeviceRoofline()>& hostRoof);
// The rows of OpenCL stages on the host's cores measured against the host's roof in `rooflines`.
void measureOnHostMemory(BenchmarkReport& report, const std::vector<DeviceRoofline>& rooflines);

// What the CPU stages' % of roofline is measured against (as the rows and the counters name it).
inline constexpr const char* kHostCeilingName = "host memcpy bandwidth";
// `t` measured against another memory ceiling (GB/s): its share of the roofline follows; the rates stay.
Throughput onOtherCeiling(Throughput t, double ceilingGBs);

// The base of the three: a chart view that saves what it shows.
class BenchmarkChart : public QChartView {
  Q_OBJECT
 public:
  // Owns its chart from the start: QChartView::setChart would leave a default chart to delete.
  explicit BenchmarkChart(const QString& title, QWidget* parent = nullptr);
  // PNG or SVG by the name's extension (.png, .svg); false with `error` set when it cannot be written.
  bool save(const QString& path, QString& error);
  QImage image();  // what save writes as PNG
};

class ThroughputChart : public BenchmarkChart {
  Q_OBJECT
 public:
  explicit ThroughputChart(QWidget* parent = nullptr);
  void setRuns(const std::vector<const BenchmarkRun*>& runs);
  void setLogScale(bool log);
  bool logScale() const { return log_; }

 private:
  void rebuild();
  std::vector<const BenchmarkRun*> runs_;
  bool log_ = false;
};

class RooflineChart : public BenchmarkChart {
  Q_OBJECT
 public:
  explicit RooflineChart(QWidget* parent = nullptr);
  void setRuns(const std::vector<const BenchmarkRun*>& runs);
  // 0 (the default): each stage at its own bytes per point and step (its descriptor's, in the rows:
  // 16, or 10 for gpu-temporal); a number: every stage at that, e.g. 12 (the oneAPI sample's figure).
  void setBytesPerPoint(double bytes);
  double bytesPerPoint() const { return bytesPerPoint_; }
  double intensityOf(const BenchmarkRow& row) const;  // flop/B where the row's point is drawn
  // Points drawn per run (series "stages: <label>") and ceiling lines drawn, for tests.
  int stagePointCount() const;
  int ceilingLineCount() const;

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void rebuild();
  void addRoofs(QAbstractAxis* x, QAbstractAxis* y, const std::function<void(double)>& extend);
  void addPoints(QAbstractAxis* x, QAbstractAxis* y, const std::function<void(double)>& extend);
  // The first run's stage ids beside its points and each roof's figures above its right end, apart
  // from each other.
  void placeLabels();
  void placePointLabels(QAbstractSeries* any, std::vector<QRectF>& taken);
  std::vector<const BenchmarkRun*> runs_;
  double bytesPerPoint_ = 0.0;
  struct PointLabel {
    QPointF value;  // in the axes' units
    QGraphicsSimpleTextItem* item;
  };
  std::vector<PointLabel> labels_, roofLabels_;
};

class SweepChart : public BenchmarkChart {
  Q_OBJECT
 public:
  explicit SweepChart(QWidget* parent = nullptr);
  // Null: "no sweep". `chosen` is highlighted (normally the sweep's best).
  void setSweep(const SweepResult* sweep, int chosen);
  int candidateCount() const;  // bars drawn (candidates that ran)
  // The parameters whose values differ between the candidates, and each candidate's label: its number
  // and those values in that order ("3: 16 · 8" for tile_x · tile_y); its number alone where more than
  // kLabelledParameters differ, whose values would not fit beside a bar (the panel names the clicked one's).
  static constexpr std::size_t kLabelledParameters = 3;
  static std::vector<std::string> varyingParameters(const SweepResult& sweep);
  static std::vector<QString> candidateLabels(const SweepResult& sweep);
  // Whether the bars' labels are drawn: only while each bar's row is as tall as a line of them (Qt Charts
  // would otherwise elide every one to "…"), and the axis's title with them.
  bool candidateLabelsShown() const;

 signals:
  void candidateClicked(int index);  // an index into the sweep's candidates

 private:
  void fitCandidateLabels();  // on every change of the plot area
  std::vector<int> shown_;  // bar → candidate index
  QBarCategoryAxis* candidates_ = nullptr;  // the bars' axis, owned by the chart
};

}  // namespace iso
