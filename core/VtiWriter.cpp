#include "core/VtiWriter.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "core/OutputFile.h"

namespace iso {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& why) { throw std::runtime_error(path + ": " + why); }

std::string triple(const std::array<double, 3>& v) {
  char text[128];
  std::snprintf(text, sizeof text, "%.17g %.17g %.17g", v[0], v[1], v[2]);
  return text;
}

// The XML escapes an array name needs inside an attribute.
std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string unescaped(std::string text) {
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&amp;", "&"}})
    for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size()) text.replace(at, from.size(), to);
  return text;
}

}  // namespace

void writeVti(const std::string& path, const VtiImage& image) {
  const auto [n1, n2, n3] = image.size;
  if (n1 < 1 || n2 < 1 || n3 < 1) fail(path, "the grid must have at least one point along each axis");
  for (int a = 0; a < 3; ++a)
    if (!(image.spacing[a] > 0.0) || !std::isfinite(image.spacing[a]) || !std::isfinite(image.origin[a]))
      fail(path, "the spacing must be positive and the origin finite");
  const std::uint64_t points = std::uint64_t(n1) * std::uint64_t(n2) * std::uint64_t(n3);
  if (image.arrays.empty()) fail(path, "no arrays to write");
  for (const VtiArray& a : image.arrays)
    if (a.values.size() != points)
      fail(path, "array '" + a.name + "' has " + std::to_string(a.values.size()) + " values for " + std::to_string(points) + " points");

  std::ostringstream xml;
  const std::string extent = "0 " + std::to_string(n1 - 1) + " 0 " + std::to_string(n2 - 1) + " 0 " + std::to_string(n3 - 1);
  xml << "<?xml version=\"1.0\"?>\n"
      << "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
      << "  <ImageData WholeExtent=\"" << extent << "\" Origin=\"" << triple(image.origin) << "\" Spacing=\""
      << triple(image.spacing) << "\">\n"
      << "    <Piece Extent=\"" << extent << "\">\n"
      << "      <PointData Scalars=\"" << escaped(image.arrays.front().name) << "\">\n";
  std::uint64_t offset = 0;
  const std::uint64_t bytes = points * sizeof(float);
  for (const VtiArray& a : image.arrays) {
    xml << "        <DataArray type=\"Float32\" Name=\"" << escaped(a.name) << "\" format=\"appended\" offset=\"" << offset
        << "\"/>\n";
    offset += sizeof(std::uint64_t) + bytes;
  }
  xml << "      </PointData>\n    </Piece>\n  </ImageData>\n  <AppendedData encoding=\"raw\">\n   _";

  // Whole or not at all (core/OutputFile): a reader never sees half a file, a failure keeps an older one.
  static_assert(sizeof(float) == 4);
  OutputFile out(path);
  out.write(xml.str());
  for (const VtiArray& a : image.arrays) {
    out.write(&bytes, sizeof bytes);  // little endian, like the data (x86, ARM)
    out.write(a.values.data(), bytes);
  }
  out.write("\n  </AppendedData>\n</VTKFile>\n");
  out.commit();
}

VtiImage readVti(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open the file");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t appended = text.find("<AppendedData encoding=\"raw\">");
  const std::size_t start = appended == std::string::npos ? appended : text.find('_', appended);
  if (start == std::string::npos) fail(path, "not a .vti file with raw appended data");
  const std::string head = text.substr(0, appended);
  if (head.find("type=\"ImageData\"") == std::string::npos || head.find("byte_order=\"LittleEndian\"") == std::string::npos ||
      head.find("header_type=\"UInt64\"") == std::string::npos)
    fail(path, "not a little-endian ImageData file with UInt64 headers");
  VtiImage image;
  std::smatch m;
  static const std::regex grid(R"re(<ImageData WholeExtent="0 (\d+) 0 (\d+) 0 (\d+)" Origin="(\S+) (\S+) (\S+)" Spacing="(\S+) (\S+) (\S+)")re");
  if (!std::regex_search(head, m, grid)) fail(path, "no ImageData extent, origin and spacing");
  for (int a = 0; a < 3; ++a) {
    image.size[a] = std::stoi(m[1 + a]) + 1;
    image.origin[a] = std::stod(m[4 + a]);
    image.spacing[a] = std::stod(m[7 + a]);
  }
  const std::uint64_t points = std::uint64_t(image.size[0]) * image.size[1] * image.size[2];
  static const std::regex array(R"re(<DataArray type="(\w+)" Name="([^"]*)" format="appended" offset="(\d+)"/>)re");
  for (auto it = std::sregex_iterator(head.begin(), head.end(), array); it != std::sregex_iterator(); ++it) {
    const std::smatch& a = *it;
    if (a[1] != "Float32") fail(path, "array '" + a[2].str() + "' is " + a[1].str() + ", not Float32");
    const std::uint64_t at = start + 1 + std::stoull(a[3]);
    std::uint64_t bytes = 0;
    if (at + sizeof bytes > text.size()) fail(path, "the file ends inside array '" + a[2].str() + "'");
    std::memcpy(&bytes, text.data() + at, sizeof bytes);
    if (bytes != points * sizeof(float) || at + sizeof bytes + bytes > text.size())
      fail(path, "array '" + a[2].str() + "' does not hold one float per point");
    VtiArray out{unescaped(a[2]), std::vector<float>(points)};
    std::memcpy(out.values.data(), text.data() + at + sizeof bytes, bytes);
    image.arrays.push_back(std::move(out));
  }
  if (image.arrays.empty()) fail(path, "no data arrays");
  return image;
}

}  // namespace iso
