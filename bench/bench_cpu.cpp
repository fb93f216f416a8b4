// CPU stages at 64³, 128³ and 256³ (Mpts/s, GB/s at 16 B/pt) and the memory bandwidth they are measured
// against: a STREAM-like triad on every hardware thread; on x86-64 also the core clock and the L1 load
// throughput that bound the AVX2 kernel.
//
//   iso_bench_cpu --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "core/CpuSolvers.h"
#include "core/Metrics.h"
#include "core/Problem.h"
#include "core/Scenario.h"
#include "core/ThreadPool.h"

namespace {

// The oneAPI sample's run (nested cubes, reflecting: no damping) or our default scenario (layered model,
// salt body, Ricker source, absorbing layer unless `boundary` says otherwise), on an n³ grid.
iso::Problem benchProblem(const std::string& preset, int n, const std::string& stage,
                          iso::BoundaryKind boundary = iso::BoundaryKind::Absorbing) {
  iso::Scenario s = iso::presetScenario(preset);
  s.n1 = s.n2 = s.n3 = n;
  if (preset == "default") {  // keep the preset's geometry relative to the grid
    s.source.i = s.source.j = n / 2, s.source.k = n / 4;
    s.model.salt.centerX = s.model.salt.centerY = 0.5 * n * s.dx, s.model.salt.centerZ = 0.6 * n * s.dx;
    s.model.salt.radius = 0.15 * n * s.dx;
    s.receivers.clear();
    s.boundary.kind = boundary;
  }
  s.stage = stage;
  return iso::buildProblem(s);
}

// Args: n, steps per iteration, threads (0 = the stage's default). At 64³ the three arrays (2 MiB each)
// stay in L3, so that row is the kernel's speed without DRAM traffic: the most any blocking can give.
void runStage(benchmark::State& state, const std::string& preset, const std::string& stage) {
  const int n = int(state.range(0)), steps = int(state.range(1)), threads = int(state.range(2));
  iso::StageParamMap params;
  if (threads > 0) params["threads"] = threads;
  auto solver = iso::createCpuSolver(benchProblem(preset, n, stage), stage, params);
  solver->advance(2);  // warm-up: first touch of the pages, thread start-up
  double seconds = 0.0;
  for (auto _ : state) {
    const double t = solver->advance(steps);
    state.SetIterationTime(t);
    seconds += t;
  }
  const double points = double(n) * n * n * steps * double(state.iterations());
  state.counters["Mpts/s"] = points / seconds / 1e6;
  state.counters["GB/s(16B/pt)"] = points * iso::kTrafficBytesPerPoint / seconds / 1e9;
  state.SetLabel(solver->deviceName());
}

void BM_CpuSerial(benchmark::State& state) { runStage(state, "oneapi", "cpu-serial"); }
void BM_CpuParallel(benchmark::State& state) { runStage(state, "oneapi", "cpu-parallel"); }
void BM_CpuParallelAbsorbing(benchmark::State& state) { runStage(state, "default", "cpu-parallel"); }

BENCHMARK(BM_CpuSerial)->ArgNames({"n", "steps", "threads"})->Args({128, 4, 0})->Args({256, 2, 0})
    ->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CpuParallel)->ArgNames({"n", "steps", "threads"})
    ->Args({64, 100, 0})->Args({64, 100, 1})->Args({128, 20, 0})->Args({256, 10, 0})->Args({256, 10, 1})
    ->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CpuParallelAbsorbing)->ArgNames({"n", "steps", "threads"})->Args({128, 20, 0})->Args({256, 10, 0})
    ->UseManualTime()->Unit(benchmark::kMillisecond);

// What the default scenario's absorbing layer costs cpu-parallel: the same run with the layer and with a
// reflecting boundary, `steps` of each in turn within every iteration, so that both see the same state of
// a shared machine (whose speed can drift by a third between quarter hours) and their ratio is measured in
// one run. Args: n, steps per turn.
void BM_CpuParallelLayerShare(benchmark::State& state) {
  const int n = int(state.range(0)), steps = int(state.range(1));
  auto layer = iso::createCpuSolver(benchProblem("default", n, "cpu-parallel"), "cpu-parallel", {});
  auto reflecting = iso::createCpuSolver(benchProblem("default", n, "cpu-parallel", iso::BoundaryKind::Reflecting),
                                         "cpu-parallel", {});
  layer->advance(2);  // warm-up: first touch of the pages, thread start-up
  reflecting->advance(2);
  double withLayer = 0.0, without = 0.0;
  for (auto _ : state) {
    const double a = layer->advance(steps), b = reflecting->advance(steps);
    state.SetIterationTime(a + b);
    withLayer += a;
    without += b;
  }
  const double points = double(n) * n * n * steps * double(state.iterations());
  state.counters["layer Mpts/s"] = points / withLayer / 1e6;
  state.counters["reflecting Mpts/s"] = points / without / 1e6;
  state.counters["layer/reflecting %"] = 100.0 * without / withLayer;
  state.SetLabel(layer->deviceName());
}
BENCHMARK(BM_CpuParallelLayerShare)->ArgNames({"n", "steps"})->Args({96, 20})->Args({256, 4})
    ->UseManualTime()->Unit(benchmark::kMillisecond);

