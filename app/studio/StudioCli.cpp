#include "app/studio/StudioCli.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTimer>
#include <cstdio>

#include "app/studio/BenchmarkPanel.h"
#include "app/studio/CompareWindow.h"
#include "core/Format.h"
#include "compute/DeviceRegistry.h"
#include "app/studio/ExportActions.h"
#include "app/studio/MainWindow.h"
#include "app/studio/RecordingSession.h"
#include "core/ScenarioResize.h"
#include "app/studio/SimulationPane.h"
#include "render/SliceView.h"
#include "app/studio/StageExplorer.h"
#include "core/StageRegistry.h"
#include "app/studio/ViewControls.h"
#include "app/controller/ViewCost.h"
#include "app/studio/ViewModes.h"
#include "app/export/VideoEncoder.h"
#include "app/studio/ViewImage.h"

namespace iso {
namespace {

void printError(const QString& text) { std::fprintf(stderr, "iso3dfd-studio: %s\n", qPrintable(text)); }

QString knownStageIds() { return QString::fromStdString(commaList(StageRegistry::ids())); }

}  // namespace

Scenario defaultScenarioForThisMachine() {
  Scenario s = presetScenario("default");
  for (const DeviceInfo& d : listDevices()) {
    if (d.type != "GPU") continue;
    s = resizedScenario(s, 256, 256, 256);  // the same picture, finer
    s.stage = "gpu-optimized";
    s.device = d.selector();
    break;
  }
  return s;
}

std::optional<StudioOptions> parseStudioOptions(const QStringList& arguments, QString& error) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "iso3dfd studio: the 3D acoustic wave equation (ISO3DFD stencil) solved live on OpenCL devices and the CPU.");
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument("scenario", "Scenario JSON file to open (default: the 'default' preset).", "[SCENARIO.json]");
  const QCommandLineOption preset("preset", "Start from a preset scenario: default or oneapi.", "name");
  const QCommandLineOption steps("steps", "Run N time steps (the scenario's run length) and pause there.", "N");
  const QCommandLineOption screenshot("screenshot", "With --steps: save the view after N steps as PNG to FILE, then quit.", "FILE");
  const QCommandLineOption stage("stage", "Stage id: " + knownStageIds() + ".", "id");
  const QCommandLineOption size("size", "Interior grid size n1,n2,n3 (1 to " + QString::number(kMaxAxisCells) + " each).", "n1,n2,n3");
  const QCommandLineOption device("device", "OpenCL device: gpu, cpu, P:D, or a name substring.", "selector");
  const QCommandLineOption threads("threads", "Threads of the cpu-parallel stage (default: all cores).", "N");
  const QCommandLineOption stepsPerFrame("steps-per-frame", "Time steps between displayed frames (1 to 1000, default 4; with --compare, default auto: as many\n"
                                            "as keep 30 frames/s).", "N");
  const QCommandLineOption benchmark("benchmark", "Measure throughput of the solver alone and with the window for SECONDS each, print the view's cost, quit.", "SECONDS");
  const QCommandLineOption slicePath(
      "slice-path",
      "How the slices reach the view: mapped (the default where OpenGL 4.4 or ARB_buffer_storage is available: the "
      "solver writes them into persistently mapped GL buffers, 1 host copy per frame) or host (a triple buffer the "
      "view copies from, 2 host copies per frame; the compare view always uses it). For measuring the difference.",
      "mapped|host");
  const QCommandLineOption paused("paused", "Start paused.");
  const QCommandLineOption mode("mode", "View mode: " + viewModeOptions() + " (default " + viewModes().front().option + ").", "mode");
  const QCommandLineOption compare("compare", "Run 2 to 4 stages side by side in lockstep on the scenario, e.g.\n"
                                    "cpu-serial,gpu-basic (stage@device picks an OpenCL device). With --steps N\n"
                                    "--screenshot FILE: exit status 1 when a stage disagrees with cpu-serial (or the\n"
                                    "first stage) beyond relative L2 1e-5. With --record PATH --frames N: a video of them all.", "S1,S2[,S3[,S4]]");
  const QCommandLineOption drag("drag", "With --compare --steps N --screenshot FILE: drag viewport 1's camera (an orbit, as the left\n"
                                 "mouse button does) throughout the run, and report how often the views redraw meanwhile.");
  const QCommandLineOption wholeWindow("whole-window", "With --screenshot: capture the whole window, not only the view.");
  const QCommandLineOption stagesWindow("stages-window", "Open only the stage explorer on the --stage stage at TAB: source, diff or explanation (with --screenshot: save it and quit).", "tab");
  const QCommandLineOption record(
      "record",
      "Record, then quit (exit status 0 once the output is complete): PATH ending in .mp4, .mkv or .mov is an H.264 "
      "video; PATH without an extension is a folder of PNG frames 000000.png, 000001.png, ... (new or empty). "
      "Needs --frames. With --compare, every viewport in one picture.",
      "PATH");
  const QCommandLineOption frames("frames", "With --record: the number of frames (1 to 1000000).", "N");
  const QCommandLineOption every("every", "With --record: time steps between frames; frame i shows step K*i (1 to 100000, default 4).", "K");
  const QCommandLineOption fps("fps", "With --record: frames per second of the video (1 to 240, default 30).", "F");
  const QCommandLineOption resolution("resolution",
                                      "Size of the --screenshot or --record picture in pixels, drawn at that size (up to 3840x2160; "
                                      "default: the view's size).",
                                      "WxH");
  const QCommandLineOption noHud("no-hud", "With --screenshot or --record: leave the counters out of the picture.");
  const QCommandLineOption noColourBar("no-colour-bar", "With --screenshot or --record: leave the colour bars out of the picture.");
  const QCommandLineOption noLabels("no-labels", "With --screenshot or --record: leave out the axes, their labels and the source, receiver and layer marks.");
  const QCommandLineOption benchPanel(
      "bench-panel",
      "Open the benchmark panel alone on the scenario (--size N: a cube N³; --steps S: steps per stage, default 20). "
      "With --screenshot FILE and/or --json FILE: run, save the window and the results, quit; exit status 1 when a "
      "stage failed or disagrees with cpu-serial beyond relative L2 1e-5.");
  const QCommandLineOption benchStages("stages", "With --bench-panel: the stages to time, e.g. cpu-serial,gpu-slm (default: all available).", "LIST");
  const QCommandLineOption benchJson("json", "With --bench-panel: write the results there (iso3dfd-bench/1, as iso3dfd bench --json).", "FILE");
  const QCommandLineOption benchLoad("load", "With --bench-panel: show the results in FILE (iso3dfd bench --json) next to the run; repeatable.", "FILE");
  parser.addOptions({preset, steps, screenshot, stage, size, device, threads, stepsPerFrame, benchmark, slicePath, paused, wholeWindow,
                     mode, compare, stagesWindow, record, frames, every, fps, resolution, noHud, noColourBar, noLabels, benchPanel, benchStages,
                     benchJson, benchLoad, drag});
  parser.process(arguments);  // exits for --help, --version and unknown options

  StudioOptions o;
  std::string fromFile;  // the scenario file as read, to tell whether the options changed it
  auto integer = [&](const QCommandLineOption& opt, long min, long max, long& out) {
    bool ok = false;
    const long v = parser.value(opt).toLong(&ok);
    if (!ok || v < min || v > max) {
      error = QStringLiteral("--%1 %2: expected an integer from %3 to %4")
                  .arg(opt.names().first(), parser.value(opt)).arg(min).arg(max);
      return false;
    }
    out = v;
    return true;
  };
  try {
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
      error = "give at most one scenario file (got " + positional.join(' ') + ")";
      return std::nullopt;
    }
    if (!positional.isEmpty()) {
      o.scenario = loadScenarioFile(positional.first().toStdString());
      o.scenarioFile = positional.first();
      fromFile = scenarioToJson(o.scenario);
      o.scenarioGiven = true;
    } else if (parser.isSet(preset)) {
      o.scenario = presetScenario(parser.value(preset).toStdString());
      o.scenarioGiven = true;
    } else {
      o.scenario = defaultScenarioForThisMachine();
    }
  } catch (const std::exception& e) {
    error = QString::fromStdString(e.what());
    return std::nullopt;
  }
  if (parser.isSet(stage)) {
    const std::string id = parser.value(stage).toStdString();
    try {
      StageRegistry::get(id);
    } catch (const std::exception& e) {
      error = "--stage: " + QString::fromStdString(e.what());
      return std::nullopt;
    }
    o.scenario.stage = id;
    o.scenarioGiven = true;
  }
  o.benchPanel = parser.isSet(benchPanel);
  if (o.benchPanel && parser.isSet(size) && !parser.value(size).contains(',')) {
    bool ok = false;
    o.benchSize = parser.value(size).trimmed().toInt(&ok);
    if (!ok || o.benchSize < 1 || o.benchSize > kMaxAxisCells) {
      error = QStringLiteral("--size %1: expected a cube size N from 1 to %2, or n1,n2,n3").arg(parser.value(size)).arg(kMaxAxisCells);
      return std::nullopt;
    }
  } else if (parser.isSet(size)) {
    const QStringList parts = parser.value(size).split(',');
    int n[3] = {0, 0, 0};
    bool ok = parts.size() == 3;
    for (int a = 0; ok && a < 3; ++a) {
      n[a] = parts[a].trimmed().toInt(&ok);
      ok = ok && n[a] >= 1 && n[a] <= kMaxAxisCells;
    }
    if (!ok) {
      error = QStringLiteral("--size %1: expected three integers n1,n2,n3 from 1 to %2").arg(parser.value(size)).arg(kMaxAxisCells);
      return std::nullopt;
    }
    o.scenario = resizedScenario(o.scenario, n[0], n[1], n[2]);  // keeps the picture (source, salt, layers)
    o.scenarioGiven = true;
  }
  if (parser.isSet(device)) o.scenario.device = parser.value(device).toStdString();
  long value = 0;
  if (parser.isSet(threads)) {
    if (!integer(threads, 1, 1024, value)) return std::nullopt;
    o.scenario.stageParams["threads"] = int(value);
  }
  if (parser.isSet(stepsPerFrame)) {
    if (!integer(stepsPerFrame, 1, 1000, value)) return std::nullopt;
    o.stepsPerFrame = int(value);
    o.stepsPerFrameGiven = true;
  }
  if (parser.isSet(slicePath)) {
    const QString path = parser.value(slicePath).toLower();
    if (path != "mapped" && path != "host") {
      error = "--slice-path " + parser.value(slicePath) + ": expected mapped or host";
      return std::nullopt;
    }
    o.hostSlicePath = path == "host";
  }
  if (parser.isSet(steps)) {
    if (!integer(steps, 0, 100000000, o.steps)) return std::nullopt;
    o.scenario.steps = int(o.steps);  // the run's length: the progress bar ends there
  }
  if (parser.isSet(stagesWindow)) {
    o.stagesTab = QStringList{"source", "diff", "explanation"}.indexOf(parser.value(stagesWindow).toLower());
    if (o.stagesTab < 0) {
      error = "--stages-window " + parser.value(stagesWindow) + ": expected source, diff or explanation";
      return std::nullopt;
    }
  }
  // An empty file name leaves nothing to save, and the window would stay open for ever.
  for (const QCommandLineOption* opt : {&screenshot, &record, &benchJson, &benchLoad})
    if (parser.values(*opt).contains(QString())) {
      error = "--" + opt->names().first() + " needs a file name (got an empty one)";
      return std::nullopt;
    }
  if (parser.isSet(screenshot)) {
    if (o.steps < 0 && o.stagesTab < 0 && !o.benchPanel) {
      error = "--screenshot needs --steps N (the step to take it at)";
      return std::nullopt;
    }
    o.screenshot = parser.value(screenshot);
  }
  if (parser.isSet(benchmark)) {
    bool ok = false;
    o.benchmarkSeconds = parser.value(benchmark).toDouble(&ok);
    if (!ok || o.benchmarkSeconds < 0.5 || o.benchmarkSeconds > 600.0) {
      error = "--benchmark " + parser.value(benchmark) + ": expected seconds from 0.5 to 600";
      return std::nullopt;
    }
  }
  o.scenarioEdited = !o.scenarioFile.isEmpty() && scenarioToJson(o.scenario) != fromFile;
  if (parser.isSet(record)) {
    o.record = parser.value(record);
    if (!parser.isSet(frames)) {
      error = "--record needs --frames N (how many frames to write)";
      return std::nullopt;
    }
    if (!o.screenshot.isEmpty() || o.steps >= 0) {
      error = "--record runs on its own: leave out --steps and --screenshot";
      return std::nullopt;
    }
    if (!RecordingSession::isVideoPath(o.record) && !QFileInfo(o.record).suffix().isEmpty()) {
      error = "--record " + o.record + ": expected a video (.mp4, .mkv, .mov) or a folder name without an extension";
      return std::nullopt;
    }
    if (!integer(frames, 1, 1000000, o.recordFrames)) return std::nullopt;
    if (parser.isSet(every)) {
      if (!integer(every, 1, 100000, value)) return std::nullopt;
      o.recordEvery = int(value);
    }
    if (parser.isSet(fps)) {
      if (!integer(fps, 1, VideoEncoder::kMaxFps, value)) return std::nullopt;
      o.recordFps = int(value);
    }
  } else {
    for (const QCommandLineOption* opt : {&frames, &every, &fps})
      if (parser.isSet(*opt)) {
        error = "--" + opt->names().first() + " belongs to --record";
        return std::nullopt;
      }
  }
  if (parser.isSet(resolution) || parser.isSet(noHud) || parser.isSet(noColourBar) || parser.isSet(noLabels)) {
    if (o.screenshot.isEmpty() && o.record.isEmpty()) {
      error = "--resolution, --no-hud, --no-colour-bar and --no-labels go with --screenshot or --record";
      return std::nullopt;
    }
    if (o.screenshotWindow) {
      error = "--resolution, --no-hud, --no-colour-bar and --no-labels apply to the view's picture, not to --whole-window";
      return std::nullopt;
    }
  }
  if (parser.isSet(resolution)) {
    o.picture.size = parseResolution(parser.value(resolution), error);
    if (o.picture.size.isEmpty()) return std::nullopt;
    const QSize most = SliceView::kMaxImageSize;
    if (o.picture.size.width() > most.width() || o.picture.size.height() > most.height()) {
      error = QStringLiteral("--resolution %1: at most %2x%3 pixels").arg(parser.value(resolution)).arg(most.width()).arg(most.height());
      return std::nullopt;
    }
    if (RecordingSession::isVideoPath(o.record) && (o.picture.size.width() % 2 || o.picture.size.height() % 2)) {
      error = "--resolution " + parser.value(resolution) + ": a video (H.264, yuv420p) needs an even width and height";
      return std::nullopt;
    }
  }
  o.picture.hud = !parser.isSet(noHud);
  o.picture.colourBar = !parser.isSet(noColourBar);
  o.picture.labels = !parser.isSet(noLabels);
  o.startPaused = parser.isSet(paused);
  o.screenshotWindow = parser.isSet(wholeWindow);
  if (parser.isSet(mode)) {
    o.viewMode = viewModeIndex(parser.value(mode));
    if (o.viewMode < 0) {
      error = "--mode " + parser.value(mode) + ": expected " + viewModeOptions();
      return std::nullopt;
    }
  }
  if (parser.isSet(compare)) {
    o.compareStages = parser.value(compare).split(',', Qt::SkipEmptyParts);
    for (QString& spec : o.compareStages) spec = spec.trimmed();
    if (o.compareStages.size() < CompareWindow::kMinViewports || o.compareStages.size() > CompareWindow::kMaxViewports) {
      error = QStringLiteral("--compare %1: expected %2 to %3 stages separated by commas (got %4)")
                  .arg(parser.value(compare))
                  .arg(CompareWindow::kMinViewports)
                  .arg(CompareWindow::kMaxViewports)
                  .arg(o.compareStages.size());
      return std::nullopt;
    }
  }
  if (parser.isSet(drag)) {
    if (o.compareStages.isEmpty() || !parser.isSet(screenshot)) {
      error = "--drag goes with --compare, --steps and --screenshot";
      return std::nullopt;
    }
    o.dragCamera = true;
  }
  if (o.benchPanel) {
    if (!o.compareStages.isEmpty() || !o.record.isEmpty() || o.stagesTab >= 0 || o.benchmarkSeconds > 0.0) {
      error = "--bench-panel runs on its own: leave out --compare, --record, --stages-window and --benchmark";
      return std::nullopt;
    }
    if (parser.isSet(steps) && o.steps < 1) {
      error = "--steps " + parser.value(steps) + ": the benchmark needs at least 1 step per stage";
      return std::nullopt;
    }
    for (const QString& id : parser.value(benchStages).split(',', Qt::SkipEmptyParts)) {
      if (!StageRegistry::find(id.trimmed().toStdString())) {
        error = "--stages: unknown stage '" + id.trimmed() + "' (known: " + knownStageIds() + ")";
        return std::nullopt;
      }
      o.benchStages << id.trimmed();
    }
    if (parser.isSet(benchStages) && o.benchStages.isEmpty()) {
      error = "--stages needs at least one stage id";
      return std::nullopt;
    }
    o.benchLoad = parser.values(benchLoad);
    if (parser.isSet(benchJson)) {
      o.benchJson = parser.value(benchJson);
      if (QFileInfo(o.benchJson).suffix().toLower() != "json") {
        error = "--json " + o.benchJson + ": expected a name ending in .json";
        return std::nullopt;
      }
    }
    // Before the run, not after it: a folder that is missing would waste the whole benchmark.
    for (const auto& [option, path] : {std::pair{"--json", o.benchJson}, std::pair{"--screenshot", o.screenshot}})
      if (!path.isEmpty() && !QFileInfo(path).absoluteDir().exists()) {
        error = QStringLiteral("%1 %2: the folder %3 does not exist").arg(option, path, QFileInfo(path).absolutePath());
        return std::nullopt;
      }
  } else {
    for (const QCommandLineOption* opt : {&benchStages, &benchJson, &benchLoad})
      if (parser.isSet(*opt)) {
        error = "--" + opt->names().first() + " belongs to --bench-panel";
        return std::nullopt;
      }
  }
  return o;
}

