#pragma once
// How numbers and sizes are written in messages and tables, in one place so that every front end and
// error message prints them alike.
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

namespace iso {

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

// A byte count in GiB (2^30) with two decimals, e.g. "1.50 GiB".
inline std::string gibibytes(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return buf;
}

}  // namespace iso
