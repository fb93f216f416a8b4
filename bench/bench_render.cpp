// What one recorded frame costs, part by part, on this machine's OpenGL and cores: drawing the view
// off screen (the slices of a 512³ run in 3D, bare and with every decoration, without and with the 4
// samples per pixel a GPU's view uses) and read back, and encoding it (H.264 at the x264 presets).
// What a picture made on the solver's device costs the GUI thread (its layers; core/SlicePicture.h).
// A recording keeps pace with the run only while every part stays under the time the run takes for the
// frame's steps (docs/PERFORMANCE.md, "Recording").
//
//   xvfb-run -a iso_bench_render --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
// Needs a display with OpenGL 3.3 (an X server; Xvfb with NVIDIA's GLX on a GPU server).
#include <benchmark/benchmark.h>

#include <QGuiApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <vector>

#include "app/export/VideoEncoder.h"
#include "render/GainControl.h"
#include "render/SliceRenderer.h"
#include "render/ViewContext.h"

namespace {

constexpr int kGrid = 512;
const QSize kSizes[] = {{1280, 720}, {1920, 1080}, {3840, 2160}};

// Three planes through the centre of an n³ grid: a spherical Ricker shell of `radius` cells.
std::shared_ptr<iso::SliceSet> ringSlices(int n, double radius) {
  auto s = std::make_shared<iso::SliceSet>();
  s->n1 = s->n2 = s->n3 = n, s->i = s->j = n / 2, s->k = n / 3;
  const auto u = [=](double x, double y, double z) {
    const double r = std::sqrt(x * x + y * y + z * z), a = (r - radius) / 4.0;
    return float((1.0 - 2.0 * a * a) * std::exp(-a * a) / std::max(r, 1.0));
  };
  float* out = s->ownPlanes();
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) *out++ = u(c - s->i, r - s->j, 0);
  for (int plane = 1; plane < 3; ++plane)
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) *out++ = plane == 1 ? u(c - s->i, 0, r - s->k) : u(0, c - s->j, r - s->k);
  return s;
}

// One context and renderer for every benchmark, as the studio's view has one.
struct Scene {
  QOffscreenSurface surface;
  QOpenGLContext context;
  iso::SliceRenderer renderer;
  QString glInfo;

  bool open() {
    const QSurfaceFormat format = iso::ViewContext::viewFormat();
    surface.setFormat(format);
    surface.create();
    context.setFormat(format);
    if (!context.create() || !context.makeCurrent(&surface) || !renderer.initialize(context)) return false;
    renderer.setMode(iso::SliceRenderer::Mode::Orthogonal3D);
    renderer.setGainMode(iso::GainMode::PerFrame);
    renderer.decorations().setGridSpacing(10.0);
    renderer.decorations().setSourceCell({kGrid / 2, kGrid / 2, kGrid / 3});
    std::vector<iso::Cell> receivers;
    for (int r = 0; r < 11; ++r) receivers.push_back({kGrid / 4 + r * kGrid / 20, kGrid / 2, 8});
    renderer.decorations().setReceivers(receivers);
    renderer.decorations().setAbsorbingLayer({10, 10, 10});
    renderer.setSlices(ringSlices(kGrid, 80.0));
    glInfo = renderer.glInfo();
    return true;
  }
};
Scene* scene = nullptr;

void setHud(long frame) {
  scene->renderer.decorations().setHudLines(
      {QString("step %1 · t = %2 s · dt = 0.7533 ms").arg(frame * 4).arg(frame * 0.003, 0, 'f', 4),
       QString("%1 Mpts/s · 6900 GFLOP/s · 60 fps").arg(110000 + frame % 97), "1800 GB/s (16 B/pt) · 70 % of roofline",
       "gpu-optimized · 512×512×512", "slices: persistently mapped GL buffers"});
}

// Args: picture index (kSizes), decorations (0/1), samples per pixel.
void BM_DrawAndReadBack(benchmark::State& state) {
  const iso::ImageOptions options{kSizes[state.range(0)], 0.0, state.range(1) != 0, state.range(1) != 0, state.range(1) != 0};
  long frame = 0;
  for (auto _ : state) {
    setHud(frame++);
    QString error;
    const QImage image = scene->renderer.renderImage(options, int(state.range(2)), error);
    if (image.isNull()) return state.SkipWithError(qPrintable(error));
    benchmark::DoNotOptimize(image.constBits());
  }
  state.counters["frames/s"] = benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
}

