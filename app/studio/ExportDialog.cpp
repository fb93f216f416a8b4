#include "app/studio/ExportDialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include "app/studio/RecordingSession.h"
#include "app/export/VideoEncoder.h"

namespace iso {

ExportDialog::ExportDialog(Kind kind, const QString& path, QSize viewSize, QWidget* parent)
    : QDialog(parent), kind_(kind), viewSize_(viewSize) {
  const bool recording = kind == Kind::Recording;
  setWindowTitle(recording ? "Record" : "Save image");
  auto* form = new QFormLayout(this);

  path_ = new QLineEdit(path);
  path_->setToolTip(recording ? "A video (.mp4, .mkv, .mov), or a folder name without an extension for numbered PNG frames"
                              : "An image file (.png, .jpg)");
  auto* browse = new QPushButton("Browse…");
  connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
  auto* pathRow = new QHBoxLayout;
  pathRow->addWidget(path_, 1);
  pathRow->addWidget(browse);
  form->addRow(recording ? "Output:" : "File:", pathRow);

  resolution_ = new QComboBox;
  resolution_->addItem(QStringLiteral("View size (%1×%2)").arg(viewSize.width()).arg(viewSize.height()), viewSize);
  resolution_->addItem("720p (1280×720)", QSize(1280, 720));
  resolution_->addItem("1080p (1920×1080)", QSize(1920, 1080));
  resolution_->addItem("4K (3840×2160)", QSize(3840, 2160));
  resolution_->setToolTip("Drawn at that size (text and lines scale with it), not a scaled copy of the window");
  form->addRow("Resolution:", resolution_);

  if (recording) {
    fps_ = new QSpinBox;
    fps_->setRange(1, VideoEncoder::kMaxFps);
    fps_->setValue(30);
    fps_->setSuffix(" fps");
    form->addRow("Frame rate:", fps_);
    every_ = new QSpinBox;
    every_->setRange(1, 100000);
    every_->setValue(4);
    every_->setSuffix(" steps");
    every_->setToolTip("Frame i shows the step first + i × this; the simulation waits for each frame, none is dropped");
    form->addRow("One frame every:", every_);
  }
  hud_ = new QCheckBox("Counters (HUD)");
  hud_->setToolTip("The live counters and warnings at the top left (in the compare view, each viewport's)");
  colourBar_ = new QCheckBox("Colour bars");
  colourBar_->setToolTip("The wavefield's colour bar (and the velocity model's) on the right");
  labels_ = new QCheckBox("Axes and labels");
  labels_->setToolTip("Metre axes with their headings and tick labels, the source, the receivers and the absorbing layer\n"
                      "marked (and in the compare view each viewport's stage and step)");
  auto* decorations = new QHBoxLayout;
  for (QCheckBox* box : {hud_, colourBar_, labels_}) {
    box->setChecked(true);
    decorations->addWidget(box);
  }
  decorations->addStretch(1);
  form->addRow("In the picture:", decorations);

  problem_ = new QLabel;
  problem_->setStyleSheet("color: rgb(200, 60, 50);");
  problem_->setWordWrap(true);
  form->addRow(problem_);
  buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  buttons_->button(QDialogButtonBox::Ok)->setText(recording ? "Record" : "Save");
  connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
  form->addRow(buttons_);
  connect(path_, &QLineEdit::textChanged, this, &ExportDialog::validate);
  validate();
}

QString ExportDialog::path() const { return path_->text().trimmed(); }

ImageOptions ExportDialog::picture() const {
  ImageOptions picture;
  picture.size = resolution_->currentData().toSize();
  if (kind_ == Kind::Recording && RecordingSession::isVideoPath(path()))
    picture.size = QSize(picture.size.width() & ~1, picture.size.height() & ~1);
  picture.hud = hud_->isChecked();
  picture.colourBar = colourBar_->isChecked();
  picture.labels = labels_->isChecked();
  return picture;
}
int ExportDialog::fps() const { return fps_ ? fps_->value() : 0; }
int ExportDialog::every() const { return every_ ? every_->value() : 0; }
void ExportDialog::setEvery(int steps) {
  if (every_) every_->setValue(steps);
}

void ExportDialog::browse() {
  QString chosen;
  if (kind_ == Kind::Image) {
    chosen = QFileDialog::getSaveFileName(this, "Save image", path(), "Images (*.png *.jpg)");
  } else {
    chosen = QFileDialog::getSaveFileName(this, "Record to", path(),
                                          "H.264 video (*.mp4);;Matroska video (*.mkv);;PNG frames (folder name without extension) (*)");
  }
  if (!chosen.isEmpty()) path_->setText(chosen);
}

void ExportDialog::validate() {
  QString problem;
  const QString suffix = QFileInfo(path()).suffix().toLower();
  if (path().isEmpty())
    problem = "Choose where to write.";
  else if (kind_ == Kind::Recording && !RecordingSession::isVideoPath(path()) && !suffix.isEmpty())
    problem = "A video ends in .mp4, .mkv or .mov; a folder of PNG frames has no extension.";
  else if (kind_ == Kind::Image && suffix != "png" && suffix != "jpg" && suffix != "jpeg")
    problem = "An image ends in .png or .jpg.";
  problem_->setText(problem);
  problem_->setVisible(!problem.isEmpty());
  buttons_->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
}

}  // namespace iso
