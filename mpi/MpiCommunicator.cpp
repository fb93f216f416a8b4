#include "mpi/MpiCommunicator.h"

#ifdef ISO_HAVE_MPI
#include <mpi.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace iso {

namespace {

// Floats per MPI message: counts are ints, so longer transfers go in pieces of this many.
constexpr std::size_t kMaxPiece = std::size_t(1) << 30;

void check(int status, const char* call) {
  if (status == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(status, text, &length) != MPI_SUCCESS) length = 0;
  throw std::runtime_error(std::string(call) + " failed: " + (length > 0 ? std::string(text, std::size_t(length)) : "an MPI error"));
}

std::string libraryLine() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  check(MPI_Get_library_version(text, &length), "MPI_Get_library_version");
  std::string line(text, std::size_t(length));
  return line.substr(0, std::min(line.find(','), line.find('\n')));
}

// One MPI-3 shared-memory window over the ranks of this host (MPI_Win_allocate_shared on the
// MPI_COMM_TYPE_SHARED split), open for load and store all its life (MPI_Win_lock_all): the ranks order
// their accesses with messages and MPI_Win_sync (the unified memory model of shared windows).
class MpiSharedMemory final : public Communicator::SharedMemory {
 public:
  MpiSharedMemory(MPI_Comm host, MPI_Win window, std::vector<std::span<float>> parts)
      : host_(host), window_(window), parts_(std::move(parts)) {}
  ~MpiSharedMemory() override {
    int finalized = 0;
    if (MPI_Finalized(&finalized) != MPI_SUCCESS || finalized) return;
    MPI_Win_unlock_all(window_);  // failures here have no one to tell
    MPI_Win_free(&window_);
    MPI_Comm_free(&host_);
  }
  std::span<float> of(int rank) const override { return parts_.at(std::size_t(rank)); }
  void synchronize() override { check(MPI_Win_sync(window_), "MPI_Win_sync"); }

 private:
  MPI_Comm host_;
  MPI_Win window_;
  std::vector<std::span<float>> parts_;  // per rank of the communicator
};

class MpiCommunicator final : public Communicator {
 public:
  MpiCommunicator() {
    check(MPI_Comm_dup(MPI_COMM_WORLD, &comm_), "MPI_Comm_dup");
    check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
  }
  ~MpiCommunicator() override {
    int finalized = 0;
    if (MPI_Finalized(&finalized) != MPI_SUCCESS || finalized) return;  // MPI_Finalize freed everything
    for (std::vector<MPI_Request>& t : transfers_)
      if (!t.empty()) MPI_Waitall(int(t.size()), t.data(), MPI_STATUSES_IGNORE);
    MPI_Comm_free(&comm_);  // a failure here has no one to tell
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::string describe() const override { return std::to_string(size_) + " ranks, " + libraryLine(); }

  int startSend(int to, int tag, std::span<const float> data) override {
    std::vector<MPI_Request>& t = transfers_.emplace_back();
    std::size_t at = 0;
    do  // one message at least: an empty one is a signal
      check(MPI_Isend(data.data() + at, int(std::min(kMaxPiece, data.size() - at)), MPI_FLOAT, to, tag, comm_,
                      &t.emplace_back()),
            "MPI_Isend");
    while ((at += kMaxPiece) < data.size());
    return int(transfers_.size()) - 1;
  }

  int startReceive(int from, int tag, std::span<float> data) override {
    std::vector<MPI_Request>& t = transfers_.emplace_back();
    std::size_t at = 0;
    do
      check(MPI_Irecv(data.data() + at, int(std::min(kMaxPiece, data.size() - at)), MPI_FLOAT, from, tag, comm_,
                      &t.emplace_back()),
            "MPI_Irecv");
    while ((at += kMaxPiece) < data.size());
    return int(transfers_.size()) - 1;
  }

  void waitTransfer(int handle) override {
    if (handle < 0 || std::size_t(handle) >= transfers_.size()) throw std::out_of_range("no MPI transfer " + std::to_string(handle));
    std::vector<MPI_Request>& t = transfers_[std::size_t(handle)];
    std::vector<MPI_Status> statuses(t.size());
    const int status = MPI_Waitall(int(t.size()), t.data(), statuses.data());
    t.clear();  // waited for
    if (status == MPI_ERR_IN_STATUS)
      for (const MPI_Status& s : statuses) check(s.MPI_ERROR, "MPI_Waitall (a transfer)");
    check(status, "MPI_Waitall");
  }

  void waitTransfers() override {
    for (std::size_t h = 0; h < transfers_.size(); ++h) waitTransfer(int(h));
    transfers_.clear();
  }

  void allowSharedMemory(bool allowed) override { shareAllowed_ = allowed; }

  std::unique_ptr<SharedMemory> shareHostMemory(std::size_t floats) override {
    if (!shareAllowed_) return nullptr;
    MPI_Comm host = MPI_COMM_NULL;
    check(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &host), "MPI_Comm_split_type");
    check(MPI_Comm_set_errhandler(host, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    // MPI libraries back the window with a file in /dev/shm, which a container may keep small; past its
    // room the allocation succeeds and the first touch of a missing page kills the process (SIGBUS), so a
    // host whose /dev/shm cannot hold every rank's part does not share.
    unsigned long long bytes = floats * sizeof(float), onHost = 0;
    check(MPI_Allreduce(&bytes, &onHost, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, host), "MPI_Allreduce");
    struct statvfs room {};
    const bool fits = ::statvfs("/dev/shm", &room) != 0 || onHost <= room.f_bavail * room.f_frsize;
    float* mine = nullptr;
    MPI_Win window = MPI_WIN_NULL;
    const int status = fits ? MPI_Win_allocate_shared(MPI_Aint(bytes), int(sizeof(float)), MPI_INFO_NULL, host, &mine, &window)
                            : MPI_ERR_NO_MEM;
    // Every rank learns whether all could allocate: each shares, or none does.
    const int allocated = status == MPI_SUCCESS ? 1 : 0;
    int everywhere = 0;
    check(MPI_Allreduce(&allocated, &everywhere, 1, MPI_INT, MPI_MIN, comm_), "MPI_Allreduce");
    if (!everywhere) {
      if (allocated) MPI_Win_free(&window);
      MPI_Comm_free(&host);
      return nullptr;
    }
    check(MPI_Win_set_errhandler(window, MPI_ERRORS_RETURN), "MPI_Win_set_errhandler");
    check(MPI_Win_lock_all(MPI_MODE_NOCHECK, window), "MPI_Win_lock_all");
    return std::make_unique<MpiSharedMemory>(host, window, partsOfRanks(host, window));
  }

  void sendFloats(int to, int tag, std::span<const float> data) override {
    const std::uint64_t count = data.size();
    check(MPI_Send(&count, 1, MPI_UINT64_T, to, tag, comm_), "MPI_Send");
    for (std::size_t at = 0; at < data.size(); at += kMaxPiece)
      check(MPI_Send(data.data() + at, int(std::min(kMaxPiece, data.size() - at)), MPI_FLOAT, to, tag, comm_), "MPI_Send");
  }

  std::vector<float> receiveFloats(int from, int tag) override {
    std::uint64_t count = 0;
    check(MPI_Recv(&count, 1, MPI_UINT64_T, from, tag, comm_, MPI_STATUS_IGNORE), "MPI_Recv");
    std::vector<float> data(count);
    for (std::size_t at = 0; at < data.size(); at += kMaxPiece)
      check(MPI_Recv(data.data() + at, int(std::min(kMaxPiece, data.size() - at)), MPI_FLOAT, from, tag, comm_,
                     MPI_STATUS_IGNORE),
            "MPI_Recv");
    return data;
  }

  std::vector<std::string> allGather(const std::string& mine) override {
    const int length = int(mine.size());
    std::vector<int> lengths(static_cast<std::size_t>(size_)), offsets(static_cast<std::size_t>(size_));
    check(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm_), "MPI_Allgather");
    int total = 0;
    for (int r = 0; r < size_; ++r) offsets[std::size_t(r)] = std::exchange(total, total + lengths[std::size_t(r)]);
    std::string all(std::size_t(total), '\0');
    check(MPI_Allgatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, comm_),
          "MPI_Allgatherv");
    std::vector<std::string> out;
    for (int r = 0; r < size_; ++r)
      out.push_back(all.substr(std::size_t(offsets[std::size_t(r)]), std::size_t(lengths[std::size_t(r)])));
    return out;
  }

