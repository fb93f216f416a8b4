#include "app/studio/StageSourceView.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include "app/studio/CodeView.h"
#include "app/studio/StageMaterial.h"

namespace iso {

StageSourceView::StageSourceView(QWidget* parent) : QWidget(parent) {
  picker_ = new QComboBox;
  picker_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  picker_->setToolTip("The stage's source files (paths in the repository)");
  editor_ = new CodeView;
  editor_->setMarginType(0, QsciScintilla::NumberMargin);
  editor_->setMarginWidth(0, QStringLiteral("00000"));
  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel("File:"));
  top->addWidget(picker_);
  top->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 4, 0, 0);
  layout->addLayout(top);
  layout->addWidget(editor_, 1);
  connect(picker_, &QComboBox::currentIndexChanged, this, &StageSourceView::showFile);
}

void StageSourceView::setFiles(const std::vector<std::string>& repoPaths) {
  {
    const QSignalBlocker block(picker_);
    picker_->clear();
    for (const std::string& path : repoPaths) picker_->addItem(QString::fromStdString(path));
  }
  showFile(0);
}

int StageSourceView::fileCount() const { return picker_->count(); }

QString StageSourceView::currentFile() const { return picker_->currentText(); }

void StageSourceView::showFile(int index) {
  if (index < 0 || index >= picker_->count()) {
    editor_->showText({});
    return;
  }
  if (picker_->currentIndex() != index) {
    const QSignalBlocker block(picker_);
    picker_->setCurrentIndex(index);
  }
  const std::string path = picker_->itemText(index).toStdString();
  const auto text = readStageMaterial(path);
  // A missing resource is a build error (the registry and app/studio/CMakeLists.txt disagree): say so.
  editor_->showText(text ? *text : QStringLiteral("// %1 is not compiled into this binary").arg(QString::fromStdString(path)));
}

}  // namespace iso
