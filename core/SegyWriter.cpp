#include "core/SegyWriter.h"

#include <segyio/segy.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "core/OutputFile.h"

namespace iso {

namespace {

constexpr int kMaxShort = 32767;   // two-byte header fields are read as signed by segyio and others
constexpr int kDescriptionLines = 38;
constexpr int kTextColumns = 80;
constexpr int kIeeeFloat = 5;      // data sample format code: 4-byte IEEE floating point
constexpr int kRevision1 = 0x0100;  // bytes 3501-3502: major revision 1, minor 0

// Code page 037 for the characters every EBCDIC table used for SEG-Y (037, 500, Seismic Unix's)
// encodes alike; anything else is written as '?'.
unsigned char ebcdicOf(char c) {
  if (c >= '0' && c <= '9') return static_cast<unsigned char>(0xF0 + (c - '0'));
  if (c >= 'A' && c <= 'I') return static_cast<unsigned char>(0xC1 + (c - 'A'));
  if (c >= 'J' && c <= 'R') return static_cast<unsigned char>(0xD1 + (c - 'J'));
  if (c >= 'S' && c <= 'Z') return static_cast<unsigned char>(0xE2 + (c - 'S'));
  if (c >= 'a' && c <= 'i') return static_cast<unsigned char>(0x81 + (c - 'a'));
  if (c >= 'j' && c <= 'r') return static_cast<unsigned char>(0x91 + (c - 'j'));
  if (c >= 's' && c <= 'z') return static_cast<unsigned char>(0xA2 + (c - 's'));
  static constexpr std::string_view punctuation = " .<(+&$*);-/,%_>?:#@'=\"";
  static constexpr std::array<unsigned char, 23> codes = {0x40, 0x4B, 0x4C, 0x4D, 0x4E, 0x50, 0x5B, 0x5C,
                                                          0x5D, 0x5E, 0x60, 0x61, 0x6B, 0x6C, 0x6D, 0x6E,
                                                          0x6F, 0x7A, 0x7B, 0x7C, 0x7D, 0x7E, 0x7F};
  static_assert(punctuation.size() == codes.size());
  const std::size_t at = punctuation.find(c);
  return at == std::string_view::npos ? 0x6F : codes[at];
}

// 40 card images of 80 columns, "C 1 " to "C40 ", in EBCDIC.
std::string textualHeader(const std::vector<std::string>& description) {
  if (description.size() > std::size_t(kDescriptionLines))
    throw std::invalid_argument("the SEG-Y textual header holds " + std::to_string(kDescriptionLines) + " lines of description, not " +
                                std::to_string(description.size()));
  std::vector<std::string> lines = description;
  lines.resize(kDescriptionLines);
  lines.push_back("SEG Y REV1");
  lines.push_back("END TEXTUAL HEADER");
  std::string text;
  for (std::size_t n = 0; n < lines.size(); ++n) {
    if (lines[n].size() > std::size_t(kTextColumns - 4))
      throw std::invalid_argument("SEG-Y textual header line " + std::to_string(n + 1) + " is longer than 76 characters");
    std::string card = (n + 1 < 10 ? "C " : "C") + std::to_string(n + 1) + " " + lines[n];
    card.resize(kTextColumns, ' ');
    for (char c : card) text += char(ebcdicOf(c));
  }
  return text;
}

void setBinary(std::string& header, int field, int value) {
  if (segy_set_bfield(header.data(), field, value) != SEGY_OK)
    throw std::logic_error("segyio refused binary header field " + std::to_string(field));
}

void setTrace(std::string& header, int field, long long value) {
  if (value < INT32_MIN || value > INT32_MAX)
    throw std::invalid_argument("SEG-Y trace header field " + std::to_string(field) + " cannot hold " + std::to_string(value));
  if (segy_set_field(header.data(), field, std::int32_t(value)) != SEGY_OK)
    throw std::logic_error("segyio refused trace header field " + std::to_string(field));
}

// Positions are stored as integers in metres / divisor: the smallest of 1, 10, ..., 10000 that holds
// every one exactly, else the finest that fits in 32 bits (rounding them).
struct Units {
  int divisor = 1;
  bool rounded = false;
  long long of(double metres) const { return std::llround(metres * divisor); }
};

Units unitsFor(const SegyGather& g) {
  std::vector<double> values{g.source.x, g.source.y, g.source.depth};
  for (const SegyPosition& r : g.receivers) values.insert(values.end(), {r.x, r.y, r.depth});
  const auto fits = [&](int d) {
    return std::all_of(values.begin(), values.end(), [d](double v) { return std::isfinite(v) && std::abs(v * d) <= INT32_MAX; });
  };
  const auto exact = [&](int d) {
    return std::all_of(values.begin(), values.end(), [d](double v) { return std::abs(v * d - std::round(v * d)) <= 1e-6; });
  };
  Units units;
  for (int d = 1; d <= 10000 && fits(d); d *= 10) {
    units.divisor = d;
    if (exact(d)) return units;
  }
  if (!fits(1)) throw std::invalid_argument("source and receiver positions must be finite and within 2147 km");
  units.rounded = true;
  return units;
}

std::string binaryHeader(int receivers, int samples, int microseconds) {
  std::string header(SEGY_BINARY_HEADER_SIZE, '\0');
  for (const auto& [field, value] : std::initializer_list<std::pair<int, int>>{
           {SEGY_BIN_JOB_ID, 1}, {SEGY_BIN_LINE_NUMBER, 1}, {SEGY_BIN_REEL_NUMBER, 1},
           {SEGY_BIN_TRACES, receivers}, {SEGY_BIN_INTERVAL, microseconds}, {SEGY_BIN_INTERVAL_ORIG, microseconds},
           {SEGY_BIN_SAMPLES, samples}, {SEGY_BIN_SAMPLES_ORIG, samples}, {SEGY_BIN_FORMAT, kIeeeFloat},
           {SEGY_BIN_ENSEMBLE_FOLD, 1}, {SEGY_BIN_SORTING_CODE, 1 /* as recorded */}, {SEGY_BIN_VERTICAL_SUM, 1},
           {SEGY_BIN_MEASUREMENT_SYSTEM, 1 /* metres */}, {SEGY_BIN_SEGY_REVISION, kRevision1},
           {SEGY_BIN_TRACE_FLAG, 1 /* fixed length */}, {SEGY_BIN_EXT_HEADERS, 0}})
    setBinary(header, field, value);
  return header;
}

// Signed horizontal distance from the source, in whole metres (SEG-Y does not scale the offset):
// negative for a receiver on the −x side of the source, or at the same x on its −y side.
long long offsetOf(const SegyPosition& source, const SegyPosition& r) {
  const double dx = r.x - source.x, dy = r.y - source.y;
  const double distance = std::hypot(dx, dy);
  return std::llround(dx < 0.0 || (dx == 0.0 && dy < 0.0) ? -distance : distance);
}

std::string traceHeader(const SegyGather& g, std::size_t r, int samples, int microseconds, const Units& units) {
  std::string header(SEGY_TRACE_HEADER_SIZE, '\0');
  const long long number = (long long)(r) + 1;
  const SegyPosition& receiver = g.receivers[r];
  for (const auto& [field, value] : std::initializer_list<std::pair<int, long long>>{
           {SEGY_TR_SEQ_LINE, number}, {SEGY_TR_SEQ_FILE, number}, {SEGY_TR_FIELD_RECORD, 1},
           {SEGY_TR_NUMBER_ORIG_FIELD, number}, {SEGY_TR_ENERGY_SOURCE_POINT, 1}, {SEGY_TR_ENSEMBLE, 1},
           {SEGY_TR_NUM_IN_ENSEMBLE, number}, {SEGY_TR_TRACE_ID, 1 /* seismic data */}, {SEGY_TR_SUMMED_TRACES, 1},
           {SEGY_TR_STACKED_TRACES, 1}, {SEGY_TR_DATA_USE, 1 /* production */}, {SEGY_TR_OFFSET, offsetOf(g.source, receiver)},
           {SEGY_TR_RECV_GROUP_ELEV, -units.of(receiver.depth)}, {SEGY_TR_SOURCE_DEPTH, units.of(g.source.depth)},
           {SEGY_TR_ELEV_SCALAR, units.divisor == 1 ? 1 : -units.divisor},
           {SEGY_TR_SOURCE_GROUP_SCALAR, units.divisor == 1 ? 1 : -units.divisor},
           {SEGY_TR_SOURCE_X, units.of(g.source.x)}, {SEGY_TR_SOURCE_Y, units.of(g.source.y)},
           {SEGY_TR_GROUP_X, units.of(receiver.x)}, {SEGY_TR_GROUP_Y, units.of(receiver.y)},
           {SEGY_TR_COORD_UNITS, 1 /* length */}, {SEGY_TR_SAMPLE_COUNT, samples}, {SEGY_TR_SAMPLE_INTER, microseconds}})
    setTrace(header, field, value);
  return header;
}

}  // namespace

std::string segyLimitProblem(std::size_t receivers, std::size_t samples, double interval) {
  if (receivers == 0) return "no receivers: a SEG-Y gather needs at least one trace";
  if (receivers > std::size_t(kMaxShort))
    return "SEG-Y rev 1 holds at most 32767 traces per ensemble, not " + std::to_string(receivers);
  if (samples == 0 || samples > std::size_t(kMaxShort))
    return "SEG-Y rev 1 holds 1 to 32767 samples per trace, not " + std::to_string(samples) +
           ": write the traces as .npy or .csv, or run fewer steps";
  const double microseconds = interval * 1e6;
  if (!(microseconds >= 0.5 && microseconds < kMaxShort + 0.5))
    return "SEG-Y stores the sample interval in whole microseconds from 1 to 32767; " + std::to_string(microseconds) +
           " us does not fit";
  return "";
}

SegyWriteReport writeSegyGather(const std::string& path, const SegyGather& g) {
  const std::size_t receivers = g.receivers.size();
  if (receivers != 0 && g.samples.size() % receivers != 0)
    throw std::invalid_argument(std::to_string(g.samples.size()) + " samples are not a whole number of rows of " +
                                std::to_string(receivers) + " receivers");
  const std::size_t samples = receivers == 0 ? 0 : g.samples.size() / receivers;
  if (const std::string problem = segyLimitProblem(receivers, samples, g.sampleInterval); !problem.empty())
    throw std::invalid_argument(problem);
  const double microseconds = g.sampleInterval * 1e6;
  SegyWriteReport report;
  report.sampleIntervalMicroseconds = int(std::lround(microseconds));
  report.intervalRounded = std::abs(microseconds - report.sampleIntervalMicroseconds) > 1e-6;
  const Units units = unitsFor(g);
  report.coordinateDivisor = units.divisor;
  report.positionsRounded = units.rounded;

  const std::string text = textualHeader(g.description);
  const int n = int(samples), us = report.sampleIntervalMicroseconds;
  OutputFile out(path);
  out.write(text);
  out.write(binaryHeader(int(receivers), n, us));
  std::vector<float> trace(samples);
  for (std::size_t r = 0; r < receivers; ++r) {
    out.write(traceHeader(g, r, n, us, units));
    for (std::size_t s = 0; s < samples; ++s) trace[s] = g.samples[s * receivers + r];
    segy_from_native(kIeeeFloat, (long long)(samples), trace.data());  // big-endian IEEE, in place
    out.write(trace.data(), samples * sizeof(float));
  }
  out.commit();
  return report;
}

}  // namespace iso
