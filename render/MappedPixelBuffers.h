#pragma once
// Pixel-unpack buffers that stay mapped for their whole life (OpenGL 4.4 buffer storage, or the
// ARB_buffer_storage extension): another thread writes pixels (the wavefield's planes, or any image)
// straight into their memory while the GL draws, and a texture is uploaded from the buffer
// (glTexSubImage2D from a bound GL_PIXEL_UNPACK_BUFFER), so no copy goes through client memory. Mapped
// coherent, so what is written before the GL command that reads it is seen by it without a flush, and
// for reading as well, so the CPU reads the pixels in place (automatic gain, the value under the
// cursor, exports). MappedUploads says when their memory may be written again.
#include <QString>
#include <cstddef>
#include <optional>
#include <vector>

#include "render/GlCheck.h"

class QOpenGLContext;

namespace iso {

class MappedPixelBuffers {
 public:
  // Why `context` cannot make them, "" when it can: they need OpenGL 4.4 or ARB_buffer_storage.
  static QString unsupportedReason(QOpenGLContext& context);
  // What provides them in `context`: "OpenGL 4.5", or "ARB_buffer_storage" below 4.4.
  static QString provider(QOpenGLContext& context);

  // `count` buffers of `bytes` bytes each, mapped; `context` is current. False (lastError, nothing
  // kept) when the context cannot or a GL call fails.
  bool create(QOpenGLContext& context, GlFunctions* gl, int count, std::size_t bytes);
  void destroy(GlFunctions* gl);  // unmaps and deletes them: nobody may use their memory any more

  const std::vector<void*>& memory() const { return memory_; }
  // The buffer whose memory holds the `bytes` bytes at `data`, and the byte offset of `data` in it.
  struct Location {
    GLuint buffer = 0;
    std::size_t offset = 0;
  };
  std::optional<Location> locate(const void* data, std::size_t bytes) const;
  const QString& lastError() const { return error_; }

 private:
  std::vector<GLuint> buffers_;
  std::vector<void*> memory_;
  std::size_t bytes_ = 0;
  QString error_;
};

}  // namespace iso
