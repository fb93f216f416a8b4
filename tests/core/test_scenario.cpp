// Scenario presets, JSON round trip and the errors of a strict reader.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "core/Problem.h"
#include "core/Scenario.h"
#include "core/VelocityModel.h"
#include "tests/ScratchDir.h"

namespace iso {
namespace {

std::string errorOf(const std::string& json) {
  try {
    scenarioFromJson(json);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "no error";
}

// Every field differs from its default, so a field the writer or reader forgets shows up.
Scenario everyFieldChanged() {
  Scenario s;
  s.name = "round trip";
  s.n1 = 40, s.n2 = 30, s.n3 = 20;
  s.dx = 12.5;
  s.dt = 0.00123456789;
  s.dtAutoFraction = 0.3;
  s.steps = 77;
  s.coefficients = "oneapi";
  s.model.kind = ModelKind::Random;
  s.model.velocity = 2100.0;
  s.model.layers = {{0.0, 1600.0}, {55.5, 2200.0}};
  s.model.topVelocity = 1700.0;
  s.model.bottomVelocity = 3300.0;
  s.model.randomStdDev = 150.0;
  s.model.randomCorrelationLength = 75.0;
  s.model.randomSeed = 4000000000u;
  s.model.path = "models/x.npy";
  s.model.fileN1 = 3, s.model.fileN2 = 4, s.model.fileN3 = 5;
  s.model.salt = {true, 100.0, 110.0, 120.0, 50.0, 4400.0};
  s.source = {SourceKind::OneApiCubes, 1, 2, 3, 22.0, 5.0, 0.05};
  s.boundary = {BoundaryKind::Reflecting, 9, 0.01};
  s.receivers = {{1, 2, 3}, {4, 5, 6}};
  s.stage = "cpu-parallel";
  s.device = "gpu";
  s.stageParams = {{"threads", 2}, {"block_y", 8}};
  return s;
}

TEST(Scenario, JsonRoundTripKeepsEveryField) {
  const Scenario s = everyFieldChanged();
  const std::string text = scenarioToJson(s);
  const Scenario r = scenarioFromJson(text);
  EXPECT_EQ(scenarioToJson(r), text);
  EXPECT_EQ(r.name, "round trip");
  EXPECT_EQ(r.dt, 0.00123456789);  // doubles survive exactly
  EXPECT_EQ(r.model.kind, ModelKind::Random);
  EXPECT_EQ(r.model.randomSeed, 4000000000u);
  EXPECT_EQ(r.model.layers[1].top, 55.5);
  EXPECT_TRUE(r.model.salt.enabled);
  EXPECT_EQ(r.model.salt.centerZ, 120.0);
  EXPECT_EQ(r.source.kind, SourceKind::OneApiCubes);
  EXPECT_EQ(r.source.delay, 0.05);
  EXPECT_EQ(r.boundary.width, 9);
  ASSERT_EQ(r.receivers.size(), 2u);
  EXPECT_EQ(r.receivers[1].k, 6);
  EXPECT_EQ(r.stageParams.at("block_y"), 8);
  EXPECT_EQ(r.device, "gpu");
}

TEST(Scenario, FileRoundTrip) {
  const std::string path = test::scratchPath("roundtrip.json").string();
  saveScenarioFile(everyFieldChanged(), path);
  EXPECT_EQ(scenarioToJson(loadScenarioFile(path)), scenarioToJson(everyFieldChanged()));
  std::remove(path.c_str());
  try {
    loadScenarioFile(path);
    FAIL() << "a missing file was accepted";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot open scenario file"), std::string::npos) << e.what();
  }
  const std::string folder = test::scratchPath("").string();
  try {
    loadScenarioFile(folder);
    FAIL() << "a directory was accepted";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(std::string(e.what()), "scenario file '" + folder + "' is a directory");
  }
}

TEST(Scenario, PartialJsonKeepsDefaultsAndPresetKeyStartsFromAPreset) {
  const Scenario s = scenarioFromJson(R"({"n1": 64, "source": {"frequency": 9}})");
  EXPECT_EQ(s.n1, 64);
  EXPECT_EQ(s.n2, Scenario{}.n2);
  EXPECT_EQ(s.source.frequency, 9.0);
  EXPECT_EQ(s.source.kind, Scenario{}.source.kind);
  const Scenario o = scenarioFromJson(R"({"preset": "oneapi", "n1": 64, "coefficients": "oneapi"})");
  EXPECT_EQ(o.dx, 50.0);
  EXPECT_EQ(o.n1, 64);
  EXPECT_EQ(o.n2, 256);
  EXPECT_EQ(o.coefficients, "oneapi");
}

TEST(Scenario, OneApiPresetIsTheSample) {
  const Scenario s = presetScenario("oneapi");
  EXPECT_EQ(s.dx, 50.0);
  EXPECT_EQ(s.dt, 0.002);
  EXPECT_EQ(s.model.kind, ModelKind::Constant);
  EXPECT_EQ(s.model.velocity, 1500.0);
  EXPECT_FALSE(s.model.salt.enabled);
  EXPECT_EQ(s.boundary.kind, BoundaryKind::Reflecting);
  EXPECT_EQ(s.source.kind, SourceKind::OneApiCubes);
  EXPECT_TRUE(s.receivers.empty());
  EXPECT_EQ(s.coefficients, "exact");
}

TEST(Scenario, DefaultPresetIsLayeredWithSaltAndWellSampled) {
  const Scenario s = presetScenario("default");
  EXPECT_EQ(s.n1, 96);
  EXPECT_EQ(s.dx, 10.0);
  EXPECT_EQ(s.model.kind, ModelKind::Layered);
  EXPECT_GE(s.model.layers.size(), 3u);
  EXPECT_TRUE(s.model.salt.enabled);
  EXPECT_EQ(s.boundary.kind, BoundaryKind::Absorbing);
  EXPECT_EQ(s.source.kind, SourceKind::Ricker);
  const std::vector<float> model = buildVelocityModel(s);
  const auto [lo, hi] = std::minmax_element(model.begin(), model.end());
  EXPECT_GE(analyseStability(s, *lo, *hi).pointsPerWavelength, 8.0);
  EXPECT_EQ(*hi, float(s.model.salt.velocity));
  validateScenario(s);  // receivers and source inside the grid
}

TEST(Scenario, UnknownPresetListsTheKnownOnes) {
  try {
    presetScenario("fancy");
    FAIL();
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("known presets: default, oneapi"), std::string::npos) << e.what();
  }
}

TEST(Scenario, ErrorsNameTheKeyAndTheRange) {
  EXPECT_NE(errorOf("{\"n1\": 12,").find("malformed JSON"), std::string::npos);
  EXPECT_NE(errorOf(R"({"model": {"colour": 1}})").find("unknown scenario key 'model.colour'"), std::string::npos);
  EXPECT_NE(errorOf(R"({"nx": 5})").find("unknown scenario key 'nx' (known keys here:"), std::string::npos);
  EXPECT_NE(errorOf(R"({"n1": "big"})").find("'n1' must be an integer, got string \"big\""), std::string::npos);
  EXPECT_NE(errorOf(R"({"n1": 2.5})").find("'n1' must be an integer"), std::string::npos);
  EXPECT_NE(errorOf(R"({"dx": true})").find("'dx' must be a number"), std::string::npos);
  EXPECT_NE(errorOf(R"({"n2": 5000000000})").find("'n2' = 5000000000 does not fit"), std::string::npos);
  EXPECT_NE(errorOf(R"({"dx": -1})").find("dx = -1 is out of range (allowed: [0.001, 100000])"), std::string::npos);
  EXPECT_NE(errorOf(R"({"n3": 0})").find("n3 = 0 is out of range"), std::string::npos);
  EXPECT_NE(errorOf(R"({"boundary": {"reflection": 1.5}})").find("boundary.reflection = 1.5 is out of range"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"source": {"kind": "dirac"}})").find("source.kind: unknown value 'dirac' (known: none, ricker, oneapi-cubes)"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"model": {"kind": "layered", "layers": []}})").find("model.layers is empty"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"model": {"layers": [{"top": 0, "velocity": 2000}, {"top": 0, "velocity": 3000}]}})")
                .find("model.layers[1].top = 0 is out of range"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"model": {"velocity": -5}})").find("model.velocity = -5 is out of range"), std::string::npos);
  // Far beyond float range (the field would become inf with a zero exit status), and past the negative limit.
  EXPECT_NE(errorOf(R"({"source": {"amplitude": 1e308}})").find("source.amplitude = 1e+308 is out of range (allowed: [-1e+12, 1e+12])"),
            std::string::npos)
      << errorOf(R"({"source": {"amplitude": 1e308}})");
  EXPECT_NE(errorOf(R"({"source": {"amplitude": -2e12}})").find("source.amplitude = -2e+12 is out of range"), std::string::npos);
  EXPECT_NE(errorOf(R"({"receivers": [{"i": 1, "j": 2, "k": 500}]})").find("receivers[0].k = 500 is outside the grid"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"coefficients": "taylor"})").find("allowed: exact, oneapi"), std::string::npos);
  EXPECT_NE(errorOf(R"({"stage": "gpu-fast"})").find("unknown stage 'gpu-fast'"), std::string::npos);
  EXPECT_NE(errorOf(R"({"stage_params": {"tile_x": "big"}})").find("'stage_params.tile_x' must be an integer"),
            std::string::npos);
  EXPECT_NE(errorOf("[1, 2]").find("must be a JSON object"), std::string::npos);
}

