#pragma once
// The three planes of a SliceSet as R32F textures (xy, xz, yz). Uploads go through glTexSubImage2D,
// from the set's memory or from the mapped pixel-unpack buffer that holds it, into storage that is
// re-allocated only when a plane's size changes.
#include <array>
#include <optional>

#include <QString>

#include "render/GlCheck.h"
#include "render/MappedPixelBuffers.h"
#include "render/SliceGeometry.h"

namespace iso {

class SliceTextures {
 public:
  bool create(GlFunctions* gl);  // needs a current context; false (see lastError) on a GL error
  void destroy(GlFunctions* gl);

  // Uploads the planes of a slice set that passed sliceSetProblem(), from `from` when given: the mapped
  // buffer that holds the set's planes (MappedPixelBuffers::locate). False on a GL error.
  bool upload(GlFunctions* gl, const SliceSet& slices, std::optional<MappedPixelBuffers::Location> from = std::nullopt);
  bool hasData() const { return loaded_; }
  const SliceGeometry& geometry() const { return geometry_; }

  // Nearest filtering when magnified shows cells as crisp blocks (2D views); linear smooths (3D).
  void setMagnifyNearest(GlFunctions* gl, bool nearest);
  void bind(GlFunctions* gl, SlicePlane plane, int unit) const;
  const QString& lastError() const { return error_; }

 private:
  std::array<GLuint, 3> textures_{0, 0, 0};
  std::array<std::array<int, 2>, 3> allocated_{};  // width, height of each texture's storage
  SliceGeometry geometry_;
  bool loaded_ = false;
  bool nearest_ = false;
  QString error_;
};

}  // namespace iso
