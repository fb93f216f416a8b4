#pragma once
// H.264 video (libx264, yuv420p, BT.709 studio range, marked so in the stream) in an MP4 (or another container libavformat knows from the file
// name), encoded in process through FFmpeg's libraries on the FrameWriter's thread.
#include <memory>
#include <set>
#include <string>

#include "app/export/FrameWriter.h"

namespace iso {

struct VideoOptions {
  std::string codec = "libx264";  // an FFmpeg encoder name
  int crf = 20;                   // x264 constant rate factor: 0 lossless ... 51 worst
  std::string preset = "veryfast";  // x264 speed/size trade-off: ultrafast ... veryslow
  std::size_t queueFrames = 4;    // frames push() may queue before it waits for the encoder
};

class VideoEncoder final : public FrameWriter {
 public:
  static constexpr int kMaxSide = 8192;
  static constexpr int kMaxFps = 240;
  // x264's presets, fastest first, and the same as "ultrafast, superfast, ..., veryslow".
  static const std::set<std::string>& presets();
  static std::string presetList();

  // Opens the encoder and the output (core/OutputFile: a temporary file beside `path`) and writes the
  // header. Throws ExportError (nothing created) for an unknown codec or container, a size outside
  // 2..kMaxSide or odd (yuv420p halves the colour planes), fps outside 1..kMaxFps, a folder that cannot
  // be written, or a target that is a stream (a FIFO, /dev/stdout: MP4 seeks back to complete itself).
  VideoEncoder(const std::filesystem::path& path, int width, int height, int fps, const VideoOptions& options = {});
  ~VideoEncoder() override;

  int fps() const { return fps_; }
  // RGBA (converted to yuv420p here, on the writer's thread) or the planes themselves.
  bool takes(PixelLayout) const override { return true; }

 private:
  struct Av;  // the FFmpeg state
  void writeFrame(const Frame& frame) override;
  void complete() override;
  void discard() noexcept override;
  void sendAndDrain(bool flush);  // one frame (or the flush) into the codec, its packets into the file

  const int fps_;
  std::unique_ptr<Av> av_;
  long nextPts_ = 0;
};

}  // namespace iso