// Times `work` once per benchmark iteration with steady_clock (manual time) and returns the total seconds.
template <class Work>
double timeEachIteration(benchmark::State& state, Work work) {
  double seconds = 0.0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    work();
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    state.SetIterationTime(t);
    seconds += t;
  }
  return seconds;
}

// a[i] = b[i] + s·c[i] over 3 × 256 MiB, split over all hardware threads; counts 12 B per element
// (STREAM's convention: the write-allocate read of a is not counted).
void BM_Triad(benchmark::State& state) {
  const std::size_t n = std::size_t(64) << 20;
  const int threads = iso::ThreadPool::hardwareThreads();
  std::vector<float> a(n), b(n, 1.0f), c(n, 2.0f);
  iso::ThreadPool pool(threads);
  auto triad = [&](int t) {
    const std::size_t begin = n * std::size_t(t) / threads, end = n * std::size_t(t + 1) / threads;
    float* __restrict pa = a.data();
    const float* __restrict pb = b.data();
    const float* __restrict pc = c.data();
    for (std::size_t i = begin; i < end; ++i) pa[i] = pb[i] + 3.0f * pc[i];
  };
  pool.run(triad);  // first touch of a
  const double seconds = timeEachIteration(state, [&] {
    pool.run(triad);
    benchmark::DoNotOptimize(a.data());
    benchmark::ClobberMemory();
  });
  state.counters["GB/s"] = 12.0 * double(n) * double(state.iterations()) / seconds / 1e9;
  state.SetLabel(std::to_string(threads) + " threads");
}
BENCHMARK(BM_Triad)->UseManualTime()->Unit(benchmark::kMillisecond);

// One ThreadPool::run() of an empty task on every hardware thread: what the cpu-parallel stage pays per
// time step to start its workers and wait for them, apart from the stencil.
void BM_ThreadPoolRun(benchmark::State& state) {
  iso::ThreadPool pool(iso::ThreadPool::hardwareThreads());
  constexpr int kRuns = 1000;
  const double seconds = timeEachIteration(state, [&] {
    for (int r = 0; r < kRuns; ++r) pool.run([](int) {});
  });
  state.counters["us/run"] = seconds / double(state.iterations()) / kRuns * 1e6;
  state.SetLabel(std::to_string(pool.size()) + " threads");
}
BENCHMARK(BM_ThreadPoolRun)->UseManualTime()->Unit(benchmark::kMillisecond);

#if defined(__x86_64__)
// The two numbers that bound the AVX2 stencil kernel (docs/PERFORMANCE.md): the core clock, from a chain
// of dependent integer adds (one per cycle), and how many 256-bit loads per nanosecond one core completes
// when each feeds an independent add (12 chains, one 4 KB buffer, so every load hits L1). Their ratio is
// loads per cycle.
void BM_CoreClock(benchmark::State& state) {
  constexpr long kAdds = 1L << 24;
  long x = 0, one = 1;
  // Register operands, not immediates: recent Intel cores (Golden Cove on) fold chains of `add $imm`
  // at rename, several per cycle, so such a chain would not measure the clock.
  const double seconds = timeEachIteration(state, [&] {
    for (long i = 0; i < kAdds; i += 4)
      asm volatile("add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0" : "+r"(x) : "r"(one));
  });
  benchmark::DoNotOptimize(x);
  state.counters["GHz"] = double(kAdds) * double(state.iterations()) / seconds / 1e9;
}
BENCHMARK(BM_CoreClock)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_VectorLoads(benchmark::State& state) {
  if (!__builtin_cpu_supports("avx")) {
    state.SkipWithError("this CPU has no AVX");
    return;
  }
  alignas(64) static float buffer[1024] = {};
  constexpr long kRounds = 1L << 21;  // 12 loads each
  const float* p = buffer;
  const double seconds = timeEachIteration(state, [&] {
    for (long i = 0; i < kRounds; ++i)
      asm volatile(
          "vaddps 0(%0), %%ymm0, %%ymm0\n\tvaddps 32(%0), %%ymm1, %%ymm1\n\tvaddps 64(%0), %%ymm2, %%ymm2\n\t"
          "vaddps 96(%0), %%ymm3, %%ymm3\n\tvaddps 128(%0), %%ymm4, %%ymm4\n\tvaddps 160(%0), %%ymm5, %%ymm5\n\t"
          "vaddps 192(%0), %%ymm6, %%ymm6\n\tvaddps 224(%0), %%ymm7, %%ymm7\n\tvaddps 256(%0), %%ymm8, %%ymm8\n\t"
          "vaddps 288(%0), %%ymm9, %%ymm9\n\tvaddps 320(%0), %%ymm10, %%ymm10\n\tvaddps 352(%0), %%ymm11, %%ymm11"
          :
          : "r"(p)
          : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11");
    asm volatile("vzeroupper");
  });
  state.counters["loads/ns"] = 12.0 * double(kRounds) * double(state.iterations()) / seconds / 1e9;
}
BENCHMARK(BM_VectorLoads)->UseManualTime()->Unit(benchmark::kMillisecond);
#endif

}  // namespace

int main(int argc, char** argv) {
  iso::registerCpuStages();  // a program of core alone: its scenarios name the CPU stages
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
