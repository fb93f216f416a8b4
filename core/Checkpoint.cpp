#include "core/Checkpoint.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/OutputFile.h"
#include "core/CacheDirectory.h"
#include "core/Grid.h"

namespace iso {

namespace {

constexpr char kMagic[8] = {'I', 'S', 'O', '3', 'D', 'C', 'K', 'P'};
constexpr std::uint32_t kVersion = 2;  // 2: the absorbing layer's memory variables
constexpr std::uint32_t kMaxHeaderBytes = 16u << 20;  // the scenario's own cap

static_assert(sizeof(float) == 4, "checkpoints store IEEE float32");

// The arrays in file order: name, and the count the scenario's grid and receivers require.
struct ArraySpec {
  const char* name;
  std::size_t count;
};

// The layer's memory depends on the width the model chose, so its count is the header's; it cannot exceed
// two variables of the whole interior per axis.
std::array<ArraySpec, 5> arraySpecs(const Scenario& s, long step, std::size_t boundaryMemory) {
  const Grid g(s.n1, s.n2, s.n3);
  return {{{"u_current", g.paddedSize()},
           {"u_previous", g.paddedSize()},
           {"velocity", g.interiorSize()},
           {"traces", std::size_t(step) * s.receivers.size()},
           {"boundary_memory", boundaryMemory}}};
}

std::size_t maxBoundaryMemory(const Scenario& s) { return 6 * Grid(s.n1, s.n2, s.n3).interiorSize(); }

void putU32(std::string& out, std::uint32_t v) {
  for (int b = 0; b < 4; ++b) out.push_back(char((v >> (8 * b)) & 0xffu));
}

std::uint32_t getU32(const unsigned char* p) {
  return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24;
}

std::string hex16(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

bool littleEndian() {
  const std::uint32_t one = 1;
  unsigned char first;
  std::memcpy(&first, &one, 1);
  return first == 1;
}

}  // namespace

void saveCheckpoint(const std::string& path, const Checkpoint& c) {
  if (!littleEndian()) throw CheckpointError("checkpoints are little-endian; this machine is not");
  const auto specs = arraySpecs(c.scenario, c.state.step, c.state.boundaryMemory.size());
  const std::array<const std::vector<float>*, 5> arrays{&c.state.current, &c.state.previous, &c.velocity,
                                                        &c.state.traces, &c.state.boundaryMemory};
  std::uint64_t checksum = fnv1a64(nullptr, 0);
  nlohmann::json list = nlohmann::json::array();
  for (std::size_t a = 0; a < arrays.size(); ++a) {
    if (arrays[a]->size() != specs[a].count)
      throw CheckpointError("checkpoint " + path + ": " + specs[a].name + " has " + std::to_string(arrays[a]->size()) +
                            " values, the scenario needs " + std::to_string(specs[a].count));
    checksum = fnv1a64(arrays[a]->data(), arrays[a]->size() * sizeof(float), checksum);
    list.push_back({{"name", specs[a].name}, {"count", specs[a].count}});
  }
  const nlohmann::json header = {{"scenario", nlohmann::json::parse(scenarioToJson(c.scenario))},
                                 {"step", c.state.step},
                                 {"arrays", list},
                                 {"dtype", "float32 little-endian"},
                                 {"checksum_fnv1a64", hex16(checksum)}};
  const std::string headerText = header.dump(1);
  std::string prefix(kMagic, sizeof kMagic);
  putU32(prefix, kVersion);
  putU32(prefix, std::uint32_t(headerText.size()));

  OutputFile file(path);
  file.write(prefix);
  file.write(headerText);
  for (const auto* array : arrays) file.write(array->data(), array->size() * sizeof(float));
  file.commit();
}

Checkpoint loadCheckpoint(const std::string& path) {
  const auto fail = [&](const std::string& what) { return CheckpointError("checkpoint " + path + ": " + what); };
  if (!littleEndian()) throw fail("checkpoints are little-endian; this machine is not");
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw fail("cannot be opened (" + std::string(std::strerror(errno)) + ")");
  const auto fileBytes = std::uint64_t(in.tellg());
  in.seekg(0);

  unsigned char prefix[16];
  if (fileBytes < sizeof prefix || !in.read(reinterpret_cast<char*>(prefix), sizeof prefix))
    throw fail("too short to be a checkpoint (" + std::to_string(fileBytes) + " bytes)");
  if (std::memcmp(prefix, kMagic, sizeof kMagic) != 0) throw fail("not a checkpoint of this program (wrong magic)");
  const std::uint32_t version = getU32(prefix + 8), headerBytes = getU32(prefix + 12);
  if (version != kVersion)
    throw fail("format version " + std::to_string(version) + "; this program reads version " + std::to_string(kVersion) +
               (version < kVersion ? " (the file was written by an older version: run it again to write a new one)" : ""));
  if (headerBytes > kMaxHeaderBytes || headerBytes > fileBytes - sizeof prefix)
    throw fail("its header length (" + std::to_string(headerBytes) + " bytes) does not fit the file");
  std::string headerText(headerBytes, '\0');
  if (!in.read(headerText.data(), headerBytes)) throw fail("the header cannot be read");

  Checkpoint c;
  std::string expectedChecksum;
  std::size_t boundaryMemory = 0;
  try {
    const nlohmann::json header = nlohmann::json::parse(headerText);
    c.scenario = scenarioFromJson(header.at("scenario").dump());
    validateScenario(c.scenario);
    c.state.step = header.at("step").get<long>();
    expectedChecksum = header.at("checksum_fnv1a64").get<std::string>();
    if (c.state.step < 0) throw fail("negative step " + std::to_string(c.state.step));
    const auto& list = header.at("arrays");
    if (list.size() != 5) throw fail("it lists " + std::to_string(list.size()) + " arrays, not 5");
    boundaryMemory = list[4].at("count").get<std::uint64_t>();
    if (boundaryMemory > maxBoundaryMemory(c.scenario))
      throw fail("its boundary memory of " + std::to_string(boundaryMemory) + " values exceeds the grid's " +
                 std::to_string(maxBoundaryMemory(c.scenario)));
    const auto specs = arraySpecs(c.scenario, c.state.step, boundaryMemory);
    std::uint64_t dataBytes = 0;
    for (std::size_t a = 0; a < specs.size(); ++a) {
      if (list[a].at("name").get<std::string>() != specs[a].name ||
          list[a].at("count").get<std::uint64_t>() != specs[a].count)
        throw fail("array " + std::to_string(a) + " should be " + specs[a].name + " of " +
                   std::to_string(specs[a].count) + " values for its scenario");
      dataBytes += specs[a].count * sizeof(float);
    }
    if (fileBytes != sizeof prefix + headerBytes + dataBytes)
      throw fail("the file has " + std::to_string(fileBytes) + " bytes; its header describes " +
                 std::to_string(sizeof prefix + headerBytes + dataBytes) + " (truncated or damaged)");
  } catch (const nlohmann::json::exception& e) {
    throw fail(std::string("malformed header (") + e.what() + ")");
  } catch (const ScenarioError& e) {
    throw fail(std::string("its scenario is invalid: ") + e.what());
  }

  const auto specs = arraySpecs(c.scenario, c.state.step, boundaryMemory);
  const std::array<std::vector<float>*, 5> arrays{&c.state.current, &c.state.previous, &c.velocity, &c.state.traces,
                                                  &c.state.boundaryMemory};
  std::uint64_t checksum = fnv1a64(nullptr, 0);
  for (std::size_t a = 0; a < arrays.size(); ++a) {
    arrays[a]->resize(specs[a].count);
    if (!in.read(reinterpret_cast<char*>(arrays[a]->data()), std::streamsize(specs[a].count * sizeof(float))))
      throw fail(std::string("cannot read ") + specs[a].name);
    checksum = fnv1a64(arrays[a]->data(), specs[a].count * sizeof(float), checksum);
  }
  if (hex16(checksum) != expectedChecksum)
    throw fail("checksum mismatch (the data is damaged): stored " + expectedChecksum + ", computed " + hex16(checksum));
  return c;
}

}  // namespace iso
