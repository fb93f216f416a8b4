#include "HostBandwidth.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "ThreadPool.h"

namespace iso {

namespace {
double measure() {
  constexpr std::size_t kBytes = std::size_t(256) << 20;
  constexpr std::size_t kCount = kBytes / sizeof(float);
  const unsigned threads = unsigned(ThreadPool::hardwareThreads());
  std::unique_ptr<float[]> src(new float[kCount]), dst(new float[kCount]);
  // Each thread touches its own part first, so pages land near the thread that copies them.
  auto forEachPart = [&](auto&& body) {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        const std::size_t begin = kCount * t / threads, end = kCount * (t + 1) / threads;
        body(begin, end);
      });
    for (auto& th : pool) th.join();
  };
  forEachPart([&](std::size_t b, std::size_t e) {
    std::fill(src.get() + b, src.get() + e, 1.0f);
    std::fill(dst.get() + b, dst.get() + e, 0.0f);
  });
  std::vector<double> rates;
  for (int pass = 0; pass < 5; ++pass) {
    const auto t0 = std::chrono::steady_clock::now();
    forEachPart([&](std::size_t b, std::size_t e) {
      std::memcpy(dst.get() + b, src.get() + b, (e - b) * sizeof(float));
    });
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    rates.push_back(2.0 * double(kBytes) / s / 1e9);
  }
  std::nth_element(rates.begin(), rates.begin() + rates.size() / 2, rates.end());
  return rates[rates.size() / 2];
}
}  // namespace

double hostCopyBandwidthGBs() {
  static std::once_flag once;
  static double value = 0.0;
  std::call_once(once, [] { value = measure(); });
  return value;
}

}  // namespace iso
