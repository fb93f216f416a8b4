#pragma once
// A single-producer / single-consumer triple buffer: the writer always has a buffer of its own to fill,
// the reader always has a stable buffer to read, and neither ever waits for the other. A publish that
// replaces a value the reader has not taken yet drops that value (counted): a slow reader loses frames,
// the writer never slows down.
#include <array>
#include <atomic>
#include <cstdint>

namespace iso {

template <class T>
class TripleBuffer {
 public:
  // Writer thread: the buffer to fill, then publish() hands it over (and gives the writer another one).
  T& back() { return buffers_[backIndex_]; }
  void publish() {
    const unsigned previous = middle_.exchange(backIndex_ | kFresh, std::memory_order_acq_rel);
    backIndex_ = previous & kIndexMask;
    published_.fetch_add(1, std::memory_order_relaxed);
    if (previous & kFresh) dropped_.fetch_add(1, std::memory_order_relaxed);
  }

  // Reader thread: takes the latest published value into front(); false (front unchanged) if nothing
  // new was published since the last take.
  bool take() {
    if (!(middle_.load(std::memory_order_relaxed) & kFresh)) return false;
    const unsigned previous = middle_.exchange(frontIndex_, std::memory_order_acq_rel);
    frontIndex_ = previous & kIndexMask;
    return true;
  }
  const T& front() const { return buffers_[frontIndex_]; }

  // Any thread: whether the latest published value still waits for the reader.
  bool unread() const { return middle_.load(std::memory_order_acquire) & kFresh; }

  // Any thread: how many values were published, and how many of them the reader never saw.
  std::uint64_t published() const { return published_.load(std::memory_order_relaxed); }
  std::uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }

 private:
  static constexpr unsigned kIndexMask = 3u;
  static constexpr unsigned kFresh = 4u;  // the middle buffer holds a value the reader has not taken

  std::array<T, 3> buffers_{};
  std::atomic<unsigned> middle_{1};  // index of the buffer in between, plus the kFresh flag
  unsigned backIndex_ = 0;           // owned by the writer
  unsigned frontIndex_ = 2;          // owned by the reader
  std::atomic<std::uint64_t> published_{0}, dropped_{0};
};

}  // namespace iso
