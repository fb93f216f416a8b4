#include "core/DecomposedSolver.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <utility>

namespace iso {

namespace {

constexpr int R = kHalfLength;
enum Side { kBelow = 0, kAbove = 1 };
int neighbourOf(int slab, int side) { return slab + (side == kBelow ? -1 : 1); }
int facing(int side) { return side == kBelow ? kAbove : kBelow; }  // the neighbour's side of the same cut
// The R planes a neighbour reads move in pieces, so that one piece's copy to the host, its transfer to
// another rank and its copy into the neighbour's device overlap the others'.
constexpr int kPieces = 4, kPiecePlanes = R / kPieces;
static_assert(R % kPieces == 0);
// Message tags stay within the 32767 that every MPI allows: a halo piece's is its sender's slab,
// direction and piece; a gathered piece's is its slab (gathers follow each other and the steps, whose
// messages have all arrived by then, so the tags may repeat).
constexpr int kMaxSlabs = 32768 / (2 * kPieces);

int haloTag(int from, int to, int piece) { return (2 * from + (to > from ? 1 : 0)) * kPieces + piece; }

// Where each part of PmlProfile::memoryFloats() starts: ψ then ζ of x, y and z.
std::size_t layerOffset(const PmlProfile& p, int axis, bool zeta) {
  std::size_t offset = 0;
  for (int a = 0; a < axis; ++a) offset += p.axisMemoryFloats(a);
  return offset + (zeta ? p.axisMemoryFloats(axis) / 2 : 0);
}

// The slots of z (planes of n1·n2 values in z's memory arrays) that slab `slab` computes as their
// owner: ψ by the cell below its half point, ζ by its cell.
bool ownsZSlot(const PmlAxis& z, const Slab& slab, int t, bool zeta) {
  const int cell = zeta ? z.zetaCell(t) : z.psiPoint(t);
  return cell >= slab.first && cell < slab.end();
}

}  // namespace

struct DecomposedSolver::Local {
  int index = 0;
  std::unique_ptr<WaveSolver> solver;
  std::vector<PlaneRange> first;          // the planes its neighbours read, computed first
  HostPlanes outgoing[2];                 // [side]: its planes next to a cut, for the neighbour
  HostPlanes incoming[2];                 // [side]: a neighbour's planes as messages, for the ghost planes
  std::vector<float> slices;              // its slices, until gathered
  bool cut[2] = {false, false};
  bool shared[2] = {false, false};        // [side]: the neighbour is a rank of this host (the window)
};

DecomposedSolver::DecomposedSolver(Problem global, std::vector<Slab> slabs, std::vector<int> owners,
                                   std::shared_ptr<Communicator> ranks, const SlabBuilder& build)
    : grid_(global.grid), slabs_(std::move(slabs)), owners_(std::move(owners)), ranks_(std::move(ranks)) {
  const int count = int(slabs_.size());
  if (count < 1 || count > kMaxSlabs || owners_.size() != slabs_.size())
    throw std::invalid_argument("a decomposition needs 1 to " + std::to_string(kMaxSlabs) + " slabs, each with its rank");
  for (int s = 0; s < count; ++s) {
    const bool follows = slabs_[std::size_t(s)].first == (s == 0 ? 0 : slabs_[std::size_t(s) - 1].end());
    if (!follows || slabs_[std::size_t(s)].planes < (count > 1 ? R : 1) || owners_[std::size_t(s)] < 0 ||
        owners_[std::size_t(s)] >= (ranks_ ? ranks_->size() : 1))
      throw std::invalid_argument("slab " + std::to_string(s) + " does not continue the cut, is thinner than " +
                                  std::to_string(R) + " planes or names no rank");
  }
  for (int r = 0; r < (ranks_ ? ranks_->size() : 1); ++r)
    if (std::find(owners_.begin(), owners_.end(), r) == owners_.end())
      throw std::invalid_argument("rank " + std::to_string(r) + " has no slab: use at most one rank per slab");
  if (slabs_.back().end() != grid_.n3)
    throw std::invalid_argument("the slabs end at plane " + std::to_string(slabs_.back().end()) + ", the grid at " +
                                std::to_string(grid_.n3));
  receiverCount_ = global.receivers.size();
  for (const Slab& slab : slabs_) receivers_.push_back(slabReceivers(global, slab));
  pml_ = global.pml;
  onEveryRank(ranks_.get(), [&] { buildSlabs(std::move(global), build); });
  if (ranks_ && ranks_->size() > 1) shareHalos();
  onEveryRank(ranks_.get(), [&] { allocateHalos(); });
  std::string mine;
  for (const auto& l : local_) mine += std::to_string(l->index) + "\t" + l->solver->deviceName() + "\n";
  devices_.assign(slabs_.size(), "");
  for (const std::string& text : ranks_ ? ranks_->allGather(mine) : std::vector<std::string>{mine}) {
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t tab = text.find('\t', at), end = text.find('\n', tab);
      devices_[std::stoul(text.substr(at, tab - at))] = text.substr(tab + 1, end - tab - 1);
      at = end + 1;
    }
  }
}