// A file as deep as a hostile one (100,000 levels) is refused as the text is read: the error used to
// dump the wrongly typed value recursively and overflow the stack.
TEST(Scenario, DeepNestingIsRefusedWithoutRecursion) {
  const std::size_t depth = 100000;
  const std::string deep = R"({"name": )" + std::string(depth, '[') + std::string(depth, ']') + "}";
  EXPECT_NE(errorOf(deep).find("nested more than 64 levels deep"), std::string::npos) << errorOf(deep).substr(0, 200);
  const std::string objects = [&] {
    std::string text;
    for (int n = 0; n < 1000; ++n) text += R"({"a": )";
    return text + "1" + std::string(1000, '}');
  }();
  EXPECT_NE(errorOf(objects).find("nested more than 64 levels deep"), std::string::npos);
  // Within the cap, a wrongly typed value is quoted as a bounded excerpt.
  const std::string within = R"({"name": )" + std::string(60, '[') + std::string(60, ']') + "}";
  const std::string msg = errorOf(within);
  EXPECT_NE(msg.find("'name' must be a string, got array [[[["), std::string::npos) << msg;
  EXPECT_LT(msg.size(), 160u) << msg;
}

TEST(Scenario, ErrorsQuoteBoundedExcerpts) {
  const std::string longText(100000, 'x');
  for (const std::string& json : {R"({"name": [")" + longText + R"("]})", R"({"source": {"kind": ")" + longText + R"("}})",
                                  R"({")" + longText + R"(": 1})", R"({"stage": ")" + longText + R"("})",
                                  R"({"coefficients": ")" + longText + R"("})", R"({"n1": )" + longText + "}",
                                  R"({"dt": 1)" + std::string(100000, '0') + "}"}) {
    const std::string msg = errorOf(json);
    EXPECT_NE(msg, "no error");
    EXPECT_LT(msg.size(), 400u) << msg.substr(0, 400);
  }
  // A number too large for a double is an error of the file, with its name (it used to escape as
  // nlohmann's out_of_range, without the file, quoting the whole number).
  const std::string path = test::scratchPath("overflow.json").string();
  std::ofstream(path) << R"({"dt": 1e999})";
  try {
    loadScenarioFile(path);
    FAIL() << "no error";
  } catch (const ScenarioError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(path), std::string::npos) << msg;
    EXPECT_NE(msg.find("number overflow parsing '1e999'"), std::string::npos) << msg;
  }
}

