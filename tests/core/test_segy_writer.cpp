// SEG-Y shot gathers: every header field at the byte the rev 1 standard puts it (read here byte by
// byte, not through segyio, which wrote them), the samples, the rounding reports and the refusals.
// tests/python/check_segy_traces.py reads the CLI's files with Debian's python3-segyio as well.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/OutputFile.h"
#include "core/SegyWriter.h"
#include "core/Traces.h"
#include "tests/ScratchDir.h"

namespace iso {
namespace {

std::string fileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Big-endian integers at 1-based byte positions, as the standard numbers them.
std::int32_t int32At(const std::string& b, std::size_t byte) {
  const auto* p = reinterpret_cast<const unsigned char*>(b.data() + byte - 1);
  return std::int32_t(std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3]);
}
std::int16_t int16At(const std::string& b, std::size_t byte) {
  const auto* p = reinterpret_cast<const unsigned char*>(b.data() + byte - 1);
  return std::int16_t(std::uint16_t(p[0]) << 8 | p[1]);
}
float floatAt(const std::string& b, std::size_t byte) {
  const std::uint32_t bits = std::uint32_t(int32At(b, byte));
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}

constexpr std::size_t kFirstTrace = 3600;

SegyGather sampleGather() {
  SegyGather g;
  g.sampleInterval = 0.00075;
  g.source = {480.0, 320.0, 80.0};
  g.receivers = {{180.0, 320.0, 70.0}, {780.0, 320.0, 70.0}, {480.0, 12.5, 0.0}};
  for (int n = 0; n < 5; ++n)
    for (int r = 0; r < 3; ++r) g.samples.push_back(float(n) - 0.25f * float(r) + (n == 4 ? 1e-30f : 0.0f));
  g.description = {"first line", "Second Line: (x, y) = 12.5 m;"};
  return g;
}

TEST(SegyWriter, WritesEveryHeaderFieldWhereRev1PutsIt) {
  const auto path = test::scratchPath("gather.sgy");
  const SegyGather g = sampleGather();
  const SegyWriteReport report = writeSegyGather(path.string(), g);
  EXPECT_EQ(report.sampleIntervalMicroseconds, 750);
  EXPECT_FALSE(report.intervalRounded);
  EXPECT_EQ(report.coordinateDivisor, 10);  // 12.5 m needs decimetres
  EXPECT_FALSE(report.positionsRounded);

  const std::string b = fileBytes(path);
  const std::size_t traceBytes = 240 + 5 * 4;
  ASSERT_EQ(b.size(), kFirstTrace + 3 * traceBytes);
  // Binary header.
  EXPECT_EQ(int16At(b, 3213), 3);     // traces per ensemble
  EXPECT_EQ(int16At(b, 3217), 750);   // sample interval, µs
  EXPECT_EQ(int16At(b, 3221), 5);     // samples per trace
  EXPECT_EQ(int16At(b, 3225), 5);     // IEEE float
  EXPECT_EQ(int16At(b, 3255), 1);     // metres
  EXPECT_EQ(int16At(b, 3501), 0x0100);  // revision 1.0
  EXPECT_EQ(int16At(b, 3503), 1);     // fixed-length traces
  EXPECT_EQ(int16At(b, 3505), 0);     // no extended textual headers
  for (int r = 0; r < 3; ++r) {
    const std::size_t h = kFirstTrace + std::size_t(r) * traceBytes;
    const auto tr32 = [&](std::size_t byte) { return int32At(b, h + byte); };
    const auto tr16 = [&](std::size_t byte) { return int16At(b, h + byte); };
    EXPECT_EQ(tr32(1), r + 1);   // sequence in line
    EXPECT_EQ(tr32(5), r + 1);   // sequence in file
    EXPECT_EQ(tr32(9), 1);       // field record
    EXPECT_EQ(tr32(13), r + 1);  // trace in field record
    EXPECT_EQ(tr32(25), r + 1);  // trace in ensemble
    EXPECT_EQ(tr16(29), 1);      // seismic data
    EXPECT_EQ(tr16(69), -10);    // elevation scalar: divide by 10
    EXPECT_EQ(tr16(71), -10);    // coordinate scalar
    EXPECT_EQ(tr32(73), 4800);   // source x, dm
    EXPECT_EQ(tr32(77), 3200);
    EXPECT_EQ(tr32(49), 800);    // source depth
    EXPECT_EQ(tr32(81), std::int32_t(std::lround(g.receivers[r].x * 10)));
    EXPECT_EQ(tr32(85), std::int32_t(std::lround(g.receivers[r].y * 10)));
    EXPECT_EQ(tr32(41), -std::int32_t(std::lround(g.receivers[r].depth * 10)));  // elevation = -depth
    EXPECT_EQ(tr16(89), 1);      // coordinate units: length
    EXPECT_EQ(tr16(115), 5);
    EXPECT_EQ(tr16(117), 750);
    for (int n = 0; n < 5; ++n) EXPECT_EQ(floatAt(b, h + 240 + 1 + std::size_t(n) * 4), g.samples[std::size_t(n) * 3 + r]);
  }
  // Offsets: signed horizontal distance in whole metres, negative on the source's -x side; at the same
  // x, negative on its -y side.
  EXPECT_EQ(int32At(b, kFirstTrace + 37), -300);
  EXPECT_EQ(int32At(b, kFirstTrace + traceBytes + 37), 300);
  EXPECT_EQ(int32At(b, kFirstTrace + 2 * traceBytes + 37), -308);  // 307.5 rounds away from zero
  // Textual header: 40 EBCDIC cards of 80 columns; "C 1 f" in EBCDIC is C3 40 F1 40 86.
  EXPECT_EQ(b.substr(0, 5), std::string("\xC3\x40\xF1\x40\x86"));
  EXPECT_EQ(static_cast<unsigned char>(b[80 * 38 + 4]), 0xE2);  // C39 "SEG Y REV1"
  EXPECT_EQ(static_cast<unsigned char>(b[80 * 39 + 4]), 0xC5);  // C40 "END TEXTUAL HEADER"
}

TEST(SegyWriter, ReportsWhatTheHeadersRound) {
  SegyGather g = sampleGather();
  g.sampleInterval = 0.0007123456;
  g.receivers[0].x = 1.23456;  // finer than 0.1 mm
  const SegyWriteReport report = writeSegyGather(test::scratchPath("rounded.sgy").string(), g);
  EXPECT_EQ(report.sampleIntervalMicroseconds, 712);
  EXPECT_TRUE(report.intervalRounded);
  EXPECT_EQ(report.coordinateDivisor, 10000);
  EXPECT_TRUE(report.positionsRounded);
}

TEST(SegyWriter, RefusesWhatRev1CannotHoldAndKeepsTheOlderFile) {
  const auto path = test::scratchPath("kept.sgy");
  writeSegyGather(path.string(), sampleGather());
  const std::string before = fileBytes(path);
  const auto refused = [&](SegyGather g) {
    EXPECT_THROW(writeSegyGather(path.string(), g), std::invalid_argument);
    EXPECT_EQ(fileBytes(path), before);
  };
  SegyGather g = sampleGather();
  g.receivers.clear();
  refused(g);
  g = sampleGather();
  g.samples.pop_back();
  refused(g);
  g = sampleGather();
  g.samples.assign(3 * 32768, 0.0f);
  refused(g);
  g = sampleGather();
  g.sampleInterval = 0.04;  // 40 000 µs
  refused(g);
  g = sampleGather();
  g.description.assign(39, "x");
  refused(g);
  g = sampleGather();
  g.description = {std::string(77, 'x')};
  refused(g);
  EXPECT_THROW(writeSegyGather((test::scratchPath("no-such-folder") / "g.sgy").string(), sampleGather()), FileWriteError);
}

TEST(SegyTraces, AShotGatherStartsAtTimeZeroWithTheScenariosGeometry) {
  Scenario s;
  s.name = "layers, 3 receivers";
  s.n1 = 40, s.n2 = 30, s.n3 = 20;
  s.dx = 12.5;
  s.source.i = 20, s.source.j = -1, s.source.k = 4;
  s.receivers = {{5, 15, 2}, {35, 15, 2}, {20, 3, 10}};
  const std::vector<float> traces{1, 2, 3, 4, 5, 6};  // two samples of three receivers
  const auto path = test::scratchPath("shot.sgy");
  const std::vector<std::string> notes = saveTraces(path.string(), traces, s, 0.001, {0.5f, 0.0f, -0.5f});
  EXPECT_TRUE(notes.empty());
  const std::string b = fileBytes(path);
  const std::size_t traceBytes = 240 + 3 * 4;
  ASSERT_EQ(b.size(), kFirstTrace + 3 * traceBytes);
  EXPECT_EQ(int16At(b, 3221), 3);  // u^0 and the two recorded samples
  EXPECT_EQ(int16At(b, 3217), 1000);
  const std::size_t second = kFirstTrace + traceBytes;
  EXPECT_EQ(floatAt(b, second + 241), 0.0f);  // u^0 of receiver 1
  EXPECT_EQ(floatAt(b, second + 245), 2.0f);
  EXPECT_EQ(floatAt(b, second + 249), 5.0f);
  EXPECT_EQ(int32At(b, second + 73), 2500);  // source x = 20 cells · 12.5 m, in dm
  EXPECT_EQ(int32At(b, second + 77), 1875);  // source j = -1: the centre, 15 · 12.5 m
  EXPECT_EQ(int32At(b, second + 81), 4375);  // receiver x = 35 · 12.5 m
  EXPECT_EQ(int32At(b, second + 41), -250);  // receiver depth 2 · 12.5 m
  EXPECT_EQ(int32At(b, second + 37), 188);   // 187.5 m

  // A time step that is no whole number of microseconds is stored rounded, and said so.
  const auto rounded = saveTraces(path.string(), traces, s, 0.0007123456, {});
  ASSERT_EQ(rounded.size(), 1u);
  EXPECT_NE(rounded[0].find("712 us"), std::string::npos) << rounded[0];
  EXPECT_NE(rounded[0].find("whole microseconds keeps the time axis exact)"), std::string::npos) << rounded[0];
}

TEST(SegyTraces, TheFormatFollowsTheExtension) {
  EXPECT_EQ(traceFormatOf("a/b.SGY"), TraceFormat::Segy);
  EXPECT_EQ(traceFormatOf("b.segy"), TraceFormat::Segy);
  EXPECT_EQ(traceFormatOf("b.Npy"), TraceFormat::Npy);
  EXPECT_EQ(traceFormatOf("b.csv"), TraceFormat::Csv);
  EXPECT_EQ(traceFormatOf("dir.sgy/traces"), TraceFormat::Csv);
}

}  // namespace
}  // namespace iso