DecomposedSolver::~DecomposedSolver() {
  // Copies still on their way read or write host memory that goes with the slabs.
  for (const auto& l : local_) {
    try {
      l->solver->waitPlaneCopies();
      l->solver->finishSlices();
    } catch (const std::exception&) {  // a failed copy writes nothing more
    }
  }
}

void DecomposedSolver::buildSlabs(Problem global, const SlabBuilder& build) {
  const int count = int(slabs_.size());
  global.velPeak = velPeakOf(global);  // once, not once a slab (slabProblem)
  for (int s = 0; s < count; ++s) {
    if (!isLocal(s)) continue;
    auto l = std::make_unique<Local>();
    l->index = s;
    l->solver = build(slabProblem(global, slabs_[std::size_t(s)]), s);
    if (!l->solver->runsAsSlab())
      throw std::invalid_argument("stage '" + l->solver->stage() + "' runs on a whole grid only, not as a slab of a "
                                  "grid cut over devices or ranks: run it on one device");
    l->cut[kBelow] = s > 0;
    l->cut[kAbove] = s + 1 < count;
    l->first = planesNextToCuts(slabs_[std::size_t(s)].planes, l->cut[kBelow], l->cut[kAbove]);
    stage_ = l->solver->stage();
    local_.push_back(std::move(l));
  }
}

bool DecomposedSolver::facesRank(int slab, int side) const {
  const int neighbour = neighbourOf(slab, side);
  return neighbour >= 0 && neighbour < int(slabs_.size()) && owners_[std::size_t(neighbour)] != owners_[std::size_t(slab)];
}

void DecomposedSolver::shareHalos() {
  // Every rank's part of the window holds, for each of its slabs' sides that face another rank, the R
  // planes going out there twice: step n's and step n+1's. The owner's device copies a step's planes
  // into its part, the neighbour's device copies them from there into its ghost planes during that
  // step's exchange, before the neighbour sends any piece of step n+1, so the owner can overwrite step
  // n's planes at step n+2 without another message. Devices copy pageable memory at a tenth of their
  // speed, so every slab's device locks the pages it copies (lockHostMemory).
  shared_ = ranks_->shareHostMemory(windowFloatsBefore(ranks_->rank(), int(slabs_.size()), kBelow));
  if (!shared_) return;
  for (const auto& l : local_) {
    for (int side : {kBelow, kAbove}) {
      const int neighbour = neighbourOf(l->index, side);
      l->shared[side] = facesRank(l->index, side) && !shared_->of(owners_[std::size_t(neighbour)]).empty();
    }
    if (l->shared[kBelow] || l->shared[kAbove]) windowLocked_ = l->solver->lockHostMemory(windowOf(*l)) && windowLocked_;
  }
  for (const std::string& locked : ranks_->allGather(windowLocked_ ? "1" : "0")) windowLocked_ = windowLocked_ && locked == "1";
}

