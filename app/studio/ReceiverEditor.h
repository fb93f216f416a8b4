#pragma once
// The receivers of a scenario: a table of their cells (i, j, k) and positions in metres, numbered and
// coloured as in the view and the trace plots. Cells are edited in place (within the grid); rows are
// deleted with the Delete button or key; "Add line…" adds evenly spaced receivers between two cells;
// a Shift+click on a slice adds one (through addReceiver). A receiver inside the absorbing layer is
// tinted, its tooltip says its trace is damped.
#include <QList>
#include <QString>
#include <array>
#include <vector>

#include "app/studio/ScenarioSection.h"

class QDialog;
class QTableWidget;

namespace iso {

class ReceiverEditor : public ScenarioSection {
  Q_OBJECT
 public:
  static constexpr int kMaxLineCount = 1000;  // receivers one "Add line…" may add

  explicit ReceiverEditor(QWidget* parent = nullptr);

  void setFromScenario(const Scenario& scenario) override;
  void applyTo(Scenario& scenario) const override;

  const std::vector<ReceiverSpec>& receivers() const { return receivers_; }
  QTableWidget* table() const { return table_; }

  // Each emits receiversChanged() once. Cells are clamped into the grid.
  void addReceiver(int i, int j, int k);
  // `count` receivers (1 to kMaxLineCount) evenly spaced from `from` to `to`, both included, rounded to
  // cells; one receiver at `from` when count is 1.
  void addLine(const std::array<int, 3>& from, const std::array<int, 3>& to, int count);
  void removeReceivers(QList<int> rows);
  // The "Add line…" dialog (not modal); its OK calls addLine.
  QDialog* openLineDialog();

  void setSpacing(double dx);  // the metres column follows the form's grid spacing
  // The running grid's size and absorbing layer (cells along x, y, z), as SourceEditor's.
  void setAbsorbingLayer(const std::array<int, 3>& grid, const std::array<int, 3>& layer);

 signals:
  void receiversChanged();

 private:
  void showReceivers();  // the table from receivers_
  void onCellEdited(int row, int column);
  std::array<int, 3> clamped(const std::array<int, 3>& cell) const;

  QTableWidget* table_ = nullptr;
  std::vector<ReceiverSpec> receivers_;
  std::array<int, 3> grid_{1, 1, 1};   // the form's grid (n1, n2, n3)
  std::array<int, 3> layer_{0, 0, 0};  // the running absorbing layer's width per axis
  std::array<int, 3> layerGrid_{0, 0, 0};  // the grid that layer belongs to
  double dx_ = 10.0;
};

}  // namespace iso
