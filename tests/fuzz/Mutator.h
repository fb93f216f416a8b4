#pragma once
// The mutation side of the fuzzing suite: a seeded generator of malformed inputs made from valid ones
// (bit flips, truncation, inserted bytes, splices of two inputs, huge numbers, deep nesting), and the
// run settings: ISO_FUZZ_ITERATIONS (inputs per reader, default kDefaultIterations, a few seconds in
// all) and ISO_FUZZ_SEED (default kDefaultSeed). The same seed and count give the same inputs on every
// machine (mt19937_64 is specified exactly), so a failure names the iteration that reproduces it.
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace iso::fuzz {

inline constexpr long kDefaultIterations = 400;
inline constexpr std::uint64_t kDefaultSeed = 20261123;

inline long iterations() {
  const char* v = std::getenv("ISO_FUZZ_ITERATIONS");
  return v && *v ? std::max(1L, std::strtol(v, nullptr, 10)) : kDefaultIterations;
}

inline std::uint64_t seed() {
  const char* v = std::getenv("ISO_FUZZ_SEED");
  return v && *v ? std::strtoull(v, nullptr, 10) : kDefaultSeed;
}

class Mutator {
 public:
  explicit Mutator(std::uint64_t seed) : rng_(seed) {}

  std::size_t below(std::size_t n) { return n == 0 ? 0 : std::size_t(rng_() % n); }

  // A mutated copy of a random corpus entry: one mutation half of the time, two a quarter, ... (at
  // most six), each of a random kind. Single mutations keep many inputs close enough to valid to
  // reach the checks past the parser.
  std::string next(const std::vector<std::string>& corpus) {
    std::string input = corpus[below(corpus.size())];
    std::size_t count = 1;
    while (count < 6 && below(2) == 0) ++count;
    for (std::size_t m = 0; m < count; ++m) mutateOnce(input, corpus);
    return input;
  }

 private:
  void mutateOnce(std::string& s, const std::vector<std::string>& corpus) {
    static const char* const kNumbers[] = {"1e999",      "-1e999",   "18446744073709551616", "-9223372036854775809",
                                           "4294967296", "2147483648", "-2147483649",        "NaN",
                                           "1e-400",     "0",        "-1",                   "99999999999999999999999"};
    static const char* const kBytes[] = {"\x00", "\xff", "\x7f\xff\xff\xff", "\x80\x00\x00\x00", "\xff\xff\xff\xff",
                                         "\x00\x00\x00\x00"};
    const std::size_t at = below(s.size() + 1);
    switch (below(11)) {
      case 0:  // bit flip
        if (!s.empty()) s[below(s.size())] ^= char(1u << below(8));
        break;
      case 1:  // truncation
        s.resize(below(s.size() + 1));
        break;
      case 2: {  // random bytes inserted
        std::string bytes(1 + below(16), '\0');
        for (auto& c : bytes) c = char(below(256));
        s.insert(at, bytes);
        break;
      }
      case 3: {  // an extreme binary value written over the bytes there
        const std::size_t n = below(std::size(kBytes));
        const std::string v(kBytes[n], n == 0 ? 1 : n == 1 ? 1 : 4);
        s.replace(at, v.size(), v);
        break;
      }
      case 4: {  // splice: a piece of another input
        const std::string& other = corpus[below(corpus.size())];
        const std::size_t from = below(other.size() + 1), length = below(other.size() - from + 1);
        s.replace(at, below(s.size() - at + 1), other.substr(from, length));
        break;
      }
      case 5: {  // a number replaced by a huge or odd one (text formats), or inserted
        const std::string number = kNumbers[below(std::size(kNumbers))];
        const std::size_t digit = s.find_first_of("0123456789", at);
        if (digit == std::string::npos) {
          s.insert(at, number);
        } else {
          const std::size_t end = s.find_first_not_of("0123456789.eE+-", digit);
          s.replace(digit, (end == std::string::npos ? s.size() : end) - digit, number);
        }
        break;
      }
      case 6: {  // deep nesting: a run of openers, sometimes closed, now and then very deep
        const std::size_t depth = below(8) == 0 ? 100000 : 1 + below(200);
        const bool objects = below(2) == 0;
        std::string run;
        for (std::size_t d = 0; d < depth; ++d) run += objects ? "{\"a\":" : "[";
        if (below(2) == 0) run += "1" + std::string(depth, objects ? '}' : ']');
        s.insert(at, run);
        break;
      }
      case 7: {  // a chunk repeated
        const std::size_t from = below(s.size() + 1), length = below(std::min<std::size_t>(s.size() - from, 4096) + 1);
        s.insert(at, s.substr(from, length));
        break;
      }
      case 8: {  // a chunk removed
        s.erase(at, below(s.size() - at + 1));
        break;
      }
      case 9: {  // a number replaced by a small one (often still valid: reaches the range checks)
        const std::size_t digit = s.find_first_of("0123456789", at);
        if (digit == std::string::npos) break;
        const std::size_t end = s.find_first_not_of("0123456789", digit);
        s.replace(digit, (end == std::string::npos ? s.size() : end) - digit, std::to_string(below(1000)));
        break;
      }
      default: {  // a few bytes overwritten with random ones
        for (std::size_t n = 1 + below(4); n > 0 && !s.empty(); --n) s[below(s.size())] = char(below(256));
        break;
      }
    }
  }

  std::mt19937_64 rng_;
};

}  // namespace iso::fuzz
