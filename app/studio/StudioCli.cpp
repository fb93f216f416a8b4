#include "app/studio/StudioCli.h"

#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSet>
#include <QTimer>
#include <functional>
#include <vector>

#include "app/controller/ViewCost.h"
#include "app/export/VideoEncoder.h"
#include "app/options/ScenarioOptionTable.h"
#include "app/studio/BenchmarkPanel.h"
#include "app/studio/CompareWindow.h"
#include "app/studio/ExportActions.h"
#include "app/studio/HeadlessDriver.h"
#include "app/studio/LessonPlan.h"
#include "app/studio/LessonWindow.h"
#include "app/studio/MainWindow.h"
#include "app/studio/RecordingSession.h"
#include "app/studio/SimulationPane.h"
#include "app/studio/StageExplorer.h"
#include "app/studio/ViewControls.h"
#include "app/studio/ViewImage.h"
#include "app/studio/ViewModes.h"
#include "compute/DeviceRegistry.h"
#include "core/Format.h"
#include "core/ScenarioResize.h"
#include "core/StageRegistry.h"
#include "render/SliceView.h"

namespace iso {
namespace {

// One of the studio's own options (the scenario's are the table shared with iso3dfd).
struct StudioOption {
  QString name;
  QString valueName;  // empty: a flag
  QString help;
  // Takes one value (a flag: an empty one); false with `error` naming the option for a bad one.
  std::function<bool(StudioOptions& o, const QString& value, QString& error)> set;
};
using Setter = decltype(StudioOption::set);

template <class Integer>
Setter integer(const QString& name, Integer StudioOptions::*member, long min, long max) {
  return [=](StudioOptions& o, const QString& value, QString& error) {
    bool ok = false;
    const long v = value.toLong(&ok);
    if (!ok || v < min || v > max) {
      error = QStringLiteral("--%1 %2: expected an integer from %3 to %4").arg(name, value).arg(min).arg(max);
      return false;
    }
    o.*member = Integer(v);
    return true;
  };
}

Setter flag(bool StudioOptions::*member) {
  return [=](StudioOptions& o, const QString&, QString&) { return (o.*member = true, true); };
}

Setter text(QString StudioOptions::*member) {
  return [=](StudioOptions& o, const QString& value, QString&) { return (o.*member = value, true); };
}

Setter pictureMaker(const QString& name, PictureMaker StudioOptions::*member) {
  return [=](StudioOptions& o, const QString& value, QString& error) {
    for (const PictureMaker m : {PictureMaker::Auto, PictureMaker::OpenGl, PictureMaker::Device})
      if (value.toLower() == pictureMakerName(m)) return (o.*member = m, true);
    error = QStringLiteral("--%1 %2: expected auto, opengl or device").arg(name, value);
    return false;
  };
}

QString knownStageIds() { return QString::fromStdString(commaList(StageRegistry::ids())); }

std::vector<StudioOption> runOptions() {
  return {
      {"steps", "N", "Run N time steps (the scenario's run length) and pause there.",
       [](StudioOptions& o, const QString& value, QString& error) {
         return integer("steps", &StudioOptions::steps, 0, 100000000)(o, value, error) && (o.scenario.steps = int(o.steps), true);
       }},
      {"screenshot", "FILE", "With --steps: save the view after N steps as PNG to FILE, then quit.", text(&StudioOptions::screenshot)},
      {"whole-window", "", "With --screenshot: capture the whole window, not only the view.", flag(&StudioOptions::screenshotWindow)},
      {"paused", "", "Start paused.", flag(&StudioOptions::startPaused)},
      {"steps-per-frame", "N",
       "Time steps between displayed frames (1 to 1000, default 4; with --compare, default auto: as many as keep 30 frames/s).",
       [](StudioOptions& o, const QString& value, QString& error) {
         return integer("steps-per-frame", &StudioOptions::stepsPerFrame, 1, 1000)(o, value, error) && (o.stepsPerFrameGiven = true);
       }},
      {"mode", "mode", "View mode: " + viewModeOptions() + " (default " + viewModes().front().option + ").",
       [](StudioOptions& o, const QString& value, QString& error) {
         o.viewMode = viewModeIndex(value);
         if (o.viewMode < 0) error = "--mode " + value + ": expected " + viewModeOptions();
         return o.viewMode >= 0;
       }},
      {"volume-context", "", "In the volume view: the velocity model's strong contrasts (salt, layer boundaries) as a faint surface.",
       [](StudioOptions& o, const QString&, QString&) { return (o.volume.velocityContext = true, true); }},
      {"volume-plane", "x|y|z", "In the volume view: one opaque slice through the slice point, normal to that axis.",
       [](StudioOptions& o, const QString& value, QString& error) {
         const int axis = QStringLiteral("xyz").indexOf(value.toLower());
         if (value.size() != 1 || axis < 0) error = "--volume-plane " + value + ": expected x, y or z";
         o.volume.slicePlane = axis;
         return error.isEmpty();
       }},
      {"image-scale", "N", "In the volume view: render the image at 1/N of the view's size per side (1 to 4; default automatic).",
       [](StudioOptions& o, const QString& value, QString& error) {
         bool ok = false;
         o.volume.imageScale = value.toInt(&ok);
         if (!ok || o.volume.imageScale < 1 || o.volume.imageScale > 4) error = "--image-scale " + value + ": expected 1, 2, 3 or 4";
         return error.isEmpty();
       }},
      {"slice-path", "mapped|host",
       "How the slices reach the view: mapped (the default where OpenGL 4.4 or ARB_buffer_storage is available: the solver "
       "writes them into persistently mapped GL buffers, 1 host copy per frame) or host (a triple buffer the view copies "
       "from, 2 host copies per frame; the compare view always uses it). For measuring the difference.",
       [](StudioOptions& o, const QString& value, QString& error) {
         const QString path = value.toLower();
         if (path != "mapped" && path != "host") error = "--slice-path " + value + ": expected mapped or host";
         o.hostSlicePath = path == "host";
         return error.isEmpty();
       }},
      {"view-size", "WxH", "Size the main window so that its view is WxH pixels, as far as its docks allow (measurements at a given size).",
       [](StudioOptions& o, const QString& value, QString& error) {
         o.viewSize = parseResolution(value, error);
         const QSize most = SliceView::kMaxImageSize;
         if (error.isEmpty() && (o.viewSize.width() > most.width() || o.viewSize.height() > most.height()))
           error = QStringLiteral("at most %1x%2 pixels").arg(most.width()).arg(most.height());
         if (!error.isEmpty()) error = "--view-size " + value + ": " + error;
         return error.isEmpty();
       }},
      {"benchmark", "SECONDS",
       "Measure throughput of the solver alone and with the window for SECONDS each, print the view's cost (in the volume "
       "view also the image's size and the renderer's time per image), quit.",
       [](StudioOptions& o, const QString& value, QString& error) {
         bool ok = false;
         o.benchmarkSeconds = value.toDouble(&ok);
         if (!ok || o.benchmarkSeconds < 0.5 || o.benchmarkSeconds > 600.0) error = "--benchmark " + value + ": expected seconds from 0.5 to 600";
         return error.isEmpty();
       }},
  };
}

std::vector<StudioOption> recordOptions() {
  return {
      {"record", "PATH",
       "Record, then quit (exit status 0 once the output is complete): PATH ending in .mp4, .mkv or .mov is an H.264 video; "
       "PATH without an extension is a folder of PNG frames 000000.png, 000001.png, ... (new or empty). Needs --frames. "
       "With --compare, every viewport in one picture.",
       [](StudioOptions& o, const QString& value, QString& error) {
         o.record = value;
         if (!RecordingSession::isVideoPath(value) && !QFileInfo(value).suffix().isEmpty())
           error = "--record " + value + ": expected a video (.mp4, .mkv, .mov) or a folder name without an extension";
         return error.isEmpty();
       }},
      {"frames", "N", "With --record: the number of frames (1 to 1000000).", integer("frames", &StudioOptions::recordFrames, 1, 1000000)},
      {"every", "K", "With --record: time steps between frames; frame i shows step K*i (1 to 100000, default 4).",
       integer("every", &StudioOptions::recordEvery, 1, 100000)},
      {"fps", "F", "With --record: frames per second of the video (1 to 240, default 30).",
       integer("fps", &StudioOptions::recordFps, 1, VideoEncoder::kMaxFps)},
      {"view-fps", "N",
       "The main view's frames per second at most (1 to 60; default 60 beside a GPU, 30 beside a solver on the host's "
       "cores, which the drawing would slow).",
       integer("view-fps", &StudioOptions::viewFps, 1, SliceView::kMaxFrameRate)},
      {"video-preset", "NAME",
       "With --record of a video: x264's preset, from ultrafast (the least encoding time a frame, the largest file) "
       "through superfast, veryfast (the default), faster, fast, medium, slow, slower to veryslow.",
       [](StudioOptions& o, const QString& value, QString& error) {
         if (!VideoEncoder::presets().contains(value.toStdString()))
           error = "--video-preset " + value + ": expected one of " + QString::fromStdString(VideoEncoder::presetList());
         o.videoPreset = value;
         return error.isEmpty();
       }},
      {"record-pictures", "auto|opengl|device",
       "With --record: what makes the pictures. auto (the default): the 3D slice view's on the solver's device where it is a "
       "GPU (an OpenCL kernel beside the solver's steps), the rest by OpenGL; opengl: all by OpenGL; device: the 3D slice "
       "view's on the solver's OpenCL device of any kind.",
       pictureMaker("record-pictures", &StudioOptions::recordPictures)},
      {"view-frames", "auto|opengl|device",
       "What makes the 3D slice view's frames in the window. auto (the default): the solver's device where it is a GPU (an "
       "OpenCL kernel beside the solver's steps, shown without OpenGL), else OpenGL; opengl: OpenGL; device: the solver's "
       "OpenCL device of any kind.",
       pictureMaker("view-frames", &StudioOptions::viewFrames)},
      {"resolution", "WxH",
       "Size of the --screenshot or --record picture in pixels, drawn at that size (up to 3840x2160; default: the view's size).",
       [](StudioOptions& o, const QString& value, QString& error) {
         o.picture.size = parseResolution(value, error);
         const QSize most = SliceView::kMaxImageSize;
         if (!o.picture.size.isEmpty() && (o.picture.size.width() > most.width() || o.picture.size.height() > most.height()))
           error = QStringLiteral("--resolution %1: at most %2x%3 pixels").arg(value).arg(most.width()).arg(most.height());
         return error.isEmpty();
       }},
      {"no-hud", "", "With --screenshot or --record: leave the counters out of the picture.", [](StudioOptions& o, const QString&, QString&) {
         return (o.picture.hud = false, true);
       }},
      {"no-colour-bar", "", "With --screenshot or --record: leave the colour bars out of the picture.",
       [](StudioOptions& o, const QString&, QString&) { return (o.picture.colourBar = false, true); }},
      {"no-labels", "", "With --screenshot or --record: leave out the axes, their labels and the source, receiver and layer marks.",
       [](StudioOptions& o, const QString&, QString&) { return (o.picture.labels = false, true); }},
  };
}

// A comma-separated list (of stages), without blanks.
QStringList stageList(const QString& text) {
  QStringList ids = text.split(',', Qt::SkipEmptyParts);
  for (QString& id : ids) id = id.trimmed();
  return ids;
}

std::vector<StudioOption> windowOptions() {
  return {
      {"compare", "S1,S2[,S3[,S4]]",
       "Run 2 to 4 stages side by side in lockstep on the scenario, e.g. cpu-serial,gpu-basic (stage@device picks an OpenCL "
       "device). With --steps N --screenshot FILE: exit status 1 when a stage disagrees with cpu-serial (or the first stage) "
       "beyond relative L2 1e-5. With --record PATH --frames N: a video of them all.",
       [](StudioOptions& o, const QString& value, QString& error) {
         o.compareStages = stageList(value);
         if (o.compareStages.size() < CompareWindow::kMinViewports || o.compareStages.size() > CompareWindow::kMaxViewports)
           error = QStringLiteral("--compare %1: expected %2 to %3 stages separated by commas (got %4)")
                       .arg(value).arg(CompareWindow::kMinViewports).arg(CompareWindow::kMaxViewports).arg(o.compareStages.size());
         return error.isEmpty();
       }},
      {"drag", "",
       "With --compare --steps N --screenshot FILE: drag viewport 1's camera (an orbit, as the left mouse button does) "
       "throughout the run, and report how often the views redraw meanwhile.",
       flag(&StudioOptions::dragCamera)},
      {"difference", "",
       "With --compare: difference mode, every viewport but the reference shows |u − u_ref| at the common step, with its own "
       "colour bar and its max |Δ| and relative L2 above it (the compare view's Difference button, D).",
       flag(&StudioOptions::compareDifference)},
      {"stages-window", "tab",
       "Open only the stage explorer on the --stage stage at TAB: source, diff or explanation (with --screenshot: save it and quit).",
       [](StudioOptions& o, const QString& value, QString& error) {
         o.stagesTab = QStringList{"source", "diff", "explanation"}.indexOf(value.toLower());
         if (o.stagesTab < 0) error = "--stages-window " + value + ": expected source, diff or explanation";
         return o.stagesTab >= 0;
       }},
      {"bench-panel", "",
       "Open the benchmark panel alone on the scenario (--size N: a cube N³; --steps S: steps per stage, default 20). With "
       "--screenshot FILE and/or --json FILE: run, save the window and the results, quit; exit status 1 when a stage failed "
       "or disagrees with cpu-serial beyond relative L2 1e-5.",
       flag(&StudioOptions::benchPanel)},
      {"stages", "LIST", "With --bench-panel: the stages to time, e.g. cpu-serial,gpu-slm (default: all available).",
       [](StudioOptions& o, const QString& value, QString& error) {
         o.benchStages = stageList(value);
         for (const QString& id : o.benchStages)
           if (!StageRegistry::find(id.toStdString())) error = "--stages: unknown stage '" + id + "' (known: " + knownStageIds() + ")";
         if (o.benchStages.isEmpty()) error = "--stages needs at least one stage id";
         return error.isEmpty();
       }},
      {"json", "FILE", "With --bench-panel: write the results there (iso3dfd-bench/1, as iso3dfd bench --json).",
       [](StudioOptions& o, const QString& value, QString& error) {
         o.benchJson = value;
         if (QFileInfo(value).suffix().toLower() != "json") error = "--json " + value + ": expected a name ending in .json";
         return error.isEmpty();
       }},
      {"load", "FILE", "With --bench-panel: show the results in FILE (iso3dfd bench --json) next to the run; repeatable.",
       [](StudioOptions& o, const QString& value, QString&) { return (o.benchLoad << value, true); }},
  };
}

std::vector<StudioOption> lessonOptions() {
  return {
      {"lesson", "",
       "Open the lesson: the stages in teaching order on the scenario, each step predicted, run beside the stage before "
       "(--steps N: each Run page's steps with --screenshots, default 150) and read as annotated hunks, then the staircase.",
       flag(&StudioOptions::lesson)},
      {"from", "STAGE", "With --lesson: start at STAGE's step.",
       [](StudioOptions& o, const QString& value, QString& error) {
         o.lessonFrom = value;
         try {
           lessonSteps(value.toStdString(), !listDevices().empty());
         } catch (const std::invalid_argument& e) {
           error = "--from " + value + ": " + e.what();
         }
         return error.isEmpty();
       }},
      {"screenshots", "DIR",
       "With --lesson: go through every page by itself, save each as DIR/NN-stage-page.png (DIR is made if needed), then "
       "quit; exit status 1 when a stage failed or a file could not be written.",
       text(&StudioOptions::lessonScreenshots)},
      {"handout", "FILE", "With --lesson: go through every page by itself (as --screenshots does) and write the summary's one-page handout to FILE (PDF).",
       [](StudioOptions& o, const QString& value, QString& error) {
         o.lessonHandout = value;
         if (QFileInfo(value).suffix().toLower() != "pdf") error = "--handout " + value + ": expected a name ending in .pdf";
         return error.isEmpty();
       }},
  };
}

const std::vector<StudioOption>& studioOptionTable() {
  static const std::vector<StudioOption> table = [] {
    std::vector<StudioOption> all = runOptions();
    for (auto part : {recordOptions(), windowOptions(), lessonOptions()}) all.insert(all.end(), part.begin(), part.end());
    return all;
  }();
  return table;
}

QString optionName(const ScenarioOption& option) { return QString::fromStdString(option.name); }

void describeOptions(QCommandLineParser& parser) {
  parser.setApplicationDescription(
      "iso3dfd studio: the 3D acoustic wave equation (ISO3DFD stencil) solved live on OpenCL devices and the CPU.\n"
      "The scenario options (--scenario to --receiver) are those of iso3dfd, spelled the same.");
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument("scenario", "Scenario JSON file to open (default: the 'default' preset).", "[SCENARIO.json]");
  for (const ScenarioOption& option : scenarioOptionTable()) {
    QStringList names{optionName(option)};
    if (!option.alias.empty()) names << QString::fromStdString(option.alias);
    QString help = QString::fromStdString(option.help);
    help[0] = help[0].toUpper();
    parser.addOption(QCommandLineOption(names, help + ".", QString::fromStdString(option.valueName)));
  }
  for (const StudioOption& option : studioOptionTable())
    parser.addOption(QCommandLineOption(option.name, option.help, option.valueName));
}

// The scenario: the file (positional or --scenario), the preset or this machine's default, then every
// scenario option over it, checked as a scenario file is. `asRead`: the file's scenario as JSON ("" for
// none), to tell later whether the options changed it.
bool resolveScenario(const QCommandLineParser& parser, StudioOptions& o, std::string& asRead, QString& error) {
  try {
    ScenarioOverrides overrides;
    for (const ScenarioOption& option : scenarioOptionTable()) {
      std::vector<std::string> values;
      for (const QString& value : parser.values(optionName(option))) values.push_back(value.toStdString());
      setScenarioOption(overrides, option, values);
    }
    const QStringList files = parser.positionalArguments();
    if (files.size() > 1 || (files.size() == 1 && parser.isSet("scenario")))
      throw ScenarioError("give at most one scenario, as SCENARIO.json or --scenario (got " +
                          (files + parser.values("scenario")).join(' ').toStdString() + ")");
    if (!files.isEmpty()) overrides.scenario = files.first().toStdString();
    const bool named = !files.isEmpty() || parser.isSet("scenario");
    o.scenario = named ? overrides.baseScenario() : defaultScenarioForThisMachine();
    if (named && overrides.scenarioIsFile()) {
      o.scenarioFile = QString::fromStdString(overrides.scenario);
      asRead = scenarioToJson(o.scenario);
    }
    // The benchmark panel times a cube as its Grid box's cube N³, beside the scenario's own grid.
    const auto& size = overrides.size;
    if (o.benchPanel && size && (*size)[0] == (*size)[1] && (*size)[1] == (*size)[2]) {
      o.benchSize = (*size)[0];
      overrides.size.reset();
    }
    overrides.applyTo(o.scenario);
    validateScenario(o.scenario);
    return true;
  } catch (const ScenarioError& e) {
    error = QString::fromStdString(e.what());
    return false;
  }
}

// The options that only make sense together, and those that exclude each other.
bool checkCombinations(const StudioOptions& o, const QSet<QString>& given, QString& error) {
  const auto without = [&](const QStringList& names, const QString& needed) {
    for (const QString& name : names)
      if (given.contains(name) && !given.contains(needed)) return "--" + name + " belongs to --" + needed;
    return QString();
  };
  const bool picture = given.contains("resolution") || given.contains("no-hud") || given.contains("no-colour-bar") ||
                       given.contains("no-labels");
  const QString pictureOptions = "--resolution, --no-hud, --no-colour-bar and --no-labels";
  const QSize size = o.picture.size;
  const std::pair<bool, QString> rules[] = {
      // An empty name leaves nothing to save, and the window would stay open for ever.
      {given.contains("screenshot") && o.screenshot.isEmpty(), "--screenshot needs a file name (got an empty one)"},
      {given.contains("record") && o.record.isEmpty(), "--record needs a file name (got an empty one)"},
      {o.benchLoad.contains(QString()), "--load needs a file name (got an empty one)"},
      {given.contains("screenshot") && o.steps < 0 && o.stagesTab < 0 && !o.benchPanel, "--screenshot needs --steps N (the step to take it at)"},
      {given.contains("record") && !given.contains("frames"), "--record needs --frames N (how many frames to write)"},
      {given.contains("record") && (given.contains("screenshot") || given.contains("steps")), "--record runs on its own: leave out --steps and --screenshot"},
      {!without({"frames", "every", "fps", "video-preset", "record-pictures"}, "record").isEmpty(), without({"frames", "every", "fps", "video-preset", "record-pictures"}, "record")},
      {!without({"stages", "json", "load"}, "bench-panel").isEmpty(), without({"stages", "json", "load"}, "bench-panel")},
      {picture && o.screenshot.isEmpty() && o.record.isEmpty(), pictureOptions + " go with --screenshot or --record"},
      {picture && (o.screenshotWindow || o.benchPanel), pictureOptions + " apply to a view's picture, not to --whole-window or --bench-panel"},
      {RecordingSession::isVideoPath(o.record) && !size.isEmpty() && (size.width() % 2 || size.height() % 2),
       QStringLiteral("--resolution %1x%2: a video (H.264, yuv420p) needs an even width and height").arg(size.width()).arg(size.height())},
      {o.dragCamera && (o.compareStages.isEmpty() || o.screenshot.isEmpty()), "--drag goes with --compare, --steps and --screenshot"},
      {o.compareDifference && o.compareStages.isEmpty(), "--difference belongs to --compare"},
  };
  for (const auto& [broken, message] : rules)
    if (broken) {
      error = message;
      return false;
    }
  return true;
}

bool checkLesson(const StudioOptions& o, const QSet<QString>& given, QString& error) {
  if (!o.lesson) {
    for (const char* name : {"from", "screenshots", "handout"})
      if (given.contains(name)) error = QStringLiteral("--%1 belongs to --lesson").arg(name);
  } else if (!o.compareStages.isEmpty() || o.benchPanel || !o.record.isEmpty() || o.stagesTab >= 0 || o.benchmarkSeconds > 0.0 ||
             !o.screenshot.isEmpty()) {
    error = "--lesson runs on its own: leave out --compare, --bench-panel, --record, --stages-window, --benchmark and --screenshot";
  } else if (given.contains("steps") && o.steps < 1) {
    error = QStringLiteral("--steps %1: each Run page needs at least 1 step").arg(o.steps);
  } else if (!o.lessonHandout.isEmpty() && !QFileInfo(o.lessonHandout).absoluteDir().exists()) {
    error = QStringLiteral("--handout %1: the folder %2 does not exist").arg(o.lessonHandout, QFileInfo(o.lessonHandout).absolutePath());
  }
  return error.isEmpty();
}

bool checkBenchPanel(const StudioOptions& o, const QSet<QString>& given, QString& error) {
  if (!o.benchPanel) return true;
  if (!o.compareStages.isEmpty() || !o.record.isEmpty() || o.stagesTab >= 0 || o.benchmarkSeconds > 0.0)
    error = "--bench-panel runs on its own: leave out --compare, --record, --stages-window and --benchmark";
  else if (given.contains("steps") && o.steps < 1)
    error = QStringLiteral("--steps %1: the benchmark needs at least 1 step per stage").arg(o.steps);
  // Before the run, not after it: a folder that is missing would waste the whole benchmark.
  for (const auto& [option, path] : {std::pair{"--json", o.benchJson}, std::pair{"--screenshot", o.screenshot}})
    if (error.isEmpty() && !path.isEmpty() && !QFileInfo(path).absoluteDir().exists())
      error = QStringLiteral("%1 %2: the folder %3 does not exist").arg(option, path, QFileInfo(path).absolutePath());
  return error.isEmpty();
}

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
  describeOptions(parser);
  parser.process(arguments);  // exits for --help, --version and unknown options
  error.clear();  // the setters report through it
  StudioOptions o;
  o.benchPanel = parser.isSet("bench-panel");  // the meaning of --size N: the panel's cube
  std::string asRead;
  if (!resolveScenario(parser, o, asRead, error)) return std::nullopt;
  QSet<QString> given;
  for (const StudioOption& option : studioOptionTable()) {
    if (!parser.isSet(option.name)) continue;
    given << option.name;
    const QStringList values = option.valueName.isEmpty() ? QStringList{QString()} : parser.values(option.name);
    for (const QString& value : values)
      if (!option.set(o, value, error)) return std::nullopt;
  }
  if (!checkCombinations(o, given, error) || !checkBenchPanel(o, given, error) || !checkLesson(o, given, error)) return std::nullopt;
  o.scenarioEdited = !asRead.empty() && scenarioToJson(o.scenario) != asRead;
  return o;
}

namespace {

// --benchmark: the view's cost, measured against the solver alone (shared with `iso3dfd view-cost`).
// Once the window's solver runs, a warm-up like the solver-alone run's, then it counts steps and frames
// for the options' seconds and ends the run with the report.
class WindowViewCost : public QObject {
 public:
  WindowViewCost(MainWindow& window, const StudioOptions& options, HeadlessDriver& driver, ViewCostResult cost)
      : controller_(window.pane()->controller()), options_(options), driver_(driver), cost_(std::move(cost)) {
    connect(window.pane()->view(), &SliceView::frameDrawn, this, [this] { ++framesDrawn_; });
    // The volume view's images shown while measured: their size and the renderer's time.
    connect(window.pane(), &SimulationPane::frameShown, this, [this, view = window.pane()->view()] {
      const auto& frame = view->slices();
      if (!measuring_.isValid() || !frame || !frame->imageView) return;
      cost_.imageWidth = frame->imageWidth, cost_.imageHeight = frame->imageHeight;
      renderSeconds_ += frame->imageSeconds;
      ++images_;
    });
    connect(&tick_, &QTimer::timeout, this, &WindowViewCost::measure);
    tick_.start(20);
  }
  // The report, once measured.
  QStringList lines() const { return report_; }

