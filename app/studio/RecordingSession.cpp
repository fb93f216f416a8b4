#include "app/studio/RecordingSession.h"

#include <QFileInfo>
#include <QImage>
#include <QScopeGuard>
#include <algorithm>

#include "app/export/VideoEncoder.h"
#include "app/studio/PngSequenceWriter.h"

namespace iso {
namespace {
constexpr int kRoomPollMs = 2;  // while the writer's queue is full
constexpr int kRestPollMs = 2;  // while the frame's slices are on screen and the run is yet to rest there
}

RecordingSession::RecordingSession(RecordableView* view, QObject* parent) : QObject(parent), view_(view) {
  connect(&roomPoll_, &QTimer::timeout, this, &RecordingSession::resumeWhenRoom);
  connect(&restPoll_, &QTimer::timeout, this, &RecordingSession::captureAtRest);
}

RecordingSession::~RecordingSession() {
  if (finisher_.joinable()) finisher_.join();
  if (state_ == State::Recording) endFrames();
  writer_.reset();  // discards an unfinished output
}

bool RecordingSession::isVideoPath(const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  return suffix == "mp4" || suffix == "mkv" || suffix == "mov";
}

QSize RecordingSession::frameSize() const {
  return writer_ ? QSize(writer_->width(), writer_->height()) : settings_.picture.size;
}

long RecordingSession::framesWritten() const { return writer_ ? writer_->framesWritten() : 0; }

std::uint64_t RecordingSession::bytesWritten() const { return writer_ ? writer_->bytesWritten() : 0; }

double RecordingSession::writerBusySeconds() const { return writer_ ? writer_->busySeconds() : 0.0; }

bool RecordingSession::start(const RecordingSettings& settings) {
  if (state_ == State::Recording || state_ == State::Finishing) {
    error_ = "a recording is already running";
    return false;
  }
  settings_ = settings;
  error_.clear();
  captured_ = 0;
  inFlight_ = 0;
  collected_ = 0;
  renderNanoseconds_ = waitNanoseconds_ = collectNanoseconds_ = 0;
  firstFrames_.clear();
  const bool video = isVideoPath(settings.path);
  QSize size = settings.picture.size;
  if (size.isEmpty()) {
    size = view_->screenPixels();
    if (video) size = QSize(size.width() & ~1, size.height() & ~1);  // yuv420p needs even sides
  }
  settings_.picture.size = size;
  settings_.picture.framesPerSecond = settings.fps;  // the HUD of a frame gives the video's rate, not the window's
  if (settings.every < 1 || settings.frames < 0) {
    error_ = QStringLiteral("every %1 steps, %2 frames: expected at least 1 step between frames and a frame count of 0 or more")
                 .arg(settings.every).arg(settings.frames);
    return false;
  }
  if (size.width() > SliceView::kMaxImageSize.width() || size.height() > SliceView::kMaxImageSize.height()) {
    error_ = QStringLiteral("%1x%2 is larger than the largest frame, %3x%4")
                 .arg(size.width()).arg(size.height()).arg(SliceView::kMaxImageSize.width()).arg(SliceView::kMaxImageSize.height());
    return false;
  }
  if (!video && !QFileInfo(settings.path).suffix().isEmpty()) {
    error_ = QStringLiteral("%1: expected a video (.mp4, .mkv, .mov) or a folder name without an extension (PNG frames)")
                 .arg(settings.path);
    return false;
  }
  try {
    const std::filesystem::path path = settings.path.toStdString();
    if (video) {
      VideoOptions options;
      options.preset = settings.videoPreset;
      writer_ = std::make_unique<VideoEncoder>(path, size.width(), size.height(), settings.fps, options);
    }
    else
      writer_ = std::make_unique<PngSequenceWriter>(path, size.width(), size.height());
  } catch (const ExportError& e) {
    error_ = QString::fromStdString(e.what());
    return false;
  }
  // A view that reads its pictures back late hands a video encoder its planes, converted on the GPU.
  streamOptions_ = settings_.picture;
  streamOptions_.videoPlanes = view_->readsBackLate() && view_->drawsVideoPlanes() && writer_->takes(PixelLayout::Yuv420);
  state_ = State::Recording;
  userPlaying_ = true;
  // The first frame is the next multiple of `every` from the step on screen (0 for a fresh run).
  const long shown = std::max(view_->imageStep(), 0L);
  target_ = (shown + settings.every - 1) / settings.every * settings.every;
  // A view that renders its picture where the data lies (the volume) renders it for the frames' size;
  // one that reads its pictures back late pays their one-off costs now, while the run may still play.
  view_->preparePictures(&settings_.picture);
  if (view_->readsBackLate()) view_->prepareStream(streamOptions_);
  slicesConnection_ = view_->connectImageStep(this, [this](long step) { onSlices(step); });
  // The run stops at the first frame's step; from there on it streams where the view can (capture).
  streaming_ = false;
  view_->setPauseAtStep(target_);
  if (view_->imageStep() == target_)
    captureAtRest();  // no new slices may come for that step (a run that plays stops at it, or past it)
  else
    resumeRun();
  emit started();
  return true;
}

void RecordingSession::onSlices(long step) {
  if (state_ != State::Recording) return;
  if (step > target_ || step < target_ - settings_.every) {
    // The run is past the frame's step (it played on while the pause step was on its way), or someone
    // else moved it (a reset, a new scenario): go on from the next multiple, past where it rests if that
    // is known already (its slices, on their way, would move the frame again).
    const long from = streaming_ ? step : std::max(step, view_->restingStep());
    target_ = (from + settings_.every - 1) / settings_.every * settings_.every;
    if (!streaming_) view_->setPauseAtStep(target_);
  }
  if (step == target_) return streaming_ ? capture(step) : captureAtRest();
  if (streaming_) return;  // the stream's steps between frames
  // Slices short of the frame's step: the run may rest there (it had already passed the pause step
  // asked for when the recording began, or stopped at an earlier one), so send it on to the frame's
  // step, unless it is held back for the writer or by the user. Only a run that rests short of it: one
  // that plays is on its way there, and one that rests there already got there while these slices were
  // on their way (asked to play at its pause step, it would only stop there once more).
  if (const long resting = view_->restingStep(); resting >= 0 && resting < target_) resumeRun();
}

// The frame's slices are on screen, but outside a stream the run may have played past them while they
// were on their way: a frame taken there would leave a gap before the next. So the frame is taken once
// the run rests at its step. A run that rests past it has slices of its own on their way, which move the
// frame on (onSlices); one that plays, or whose status has yet to reach the step on screen, is waited for.
void RecordingSession::captureAtRest() {
  const long resting = view_->restingStep();  // −1 while it plays
  if (state_ != State::Recording || streaming_ || view_->imageStep() != target_ || resting > target_)
    return restPoll_.stop();
  if (resting < target_) {
    if (!restPoll_.isActive()) restPoll_.start(kRestPollMs);
    return;
  }
  restPoll_.stop();
  capture(target_);
}

void RecordingSession::capture(long step) {
  emit frameStarting(captured_);
  QElapsedTimer clock;
  clock.start();
  const bool last = settings_.frames > 0 && captured_ + 1 >= settings_.frames;
  target_ = step + settings_.every;
  // The next batch runs while this frame is drawn and encoded (the view keeps its own copy). Where the
  // view streams (from the first frame it can on: the run rests on this one), the run stops only at the
  // last frame's step.
  const bool startsStream = !last && !streaming_ && view_->streamFrames(settings_.every);
  if (startsStream) {
    streaming_ = true;
    view_->setPauseAtStep(settings_.frames > 0 ? step + (settings_.frames - captured_ - 1) * settings_.every : -1);
    resumeRun();
  } else if (!last && !streaming_) {
    view_->setPauseAtStep(target_);
    if (writer_->hasRoom())
      resumeRun();
    else
      waitForRoom();
  }
  if (const QString problem = takeFrame(); !problem.isEmpty()) return fail(problem);
  // One push per frame taken: with the writer's queue full after it, the stream's next frame waits for room.
  if (!last && streaming_ && !writer_->hasRoom()) waitForRoom();
  ++captured_;
  renderNanoseconds_ += clock.nsecsElapsed();
  if (firstFrames_.size() < std::size_t(kFirstFrames)) firstFrames_.push_back(clock.nsecsElapsed() * 1e-9);
  if (last) finish();  // the run rests on the last frame's step
  emit frameCaptured(captured_);
}

// A view that reads its pictures back late has this frame drawn and on its way while the one before it,
// long arrived, goes to the writer.
QString RecordingSession::takeFrame() {
  const QString drawing = "drawing frame " + QString::number(captured_) + ": ";
  if (!view_->readsBackLate()) {
    QString problem;
    const QImage image = view_->renderImage(settings_.picture, problem);
    return image.isNull() ? drawing + problem : pushFrame(image, PixelLayout::Rgba);
  }
  if (const QString problem = view_->startImage(streamOptions_); !problem.isEmpty()) return drawing + problem;
  ++inFlight_;
  return inFlight_ > 1 ? collectOldest(true) : QString();
}

QString RecordingSession::collectOldest(bool write) {
  QElapsedTimer clock;
  clock.start();
  const auto timed = qScopeGuard([&] { collectNanoseconds_ += clock.nsecsElapsed(); });
  const long frame = collected_++;
  --inFlight_;
  QString pushed;
  const QString problem = view_->collectImage([&](const QImage& image) {
    if (write) pushed = pushFrame(image, streamOptions_.videoPlanes ? PixelLayout::Yuv420 : PixelLayout::Rgba);
  });
  if (!problem.isEmpty()) return "reading frame " + QString::number(frame) + " back: " + problem;
  return pushed;
}

QString RecordingSession::pushFrame(const QImage& image, PixelLayout layout) {
  try {
    writer_->push(image.constBits(), image.bytesPerLine(), layout);
  } catch (const ExportError& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

void RecordingSession::waitForRoom() {
  waiting_.start();
  roomPoll_.start(kRoomPollMs);
  if (streaming_) view_->holdFrames(true);
}

void RecordingSession::resumeWhenRoom() {
  if (state_ != State::Recording) return roomPoll_.stop();
  if (!writer_->hasRoom()) return;
  roomPoll_.stop();
  waitNanoseconds_ += waiting_.nsecsElapsed();
  if (streaming_)
    view_->holdFrames(false);
  else
    resumeRun();
}

void RecordingSession::setUserPlaying(bool playing) {
  userPlaying_ = playing;
  if (state_ != State::Recording) return;
  if (playing)
    resumeRun();
  else
    view_->setRunPlaying(false);
}

void RecordingSession::resumeRun() {
  if (userPlaying_ && (streaming_ || !roomPoll_.isActive())) view_->setRunPlaying(true);
}

void RecordingSession::endFrames() {
  roomPoll_.stop();
  restPoll_.stop();
  disconnect(slicesConnection_);
  if (streaming_) view_->streamFrames(0);
  view_->preparePictures(nullptr);
  view_->setPauseAtStep(-1);
}

void RecordingSession::stop() {
  if (state_ != State::Recording) return;
  const bool resume = userPlaying_;  // the run may be held for the writer: it goes on as the user has it
  finish();
  if (resume) view_->setRunPlaying(true);
}

void RecordingSession::finish() {
  while (inFlight_ > 0)
    if (const QString problem = collectOldest(true); !problem.isEmpty()) return fail(problem);
  state_ = State::Finishing;
  endFrames();
  // Encoding what is queued and writing the trailer can take a while: not on the GUI thread.
  finisher_ = std::thread([this] {
    QString message;
    bool ok = true;
    try {
      writer_->finish();
      message = settings_.path;
    } catch (const ExportError& e) {
      ok = false;
      message = QString::fromStdString(e.what());
    }
    QMetaObject::invokeMethod(this, [this, ok, message] { settle(ok, message); }, Qt::QueuedConnection);
  });
}

void RecordingSession::fail(const QString& message) {
  while (inFlight_ > 0) collectOldest(false);  // the view's read-backs of frames that will not be written
  endFrames();
  if (userPlaying_) view_->setRunPlaying(true);  // it may have been held for the writer
  writer_->abort();
  settle(false, message);
}

void RecordingSession::settle(bool ok, const QString& message) {
  if (finisher_.joinable()) finisher_.join();
  state_ = ok ? State::Finished : State::Failed;
  if (!ok) error_ = message;
  emit finished(ok, message);
}

}  // namespace iso