  std::optional<RankError> firstError(const std::optional<std::string>& mine) override {
    const int candidate = mine ? rank_ : size_;
    int first = size_;
    check(MPI_Allreduce(&candidate, &first, 1, MPI_INT, MPI_MIN, comm_), "MPI_Allreduce");
    if (first == size_) return std::nullopt;
    std::string message = first == rank_ ? *mine : std::string();
    int length = int(message.size());
    check(MPI_Bcast(&length, 1, MPI_INT, first, comm_), "MPI_Bcast");
    message.resize(std::size_t(length));
    check(MPI_Bcast(message.data(), length, MPI_CHAR, first, comm_), "MPI_Bcast");
    return RankError{first, message};
  }

 private:
  // Every rank's part of a shared window over `host`, in this process's addresses (empty for ranks on
  // other hosts).
  std::vector<std::span<float>> partsOfRanks(MPI_Comm host, MPI_Win window) const {
    MPI_Group all = MPI_GROUP_NULL, local = MPI_GROUP_NULL;
    check(MPI_Comm_group(comm_, &all), "MPI_Comm_group");
    check(MPI_Comm_group(host, &local), "MPI_Comm_group");
    std::vector<int> ranks(static_cast<std::size_t>(size_)), onHost(static_cast<std::size_t>(size_));
    for (int r = 0; r < size_; ++r) ranks[std::size_t(r)] = r;
    const int status = MPI_Group_translate_ranks(all, size_, ranks.data(), local, onHost.data());
    MPI_Group_free(&all);
    MPI_Group_free(&local);
    check(status, "MPI_Group_translate_ranks");
    std::vector<std::span<float>> parts(static_cast<std::size_t>(size_));
    for (int r = 0; r < size_; ++r) {
      if (onHost[std::size_t(r)] == MPI_UNDEFINED) continue;
      MPI_Aint bytes = 0;
      int unit = 0;
      void* base = nullptr;
      check(MPI_Win_shared_query(window, onHost[std::size_t(r)], &bytes, &unit, &base), "MPI_Win_shared_query");
      parts[std::size_t(r)] = {static_cast<float*>(base), std::size_t(bytes) / sizeof(float)};
    }
    return parts;
  }

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  std::vector<std::vector<MPI_Request>> transfers_;  // per handle, its requests (none once waited for)
  bool shareAllowed_ = true;
};

}  // namespace

std::shared_ptr<Communicator> worldCommunicator() { return std::make_shared<MpiCommunicator>(); }

std::string mpiLibraryVersion() { return libraryLine(); }

}  // namespace iso
#endif
