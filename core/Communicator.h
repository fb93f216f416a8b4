#pragma once
// The processes of a run, as a decomposed solver needs them (core/DecomposedSolver.h): ranks 0 .. size-1
// that move floats to each other and agree. Several processes, possibly on several hosts, are MPI ranks
// (mpi/MpiCommunicator.h), which core/ knows only through this interface; one process alone needs none.
// Collective calls are made by every rank in the same order.
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace iso {

class Communicator {
 public:
  virtual ~Communicator() = default;

  virtual int rank() const = 0;
  virtual int size() const = 0;
  // One line for reports, e.g. "2 ranks (Open MPI 4.1.4)".
  virtual std::string describe() const = 0;

  // Point to point, non-blocking: the memory stays untouched (send) or unread (receive) until the
  // transfer is waited for (waitTransfer with the handle returned, or waitTransfers, which waits for all
  // not waited for yet). A receive takes exactly the floats a matching send (same tag) sends; an empty one
  // is a signal (its message carries nothing).
  virtual int startSend(int to, int tag, std::span<const float> data) = 0;
  virtual int startReceive(int from, int tag, std::span<float> data) = 0;
  virtual void waitTransfer(int handle) = 0;
  virtual void waitTransfers() = 0;

  // Host memory that the ranks of one host share (an MPI-3 shared-memory window): a neighbour on the same
  // host reads a halo where its owner's device wrote it, instead of receiving it as messages that the MPI
  // library copies through memory of its own.
  class SharedMemory {
   public:
    virtual ~SharedMemory() = default;
    // Rank `rank`'s part, in this process's address space; empty for a rank on another host.
    virtual std::span<float> of(int rank) const = 0;
    // A memory barrier for the window (MPI_Win_sync): called after writing and before telling another rank
    // (a message), and after being told and before reading.
    virtual void synchronize() = 0;
  };
  // Collective: every rank asks for `floats` of its own (0: none). Null on every rank when the ranks do
  // not share memory here: not allowed (allowSharedMemory), or the allocation failed on some rank. Freed
  // collectively: every rank lets its own go at the same point of the program.
  virtual std::unique_ptr<SharedMemory> shareHostMemory(std::size_t floats) = 0;
  // Whether shareHostMemory may share (the default) or gives null, so that halos go as messages (every
  // rank sets the same).
  virtual void allowSharedMemory(bool allowed) = 0;

  // Point to point, blocking, of any length (the receiver learns it).
  virtual void sendFloats(int to, int tag, std::span<const float> data) = 0;
  virtual std::vector<float> receiveFloats(int from, int tag) = 0;

  // Collective: every rank's text, in rank order, on every rank.
  virtual std::vector<std::string> allGather(const std::string& mine) = 0;
  // Collective: the lowest rank that has an error and its message (nullopt when none has), on every
  // rank, so that all ranks fail together instead of waiting for one that failed.
  struct RankError {
    int rank;
    std::string message;
  };
  virtual std::optional<RankError> firstError(const std::optional<std::string>& mine) = 0;
};

// What every rank throws when one rank's part of a collective step failed (onEveryRank), so that all
// end together: the message of the lowest failing rank (after "rank r: " on the others); on that rank,
// its own exception is nested (std::throw_with_nested).
struct RanksFailed : std::runtime_error {
  RanksFailed(const std::string& message, int failedRank) : std::runtime_error(message), rank(failedRank) {}
  int rank;
};

// Runs `work` on every rank (collectively: every rank calls this); when it throws on any rank, every
// rank throws RanksFailed. Without ranks (null) or with one, just `work`, whose exceptions pass as they are.
void onEveryRank(Communicator* ranks, const std::function<void()>& work);

// The ranks this process runs among: MPI_COMM_WORLD under mpirun, set once by main before any solver is
// made (createSolver cuts the grid over them); null for a process alone.
std::shared_ptr<Communicator> processRanks();
void setProcessRanks(std::shared_ptr<Communicator> ranks);
// Whether this process prints reports and writes files: rank 0, or a process alone.
bool isReportingProcess();

}  // namespace iso
