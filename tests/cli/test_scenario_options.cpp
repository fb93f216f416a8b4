// The scenario options both programs share (app/options): the table's names and aliases, each value's
// parser, and how the overrides change a scenario. The programs themselves: test_cli.cpp (iso3dfd) and
// tests/gui/test_studio_options.cpp (both, side by side).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "app/options/ScenarioOptionTable.h"
#include "core/ScenarioResize.h"

namespace iso {
namespace {

const ScenarioOption& option(const std::string& name) {
  for (const ScenarioOption& o : scenarioOptionTable())
    if (o.name == name || o.alias == name) return o;
  throw std::invalid_argument("no option --" + name);
}

ScenarioOverrides parsed(const std::vector<std::pair<std::string, std::vector<std::string>>>& given) {
  ScenarioOverrides overrides;
  for (const auto& [name, values] : given) setScenarioOption(overrides, option(name), values);
  return overrides;
}

// The message setScenarioOption refuses `values` of --name with ("" when it takes them).
std::string refusal(const std::string& name, const std::vector<std::string>& values) {
  try {
    parsed({{name, values}});
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

TEST(ScenarioOptions, EveryOptionHasOneNameHelpAndAParser) {
  std::set<std::string> names;
  for (const ScenarioOption& o : scenarioOptionTable()) {
    EXPECT_TRUE(names.insert(o.name).second) << "--" << o.name << " twice";
    if (!o.alias.empty()) {
      EXPECT_TRUE(names.insert(o.alias).second) << "--" << o.alias << " twice";
    }
    EXPECT_FALSE(o.valueName.empty()) << o.name;
    EXPECT_FALSE(o.help.empty()) << o.name;
    EXPECT_NE(o.set, nullptr) << o.name;
  }
  for (const char* name : {"scenario", "preset", "size", "stage", "device", "param", "threads", "model", "velocity", "model-file",
                           "model-dims", "model-unit", "source", "source-pos", "frequency", "amplitude", "boundary",
                           "boundary-width", "coefficients", "dx", "dt", "receiver"})
    EXPECT_TRUE(names.count(name)) << "--" << name << " is missing";
  EXPECT_EQ(option("preset").name, "scenario") << "--preset is the older spelling of --scenario";
}

TEST(ScenarioOptions, ValuesAreParsedAsTyped) {
  const ScenarioOverrides o = parsed({{"size", {"12"}},
                                      {"dt", {"auto"}},
                                      {"dx", {"12.5"}},
                                      {"param", {"tile_x=32", "tile_y=-4"}},
                                      {"threads", {"3"}},
                                      {"receiver", {"1,2,3", "4,5,6"}},
                                      {"source-pos", {"-1,2,-1"}},
                                      {"model", {"gradient"}},
                                      {"boundary", {"sponge"}}});
  ASSERT_TRUE(o.size);
  EXPECT_EQ(*o.size, (std::array<int, 3>{12, 12, 12})) << "N is a cube";
  EXPECT_EQ(*parsed({{"size", {"7,5,3"}}}).size, (std::array<int, 3>{7, 5, 3}));
  EXPECT_EQ(o.dt, 0.0) << "auto";
  EXPECT_EQ(o.dx, 12.5);
  EXPECT_EQ(o.params, (std::vector<std::pair<std::string, int>>{{"tile_x", 32}, {"tile_y", -4}, {"threads", 3}}));
  ASSERT_EQ(o.receivers.size(), 2u);
  EXPECT_EQ(o.receivers[1].k, 6);
  EXPECT_EQ(*o.sourcePos, (std::array<int, 3>{-1, 2, -1}));
  EXPECT_EQ(o.model, ModelKind::Gradient);
  EXPECT_EQ(o.boundary, BoundaryKind::Sponge);
}

TEST(ScenarioOptions, BadValuesAreRefusedNamingTheOptionAndTheValue) {
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"size", "0,64,64"}, "--size 0,64,64: expected a cube N or n1,n2,n3, integers from 1 to 16384"},
      {{"size", "7,7"}, "--size 7,7: expected a cube N or n1,n2,n3"},
      {{"size", "16385"}, "--size 16385: expected"},
      {{"dx", "ten"}, "--dx ten: expected a number"},
      {{"dx", "1e999"}, "--dx 1e999: expected a number"},
      {{"dt", "soon"}, "--dt soon: expected a number of seconds or auto"},
      {{"param", "tile_x"}, "--param tile_x: expected key=integer"},
      {{"param", "=3"}, "--param =3: expected key=integer"},
      {{"param", "tile_x=3.5"}, "--param tile_x=3.5: expected key=integer"},
      {{"threads", "two"}, "--threads two: expected an integer"},
      {{"threads", "0"}, "--threads 0: expected a number of threads from 1 to "},
      {{"receiver", "1,2"}, "--receiver 1,2: expected a cell i,j,k"},
      {{"source-pos", "1,2,3,4"}, "--source-pos 1,2,3,4: expected a cell i,j,k"},
      {{"model", "marble"}, "--model marble: unknown model"},
      {{"boundary", "open"}, "--boundary open: unknown boundary"},
      {{"model-unit", "mph"}, "--model-unit mph: unknown"},
      {{"stage", "gpu-warp"}, "--stage gpu-warp: unknown stage 'gpu-warp' (known stages: cpu-serial"},
  };
  for (const auto& [given, message] : cases) {
    const std::string error = refusal(given[0], {given.begin() + 1, given.end()});
    EXPECT_EQ(error.rfind(message, 0), 0u) << given[0] << " " << given[1] << " gave: " << error;
  }
  EXPECT_EQ(refusal("dx", {"1", "2"}), "--dx 1 and 2: give it once");
  EXPECT_EQ(refusal("receiver", {"1,1,1", "2,2,2"}), "") << "repeatable";
}

TEST(ScenarioOptions, OverridesChangeOnlyWhatTheyName) {
  const Scenario base = presetScenario("default");
  ASSERT_TRUE(base.model.salt.enabled);
  Scenario s = base;
  parsed({}).applyTo(s);
  EXPECT_EQ(scenarioToJson(s), scenarioToJson(base)) << "no option, no change";

  s = base;
  parsed({{"size", {"40,32,24"}}}).applyTo(s);
  EXPECT_EQ(scenarioToJson(s), scenarioToJson(resizedScenario(base, 40, 32, 24))) << "the picture is kept";

  s = base;
  parsed({{"model", {"constant"}}, {"velocity", {"2500"}}, {"receiver", {"1,2,3"}}, {"dt", {"0.001"}}}).applyTo(s);
  EXPECT_EQ(s.model.kind, ModelKind::Constant);
  EXPECT_EQ(s.model.velocity, 2500.0);
  EXPECT_FALSE(s.model.salt.enabled) << "a named model replaces the whole model";
  ASSERT_EQ(s.receivers.size(), 1u) << "given receivers replace the scenario's";
  EXPECT_EQ(s.dt, 0.001);
  EXPECT_EQ(s.n1, base.n1);
  EXPECT_EQ(s.source.frequency, base.source.frequency);
}

TEST(ScenarioOptions, TheScenarioIsAPresetOrAFile) {
  ScenarioOverrides o = parsed({{"preset", {"oneapi"}}});
  EXPECT_FALSE(o.scenarioIsFile());
  EXPECT_EQ(scenarioToJson(o.baseScenario()), scenarioToJson(presetScenario("oneapi")));
  EXPECT_TRUE(o.inputFiles(o.resolve()).empty());
  o = parsed({{"scenario", {"/nonexistent/run.json"}}});
  EXPECT_TRUE(o.scenarioIsFile());
  try {
    o.baseScenario();
    ADD_FAILURE() << "a missing file is read";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/run.json"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace iso
