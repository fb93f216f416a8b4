#pragma once
// The settings of a recording (File ▸ Record…) or a saved image (File ▸ Save image…): output path,
// resolution (the view's size, 720p, 1080p, 4K), HUD, colour bars and labels on or off; for a recording
// also the frame rate and the time steps between frames.
#include <QDialog>
#include <QSize>

#include "render/SliceView.h"

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace iso {

class ExportDialog : public QDialog {
  Q_OBJECT
 public:
  enum class Kind { Recording, Image };
  // `viewSize`: the view's size in pixels, the first resolution offered.
  ExportDialog(Kind kind, const QString& path, QSize viewSize, QWidget* parent = nullptr);

  QString path() const;
  // The size in pixels (the view's size made even for a video) and the decorations chosen.
  ImageOptions picture() const;
  int fps() const;
  int every() const;
  void setEvery(int steps);

 private:
  void browse();
  void validate();  // enables OK and explains what is wrong

  Kind kind_;
  QSize viewSize_;
  QLineEdit* path_ = nullptr;
  QComboBox* resolution_ = nullptr;
  QCheckBox *hud_ = nullptr, *colourBar_ = nullptr, *labels_ = nullptr;
  QSpinBox *fps_ = nullptr, *every_ = nullptr;
  QLabel* problem_ = nullptr;
  QDialogButtonBox* buttons_ = nullptr;
};

}  // namespace iso
