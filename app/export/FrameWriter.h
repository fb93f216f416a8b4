#pragma once
// The common part of the frame writers (video, numbered images): frames of one size go through a
// bounded queue to a thread of the writer's own, so that rendering and encoding overlap while a writer
// that falls behind makes push() wait (no frame is dropped). Output goes through core/OutputFile (the one
// writer of every output): to a temporary name in the target's folder, renamed to the target only when
// complete, so a failed or aborted write leaves nothing under the target name, and an older file there
// stays as it was.
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace iso {

// Every failure of a writer, with a message for the user (names the file and the cause).
class ExportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// How a pushed frame's bytes are laid out, rows top down.
enum class PixelLayout {
  Rgba,    // height rows of width RGBA pixels, 8 bits each
  // yuv420p (ITU-R BT.709, studio range), converted where the picture was drawn (render/VideoPlanes.h):
  // height rows of width luma bytes, then height/2 rows each holding a chroma row's width/2 Cb bytes
  // and then its width/2 Cr bytes.
  Yuv420,
};

class FrameWriter {
 public:
  // A subclass's destructor calls abort() (discard() is its own): this one only joins the thread.
  virtual ~FrameWriter();
  FrameWriter(const FrameWriter&) = delete;
  FrameWriter& operator=(const FrameWriter&) = delete;

  // One frame of width() x height() pixels in `layout` (one the writer takes), rows `strideBytes` apart;
  // copied before returning. Waits while `queueFrames` frames are queued. Throws ExportError when the
  // writer has failed (the first failure's message; the output is then already discarded), or for a
  // layout it does not take or rows shorter than the layout's.
  void push(const std::uint8_t* pixels, std::ptrdiff_t strideBytes, PixelLayout layout = PixelLayout::Rgba);
  virtual bool takes(PixelLayout layout) const { return layout == PixelLayout::Rgba; }
  // Writes what is queued, completes the output and renames it to the target. Throws ExportError on
  // failure (nothing under the target name). Once only.
  void finish();
  // Stops, discards the output; the target is untouched. Idempotent.
  void abort();

  int width() const { return width_; }
  int height() const { return height_; }
  const std::filesystem::path& target() const { return target_; }
  bool hasRoom() const;             // push() would not wait
  long framesWritten() const;       // frames the writer thread has written so far
  std::uint64_t bytesWritten() const;  // bytes of the output so far (estimate of the file size)
  double busySeconds() const;          // time the writer thread spent writing (encoder speed)

 protected:
  FrameWriter(std::filesystem::path target, int width, int height, std::size_t queueFrames);
  // The subclass's constructor calls this once its output is open (it throws on a failed open).
  void startThread();
  struct Frame {
    std::vector<std::uint8_t> bytes;  // rows packed tight: width·4 bytes (Rgba) or width (Yuv420) apart
    PixelLayout layout = PixelLayout::Rgba;
  };
  // On the writer thread, in order: each frame, then complete() once.
  virtual void writeFrame(const Frame& frame) = 0;
  // Flushes, closes and renames the output to target(); throws ExportError.
  virtual void complete() = 0;
  // Removes whatever was written (the temporary output); never throws.
  virtual void discard() noexcept = 0;
  void addBytesWritten(std::uint64_t bytes);

 private:
  void run();
  void fail(const std::string& message);  // writer thread: records the first failure, discards

  const std::filesystem::path target_;
  const int width_, height_;
  const std::size_t queueFrames_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Frame> queue_;
  std::vector<std::vector<std::uint8_t>> spare_;  // written frames' buffers, for the next pushes
  bool finishing_ = false, stopping_ = false;
  bool settled_ = false;  // completed, failed or discarded: nothing more to clean up
  std::string error_;     // first failure
  long framesWritten_ = 0;
  std::uint64_t bytesWritten_ = 0;
  double busySeconds_ = 0.0;
  std::thread thread_;
};

}  // namespace iso
