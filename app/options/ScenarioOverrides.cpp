#include "app/options/ScenarioOverrides.h"

#include <filesystem>

#include "core/ScenarioResize.h"

namespace iso {

bool ScenarioOverrides::scenarioIsFile() const {
  return (scenario.size() > 5 && scenario.ends_with(".json")) || std::filesystem::exists(scenario);
}

Scenario ScenarioOverrides::baseScenario() const {
  return scenarioIsFile() ? loadScenarioFile(scenario) : presetScenario(scenario);
}

Scenario ScenarioOverrides::resolve() const {
  Scenario s = baseScenario();
  applyTo(s);
  return s;
}

void ScenarioOverrides::applyTo(Scenario& s) const {
  if (size) s = resizedScenario(std::move(s), (*size)[0], (*size)[1], (*size)[2]);
  if (stage) s.stage = *stage;
  if (device) s.device = *device;
  if (model) s.model.kind = *model;
  if (velocity) s.model.velocity = *velocity;
  if (modelFile) {
    s.model.kind = ModelKind::File;
    s.model.path = *modelFile;
  }
  // The salt body belongs to the model it was drawn over (a scenario file keeps both when that is wanted).
  if (model || modelFile) s.model.salt.enabled = false;
  if (modelUnit) s.model.fileUnit = *modelUnit;
  if (modelDims) s.model.fileN1 = (*modelDims)[0], s.model.fileN2 = (*modelDims)[1], s.model.fileN3 = (*modelDims)[2];
  if (source) s.source.kind = *source;
  if (sourcePos) s.source.i = (*sourcePos)[0], s.source.j = (*sourcePos)[1], s.source.k = (*sourcePos)[2];
  if (frequency) s.source.frequency = *frequency;
  if (amplitude) s.source.amplitude = *amplitude;
  if (boundary) s.boundary.kind = *boundary;
  if (boundaryWidth) s.boundary.width = *boundaryWidth;
  if (coefficients) s.coefficients = *coefficients;
  if (dx) s.dx = *dx;
  if (dt) s.dt = *dt;
  applyParams(s);
  if (!receivers.empty()) s.receivers = receivers;
}

void ScenarioOverrides::applyParams(Scenario& s) const {
  for (const auto& [key, value] : params) s.stageParams[key] = value;
}

std::vector<std::string> ScenarioOverrides::inputFiles(const Scenario& resolved) const {
  std::vector<std::string> files;
  if (scenarioIsFile()) files.push_back(scenario);
  if (resolved.model.kind == ModelKind::File && !resolved.model.path.empty()) files.push_back(resolved.model.path);
  return files;
}

}  // namespace iso
