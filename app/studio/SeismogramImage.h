#pragma once
// A seismogram of the receivers as an image (variable density): time runs down, one column band per
// receiver, the "seismic" colormap clipped at the 99th percentile of |u| so that one spike does not wash
// out the rest; time ticks in seconds on the left, receiver numbers and cells on top. Plain QImage
// painting: safe on any thread.
#include <QImage>
#include <QString>
#include <vector>

#include "core/Scenario.h"

namespace iso {

// traces[n*R + r] (WaveSolver::traces()'s layout), R = receivers.size(), samples at (n+1)·dt. A null
// image when there is nothing to draw.
QImage seismogramImage(const std::vector<float>& traces, const std::vector<ReceiverSpec>& receivers, double dt,
                       const QString& title);

}  // namespace iso
