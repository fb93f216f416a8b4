// The include graph of the source folders (docs/ARCHITECTURE.md): no folder includes a header of a layer
// above it, and no module (a header and its source file) includes, directly or through a chain, one
// that includes it back. Read from the source tree, so a new arrow fails here before a reader meets it.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace iso {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = ISO_SOURCE_DIR;

// The project headers each module includes: module "core/Problem" stands for core/Problem.h and
// core/Problem.cpp (and a .inc of that name), the include "core/Grid.h" for module "core/Grid".
using IncludeGraph = std::map<std::string, std::set<std::string>>;

std::string moduleOf(const std::string& path) { return path.substr(0, path.rfind('.')); }

IncludeGraph includeGraph(const std::string& folder) {
  static const std::regex include(R"(^\s*#\s*include\s*"([^"]+)\")");
  IncludeGraph graph;
  for (const auto& entry : fs::recursive_directory_iterator(kRoot / folder)) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".h" && ext != ".cpp" && ext != ".inc")) continue;
    const std::string module = moduleOf(fs::relative(entry.path(), kRoot).generic_string());
    graph[module];
    std::ifstream in(entry.path());
    std::smatch m;
    for (std::string line; std::getline(in, line);)
      if (std::regex_search(line, m, include) && moduleOf(m[1].str()) != module) graph[module].insert(moduleOf(m[1].str()));
  }
  return graph;
}

// A chain of includes that leads from a module of the graph back to itself ("a → b → a"), or "".
std::string firstCycle(const IncludeGraph& graph) {
  std::map<std::string, int> state;  // 1: on the current path, 2: done
  std::vector<std::string> path;
  std::string cycle;
  const auto visit = [&](const auto& self, const std::string& module) -> void {
    state[module] = 1;
    path.push_back(module);
    const auto it = graph.find(module);
    for (const std::string& next : it == graph.end() ? std::set<std::string>{} : it->second) {
      if (!cycle.empty() || !graph.count(next)) continue;  // found already, or outside the folder
      if (state[next] == 1) {
        for (auto at = std::find(path.begin(), path.end(), next); at != path.end(); ++at) cycle += *at + " → ";
        cycle += next;
      } else if (state[next] == 0) {
        self(self, next);
      }
    }
    path.pop_back();
    state[module] = 2;
  };
  for (const auto& [module, includes] : graph)
    if (cycle.empty() && state[module] == 0) visit(visit, module);
  return cycle;
}

struct Layer {
  std::string folder;
  std::vector<std::string> forbidden;  // include prefixes of the layers above it
};

const std::vector<Layer>& layers() {
  static const std::vector<Layer> all = {
      {"core", {"compute/", "render/", "app/"}},
      {"compute", {"render/", "app/"}},
      {"render", {"compute/", "app/"}},
      {"app/controller", {"render/", "app/studio/", "app/cli/"}},
      {"app/options", {"compute/", "render/", "app/controller/", "app/studio/", "app/cli/"}},
      {"app/studio", {"app/cli/"}},
  };
  return all;
}

TEST(IncludeGraph, NoLayerIncludesOneAboveIt) {
  for (const Layer& layer : layers())
    for (const auto& [module, includes] : includeGraph(layer.folder))
      for (const std::string& included : includes)
        for (const std::string& above : layer.forbidden)
          EXPECT_NE(included.rfind(above, 0), 0u) << module << " includes " << included << ", a layer above " << layer.folder;
}

TEST(IncludeGraph, NoModuleIncludesOneThatIncludesItBack) {
  for (const Layer& layer : layers()) EXPECT_EQ(firstCycle(includeGraph(layer.folder)), "") << "in " << layer.folder;
}

// The checker itself finds a chain that closes on itself, and only such a chain.
TEST(IncludeGraph, TheCheckFindsACircleThroughAChain) {
  EXPECT_EQ(firstCycle({{"a", {"b"}}, {"b", {"c"}}, {"c", {"a"}}}), "a → b → c → a");
  EXPECT_EQ(firstCycle({{"a", {"b", "outside"}}, {"b", {"c"}}, {"c", {}}}), "");
}

}  // namespace
}  // namespace iso
