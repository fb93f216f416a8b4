// Seeded mutation fuzzing of the checkpoint reader (`iso3dfd run --restart F`, the studio's Load state):
// whole files mutated, and headers mutated inside a file whose prefix and data stay whole, so that the
// mutations reach the header's checks (nesting, counts, a step that overflows step x receivers) instead
// of stopping at the length or the checksum. Accepted checkpoints must be what the header says.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/Checkpoint.h"
#include "tests/fuzz/FuzzHarness.h"

namespace iso::fuzz {
namespace {

Checkpoint sample(BoundaryKind boundary, std::size_t receivers, long step) {
  Checkpoint c;
  c.scenario = presetScenario("default");
  c.scenario.n1 = 11, c.scenario.n2 = 9, c.scenario.n3 = 7;
  c.scenario.boundary.kind = boundary;
  c.scenario.boundary.width = boundary == BoundaryKind::Reflecting ? 0 : 2;
  c.scenario.receivers.clear();
  c.scenario.source.i = c.scenario.source.j = c.scenario.source.k = -1;  // the centre
  c.scenario.model.kind = ModelKind::Constant;
  for (std::size_t r = 0; r < receivers; ++r) c.scenario.receivers.push_back({int(r), 1, 2});
  const Grid g(c.scenario.n1, c.scenario.n2, c.scenario.n3);
  c.velocity.assign(g.interiorSize(), 2000.0f);
  c.state.step = step;
  c.state.current.assign(g.paddedSize(), 0.25f);
  c.state.previous.assign(g.paddedSize(), -0.5f);
  c.state.traces.assign(std::size_t(step) * receivers, 1.0f);
  c.state.boundaryMemory.assign(boundary == BoundaryKind::Absorbing ? 40 : 0, 0.125f);
  return c;
}

std::vector<std::string> checkpointSeeds() {
  std::vector<std::string> corpus;
  int n = 0;
  for (const Checkpoint& c : {sample(BoundaryKind::Reflecting, 0, 0), sample(BoundaryKind::Absorbing, 2, 5),
                              sample(BoundaryKind::Sponge, 3, 1)}) {
    const std::string path = test::scratchPath("seed-" + std::to_string(n++) + ".ckp").string();
    saveCheckpoint(path, c);
    corpus.push_back(test::readFileBytes(path));
  }
  return corpus;
}

// The file's prefix (magic, version, header length), header and data.
struct Parts {
  std::string prefix, header, data;
};

Parts split(const std::string& file) {
  const std::uint32_t length = std::uint32_t(std::uint8_t(file[12])) | std::uint32_t(std::uint8_t(file[13])) << 8 |
                               std::uint32_t(std::uint8_t(file[14])) << 16 | std::uint32_t(std::uint8_t(file[15])) << 24;
  return {file.substr(0, 12), file.substr(16, length), file.substr(16 + length)};
}

std::string join(const Parts& p) {
  std::string out = p.prefix;
  for (int b = 0; b < 4; ++b) out.push_back(char((p.header.size() >> (8 * b)) & 0xffu));
  return out + p.header + p.data;
}

bool readCheckpoint(const std::string& path, const std::string& bytes) {
  writeBytes(path, bytes);
  const Checkpoint c = loadCheckpoint(path);
  const Grid g(c.scenario.n1, c.scenario.n2, c.scenario.n3);
  EXPECT_EQ(c.state.current.size(), g.paddedSize());
  EXPECT_EQ(c.state.previous.size(), g.paddedSize());
  EXPECT_EQ(c.velocity.size(), g.interiorSize());
  EXPECT_EQ(c.state.traces.size(), std::size_t(c.state.step) * c.scenario.receivers.size());
  EXPECT_LE(c.state.step, kMaxScenarioSteps);
  return true;
}

TEST(Fuzz, CheckpointFiles) {
  const std::string path = test::scratchPath("fuzz.ckp").string();
  fuzz<CheckpointError>("checkpoints", checkpointSeeds(), [&](const std::string& bytes) { return readCheckpoint(path, bytes); });
}

TEST(Fuzz, CheckpointHeaders) {
  const std::vector<std::string> files = checkpointSeeds();
  std::vector<std::string> headers;
  for (const auto& f : files) headers.push_back(split(f).header);
  const std::string path = test::scratchPath("fuzz-header.ckp").string();
  fuzz<CheckpointError>("checkpoint headers", headers, [&](const std::string& header) {
    // The data of the seed this header most likely came from: the one that shares the longest start.
    Parts parts;
    std::size_t longest = 0;
    for (const auto& f : files) {
      Parts candidate = split(f);
      const auto mismatch = std::mismatch(header.begin(), header.end(), candidate.header.begin(), candidate.header.end());
      if (const auto common = std::size_t(mismatch.first - header.begin()); parts.prefix.empty() || common > longest) {
        longest = common;
        parts = std::move(candidate);
      }
    }
    parts.header = header;
    return readCheckpoint(path, join(parts));
  });
}

}  // namespace
}  // namespace iso::fuzz