void recordFromCommandLine(RecordingSession& recording, const StudioOptions& options,
                           std::function<double()> pointsComputed) {
  RecordingSettings settings;
  settings.path = options.record;
  settings.picture = options.picture;
  settings.fps = options.recordFps;
  settings.every = options.recordEvery;
  settings.frames = options.recordFrames;
  auto clock = std::make_shared<QElapsedTimer>();
  clock->start();
  const double pointsBefore = pointsComputed();
  QObject::connect(&recording, &RecordingSession::finished, &recording,
                   [&recording, &options, clock, pointsBefore, pointsComputed](bool ok, const QString& message) {
    if (!ok) {
      printError(message);
      QApplication::exit(1);
      return;
    }
    const double wall = clock->elapsed() / 1000.0;
    const QSize size = recording.frameSize();
    const long frames = recording.framesCaptured();
    std::printf("recorded %ld frames (%dx%d, every %d steps, %d fps) to %s in %.2f s\n", frames, size.width(),
                size.height(), options.recordEvery, options.recordFps, qPrintable(message), wall);
    std::printf("simulation: %.1f Mpts/s over the recording (wall time)\n",
                wall > 0 ? (pointsComputed() - pointsBefore) / wall / 1e6 : 0.0);
    std::printf("drawing: %.1f ms per frame; writer: %.1f frames/s of its own time; run held for the writer %.2f s\n",
                frames ? 1e3 * recording.renderSeconds() / double(frames) : 0.0,
                recording.writerBusySeconds() > 0 ? double(frames) / recording.writerBusySeconds() : 0.0,
                recording.waitSeconds());
    std::fflush(stdout);
    QApplication::exit(0);
  });
  if (!recording.start(settings)) {
    printError(recording.error());
    QApplication::exit(1);
  }
}

