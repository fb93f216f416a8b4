#include "app/cli/ScenarioOptions.h"

#include "app/options/ScenarioOptionTable.h"
#include "core/ScenarioResize.h"

namespace iso::cli {

void ScenarioOptions::addTo(CLI::App& cmd, bool withStage) {
  cmd.add_option("sizes", sizes, "n1 n2 n3 [iterations]: interior grid size (x fastest) and time steps (or --size n1,n2,n3 [iterations])")
      ->expected(0, 4);
  for (const ScenarioOption& option : scenarioOptionTable()) {
    if (!withStage && option.name == "stage") continue;
    const std::string names = "--" + option.name + (option.alias.empty() ? "" : ",--" + option.alias);
    const auto set = [this, &option](const std::vector<std::string>& values) {
      try {
        setScenarioOption(*this, option, values);
      } catch (const ScenarioError& e) {
        throw CLI::ValidationError(e.what());
      }
    };
    // One value per occurrence (what follows is the next option or a positional size); every occurrence
    // is handed over, so that the shared parser refuses a second one of an option that takes one.
    cmd.add_option_function<std::vector<std::string>>(names, set, option.help)
        ->type_name(option.valueName)
        ->expected(1)
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  }
  // After every option's value is set: --size n1,n2,n3 goes in front of the positional iterations.
  cmd.parse_complete_callback([this] {
    if (!size) return;
    if (sizes.size() >= 3) throw CLI::ValidationError("--size and positional sizes n1 n2 n3: give the grid once");
    sizes.insert(sizes.begin(), size->begin(), size->end());
    size.reset();
  });
}

Scenario ScenarioOptions::resolve() const {
  Scenario s = baseScenario();
  if (!sizes.empty()) {
    if (sizes.size() < 3)
      throw ScenarioError("give n1 n2 n3 [iterations] (got " + std::to_string(sizes.size()) + " numbers)");
    // The sizes are checked by buildProblem; non-positive ones are passed on so its message names them.
    if (sizes[0] > 0 && sizes[1] > 0 && sizes[2] > 0)
      s = resizedScenario(std::move(s), sizes[0], sizes[1], sizes[2]);
    else
      s.n1 = sizes[0], s.n2 = sizes[1], s.n3 = sizes[2];
    if (sizes.size() == 4) s.steps = sizes[3];
  }
  applyTo(s);
  return s;
}

}  // namespace iso::cli
