#include "StudioCli.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QTimer>
#include <chrono>
#include <cstdio>
#include <thread>

#include "CompareWindow.h"
#include "DeviceRegistry.h"
#include "MainWindow.h"
#include "ScenarioResize.h"
#include "SimulationPane.h"
#include "SliceView.h"
#include "StageRegistry.h"

namespace iso {
namespace {

constexpr double kBenchmarkWarmupSeconds = 0.5;

void printError(const QString& text) { std::fprintf(stderr, "iso3dfd-studio: %s\n", qPrintable(text)); }

// Interior points per second of wall time while the controller plays, measured over `seconds` after a
// warm-up; the controller must already be playing.
double measureWallMpts(const SimulationController& controller, double seconds) {
  const ControllerStatus first = controller.status();
  const auto start = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  const ControllerStatus last = controller.status();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return double(last.grid.interiorSize()) * double(last.step - first.step) / wall / 1e6;
}

// The same stage with no window at all: the reference for the view's cost.
double headlessMpts(const StudioOptions& options) {
  SimulationController controller;
  playWhenBuilt(controller, options.scenario, options.stepsPerFrame);
  std::this_thread::sleep_for(std::chrono::duration<double>(kBenchmarkWarmupSeconds));
  return measureWallMpts(controller, options.benchmarkSeconds);
}

}  // namespace

Scenario defaultScenarioForThisMachine() {
  Scenario s = presetScenario("default");
  for (const DeviceInfo& d : listDevices()) {
    if (d.type != "GPU") continue;
    s.stage = "gpu-optimized";
    s.device = d.selector();
    s.n1 = s.n2 = s.n3 = 256;
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
  const QCommandLineOption steps("steps", "Pause when the run reaches N time steps.", "N");
  const QCommandLineOption screenshot("screenshot", "With --steps: save the view after N steps as PNG to FILE, then quit.", "FILE");
  const QCommandLineOption stage("stage", "Stage id: " + QString::fromStdString([] {
    std::string ids;
    for (const auto& id : StageRegistry::ids()) ids += (ids.empty() ? "" : ", ") + id;
    return ids;
  }()) + ".", "id");
  const QCommandLineOption size("size", "Interior grid size n1,n2,n3 (1 to " + QString::number(kMaxAxisCells) + " each).", "n1,n2,n3");
  const QCommandLineOption device("device", "OpenCL device: gpu, cpu, P:D, or a name substring.", "selector");
  const QCommandLineOption threads("threads", "Threads of the cpu-parallel stage (default: all cores).", "N");
  const QCommandLineOption stepsPerFrame("steps-per-frame", "Time steps between displayed frames (1 to 1000, default 4).", "N");
  const QCommandLineOption benchmark("benchmark", "Measure throughput headless and with the view for SECONDS each, print both, quit.", "SECONDS");
  const QCommandLineOption paused("paused", "Start paused.");
  const QCommandLineOption mode("mode", "View mode: 3d, xy, xz or yz (default 3d).", "mode");
  const QCommandLineOption compare("compare", "Run 2 to 4 stages side by side in lockstep on the scenario, e.g.\n"
                                    "cpu-serial,gpu-basic (stage@device picks an OpenCL device). With --steps N\n"
                                    "--screenshot FILE: exit status 1 when a stage disagrees with cpu-serial (or the\n"
                                    "first stage) beyond relative L2 1e-5.", "S1,S2[,S3[,S4]]");
  const QCommandLineOption wholeWindow("whole-window", "With --screenshot: capture the whole window, not only the view.");
  parser.addOptions({preset, steps, screenshot, stage, size, device, threads, stepsPerFrame, benchmark, paused, wholeWindow, mode, compare});
  parser.process(arguments);  // exits for --help, --version and unknown options

  StudioOptions o;
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
  if (parser.isSet(size)) {
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
  }
  if (parser.isSet(steps) && !integer(steps, 0, 100000000, o.steps)) return std::nullopt;
  if (parser.isSet(screenshot)) {
    if (o.steps < 0) {
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
  o.startPaused = parser.isSet(paused);
  o.screenshotWindow = parser.isSet(wholeWindow);
  if (parser.isSet(mode)) {
    o.viewMode = QStringList{"3d", "xy", "xz", "yz"}.indexOf(parser.value(mode).toLower());
    if (o.viewMode < 0) {
      error = "--mode " + parser.value(mode) + ": expected 3d, xy, xz or yz";
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
  return o;
}

int runStudio(const StudioOptions& options) {
  if (!options.compareStages.isEmpty()) return runCompareWindow(options);
  double headless = 0.0;
  if (options.benchmarkSeconds > 0.0) {
    try {
      headless = headlessMpts(options);
    } catch (const std::exception& e) {
      printError(QStringLiteral("benchmark: %1").arg(e.what()));
      return 1;
    }
    std::printf("headless : %.1f Mpts/s (%s, %dx%dx%d, %d steps per frame)\n", headless, options.scenario.stage.c_str(),
                options.scenario.n1, options.scenario.n2, options.scenario.n3, options.stepsPerFrame);
    std::fflush(stdout);
  }

  MainWindow window(options.scenario);
  SimulationPane* pane = window.pane();
  SimulationController& controller = pane->controller();
  controller.setStepsPerFrame(options.stepsPerFrame);
  if (options.steps >= 0) controller.setPauseAtStep(options.steps);
  const bool automated = !options.screenshot.isEmpty() || options.benchmarkSeconds > 0.0;

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
        const bool saved = options.screenshotWindow ? window.grab().save(options.screenshot, "PNG")
                                                    : window.saveScreenshot(options.screenshot);
        if (!saved) printError("could not save the screenshot to " + options.screenshot);
        QApplication::exit(saved ? 0 : 1);
      });
    });
  }
  // Benchmark: once the solver runs, a warm-up like the headless run's, then count steps and frames.
  QTimer benchmarkTick;
  QElapsedTimer sinceSolver, measuring;
  long startStep = 0;
  int framesDrawn = 0;
  if (options.benchmarkSeconds > 0.0) {
    QObject::connect(pane->view(), &SliceView::frameDrawn, &window, [&] { ++framesDrawn; });
    QObject::connect(&benchmarkTick, &QTimer::timeout, &window, [&] {
      const ControllerStatus s = controller.status();
      if (!s.hasSolver) return;
      if (!sinceSolver.isValid()) sinceSolver.start();
      if (!measuring.isValid()) {
        if (sinceSolver.elapsed() < kBenchmarkWarmupSeconds * 1000) return;
        startStep = s.step;
        framesDrawn = 0;
        measuring.start();
        return;
      }
      const double seconds = measuring.elapsed() / 1000.0;
      if (seconds < options.benchmarkSeconds) return;
      const double windowed = double(s.grid.interiorSize()) * double(s.step - startStep) / seconds / 1e6;
      std::printf("with view: %.1f Mpts/s at %.1f frames/s\n", windowed, framesDrawn / seconds);
      std::printf("ratio    : %.1f %% of headless\n", headless > 0.0 ? 100.0 * windowed / headless : 0.0);
      std::fflush(stdout);
      QApplication::exit(0);
    });
    benchmarkTick.start(20);
  }
  window.setViewMode(options.viewMode);
  window.show();
  window.setPlaying(!options.startPaused);
  const int status = QApplication::exec();
  pane->stop();
  return status;
}

}  // namespace iso
