// Velocity models: each builder at known points, resampling, and model files (.npy, raw, SEG-Y).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>

#include "core/ModelFile.h"
#include "core/Npy.h"
#include "core/Problem.h"
#include "tests/ScratchDir.h"
#include "tests/core/SegyBytes.h"
#include "core/VelocityModel.h"

namespace iso {
namespace {

std::string tempPath(const std::string& name) { return test::scratchPath(name).string(); }

float at(const std::vector<float>& m, const Grid& g, int i, int j, int k) {
  return m[(std::size_t(k) * g.n2 + j) * std::size_t(g.n1) + i];
}

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "no error";
}

void writeSegy(const std::string& path, int n1, int n2, int n3, const std::function<float(int, int, int)>& f,
               bool geometryHeaders, int samplesInHeader) {
  const std::string bytes = test::segyBytes(n1, n2, n3, f, geometryHeaders, samplesInHeader);
  std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

float linear(int i, int j, int k) { return 1000.0f + 2.0f * i + 3.0f * j + 5.0f * k; }

TEST(Models, ConstantLayeredGradient) {
  const Grid g(4, 3, 50);
  EXPECT_EQ(constantModel(g, 1800.0), std::vector<float>(g.interiorSize(), 1800.0f));
  const auto layered = layeredModel(g, 10.0, {{0.0, 1500.0}, {100.0, 2000.0}, {255.0, 3000.0}});
  EXPECT_EQ(at(layered, g, 0, 0, 0), 1500.0f);
  EXPECT_EQ(at(layered, g, 3, 2, 9), 1500.0f);
  EXPECT_EQ(at(layered, g, 1, 1, 10), 2000.0f);  // depth 100 m: the layer's top belongs to it
  EXPECT_EQ(at(layered, g, 1, 1, 25), 2000.0f);  // 250 m
  EXPECT_EQ(at(layered, g, 2, 0, 26), 3000.0f);  // 260 m
  EXPECT_EQ(at(layered, g, 2, 0, 49), 3000.0f);
  const auto gradient = gradientModel(g, 10.0, 1500.0, 3950.0);
  EXPECT_EQ(at(gradient, g, 0, 0, 0), 1500.0f);
  EXPECT_EQ(at(gradient, g, 3, 2, 49), 3950.0f);
  EXPECT_FLOAT_EQ(at(gradient, g, 1, 1, 20), 1500.0f + 2450.0f * 20.0f / 49.0f);
}

TEST(Models, SaltSphereOverAnyBackground) {
  const Grid g(21, 21, 21);
  const auto background = gradientModel(g, 10.0, 2000.0, 3000.0);
  auto m = background;
  drawSaltBody(m, g, 10.0, {true, 100.0, 100.0, 100.0, 50.0, 4500.0});
  EXPECT_EQ(at(m, g, 10, 10, 10), 4500.0f);
  EXPECT_EQ(at(m, g, 15, 10, 10), 4500.0f);                          // exactly on the radius
  EXPECT_EQ(at(m, g, 10, 10, 16), at(background, g, 10, 10, 16));    // 60 m below the centre
  EXPECT_EQ(at(m, g, 14, 14, 10), at(background, g, 14, 14, 10));    // 56.6 m away
  EXPECT_NE(at(background, g, 10, 10, 16), 4500.0f);
  auto untouched = m;
  drawSaltBody(untouched, g, 10.0, {false, 100.0, 100.0, 100.0, 500.0, 1.0});
  EXPECT_EQ(untouched, m);
}

TEST(Models, RandomIsSeededCorrelatedAndHasTheGivenStatistics) {
  const Grid g(64, 64, 64);
  const double dx = 10.0, L = 50.0;
  const auto a = randomModel(g, dx, 2500.0, 100.0, L, 7);
  EXPECT_EQ(a, randomModel(g, dx, 2500.0, 100.0, L, 7));
  EXPECT_NE(a, randomModel(g, dx, 2500.0, 100.0, L, 8));
  double sum = 0.0, sumSq = 0.0;
  for (float v : a) {
    ASSERT_GE(v, 2200.0f);
    ASSERT_LE(v, 2800.0f);
    sum += v;
  }
  const double mean = sum / double(a.size());
  for (float v : a) sumSq += (v - mean) * (v - mean);
  const double var = sumSq / double(a.size());
  EXPECT_NEAR(mean, 2500.0, 1.0);
  EXPECT_NEAR(std::sqrt(var), 100.0, 1.0);
  // Correlation along x at lags 1 and 5 cells against exp(-r²/L²): 0.96 and 0.37.
  for (int lag : {1, 5}) {
    double c = 0.0;
    std::size_t count = 0;
    for (int k = 0; k < g.n3; ++k)
      for (int j = 0; j < g.n2; ++j)
        for (int i = 0; i + lag < g.n1; ++i, ++count)
          c += (at(a, g, i, j, k) - mean) * (at(a, g, i + lag, j, k) - mean);
    const double expected = std::exp(-(lag * dx) * (lag * dx) / (L * L));
    EXPECT_NEAR(c / double(count) / var, expected, 0.08) << "lag " << lag;
  }
}

TEST(Models, TrilinearResamplingReproducesLinearFields) {
  Volume src{5, 4, 3, {}};
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 5; ++i) src.data.push_back(linear(i, j, k));
  const Grid dst(9, 7, 5);
  const auto out = resampleTrilinear(src, dst);
  for (int k = 0; k < dst.n3; ++k)
    for (int j = 0; j < dst.n2; ++j)
      for (int i = 0; i < dst.n1; ++i)
        ASSERT_FLOAT_EQ(at(out, dst, i, j, k), 1000.0f + 2.0f * (i * 0.5f) + 3.0f * (j * 0.5f) + 5.0f * (k * 0.5f))
            << i << "," << j << "," << k;
  const auto shrunk = resampleTrilinear(src, Grid(3, 1, 2));  // one cell on an axis takes index 0
  EXPECT_FLOAT_EQ(at(shrunk, Grid(3, 1, 2), 1, 0, 1), linear(2, 0, 2));
}

TEST(Models, NpyFileExactSizeAndResampled) {
  const std::string path = tempPath("model.npy");
  std::vector<float> data;
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 5; ++i) data.push_back(linear(i, j, k));
  writeNpy(path, data.data(), {3, 4, 5});
  Scenario s;
  s.n1 = 5, s.n2 = 4, s.n3 = 3;
  s.model.kind = ModelKind::File;
  s.model.path = path;
  EXPECT_EQ(buildVelocityModel(s), data);
  s.n1 = 9, s.n2 = 7, s.n3 = 5;
  EXPECT_FLOAT_EQ(at(buildVelocityModel(s), Grid(9, 7, 5), 1, 1, 1), 1000.0f + 1.0f + 1.5f + 2.5f);
  std::remove(path.c_str());
}

