#include "app/studio/ScenarioForm.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QLineEdit>
#include <QTableWidget>
#include <QElapsedTimer>
#include <QPalette>
#include <QUndoStack>
#include <QVBoxLayout>
#include <optional>

#include "app/studio/BoundaryEditor.h"
#include "app/studio/ModelEditor.h"
#include "app/studio/PhysicsEditor.h"
#include "app/studio/ReceiverEditor.h"
#include "core/ScenarioResize.h"
#include "app/studio/SourceEditor.h"
#include "app/studio/StageEditor.h"

namespace iso {
namespace {

const char* kPlainToolTip = "isoPlainToolTip";  // a marked control's own tooltip, while marked

// What a control shows, as text, or nothing for widgets that are not controls (labels, the line edits
// inside spin and combo boxes).
std::optional<QString> controlText(QWidget* w) {
  if (auto* s = qobject_cast<QAbstractSpinBox*>(w)) return s->text();
  if (auto* c = qobject_cast<QComboBox*>(w)) return c->currentText() + '\n' + c->currentData().toString();
  if (auto* b = qobject_cast<QAbstractButton*>(w))
    return b->isCheckable() ? std::optional(QString::number(b->isChecked())) : std::nullopt;
  if (auto* e = qobject_cast<QLineEdit*>(w)) {
    if (qobject_cast<QAbstractSpinBox*>(e->parentWidget()) || qobject_cast<QComboBox*>(e->parentWidget())) return std::nullopt;
    return e->text();
  }
  if (auto* t = qobject_cast<QTableWidget*>(w)) {
    QString cells;
    for (int r = 0; r < t->rowCount(); ++r)
      for (int c = 0; c < t->columnCount(); ++c) cells += (t->item(r, c) ? t->item(r, c)->text() : QString()) + '\t';
    return cells;
  }
  return std::nullopt;
}

// A control and what it shows; a disabled one is out of effect.
struct Shown {
  QWidget* control;
  QString text;
  bool enabled;
};

QList<Shown> shownValues(QWidget* section) {
  QList<Shown> values;
  for (QWidget* w : section->findChildren<QWidget*>())
    if (const auto text = controlText(w)) values.append({w, *text, w->isEnabled()});
  return values;
}

// Edits of one part closer together than this are one undo step (the digits of a number being typed).
constexpr int kMergeMs = 1000;

}  // namespace

// One edit of the form: the scenario before and after it, with their origins.
class ScenarioEdit : public QUndoCommand {
 public:
  ScenarioEdit(ScenarioForm& form, const QString& part, Scenario before, ScenarioOrigin beforeOrigin)
      : QUndoCommand("Edit " + part), form_(form), part_(part), before_(std::move(before)), beforeOrigin_(std::move(beforeOrigin)),
        after_(form.scenario()), afterOrigin_(form.origin()) {
    age_.start();
  }
  int id() const override { return 1; }
  bool mergeWith(const QUndoCommand* other) override {
    const auto* next = static_cast<const ScenarioEdit*>(other);
    if (next->part_ != part_ || age_.elapsed() > kMergeMs) return false;
    after_ = next->after_;
    afterOrigin_ = next->afterOrigin_;
    age_.start();
    return true;
  }
  // The stack redoes a command as it is pushed: the form already shows it then.
  void redo() override {
    if (pushed_) form_.restore(after_, afterOrigin_);
    pushed_ = true;
  }
  // Once retired, the next undo is its last: the stack then deletes it instead of keeping it for Redo.
  void undo() override {
    form_.restore(before_, beforeOrigin_);
    setObsolete(retired_);
  }
  void retire() { retired_ = true; }

