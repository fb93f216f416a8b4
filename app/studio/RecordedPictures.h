#pragma once
// Where a recording's pictures are made: by the solver's device (core/SlicePicture.h) or by the view's
// OpenGL. On a compute GPU every OpenGL frame is time the solver loses, and a recorded frame every few
// steps lost it a third of its rate at 512³ (docs/PERFORMANCE.md); the same picture made by a kernel in
// the solver's own OpenCL context runs beside its steps. So `Auto` makes the 3D slice view's pictures on
// the solver's device when that device is a GPU and OpenGL draws the rest (the 2D planes, the volume, the
// CPU stages, pictures drawn larger than their frame and reduced); `Device` does so on any OpenCL device
// (a CPU's too: for tests), `OpenGl` never. Pictures come back a picture late, in the order started,
// whoever made them. GUI thread.
#include <QImage>
#include <QSize>
#include <QString>
#include <deque>
#include <functional>
#include <memory>

#include "core/SlicePicture.h"
#include "render/FrameTarget.h"

namespace iso {

class SimulationController;
class SliceView;

// What makes a view's pictures or frames: `Auto` the solver's device where it is a GPU and the picture
// can be made there, `Device` the solver's OpenCL device of any kind (tests), `OpenGl` the view's OpenGL.
enum class PictureMaker { Auto, OpenGl, Device };
QString pictureMakerName(PictureMaker maker);  // "auto", "opengl", "device"
// The renderer `maker` picks from those the solver's device offers (null: none, or OpenGL's turn).
std::shared_ptr<PictureRenderer> pickPictureRenderer(PictureMaker maker, std::shared_ptr<PictureRenderer> device);

class RecordedPictures {
 public:

  RecordedPictures(SliceView* view, SimulationController* controller) : view_(view), controller_(controller) {}

  void setMaker(PictureMaker maker) { maker_ = maker; }
  // The renderer that would make a picture of `options` now, or null where OpenGL draws it.
  std::shared_ptr<PictureRenderer> deviceFor(const ImageOptions& options) const;
  // Whether the view's pictures at their own size would be made on the solver's device now.
  bool onDevice() const { return deviceOf() != nullptr; }
  // Paints, where the device would make pictures of `options`, the layers it would lay over them (the 3D
  // lines, the overlay's panels) at their size, so that the first picture does not pay for their first
  // painting (a recording's start, before the run is asked to stop at its first frame).
  void prepare(const ImageOptions& options);
  // Starts a picture (SliceView::startImage where OpenGL draws it): "" or what failed.
  QString start(const ImageOptions& options);
  // The oldest started, to use(image) (a video's planes as Format_Grayscale8, else RGBA bytes): "" or what failed.
  QString collect(const std::function<void(const QImage& image)>& use);
  // What made the last picture started: "OpenGL" (also before any), or "OpenCL on NVIDIA H200" with the
  // device's time a picture so far (its kernel's and its read-back's) and the GUI thread's (its layers
  // painted, and its start: the uploads and the launch).
  QString lastMaker() const;

 private:
  struct OnItsWay {
    std::shared_ptr<PictureRenderer> device;  // null: the view's OpenGL
    QSize size;
    bool planes = false;
  };
  std::shared_ptr<PictureRenderer> deviceOf() const;  // deviceFor, whatever the size
  QString startOnDevice(std::shared_ptr<PictureRenderer> device, const ImageOptions& options);

  SliceView* view_;
  SimulationController* controller_;
  PictureMaker maker_ = PictureMaker::Auto;
  std::deque<OnItsWay> onItsWay_;
  std::shared_ptr<PictureRenderer> lastDevice_;  // null: OpenGL
  long started_ = 0;                               // pictures started on a device
  double layersSeconds_ = 0.0, startSeconds_ = 0.0;
};

}  // namespace iso
