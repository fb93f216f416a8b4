#pragma once
// What Record… and Save image… act on: a picture of the step on screen that can be drawn off screen at
// any size, and the run behind it, which a recording pauses at each frame's step. The main window's
// simulation pane (one view) and the compare view (every viewport in one picture) are the two.
#include <QImage>
#include <QMetaObject>
#include <QSize>
#include <QString>
#include <functional>

#include "render/SliceView.h"

class QObject;

namespace iso {

class RecordableView {
 public:
  virtual ~RecordableView() = default;

  // The picture's size on screen, in device pixels: the default size of images and recordings.
  virtual QSize screenPixels() const = 0;
  // The step renderImage draws: the slices on screen (−1 before the first).
  virtual long imageStep() const = 0;
  // The step the run rests at (no new slices will come until it is played or stepped), or −1 while it
  // plays, a batch or more ahead of the screen: the screen may show a step the run has played past. A
  // view whose runs stop at every step it shows (the compare view's lockstep) rests at the step on screen.
  virtual long restingStep() const { return imageStep(); }
  // Calls `slot(step)` on context's thread each time the picture holds the slices of another step.
  virtual QMetaObject::Connection connectImageStep(QObject* context, std::function<void(long)> slot) = 0;
  virtual void setPauseAtStep(long step) = 0;  // the run stops there (< 0: nowhere)
  // A stream of frames, where the view's run can give one: every step that is a multiple of `every` is
  // shown, in order and none dropped, while the run goes on (it waits only when the frames not yet
  // shown fill the view's slots); false where it cannot, and the recording then stops the run at each
  // frame's step instead. 0 ends the stream.
  virtual bool streamFrames(long every) {
    (void)every;
    return false;
  }
  // During a stream: hold (true) leaves the frames that arrive unshown, so that the run soon waits for
  // them (the writer has no room); false shows them again, from the oldest.
  virtual void holdFrames(bool hold) { (void)hold; }
  // Plays or holds the run itself, leaving the window's Play button as the user set it.
  virtual void setRunPlaying(bool playing) = 0;
  // The picture of imageStep() at options.size, its counters those of that step; a null image and
  // `error` on failure.
  virtual QImage renderImage(const ImageOptions& options, QString& error) = 0;
  // Pictures read back a picture late, for a stream of them (a recording): where readsBackLate(),
  // startImage draws the picture renderImage would and starts reading it back without waiting for it,
  // and collectImage calls use(image) with the oldest started once it is back (valid during the call
  // only); each "" or what failed. A view without them is recorded through renderImage.
  virtual bool readsBackLate() const { return false; }
  // Whether startImage can hand a video its yuv420p planes (ImageOptions::videoPlanes) more cheaply than
  // the encoder converts RGBA: on a GPU, not on a software rasterizer, which would draw them on the
  // cores the encoder's own conversion uses, more slowly (docs/PERFORMANCE.md).
  virtual bool drawsVideoPlanes() const { return false; }
  virtual QString startImage(const ImageOptions& options) {
    (void)options;
    return QStringLiteral("this view draws its pictures only at once");
  }
  virtual QString collectImage(const std::function<void(const QImage& image)>& use) {
    (void)use;
    return QStringLiteral("this view draws its pictures only at once");
  }
  // Before a stream of startImage's pictures of `options`: what their first would otherwise pay for once
  // (where the solver's device makes them, their layers painted at that size).
  virtual void prepareStream(const ImageOptions& options) { (void)options; }
  // What made the last picture startImage started: "OpenGL", "OpenCL on <device>" (app/studio/RecordedPictures.h).
  virtual QString pictureMaker() const { return QStringLiteral("OpenGL"); }
  // A line over the picture on screen only, never in renderImage's: the recording's state (empty: none).
  virtual void setRecordingNotice(const QString& line) = 0;
  // The pictures to come are drawn with `options` (null: no more of them). A view whose picture is
  // rendered where the data lies (the volume view: by the solver, at the picture's size and camera)
  // renders it so from now on, and imageStep() then counts only the frames rendered for them.
  virtual void preparePictures(const ImageOptions* options) { (void)options; }
  // What draws the picture: "OpenGL 4.6.0 NVIDIA 580.159.04 · NVIDIA H200/PCIe/SSE2", or why nothing can.
  virtual QString glInfo() const = 0;
};

}  // namespace iso