std::span<float> DecomposedSolver::windowOf(const Local& l) const {
  // The parts of this slab's rank and of the ranks it faces lie next to each other in one allocation
  // (MPI_Win_allocate_shared is contiguous), widened to whole pages, which a driver locks.
  std::uintptr_t begin = UINTPTR_MAX, end = 0;
  for (int slab = l.index - 1; slab <= l.index + 1; ++slab) {
    if (slab < 0 || slab >= int(slabs_.size())) continue;
    const std::span<float> part = shared_->of(owners_[std::size_t(slab)]);
    if (part.empty()) continue;
    begin = std::min(begin, reinterpret_cast<std::uintptr_t>(part.data()));
    end = std::max(end, reinterpret_cast<std::uintptr_t>(part.data() + part.size()));
  }
  const std::uintptr_t page = std::uintptr_t(::sysconf(_SC_PAGESIZE));
  begin -= begin % page;
  end += (page - end % page) % page;
  return {reinterpret_cast<float*>(begin), (end - begin) / sizeof(float)};
}

void DecomposedSolver::allocateHalos() {
  // Page-locked host memory for every halo a device copies that does not go through the window.
  const std::size_t haloFloats = std::size_t(R) * grid_.planeSize();
  for (const auto& l : local_)
    for (int side : {kBelow, kAbove}) {
      if (!l->cut[side] || l->shared[side]) continue;
      l->outgoing[side] = l->solver->allocateHostPlanes(haloFloats);
      if (facesRank(l->index, side)) l->incoming[side] = l->solver->allocateHostPlanes(haloFloats);
    }
}

std::size_t DecomposedSolver::windowFloatsBefore(int rank, int slab, int side) const {
  // A rank's part: its slabs' sides that face other ranks in order, two steps' planes each.
  const std::size_t halo = std::size_t(R) * grid_.planeSize();
  std::size_t floats = 0;
  for (int s = 0; s <= slab && s < int(slabs_.size()); ++s)
    for (int d : {kBelow, kAbove})
      if ((s < slab || d < side) && owners_[std::size_t(s)] == rank && facesRank(s, d)) floats += 2 * halo;
  return floats;
}

std::span<float> DecomposedSolver::sharedPiece(int slab, int side, int piece) const {
  const int owner = owners_[std::size_t(slab)];
  const std::size_t halo = std::size_t(R) * grid_.planeSize();
  const std::size_t at = windowFloatsBefore(owner, slab, side) + std::size_t(step_ % 2) * halo;
  return pieceOf({shared_->of(owner).subspan(at, halo), nullptr}, piece);
}

std::string DecomposedSolver::rankHalos() const {
  if (!ranks_ || ranks_->size() == 1) return "";
  bool shared = false, messages = false;
  for (const auto& l : local_)
    for (int side : {kBelow, kAbove})
      if (facesRank(l->index, side)) (l->shared[side] ? shared : messages) = true;
  const std::string window = windowLocked_ ? "shared memory" : "shared memory (not page-locked: copied at pageable speed)";
  if (shared && messages) return "halos through " + window + " on this host, as messages between hosts";
  return shared ? "halos through " + window + " (one host)" : "halos as messages";
}

bool DecomposedSolver::isLocal(int slab) const { return owners_[std::size_t(slab)] == (ranks_ ? ranks_->rank() : 0); }

DecomposedSolver::Local& DecomposedSolver::local(int slab) {
  for (const auto& l : local_)
    if (l->index == slab) return *l;
  throw std::logic_error("slab " + std::to_string(slab) + " is not this process's");
}

StageParamMap DecomposedSolver::parameters() const { return local_.front()->solver->parameters(); }

std::vector<WaveSolver*> DecomposedSolver::localSlabs() const {
  std::vector<WaveSolver*> out;
  for (const auto& l : local_) out.push_back(l->solver.get());
  return out;
}