 private:
  ScenarioForm& form_;
  QString part_;
  Scenario before_;
  ScenarioOrigin beforeOrigin_;
  Scenario after_;
  ScenarioOrigin afterOrigin_;
  QElapsedTimer age_;
  bool pushed_ = false, retired_ = false;
};

ScenarioForm::ScenarioForm(QObject* parent) : QObject(parent), undo_(new QUndoStack(this)) {
  physicsPage_ = new QWidget;
  auto* page = new QVBoxLayout(physicsPage_);
  presets_ = new PresetPicker;
  physics_ = new PhysicsEditor;
  model_ = new ModelEditor;
  source_ = new SourceEditor;
  boundary_ = new BoundaryEditor;
  receivers_ = new ReceiverEditor;
  for (QWidget* w : std::initializer_list<QWidget*>{presets_, physics_, model_, source_, boundary_, receivers_})
    page->addWidget(w);
  page->addStretch(1);
  stagePage_ = stage_ = new StageEditor;
  sections_ = {physics_, model_, source_, boundary_, receivers_, stage_};

  connect(presets_, &PresetPicker::presetRequested, this, &ScenarioForm::presetRequested);
  connect(physics_, &PhysicsEditor::physicsChanged, this, [this] { onEdited("grid and time step"); });
  connect(physics_, &PhysicsEditor::gridResized, this, &ScenarioForm::resizeGrid);
  connect(model_, &ModelEditor::modelChanged, this, [this] { onEdited("velocity model"); });
  connect(model_, &ModelEditor::browseModelFileRequested, this, &ScenarioForm::browseModelFile);
  connect(source_, &SourceEditor::sourceChanged, this, [this] { onEdited("source"); });
  connect(boundary_, &BoundaryEditor::boundaryChanged, this, [this] { onEdited("boundary"); });
  connect(receivers_, &ReceiverEditor::receiversChanged, this, [this] { onEdited("receivers"); });
  connect(stage_, &StageEditor::stageChanged, this, [this] { onEdited("stage and device"); });
  setScenario(base_);
}

ScenarioForm::~ScenarioForm() {
  // The pages belong to docks once shown; delete them here only if nobody took them.
  if (physicsPage_ && !physicsPage_->parent()) delete physicsPage_;
  if (stagePage_ && !stagePage_->parent()) delete stagePage_;
}

void ScenarioForm::onEdited(const QString& part) {
  receivers_->setSpacing(scenario().dx);
  if (!origin_.edited) {
    origin_.edited = true;
    presets_->showOrigin(origin_);
  }
  undo_->push(new ScenarioEdit(*this, part, committed_, committedOrigin_));
  committed_ = scenario();
  committedOrigin_ = origin_;
  emit changed();
}

void ScenarioForm::restore(const Scenario& scenario, const ScenarioOrigin& origin) {
  clearRefusedMarks();
  show(scenario, origin);
  committed_ = scenario;
  committedOrigin_ = origin;
  receivers_->setSpacing(scenario.dx);
  emit changed();
}

// A new grid size rescales the source, salt body, layers and receivers with it (resizedScenario), so
// that they stay inside the grid and the picture stays the same.
void ScenarioForm::resizeGrid(int n1, int n2, int n3) {
  Scenario s = scenario();
  s.n1 = base_.n1, s.n2 = base_.n2, s.n3 = base_.n3;
  show(resizedScenario(s, n1, n2, n3), origin_);
  onEdited("grid size");
}

void ScenarioForm::setScenario(const Scenario& scenario) {
  setScenario(scenario, ScenarioOrigin{QString::fromStdString(scenario.name), {}, false});
}

void ScenarioForm::setScenario(const Scenario& scenario, const ScenarioOrigin& origin) {
  show(scenario, origin);
  undo_->clear();
  committed_ = this->scenario();  // as the controls hold it (rounded as they round), like every step after it
  committedOrigin_ = origin;
}

void ScenarioForm::show(const Scenario& scenario, const ScenarioOrigin& origin) {
  base_ = scenario;
  for (ScenarioSection* section : sections_) section->setFromScenario(scenario);
  setOrigin(origin);
}

Scenario ScenarioForm::scenario() const {
  Scenario s = base_;
  for (const ScenarioSection* section : sections_) section->applyTo(s);
  return s;
}

void ScenarioForm::setOrigin(const ScenarioOrigin& origin) {
  origin_ = origin;
  presets_->showOrigin(origin_);
}

bool ScenarioForm::showRefused(const Scenario& refused, const Scenario& running, const ScenarioOrigin& runningOrigin,
                               const QString& reason) {
  clearRefusedMarks();
  QList<QList<Shown>> before;
  for (ScenarioSection* section : sections_) {
    section->setFromScenario(refused);
    before.append(shownValues(section));
  }
  dropRefusedEdit(running, runningOrigin);
  QList<QWidget*> differing;
  int sectionsDiffering = 0;
  for (int n = 0; n < sections_.size(); ++n) {
    const auto after = shownValues(sections_[n]);
    const qsizetype count = differing.size();
    // A control counts when the refused scenario used it (enabled) and it now shows something else.
    for (qsizetype c = 0; c < after.size() && c < before[n].size(); ++c) {
      const Shown &was = before[n][c], &is = after[c];
      if (was.control == is.control && was.enabled && (was.text != is.text || !is.enabled)) differing.append(is.control);
    }
    if (differing.size() > count) ++sectionsDiffering;
  }
  if (sectionsDiffering != 1) return false;
  for (QWidget* w : differing) markRefused(w, reason);
  return true;
}

// The form shows `running` again: the edits that led to the refused scenario are undone for good (they
// leave the stack), so that the next Undo takes back the last edit that ran.
void ScenarioForm::dropRefusedEdit(const Scenario& running, const ScenarioOrigin& runningOrigin) {
  show(running, runningOrigin);
  const std::string target = scenarioToJson(scenario());  // the steps hold what the controls hold
  while (undo_->canUndo() && scenarioToJson(committed_) != target) {
    const QSignalBlocker quiet(this);  // no changed(): the form is only being put back
    // The stack hands out its commands as const; every one of them is a ScenarioEdit of this form.
    static_cast<ScenarioEdit*>(const_cast<QUndoCommand*>(undo_->command(undo_->index() - 1)))->retire();
    undo_->undo();
  }
  show(running, runningOrigin);
  committed_ = scenario();
  committedOrigin_ = runningOrigin;
}

void ScenarioForm::markRefused(QWidget* control, const QString& reason) {
  control->setProperty(kPlainToolTip, control->toolTip());
  control->setToolTip("Not applied: " + reason + "\n\n" + control->toolTip());
  QPalette tinted = control->palette();
  for (QPalette::ColorRole role : {QPalette::Base, QPalette::Button}) tinted.setColor(role, QColor(255, 205, 205));
  control->setPalette(tinted);
  refused_.append(control);
}

void ScenarioForm::clearRefusedMarks() {
  for (const QPointer<QWidget>& control : refused_) {
    if (!control) continue;
    control->setToolTip(control->property(kPlainToolTip).toString());
    control->setProperty(kPlainToolTip, QVariant());
    control->setPalette(QPalette());  // back to the inherited palette
  }
  refused_.clear();
}

QList<QWidget*> ScenarioForm::refusedControls() const {
  QList<QWidget*> controls;
  for (const QPointer<QWidget>& control : refused_)
    if (control) controls.append(control);
  return controls;
}

void ScenarioForm::setDevices(const QStringList& selectors, const QStringList& summaries) {
  stage_->setDevices(selectors, summaries);
}

void ScenarioForm::setSourceCell(int i, int j, int k) { source_->setCell(i, j, k); }

void ScenarioForm::addReceiver(int i, int j, int k) { receivers_->addReceiver(i, j, k); }

void ScenarioForm::setSteps(int steps) {
  if (steps == base_.steps) return;
  base_.steps = steps;
  onEdited("run length");
}

void ScenarioForm::setStability(const StabilityReport& report) { physics_->setStability(report); }

void ScenarioForm::setModelFile(const QString& path) { model_->setModelFile(path); }

}  // namespace iso
