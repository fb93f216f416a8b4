#pragma once
// The scenario options of every iso3dfd command: the shared table (app/options/ScenarioOptionTable.h,
// the same as the studio's) registered with CLI11, and the grid size as positional numbers.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/options/ScenarioOverrides.h"

namespace iso::cli {

struct ScenarioOptions : ScenarioOverrides {
  // n1 n2 n3 [iterations], or the iterations alone after --size (or for a --restart), as typed; after
  // parsing, --size n1,n2,n3 is folded in front of them, so this says what the grid and length are.
  std::vector<int> sizes;

  // Registers the options on a subcommand; `withStage` adds --stage (verify and bench choose stages
  // themselves). A bad value or --size beside three positional sizes is a CLI11 ValidationError.
  void addTo(CLI::App& cmd, bool withStage = true);
  // The scenario these options describe. Throws ScenarioError for bad values.
  Scenario resolve() const;
};

}  // namespace iso::cli
