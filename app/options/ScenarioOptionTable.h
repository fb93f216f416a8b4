#pragma once
// The scenario options of both programs, in one table: their names, the older spellings kept as
// aliases, what their value looks like, their help, and the parser of their value. iso3dfd registers
// the table with CLI11 (app/cli/ScenarioOptions.h), iso3dfd-studio with QCommandLineParser
// (app/studio/StudioCli.cpp); both hand the text of each value to setScenarioOption, so both accept the
// same spellings and refuse a bad value with the same message. No Qt and no command-line library here.
#include <string>
#include <vector>

#include "app/options/ScenarioOverrides.h"

namespace iso {

struct ScenarioOption {
  std::string name;       // without the dashes: "size"
  std::string alias;      // an older spelling that still works ("" when none)
  std::string valueName;  // how the help shows the value: "N|n1,n2,n3"
  std::string help;       // one sentence, starting in lower case
  bool repeatable = false;
  // Parses one value into `overrides`; throws ScenarioError saying what was expected.
  void (*set)(ScenarioOverrides& overrides, const std::string& value) = nullptr;
};

// Every scenario option, in the order the help lists them (the preset or file, the grid, the stage,
// the model, the source, the boundary, the numerics, the receivers).
const std::vector<ScenarioOption>& scenarioOptionTable();

// Sets `option` from the values given for it, in order. Throws ScenarioError "--NAME VALUE: what was
// expected" for a bad value, and for a second value of an option that is not repeatable.
void setScenarioOption(ScenarioOverrides& overrides, const ScenarioOption& option, const std::vector<std::string>& values);

}  // namespace iso
