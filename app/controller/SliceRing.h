#pragma once
// A small ring of slots for the compute thread's slices (and, in the volume view, the image rendered with
// them, after the planes in the same slot), in memory that the reader provides: in the
// studio, persistently mapped OpenGL pixel-unpack buffers (render/MappedPixelBuffers.h), so that the
// solver writes each frame once, straight where the GL uploads it from. No GL here: a slot is a pointer
// and a capacity, and the compute thread never calls OpenGL.
//
// The writer acquires a free slot (none free: it skips the frame, so a slow view drops frames, not
// steps), writes the planes into it and publishes it as the latest; a latest slot that the reader never
// took goes back to the free ones. The reader takes the latest as a SliceSet whose planes are the slot's
// memory; the slot is free again only when the last copy of that set is gone, which the view delays until
// the GL upload that read it has completed (a fence). As a stream (a recording, which needs every frame),
// published slots queue instead and are taken oldest first, and a writer finding no free slot waits for
// one (waitForFree). Plain std::mutex, so ThreadSanitizer sees it all.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "core/SliceSet.h"

namespace iso {

class SliceRing : public std::enable_shared_from_this<SliceRing> {
 public:
  struct Slot {
    float* planes = nullptr;
    std::size_t capacity = 0;  // floats
  };
  static constexpr std::size_t kMinSlots = 3;  // one read, one published, one written
  // One held by the view, one the GL may still be reading, one published and one being written.
  static constexpr std::size_t kSlots = 4;

  // `slots` (at least kMinSlots) stay valid while `owner` lives. The ring holds `owner` until it is
  // closed, and so does every slot in use (being written, published, or taken and not yet released), so
  // the last copy of `owner` goes once the ring is closed and no slot is in use. `name` says what the
  // memory is (the transfer path the counters show). Throws std::invalid_argument for fewer slots or a
  // null one.
  static std::shared_ptr<SliceRing> create(std::vector<Slot> slots, std::shared_ptr<const void> owner, std::string name);

  const std::string& name() const { return name_; }
  std::size_t slotCount() const { return slots_.size(); }
  // A copy of the owner, which keeps every slot's memory valid while it lives; null once closed.
  std::shared_ptr<const void> owner() const;
  std::size_t slotFloats() const { return slotFloats_; }  // the smallest slot's capacity

  // Writer (one thread). acquire: a free slot of at least `floats` floats, or -1 when none is free, the
  // slots are too small or the ring is closed; either way `floats` becomes neededFloats().
  int acquire(std::size_t floats);
  std::span<float> planes(int slot) const;
  // The slot's planes (and the volume image after them) are written: `frame` gives their sizes, cell,
  // step and image (its memory is ignored).
  void publish(int slot, const SliceSet& frame);
  void abandon(int slot);  // back to the free slots unpublished (the write failed)
  bool unread() const;     // a published frame waits for the reader
  // Waits at most `patience` for a free slot (or the ring's closing); true when one is free.
  bool waitForFree(std::chrono::microseconds patience) const;

  // Published frames queue until taken, oldest first (true), or each replaces the one before (false,
  // the default: the queue's older frames go back to the free slots).
  void setStream(bool stream);

  // Reader (any thread). take: the latest frame (a stream's oldest), null when nothing new was published
  // since the last take.
  std::shared_ptr<const SliceSet> take();
  std::size_t neededFloats() const;  // what the writer asked for last (0 before), to size the next ring
  // No more frames: acquire fails, take returns null and the untaken frame is free. Slots still in use are
  // released as their write ends or their sets go.
  void close();

 private:
  enum class State { Free, Writing, Published, Taken };
  SliceRing(std::vector<Slot> slots, std::shared_ptr<const void> owner, std::string name);
  // Frees the slot; returns its hold on the owner, to be let go of outside the lock.
  [[nodiscard]] std::shared_ptr<const void> free(int slot);
  // Frees the published slots but the newest `keep`, oldest first; returns their holds, as free() does.
  [[nodiscard]] std::vector<std::shared_ptr<const void>> freePublished(std::size_t keep);
  void release(int slot);

  const std::vector<Slot> slots_;
  const std::string name_;
  std::size_t slotFloats_ = 0;

  mutable std::mutex mutex_;  // guards everything below
  mutable std::condition_variable freed_;
  std::shared_ptr<const void> owner_;  // until closed
  std::vector<State> states_;
  std::vector<std::shared_ptr<const void>> holds_;  // the owner, for each slot in use
  std::vector<SliceSet> frames_;  // what publish said of each slot
  std::deque<int> published_;     // untaken, oldest first (at most one unless a stream)
  bool stream_ = false;
  std::size_t needed_ = 0;
};

}  // namespace iso