std::string DecomposedSolver::deviceName() const {
  const bool same = std::all_of(devices_.begin(), devices_.end(), [&](const std::string& d) { return d == devices_[0]; });
  std::string name;
  if (same) {
    name = std::to_string(devices_.size()) + " × " + devices_[0];
  } else {
    for (const std::string& d : devices_) name += (name.empty() ? "" : " + ") + d;
  }
  if (ranks_) name += " (" + ranks_->describe() + ")";
  return name;
}

std::vector<std::string> DecomposedSolver::layout() const {
  std::vector<std::string> lines;
  for (std::size_t s = 0; s < slabs_.size(); ++s) {
    const Slab& slab = slabs_[s];
    std::string line = "slab " + std::to_string(s) + ": planes " + std::to_string(slab.first) + "-" +
                       std::to_string(slab.end() - 1) + " (" + std::to_string(slab.planes) + ")";
    if (ranks_) line += ", rank " + std::to_string(owners_[s]);
    lines.push_back(line + ", " + devices_[s]);
  }
  return lines;
}

double DecomposedSolver::advance(int steps) {
  if (steps < 0) throw std::invalid_argument("advance: steps must be >= 0 (got " + std::to_string(steps) + ")");
  const auto start = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s) step();
  for (const auto& l : local_) l->solver->synchronize();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void DecomposedSolver::step() {
  // Every slab's planes next to its cuts first, their copies out in pieces (below and above in turn, so
  // that the first pieces of both sides land first), then the rest of its planes.
  for (const auto& l : local_) {
    const int planes = slabs_[std::size_t(l->index)].planes;
    l->solver->beginStep(l->first);
    for (int piece = 0; piece < kPieces; ++piece)
      for (int side : {kBelow, kAbove})
        if (l->cut[side])
          l->solver->startPlaneRead((side == kBelow ? 0 : planes - R) + piece * kPiecePlanes, kPiecePlanes,
                                    l->shared[side] ? sharedPiece(l->index, side, piece) : pieceOf(l->outgoing[side], piece));
  }
  for (const auto& l : local_) l->solver->finishStep();
  exchange();
  ++step_;
}

std::span<float> DecomposedSolver::pieceOf(const HostPlanes& planes, int piece) const {
  const std::size_t floats = std::size_t(kPiecePlanes) * grid_.planeSize();
  return planes.floats.subspan(std::size_t(piece) * floats, floats);
}

void DecomposedSolver::exchange() {
  // Receives from other ranks are posted first; then piece by piece, as soon as a slab's copy out has
  // landed, it goes to its neighbour: written into the neighbour's ghost planes from this process's
  // memory, or sent to the neighbour's rank, whose piece of the other way is then waited for and written.
  // A rank of this host is sent only a signal: the piece waits in the window, where the device wrote it,
  // and the neighbour's device copies it from there.
  std::vector<int> receives;  // per local slab, side and piece
  for (const auto& l : local_)
    for (int side : {kBelow, kAbove})
      for (int piece = 0; piece < kPieces; ++piece) {
        const int neighbour = neighbourOf(l->index, side);
        if (!facesRank(l->index, side)) {
          receives.push_back(-1);
          continue;
        }
        const std::span<float> into = l->shared[side] ? std::span<float>() : pieceOf(l->incoming[side], piece);
        receives.push_back(ranks_->startReceive(owners_[std::size_t(neighbour)], haloTag(neighbour, l->index, piece), into));
      }
  for (int piece = 0; piece < kPieces; ++piece) {
    for (const auto& l : local_)
      for (int side : {kBelow, kAbove})
        if (l->cut[side]) sendPiece(*l, side, piece);
    for (std::size_t n = 0; n < local_.size(); ++n)
      for (int side : {kBelow, kAbove}) {
        const int handle = receives[(n * 2 + std::size_t(side)) * kPieces + std::size_t(piece)];
        if (handle >= 0) receivePiece(*local_[n], side, piece, handle);
      }
  }
  if (ranks_) ranks_->waitTransfers();
  // Every copy of the step has landed: the host memory is free for the next step's.
  for (const auto& l : local_) l->solver->waitPlaneCopies();
}

