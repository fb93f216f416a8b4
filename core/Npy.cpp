#include "core/Npy.h"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string_view>

#include "core/Allocation.h"
#include "core/InputFile.h"
#include "core/OutputFile.h"

namespace iso {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicSize = 6;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw std::runtime_error("'" + path + "': " + what);
}

// The text that follows `'key':` in the header dict, with leading spaces skipped.
std::string_view valueOf(std::string_view header, std::string_view key, const std::string& path) {
  std::string quoted(1, '\'');  // built by append: GCC 12 warns falsely (-Wrestrict) on "'" + key
  quoted.append(key).push_back('\'');
  auto pos = header.find(quoted);
  if (pos == std::string_view::npos) fail(path, "malformed .npy header: no " + quoted + " entry");
  pos = header.find(':', pos + quoted.size());
  if (pos == std::string_view::npos) fail(path, "malformed .npy header: no value for " + quoted);
  pos = header.find_first_not_of(' ', pos + 1);
  if (pos == std::string_view::npos) fail(path, "malformed .npy header: no value for " + quoted);
  return header.substr(pos);
}

std::vector<std::size_t> parseShape(std::string_view value, const std::string& path) {
  if (value.empty() || value.front() != '(') fail(path, "malformed .npy header: 'shape' is not a tuple");
  const auto close = value.find(')');
  if (close == std::string_view::npos) fail(path, "malformed .npy header: 'shape' tuple is not closed");
  std::vector<std::size_t> shape;
  std::size_t pos = 1;
  while (pos < close) {
    pos = value.find_first_not_of(" ,", pos);
    if (pos >= close) break;
    std::size_t dim = 0, digits = 0;
    while (pos < close && value[pos] >= '0' && value[pos] <= '9') {
      dim = dim * 10 + std::size_t(value[pos++] - '0');
      if (++digits > 15) fail(path, "malformed .npy header: a dimension of 'shape' is too large");
    }
    if (digits == 0) fail(path, "malformed .npy header: 'shape' holds something other than integers");
    shape.push_back(dim);
  }
  return shape;
}

}  // namespace

NpyArray readNpy(const std::string& path) {
  // A regular file, whose size the header is checked against (a FIFO would block the open, a device
  // would never end).
  const std::uintmax_t fileBytes = regularInputSize(path, ".npy file");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open the file for reading");
  char magic[kMagicSize + 2];
  if (!in.read(magic, sizeof magic) || std::memcmp(magic, kMagic, kMagicSize) != 0)
    fail(path, "not a .npy file (the magic string \\x93NUMPY is missing)");
  const int major = static_cast<unsigned char>(magic[6]);
  if (major != 1 && major != 2)
    fail(path, "unsupported .npy format version " + std::to_string(major) + " (1.0 and 2.0 are read)");
  unsigned char lengthBytes[4] = {0, 0, 0, 0};
  const int lengthSize = major == 1 ? 2 : 4;
  if (!in.read(reinterpret_cast<char*>(lengthBytes), lengthSize)) fail(path, "truncated .npy header");
  const std::uint32_t headerLength = std::uint32_t(lengthBytes[0]) | std::uint32_t(lengthBytes[1]) << 8 |
                                     std::uint32_t(lengthBytes[2]) << 16 | std::uint32_t(lengthBytes[3]) << 24;
  if (headerLength > (1u << 20)) fail(path, "malformed .npy header: header length over 1 MiB");
  std::string header(headerLength, '\0');
  if (!in.read(header.data(), headerLength)) fail(path, "truncated .npy header");

  const auto descr = valueOf(header, "descr", path);
  if (descr.substr(0, 5) != "'<f4'") {
    const auto end = descr.find_first_of(",}");
    fail(path, "unsupported dtype " + std::string(descr.substr(0, end)) +
                   ": only little-endian float32 '<f4' is read (convert with astype('<f4'))");
  }
  const auto order = valueOf(header, "fortran_order", path);
  if (order.substr(0, 4) == "True")
    fail(path, "Fortran-ordered arrays are not supported (save with np.ascontiguousarray)");
  if (order.substr(0, 5) != "False") fail(path, "malformed .npy header: 'fortran_order' is not True/False");

  NpyArray array;
  array.shape = parseShape(valueOf(header, "shape", path), path);
  std::size_t count = 1;
  for (auto d : array.shape) {
    if (d != 0 && count > (std::size_t(1) << 40) / d) fail(path, "shape too large (over 2^40 elements)");
    count *= d;
  }
  // The file must hold exactly the data the header announces: checked before anything is allocated,
  // so that a small file claiming a huge shape is refused at once.
  const auto dataStart = std::uintmax_t(kMagicSize) + 2 + std::uintmax_t(lengthSize) + headerLength;
  const std::uintmax_t dataBytes = std::uintmax_t(count) * sizeof(float);
  const std::uintmax_t heldBytes = fileBytes > dataStart ? fileBytes - dataStart : 0;
  if (heldBytes != dataBytes)
    fail(path, std::string("data is ") + (heldBytes < dataBytes ? "shorter" : "longer") +
                   " than the shape in the header says (" + std::to_string(count) + " float32 values = " +
                   std::to_string(dataBytes) + " bytes; the file holds " + std::to_string(heldBytes) + ")");
  array.data = allocateArray(count, "the .npy data of '" + path + "'");
  if (!in.read(reinterpret_cast<char*>(array.data.data()), std::streamsize(count * sizeof(float))))
    fail(path, "read failed (the file changed while it was read?)");
  return array;
}

void writeNpy(const std::string& path, const float* data, const std::vector<std::size_t>& shape) {
  std::string dims;
  std::size_t count = 1;
  for (auto d : shape) {
    dims += std::to_string(d) + ", ";
    count *= d;
  }
  if (shape.size() > 1) dims.resize(dims.size() - 2);  // NumPy writes (3, 4) but (3,) for one dim
  else if (shape.size() == 1) dims.resize(dims.size() - 1);
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + dims + "), }";
  // Pad with spaces and end with '\n' so that the data starts at a multiple of 64 bytes, like NumPy.
  const std::size_t unpadded = kMagicSize + 2 + 2 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header.push_back('\n');
  if (header.size() > 65535) fail(path, "too many dimensions for a version 1.0 header");

  const unsigned char version[2] = {1, 0};
  const unsigned char length[2] = {static_cast<unsigned char>(header.size() & 0xff),
                                   static_cast<unsigned char>(header.size() >> 8)};
  OutputFile out(path);
  out.write(kMagic, kMagicSize);
  out.write(version, 2);
  out.write(length, 2);
  out.write(header);
  out.write(data, count * sizeof(float));
  out.commit();
}

}  // namespace iso
