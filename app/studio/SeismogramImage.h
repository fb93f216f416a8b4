#pragma once
// A seismogram of the receivers as an image: time runs down, one column band per receiver, either as
// variable density (the "seismic" colormap) or as wiggles (each trace a curve about its band's centre,
// positive lobes filled black), clipped at the 99th percentile of |u| so that one spike does not wash
// out the rest (or each trace scaled to its own peak); time ticks in seconds on the left and, on top,
// each receiver's offset from the source in metres (given the grid spacing; else its number). The
// Traces tab draws it and File ▸ Export data ▸ Seismogram writes it with the tab's settings. Plain
// QImage painting: safe on any thread.
#include <QImage>
#include <QSize>
#include <QString>
#include <vector>

#include "core/Scenario.h"

namespace iso {

enum class SeismogramStyle { VariableDensity, Wiggle };

struct SeismogramOptions {
  SeismogramStyle style = SeismogramStyle::VariableDensity;
  long firstSample = 0;  // index n of the first row of `traces`: its time is (n+1)·dt (a recent window)
  QSize size;            // the whole image in pixels; empty: 400 to 1200 rows and bands by receiver count
  bool normalize = false;  // each trace scaled to its own peak |u| (else one clip for all)
  // With a grid spacing, the axis is the receivers' offset from the source cell (sourceI, sourceJ) in
  // metres; without, their numbers.
  double dx = 0.0;
  int sourceI = 0, sourceJ = 0;
};

// Each receiver's offset from the source in metres: signed along the line when the receivers lie on one
// (all at the same y: x − x_source; all at the same x: y − y_source), else the horizontal distance.
std::vector<double> receiverOffsets(const std::vector<ReceiverSpec>& receivers, double dx, int sourceI, int sourceJ);
// `options` with the scenario's grid spacing and source cell (a source axis at −1 is the centre, as
// buildProblem places it).
SeismogramOptions withOffsetsOf(SeismogramOptions options, const Scenario& scenario);

// traces[n*R + r] (WaveSolver::traces()'s layout), R = receivers.size(). A null image when there is
// nothing to draw (no receivers, no samples, or a size too small for the axes).
QImage seismogramImage(const std::vector<float>& traces, const std::vector<ReceiverSpec>& receivers, double dt,
                       const QString& title, const SeismogramOptions& options = {});

}  // namespace iso