TEST(Models, RawFileNeedsDimsAndTheRightSize) {
  const std::string path = tempPath("model.bin");
  std::vector<float> data(2 * 3 * 4, 2500.0f);
  data[1] = 1600.0f;
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size() * 4));
  const Volume v = loadModelFile(path, 2, 3, 4);
  EXPECT_EQ(v.n1, 2);
  EXPECT_EQ(v.n3, 4);
  EXPECT_EQ(v.at(1, 0, 0), 1600.0f);
  EXPECT_NE(errorOf([&] { loadModelFile(path, 2, 3, 5); }).find("size is 96 bytes, but 2 x 3 x 5 float32 values need 120 bytes"),
            std::string::npos);
  EXPECT_NE(errorOf([&] { loadModelFile(path); }).find("needs its dims"), std::string::npos);
  std::remove(path.c_str());
}

TEST(Models, SegyTracesAreColumns) {
  const std::string path = tempPath("model.sgy");
  writeSegy(path, 3, 2, 4, linear, true, 4);
  const Volume v = loadModelFile(path);
  EXPECT_EQ(v.n1, 3);
  EXPECT_EQ(v.n2, 2);
  EXPECT_EQ(v.n3, 4);
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 3; ++i) ASSERT_EQ(v.at(i, j, k), linear(i, j, k)) << i << "," << j << "," << k;
  // Without inline/crossline headers the geometry must be given.
  writeSegy(path, 3, 2, 4, linear, false, 4);
  EXPECT_NE(errorOf([&] { loadModelFile(path); }).find("give model.file_n1 and file_n2"), std::string::npos)
      << errorOf([&] { loadModelFile(path); });
  EXPECT_EQ(loadModelFile(path, 3, 2).at(2, 1, 3), linear(2, 1, 3));
  EXPECT_NE(errorOf([&] { loadModelFile(path, 4, 2); }).find("holds 6 traces, not file_n1 x file_n2 = 4 x 2"),
            std::string::npos);
  writeSegy(path, 3, 2, 4, linear, true, 0);
  EXPECT_NE(errorOf([&] { loadModelFile(path); }).find("malformed SEG-Y"), std::string::npos)
      << errorOf([&] { loadModelFile(path); });
  std::remove(path.c_str());
}

