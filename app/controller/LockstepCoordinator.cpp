#include "app/controller/LockstepCoordinator.h"

#include <algorithm>
#include <stdexcept>

namespace iso {

void LockstepCoordinator::setControllers(std::vector<SimulationController*> controllers) {
  entries_.clear();
  for (SimulationController* c : controllers) entries_.push_back({c, true, nullptr});
  rendezvous_.assign(entries_.size(), nullptr);
  restartAtZero();
}

void LockstepCoordinator::setActive(std::size_t index, bool active) { entries_.at(index).active = active; }

void LockstepCoordinator::setBatch(int steps) {
  batch_ = std::max(1, steps);
  // One controller batch per rendezvous: no slices are extracted for steps that are never shown.
  for (Entry& e : entries_) e.controller->setStepsPerFrame(batch_);
}

void LockstepCoordinator::setStopStep(long step) { stopStep_ = step; }

void LockstepCoordinator::setPlaying(bool playing) {
  playing_ = playing;
  stepPending_ = false;
}

void LockstepCoordinator::stepOnce() {
  playing_ = false;
  stepPending_ = true;
}

void LockstepCoordinator::restart(const std::vector<std::optional<Scenario>>& scenarios) {
  if (scenarios.size() != entries_.size())
    throw std::invalid_argument("LockstepCoordinator::restart: one scenario (or none) per controller is needed");
  restartAtZero();
  for (std::size_t n = 0; n < entries_.size(); ++n) {
    Entry& e = entries_[n];
    e.active = scenarios[n].has_value();  // one without keeps its old solver, paused at step 0 or beyond
    e.latest.reset();
    if (e.active) e.controller->setScenario(*scenarios[n]);
  }
}

void LockstepCoordinator::restartAtZero() {
  target_ = 0;
  rendezvousStep_ = -1;
  stepPending_ = false;
  for (Entry& e : entries_) {
    e.controller->setStepsPerFrame(batch_);
    e.controller->setPauseAtStep(0);
  }
}

void LockstepCoordinator::sendTarget() {
  for (Entry& e : entries_) {
    if (!e.active) continue;
    e.controller->setPauseAtStep(target_);
    e.controller->setPlaying(true);
  }
}

bool LockstepCoordinator::poll() {
  bool anyActive = false, allThere = true;
  for (Entry& e : entries_) {
    if (e.controller->slices().take()) {
      e.latest = std::make_shared<const SliceSet>(e.controller->slices().front().copy());
      e.unseen = true;
    }
    if (!e.active) continue;
    anyActive = true;
    if (!e.latest || e.latest->step != target_) allThere = false;
  }
  if (!anyActive || !allThere) return false;
  // New slices of the step already handed out (a moved slice point) are handed out again.
  bool fresh = rendezvousStep_ != target_;
  for (const Entry& e : entries_) fresh = fresh || (e.active && e.unseen);
  if (fresh) {
    rendezvousStep_ = target_;
    for (std::size_t n = 0; n < entries_.size(); ++n) {
      rendezvous_[n] = entries_[n].active ? entries_[n].latest : nullptr;
      entries_[n].unseen = false;
    }
  }
  // Raised here, every controller having reached the target: a resumed play or a single step after a
  // rendezvous starts from the same place.
  if (playing_ || stepPending_) {
    const long next = target_ + (playing_ ? batch_ : 1);
    const long capped = stopStep_ >= 0 ? std::min(next, stopStep_) : next;
    if (capped > target_) {
      target_ = capped;
      stepPending_ = false;
      sendTarget();
    }
  }
  return fresh;
}

}  // namespace iso
