#pragma once
// JSON that comes from outside: scenario files, checkpoint headers, the caches (tuning.json,
// bandwidth.json, host-bandwidth.json), benchmark reports. Real ones are KiB and a few levels deep; the
// caps are checked as the text is read, before any value exists, because dumping a value recurses (a
// file nested a million levels deep overflows the stack) and a huge file fills memory. Messages quote at
// most an excerpt of the text.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace iso {

inline constexpr std::size_t kMaxJsonBytes = std::size_t(16) << 20;
inline constexpr int kMaxJsonDepth = 64;
inline constexpr std::size_t kExcerptChars = 60;

struct JsonInputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws JsonInputError: "malformed JSON: <the parser's message, its token cut to an excerpt>", "malformed
// JSON: objects and arrays nested more than 64 levels deep", or "the text is N bytes, over the limit of
// 16 MiB".
nlohmann::json parseJsonInput(std::string_view text);

// readInputFile (InputFile.h, at most kMaxJsonBytes), then parseJsonInput. Throws FileReadError or
// JsonInputError, each naming `what` and the path.
nlohmann::json readJsonFile(const std::string& path, const std::string& what = "file");

// A cache file's JSON object as read (the caches: tuning.json, bandwidth.json, host-bandwidth.json):
// never throws. `problem` says why the file cannot be used ("" when it can, or when there is no file:
// then `value` is an empty object); the caller sets it aside or ignores it (CacheDirectory.h).
struct CacheJson {
  nlohmann::json value = nlohmann::json::object();
  std::string problem;
};
CacheJson readCacheJson(const std::string& path);

// `text` cut to at most kExcerptChars bytes (at a UTF-8 character boundary), "..." marking a cut.
std::string excerpt(std::string text);
// The start of the value's JSON text, however large or deeply nested the value is.
std::string excerpt(const nlohmann::json& value);

}  // namespace iso
