#pragma once
// A SEG-Y file built byte by byte (big-endian IEEE floats, format code 5), independent of segyio, for
// the model-file tests and the fuzzing seeds.
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>

namespace iso::test {

// Traces are inline-sorted: x (crossline) fastest, samples along z. Without geometry headers every
// trace has il = xl = 0. samplesInHeader is what the binary header claims (n3 in a valid file).
inline std::string segyBytes(int n1, int n2, int n3, const std::function<float(int, int, int)>& f,
                             bool geometryHeaders, int samplesInHeader) {
  auto put16 = [](std::string& b, std::size_t at, int v) {
    b[at] = char((v >> 8) & 0xff), b[at + 1] = char(v & 0xff);
  };
  auto put32 = [](std::string& b, std::size_t at, std::uint32_t v) {
    for (int s = 0; s < 4; ++s) b[at + std::size_t(s)] = char((v >> (24 - 8 * s)) & 0xff);
  };
  std::string bytes(3200, ' ');
  std::string bin(400, '\0');
  put16(bin, 16, 4000);             // sample interval, µs (3217)
  put16(bin, 20, samplesInHeader);  // samples per trace (3221)
  put16(bin, 24, 5);                // IEEE float (3225)
  bytes += bin;
  for (int j = 0; j < n2; ++j)
    for (int i = 0; i < n1; ++i) {
      std::string header(240, '\0');
      if (geometryHeaders) {
        put32(header, 188, std::uint32_t(100 + j));  // inline (189)
        put32(header, 192, std::uint32_t(200 + i));  // crossline (193)
      }
      put16(header, 114, n3);  // samples in this trace (115)
      bytes += header;
      std::string samples(std::size_t(4 * n3), '\0');
      for (int k = 0; k < n3; ++k) {
        const float v = f(i, j, k);
        std::uint32_t u;
        std::memcpy(&u, &v, 4);
        put32(samples, std::size_t(4 * k), u);
      }
      bytes += samples;
    }
  return bytes;
}

}  // namespace iso::test
