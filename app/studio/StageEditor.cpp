#include "app/studio/StageEditor.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>

#include "app/studio/FormControls.h"
#include "core/Grid.h"
#include "compute/Stage.h"
#include "core/StageRegistry.h"

namespace iso {
namespace {

// The stage parameters `stage` takes; none for a stage this build does not know.
std::vector<std::string> acceptedParams(const std::string& stage) {
  try {
    return resolveStage(stage).parameterNames();
  } catch (const std::exception&) {
    return {};
  }
}

std::vector<StageParamSpec> parameterSpecs(const std::string& stage) {
  try {
    return resolveStage(stage).parameterSpecs();
  } catch (const std::exception&) {
    return {};
  }
}

// The first of `keys` that `accepted` holds, or "" when the stage takes none of them.
std::string keyAmong(const std::vector<std::string>& keys, const std::vector<std::string>& accepted) {
  for (const auto& k : keys)
    if (std::find(accepted.begin(), accepted.end(), k) != accepted.end()) return k;
  return {};
}

}  // namespace

StageEditor::StageEditor(QWidget* parent) : ScenarioSection(parent) {
  auto* page = new QVBoxLayout(this);
  auto* form = new QFormLayout;
  stage_ = new ComboBox;
  stage_->setObjectName("stage");
  for (const auto& s : StageRegistry::all()) {
    stage_->addItem(QString::fromStdString(s.title), QString::fromStdString(s.id));
    QString tip = QString::fromStdString(s.description);
    if (!s.sampleName.empty()) tip += QStringLiteral("\n(oneAPI sample: %1)").arg(QString::fromStdString(s.sampleName));
    stage_->setItemData(stage_->count() - 1, tip, Qt::ToolTipRole);
  }
  stage_->setToolTip("Optimisation stage of the stencil: CPU stages run natively, GPU stages as OpenCL kernels");
  form->addRow("Stage:", stage_);
  description_ = new QLabel;
  description_->setWordWrap(true);
  form->addRow(description_);
  device_ = new ComboBox;
  device_->setObjectName("device");
  device_->setToolTip("OpenCL device for the GPU stages (the CPU stages run natively). \"N × GPU\" cuts the grid\n"
                      "along z into one slab per GPU of a platform; the counters then show each GPU's share");
  form->addRow("Device:", device_);
  page->addLayout(form);

  auto* paramsBox = new QGroupBox("Stage parameters");
  auto* params = new QFormLayout(paramsBox);
  threads_ = intSpin(0, 1024, 0, "", "Threads of the cpu-parallel stage; leave one core free for smooth drawing");
  threads_->setSpecialValueText("all cores");
  auto* tileX = intSpin(0, 1024, 0, "",
                        "Tile width along x: the cache block of cpu-parallel (block_x), the work-group of the\n"
                        "simple GPU stages (wg_x), the local-memory tile of gpu-slm and gpu-optimized (tile_x)");
  auto* tileY = intSpin(0, 1024, 0, "",
                        "Tile height along y: the cache block of cpu-parallel (block_y), the work-group of the\n"
                        "simple GPU stages (wg_y), the local-memory tile of gpu-slm and gpu-optimized (tile_y)");
  auto* zChunk = intSpin(0, kMaxAxisCells, 0, " planes",
                         "Planes along z that one tile (cpu-parallel: block_z) or one work-item (GPU stages:\n"
                         "z_chunk) streams through");
  for (QSpinBox* s : {tileX, tileY, zChunk}) s->setSpecialValueText("tuned default");
  params->addRow("CPU threads:", threads_);
  params->addRow("Tile x:", tileX);
  params->addRow("Tile y:", tileY);
  params->addRow("z-chunk:", zChunk);
  page->addWidget(paramsBox);
  page->addStretch(1);
  paramBoxes_ = {{threads_, {"threads"}, {}},
                 {tileX, {"tile_x", "wg_x", "block_x"}, {}},
                 {tileY, {"tile_y", "wg_y", "block_y"}, {}},
                 {zChunk, {"z_chunk", "block_z"}, {}}};
  for (ParamBox& p : paramBoxes_) {
    p.box->setObjectName(QString::fromStdString(p.keys.front()));
    p.generalTip = p.box->toolTip();
  }

  // A value chosen for one stage means something else, or nothing, to another: a new stage starts from
  // its tuned defaults. (Connected first, so the change reported already has them.)
  connect(stage_, &QComboBox::currentIndexChanged, this, [this] {
    if (signalsBlocked()) return;  // setFromScenario sets the parameters itself
    for (const ParamBox& p : paramBoxes_) {
      if (p.box == threads_) continue;  // the same meaning wherever it applies
      const QSignalBlocker quiet(p.box);
      p.box->setValue(0);
    }
  });
  for (QWidget* w : std::initializer_list<QWidget*>{stage_, device_, threads_, tileX, tileY, zChunk})
    onValueChanged(w, this, [this] {
      updateEnabledControls();
      emit stageChanged();
    });
  updateEnabledControls();
}

void StageEditor::updateEnabledControls() {
  const std::string stage = stage_->currentData().toString().toStdString();
  const StageInfo* info = StageRegistry::find(stage);
  description_->setText(info ? QString::fromStdString(info->description) : QString());
  device_->setEnabled(info && info->opencl);
  const std::vector<std::string> accepted = acceptedParams(stage);
  const std::vector<StageParamSpec> specs = parameterSpecs(stage);
  for (const ParamBox& p : paramBoxes_) {
    const std::string key = keyAmong(p.keys, accepted);
    p.box->setEnabled(!key.empty());
    // The stage's own words for the parameter, from its descriptor: name, meaning, range, default.
    QString tip = p.generalTip;
    const auto spec = std::find_if(specs.begin(), specs.end(), [&](const StageParamSpec& s) { return s.name == key; });
    if (spec != specs.end())
      tip += QStringLiteral("\n\n%1 · %2: %3\n(%4 to %5; default %6)")
                 .arg(QString::fromStdString(stage), QString::fromStdString(spec->name), QString::fromStdString(spec->meaning))
                 .arg(spec->minValue).arg(spec->maxValue).arg(spec->defaultValue);
    else if (key.empty())
      tip += QStringLiteral("\n\n%1 takes no such parameter").arg(QString::fromStdString(stage));
    p.box->setToolTip(tip);
  }
}

void StageEditor::setFromScenario(const Scenario& s) {
  const QSignalBlocker quiet(this);
  stage_->setCurrentIndex(std::max(0, stage_->findData(QString::fromStdString(s.stage))));
  int deviceIndex = device_->findData(QString::fromStdString(s.device));
  if (deviceIndex < 0) {  // a selector that is not in the list (a name substring): keep it as typed
    device_->addItem(QString::fromStdString(s.device), QString::fromStdString(s.device));
    deviceIndex = device_->count() - 1;
  }
  device_->setCurrentIndex(deviceIndex);
  const std::vector<std::string> accepted = acceptedParams(s.stage);
  for (const ParamBox& p : paramBoxes_) {
    const std::string key = keyAmong(p.keys, accepted);
    const auto it = s.stageParams.find(key);
    p.box->setValue(key.empty() || it == s.stageParams.end() ? 0 : it->second);
  }
  updateEnabledControls();
}

void StageEditor::applyTo(Scenario& s) const {
  s.stage = stage_->currentData().toString().toStdString();
  s.device = device_->currentData().toString().toStdString();
  // Keys the stage does not take (left from another stage) go; zero means "the stage's tuned default":
  // such keys are left out too, so the stage picks.
  const std::vector<std::string> accepted = acceptedParams(s.stage);
  std::erase_if(s.stageParams,
                [&](const auto& kv) { return std::find(accepted.begin(), accepted.end(), kv.first) == accepted.end(); });
  for (const ParamBox& p : paramBoxes_) {
    const std::string key = keyAmong(p.keys, accepted);
    if (key.empty()) continue;
    if (p.box->value() > 0) s.stageParams[key] = p.box->value();
    else s.stageParams.erase(key);
  }
}

void StageEditor::setDevices(const QStringList& selectors, const QStringList& summaries) {
  const QSignalBlocker quiet(this);
  const QString current = device_->currentData().toString();
  device_->clear();
  device_->addItem("automatic (first GPU, else CPU)", QString());
  for (int n = 0; n < selectors.size() && n < summaries.size(); ++n) device_->addItem(summaries[n], selectors[n]);
  device_->setCurrentIndex(std::max(0, device_->findData(current)));
  updateEnabledControls();
}

}  // namespace iso
