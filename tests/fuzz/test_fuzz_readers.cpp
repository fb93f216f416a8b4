// Seeded mutation fuzzing of the readers of inputs the user names: scenario JSON, .npy, raw float32 and
// SEG-Y velocity models, and of kernel-cache entries. Each reader must accept an input or refuse it with
// its own error type and a bounded message: no crash, hang, foreign exception or sanitizer report (run
// under -DISO_SANITIZE=address,undefined). The other readers have files of their own here; settings:
// Mutator.h, FuzzHarness.h; tests/fuzz/README.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <optional>

#include "compute/KernelCache.h"
#include "core/ModelFile.h"
#include "core/Npy.h"
#include "core/Scenario.h"
#include "tests/core/SegyBytes.h"
#include "tests/fuzz/FuzzHarness.h"

namespace iso::fuzz {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> scenarioSeeds() {
  Scenario rich = presetScenario("default");
  rich.name = "seed \"quoted\" \u00e9";
  rich.model.kind = ModelKind::Random;
  rich.receivers.push_back({1, 2, 3});
  rich.stageParams = {{"tile_x", 32}, {"z_chunk", 16}};
  return {scenarioToJson(presetScenario("default")), scenarioToJson(presetScenario("oneapi")), scenarioToJson(rich),
          R"({"preset": "oneapi", "n1": 64, "model": {"kind": "layered", "layers": [{"top": 0, "velocity": 2000}]}})"};
}

TEST(Fuzz, ScenarioReader) {
  fuzz<ScenarioError>("scenario JSON", scenarioSeeds(), [](const std::string& text) {
    const Scenario s = scenarioFromJson(text);
    // What is accepted writes back to JSON that reads as the same scenario.
    const std::string written = scenarioToJson(s);
    EXPECT_EQ(scenarioToJson(scenarioFromJson(written)), written);
    return true;
  });
}

std::string fileBytes(const std::function<void(const std::string&)>& write, const std::string& name) {
  const std::string path = test::scratchPath(name).string();
  write(path);
  return test::readFileBytes(path);
}

std::vector<float> velocities(std::size_t count) {
  std::vector<float> v(count);
  for (std::size_t n = 0; n < count; ++n) v[n] = 1500.0f + 10.0f * float(n % 97);
  return v;
}

TEST(Fuzz, NpyReader) {
  const auto v = velocities(4 * 3 * 5);
  const std::vector<std::string> corpus = {
      fileBytes([&](const std::string& p) { writeNpy(p, v.data(), {5, 3, 4}); }, "seed-a.npy"),
      fileBytes([&](const std::string& p) { writeNpy(p, v.data(), {60}); }, "seed-b.npy"),
      fileBytes([&](const std::string& p) { writeNpy(p, v.data(), {2, 2, 3, 5}); }, "seed-c.npy")};
  const std::string path = test::scratchPath("fuzz.npy").string();
  fuzz<std::runtime_error>(".npy", corpus, [&](const std::string& bytes) {
    writeBytes(path, bytes);
    const NpyArray a = readNpy(path);
    std::size_t count = 1;
    for (auto d : a.shape) count *= d;
    EXPECT_EQ(a.data.size(), count);
    return true;
  });
}

TEST(Fuzz, VelocityModelFiles) {
  // .npy through the model loader (shape, unit and range checks), raw float32 with its dims, SEG-Y
  // with and without given dims: one corpus, each input read the way its extension says.
  const auto v = velocities(4 * 3 * 5);
  std::vector<std::string> corpus = {
      fileBytes([&](const std::string& p) { writeNpy(p, v.data(), {5, 3, 4}); }, "model-seed.npy"),
      std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float)),
      test::segyBytes(4, 3, 5, [](int i, int j, int k) { return 1500.0f + float(i + 10 * j + 100 * k); }, true, 5),
      test::segyBytes(4, 3, 5, [](int, int, int) { return 2000.0f; }, false, 5)};
  const std::string npy = test::scratchPath("fuzz-model.npy").string(), raw = test::scratchPath("fuzz-model.bin").string(),
                    segy = test::scratchPath("fuzz-model.sgy").string();
  fuzz<ScenarioError>("velocity model files", corpus, [&](const std::string& bytes) {
    const bool isNpy = bytes.rfind("\x93NUMPY", 0) == 0, isSegy = bytes.size() >= 3600 && bytes[0] == ' ';
    const std::string& path = isNpy ? npy : isSegy ? segy : raw;
    writeBytes(path, bytes);
    const auto check = [](const Volume& m) { EXPECT_EQ(m.data.size(), std::size_t(m.n1) * m.n2 * m.n3); };
    if (!isSegy) {
      check(loadModelFile(path, 4, 3, 5));
      return true;
    }
    // SEG-Y both ways: with the dims given, and with the geometry from the inline/crossline headers.
    std::optional<ScenarioError> refusal;
    bool accepted = false;
    for (const bool givenDims : {true, false}) {
      try {
        check(loadModelFile(path, givenDims ? 4 : 0, givenDims ? 3 : 0));
        accepted = true;
      } catch (const ScenarioError& e) {
        refusal = e;
      }
    }
    if (!accepted) throw *refusal;
    return true;
  });
}

TEST(Fuzz, KernelCacheEntries) {
  // Only the exact entry written for a key under the cache's secret is ever handed to a driver: any
  // change is refused, both by the decoder and by the cache on disk, which then deletes the entry.
  const std::string cacheDir = test::scratchPath("kernel-cache").string();
  ::setenv("ISO3DFD_CACHE_DIR", cacheDir.c_str(), 1);
  const std::string key = "device|driver|options|source", secret = kernelCacheSecret();
  ASSERT_EQ(secret.size(), 32u);
  std::vector<std::string> corpus;
  for (std::size_t size : {1u, 7u, 300u, 5000u}) {
    std::vector<unsigned char> binary(size);
    for (std::size_t n = 0; n < size; ++n) binary[n] = static_cast<unsigned char>((n * 131 + size) & 0xff);
    const auto entry = encodeCacheEntry(key, binary, secret);
    corpus.emplace_back(entry.begin(), entry.end());
  }
  const std::string path = cachedBinaryPath(key);
  ASSERT_FALSE(path.empty());
  long n = 0;
  fuzz<std::runtime_error>("kernel-cache entries", corpus, [&](const std::string& bytes) {
    const std::vector<unsigned char> entry(bytes.begin(), bytes.end());
    const bool valid = std::find(corpus.begin(), corpus.end(), bytes) != corpus.end();
    const auto decoded = decodeCacheEntry(key, entry, secret);
    EXPECT_EQ(decoded.has_value(), valid);
    if (decoded) {
      EXPECT_EQ(encodeCacheEntry(key, *decoded, secret), entry);
    }
    if (n++ % 4 == 0) {  // through the file, a quarter of the time
      writeBytes(path, bytes);
      EXPECT_EQ(loadCachedBinary(key).has_value(), valid);
      EXPECT_EQ(std::filesystem::exists(path), valid) << "a damaged entry is deleted";
    }
    if (!valid) throw std::runtime_error("refused");
    return true;
  });
}

}  // namespace
}  // namespace iso::fuzz
