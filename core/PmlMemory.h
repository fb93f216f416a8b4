#pragma once
// The CPU side of the absorbing layer (core/PmlProfile.h): the memory variables ψ and ζ of the three
// axes and the layer's terms added to a step computed by the plain stencil. Both CPU stages run this
// one code, so they agree bit for bit; the OpenCL stages run the same arithmetic in
// resources/kernels/pml.cl (gpu-optimized's kernel folds it into its own pass).
//
// ψ is kept once, advanced in place: ψ^(n−1) until a step advances it, ψ^n after. A step's layer work
// has two parts. advancePsi: ψ^n of every axis from ψ^(n−1) and u^n, each slot once, a pass over the
// layer's half points (x's may be left to correct(), which advances each line's just before its terms,
// as only that line reads it); it completes before any correction reads the ψ^n of a neighbour's half
// point. correct: in the cells the layer reaches, ζ^n and v²dt²·(∂ψ + ζ) of x, then y, then
// z added to u^(n+1). A cell's correction reads only u^n, ψ and its own ζ, so any split of the grid into
// boxes computes the same bits. cpu-serial corrects the whole grid after its stencil. cpu-parallel
// computes y's and z's terms of the rows they reach with their stencil in one pass (whose second
// derivatives the layer's ζ reuses), and x's terms of every row by correctX(); where each of its tiles
// reads only ψ of its own cells (readsOwnAcrossPsi), the tiles advance y's and z's ψ themselves, a few
// planes ahead of the rows that read it, instead of advancePsi's pass (advanceAcrossPsi: the same code,
// the same bits, with the planes still in cache).
// A slab of a grid cut along z (core/DecomposedSolver.h) runs the same code on its planes: its profile
// (PmlProfile::zWindow) numbers z from the whole grid's plane zFirst, advancePsi advances the z slots its
// planes read (PmlProfile::zPsiSlots, from its ghost planes), and since a correction reads only u^n, ψ^n
// and its own ζ, boxes of its planes next to a cut, corrected first, give the whole grid's bits.
#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "core/Coefficients.h"
#include "core/FieldAllocator.h"
#include "core/Grid.h"
#include "core/PmlProfile.h"

namespace iso {

class PmlMemory {
 public:
  // Splits [0, count) into ranges and calls body(begin, end) on each, in any order or concurrently,
  // returning when all are done.
  using RangeRunner = std::function<void(int count, const std::function<void(int begin, int end)>& body)>;
  // The interior cells [i0, i1) x [j0, j1) x [k0, k1).
  struct Box {
    int i0, i1, j0, j1, k0, k1;
  };

  PmlMemory(const Grid& grid, PmlProfile profile);

  // Step n, first: ψ^n from u^n (prev, padded) in one pass: of x unless `xByCorrect` (then correct()
  // advances x's ψ of each row just before that row's x terms, while the row is in cache, and its boxes
  // must hold whole rows), of y and z when `across` (else a kernel computes them: rowTerms()).
  void advancePsi(const float* prev, const RangeRunner& run, bool xByCorrect, bool across);
  // Step n, then: next holds u^(n+1) from the plain stencil (source not yet added); advances ζ to step n
  // and adds v²dt²·(∂ψ + ζ) of every axis in the box's cells that the layer reaches. vel is v²dt².
  // Boxes covering each cell once give the same bits in any order, or concurrently.
  void correct(const float* prev, const float* vel, float* next, const Weights& coeffs, const Box& box);
  // correct()'s x terms alone (y's and z's are a kernel's: rowTerms()).
  void correctX(const float* prev, const float* vel, float* next, const Weights& coeffs, const Box& box);
  // Whether correct() has anything to do in the box.
  bool reaches(const Box& box) const;
  // Both parts of step n over the whole grid, the corrections a plane per unit of `run`.
  void apply(const float* prev, const float* vel, float* next, const Weights& coeffs, const RangeRunner& run);

  // Every memory variable, in PmlProfile::memoryFloats order (for checkpoints).
  std::vector<float> save() const;
  void restore(std::span<const float> memory);  // throws std::invalid_argument on a size mismatch

  const PmlProfile& profile() const { return profile_; }

  // ---- For a stencil kernel that computes the layer's terms with its own (cpu-parallel's frame) ----
  // The rows of x that neither y nor z reaches: [j0, j1) x [k0, k1), every x.
  Box coreRows() const { return coreRows_; }
  // What the y or z terms of a row read and write (from the row's cell x = 0).
  static constexpr int M = kPmlHalfLength;
  struct AcrossRow {
    const float* above[M];            // ψ^n rows of the half points i + q + 1/2 (advancePsi's)
    const float* below[M];            // and i − q − 1/2
    float* zeta = nullptr;            // the row's ζ; null where the cell is outside the layer
    float decay = 0.0f, gain = 0.0f;  // ζ's b and a there
    std::ptrdiff_t stride = 0;        // the axis's, in floats
  };
  struct RowTerms {
    bool across[2] = {false, false};  // y, z: whether the row lies in the axis's reach
    AcrossRow rows[2];
  };
  // The y and z terms of row (j, k).
  void rowTerms(int j, int k, RowTerms& out);
  // ψ of y and z advanced box by box, each just before its own rows' terms read it (while their planes are
  // in cache), instead of by advancePsi. Whether the y and z terms of the box's rows read ψ only at half
  // points m + 1/2 of the box's own cells m, so that boxes covering the grid each advance their own slots
  // and never read another's (false on a slab of a cut grid, whose z slots follow its ghost planes):
  bool readsOwnAcrossPsi(const Box& box) const;
  // Then, for such a box taken in parts (its whole lines, planes ascending from box.k0), before each part's
  // terms: ψ^n that the part's rows are the first of the box to read, y's at the part's cells and z's at
  // those of its planes and the M − 1 after them within the box (each slot once a step).
  void advanceAcrossPsi(const float* prev, const Box& box, const Box& part);

