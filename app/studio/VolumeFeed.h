#pragma once
// What a simulation pane's solver must render for its view in the volume view: the VolumeView
// (core/VolumeView.h) built from the view's camera and scene size (at the image scale the user chose,
// or the automatic one, VolumeImageScale), its colour range and colormap and the user's volume settings,
// or from the pictures to come (recordings and screenshots at their own size and camera); sent to the
// controller only when it changed (the colour range only beyond 2 %, so that the automatic gain does not
// keep a resting run rendering). Also: which frames a picture may be drawn of, and the HUD's line.
#include <memory>
#include <optional>
#include <string>

#include <QString>

#include "app/controller/VolumeImageScale.h"
#include "core/VolumeView.h"
#include "render/FrameTarget.h"

namespace iso {

class SimulationController;
class SliceView;
struct SliceSet;

class VolumeFeed {
 public:
  VolumeFeed(SliceView& view, SimulationController& controller);

  // Sends the view the volume needs now (none outside the volume mode or without slices), if it changed.
  void update();
  // A new solver: its device's budget for the automatic scale, nothing measured yet.
  void rebuilt(bool onHostCores);
  // A frame is shown: its renderer's time feeds the automatic scale.
  void shown(const SliceSet& frame);
  // The pictures to come are drawn with `options` (null: back to the window's): the image is rendered
  // for them, at their size (an empty size: the window's), at full resolution, from now on.
  void preparePictures(const ImageOptions* options);
  // Whether a picture may be drawn of `frame`: always outside the volume mode; in it, when the frame's
  // image was rendered for the pictures prepared (or for the window, without).
  bool readyForPictures(const SliceSet& frame) const;
  // "volume: 640x360 (1/2, automatic) · 12.3 ms per image on DEVICE", or what it waits for; empty
  // outside the volume mode.
  QString hudLine(const std::string& device) const;

 private:
  std::shared_ptr<VolumeView> wanted();  // the view the volume needs now; null: none
  const ImageOptions* pictureOptions() const;
  int divisor(std::size_t pixels);

  SliceView& view_;
  SimulationController& controller_;
  VolumeImageScale scale_;
  std::optional<ImageOptions> pictures_;
  std::shared_ptr<const VolumeView> sent_;  // what the controller renders with (null: no volume)
  double lastMilliseconds_ = 0.0;           // of the last image shown
};

}  // namespace iso