TEST(Models, FileUnitsAreConvertedAndAWrongUnitIsNamed) {
  const std::string path = tempPath("units.npy");
  auto write = [&](std::vector<float> values) { writeNpy(path, values.data(), {1, 1, values.size()}); };
  // A model in km/s read as m/s: inside [1, 1e5] m/s, but slower than any rock.
  write({1.5f, 2.25f, 4.5f});
  std::string msg = errorOf([&] { loadModelFile(path); });
  EXPECT_NE(msg.find("the fastest velocity in the file is 4.5 m/s, slower than any rock, fluid or gas (below 100 m/s). "
                     "If the file is in km/s, set its unit to \"km/s\" (scenario key model.file_unit; "
                     "iso3dfd --model-unit; the Unit box in the studio)"),
            std::string::npos)
      << msg;
  Volume v = loadModelFile(path, 0, 0, 0, VelocityUnit::KilometresPerSecond);
  EXPECT_EQ(v.data, (std::vector<float>{1500.0f, 2250.0f, 4500.0f}));
  // ft/s: 5000 ft/s = 1524 m/s.
  write({5000.0f, 10000.0f});
  v = loadModelFile(path, 0, 0, 0, VelocityUnit::FeetPerSecond);
  EXPECT_FLOAT_EQ(v.data[0], 1524.0f);
  EXPECT_FLOAT_EQ(v.data[1], 3048.0f);
  // A model in m/s read as km/s.
  write({2000.0f, 3000.0f});
  msg = errorOf([&] { loadModelFile(path, 0, 0, 0, VelocityUnit::KilometresPerSecond); });
  EXPECT_NE(msg.find("is 2e+06 m/s (read in km/s); velocities must be finite and within [1, 100000] m/s. "
                     "If the file is in m/s, set its unit to \"m/s\" (scenario key model.file_unit"),
            std::string::npos)
      << msg;
  // Past the float range once converted: reported, not overflowed.
  write({2.0f, 1.0e36f});
  msg = errorOf([&] { loadModelFile(path, 0, 0, 0, VelocityUnit::KilometresPerSecond); });
  EXPECT_NE(msg.find("(i, j, k) = (1, 0, 0) is 1e+39 m/s (read in km/s)"), std::string::npos) << msg;
  // Slower than any medium whatever the unit: no unit is suggested.
  write({0.05f, 0.08f});
  msg = errorOf([&] { loadModelFile(path, 0, 0, 0, VelocityUnit::KilometresPerSecond); });
  EXPECT_NE(msg.find("is 80 m/s (read in km/s), slower than any rock"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("set its unit"), std::string::npos) << msg;
  // The scenario key: read, written, and passed to the file reader.
  write({1.5f, 2.0f, 2.5f, 3.0f});
  Scenario s = scenarioFromJson(R"({"n1": 4, "n2": 1, "n3": 1, "model": {"kind": "file", "path": ")" + path +
                                R"(", "file_unit": "km/s"}})");
  EXPECT_EQ(s.model.fileUnit, VelocityUnit::KilometresPerSecond);
  EXPECT_EQ(scenarioFromJson(scenarioToJson(s)).model.fileUnit, VelocityUnit::KilometresPerSecond);
  EXPECT_EQ(buildVelocityModel(s), (std::vector<float>{1500.0f, 2000.0f, 2500.0f, 3000.0f}));
  std::string jsonError = "no error";
  try {
    scenarioFromJson(R"({"model": {"file_unit": "mph"}})");
  } catch (const ScenarioError& e) {
    jsonError = e.what();
  }
  EXPECT_NE(jsonError.find("model.file_unit: unknown value 'mph' (known: m/s, km/s, ft/s)"), std::string::npos) << jsonError;
  std::remove(path.c_str());
}

