#pragma once
// One part of the scenario form (physics, model, source, boundary, stage): a widget that shows its
// fields of a Scenario and writes them back. The form composes the parts.
#include <QWidget>

#include "core/Scenario.h"

namespace iso {

class ScenarioSection : public QWidget {
 public:
  using QWidget::QWidget;
  virtual void setFromScenario(const Scenario& scenario) = 0;  // fills the controls; emits nothing
  virtual void applyTo(Scenario& scenario) const = 0;          // writes this part's fields only
};

}  // namespace iso
