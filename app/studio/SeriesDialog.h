#pragma once
// The settings of a wavefield series (File ▸ Export data ▸ Wavefield series…): the folder, the time
// steps between frames and the stride (every S-th point along each axis), with the size of a frame.
#include <QDialog>
#include <array>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace iso {

class SeriesDialog : public QDialog {
  Q_OBJECT
 public:
  // `grid`: the running grid's interior points, for the size of a frame.
  SeriesDialog(const QString& folder, std::array<int, 3> grid, QWidget* parent = nullptr);

  QString folder() const;
  int every() const;
  int stride() const;

 private:
  void browse();
  void update();  // the frame's size; enables OK and explains what is wrong

  std::array<int, 3> grid_;
  QLineEdit* folder_ = nullptr;
  QSpinBox *every_ = nullptr, *stride_ = nullptr;
  QLabel *frame_ = nullptr, *problem_ = nullptr;
  QDialogButtonBox* buttons_ = nullptr;
};

}  // namespace iso
