#include "app/studio/ViewControls.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>

#include "app/studio/FormControls.h"
#include "render/GainControl.h"
#include "app/controller/SimulationController.h"
#include "render/SliceView.h"
#include "app/studio/ViewModes.h"

namespace iso {

ViewControls::ViewControls(SliceView* view, SimulationController& controller, QWidget* parent)
    : QWidget(parent), view_(view), controller_(controller) {
  auto* form = new QFormLayout(this);

  stepsPerFrame_ = new SpinBox;
  stepsPerFrame_->setObjectName("steps_per_frame");
  stepsPerFrame_->setRange(1, 1000);
  stepsPerFrame_->setValue(4);
  stepsPerFrame_->setToolTip("Time steps between two displayed frames (a batch never takes more than ~50 ms, so\n"
                             "large grids show fewer). Range: 1 to 1000");
  connect(stepsPerFrame_, &QSpinBox::valueChanged, this, [this](int n) { controller_.setStepsPerFrame(n); });
  controller_.setStepsPerFrame(stepsPerFrame_->value());
  form->addRow("Steps per frame:", stepsPerFrame_);

  auto sliceSpin = [&](const QString& axis) {
    auto* s = new SpinBox;
    s->setRange(-1, 4095);
    s->setValue(-1);
    s->setSpecialValueText("source");
    s->setMinimumWidth(s->fontMetrics().horizontalAdvance("source") + 36);  // the text plus the arrows
    s->setKeyboardTracking(false);
    s->setToolTip(QStringLiteral("Interior cell along %1 where the orthogonal slices cross; 'source' follows the\n"
                                 "source cell (the centre when there is no point source)").arg(axis));
    connect(s, &QSpinBox::valueChanged, this,
            [this] { controller_.setSlicePoint(sliceI_->value(), sliceJ_->value(), sliceK_->value()); });
    return s;
  };
  sliceI_ = sliceSpin("x");
  sliceJ_ = sliceSpin("y");
  sliceK_ = sliceSpin("z");
  auto* sliceRow = new QHBoxLayout;
  for (QSpinBox* s : {sliceI_, sliceJ_, sliceK_}) sliceRow->addWidget(s);
  // A row of its own: three spin boxes beside a label would not fit the dock's default width.
  form->addRow(new QLabel("Slice point (x, y, z cell):"));
  form->addRow(sliceRow);

  mode_ = new ComboBox;
  mode_->setObjectName("view_mode");
  for (const ViewModeInfo& m : viewModes()) mode_->addItem(m.title());
  mode_->setToolTip("What the view shows (keys 1–5); drag to orbit in 3D, wheel to zoom");
  connect(mode_, &QComboBox::currentIndexChanged, this, [this](int n) {
    view_->setMode(viewModes()[std::size_t(n)].mode);
    emit modeChanged(n);
  });
  form->addRow("Mode:", mode_);

  colormap_ = new ComboBox;
  colormap_->addItems(SliceView::colormapNames());
  colormap_->setToolTip("Colour map of the wavefield (symmetric about zero)");
  connect(colormap_, &QComboBox::currentTextChanged, view_, &SliceView::setColormap);
  form->addRow("Colour map:", colormap_);

  gainMode_ = new ComboBox;
  for (GainMode mode : {GainMode::Automatic, GainMode::Fixed, GainMode::PerFrame})
    gainMode_->addItem(gainModeName(mode), int(mode));
  gainMode_->setToolTip("auto: follow the amplitude (a robust percentile of |u|, smoothed over time), never below\n"
                        "1e-2 of its peak, so a field that has died away is not amplified; fixed: the clip on the\n"
                        "right; per-frame: follow the amplitude down to whatever is left, noise included");
  clip_ = new DoubleSpinBox;
  clip_->setRange(1e-4, 1e6);
  clip_->setDecimals(4);
  clip_->setValue(1.0);
  clip_->setKeyboardTracking(false);
  clip_->setEnabled(false);
  clip_->setToolTip("Manual symmetric colour range [-clip, clip] of u. Range: 0.0001 to 1000000");
  const auto fixedGain = [this] { return GainMode(gainMode_->currentData().toInt()) == GainMode::Fixed; };
  connect(gainMode_, &QComboBox::currentIndexChanged, this, [this, fixedGain] {
    clip_->setEnabled(fixedGain());
    if (fixedGain()) view_->setClip(float(clip_->value()));
    view_->setGainMode(GainMode(gainMode_->currentData().toInt()));
  });
  connect(clip_, &QDoubleSpinBox::valueChanged, this, [this, fixedGain](double c) {
    if (fixedGain()) view_->setClip(float(c));
  });
  connect(view_, &SliceView::clipChanged, this, [this, fixedGain](float c) {
    if (fixedGain()) return;
    const QSignalBlocker block(clip_);  // show the automatic range without switching to manual
    clip_->setValue(c);
  });
  auto* gainRow = new QHBoxLayout;
  gainRow->addWidget(gainMode_);
  gainRow->addWidget(clip_, 1);
  form->addRow("Gain / clip:", gainRow);

  overlay_ = new QCheckBox("velocity model");
  overlay_->setToolTip("Blend the velocity model over the wavefield");
  overlayOpacity_ = new FocusWheel<QSlider>;
  overlayOpacity_->setOrientation(Qt::Horizontal);
  overlayOpacity_->setRange(0, 100);
  overlayOpacity_->setValue(kOverlayPercent);
  overlayOpacity_->setToolTip("Opacity of the velocity overlay: 0 to 100 %");
  overlayOpacity_->setMinimumWidth(70);  // a usable slider; the row goes below its label when narrow
  auto applyOverlay = [this] { view_->setVelocityOverlay(overlay_->isChecked(), overlayOpacity_->value() / 100.0f); };
  connect(overlay_, &QCheckBox::toggled, this, applyOverlay);
  connect(overlayOpacity_, &QSlider::valueChanged, this, applyOverlay);
  auto* overlayRow = new QHBoxLayout;
  overlayRow->addWidget(overlay_);
  overlayRow->addWidget(overlayOpacity_, 1);
  form->addRow("Overlay:", overlayRow);
  overlay_->setChecked(true);
  addVolumeControls(form);
}

void ViewControls::addVolumeControls(QFormLayout* form) {
  samplesPerCell_ = new ComboBox;
  samplesPerCell_->setObjectName("volume_samples");
  for (double samples : {0.5, 1.0, 2.0, 4.0}) samplesPerCell_->addItem(QString::number(samples), samples);
  samplesPerCell_->setCurrentIndex(1);
  samplesPerCell_->setToolTip("Volume: samples along each ray per cell. More is finer and slower; the picture's\n"
                              "opacity does not depend on it");
  imageScale_ = new ComboBox;
  imageScale_->setObjectName("volume_scale");
  imageScale_->addItem("automatic", 0);
  for (int divisor : {1, 2, 3, 4}) imageScale_->addItem(divisor == 1 ? QStringLiteral("full") : QStringLiteral("1/%1").arg(divisor), divisor);
  imageScale_->setToolTip("Volume: the image's resolution per side, of the view's. Automatic renders as finely as\n"
                          "keeps the image within ~20 ms beside a solver on the host's cores (1.5 ms on a GPU)");
  auto* qualityRow = new QHBoxLayout;
  qualityRow->addWidget(new QLabel("samples/cell"));
  qualityRow->addWidget(samplesPerCell_);
  qualityRow->addWidget(new QLabel("scale"));
  qualityRow->addWidget(imageScale_, 1);
  form->addRow("Volume:", qualityRow);

  earlyTermination_ = new QCheckBox("early ray termination");
  earlyTermination_->setChecked(true);
  earlyTermination_->setToolTip("Volume: a ray stops once 99 % opaque (what lies behind it would add at most 1 %)");
  velocityContext_ = new QCheckBox("velocity contrasts");
  velocityContext_->setObjectName("volume_context");
  velocityContext_->setToolTip("Volume: the velocity model's strong contrasts (the salt body, layer boundaries) as\n"
                               "a faint warm-grey surface");
  auto* optionsRow = new QHBoxLayout;
  optionsRow->addWidget(earlyTermination_);
  optionsRow->addWidget(velocityContext_);
  form->addRow("", optionsRow);

  slicePlane_ = new ComboBox;
  slicePlane_->setObjectName("volume_plane");
  slicePlane_->addItem("none", -1);
  for (int axis = 0; axis < 3; ++axis) slicePlane_->addItem(QStringLiteral("%1 through the slice point").arg(QChar("xyz"[axis])), axis);
  slicePlane_->setToolTip("Volume: one opaque slice inside the volume, in the slices' colours; the rays end on it");
  form->addRow("Volume plane:", slicePlane_);

  for (QComboBox* box : {samplesPerCell_, imageScale_, slicePlane_})
    connect(box, &QComboBox::currentIndexChanged, this, &ViewControls::applyVolumeSettings);
  for (QCheckBox* box : {earlyTermination_, velocityContext_}) connect(box, &QCheckBox::toggled, this, &ViewControls::applyVolumeSettings);
  applyVolumeSettings();
}

void ViewControls::setVolumeSettings(const VolumeSettings& settings) {
  {
    const QSignalBlocker blockSamples(samplesPerCell_), blockScale(imageScale_), blockPlane(slicePlane_),
        blockEarly(earlyTermination_), blockContext(velocityContext_);
    const auto select = [](QComboBox* box, const QVariant& value) {  // a value the box does not offer: as it is
      if (const int index = box->findData(value); index >= 0) box->setCurrentIndex(index);
    };
    select(samplesPerCell_, double(settings.samplesPerCell));
    select(imageScale_, settings.imageScale);
    select(slicePlane_, settings.slicePlane);
    earlyTermination_->setChecked(settings.earlyTermination);
    velocityContext_->setChecked(settings.velocityContext);
  }
  applyVolumeSettings();
}

void ViewControls::applyVolumeSettings() {
  VolumeSettings settings;
  settings.samplesPerCell = float(samplesPerCell_->currentData().toDouble());
  settings.imageScale = imageScale_->currentData().toInt();
  settings.earlyTermination = earlyTermination_->isChecked();
  settings.velocityContext = velocityContext_->isChecked();
  settings.slicePlane = slicePlane_->currentData().toInt();
  view_->setVolumeSettings(settings);
}

void ViewControls::setGridSize(int n1, int n2, int n3) {
  sliceI_->setMaximum(n1 - 1);
  sliceJ_->setMaximum(n2 - 1);
  sliceK_->setMaximum(n3 - 1);
}

void ViewControls::setMode(int mode) { mode_->setCurrentIndex(mode); }

void ViewControls::setStepsPerFrame(int steps) { stepsPerFrame_->setValue(steps); }

}  // namespace iso
