#pragma once
// The view's modes, in the order of the View menu, the view dock's Mode box, the keys 1–5 and the
// studio's --mode option: the one list all of them read.
#include <QString>
#include <vector>

#include "render/SliceView.h"

namespace iso {

struct ViewModeInfo {
  QString option;    // --mode value: "3d", "xy", ...
  QString menuText;  // with its & accelerator
  SliceView::Mode mode;
  QString title() const;  // menuText without the accelerator
};

const std::vector<ViewModeInfo>& viewModes();
int viewModeIndex(const QString& option);  // -1 for none of the options (case-insensitive)
int viewModeIndex(SliceView::Mode mode);    // its place in the list
QString viewModeOptions();                 // "3d, xy, xz, yz or volume"

}  // namespace iso
