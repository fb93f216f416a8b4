#pragma once
// The lesson's Summary page: the staircase of every stage it covered (StaircaseChart: Mpts/s and % of
// roofline per stage, the learner's predictions beside the measurements), a table of the steps, and the
// exports: the chart as PNG or SVG, and the one-page PDF handout.
#include <QWidget>
#include <map>
#include <string>
#include <vector>

#include "app/studio/LessonHandout.h"
#include "app/studio/LessonPlan.h"

class QLabel;
class QTableWidget;

namespace iso {

class StaircaseChart;

class LessonSummaryPage : public QWidget {
  Q_OBJECT
 public:
  explicit LessonSummaryPage(QWidget* parent = nullptr);

  // `subtitle`: device, grid and date; `takeaways` by stage id.
  void setContent(const std::vector<StaircaseEntry>& entries, const std::map<std::string, QString>& takeaways, const QString& subtitle);
  StaircaseChart* chart() const { return chart_; }
  QTableWidget* table() const { return table_; }
  bool writeHandout(const QString& path, QString& error) const;

 signals:
  void message(const QString& text, bool error);

 private:
  void saveChartAs(const QString& format);
  void saveHandoutAs();

  StaircaseChart* chart_ = nullptr;
  QTableWidget* table_ = nullptr;
  QLabel* subtitle_ = nullptr;
  HandoutContent content_;
};

}  // namespace iso