 private:
  void measure() {
    const ControllerStatus s = controller_.status();
    if (!s.hasSolver || !report_.isEmpty()) return;
    if (!sinceSolver_.isValid()) sinceSolver_.start();
    if (!measuring_.isValid()) {
      if (sinceSolver_.elapsed() < kViewCostWarmupSeconds * 1000) return;
      startStep_ = s.step;
      skippedAtStart_ = controller_.framesSkipped();
      framesDrawn_ = 0;
      measuring_.start();
      return;
    }
    const double seconds = measuring_.elapsed() / 1000.0;
    if (seconds < options_.benchmarkSeconds) return;
    cost_.stage = s.stage;
    cost_.device = s.device;
    cost_.grid = s.grid;
    cost_.stepsPerFrame = options_.stepsPerFrame;
    cost_.seconds = seconds;
    cost_.viewName = "the window";
    cost_.slicePath = s.transferPath;
    cost_.withViewMpts = double(s.grid.interiorSize()) * double(s.step - startStep_) / seconds / 1e6;
    cost_.framesPerSecond = framesDrawn_ / seconds;
    cost_.batchesWithoutSlices = controller_.framesSkipped() - skippedAtStart_;
    cost_.renderMs = images_ > 0 ? 1e3 * renderSeconds_ / double(images_) : 0.0;
    report_ = QString::fromStdString(formatViewCost(cost_)).split('\n');
    if (report_.last().isEmpty()) report_.removeLast();
    tick_.stop();
    driver_.finish();
  }

