#include "app/studio/ViewModes.h"

#include <QStringList>

namespace iso {

QString ViewModeInfo::title() const { return QString(menuText).remove('&'); }

const std::vector<ViewModeInfo>& viewModes() {
  static const std::vector<ViewModeInfo> modes = {
      {"3d", "&3D orthogonal slices", SliceView::Mode::Orthogonal3D},
      {"xy", "Plane &XY (top)", SliceView::Mode::PlaneXY},
      {"xz", "Plane X&Z (side)", SliceView::Mode::PlaneXZ},
      {"yz", "Plane &YZ (front)", SliceView::Mode::PlaneYZ},
      {"volume", "&Volume (the whole field)", SliceView::Mode::Volume},
  };
  return modes;
}

int viewModeIndex(const QString& option) {
  const auto& modes = viewModes();
  for (std::size_t n = 0; n < modes.size(); ++n)
    if (modes[n].option.compare(option, Qt::CaseInsensitive) == 0) return int(n);
  return -1;
}

int viewModeIndex(SliceView::Mode mode) {
  const auto& modes = viewModes();
  for (std::size_t n = 0; n < modes.size(); ++n)
    if (modes[n].mode == mode) return int(n);
  return 0;
}

QString viewModeOptions() {
  QStringList options;
  for (const ViewModeInfo& m : viewModes()) options << m.option;
  const QString last = options.takeLast();
  return options.join(", ") + " or " + last;
}

}  // namespace iso
