#include "app/controller/SliceRing.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace iso {

std::shared_ptr<SliceRing> SliceRing::create(std::vector<Slot> slots, std::shared_ptr<const void> owner, std::string name) {
  if (slots.size() < kMinSlots)
    throw std::invalid_argument("a slice ring needs at least " + std::to_string(kMinSlots) + " slots, got " +
                                std::to_string(slots.size()));
  for (const Slot& s : slots)
    if (s.planes == nullptr) throw std::invalid_argument("a slice ring's slot has no memory");
  return std::shared_ptr<SliceRing>(new SliceRing(std::move(slots), std::move(owner), std::move(name)));
}

SliceRing::SliceRing(std::vector<Slot> slots, std::shared_ptr<const void> owner, std::string name)
    : slots_(std::move(slots)), name_(std::move(name)), owner_(std::move(owner)), states_(slots_.size(), State::Free),
      holds_(slots_.size()), frames_(slots_.size()) {
  slotFloats_ = std::min_element(slots_.begin(), slots_.end(), [](const Slot& a, const Slot& b) {
                  return a.capacity < b.capacity;
                })->capacity;
}

int SliceRing::acquire(std::size_t floats) {
  std::lock_guard lock(mutex_);
  needed_ = floats;
  if (!owner_ || floats > slotFloats_) return -1;  // closed, or slots too small
  const auto free = std::find(states_.begin(), states_.end(), State::Free);
  if (free == states_.end()) return -1;
  *free = State::Writing;
  const auto slot = std::size_t(free - states_.begin());
  holds_[slot] = owner_;
  return int(slot);
}

std::shared_ptr<const void> SliceRing::owner() const {
  std::lock_guard lock(mutex_);
  return owner_;
}

std::span<float> SliceRing::planes(int slot) const {
  const Slot& s = slots_.at(std::size_t(slot));
  return {s.planes, s.capacity};
}

void SliceRing::publish(int slot, const SliceSet& frame) {
  std::shared_ptr<const void> hold;
  std::vector<std::shared_ptr<const void>> untaken;  // let go of outside the lock
  std::lock_guard lock(mutex_);
  if (!owner_) {  // closed while the slot was written
    hold = free(slot);
    return;
  }
  if (!stream_) untaken = freePublished(0);  // never taken: recycled
  SliceSet& meta = frames_.at(std::size_t(slot));
  meta = SliceSet{};
  meta.n1 = frame.n1, meta.n2 = frame.n2, meta.n3 = frame.n3;
  meta.i = frame.i, meta.j = frame.j, meta.k = frame.k;
  meta.step = frame.step;
  meta.imageWidth = frame.imageWidth, meta.imageHeight = frame.imageHeight;
  meta.imageView = frame.imageView;
  meta.imageSeconds = frame.imageSeconds;
  states_[std::size_t(slot)] = State::Published;
  published_.push_back(slot);
}

void SliceRing::abandon(int slot) { release(slot); }

bool SliceRing::unread() const {
  std::lock_guard lock(mutex_);
  return !published_.empty();
}

bool SliceRing::waitForFree(std::chrono::microseconds patience) const {
  std::unique_lock lock(mutex_);
  return freed_.wait_for(lock, patience, [this] {
    return !owner_ || std::find(states_.begin(), states_.end(), State::Free) != states_.end();
  }) && owner_;
}

void SliceRing::setStream(bool stream) {
  std::vector<std::shared_ptr<const void>> untaken;  // let go of outside the lock
  std::lock_guard lock(mutex_);
  stream_ = stream;
  if (!stream) untaken = freePublished(1);  // the newest stays the latest
}

std::shared_ptr<const SliceSet> SliceRing::take() {
  int slot = -1;
  SliceSet frame;
  {
    std::lock_guard lock(mutex_);
    if (published_.empty()) return nullptr;
    slot = published_.front();
    published_.pop_front();
    states_[std::size_t(slot)] = State::Taken;
    frame = frames_[std::size_t(slot)];
  }
  // Built outside the lock: should an allocation throw, the deleter runs and takes the lock.
  const float* planes = slots_[std::size_t(slot)].planes;
  frame.viewPlanes(planes, std::shared_ptr<const void>(planes, [ring = shared_from_this(), slot](const void*) {
                     ring->release(slot);
                   }));
  return std::make_shared<const SliceSet>(std::move(frame));
}

std::size_t SliceRing::neededFloats() const {
  std::lock_guard lock(mutex_);
  return needed_;
}

void SliceRing::close() {
  std::shared_ptr<const void> owner;
  std::vector<std::shared_ptr<const void>> untaken;
  std::lock_guard lock(mutex_);
  owner = std::move(owner_);
  untaken = freePublished(0);
  freed_.notify_all();  // a writer waiting for a slot gives up
}

std::vector<std::shared_ptr<const void>> SliceRing::freePublished(std::size_t keep) {
  std::vector<std::shared_ptr<const void>> holds;
  for (; published_.size() > keep; published_.pop_front()) holds.push_back(free(published_.front()));
  return holds;
}

std::shared_ptr<const void> SliceRing::free(int slot) {
  states_.at(std::size_t(slot)) = State::Free;
  freed_.notify_all();
  return std::move(holds_[std::size_t(slot)]);
}

void SliceRing::release(int slot) {
  std::shared_ptr<const void> hold;
  std::lock_guard lock(mutex_);
  hold = free(slot);
}

}  // namespace iso
