#pragma once
// The mapped pixel buffers a renderer hands to writers on other threads, and the uploads made from
// them. A writer gets a set of buffers (map) with an `owner`: the buffers stay mapped while a copy of it
// lives, and are deleted at the first frame after the last copy has gone (retire). Data uploaded from
// a buffer is held, with a fence inserted after the upload, until the GL has passed the fence (looked at
// each frame, never waited for): a writer, which gets memory back only when the last copy of what it
// wrote is gone, cannot overwrite pixels the GL may still read. Nothing here knows rings or threads; the
// owner's last copy may go on any thread, it only raises a flag.
//
// Every GL call is checked (drainGlErrors, a null map, a null fence, GL_WAIT_FAILED); after a failure,
// problem() says why and data in mapped buffers is to be uploaded from its memory like any other.
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include <QString>

#include "render/MappedPixelBuffers.h"

namespace iso {

class MappedUploads {
 public:
  // How long a context that goes away waits for the buffers' users to let go of them.
  static constexpr std::chrono::seconds kReleaseWait{2};

  struct Mapping {
    std::vector<void*> memory;          // one block of `bytes` per buffer
    std::shared_ptr<const void> owner;  // the buffers stay mapped while a copy lives
    QString provider;                   // "OpenGL 4.5", or "ARB_buffer_storage" below 4.4
  };
  // `count` buffers of `bytes` bytes, mapped; `context` is current. Null, with `problem` set, when the
  // context cannot (OpenGL < 4.4 without ARB_buffer_storage), a GL call fails, or an upload from mapped
  // buffers failed before.
  std::optional<Mapping> map(QOpenGLContext& context, GlFunctions* gl, int count, std::size_t bytes, QString& problem);

  // The buffer and offset of the `bytes` bytes at `data`, if they lie in one of the buffers.
  std::optional<MappedPixelBuffers::Location> locate(const void* data, std::size_t bytes) const;
  // After the upload that read `data` from a mapped buffer: holds `data` until the GL has read it.
  void fence(GlFunctions* gl, std::shared_ptr<const void> data);
  // An upload from a mapped buffer failed: data in them is uploaded from its memory from now on.
  void fail(const QString& problem) { problem_ = problem; }
  // Why uploading from mapped buffers failed, "" while it works.
  const QString& problem() const { return problem_; }

  // Each frame: lets go of the data the GL has read, and deletes the buffers whose owner has gone.
  void retire(GlFunctions* gl);
  // The context goes away: waits (at most kReleaseWait) for the owners' last copies to go (the writer
  // finishes what it writes, a reader what it reads), then deletes every buffer.
  void release(GlFunctions* gl);

 private:
  struct MappedSet {
    MappedPixelBuffers buffers;
    std::shared_ptr<std::atomic<bool>> released;  // the last copy of its owner is gone
  };
  struct Upload {
    GLsync fence = nullptr;
    std::shared_ptr<const void> data;
  };
  bool allReleased() const;

  std::vector<MappedSet> sets_;
  std::vector<Upload> uploads_;
  QString problem_;
};

}  // namespace iso
