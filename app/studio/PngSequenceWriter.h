#pragma once
// Numbered PNG frames (000000.png, 000001.png, ...) in a folder, written on the FrameWriter's thread:
// the same interface and guarantees as VideoEncoder. The frames go to a temporary folder next to the
// target, renamed to the target once complete (core/OutputFile's OutputFolder); a target that exists
// must be an empty folder.
#include <memory>

#include "app/export/FrameWriter.h"
#include "core/OutputFile.h"

namespace iso {

class PngSequenceWriter final : public FrameWriter {
 public:
  // Throws ExportError (nothing created) for a size outside 1..kMaxSide, a target that is a file or a
  // folder with files in it, or a parent folder that cannot be written.
  PngSequenceWriter(const std::filesystem::path& folder, int width, int height, std::size_t queueFrames = 4);
  ~PngSequenceWriter() override;

  static constexpr int kMaxSide = 16384;
  // The file name of frame `index`: 000000.png ...
  static std::string frameName(long index);

 private:
  void writeFrame(const Frame& frame) override;  // RGBA only (FrameWriter::takes)
  void complete() override;
  void discard() noexcept override;

  std::unique_ptr<OutputFolder> folder_;
  long nextIndex_ = 0;
};

}  // namespace iso