void DecomposedSolver::sendPiece(Local& l, int side, int piece) {
  // Once the slab's own copy of the piece has landed in host memory.
  l.solver->waitPlaneRead(piece * (l.cut[kBelow] + l.cut[kAbove]) + (side == kAbove && l.cut[kBelow]));
  const int neighbour = neighbourOf(l.index, side);
  if (facesRank(l.index, side)) {
    if (l.shared[side]) shared_->synchronize();  // it is in the window: a signal
    ranks_->startSend(owners_[std::size_t(neighbour)], haloTag(l.index, neighbour, piece),
                      l.shared[side] ? std::span<const float>() : pieceOf(l.outgoing[side], piece));
    return;
  }
  Local& other = local(neighbour);  // its ghost planes on the side facing this slab
  const int ghost = side == kBelow ? slabs_[std::size_t(neighbour)].planes : -R;
  other.solver->startPlaneWrite(ghost + piece * kPiecePlanes, kPiecePlanes, pieceOf(l.outgoing[side], piece));
}

void DecomposedSolver::receivePiece(Local& l, int side, int piece, int handle) {
  ranks_->waitTransfer(handle);
  const int ghost = side == kBelow ? -R : slabs_[std::size_t(l.index)].planes;
  if (!l.shared[side]) {
    l.solver->startPlaneWrite(ghost + piece * kPiecePlanes, kPiecePlanes, pieceOf(l.incoming[side], piece));
    return;
  }
  shared_->synchronize();  // straight from the neighbour's part of the window
  l.solver->startPlaneWrite(ghost + piece * kPiecePlanes, kPiecePlanes,
                            sharedPiece(neighbourOf(l.index, side), facing(side), piece));
}

std::vector<std::vector<float>> DecomposedSolver::gather(const std::function<std::vector<float>(Local&)>& take) {
  // Slab by slab in the same order on every rank: its owner sends its piece to every other rank.
  std::vector<std::vector<float>> out;
  const int rank = ranks_ ? ranks_->rank() : 0, rankCount = ranks_ ? ranks_->size() : 1;
  for (int s = 0; s < int(slabs_.size()); ++s) {
    const int tag = s;
    if (!isLocal(s)) {
      out.push_back(ranks_->receiveFloats(owners_[std::size_t(s)], tag));
      continue;
    }
    out.push_back(take(local(s)));
    for (int r = 0; r < rankCount; ++r)
      if (r != rank) ranks_->sendFloats(r, tag, out.back());
  }
  return out;
}

void DecomposedSolver::readField(std::vector<float>& interior) {
  const auto pieces = gather(
      [](Local& l) {
        std::vector<float> field;
        l.solver->readField(field);
        return field;
      });
  interior.clear();
  interior.reserve(grid_.interiorSize());
  for (const auto& piece : pieces) interior.insert(interior.end(), piece.begin(), piece.end());
}

std::vector<float> DecomposedSolver::traces() {
  const auto pieces = gather([](Local& l) { return l.solver->traces(); });
  std::vector<float> out;
  out.resize(std::size_t(step_) * receiverCount_);
  for (std::size_t s = 0; s < pieces.size(); ++s) {
    const std::vector<std::size_t>& mine = receivers_[s];
    for (std::size_t n = 0; n < std::size_t(step_) && !mine.empty(); ++n)
      for (std::size_t r = 0; r < mine.size(); ++r) out[n * receiverCount_ + mine[r]] = pieces[s][n * mine.size() + r];
  }
  return out;
}

