#pragma once
// The editable parameters of a run (a Scenario) as two pages for the main window's docks, composed of
// one widget per part: the physics page (preset row, grid and time step, velocity model, source,
// boundary, receivers) and the stage page (stage, device, stage parameters). Any change emits changed().
// Every edit is a step of the form's undo stack (Edit ▸ Undo / Redo): undoing one shows the scenario
// before it and emits changed(), as an edit does; edits of one part in quick succession (typing a
// number) are one step.
//
// The form never shows what does not run: when the controller refuses a change, showRefused() returns
// every control to the running scenario and marks the controls that held the refused values.
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include "app/studio/PresetPicker.h"
#include "core/Problem.h"
#include "core/Scenario.h"

class QUndoStack;
class QWidget;

namespace iso {

class BoundaryEditor;
class ModelEditor;
class PhysicsEditor;
class ReceiverEditor;
class ScenarioSection;
class SourceEditor;
class StageEditor;

class ScenarioForm : public QObject {
  Q_OBJECT
 public:
  explicit ScenarioForm(QObject* parent = nullptr);
  ~ScenarioForm() override;

  // The pages (parentless until a dock takes them).
  QWidget* physicsPage() const { return physicsPage_; }
  QWidget* stagePage() const { return stagePage_; }

  PhysicsEditor* physics() const { return physics_; }
  ModelEditor* model() const { return model_; }
  SourceEditor* source() const { return source_; }
  BoundaryEditor* boundary() const { return boundary_; }
  ReceiverEditor* receivers() const { return receivers_; }
  StageEditor* stage() const { return stage_; }
  PresetPicker* presets() const { return presets_; }
  QUndoStack* undoStack() const { return undo_; }

  // Fills every control; emits nothing, and starts the undo steps afresh from it (a preset, a file, a
  // checkpoint: not an edit of the one before). Without an origin the scenario is its name's, unedited.
  void setScenario(const Scenario& scenario);
  void setScenario(const Scenario& scenario, const ScenarioOrigin& origin);
  Scenario scenario() const;  // the controls over the last scenario set (keeps the rest)
  const ScenarioOrigin& origin() const { return origin_; }
  void setOrigin(const ScenarioOrigin& origin);  // e.g. after saving to a file

  // `refused` could not run, `running` runs: shows `running` (with its origin) and marks the controls
  // that `refused` set otherwise with `reason`, when they all belong to one part of the form (that part
  // caused it). Returns whether it marked any; the marks go at the next clearRefusedMarks().
  bool showRefused(const Scenario& refused, const Scenario& running, const ScenarioOrigin& runningOrigin,
                   const QString& reason);
  void clearRefusedMarks();
  QList<QWidget*> refusedControls() const;

  // Device choices: "" (automatic) first, then each selector with its summary.
  void setDevices(const QStringList& selectors, const QStringList& summaries);
  void setSourceCell(int i, int j, int k);  // e.g. from a click on a slice; emits changed()
  void addReceiver(int i, int j, int k);    // e.g. from a Shift+click on a slice; emits changed()
  void setSteps(int steps);                 // the run's length; emits changed() when it differs
  void setStability(const StabilityReport& report);  // the limits of the running model, shown next to dt

 signals:
  void changed();
  void presetRequested(const QString& name);
  void browseModelFile();  // the window opens the file dialog (so the form stays free of dialogs)

 public slots:
  void setModelFile(const QString& path);

 private:
  void onEdited(const QString& part);  // `part` names the edit in Edit ▸ Undo
  void show(const Scenario& scenario, const ScenarioOrigin& origin);  // the controls, nothing else
  void restore(const Scenario& scenario, const ScenarioOrigin& origin);  // an undo step: shown, then changed()
  void dropRefusedEdit(const Scenario& running, const ScenarioOrigin& runningOrigin);
  void resizeGrid(int n1, int n2, int n3);
  void markRefused(QWidget* control, const QString& reason);

  QPointer<QWidget> physicsPage_, stagePage_;
  StageEditor* stage_ = nullptr;
  PresetPicker* presets_ = nullptr;
  PhysicsEditor* physics_ = nullptr;
  ModelEditor* model_ = nullptr;
  SourceEditor* source_ = nullptr;
  BoundaryEditor* boundary_ = nullptr;
  ReceiverEditor* receivers_ = nullptr;
  QList<ScenarioSection*> sections_;
  Scenario base_;  // fields without controls (name, steps) come from here
  ScenarioOrigin origin_;
  QList<QPointer<QWidget>> refused_;
  QUndoStack* undo_ = nullptr;
  Scenario committed_;  // what the last edit (or setScenario) left: the next edit's "before"
  ScenarioOrigin committedOrigin_;

  friend class ScenarioEdit;
};

}  // namespace iso
