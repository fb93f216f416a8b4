#include "render/MappedPixelBuffers.h"

#include <QOpenGLContext>
#include <QSurfaceFormat>
#include <functional>

namespace iso {
namespace {
constexpr GLbitfield kAccess = GL_MAP_WRITE_BIT | GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
}  // namespace

QString MappedPixelBuffers::unsupportedReason(QOpenGLContext& context) {
  const QSurfaceFormat f = context.format();
  if (context.isOpenGLES()) return QStringLiteral("OpenGL ES %1.%2 has no persistent mapping here").arg(f.majorVersion()).arg(f.minorVersion());
  if (f.version() >= qMakePair(4, 4) || context.hasExtension("GL_ARB_buffer_storage")) return {};
  return QStringLiteral("OpenGL %1.%2 without ARB_buffer_storage").arg(f.majorVersion()).arg(f.minorVersion());
}

QString MappedPixelBuffers::provider(QOpenGLContext& context) {
  const QSurfaceFormat f = context.format();
  return f.version() >= qMakePair(4, 4) ? QStringLiteral("OpenGL %1.%2").arg(f.majorVersion()).arg(f.minorVersion())
                                        : QStringLiteral("ARB_buffer_storage");
}

bool MappedPixelBuffers::create(QOpenGLContext& context, GlFunctions* gl, int count, std::size_t bytes) {
  destroy(gl);
  error_ = unsupportedReason(context);
  // The same entry point for OpenGL 4.4 and the extension.
  const auto bufferStorage = reinterpret_cast<PFNGLBUFFERSTORAGEPROC>(context.getProcAddress("glBufferStorage"));
  if (error_.isEmpty() && bufferStorage == nullptr) error_ = "the driver offers no glBufferStorage";
  if (!error_.isEmpty()) return false;
  drainGlErrors(gl, "the frame before the mapped pixel buffers");  // only this code's errors below
  buffers_.assign(std::size_t(count), 0);
  gl->glGenBuffers(count, buffers_.data());
  for (GLuint buffer : buffers_) {
    gl->glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer);
    // Client storage: memory the CPU writes and reads, which the GL copies from into the textures.
    bufferStorage(GL_PIXEL_UNPACK_BUFFER, GLsizeiptr(bytes), nullptr, kAccess | GL_CLIENT_STORAGE_BIT);
    void* memory = gl->glMapBufferRange(GL_PIXEL_UNPACK_BUFFER, 0, GLsizeiptr(bytes), kAccess);
    if (memory == nullptr) break;
    memory_.push_back(memory);
  }
  gl->glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  error_ = drainGlErrors(gl, "creating the mapped pixel buffers");
  if (error_.isEmpty() && memory_.size() != buffers_.size()) error_ = "glMapBufferRange mapped no memory";
  if (!error_.isEmpty()) {
    destroy(gl);
    return false;
  }
  bytes_ = bytes;
  return true;
}

void MappedPixelBuffers::destroy(GlFunctions* gl) {
  for (std::size_t n = 0; n < memory_.size(); ++n) {
    gl->glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffers_[n]);
    gl->glUnmapBuffer(GL_PIXEL_UNPACK_BUFFER);
  }
  gl->glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  if (!buffers_.empty()) gl->glDeleteBuffers(GLsizei(buffers_.size()), buffers_.data());
  buffers_.clear();
  memory_.clear();
  bytes_ = 0;
}

std::optional<MappedPixelBuffers::Location> MappedPixelBuffers::locate(const void* data, std::size_t bytes) const {
  const std::less_equal<const std::byte*> notAfter;  // a total order, also between unrelated buffers
  const auto* first = static_cast<const std::byte*>(data);
  for (std::size_t n = 0; n < memory_.size(); ++n) {
    const auto* begin = static_cast<const std::byte*>(memory_[n]);
    if (notAfter(begin, first) && notAfter(first + bytes, begin + bytes_))
      return Location{buffers_[n], std::size_t(first - begin)};
  }
  return std::nullopt;
}

}  // namespace iso
