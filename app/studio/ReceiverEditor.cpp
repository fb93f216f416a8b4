#include "app/studio/ReceiverEditor.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
#include <QPushButton>
#include <QShortcut>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyledItemDelegate>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "app/studio/FormControls.h"
#include "render/Overlays.h"

namespace iso {
namespace {

enum Column { Number, I, J, K, Metres, Columns };

QIcon swatch(int index) {
  QPixmap pixmap(12, 12);
  pixmap.fill(Qt::transparent);
  QPainter painter(&pixmap);
  painter.setPen(QColor(0, 0, 0, 160));
  painter.setBrush(receiverColour(index));
  painter.drawRect(0, 0, 11, 11);
  return QIcon(pixmap);
}

// Cells are edited with a spin box bounded by the grid's axis.
class CellDelegate : public QStyledItemDelegate {
 public:
  CellDelegate(const std::array<int, 3>& grid, QObject* parent) : QStyledItemDelegate(parent), grid_(grid) {}
  QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem&, const QModelIndex& index) const override {
    auto* box = new QSpinBox(parent);
    box->setRange(0, std::max(0, grid_[std::size_t(index.column() - I)] - 1));
    box->setFrame(false);
    return box;
  }

 private:
  const std::array<int, 3>& grid_;  // the editor's, kept current
};

}  // namespace

ReceiverEditor::ReceiverEditor(QWidget* parent) : ScenarioSection(parent) {
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  auto* box = new QGroupBox("Receivers");
  box->setToolTip("Cells where u is recorded at every step: their traces are plotted live (View ▸ Traces) and\n"
                  "exported with File ▸ Export data. Shift+click on a slice adds one there.");
  outer->addWidget(box);
  auto* layout = new QVBoxLayout(box);

  table_ = new QTableWidget(0, Columns);
  table_->setObjectName("receivers");
  table_->setHorizontalHeaderLabels({"#", "i", "j", "k", "x, y, z (m)"});
  table_->horizontalHeaderItem(Number)->setToolTip("Receiver number, as on its marker in the view and in the trace plots");
  for (int c : {I, J, K})
    table_->horizontalHeaderItem(c)->setToolTip("Interior cell index along " + QStringList{"x", "y", "z"}[c - I] +
                                                "; double-click to edit");
  table_->horizontalHeaderItem(Metres)->setToolTip("The cell's centre in metres (index × dx)");
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->horizontalHeader()->setMinimumSectionSize(24);
  table_->setColumnWidth(Number, 42);
  for (int c : {I, J, K}) table_->setColumnWidth(c, 40);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
  table_->setItemDelegate(new CellDelegate(grid_, table_));
  table_->setMinimumWidth(120);
  table_->setFixedHeight(7 * table_->verticalHeader()->defaultSectionSize() + table_->horizontalHeader()->sizeHint().height());
  connect(table_, &QTableWidget::cellChanged, this, &ReceiverEditor::onCellEdited);
  layout->addWidget(table_);

  auto* addLineButton = new QPushButton("Add line…");
  addLineButton->setObjectName("receivers_add_line");
  addLineButton->setToolTip("Add evenly spaced receivers from one cell to another");
  connect(addLineButton, &QPushButton::clicked, this, &ReceiverEditor::openLineDialog);
  auto* deleteButton = new QPushButton("Delete");
  deleteButton->setObjectName("receivers_delete");
  deleteButton->setToolTip("Delete the selected receivers (Delete key)");
  const auto deleteSelected = [this] {
    QList<int> rows;
    for (const QModelIndex& index : table_->selectionModel()->selectedRows()) rows << index.row();
    removeReceivers(rows);
  };
  connect(deleteButton, &QPushButton::clicked, this, deleteSelected);
  auto* shortcut = new QShortcut(QKeySequence::Delete, table_, nullptr, nullptr, Qt::WidgetShortcut);
  connect(shortcut, &QShortcut::activated, this, deleteSelected);
  layout->addLayout(row({addLineButton, deleteButton}));
  auto* hint = new QLabel("Shift+click on a slice adds a receiver.");
  hint->setWordWrap(true);
  QFont small = hint->font();
  small.setPointSizeF(small.pointSizeF() * 0.9);
  hint->setFont(small);
  layout->addWidget(hint);
}

void ReceiverEditor::setFromScenario(const Scenario& s) {
  grid_ = {s.n1, s.n2, s.n3};
  dx_ = s.dx;
  receivers_ = s.receivers;
  showReceivers();
}

void ReceiverEditor::applyTo(Scenario& s) const { s.receivers = receivers_; }

std::array<int, 3> ReceiverEditor::clamped(const std::array<int, 3>& cell) const {
  std::array<int, 3> out{};
  for (std::size_t a = 0; a < 3; ++a) out[a] = std::clamp(cell[a], 0, std::max(0, grid_[a] - 1));
  return out;
}

void ReceiverEditor::addReceiver(int i, int j, int k) { addLine({i, j, k}, {i, j, k}, 1); }

void ReceiverEditor::addLine(const std::array<int, 3>& from, const std::array<int, 3>& to, int count) {
  count = std::clamp(count, 1, kMaxLineCount);
  const auto a = clamped(from), b = clamped(to);
  for (int n = 0; n < count; ++n) {
    const double f = count == 1 ? 0.0 : double(n) / double(count - 1);
    std::array<int, 3> cell{};
    for (std::size_t axis = 0; axis < 3; ++axis) cell[axis] = int(std::lround(a[axis] + f * (b[axis] - a[axis])));
    receivers_.push_back({cell[0], cell[1], cell[2]});
  }
  showReceivers();
  table_->scrollToBottom();
  emit receiversChanged();
}