TEST(Scenario, IntegersPrintAsIntegersInRangeErrors) {
  EXPECT_NE(errorOf(R"({"steps": 1000000001})").find("steps = 1000000001 is out of range (allowed: [0, 1000000000])"),
            std::string::npos)
      << errorOf(R"({"steps": 1000000001})");
  EXPECT_NE(errorOf(R"({"n1": 20000})").find("n1 = 20000 is out of range (allowed: [1, 16384])"), std::string::npos);
  EXPECT_NE(errorOf(R"({"boundary": {"width": 5000}})").find("boundary.width = 5000 is out of range (allowed: [0, 4096])"),
            std::string::npos);
}

TEST(Scenario, OversizedFilesAreRefusedUnread) {
  const std::string path = test::scratchPath("huge.json").string();
  {
    std::ofstream out(path);
    out << "{";
    out << std::string((std::size_t(16) << 20) + 10, ' ');
    out << "}";
  }
  try {
    loadScenarioFile(path);
    FAIL() << "no error";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("larger than 16 MiB"), std::string::npos) << e.what();
  }
  // A device that never ends is read only up to the cap.
  EXPECT_THROW(loadScenarioFile("/dev/zero"), ScenarioError);
  EXPECT_NE(errorOf(std::string((std::size_t(16) << 20) + 1, ' ')).find("over the limit of 16 MiB"), std::string::npos);
}

TEST(Scenario, EnumNamesRoundTrip) {
  for (auto k : {ModelKind::Constant, ModelKind::Layered, ModelKind::Gradient, ModelKind::Random, ModelKind::File})
    EXPECT_EQ(modelKindFromString(toString(k)), k);
  for (auto k : {SourceKind::None, SourceKind::Ricker, SourceKind::OneApiCubes})
    EXPECT_EQ(sourceKindFromString(toString(k)), k);
  for (auto k : {BoundaryKind::Reflecting, BoundaryKind::Absorbing}) EXPECT_EQ(boundaryKindFromString(toString(k)), k);
  for (auto u : {VelocityUnit::MetresPerSecond, VelocityUnit::KilometresPerSecond, VelocityUnit::FeetPerSecond})
    EXPECT_EQ(velocityUnitFromString(toString(u)), u);
  EXPECT_THROW(modelKindFromString("Constant"), ScenarioError);
}

}  // namespace
}  // namespace iso
