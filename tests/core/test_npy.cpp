// .npy reading/writing against hand-written bytes, and receiver traces on disk.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>

#include "core/Npy.h"
#include "tests/ScratchDir.h"
#include "core/Traces.h"

namespace iso {
namespace {

std::string tempPath(const std::string& name) { return test::scratchPath(name).string(); }

void writeBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

std::string floatBytes(std::initializer_list<float> values) {
  std::string out;
  for (float v : values) out.append(reinterpret_cast<const char*>(&v), sizeof v);  // little-endian host
  return out;
}

// What numpy.save writes for np.arange(6, dtype='<f4').reshape(2, 3): a 118-byte header block.
std::string numpyBytes2x3() {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  header += std::string(58, ' ') + "\n";
  return std::string("\x93NUMPY\x01\x00\x76\x00", 10) + header + floatBytes({0, 1, 2, 3, 4, 5});
}

std::string errorReading(const std::string& bytes) {
  const std::string path = tempPath("bad.npy");
  writeBytes(path, bytes);
  try {
    readNpy(path);
  } catch (const std::runtime_error& e) {
    std::remove(path.c_str());
    return e.what();
  }
  std::remove(path.c_str());
  return "no error";
}

TEST(Npy, WritesExactlyWhatNumPyWrites) {
  const std::string path = tempPath("w.npy");
  const float data[] = {0, 1, 2, 3, 4, 5};
  writeNpy(path, data, {2, 3});
  EXPECT_EQ(test::readFileBytes(path), numpyBytes2x3());
  std::remove(path.c_str());
}

TEST(Npy, ReadsVersionOneAndTwo) {
  const std::string path = tempPath("r.npy");
  writeBytes(path, numpyBytes2x3());
  NpyArray a = readNpy(path);
  EXPECT_EQ(a.shape, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(a.data, (std::vector<float>{0, 1, 2, 3, 4, 5}));

  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }";
  header += std::string(128 - 12 - header.size() - 1, ' ') + "\n";  // data at byte 128
  const char len[4] = {char(header.size()), 0, 0, 0};
  writeBytes(path, std::string("\x93NUMPY\x02\x00", 8) + std::string(len, 4) + header + floatBytes({7, 8, 9, 10}));
  a = readNpy(path);
  EXPECT_EQ(a.shape, (std::vector<std::size_t>{4}));
  EXPECT_EQ(a.data, (std::vector<float>{7, 8, 9, 10}));
  std::remove(path.c_str());
}

TEST(Npy, RoundTripOfAVolume) {
  const std::string path = tempPath("v.npy");
  std::vector<float> data(3 * 4 * 5);
  for (std::size_t n = 0; n < data.size(); ++n) data[n] = float(n) * 0.25f - 3.0f;
  writeNpy(path, data.data(), {3, 4, 5});
  const NpyArray a = readNpy(path);
  EXPECT_EQ(a.shape, (std::vector<std::size_t>{3, 4, 5}));
  EXPECT_EQ(a.data, data);
  std::remove(path.c_str());
}

// A 128-byte file that claims 10^11 floats (400 GB) is refused from its size, before any allocation:
// it used to allocate and zero-fill the whole shape first.
TEST(Npy, HugeShapeInASmallFileIsRefusedBeforeAllocating) {
  std::string huge = numpyBytes2x3();
  huge.replace(huge.find("(2, 3)"), 6, "(100000, 100000, 10)");
  huge.erase(huge.find("}") + 1, 14);  // keep the header block the same length
  const std::string msg = errorReading(huge);
  EXPECT_NE(msg.find("data is shorter than the shape in the header says (100000000000 float32 values = "
                     "400000000000 bytes; the file holds 24)"),
            std::string::npos)
      << msg;
}

TEST(Npy, RefusesWhatItCannotRead) {
  std::string good = numpyBytes2x3();
  std::string f8 = good;
  f8.replace(f8.find("<f4"), 3, "<f8");
  EXPECT_NE(errorReading(f8).find("unsupported dtype '<f8'"), std::string::npos) << errorReading(f8);
  std::string fortran = good;
  fortran.replace(fortran.find("False"), 5, "True ");
  EXPECT_NE(errorReading(fortran).find("Fortran-ordered"), std::string::npos);
  EXPECT_NE(errorReading(good.substr(0, good.size() - 4)).find("data is shorter"), std::string::npos);
  EXPECT_NE(errorReading(good + "xxxx").find("data is longer"), std::string::npos);
  EXPECT_NE(errorReading("PK\x03\x04 not numpy at all").find("not a .npy file"), std::string::npos);
  std::string v3 = good;
  v3[6] = 3;
  EXPECT_NE(errorReading(v3).find("unsupported .npy format version 3"), std::string::npos);
  std::string noShape = good;
  noShape.replace(noShape.find("'shape'"), 7, "'shope'");
  EXPECT_NE(errorReading(noShape).find("no 'shape' entry"), std::string::npos);
  try {
    readNpy(tempPath("missing.npy"));
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot open .npy file '"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("missing.npy' (no such file)"), std::string::npos) << e.what();
  }
}

TEST(Traces, CsvHasTimeColumnAndReceiverNames) {
  const std::string path = tempPath("traces.csv");
  const std::vector<float> traces = {1.5f, -2.0f, 0.1f, 3.0f, 0.0f, 1e-8f};  // 3 samples x 2 receivers
  saveTracesCsv(path, traces, {{1, 2, 3}, {4, 5, 6}}, 0.002);
  EXPECT_EQ(test::readFileBytes(path),
            "time_s,r0_i1_j2_k3,r1_i4_j5_k6\n"
            "0.002,1.5,-2\n"
            "0.004,0.100000001,3\n"
            "0.006,0,9.99999994e-09\n");
  std::remove(path.c_str());
  EXPECT_THROW(saveTracesCsv(path, {1.0f, 2.0f, 3.0f}, {{0, 0, 0}, {1, 1, 1}}, 0.001), std::invalid_argument);
}

TEST(Traces, NpyHasShapeSamplesByReceivers) {
  const std::string path = tempPath("traces.npy");
  const std::vector<float> traces = {1, 2, 3, 4, 5, 6};
  saveTracesNpy(path, traces, 3);
  const NpyArray a = readNpy(path);
  EXPECT_EQ(a.shape, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(a.data, traces);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace iso
