#pragma once
// While alive, the calling thread's floating-point unit treats subnormal (denormal) floats as zero, on
// input and on output (x86 MXCSR's DAZ and FTZ bits; AArch64 FPCR's FZ bit); the previous setting of
// those bits comes back at the end of the scope.
//
// Why the CPU stages run this way: a wave's leading edge, the decaying tail behind it and the absorbing
// layer's memory variables all pass through magnitudes below 1.2e-38 on their way to or from zero.
// Intel cores take a microcode assist for every arithmetic operation on such a value, so a field full of
// them runs the stencil several times slower (measured: docs/PERFORMANCE.md, "Subnormal floats on an
// Intel Xeon"); AMD cores do not slow down. Values that small are 40 orders of magnitude under any
// amplitude the solver shows or writes; the OpenCL stages are built to flush them too.
namespace iso {

class FlushDenormals {
 public:
  FlushDenormals();
  ~FlushDenormals();
  FlushDenormals(const FlushDenormals&) = delete;
  FlushDenormals& operator=(const FlushDenormals&) = delete;

  // Whether subnormals are flushed on the calling thread now.
  static bool active();

 private:
  unsigned long long saved_ = 0;
};

}  // namespace iso
