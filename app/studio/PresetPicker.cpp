#include "app/studio/PresetPicker.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

#include "app/studio/FormControls.h"
#include "core/Scenario.h"

namespace iso {

QString ScenarioOrigin::label() const {
  const QString base = file.isEmpty() ? name : "file: " + QFileInfo(file).fileName();
  return edited ? base + " (edited)" : base;
}

PresetPicker::PresetPicker(QWidget* parent) : QWidget(parent) {
  presets_ = new ComboBox;
  presets_->setObjectName("preset");
  for (const auto& name : presetNames()) presets_->addItem(QString::fromStdString(name), QString::fromStdString(name));
  presets_->setToolTip(
      "Ready-made scenarios: 'default' is a Ricker source in a layered model with a salt body;\n"
      "'oneapi' reproduces the oneAPI iso3dfd sample exactly (nested cubes, reflecting boundary).\n"
      "The first entry says where the running scenario comes from when it is a file or edited.");
  load_ = new QPushButton("Load");
  load_->setToolTip("Replace every parameter by the chosen preset's");
  connect(load_, &QPushButton::clicked, this, [this] {
    const QString name = presets_->currentData().toString();
    if (!name.isEmpty()) emit presetRequested(name);
  });
  connect(presets_, &QComboBox::currentIndexChanged, this, &PresetPicker::updateLoadButton);
  auto* layout = row({new QLabel("Preset:"), presets_, load_});
  layout->setStretch(1, 1);
  setLayout(layout);
}

void PresetPicker::showOrigin(const ScenarioOrigin& origin) {
  if (presets_->count() > 0 && presets_->itemData(0).toString().isEmpty()) presets_->removeItem(0);
  const int preset = origin.file.isEmpty() && !origin.edited ? presets_->findData(origin.name) : -1;
  if (preset >= 0) {
    presets_->setCurrentIndex(preset);
  } else {
    presets_->insertItem(0, origin.label(), QString());
    presets_->setItemData(0, "Where the form's scenario comes from (not a preset: Load does nothing for it)",
                          Qt::ToolTipRole);
    presets_->setCurrentIndex(0);
  }
  updateLoadButton();
}

QString PresetPicker::shownText() const { return presets_->currentText(); }

void PresetPicker::updateLoadButton() { load_->setEnabled(!presets_->currentData().toString().isEmpty()); }

}  // namespace iso