// What each new set of slices costs the GUI thread before anything is drawn: the colour range's measurement
// (GainControl::update over a 512³ grid's three planes), shown or recorded alike.
void BM_GainUpdate(benchmark::State& state) {
  std::vector<std::shared_ptr<iso::SliceSet>> shells;
  for (int f = 0; f < 4; ++f) shells.push_back(ringSlices(kGrid, 60.0 + 4.0 * f));
  iso::GainControl gain;
  long frame = 0;
  for (auto _ : state) {
    iso::SliceSet& s = *shells[std::size_t(frame % 4)];
    s.step = frame++ * 4;
    benchmark::DoNotOptimize(gain.update(s));
  }
  state.counters["updates/s"] = benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
}

// Args: picture index. What a picture made on the solver's device costs the GUI thread before the device
// starts on it (SliceRenderer::pictureParts: the overlay's panels painted, the 3D lines' layer reused):
// every frame new counters in the HUD and, from a shell that moves, a new colour range.
void BM_PictureParts(benchmark::State& state) {
  const iso::ImageOptions options{kSizes[state.range(0)], 0.0, true, true, true};
  std::vector<std::shared_ptr<iso::SliceSet>> shells;
  for (int f = 0; f < 4; ++f) shells.push_back(ringSlices(kGrid, 60.0 + 4.0 * f));
  long frame = 0;
  for (auto _ : state) {
    state.PauseTiming();  // what every frame shown costs, recorded or not
    setHud(frame);
    scene->renderer.setSlices(shells[std::size_t(frame++ % 4)]);
    state.ResumeTiming();
    QString error;
    const auto parts = scene->renderer.pictureParts(options, error, [] { return QString(); });
    if (!parts) return state.SkipWithError(qPrintable(error));
    benchmark::DoNotOptimize(parts->layers.data());
  }
  scene->renderer.setSlices(ringSlices(kGrid, 80.0));
  state.counters["frames/s"] = benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
}

// Args: picture index, x264 preset index. 120 frames of a moving shell per iteration, encoded into a
// temporary file by the studio's encoder (its queue and thread), the time from the first push to the
// file complete.
const char* const kPresets[] = {"veryfast", "superfast", "ultrafast"};
void BM_Encode(benchmark::State& state) {
  const QSize size = kSizes[state.range(0)];
  constexpr int kFrames = 120, kDistinct = 12;
  std::vector<QImage> frames;
  const iso::ImageOptions options{size, 0.0, true, true, true};
  for (int f = 0; f < kDistinct; ++f) {
    scene->renderer.setSlices(ringSlices(kGrid, 60.0 + 4.0 * f));
    setHud(f);
    QString error;
    frames.push_back(scene->renderer.renderImage(options, 0, error).copy());
    if (frames.back().isNull()) return state.SkipWithError(qPrintable(error));
  }
  iso::VideoOptions video;
  video.preset = kPresets[state.range(1)];
  const auto path = std::filesystem::temp_directory_path() / "iso_bench_render.mp4";
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    iso::VideoEncoder encoder(path, size.width(), size.height(), 30, video);
    for (int f = 0; f < kFrames; ++f) encoder.push(frames[f % kDistinct].constBits(), frames[f % kDistinct].bytesPerLine());
    encoder.finish();
    state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::filesystem::remove(path);
  state.counters["frames/s"] = benchmark::Counter(double(state.iterations()) * kFrames, benchmark::Counter::kIsRate);
  state.SetLabel(kPresets[state.range(1)]);
}

}  // namespace

int main(int argc, char** argv) {
  QGuiApplication app(argc, argv);
  Scene opened;
  if (!opened.open()) {
    std::fprintf(stderr, "iso_bench_render: no OpenGL 3.3 core context (%s)\n", qPrintable(opened.renderer.problem()));
    return 1;
  }
  scene = &opened;
  std::printf("OpenGL: %s\n", qPrintable(opened.glInfo));
  for (int size = 0; size < 3; ++size)
    for (int decorated = 0; decorated < 2; ++decorated)
      for (int samples : {0, 4})
        benchmark::RegisterBenchmark("BM_DrawAndReadBack", BM_DrawAndReadBack)
            ->Args({size, decorated, samples})
            ->ArgNames({"size", "decorated", "samples"})
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
  benchmark::RegisterBenchmark("BM_GainUpdate", BM_GainUpdate)->Unit(benchmark::kMicrosecond)->UseRealTime();
  for (int size = 0; size < 3; ++size)
    benchmark::RegisterBenchmark("BM_PictureParts", BM_PictureParts)
        ->Arg(size)
        ->ArgName("size")
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  for (int size = 0; size < 3; ++size)
    for (int preset = 0; preset < 3; ++preset)
      benchmark::RegisterBenchmark("BM_Encode", BM_Encode)
          ->Args({size, preset})
          ->ArgNames({"size", "preset"})
          ->Unit(benchmark::kMillisecond)
          ->UseManualTime()
          ->Iterations(1);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  scene->context.makeCurrent(&scene->surface);
  scene->renderer.release();
  return 0;
}