int runStudio(const StudioOptions& options) {
  if (!options.compareStages.isEmpty()) return runCompareWindow(options);
  if (options.benchPanel) return runBenchmarkPanel(options);
  if (options.stagesTab >= 0)
    return runStageExplorer(options.scenario.stage, StageExplorer::Tab(options.stagesTab), options.screenshot);
  // The view's cost is measured against the solver alone (shared with `iso3dfd view-cost`), first.
  ViewCostResult cost;
  if (options.benchmarkSeconds > 0.0) {
    try {
      cost.aloneMpts = solverAloneMpts(options.scenario, options.stepsPerFrame, options.benchmarkSeconds);
    } catch (const std::exception& e) {
      printError(QStringLiteral("benchmark: %1").arg(e.what()));
      return 1;
    }
  }

  std::optional<ScenarioOrigin> origin;
  if (!options.scenarioFile.isEmpty())
    origin = ScenarioOrigin{QString::fromStdString(options.scenario.name), options.scenarioFile, options.scenarioEdited};
  MainWindow window(options.scenario, origin);
  SimulationPane* pane = window.pane();
  SimulationController& controller = pane->controller();
  window.viewControls()->setStepsPerFrame(options.stepsPerFrame);  // the box shows what the controller does
  if (options.hostSlicePath) pane->setSlicePath(SimulationPane::SlicePath::Host, "--slice-path host");
  if (options.steps >= 0) controller.setPauseAtStep(options.steps);
  // A benchmark measures for its whole time: the run does not stop at the scenario's end.
  if (options.benchmarkSeconds > 0.0) controller.setRunEnd(RunEnd::RunOn);
  const bool automated = !options.screenshot.isEmpty() || !options.record.isEmpty() || options.benchmarkSeconds > 0.0;

  // In automated runs a failure must end the program with a message, not wait for a user.
  QObject::connect(pane, &SimulationPane::controllerEvent, &window, [&](const ControllerEvent& e) {
    if (e.kind != ControllerEvent::Kind::Error) return;
    printError(QString::fromStdString(e.message));
    if (automated) QApplication::exit(1);
  });
  if (!options.screenshot.isEmpty()) {
    QObject::connect(pane, &SimulationPane::frameShown, &window, [&, taken = false](long step) mutable {
      if (step < options.steps || taken) return;
      taken = true;
      // frameShown comes from inside a paint: grab after it returns (grabbing paints again).
      QTimer::singleShot(0, &window, [&] {
        pane->pollStatus();  // the counters of this very step in the picture
        QString problem = "could not save the screenshot to " + options.screenshot;  // unless told why
        bool saved = false;
        if (options.screenshotWindow) {
          saved = writeImageFile(SliceView::grabWithViews(window), options.screenshot, problem);
        } else {
          ImageOptions image = options.picture;
          if (image.size.isEmpty()) {
            image.size = pane->screenPixels();
            image.scale = pane->view()->devicePixelRatioF();
          }
          saved = saveViewImage(*pane, options.screenshot, image, problem);
        }
        if (!saved) printError(problem);
        QApplication::exit(saved ? 0 : 1);
      });
    });
  }
  // Benchmark: once the solver runs, a warm-up like the solver-alone run's, then count steps and frames.
  QTimer benchmarkTick;
  QElapsedTimer sinceSolver, measuring;
  long startStep = 0;
  std::uint64_t skippedAtStart = 0;
  int framesDrawn = 0;
  if (options.benchmarkSeconds > 0.0) {
    QObject::connect(pane->view(), &SliceView::frameDrawn, &window, [&] { ++framesDrawn; });
    QObject::connect(&benchmarkTick, &QTimer::timeout, &window, [&] {
      const ControllerStatus s = controller.status();
      if (!s.hasSolver) return;
      if (!sinceSolver.isValid()) sinceSolver.start();
      if (!measuring.isValid()) {
        if (sinceSolver.elapsed() < kViewCostWarmupSeconds * 1000) return;
        startStep = s.step;
        skippedAtStart = controller.framesSkipped();
        framesDrawn = 0;
        measuring.start();
        return;
      }
      const double seconds = measuring.elapsed() / 1000.0;
      if (seconds < options.benchmarkSeconds) return;
      cost.stage = s.stage;
      cost.device = s.device;
      cost.grid = s.grid;
      cost.stepsPerFrame = options.stepsPerFrame;
      cost.seconds = seconds;
      cost.viewName = "the window";
      cost.slicePath = s.transferPath;
      cost.withViewMpts = double(s.grid.interiorSize()) * double(s.step - startStep) / seconds / 1e6;
      cost.framesPerSecond = framesDrawn / seconds;
      cost.batchesWithoutSlices = controller.framesSkipped() - skippedAtStart;
      std::printf("%s", formatViewCost(cost).c_str());
      std::fflush(stdout);
      QApplication::exit(0);
    });
    benchmarkTick.start(20);
  }
  // Recording: starts once the solver is built (the session sets the pause steps and plays). The
  // window's own session, so that the window shows it as it shows one started from its Record button.
  RecordingSession& recording = *window.exportActions()->recording();
  if (!options.record.isEmpty()) {
    QObject::connect(pane, &SimulationPane::rebuilt, &window, [&, started = false]() mutable {
      if (started) return;
      started = true;
      recordFromCommandLine(recording, options, [&] {
        const ControllerStatus s = controller.status();
        return double(s.grid.interiorSize()) * double(s.step);
      });
    });
  }
  window.setViewMode(options.viewMode);
  window.show();
  window.setPlaying(!options.startPaused && options.record.isEmpty());
  const int status = QApplication::exec();
  pane->stop();
  return status;
}

}  // namespace iso
