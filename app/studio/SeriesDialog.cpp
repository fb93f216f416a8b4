#include "app/studio/SeriesDialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace iso {

SeriesDialog::SeriesDialog(const QString& folder, std::array<int, 3> grid, QWidget* parent) : QDialog(parent), grid_(grid) {
  setWindowTitle("Wavefield series");
  auto* form = new QFormLayout(this);
  folder_ = new QLineEdit(folder);
  folder_->setToolTip("Created if missing; the frames wavefield_NNNNNN.vti and ParaView's wavefield.pvd go there");
  auto* browse = new QPushButton("Browse…");
  connect(browse, &QPushButton::clicked, this, &SeriesDialog::browse);
  auto* folderRow = new QHBoxLayout;
  folderRow->addWidget(folder_, 1);
  folderRow->addWidget(browse);
  form->addRow("Folder:", folderRow);

  every_ = new QSpinBox;
  every_->setRange(1, 100000);
  every_->setValue(10);
  every_->setSuffix(" steps");
  every_->setToolTip("The first frame is the step on screen when the series starts; the run waits for a writer that is\n"
                     "behind rather than drop a frame");
  form->addRow("One frame every:", every_);
  stride_ = new QSpinBox;
  stride_->setRange(1, 64);
  stride_->setPrefix("one point in ");
  stride_->setSpecialValueText("none: every point");
  stride_->setToolTip("Keep every n-th point along each axis, from the first: frames n³ times smaller, n times the spacing");
  form->addRow("Decimation:", stride_);
  frame_ = new QLabel;
  form->addRow(frame_);
  problem_ = new QLabel;
  problem_->setStyleSheet("color: rgb(200, 60, 50);");
  problem_->setWordWrap(true);
  form->addRow(problem_);
  buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  buttons_->button(QDialogButtonBox::Ok)->setText("Start");
  connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
  form->addRow(buttons_);
  connect(folder_, &QLineEdit::textChanged, this, &SeriesDialog::update);
  connect(stride_, &QSpinBox::valueChanged, this, &SeriesDialog::update);
  update();
}

QString SeriesDialog::folder() const { return folder_->text().trimmed(); }
int SeriesDialog::every() const { return every_->value(); }
int SeriesDialog::stride() const { return stride_->value(); }

void SeriesDialog::browse() {
  const QString chosen = QFileDialog::getSaveFileName(this, "Series folder (created if missing)", folder(), "Folders (*)",
                                                      nullptr, QFileDialog::ShowDirsOnly);
  if (!chosen.isEmpty()) folder_->setText(chosen);
}

void SeriesDialog::update() {
  const auto along = [this](int n) { return (n + stride() - 1) / stride(); };
  const std::array<int, 3> points{along(grid_[0]), along(grid_[1]), along(grid_[2])};
  const double megabytes = double(points[0]) * points[1] * points[2] * 4.0 / 1e6;
  frame_->setText(QStringLiteral("Each frame: %1 × %2 × %3 points, %4 MB. ParaView opens FOLDER/wavefield.pvd.")
                      .arg(points[0]).arg(points[1]).arg(points[2]).arg(megabytes, 0, 'f', 1));
  const QFileInfo info(folder());
  QString problem;
  if (folder().isEmpty())
    problem = "Choose a folder.";
  else if (info.exists() && !info.isDir())
    problem = "That is a file; choose a folder (it is created if missing).";
  else if (!info.exists() && !QFileInfo(info.absolutePath()).isDir())
    problem = "The folder that would hold it does not exist.";
  problem_->setText(problem);
  problem_->setVisible(!problem.isEmpty());
  buttons_->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
}

}  // namespace iso
