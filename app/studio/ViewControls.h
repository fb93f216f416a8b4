#pragma once
// The view dock: where the slices cross, what the view shows (mode, colour map, gain, velocity overlay),
// how the volume view renders (quality, context, a slice plane) and how many time steps pass between
// frames. Changes go straight to the view and the controller.
#include <QWidget>

#include "core/VolumeView.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QSlider;
class QSpinBox;

namespace iso {

class SimulationController;
class SliceView;

class ViewControls : public QWidget {
  Q_OBJECT
 public:
  ViewControls(SliceView* view, SimulationController& controller, QWidget* parent = nullptr);
  // The velocity overlay's opacity at first (also the compare view's): the layers of the default model
  // stay apart by about 30 of 255 in colour where the field is at rest.
  static constexpr int kOverlayPercent = 50;

  void setGridSize(int n1, int n2, int n3);  // the slice point's limits
  void setMode(int mode);                    // an index of viewModes(); emits modeChanged()
  void setStepsPerFrame(int steps);          // 1 to 1000; the controller follows
  void setVolumeSettings(const VolumeSettings& settings);  // shown in the volume controls; the view follows

 signals:
  void modeChanged(int mode);

 private:
  SliceView* view_;
  SimulationController& controller_;
  QSpinBox *stepsPerFrame_ = nullptr, *sliceI_ = nullptr, *sliceJ_ = nullptr, *sliceK_ = nullptr;
  QComboBox *mode_ = nullptr, *colormap_ = nullptr;
  QCheckBox* overlay_ = nullptr;
  QComboBox* gainMode_ = nullptr;  // GainMode values as item data
  QDoubleSpinBox* clip_ = nullptr;
  QSlider* overlayOpacity_ = nullptr;

 private:
  void addVolumeControls(QFormLayout* form);
  void applyVolumeSettings();  // from the volume controls to the view
  QComboBox *samplesPerCell_ = nullptr, *imageScale_ = nullptr, *slicePlane_ = nullptr;
  QCheckBox *earlyTermination_ = nullptr, *velocityContext_ = nullptr;
};

}  // namespace iso
