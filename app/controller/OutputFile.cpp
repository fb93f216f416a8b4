#include "OutputFile.h"

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace iso {

namespace fs = std::filesystem;

namespace {

fs::path temporaryPathFor(const fs::path& target) {
  static std::atomic<unsigned> counter{0};
  // Hidden, and unique per process and call, so two writers of one target never share it.
  return target.parent_path() / ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                                 std::to_string(counter++));
}

}  // namespace

void writeFileAtomically(const std::string& path, const std::function<void(const std::string&)>& write) {
  if (path.empty()) throw std::runtime_error("the output file name is empty");
  const fs::path target(path);
  std::error_code ec;
  if (fs::is_directory(target, ec)) throw std::runtime_error("'" + path + "' is a folder, not a file");
  const fs::path temporary = temporaryPathFor(target);
  try {
    write(temporary.string());
    if (!fs::is_regular_file(temporary, ec))
      throw std::runtime_error("'" + path + "': nothing was written");
    fs::rename(temporary, target, ec);
    if (ec) throw std::runtime_error("'" + path + "': cannot replace the file (" + ec.message() + ")");
  } catch (...) {
    fs::remove(temporary, ec);
    throw;
  }
}

void writeTextFileAtomically(const std::string& path, const std::string& text) {
  writeFileAtomically(path, [&](const std::string& temporary) {
    std::ofstream out(temporary, std::ios::binary);
    if (!out) throw std::runtime_error("'" + path + "': cannot open the file for writing");
    out.write(text.data(), std::streamsize(text.size()));
    out.close();
    if (out.fail()) throw std::runtime_error("'" + path + "': write failed (disk full or not writable?)");
  });
}

bool samePath(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec);
  return fs::weakly_canonical(fs::absolute(a, ec), ec) == fs::weakly_canonical(fs::absolute(b, ec), ec);
}

}  // namespace iso
