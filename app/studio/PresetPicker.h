#pragma once
// The preset row of the scenario form: a box of the ready-made scenarios and a Load button. The box
// also says where the form's scenario comes from when that is not an untouched preset ("file:
// run.json", "default (edited)").
#include <QString>
#include <QWidget>

class QComboBox;
class QPushButton;

namespace iso {

// Where a scenario comes from, as the preset box names it.
struct ScenarioOrigin {
  QString name;         // the scenario's (or preset's) name
  QString file;         // the scenario file it was read from or saved to; empty for none
  bool edited = false;  // changed in the form since
  QString label() const;  // "default", "default (edited)", "file: run.json", "file: run.json (edited)"
};

class PresetPicker : public QWidget {
  Q_OBJECT
 public:
  explicit PresetPicker(QWidget* parent = nullptr);

  void showOrigin(const ScenarioOrigin& origin);
  QString shownText() const;  // what the box shows

 signals:
  void presetRequested(const QString& name);

 private:
  void updateLoadButton();

  QComboBox* presets_ = nullptr;  // an origin entry (no preset, no data) first when there is one
  QPushButton* load_ = nullptr;
};

}  // namespace iso
