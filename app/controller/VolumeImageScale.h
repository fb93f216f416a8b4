#pragma once
// The automatic image scale of the volume view: the image is rendered at 1/divisor of the view's size
// per side, the smallest divisor whose predicted time fits a budget per image. The prediction is the
// renderer's measured time per pixel (smoothed over the images it has rendered) times the pixels; a
// change needs a clear margin, so that the scale does not flicker between two divisors. No Qt, no GL:
// the studio's pane feeds it each frame's time, and it is tested alone.
#include <array>
#include <cstddef>

namespace iso {

class VolumeImageScale {
 public:
  static constexpr std::array<int, 6> kDivisors{1, 2, 3, 4, 6, 8};
  // Budgets per image: beside a solver on the host's cores, where the image, the solver and the drawing
  // share the cores, so that a 96³ run still shows 15 frames a second; on a GPU, about a tenth of a
  // 60 Hz frame.
  static constexpr double kHostBudgetSeconds = 0.020, kDeviceBudgetSeconds = 0.0015;

  explicit VolumeImageScale(double budgetSeconds = kHostBudgetSeconds) : budget_(budgetSeconds) {}
  void setBudget(double seconds) { budget_ = seconds; }
  double budget() const { return budget_; }

  // An image of `pixels` pixels took `seconds`: updates the time per pixel and maybe the divisor.
  void measured(std::size_t pixels, double seconds);
  // The divisor for a view of `viewPixels` pixels (its size before division).
  int divisor(std::size_t viewPixels);
  double secondsPerPixel() const { return perPixel_; }
  void reset();  // forget the measurements (another solver, another device)

 private:
  double budget_;
  double perPixel_ = 0.0;  // smoothed; 0 before the first measurement
  int divisor_ = 1;
};

}  // namespace iso
