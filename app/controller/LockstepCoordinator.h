#pragma once
// Runs several SimulationControllers in lockstep: every controller advances to a common target step
// (setPauseAtStep), and the target is raised by one batch only once every active controller has
// published the slices of that step. No controller is ever more than one batch ahead of another, and
// the slices handed out at a rendezvous all belong to the same step, so a compare view can show them
// side by side and compare them.
//
// Driven by polling from one thread (the GUI's timer): poll() never waits for compute. Plain C++, no Qt.
#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "app/controller/SimulationController.h"

namespace iso {

class LockstepCoordinator {
 public:
  // The controllers are not owned and must outlive the coordinator (or the next setControllers).
  // All start active, at target step 0.
  void setControllers(std::vector<SimulationController*> controllers);
  std::size_t size() const { return entries_.size(); }

  // An inactive controller (its build failed, its solver stopped) is not waited for; restart() makes
  // every controller that gets a scenario active again.
  void setActive(std::size_t index, bool active);
  bool active(std::size_t index) const { return entries_.at(index).active; }

  void setBatch(int steps);      // steps between two rendezvous (≥ 1); also each controller's steps per frame
  void setStopStep(long step);   // the target never passes it (< 0: no limit)
  void setPlaying(bool playing); // pausing takes effect at the next rendezvous, at most one batch away
  bool playing() const { return playing_; }
  void stepOnce();               // pauses, then advances all by one step
  // A new scenario per controller, back to step 0; a controller without one is left inactive.
  void restart(const std::vector<std::optional<Scenario>>& scenarios);

  // Takes the controllers' new slices; true when every active controller has published the slices of
  // the target step and some of them are new (a rendezvous: they are in rendezvousSlices()), after which
  // the target is raised if playing. False while any active controller is still on its way, when
  // nothing changed, or when none is active.
  bool poll();
  long target() const { return target_; }
  long rendezvousStep() const { return rendezvousStep_; }  // -1 before the first rendezvous
  // The slices of the last rendezvous, one per controller (null for an inactive one).
  const std::vector<std::shared_ptr<const SliceSet>>& rendezvousSlices() const { return rendezvous_; }

 private:
  struct Entry {
    SimulationController* controller = nullptr;
    bool active = true;
    std::shared_ptr<const SliceSet> latest;  // the newest slices taken from it
    bool unseen = false;                     // latest was not handed out yet
  };
  void sendTarget();  // every active controller: pause at the target, play towards it
  void restartAtZero();

  std::vector<Entry> entries_;
  std::vector<std::shared_ptr<const SliceSet>> rendezvous_;
  int batch_ = 4;
  long target_ = 0, stopStep_ = -1, rendezvousStep_ = -1;
  bool playing_ = false;
  bool stepPending_ = false;  // a single step waits for the current target to be reached first
};

}  // namespace iso
