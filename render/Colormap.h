#pragma once
// Colour lookup tables (256 sRGB entries, low to high) and the 1D texture the slice shader samples.
#include <array>
#include <cstdint>
#include <vector>

#include <QColor>
#include <QString>
#include <QStringList>

#include "core/ColourTables.h"
#include "render/GlCheck.h"

namespace iso {

class Colormap {
 public:
  static constexpr int kEntries = kColourTableEntries;

  // "seismic" (diverging blue–white–red, white at 0: the default for wavefields), "grey" (black to
  // white), "viridis" and "inferno" (perceptually uniform, tabulated from matplotlib's data).
  static QStringList names();
  // The table of a colormap, or nullptr for an unknown name. Tables are built once and kept.
  static const ColourTable* table(const QString& name);
  // Colour at t in [0, 1] (clamped), interpolated between entries as the GPU's linear filter does.
  static QColor colourAt(const ColourTable& table, double t);

  // GL side: one 1D RGB8 texture holding the selected table.
  bool create(GlFunctions* gl);  // needs a current context; false (and a message) on a GL error
  void destroy(GlFunctions* gl);
  bool select(GlFunctions* gl, const QString& name);  // uploads the table; false for an unknown name
  void bind(GlFunctions* gl, int unit) const;
  const QString& name() const { return name_; }
  const QString& lastError() const { return error_; }

 private:
  GLuint texture_ = 0;
  QString name_;
  QString error_;
};

}  // namespace iso
