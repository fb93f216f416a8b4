#pragma once
// The CPU side of the absorbing layer (core/PmlProfile.h): the memory variables ψ and ζ of the three
// axes and the pass that adds the layer's terms to a step computed by the plain stencil. Both CPU
// stages run this one code, so they agree bit for bit; the OpenCL stages run the same arithmetic in
// resources/kernels/pml.cl.
#include <functional>
#include <span>
#include <vector>

#include "core/Coefficients.h"
#include "core/Grid.h"
#include "core/PmlProfile.h"

namespace iso {

class PmlMemory {
 public:
  // Splits [0, count) into ranges and calls body(begin, end) on each, in any order or concurrently,
  // returning when all are done.
  using RangeRunner = std::function<void(int count, const std::function<void(int begin, int end)>& body)>;

  PmlMemory(const Grid& grid, PmlProfile profile);

  // next holds u^(n+1) from the plain stencil (source not yet added), prev u^n, both padded; vel v²dt².
  // Advances ψ and ζ to step n and adds v²dt²·(∂ψ + ζ) of every axis to next in the layer.
  void apply(const float* prev, const float* vel, float* next, const Weights& coeffs, const RangeRunner& run) {
    applyToPlanes(prev, vel, next, coeffs, run, 0, grid_.n3, true);
  }
  // The same on the interior planes [k0, k1) only, so that a step can finish some planes before the
  // others (a slab's planes next to a cut, core/DecomposedSolver.h). ψ of z is advanced by the call with
  // `advanceZMemory`, which must come first in a step (its corrections read ψ of z beyond their planes);
  // every other value belongs to one plane. Calls covering each plane once give apply()'s bits.
  void applyToPlanes(const float* prev, const float* vel, float* next, const Weights& coeffs, const RangeRunner& run,
                     int k0, int k1, bool advanceZMemory);

  // Every memory variable, in PmlProfile::memoryFloats order (for checkpoints).
  std::vector<float> save() const;
  void restore(std::span<const float> memory);  // throws std::invalid_argument on a size mismatch

  const PmlProfile& profile() const { return profile_; }

 private:
  // Along x, a line's ψ and correction need only that line: one pass over the lines of planes [k0, k1).
  void linesAlongX(const float* prev, const float* vel, float* next, const Weights& coeffs, int k0, int k1);
  // Across x (axis 1 or 2), every operation runs along contiguous rows of x: first ψ of every row, then the
  // correction, which reads ψ rows up to kPmlHalfLength slots away. c2 is the memory array's outer index.
  void psiRows(int axis, const float* prev, int c2Begin, int c2End);
  void correctRows(int axis, const float* prev, const float* vel, float* next, const Weights& coeffs, int c2Begin,
                   int c2End);

  // The x pass runs in fixed chunks of kLanes cells (one AVX-512 vector; a run of W = 10 cells is too
  // short for a vector loop with a run-time trip count). So that every chunk loads and stores whole
  // vectors, x's memory is kept padded per line: ψ as two runs of psiRunLanes slots, ζ as the lanes of
  // the spans the correction covers; a lane without a slot has b = a = 0 and stays 0. save() and
  // restore() convert to and from the layout of PmlProfile::memoryDims.
  static constexpr int kLanes = 16;
  struct LineChunks {
    struct Span {
      int begin, count, lane0;  // cells [begin, begin + count) of a line, at lanes from lane0
    };
    std::vector<Span> spans;
    int lanes = 0;                              // ζ floats per line: every span rounded up to kLanes
    int psiRunLanes = 0;                        // W rounded up to kLanes
    std::vector<float> zetaDecay, zetaGain;     // per lane
    std::vector<int> zetaSlot;                  // per lane, −1: none
    std::vector<float> psiDecay, psiGain;       // per lane of the two ψ runs
  };
  static LineChunks planLineChunks(const PmlAxis& axis);
  template <class Place>
  void forEachXSlot(Place place) const;  // place(isPsi, padded index, memoryDims index) per value of x

  Grid grid_;
  PmlProfile profile_;
  LineChunks xChunks_;
  // y and z: PmlProfile::memoryDims(axis), x fastest; x: xChunks_'s padded layout, per line (save() and
  // restore() convert it to and from memoryDims).
  std::vector<float> psi_[3], zeta_[3];
  std::vector<float> zeroRow_;            // n1 zeros: the ψ row of a half point outside the layer
};

}  // namespace iso
