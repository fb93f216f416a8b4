#pragma once
// A stand-in solver for the tests of the compute thread and its slice slots: it takes a fixed wall time
// per step and writes its step number into every field and slice value, so that a slice torn between two
// publishes would show mixed values. Its slices are written at once (a CPU stage), or like an OpenCL
// read only in finishSlices, while the caller must not read them (deferredSlices).
#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/SliceSet.h"
#include "core/WaveSolver.h"

namespace iso::test {

// The host memory a solver has locked (lockHostMemory) and not unlocked yet; `onUnlock` runs at each
// unlock, on the solver's thread, before the span leaves `locked`.
struct HostLocks {
  std::mutex mutex;
  std::vector<std::span<float>> locked;
  std::function<void(std::span<float>)> onUnlock;
  std::vector<std::span<float>> snapshot() {
    std::lock_guard lock(mutex);
    return locked;
  }
};

class FakeSolver : public WaveSolver {
 public:
  struct Options {
    std::chrono::microseconds perStep{100};
    std::string stage = "fake";
    bool deferredSlices = false;
    std::shared_ptr<HostLocks> locks = nullptr;  // where lockHostMemory and unlockHostMemory are logged (null: nowhere)
  };
  FakeSolver(Grid g, Options options) : grid_(g), options_(std::move(options)) {}

  std::string stage() const override { return options_.stage; }
  std::string deviceName() const override { return "fake device"; }
  const Grid& grid() const override { return grid_; }
  double advance(int steps) override {
    std::this_thread::sleep_for(options_.perStep * steps);
    step_ += steps;
    return std::chrono::duration<double>(options_.perStep * steps).count();
  }
  long currentStep() const override { return step_; }
  void readField(std::vector<float>& interior) override { interior.assign(grid_.interiorSize(), float(step_)); }
  bool startSlices(int, int, int, std::span<float> planes) override {
    pending_ = planes.first(SliceSet::planeFloats(grid_.n1, grid_.n2, grid_.n3));
    pendingStep_ = step_;
    if (!options_.deferredSlices) finishSlices();
    return !options_.deferredSlices;
  }
  void finishSlices() override {
    std::fill(pending_.begin(), pending_.end(), float(pendingStep_));
    pending_ = {};
  }
  bool lockHostMemory(std::span<float> memory) override {
    if (!options_.locks) return true;
    std::lock_guard lock(options_.locks->mutex);
    options_.locks->locked.push_back(memory);
    return true;
  }
  void unlockHostMemory(std::span<float> memory) override {
    if (!options_.locks) return;
    if (options_.locks->onUnlock) options_.locks->onUnlock(memory);
    std::lock_guard lock(options_.locks->mutex);
    std::erase_if(options_.locks->locked, [&](std::span<float> l) { return l.data() == memory.data(); });
  }
  ~FakeSolver() override {  // a device's locks go with its solver
    if (!options_.locks) return;
    std::lock_guard lock(options_.locks->mutex);
    options_.locks->locked.clear();
  }
  std::vector<float> traces() override { return {}; }
  SolverState saveState() override { return {step_, {}, {}, {}, {}}; }
  void restoreState(const SolverState& state) override { step_ = state.step; }

 private:
  Grid grid_;
  Options options_;
  long step_ = 0, pendingStep_ = 0;
  std::span<float> pending_;
};

}  // namespace iso::test
