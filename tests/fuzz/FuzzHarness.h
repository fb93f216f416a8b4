#pragma once
// The driver of the fuzzing suite: feeds a reader the seeds of its corpus (each must be accepted), then
// iterations() mutations of them (Mutator.h). The reader returns true for an accepted input and throws
// its own error type E for a refused one; anything else (another exception, a crash, a hang, a sanitizer
// report) fails the test, naming the seed and the iteration that reproduce it. $ISO_FUZZ_LAST_INPUT,
// when set, receives each input before it is read: after a crash it holds the input that caused it.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <typeinfo>
#include <vector>

#include "tests/ScratchDir.h"
#include "tests/fuzz/Mutator.h"

namespace iso::fuzz {

// Longer messages mean a value was quoted unbounded.
inline constexpr std::size_t kMaxMessage = 1000;

inline void writeBytes(const std::string& path, const std::string& bytes) {
  // A new file each time: ext4 flushes a file truncated and rewritten in place as it is closed.
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
  std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

// The notes the cache readers print for each damaged file go to a scratch file while it lives: a
// campaign of hundreds of damaged caches would bury the test's own output.
class QuietStandardError {
 public:
  QuietStandardError() : saved_(::dup(STDERR_FILENO)) {
    std::fflush(stderr);
    const int sink = ::open(test::scratchPath("fuzz-notes.txt").c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (sink >= 0) {
      ::dup2(sink, STDERR_FILENO);
      ::close(sink);
    }
  }
  ~QuietStandardError() {
    std::fflush(stderr);
    if (saved_ >= 0) {
      ::dup2(saved_, STDERR_FILENO);
      ::close(saved_);
    }
  }
  QuietStandardError(const QuietStandardError&) = delete;
  QuietStandardError& operator=(const QuietStandardError&) = delete;

 private:
  int saved_;
};

// `minRefused`: the share of inputs that must be refused (of 100 or more): mutations that never fail a
// check do not test it. `share`: the part of iterations() this reader runs, for readers whose every
// input costs a file synced to disk (milliseconds each).
template <class E>
void fuzz(const char* reader, const std::vector<std::string>& corpus, const std::function<bool(const std::string&)>& read,
          double minRefused = 0.25, double share = 1.0) {
  ASSERT_FALSE(corpus.empty());
  for (const auto& valid : corpus) ASSERT_TRUE(read(valid)) << reader << ": a seed of the corpus is refused";
  Mutator mutator(seed());
  const char* lastInput = std::getenv("ISO_FUZZ_LAST_INPUT");
  long accepted = 0, refused = 0;
  const long n = std::max(1L, long(double(iterations()) * share));
  for (long i = 0; i < n; ++i) {
    const std::string input = mutator.next(corpus);
    if (lastInput && *lastInput) writeBytes(lastInput, input);
    const auto where = [&] { return std::string(reader) + ", seed " + std::to_string(seed()) + ", iteration " + std::to_string(i); };
    try {
      if (read(input))
        ++accepted;
      else
        ADD_FAILURE() << where() << ": the reader neither accepted nor refused the input";
    } catch (const E& e) {
      ++refused;
      EXPECT_LT(std::string(e.what()).size(), kMaxMessage) << where() << ": " << std::string(e.what()).substr(0, 300);
    } catch (const std::exception& e) {
      ADD_FAILURE() << where() << ": unexpected " << typeid(e).name() << ": " << e.what();
    }
  }
  // Both outcomes occur, or the mutations never reach past the first check (or never fail one).
  if (n >= 100) {
    EXPECT_GT(accepted, 0) << reader;
    EXPECT_GT(double(refused), minRefused * double(n)) << reader;
  }
  std::printf("[ fuzz     ] %s: %ld inputs, %ld accepted, %ld refused (seed %llu)\n", reader, n, accepted, refused,
              static_cast<unsigned long long>(seed()));
}

}  // namespace iso::fuzz
