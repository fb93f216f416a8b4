#include "app/studio/HeadlessDriver.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>
#include <cstdio>
#include <memory>

#include "app/studio/RecordableView.h"
#include "app/studio/RecordingSession.h"
#include "app/studio/ViewImage.h"
#include "render/SliceView.h"

namespace iso {

void printStudioError(const QString& text) { std::fprintf(stderr, "iso3dfd-studio: %s\n", qPrintable(text)); }

namespace {

// "12.3, 4.5, 3.2 ms": how long the recording's first frames took.
QString firstFrames(const RecordingSession& recording) {
  QStringList ms;
  for (const double seconds : recording.firstFramesSeconds()) ms << QString::number(seconds * 1e3, 'f', 1);
  return ms.join(", ") + " ms";
}

}  // namespace

HeadlessDriver::HeadlessDriver(const StudioOptions& options, Target target)
    : options_(options), target_(std::move(target)) {}

void HeadlessDriver::finishAtStep() {
  if (options_.screenshot.isEmpty() || !target_.view) return;
  // A picture the view renders where the data lies (the volume) is rendered for the screenshot's.
  target_.view->preparePictures(&options_.picture);
  target_.view->connectImageStep(this, [this](long step) {
    if (step >= options_.steps) finish();
  });
}

void HeadlessDriver::finish() {
  if (ended_) return;
  ended_ = true;
  QTimer::singleShot(target_.settleMs, this, [this] { conclude(); });
}

void HeadlessDriver::conclude() {
  const Report report = target_.conclude ? target_.conclude() : Report{};
  for (const QString& line : report.lines) std::printf("%s\n", qPrintable(line));
  printRenderer();
  std::fflush(stdout);
  QStringList problems = report.problems;
  QString problem;
  if (!options_.screenshot.isEmpty() && !saveScreenshot(problem))
    problems << (problem.isEmpty() ? "could not save the screenshot to " + options_.screenshot : problem);
  if (!options_.benchJson.isEmpty() && target_.writeResults && !target_.writeResults(options_.benchJson, problem))
    problems << problem;
  for (const QString& text : problems) printStudioError(text);
  QApplication::exit(problems.isEmpty() ? 0 : 1);
}

// The window as it is on screen, unless the picture was given a size or fewer decorations (or the
// target has no screen area): then the view drawn for it, at the view's size by default.
bool HeadlessDriver::saveScreenshot(QString& problem) {
  const ImageOptions& picture = options_.picture;
  const bool custom = !picture.size.isEmpty() || !picture.hud || !picture.colourBar || !picture.labels;
  QWidget* grabbed = options_.screenshotWindow ? target_.window : target_.screenArea;
  if (grabbed && (options_.screenshotWindow || !custom || !target_.view))
    return writeImageFile(SliceView::grabWithViews(*grabbed), options_.screenshot, problem);
  ImageOptions image = picture;
  if (image.size.isEmpty()) {
    image.size = target_.view->screenPixels();
    image.scale = target_.window->devicePixelRatioF();  // as on screen, as File › Save image… does
  }
  QElapsedTimer clock;
  clock.start();
  if (!saveViewImage(*target_.view, options_.screenshot, image, problem)) return false;
  std::printf("screenshot: %dx%d drawn and written in %.1f ms\n", image.size.width(), image.size.height(),
              clock.nsecsElapsed() * 1e-6);
  return true;
}

// The rate over the wall time, and the run's own from its arrival at the first frame's step to the last
// frame taken: apart from the time before the first frame's step and the file's end after the last.
void HeadlessDriver::printRecording(const RecordingSession& recording, const QString& file, double wall,
                                    const RecordingMarks& marks) {
  const QSize size = recording.frameSize();
  const long frames = recording.framesCaptured();
  const auto perFrame = [frames](double seconds) { return frames ? 1e3 * seconds / double(frames) : 0.0; };
  std::printf("recorded %ld frames (%dx%d, every %d steps, %d fps) to %s in %.2f s\n", frames, size.width(),
              size.height(), options_.recordEvery, options_.recordFps, qPrintable(file), wall);
  std::printf("simulation: %.1f Mpts/s over the recording (wall time)\n",
              wall > 0 ? (target_.pointsComputed() - marks.start.points) / wall / 1e6 : 0.0);
  std::printf("drawing: %.1f ms per frame (%.1f collecting it; the first %s); writer: %.1f frames/s of its own time; "
              "run held for the writer %.2f s\n",
              perFrame(recording.renderSeconds()), perFrame(recording.collectSeconds()),
              qPrintable(firstFrames(recording)),
              recording.writerBusySeconds() > 0 ? double(frames) / recording.writerBusySeconds() : 0.0,
              recording.waitSeconds());
  const Mark &first = marks.first, &last = marks.last;
  std::printf("run: %.1f Mpts/s from its arrival at the first frame's step to the last frame, %.3f s after the start "
              "(the first frame's step reached at %.3f s, the file finished at %.3f s)\n",
              last.seconds > first.seconds ? (last.points - first.points) / (last.seconds - first.seconds) / 1e6 : 0.0,
              last.seconds, first.seconds, wall);
  std::printf("pictures made by: %s\n", qPrintable(target_.view->pictureMaker()));
  printRenderer();
}

// "view: OpenGL … · renderer": which OpenGL drew the pictures (a GPU's, or a software rasterizer).
void HeadlessDriver::printRenderer() const {
  if (target_.view) std::printf("view: %s\n", qPrintable(target_.view->glInfo()));
  std::fflush(stdout);
}

void HeadlessDriver::fail(const QString& message) {
  printStudioError(message);
  if (!options_.automated() || ended_) return;
  ended_ = true;
  QApplication::exit(1);
}

void HeadlessDriver::startRecording() {
  if (options_.record.isEmpty() || recording_ || !target_.recording) return;
  recording_ = true;
  RecordingSettings settings;
  settings.path = options_.record;
  settings.picture = options_.picture;
  settings.fps = options_.recordFps;
  settings.videoPreset = options_.videoPreset.toStdString();
  settings.every = options_.recordEvery;
  settings.frames = options_.recordFrames;
  auto clock = std::make_shared<QElapsedTimer>();
  clock->start();
  auto marks = std::make_shared<RecordingMarks>();
  const auto mark = [this, clock](Mark& at) { at = {clock->nsecsElapsed() * 1e-9, target_.pointsComputed()}; };
  mark(marks->start);
  RecordingSession& recording = *target_.recording;
  connect(&recording, &RecordingSession::frameStarting, this, [marks, mark](long frame) {
    if (frame == 0) mark(marks->first);
  });
  connect(&recording, &RecordingSession::frameCaptured, this, [marks, mark](long) { mark(marks->last); });
  const auto finished = [this, &recording, clock, marks](bool ok, const QString& text) {
    if (!ok) return fail(text);
    printRecording(recording, text, clock->nsecsElapsed() * 1e-9, *marks);
    ended_ = true;
    QApplication::exit(0);
  };
  connect(&recording, &RecordingSession::finished, this, finished);
  if (!recording.start(settings)) fail(recording.error());
}

int HeadlessDriver::exec(const std::function<void()>& play) {
  target_.window->show();
  play();
  return QApplication::exec();
}

}  // namespace iso
