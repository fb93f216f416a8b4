#pragma once
// Colour lookup tables (256 sRGB entries, low to high) that need no resource files: the built-in ones
// of the slice view (render/Colormap.h, which adds tables read from its resources) and the volume
// renderer's (core/VolumeView.h). Plain data, no Qt.
#include <array>
#include <cstdint>
#include <vector>

namespace iso {

using ColourTable = std::vector<std::array<std::uint8_t, 3>>;
static_assert(sizeof(std::array<std::uint8_t, 3>) == 3, "a table is uploaded as packed RGB bytes");
inline constexpr int kColourTableEntries = 256;

// Piecewise-linear table through (position, r, g, b) knots, positions from 0 to 1, channels 0 to 1.
ColourTable piecewiseLinearTable(const std::vector<std::array<double, 4>>& knots);
// matplotlib's "seismic": dark blue, blue, white at the centre, red, dark red (the wavefield's default).
ColourTable seismicTable();
ColourTable greyTable();  // black to white

// The first kColourTableEntries entries of `table` (its last repeated where it is shorter) as opaque RGBA8
// words, red in the low byte: what the OpenCL renderers look colours up in.
std::array<std::uint32_t, kColourTableEntries> rgbaWords(const ColourTable& table);

}  // namespace iso