bool DecomposedSolver::startSlices(int i, int j, int k, std::span<float> planes) {
  if (i < 0 || i >= grid_.n1 || j < 0 || j >= grid_.n2 || k < 0 || k >= grid_.n3)
    throw std::out_of_range("slice point (" + std::to_string(i) + ", " + std::to_string(j) + ", " + std::to_string(k) +
                            ") is outside the interior " + std::to_string(grid_.n1) + "x" + std::to_string(grid_.n2) +
                            "x" + std::to_string(grid_.n3));
  if (planes.size() < SliceSet::planeFloats(grid_.n1, grid_.n2, grid_.n3))
    throw std::out_of_range(std::to_string(planes.size()) + " floats cannot hold the slices");
  finishSlices();  // one read at a time
  for (const auto& l : local_) {
    const Slab& slab = slabs_[std::size_t(l->index)];
    l->slices.resize(SliceSet::planeFloats(grid_.n1, grid_.n2, slab.planes));
    // A slab without plane k gives its xz and yz rows; its xy plane (of its first plane) is not used.
    l->solver->startSlices(i, j, std::clamp(k - slab.first, 0, slab.planes - 1), l->slices);
  }
  slices_ = PendingSlices{i, j, k, planes};
  return false;
}

void DecomposedSolver::finishSlices() {
  if (!slices_) return;
  const PendingSlices pending = *std::exchange(slices_, std::nullopt);
  for (const auto& l : local_) l->solver->finishSlices();
  const auto pieces = gather([](Local& l) { return l.slices; });
  const std::size_t n1 = std::size_t(grid_.n1), n2 = std::size_t(grid_.n2), n3 = std::size_t(grid_.n3);
  float* xy = pending.out.data();
  float* xz = xy + n1 * n2;
  float* yz = xz + n1 * n3;
  for (std::size_t s = 0; s < pieces.size(); ++s) {
    const Slab& slab = slabs_[s];
    const std::size_t planes = std::size_t(slab.planes), first = std::size_t(slab.first);
    const float* piece = pieces[s].data();
    if (pending.k >= slab.first && pending.k < slab.end()) std::copy_n(piece, n1 * n2, xy);
    std::copy_n(piece + n1 * n2, n1 * planes, xz + first * n1);
    std::copy_n(piece + n1 * n2 + n1 * planes, n2 * planes, yz + first * n2);
  }
}

SolverState DecomposedSolver::saveState() {
  std::vector<SolverState> states;  // this process's slabs', taken once
  const auto stateOf = [&](Local& l) -> SolverState& {
    const auto at = std::size_t(std::find_if(local_.begin(), local_.end(), [&](const auto& p) { return p.get() == &l; }) -
                                local_.begin());
    if (states.empty())
      for (const auto& mine : local_) states.push_back(mine->solver->saveState());
    return states[at];
  };
  const auto current = gather([&](Local& l) { return std::move(stateOf(l).current); });
  const auto previous = gather([&](Local& l) { return std::move(stateOf(l).previous); });
  const auto memory = gather([&](Local& l) { return std::move(stateOf(l).boundaryMemory); });
  SolverState state;
  state.step = step_;
  state.traces = traces();
  const std::size_t plane = grid_.planeSize();
  state.current.resize(grid_.paddedSize());
  state.previous.resize(grid_.paddedSize());
  const int last = int(slabs_.size()) - 1;
  for (int s = 0; s <= last; ++s) {
    // The slab's own planes, and the grid's halo planes beyond the first and the last slab.
    const Slab& slab = slabs_[std::size_t(s)];
    const std::size_t from = std::size_t(s == 0 ? 0 : R) * plane;
    const std::size_t to = std::size_t(slab.planes + (s == last ? 2 * R : R)) * plane;
    const std::size_t at = std::size_t(slab.first) * plane;
    std::copy(current[std::size_t(s)].begin() + std::ptrdiff_t(from), current[std::size_t(s)].begin() + std::ptrdiff_t(to),
              state.current.begin() + std::ptrdiff_t(at + from));
    std::copy(previous[std::size_t(s)].begin() + std::ptrdiff_t(from), previous[std::size_t(s)].begin() + std::ptrdiff_t(to),
              state.previous.begin() + std::ptrdiff_t(at + from));
  }
  if (!pml_.enabled()) return state;
  // x and y: each slab's planes in turn (z is their outermost index); z: each slot from its owner.
  state.boundaryMemory.resize(pml_.memoryFloats());
  for (int a = 0; a < 3; ++a)
    for (bool zeta : {false, true}) {
      std::size_t at = layerOffset(pml_, a, zeta);
      for (int s = 0; s <= last; ++s) {
        const PmlProfile window = pml_.zWindow(slabs_[std::size_t(s)].first, slabs_[std::size_t(s)].planes);
        const float* piece = memory[std::size_t(s)].data() + layerOffset(window, a, zeta);
        if (a < 2) {
          const std::size_t floats = window.axisMemoryFloats(a) / 2;
          std::copy_n(piece, floats, state.boundaryMemory.begin() + std::ptrdiff_t(at));
          at += floats;
          continue;
        }
        const std::size_t slot = std::size_t(grid_.n1) * std::size_t(grid_.n2);
        for (int t = 0; t < pml_.axes[2].memorySlots(); ++t)
          if (ownsZSlot(pml_.axes[2], slabs_[std::size_t(s)], t, zeta))
            std::copy_n(piece + std::size_t(t) * slot, slot, state.boundaryMemory.begin() + std::ptrdiff_t(at + std::size_t(t) * slot));
      }
    }
  return state;
}