 private:
  // ψ of x on the lines [j0, j1) of plane k, in whole chunks (see LineChunks), in place.
  void psiAlongX(const float* prev, int k, int j0, int j1);
  // x's ψ of the lines [j0, j1) of plane k into their rows of `padded` (psiLanes floats a line), at the
  // lanes the correction's shifted loads read them from.
  void paddedPsiX(int k, int j0, int j1, float* padded) const;
  // The index of line (j, k) of x's memory.
  std::size_t xLine(int j, int k) const { return std::size_t(k) * std::size_t(grid_.n2) + std::size_t(j); }
  // ψ^n of axis a (1: y, 2: z) at the half points m + 1/2 of the box's cells m along that axis, on the
  // box's lines.
  void psiOfCells(int axis, const float* prev, const Box& cells);
  // ψ of axis 1 or 2 along contiguous rows of x, on a box of its memory array: x in [i0, i1), the middle
  // index (PmlProfile::memoryDims: y's slot, or z's row y) in [j0, j1), the outer one (y's plane z, or
  // z's slot) in [k0, k1).
  void psiRows(int axis, const float* prev, const Box& memory);
  // The rows of the box: x's terms (advancing ψ of x first where advancePsi left it), then y's and z's
  // when `across`.
  void correctRows(const float* prev, const float* vel, float* next, const Weights& coeffs, const Box& box,
                   bool across);
  // The x terms of row (j, k) on its cells in [i0, i1); psi: the row's ψ^n, padded (paddedPsiX).
  void correctAlongX(const float* prev, const float* vel, float* next, const Weights& coeffs, const float* psi, int j,
                     int k, int i0, int i1);
  // The y and z terms of row (j, k) on its cells [i0, i1), for the axes whose reach holds the row.
  void correctAcross(const float* prev, const float* vel, float* next, const Weights& coeffs, int j, int k, int i0,
                     int i1);
  // The row of axis a (1: y, 2: z) through row (j, k), from cell i0; false outside the axis's reach.
  bool acrossRow(int a, int j, int k, int i0, AcrossRow& out);
  void correctRow(const AcrossRow& rows, const float* p, const float* v, float* out, const Weights& coeffs,
                  int count) const;

  // The x terms run in fixed chunks of kLanes cells (one AVX-512 vector; a run of W + M = 12 cells is
  // too short for a vector loop with a run-time trip count). So that every chunk loads and stores whole
  // vectors, x's memory is kept in whole chunks per line: per span of cells the correction covers, ζ on
  // the span's lanes and ψ on the chunks that hold its slots; a lane without a slot has b = a = 0 and stays
  // 0. The correction's shifted loads read ψ^n from a padded copy of the line (a run of half points from M
  // before the span, zero outside the slots' chunks) that lives only while the row is corrected, so the
  // state moved every step is no larger than the chunks. save() and restore() convert to and from the
  // layout of PmlProfile::memoryDims.
  static constexpr int kLanes = 16;
  struct LineChunks {
    struct Span {
      int begin, count;  // cells [begin, begin + count) of a line
      int zeta0, psi0;   // its first ζ lane; its first ψ lane, half point begin − M
      int psiLanes;      // ψ lanes of the span: every chunk's half points [c − M, c + kLanes + M − 1)
      int slotLane, slotLanes;  // the lanes from the span's first ψ slot in whole chunks: those computed
      int state0;               // where those lanes start in a line of x's ψ
    };
    std::vector<Span> spans;
    int zetaLanes = 0, psiLanes = 0;  // floats per line: of ζ, of a padded copy of ψ
    int stateLanes = 0;               // floats per line of x's ψ: the spans' slot chunks
    std::vector<int> chunkSpan;       // per chunk of kLanes cells from 0 along the line: its span, −1: none
    std::vector<float> zetaDecay, zetaGain, psiDecay, psiGain;  // per lane
    std::vector<int> zetaSlot, psiSlot;                         // per lane, −1: none
  };
  static LineChunks planLineChunks(const PmlAxis& axis);
  template <class Place>
  void forEachXLane(Place place) const;  // place(isPsi, index in psi_[0] or zeta_[0], memoryDims index)

  Grid grid_;
  PmlProfile profile_;
  LineChunks xChunks_;
  Box coreRows_{};
  bool xPsiByCorrect_ = false;  // this step's advancePsi left ψ of x to correct()
  // y and z: PmlProfile::memoryDims(axis), x fastest; x: xChunks_'s chunks, per line. Field arrays, so
  // on huge pages from 4 MiB: x's are read a line (128 bytes) at a time, 8 MiB each at 256³, and on
  // 4 KiB pages psiAlongX spent two thirds of its time at its load of ψ (docs/PERFORMANCE_LOG.md).
  FieldArray psi_[3], zeta_[3];
  std::vector<float> zeroRow_;  // n1 zeros: the ψ row of a half point outside the layer
};

}  // namespace iso
