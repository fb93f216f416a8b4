#include "core/JsonInput.h"

#include <filesystem>

#include "core/InputFile.h"

namespace iso {

namespace {

using nlohmann::json;

// Reads the text without building anything, and stops where objects and arrays nest deeper than
// kMaxJsonDepth. A syntax error also stops it; the parse that follows reports it.
struct NestingCheck : nlohmann::json_sax<json> {
  int depth = 0;
  bool tooDeep = false;

  bool open() {
    tooDeep = depth >= kMaxJsonDepth;
    ++depth;
    return !tooDeep;
  }
  bool close() {
    --depth;
    return true;
  }
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return open(); }
  bool key(string_t&) override { return true; }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
};

// A message from elsewhere, cut where it would grow past a few lines.
std::string excerptOfMessage(std::string msg) {
  constexpr std::size_t kMaxMessage = 300;
  if (msg.size() > kMaxMessage) msg = msg.substr(0, kMaxMessage - 3) + "...";
  return msg;
}

// The start of v's JSON text: never more than about kExcerptChars are produced, however large or
// deeply nested v is (dump() would write all of it, recursively).
void appendExcerpt(const json& v, std::string& out) {
  if (out.size() > kExcerptChars) return;
  if (v.is_array() || v.is_object()) {
    out += v.is_array() ? '[' : '{';
    bool first = true;
    for (auto it = v.begin(); it != v.end() && out.size() <= kExcerptChars; ++it) {
      if (!first) out += ", ";
      first = false;
      if (v.is_object()) out += json(excerpt(it.key())).dump() + ": ";
      appendExcerpt(*it, out);
    }
    out += v.is_array() ? ']' : '}';
  } else if (v.is_string()) {
    out += json(excerpt(v.get_ref<const std::string&>())).dump();
  } else {
    out += v.dump();
  }
}

// nlohmann's message without its "[json.exception...] " prefix, with the token it quotes ("last read:
// '...'; expected ...", "number overflow parsing '...'") cut to an excerpt: the token can be the rest of
// the file.
std::string jsonErrorMessage(const json::exception& e) {
  std::string msg = e.what();
  if (const auto prefixEnd = msg.find("] "); msg.rfind("[json.exception.", 0) == 0 && prefixEnd != std::string::npos)
    msg.erase(0, prefixEnd + 2);
  std::size_t open = msg.find("last read: '");
  open = open != std::string::npos ? open + 12 : msg.find("parsing '");
  if (open == std::string::npos) return excerptOfMessage(std::move(msg));
  if (msg.compare(open, 9, "parsing '") == 0) open += 9;
  std::size_t close = msg.find("'; expected", open);
  if (close == std::string::npos) close = msg.size() > open && msg.back() == '\'' ? msg.size() - 1 : msg.size();
  return msg.substr(0, open) + excerpt(msg.substr(open, close - open)) + excerptOfMessage(msg.substr(close));
}

}  // namespace

std::string excerpt(std::string text) {
  if (text.size() <= kExcerptChars) return text;
  std::size_t n = kExcerptChars - 3;
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  text.resize(n);
  return text + "...";
}

std::string excerpt(const json& v) {
  std::string out;
  appendExcerpt(v, out);
  return excerpt(std::move(out));
}

json parseJsonInput(std::string_view text) {
  if (text.size() > kMaxJsonBytes)
    throw JsonInputError("the text is " + std::to_string(text.size()) + " bytes, over the limit of " +
                         std::to_string(kMaxJsonBytes >> 20) + " MiB");
  // The parser itself does not recurse, but dumping or destroying a value does: depth is capped by a
  // pass over the text before such a value exists. (Not by a parser callback: nlohmann's callback parser
  // scans the enclosing array at the end of every object in it, which makes 300,000 receivers take minutes.)
  NestingCheck nesting;
  json::sax_parse(text, &nesting);
  if (nesting.tooDeep)
    throw JsonInputError("malformed JSON: objects and arrays nested more than " + std::to_string(kMaxJsonDepth) +
                         " levels deep");
  try {
    return json::parse(text);
  } catch (const json::exception& e) {  // parse errors, and out_of_range for a number too large for a double
    throw JsonInputError("malformed JSON: " + jsonErrorMessage(e));
  }
}

json readJsonFile(const std::string& path, const std::string& what) {
  const std::string text = readInputFile(path, kMaxJsonBytes, what);
  try {
    return parseJsonInput(text);
  } catch (const JsonInputError& e) {
    throw JsonInputError(what + " '" + shownPath(path) + "': " + e.what());
  }
}

CacheJson readCacheJson(const std::string& path) {
  CacheJson cache;
  std::error_code ec;
  if (path.empty() || !std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return cache;
  try {
    cache.value = parseJsonInput(readInputFile(path, kMaxJsonBytes, "cache file"));
    if (!cache.value.is_object()) cache.problem = "it holds " + excerpt(cache.value) + ", not a JSON object";
  } catch (const FileReadError& e) {
    cache.problem = e.what();
  } catch (const JsonInputError& e) {
    cache.problem = e.what();
  }
  if (!cache.problem.empty()) cache.value = nlohmann::json::object();
  return cache;
}

}  // namespace iso