// A correlation length of a kilometre over 1 mm cells smooths over 1.5 billion cells: the kernel size
// used to overflow an int (UBSan), and the noise field would need more memory than any machine has.
TEST(Models, RandomModelWithAHugeCorrelationLengthIsAClearError) {
  const Grid g(8, 8, 8);
  EXPECT_EQ(randomModelWorkBytes(g, 1e-3, 1e6), std::numeric_limits<std::size_t>::max());  // saturated
  for (double length : {1e3, 1e6}) {
    try {
      randomModel(g, 1e-3, 2500.0, 100.0, length, 1);
      FAIL() << "no error for correlation length " << length;
    } catch (const ScenarioError& e) {
      EXPECT_NE(std::string(e.what()).find("use a shorter correlation length"), std::string::npos) << e.what();
    }
  }
  // Within what fits, the memory the noise needs is what randomModel checks and what buildProblem counts.
  EXPECT_EQ(randomModelWorkBytes(g, 10.0, 100.0), std::size_t(2 * 8 * 38 * 38 * 38));  // radius 15 cells
  Scenario s;
  s.n1 = s.n2 = s.n3 = 8;
  s.dx = 1.0;
  s.model.kind = ModelKind::Random;
  s.model.randomCorrelationLength = 5000.0;  // 7,500 cells of smoothing each side: 53 TiB of noise
  try {
    buildProblem(s);
    FAIL() << "no error";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("random"), std::string::npos) << e.what();
  }
}

// A SEG-Y file whose size implies more than INT_MAX traces (a sparse 524 GB file of one-sample
// traces) is refused before libsegyio sees it: the library asserts, which aborts the process.
TEST(Models, SegyWithMoreTracesThanAnIntIsRefused) {
  const std::string path = tempPath("many-traces.sgy");
  writeSegy(path, 1, 1, 1, [](int, int, int) { return 1500.0f; }, false, 1);
  std::error_code ec;
  std::filesystem::resize_file(path, 3600 + 244 * (std::uintmax_t(1) << 31), ec);
  if (ec) GTEST_SKIP() << "this file system cannot hold a sparse 524 GB file: " << ec.message();
  const std::string msg = errorOf([&] { loadModelFile(path); });
  std::filesystem::remove(path);
  EXPECT_NE(msg.find("holds 2147483648 traces of 1 samples by its size, more than the 2147483647"), std::string::npos)
      << msg;
}

TEST(Models, BadFilesAreRefusedNamingTheFileAndTheProblem) {
  const std::string path = tempPath("bad.npy");
  std::vector<float> data(8, 2000.0f);
  data[5] = std::numeric_limits<float>::quiet_NaN();
  writeNpy(path, data.data(), {2, 2, 2});
  std::string msg = errorOf([&] { loadModelFile(path); });
  EXPECT_NE(msg.find("'" + path + "': the velocity at (i, j, k) = (1, 0, 1) is nan"), std::string::npos) << msg;
  // Negative, a garbage cell far beyond any rock, and one below 1 m/s: all outside [1, 1e5] m/s.
  for (const float bad : {-3.0f, 1.0e30f, 0.5f}) {
    data[5] = bad;
    writeNpy(path, data.data(), {2, 2, 2});
    msg = errorOf([&] { loadModelFile(path); });
    EXPECT_NE(msg.find("must be finite and within [1, 100000] m/s"), std::string::npos) << msg;
  }
  EXPECT_NE(msg.find("is 0.5 m/s;"), std::string::npos) << msg;
  data[5] = 2000.0f;
  writeNpy(path, data.data(), {2, 4});
  EXPECT_NE(errorOf([&] { loadModelFile(path); }).find("expected a non-empty 3D array"), std::string::npos);
  { std::ofstream(path) << "not numpy"; }
  EXPECT_NE(errorOf([&] { loadModelFile(path); }).find("not a .npy file"), std::string::npos);
  std::remove(path.c_str());
  EXPECT_NE(errorOf([&] { loadModelFile(path); }).find("no such file"), std::string::npos);
  EXPECT_NE(errorOf([&] { loadModelFile(tempPath("model.vtk")); }).find("no such file"), std::string::npos);
  EXPECT_NE(errorOf([&] { loadModelFile(tempPath("")); }).find("not a regular file (a directory?)"), std::string::npos);
  { std::ofstream(tempPath("model.vtk")) << "x"; }
  EXPECT_NE(errorOf([&] { loadModelFile(tempPath("model.vtk")); }).find("unknown extension '.vtk'"), std::string::npos);
  std::remove(tempPath("model.vtk").c_str());
  // buildProblem passes the file's error on.
  Scenario s;
  s.model.kind = ModelKind::File;
  s.model.path = path;
  s.stage = "cpu-serial";
  EXPECT_NE(errorOf([&] { buildProblem(s); }).find("no such file"), std::string::npos);
}

}  // namespace
}  // namespace iso
