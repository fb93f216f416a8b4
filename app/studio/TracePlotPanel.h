#pragma once
// The receivers' live panel: the trace plot and the live seismogram (variable density or wiggles), side
// by side in a wide panel and one above the other in a tall one. It takes the controller's latest LiveTraces a few times a second while it is shown (a
// pointer copy: the GUI never waits for the compute thread) and redraws only when they changed.
#include <QTimer>
#include <QWidget>
#include <memory>

#include "app/controller/SimulationController.h"
#include "app/studio/SeismogramImage.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QSplitter;
class QStackedWidget;

namespace iso {

class SeismogramView;
class TracePlot;

class TracePlotPanel : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kRefreshMs = 150;  // about seven updates a second, fewer when the plot is slow

  explicit TracePlotPanel(SimulationController& controller, QWidget* parent = nullptr);

  TracePlot* plot() const { return plot_; }
  SeismogramView* seismogram() const { return seismogram_; }
  QComboBox* styleBox() const { return style_; }
  QCheckBox* normalizeBox() const { return normalize_; }
  const std::shared_ptr<const LiveTraces>& shown() const { return shown_; }
  void refresh();  // takes the latest traces now (the timer does it while the panel is visible)
  // How the seismogram is drawn here (style, normalisation, offsets), for its export.
  SeismogramOptions seismogramOptions() const;

 protected:
  void resizeEvent(QResizeEvent* event) override;
  void showEvent(QShowEvent* event) override;  // the latest traces at once, not at the next tick

 private:
  SimulationController& controller_;
  QTimer timer_;
  std::shared_ptr<const LiveTraces> shown_;
  QStackedWidget* stack_ = nullptr;
  QSplitter* splitter_ = nullptr;
  QLabel* window_ = nullptr;  // which samples are shown
  TracePlot* plot_ = nullptr;
  SeismogramView* seismogram_ = nullptr;
  QComboBox* style_ = nullptr;
  QCheckBox* normalize_ = nullptr;
};

}  // namespace iso
