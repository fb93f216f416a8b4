#include "render/MappedUploads.h"

#include <algorithm>
#include <thread>

#include <QDebug>

namespace iso {

std::optional<MappedUploads::Mapping> MappedUploads::map(QOpenGLContext& context, GlFunctions* gl, int count,
                                                         std::size_t bytes, QString& problem) {
  if (!problem_.isEmpty()) {
    problem = problem_;
    return std::nullopt;
  }
  MappedSet set;
  if (!set.buffers.create(context, gl, count, bytes)) {
    problem = set.buffers.lastError();
    return std::nullopt;
  }
  set.released = std::make_shared<std::atomic<bool>>(false);
  Mapping out{set.buffers.memory(), nullptr, MappedPixelBuffers::provider(context)};
  // The owner's last copy may go on any thread: it only raises the flag the next frame looks at.
  out.owner = std::shared_ptr<const void>(set.released.get(), [released = set.released](const void*) {
    released->store(true, std::memory_order_release);
  });
  sets_.push_back(std::move(set));
  return out;
}

std::optional<MappedPixelBuffers::Location> MappedUploads::locate(const void* data, std::size_t bytes) const {
  for (const MappedSet& set : sets_)
    if (const auto at = set.buffers.locate(data, bytes)) return at;
  return std::nullopt;
}

void MappedUploads::fence(GlFunctions* gl, std::shared_ptr<const void> data) {
  if (GLsync fence = gl->glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0)) {
    uploads_.push_back({fence, std::move(data)});
    return;
  }
  problem_ = drainGlErrors(gl, "fencing an upload from a mapped buffer");
  if (problem_.isEmpty()) problem_ = "glFenceSync returned no fence";
  gl->glFinish();  // the upload has read the buffer
}

void MappedUploads::retire(GlFunctions* gl) {
  std::erase_if(uploads_, [this, gl](const Upload& upload) {
    const GLenum state = gl->glClientWaitSync(upload.fence, 0, 0);
    if (state == GL_TIMEOUT_EXPIRED) return false;
    if (state == GL_WAIT_FAILED) {
      problem_ = drainGlErrors(gl, "waiting for an upload from a mapped buffer");
      if (problem_.isEmpty()) problem_ = "glClientWaitSync failed";
      gl->glFinish();
    }
    gl->glDeleteSync(upload.fence);
    return true;
  });
  std::erase_if(sets_, [gl](MappedSet& set) {
    if (!set.released->load(std::memory_order_acquire)) return false;
    set.buffers.destroy(gl);
    return true;
  });
}

bool MappedUploads::allReleased() const {
  return std::all_of(sets_.begin(), sets_.end(),
                     [](const MappedSet& set) { return set.released->load(std::memory_order_acquire); });
}

void MappedUploads::release(GlFunctions* gl) {
  if (sets_.empty()) return;
  gl->glFinish();  // every upload has read its buffer
  for (const Upload& upload : uploads_) gl->glDeleteSync(upload.fence);
  uploads_.clear();
  for (const auto until = std::chrono::steady_clock::now() + kReleaseWait;
       !allReleased() && std::chrono::steady_clock::now() < until;)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (!allReleased()) qWarning() << "MappedUploads: data in the mapped buffers is still in use as the GL context goes away";
  for (MappedSet& set : sets_) set.buffers.destroy(gl);
  sets_.clear();
}

}  // namespace iso
