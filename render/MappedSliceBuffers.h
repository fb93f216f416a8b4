#pragma once
// Pixel-unpack buffers that stay mapped for their whole life (OpenGL 4.4 buffer storage, or the
// ARB_buffer_storage extension): another thread writes slice planes straight into their memory while the
// GL draws, and SliceTextures uploads the planes from the buffer (glTexSubImage2D from a bound
// GL_PIXEL_UNPACK_BUFFER), so no copy goes through client memory. Mapped coherent, so what is written
// before the GL command that reads it is seen by it without a flush, and for reading as well, so the CPU
// reads the planes in place (automatic gain, the value under the cursor, exports).
#include <QString>
#include <cstddef>
#include <optional>
#include <vector>

#include "render/GlCheck.h"

class QOpenGLContext;

namespace iso {

class MappedSliceBuffers {
 public:
  // Why `context` cannot make them, "" when it can: they need OpenGL 4.4 or ARB_buffer_storage.
  static QString unsupportedReason(QOpenGLContext& context);
  // What provides them in `context`: "OpenGL 4.5", or "ARB_buffer_storage" below 4.4.
  static QString provider(QOpenGLContext& context);

  // `count` buffers of `floats` floats each, mapped; `context` is current. False (lastError, nothing
  // kept) when the context cannot or a GL call fails.
  bool create(QOpenGLContext& context, GlFunctions* gl, int count, std::size_t floats);
  void destroy(GlFunctions* gl);  // unmaps and deletes them: nobody may use their memory any more

  const std::vector<float*>& memory() const { return memory_; }
  // The buffer whose memory holds the `count` floats at `data`, and the byte offset of `data` in it.
  struct Location {
    GLuint buffer = 0;
    std::size_t offset = 0;
  };
  std::optional<Location> locate(const float* data, std::size_t count) const;
  const QString& lastError() const { return error_; }

 private:
  std::vector<GLuint> buffers_;
  std::vector<float*> memory_;
  std::size_t floats_ = 0;
  QString error_;
};

}  // namespace iso
