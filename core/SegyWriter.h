#pragma once
// SEG-Y rev 1 shot gathers, the format seismic software exchanges traces in (segyio, Madagascar's
// segyread, Seismic Unix, OpendTect). One ensemble: one source, one trace per receiver, 4-byte IEEE
// floats (format code 5), big endian, fixed-length traces. The headers are encoded by segyio's field
// setters and the samples by its conversion; the bytes go through OutputFile, so a file is whole or
// not there.
#include <string>
#include <vector>

namespace iso {

// Metres: x and y horizontal, depth positive downwards from the top of the model (elevation 0).
struct SegyPosition {
  double x = 0.0, y = 0.0, depth = 0.0;
};

struct SegyGather {
  double sampleInterval = 0.0;          // seconds; the first sample of every trace is at time 0
  SegyPosition source;
  std::vector<SegyPosition> receivers;  // one trace each, in this order
  std::vector<float> samples;           // sample-major: samples[n · receivers.size() + r]
  // The textual header's lines C1 to C38 (C39 and C40 are the standard's "SEG Y REV1" and "END
  // TEXTUAL HEADER"): at most 38 lines of at most 76 printable ASCII characters.
  std::vector<std::string> description;
};

// What the headers hold where SEG-Y's integers cannot hold the numbers exactly.
struct SegyWriteReport {
  int sampleIntervalMicroseconds = 0;  // the headers' interval (SEG-Y keeps whole microseconds)
  bool intervalRounded = false;        // the gather's interval is not a whole number of microseconds
  int coordinateDivisor = 1;           // coordinates, depths and elevations are stored in metres / this
  bool positionsRounded = false;       // some position needed finer units than 0.1 mm
};

// Why SEG-Y rev 1 cannot hold a gather of `receivers` traces of `samples` samples `interval` seconds
// apart (at most 32767 traces, 32767 samples, an interval of 1 to 32767 whole microseconds), or "" when
// it can: callers check before a run rather than after it.
std::string segyLimitProblem(std::size_t receivers, std::size_t samples, double interval);

// Throws std::invalid_argument for a gather SEG-Y rev 1 cannot hold (no receivers, samples that are not
// a whole number of rows, more than 32767 samples or receivers, an interval outside (0, 32.767 ms] or
// text that does not fit) and FileWriteError for the file itself (unwritable folder, full disk).
SegyWriteReport writeSegyGather(const std::string& path, const SegyGather& gather);

}  // namespace iso