void ReceiverEditor::removeReceivers(QList<int> rows) {
  std::sort(rows.begin(), rows.end(), std::greater<>());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  bool removed = false;
  for (int r : rows)
    if (r >= 0 && r < int(receivers_.size())) {
      receivers_.erase(receivers_.begin() + r);
      removed = true;
    }
  if (!removed) return;
  showReceivers();
  emit receiversChanged();
}

void ReceiverEditor::onCellEdited(int row, int column) {
  if (row < 0 || row >= int(receivers_.size()) || column < I || column > K) return;
  ReceiverSpec& r = receivers_[std::size_t(row)];
  int& value = column == I ? r.i : column == J ? r.j : r.k;
  const int edited = table_->item(row, column)->data(Qt::EditRole).toInt();
  if (edited == value) return;
  value = std::clamp(edited, 0, std::max(0, grid_[std::size_t(column - I)] - 1));
  showReceivers();
  emit receiversChanged();
}

void ReceiverEditor::setSpacing(double dx) {
  if (dx == dx_) return;
  dx_ = dx;
  showReceivers();
}

void ReceiverEditor::setAbsorbingLayer(const std::array<int, 3>& grid, const std::array<int, 3>& layer) {
  layerGrid_ = grid;
  layer_ = layer;
  showReceivers();
}

void ReceiverEditor::showReceivers() {
  const QSignalBlocker quiet(table_);  // filling is not editing
  table_->setRowCount(int(receivers_.size()));
  const QString tip = "Double-click a cell index to edit it; Delete removes the selected rows.";
  for (int r = 0; r < int(receivers_.size()); ++r) {
    const ReceiverSpec& spec = receivers_[std::size_t(r)];
    const std::array<int, 3> cell{spec.i, spec.j, spec.k};
    QStringList inLayer;
    for (std::size_t a = 0; a < 3; ++a)
      if (layer_[a] > 0 && (cell[a] < layer_[a] || cell[a] >= layerGrid_[a] - layer_[a]))
        inLayer << QStringLiteral("%1 (%2 cells from each face)").arg(QStringList{"x", "y", "z"}[int(a)]).arg(layer_[a]);
    const QString rowTip = inLayer.isEmpty() ? tip
                                             : "Inside the absorbing layer along " + inLayer.join(", ") +
                                                   ": the wave is damped there, so this trace is weaker than outside.\n\n" + tip;
    const auto place = [&](int column, QTableWidgetItem* item) {
      item->setToolTip(rowTip);
      if (!inLayer.isEmpty()) item->setBackground(QColor(255, 228, 170));
      table_->setItem(r, column, item);
    };
    auto* number = new QTableWidgetItem(swatch(r), QString::number(r));
    number->setFlags(number->flags() & ~Qt::ItemIsEditable);
    place(Number, number);
    for (int c : {I, J, K}) {
      auto* item = new QTableWidgetItem;
      item->setData(Qt::EditRole, cell[std::size_t(c - I)]);
      item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      place(c, item);
    }
    auto* metres = new QTableWidgetItem(QStringLiteral("%1, %2, %3")
                                            .arg(spec.i * dx_, 0, 'f', 0)
                                            .arg(spec.j * dx_, 0, 'f', 0)
                                            .arg(spec.k * dx_, 0, 'f', 0));
    metres->setFlags(metres->flags() & ~Qt::ItemIsEditable);
    place(Metres, metres);
  }
}

QDialog* ReceiverEditor::openLineDialog() {
  auto* dialog = new QDialog(window());
  dialog->setObjectName("receiver_line_dialog");
  dialog->setWindowTitle("Add a line of receivers");
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  auto* form = new QFormLayout(dialog);
  // Defaults: a line along x at mid y, a quarter of the depth down, an eighth in from each side.
  const std::array<int, 3> start{grid_[0] / 8, grid_[1] / 2, grid_[2] / 4};
  const std::array<int, 3> end{grid_[0] - 1 - grid_[0] / 8, grid_[1] / 2, grid_[2] / 4};
  std::array<QSpinBox*, 3> from{}, to{};
  for (std::size_t a = 0; a < 3; ++a) {
    const QString axis = QStringList{"x", "y", "z"}[int(a)];
    from[a] = intSpin(0, grid_[a] - 1, start[a], "", "First receiver's cell index along " + axis);
    to[a] = intSpin(0, grid_[a] - 1, end[a], "", "Last receiver's cell index along " + axis);
  }
  form->addRow("From cell (i, j, k):", rowWidget({from[0], from[1], from[2]}));
  form->addRow("To cell (i, j, k):", rowWidget({to[0], to[1], to[2]}));
  QSpinBox* count = intSpin(1, kMaxLineCount, 11, "", "Receivers on the line, both ends included");
  form->addRow("Count:", count);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  form->addRow(buttons);
  connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
  connect(buttons, &QDialogButtonBox::accepted, dialog, [=, this] {
    addLine({from[0]->value(), from[1]->value(), from[2]->value()}, {to[0]->value(), to[1]->value(), to[2]->value()},
            count->value());
    dialog->accept();
  });
  dialog->open();  // window-modal at most: the run goes on
  return dialog;
}

}  // namespace iso
