#pragma once
// A private folder for the files a test writes: under GoogleTest's TempDir() ($TEST_TMPDIR or $TMPDIR,
// else /tmp), one per process (CTest runs every test in a process of its own), removed when the process
// ends. So tests do not depend on where the build folder is (a test binary copied to another machine
// still passes), two builds testing at once do not share files, and a test that fails half-way leaves
// nothing behind.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>

namespace iso::test {

inline std::filesystem::path scratchPath(const std::string& name) {
  struct Folder {
    std::filesystem::path path =
        std::filesystem::path(testing::TempDir()) / ("iso3dfd-test-" + std::to_string(::getpid()));
    Folder() { std::filesystem::create_directories(path); }
    ~Folder() {
      std::error_code ignored;  // nothing useful to do about a failed clean-up at exit
      std::filesystem::remove_all(path, ignored);
    }
  };
  static const Folder folder;
  return folder.path / name;
}

// The bytes of a file ("" when it cannot be read).
inline std::string readFileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace iso::test
