#include "core/Checkpoint.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>

#include <nlohmann/json.hpp>

#include "core/Allocation.h"
#include "core/CacheDirectory.h"
#include "core/Grid.h"
#include "core/InputFile.h"
#include "core/JsonInput.h"
#include "core/OutputFile.h"
#include "core/SystemMemory.h"

namespace iso {

namespace {

constexpr char kMagic[8] = {'I', 'S', 'O', '3', 'D', 'C', 'K', 'P'};
// 2: the absorbing layer's memory variables; 3: that memory in u's units for every stage (gpu-half's
// version 2 files hold it scaled as its half fields are, and are refused: they cannot be resumed right).
constexpr std::uint32_t kVersion = 3;
constexpr std::uint32_t kOldestVersion = 2;
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

namespace {

// A non-negative integer of the header no larger than `max`, or the error naming `key`.
std::uint64_t countAt(const nlohmann::json& j, const char* key, std::uint64_t max) {
  const nlohmann::json& v = j.at(key);
  if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<std::int64_t>() < 0) || v.get<std::uint64_t>() > max)
    throw CheckpointError("'" + std::string(key) + "' is " + excerpt(v) + ", not an integer from 0 to " + std::to_string(max));
  return v.get<std::uint64_t>();
}

// What the header says, checked against the file's length before anything grid-sized is allocated.
struct Header {
  Checkpoint checkpoint;  // scenario and step; no arrays yet
  std::string checksum;
  std::size_t boundaryMemory = 0;
  std::uint64_t dataBytes = 0;
};

Header parseHeader(const std::string& headerText, std::uint64_t fileBytes, std::uint64_t dataStart) {
  Header h;
  const nlohmann::json header = parseJsonInput(headerText);  // size and depth bounded
  Checkpoint& c = h.checkpoint;
  c.scenario = scenarioFromJson(header.at("scenario").dump());
  validateScenario(c.scenario);
  // The step bounds the traces (step x receivers values): a step past any run is damage, not an overflow.
  c.state.step = long(countAt(header, "step", std::uint64_t(kMaxScenarioSteps)));
  h.checksum = header.at("checksum_fnv1a64").get<std::string>();
  const auto& list = header.at("arrays");
  if (!list.is_array() || list.size() != 5) throw CheckpointError("it lists " + excerpt(list) + " as its arrays, not 5");
  h.boundaryMemory = std::size_t(countAt(list[4], "count", maxBoundaryMemory(c.scenario)));
  const auto specs = arraySpecs(c.scenario, c.state.step, h.boundaryMemory);
  for (std::size_t a = 0; a < specs.size(); ++a) {
    if (!list[a].is_object() || list[a].at("name") != specs[a].name || list[a].at("count") != specs[a].count)
      throw CheckpointError("array " + std::to_string(a) + " should be " + specs[a].name + " of " +
                            std::to_string(specs[a].count) + " values for its scenario");
    h.dataBytes += specs[a].count * sizeof(float);
  }
  if (fileBytes != dataStart + h.dataBytes)
    throw CheckpointError("the file has " + std::to_string(fileBytes) + " bytes; its header describes " +
                          std::to_string(dataStart + h.dataBytes) + " (truncated or damaged)");
  return h;
}

}  // namespace

Checkpoint loadCheckpoint(const std::string& path) {
  const auto fail = [&](const std::string& what) { return CheckpointError("checkpoint " + path + ": " + what); };
  if (!littleEndian()) throw fail("checkpoints are little-endian; this machine is not");
  std::uint64_t fileBytes = 0;
  try {
    fileBytes = regularInputSize(path, "checkpoint");
  } catch (const FileReadError& e) {
    throw CheckpointError(e.what());
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw fail("cannot be opened (" + std::string(std::strerror(errno)) + ")");

  unsigned char prefix[16];
  if (fileBytes < sizeof prefix || !in.read(reinterpret_cast<char*>(prefix), sizeof prefix))
    throw fail("too short to be a checkpoint (" + std::to_string(fileBytes) + " bytes)");
  if (std::memcmp(prefix, kMagic, sizeof kMagic) != 0) throw fail("not a checkpoint of this program (wrong magic)");
  const std::uint32_t version = getU32(prefix + 8), headerBytes = getU32(prefix + 12);
  if (version < kOldestVersion || version > kVersion)
    throw fail("format version " + std::to_string(version) + "; this program reads versions " +
               std::to_string(kOldestVersion) + " to " + std::to_string(kVersion) +
               (version < kVersion ? " (the file was written by an older version: run it again to write a new one)" : ""));
  if (headerBytes > kMaxHeaderBytes || headerBytes > fileBytes - sizeof prefix)
    throw fail("its header length (" + std::to_string(headerBytes) + " bytes) does not fit the file");
  std::string headerText(headerBytes, '\0');
  if (!in.read(headerText.data(), headerBytes)) throw fail("the header cannot be read");

  Header h;
  try {
    h = parseHeader(headerText, fileBytes, sizeof prefix + headerBytes);
  } catch (const CheckpointError& e) {
    throw fail(e.what());
  } catch (const JsonInputError& e) {
    throw fail(std::string("malformed header (") + e.what() + ")");
  } catch (const nlohmann::json::exception& e) {
    throw fail(std::string("malformed header (") + excerpt(std::string(e.what())) + ")");
  } catch (const ScenarioError& e) {
    throw fail(std::string("its scenario is invalid: ") + e.what());
  }
  // A huge grid in a small sparse file passes the length check: its arrays are checked against the free
  // memory before they are allocated.
  try {
    requireAvailableMemory(h.dataBytes, "checkpoint " + path + "'s arrays");
  } catch (const ScenarioError& e) {
    throw CheckpointError(e.what());
  }

  if (version < 3 && h.checkpoint.scenario.stage == "gpu-half" && h.boundaryMemory > 0)
    throw fail("written by gpu-half before version 3, with its absorbing layer's memory in the half fields' scale: it "
               "would resume wrong (run it again to write a new one)");
  Checkpoint c = std::move(h.checkpoint);
  const auto specs = arraySpecs(c.scenario, c.state.step, h.boundaryMemory);
  const std::array<std::vector<float>*, 5> arrays{&c.state.current, &c.state.previous, &c.velocity, &c.state.traces,
                                                  &c.state.boundaryMemory};
  std::uint64_t checksum = fnv1a64(nullptr, 0);
  for (std::size_t a = 0; a < arrays.size(); ++a) {
    *arrays[a] = allocateArray(specs[a].count, std::string("the checkpoint's ") + specs[a].name);
    if (!in.read(reinterpret_cast<char*>(arrays[a]->data()), std::streamsize(specs[a].count * sizeof(float))))
      throw fail(std::string("cannot read ") + specs[a].name);
    checksum = fnv1a64(arrays[a]->data(), specs[a].count * sizeof(float), checksum);
  }
  if (hex16(checksum) != h.checksum)
    throw fail("checksum mismatch (the data is damaged): stored " + excerpt(h.checksum) + ", computed " + hex16(checksum));
  return c;
}

}  // namespace iso
