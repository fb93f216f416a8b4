#pragma once
// Records what a view shows (the main window's or the whole compare view): frame i is drawn (off screen, at the chosen size) from the slices of
// step first + every·i exactly. Where the view streams its frames (RecordableView::streamFrames: the
// main window's slots), the run goes on while frames are drawn and encoded, and waits only when the
// frames not yet drawn fill the view's slots. Elsewhere the simulation is told to pause at each frame's
// step; once the view holds that step's slices the next pause step is set and the run resumes at once,
// so the next batch computes while this frame is drawn and encoded. When the writer's queue is full the
// view holds its frames, or the run is resumed only once the writer has room again: the simulation waits,
// no frame is dropped, and the GUI thread never blocks on the encoder (finishing runs on a thread of its
// own too). A pause by the user holds the run until Play.
// A view that reads its pictures back late (RecordableView::readsBackLate) gets each frame's picture
// to the writer when the next frame has been drawn, or when the recording finishes; into a video, as
// yuv420p planes converted on the GPU (render/VideoPlanes.h).
#include <QElapsedTimer>
#include <QObject>
#include <QSize>
#include <QString>
#include <QTimer>
#include <memory>
#include <thread>
#include <vector>

#include "app/export/FrameWriter.h"
#include "app/export/VideoEncoder.h"
#include "app/studio/RecordableView.h"

namespace iso {

struct RecordingSettings {
  QString path;       // .mp4 / .mkv / .mov: a video; no extension: a folder of numbered PNG frames
  // Each frame's size (empty: the view's size on screen in device pixels, made even for video) and what
  // it shows.
  ImageOptions picture;
  int fps = 30;
  int every = 4;      // time steps between frames
  long frames = 0;    // stop after this many (0: until stop())
  // A video's x264 preset: how much encoding time it spends for a smaller file (VideoEncoder).
  std::string videoPreset = VideoOptions{}.preset;
};

class RecordingSession : public QObject {
  Q_OBJECT
 public:
  enum class State { Idle, Recording, Finishing, Finished, Failed };

  RecordingSession(RecordableView* view, QObject* parent = nullptr);
  ~RecordingSession() override;  // an unfinished recording is discarded

  // Whether `path` names a video (.mp4, .mkv, .mov) rather than a frame folder (no extension).
  static bool isVideoPath(const QString& path);

  // Opens the output and starts; false with error() set (nothing written) on bad settings.
  bool start(const RecordingSettings& settings);
  // Finishes the output (completes and renames it) in the background; finished() follows. The run goes
  // on if the user has it playing.
  void stop();
  // The user's Play and Pause while recording. Paused, the run stays held (a frame is still taken when
  // the run reaches its step, e.g. by single steps); playing, it goes on once the writer has room.
  void setUserPlaying(bool playing);

  State state() const { return state_; }
  const QString& error() const { return error_; }
  const RecordingSettings& settings() const { return settings_; }
  QSize frameSize() const;
  long framesCaptured() const { return captured_; }
  long framesWritten() const;
  double seconds() const { return settings_.fps > 0 ? double(captured_) / settings_.fps : 0.0; }  // of video
  std::uint64_t bytesWritten() const;
  double writerBusySeconds() const;  // the encoder's (or PNG writer's) own time
  // Wall time spent drawing frames and waiting for the writer (for the measurements), seconds.
  double renderSeconds() const { return renderNanoseconds_ * 1e-9; }
  double waitSeconds() const { return waitNanoseconds_ * 1e-9; }
  // The time collecting pictures read back late (waiting for them, handing them to the writer); most of it
  // is part of renderSeconds, the rest is the last pictures' as the recording finishes.
  double collectSeconds() const { return collectNanoseconds_ * 1e-9; }
  // How long the first frames took to take, seconds (up to kFirstFrames of them): what a recording's start
  // costs once (layers painted at its size for the first time, the picture maker's first use).
  static constexpr int kFirstFrames = 3;
  const std::vector<double>& firstFramesSeconds() const { return firstFrames_; }
  bool waitingForWriter() const { return roomPoll_.isActive(); }  // the run is held until the writer has room

 signals:
  void started();  // start() succeeded: frames are being taken (emitted as it returns)
  void frameStarting(long frame);  // frame `frame` is about to be taken: the run has reached its step
  void frameCaptured(long frames);  // the last one (of settings().frames) with state() Finishing already
  void finished(bool ok, const QString& message);  // message: the file written, or the error

 private:
  void onSlices(long step);
  void captureAtRest();  // the frame's step is on screen: taken once the run rests there
  void capture(long step);
  // Draws frame captured_ and hands the writer what has arrived: "" or what failed.
  QString takeFrame();
  // The oldest frame the view is reading back, to the writer unless `write` is false: "" or what failed.
  QString collectOldest(bool write);
  QString pushFrame(const QImage& image, PixelLayout layout);
  void resumeWhenRoom();
  void resumeRun();  // unless the user paused it or the writer has no room
  void waitForRoom();  // the writer's queue is full: frames wait (held, or the run held) until it has room
  void endFrames();    // the view's stream, pause step and pictures back to the window's
  void finish();
  void fail(const QString& message);
  void settle(bool ok, const QString& message);

  RecordableView* view_;
  RecordingSettings settings_;
  ImageOptions streamOptions_;  // settings_.picture, for startImage: as video planes where the writer takes them
  State state_ = State::Idle;
  QString error_;
  std::unique_ptr<FrameWriter> writer_;
  std::thread finisher_;
  QTimer roomPoll_;
  QTimer restPoll_;
  QMetaObject::Connection slicesConnection_;
  long target_ = 0;  // step of the next frame
  bool streaming_ = false;  // the view streams the frames (no pause at each)
  long captured_ = 0;
  int inFlight_ = 0;    // frames taken whose pictures the view is still reading back
  long collected_ = 0;  // frames whose pictures came back (or failed to)
  bool userPlaying_ = true;
  qint64 renderNanoseconds_ = 0, waitNanoseconds_ = 0, collectNanoseconds_ = 0;
  std::vector<double> firstFrames_;
  QElapsedTimer waiting_;
};

}  // namespace iso
