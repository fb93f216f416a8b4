#include "app/export/FrameWriter.h"

#include <chrono>
#include <cstring>

#include "core/FileTarget.h"

namespace iso {

FrameWriter::FrameWriter(std::filesystem::path target, int width, int height, std::size_t queueFrames)
    : target_(std::move(target)), width_(width), height_(height), queueFrames_(std::max<std::size_t>(1, queueFrames)) {}

FrameWriter::~FrameWriter() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void FrameWriter::startThread() { thread_ = std::thread([this] { run(); }); }

void FrameWriter::push(const std::uint8_t* pixels, std::ptrdiff_t strideBytes, PixelLayout layout) {
  const bool planes = layout == PixelLayout::Yuv420;
  if (!takes(layout))
    throw ExportError("frame for " + shownPath(target_.string()) + ": this writer takes RGBA pixels, not video planes");
  const std::size_t rowBytes = std::size_t(width_) * (planes ? 1 : 4);
  const int rows = planes ? height_ + height_ / 2 : height_;
  if (pixels == nullptr || strideBytes < std::ptrdiff_t(rowBytes))
    throw ExportError("frame for " + shownPath(target_.string()) + ": no pixels, or rows shorter than " + std::to_string(width_) +
                      (planes ? " bytes" : " RGBA pixels"));
  // Copied before waiting for room: the caller's buffer is free again once the copy is queued. The copy
  // goes into a buffer the writer has finished with when there is one: a fresh 8 MB (1080p) allocation
  // per frame costs page faults and zeroing comparable to encoding it.
  Frame frame;
  frame.layout = layout;
  {
    std::lock_guard lock(mutex_);
    if (!spare_.empty()) {
      frame.bytes = std::move(spare_.back());
      spare_.pop_back();
    }
  }
  frame.bytes.resize(rowBytes * std::size_t(rows));
  for (int y = 0; y < rows; ++y) std::memcpy(frame.bytes.data() + y * rowBytes, pixels + y * strideBytes, rowBytes);
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return !error_.empty() || stopping_ || finishing_ || queue_.size() < queueFrames_; });
  if (!error_.empty()) throw ExportError(error_);
  if (stopping_ || finishing_) throw ExportError("writing " + shownPath(target_.string()) + ": the output is already closed");
  queue_.push_back(std::move(frame));
  lock.unlock();
  changed_.notify_all();
}

void FrameWriter::finish() {
  {
    std::lock_guard lock(mutex_);
    if (finishing_ || stopping_) throw ExportError("writing " + shownPath(target_.string()) + ": the output is already closed");
    finishing_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(mutex_);
  if (!error_.empty()) throw ExportError(error_);
}

void FrameWriter::abort() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    queue_.clear();
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(mutex_);
  if (!settled_) {
    discard();
    settled_ = true;
  }
}

double FrameWriter::busySeconds() const {
  std::lock_guard lock(mutex_);
  return busySeconds_;
}

bool FrameWriter::hasRoom() const {
  std::lock_guard lock(mutex_);
  return queue_.size() < queueFrames_ || !error_.empty();
}

long FrameWriter::framesWritten() const {
  std::lock_guard lock(mutex_);
  return framesWritten_;
}

std::uint64_t FrameWriter::bytesWritten() const {
  std::lock_guard lock(mutex_);
  return bytesWritten_;
}

void FrameWriter::addBytesWritten(std::uint64_t bytes) {
  std::lock_guard lock(mutex_);
  bytesWritten_ += bytes;
}

void FrameWriter::run() {
  std::unique_lock lock(mutex_);
  while (true) {
    changed_.wait(lock, [&] { return stopping_ || finishing_ || !queue_.empty(); });
    if (stopping_) return;  // abort() discards
    if (queue_.empty()) {   // finishing, and every frame written
      lock.unlock();
      const auto start = std::chrono::steady_clock::now();
      try {
        complete();
      } catch (const std::exception& e) {
        return fail(e.what());
      }
      lock.lock();
      busySeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      settled_ = true;
      return;
    }
    Frame frame = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    changed_.notify_all();  // room for the next push
    const auto start = std::chrono::steady_clock::now();
    try {
      writeFrame(frame);
    } catch (const std::exception& e) {
      return fail(e.what());
    }
    lock.lock();
    busySeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ++framesWritten_;
    if (spare_.size() < queueFrames_) spare_.push_back(std::move(frame.bytes));
  }
}

void FrameWriter::fail(const std::string& message) {
  discard();
  {
    std::lock_guard lock(mutex_);
    if (error_.empty()) error_ = message;
    queue_.clear();
    settled_ = true;
  }
  changed_.notify_all();
}

}  // namespace iso