  SimulationController& controller_;
  const StudioOptions& options_;
  HeadlessDriver& driver_;
  ViewCostResult cost_;
  QStringList report_;
  QTimer tick_;
  QElapsedTimer sinceSolver_, measuring_;
  long startStep_ = 0;
  std::uint64_t skippedAtStart_ = 0;
  int framesDrawn_ = 0;
  double renderSeconds_ = 0.0;  // of the volume images shown while measured
  long images_ = 0;
};

}  // namespace

int runStudio(const StudioOptions& options) {
  if (options.lesson)
    return runLesson(options.scenario, options.lessonFrom.toStdString(), options.lessonScreenshots, options.lessonHandout,
                     options.steps > 0 ? options.steps : StudioOptions::kLessonRunSteps);
  if (!options.compareStages.isEmpty()) return runCompareWindow(options);
  if (options.benchPanel) return runBenchmarkPanel(options);
  if (options.stagesTab >= 0)
    return runStageExplorer(options.scenario.stage, StageExplorer::Tab(options.stagesTab), options.screenshot);
  ViewCostResult cost;
  if (options.benchmarkSeconds > 0.0) {
    try {
      cost.aloneMpts = solverAloneMpts(options.scenario, options.stepsPerFrame, options.benchmarkSeconds);
    } catch (const std::exception& e) {
      printStudioError(QStringLiteral("benchmark: %1").arg(e.what()));
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
  if (options.viewFps > 0) pane->setFrameRateCap(options.viewFps);
  pane->setRecordedPictures(options.recordPictures);
  pane->setViewFrames(options.viewFrames);
  if (options.steps >= 0) controller.setPauseAtStep(options.steps);
  // A benchmark measures for its whole time: the run does not stop at the scenario's end.
  if (options.benchmarkSeconds > 0.0) controller.setRunEnd(RunEnd::RunOn);

  std::unique_ptr<WindowViewCost> viewCost;
  HeadlessDriver::Target target;
  target.window = &window;
  target.view = pane;
  target.recording = window.exportActions()->recording();  // the window shows it as its Record button's
  target.pointsComputed = [&] {
    const ControllerStatus s = controller.status();
    return double(s.grid.interiorSize()) * double(s.step);
  };
  target.conclude = [&] {
    pane->pollStatus();  // the counters of this very step in the picture
    return HeadlessDriver::Report{viewCost ? viewCost->lines() : QStringList{}, {}};
  };
  HeadlessDriver driver(options, std::move(target));
  QObject::connect(pane, &SimulationPane::controllerEvent, &driver, [&](const ControllerEvent& e) {
    if (e.kind == ControllerEvent::Kind::Error) driver.fail(QString::fromStdString(e.message));
  });
  driver.finishAtStep();
  if (options.benchmarkSeconds > 0.0) viewCost = std::make_unique<WindowViewCost>(window, options, driver, cost);
  // Recording starts once the solver is built (the session sets the pause steps and plays).
  QObject::connect(pane, &SimulationPane::rebuilt, &driver, [&] { driver.startRecording(); });
  window.setViewMode(options.viewMode);
  window.viewControls()->setVolumeSettings(options.volume);
  const int status = driver.exec([&] {
    // Shown: the view has its size in the window's layout, which the window grows or shrinks by.
    if (!options.viewSize.isEmpty()) window.resize(window.size() + options.viewSize - pane->view()->size());
    window.setPlaying(!options.startPaused && options.record.isEmpty());
  });
  pane->stop();
  return status;
}

}  // namespace iso