void DecomposedSolver::restoreState(const SolverState& state) {
  const std::size_t padded = grid_.paddedSize(), plane = grid_.planeSize();
  if (state.current.size() != padded || state.previous.size() != padded ||
      state.traces.size() != std::size_t(state.step) * receiverCount_ || state.boundaryMemory.size() != pml_.memoryFloats())
    throw std::invalid_argument("restoring a decomposed run: the saved state has " + std::to_string(state.current.size()) +
                                " + " + std::to_string(state.previous.size()) + " field values, " +
                                std::to_string(state.traces.size()) + " trace samples and " +
                                std::to_string(state.boundaryMemory.size()) + " layer values; this grid needs " +
                                std::to_string(padded) + " each, " + std::to_string(std::size_t(state.step) * receiverCount_) +
                                " and " + std::to_string(pml_.memoryFloats()));
  for (const auto& l : local_) {
    const Slab& slab = slabs_[std::size_t(l->index)];
    SolverState mine;
    mine.step = state.step;
    const auto first = std::ptrdiff_t(std::size_t(slab.first) * plane);
    const auto floats = std::ptrdiff_t(std::size_t(slab.planes + 2 * R) * plane);
    mine.current.assign(state.current.begin() + first, state.current.begin() + first + floats);
    mine.previous.assign(state.previous.begin() + first, state.previous.begin() + first + floats);
    const std::vector<std::size_t>& receivers = receivers_[std::size_t(l->index)];
    for (long n = 0; n < state.step; ++n)
      for (std::size_t r : receivers) mine.traces.push_back(state.traces[std::size_t(n) * receiverCount_ + r]);
    if (pml_.enabled()) {
      // x and y: the slab's planes; z: every slot (the slab also advances ψ slots that others own).
      const PmlProfile window = pml_.zWindow(slab.first, slab.planes);
      mine.boundaryMemory.resize(window.memoryFloats());
      for (int a = 0; a < 3; ++a)
        for (bool zeta : {false, true}) {
          const std::size_t floats = window.axisMemoryFloats(a) / 2;
          const std::size_t skip = a < 2 ? std::size_t(slab.first) * floats / std::size_t(slab.planes) : 0;
          std::copy_n(state.boundaryMemory.begin() + std::ptrdiff_t(layerOffset(pml_, a, zeta) + skip), floats,
                      mine.boundaryMemory.begin() + std::ptrdiff_t(layerOffset(window, a, zeta)));
        }
    }
    l->solver->restoreState(mine);
  }
  step_ = state.step;
}

}  // namespace iso
