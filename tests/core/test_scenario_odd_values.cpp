// Every key of a scenario file, set in turn to values a hand-edited or generated file may hold (zero,
// negatives, extremes of double and int, wrong types, null, a missing key): each gives a ScenarioError
// naming the key, or a scenario whose run stays finite. Never a crash, never inf or NaN in the field.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/CpuSolvers.h"
#include "core/Problem.h"
#include "core/Scenario.h"

namespace iso {
namespace {

using nlohmann::json;

// Paths to every leaf (number, string, bool) of a JSON document, objects and arrays walked.
void collectLeaves(const json& node, const json::json_pointer& at, std::vector<json::json_pointer>& out) {
  if (node.is_object()) {
    for (const auto& [key, value] : node.items()) collectLeaves(value, at / key, out);
  } else if (node.is_array()) {
    for (std::size_t n = 0; n < node.size(); ++n) collectLeaves(node[n], at / n, out);
  } else {
    out.push_back(at);
  }
}

// The default preset on a grid small enough that each accepted variant runs in milliseconds.
json smallDefault() {
  Scenario s = presetScenario("default");
  s.n1 = s.n2 = s.n3 = 16;
  s.source.i = s.source.j = s.source.k = 8;
  s.model.salt.centerX = s.model.salt.centerY = s.model.salt.centerZ = 80.0;
  s.model.salt.radius = 30.0;
  s.receivers = {{3, 8, 3}, {12, 8, 3}};
  return json::parse(scenarioToJson(s));
}

TEST(ScenarioOddValues, EveryKeyGivesAClearErrorOrAFiniteRun) {
  const json base = smallDefault();
  std::vector<json::json_pointer> leaves;
  collectLeaves(base, json::json_pointer(), leaves);
  ASSERT_GT(leaves.size(), 30u);
  const std::vector<json> odd = {0,    -1,   1e308, -1e308, 1e-308, 2147483648.0, -2147483649.0, 3.5, 1e9,
                                 "x",  "",   true,  nullptr, json::array(), json::object()};
  int accepted = 0, refused = 0;
  std::vector<float> field;
  for (const auto& leaf : leaves) {
    for (std::size_t v = 0; v <= odd.size(); ++v) {
      json doc = base;
      if (v == odd.size()) doc.at(leaf.parent_pointer()).erase(leaf.back());  // the key left out
      else doc[leaf] = odd[v];
      const std::string what = leaf.to_string() + " = " + (v == odd.size() ? "(missing)" : odd[v].dump());
      Problem problem;
      try {
        problem = buildProblem(scenarioFromJson(doc.dump()));
      } catch (const ScenarioError& e) {
        EXPECT_GT(std::string(e.what()).size(), 10u) << what;
        ++refused;
        continue;
      }
      auto solver = createCpuSolver(std::move(problem), "cpu-serial");
      solver->advance(3);
      solver->readField(field);
      const bool finite = std::all_of(field.begin(), field.end(), [](float x) { return std::isfinite(x); });
      EXPECT_TRUE(finite) << what << ": the field holds inf or NaN after 3 steps";
      ++accepted;
    }
  }
  // Both outcomes occur (the test would pass vacuously if every variant were refused or none were).
  EXPECT_GT(accepted, 50);
  EXPECT_GT(refused, 200);
}

}  // namespace
}  // namespace iso
