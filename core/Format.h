#pragma once
// How numbers and sizes are written in messages and tables, in one place so that every front end and
// error message prints them alike.
#include <cmath>
#include <cstdio>
#include <ctime>
#include <sstream>
#include <string>
#include <utility>
#include <string_view>

namespace iso {

// A list in a message, "a, b, c": the text nameOf(item) of each item (the item itself by default).
template <class Range, class NameOf>
std::string commaList(const Range& items, NameOf nameOf) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += ", ";
    out += nameOf(item);
  }
  return out;
}
template <class Range>
std::string commaList(const Range& items) {
  return commaList(items, [](const auto& item) { return std::string(item); });
}

// Six significant digits, shortest form (0.5, 100000, 1e+30): values as the user typed them.
inline std::string shortNumber(double x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

// Three significant digits, but whole numbers from 100 up in full ("4500", not "4.5e+03"): measured or
// derived values, where more digits would be noise.
inline std::string roundedNumber(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, std::fabs(x) >= 100.0 ? "%.0f" : "%.3g", x);
  return buf;
}

// Two numbers with the fewest significant digits (at least 3) that tell them apart, for a message that
// compares them ("dt = 0.0010001 exceeds the limit 0.001").
inline std::pair<std::string, std::string> distinctNumbers(double a, double b) {
  char x[40], y[40];
  for (int digits = 3; digits <= 17; ++digits) {
    std::snprintf(x, sizeof x, "%.*g", digits, a);
    std::snprintf(y, sizeof y, "%.*g", digits, b);
    if (std::string_view(x) != std::string_view(y)) break;
  }
  return {x, y};
}

// A byte count in the largest binary unit that keeps it at least 1: "512 bytes", "1.5 KiB", "20.0 MiB",
// "1.50 GiB", "2.00 TiB".
inline std::string byteSize(double bytes) {
  constexpr double kKiB = 1024.0, kMiB = kKiB * 1024.0, kGiB = kMiB * 1024.0, kTiB = kGiB * 1024.0;
  char buf[48];
  if (bytes >= kTiB)
    std::snprintf(buf, sizeof buf, "%.2f TiB", bytes / kTiB);
  else if (bytes >= kGiB)
    std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / kGiB);
  else if (bytes >= kMiB)
    std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / kMiB);
  else if (bytes >= kKiB)
    std::snprintf(buf, sizeof buf, "%.1f KiB", bytes / kKiB);
  else
    std::snprintf(buf, sizeof buf, "%.0f bytes", bytes);
  return buf;
}

// The current UTC time as ISO 8601, e.g. "2026-11-23T21:30:00Z": the date stamped on measurements.
inline std::string utcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

}  // namespace iso
