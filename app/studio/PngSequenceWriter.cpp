#include "app/studio/PngSequenceWriter.h"

#include <QImage>
#include <QImageWriter>
#include <cstdio>
#include <system_error>

namespace iso {

PngSequenceWriter::PngSequenceWriter(const std::filesystem::path& folder, int width, int height, std::size_t queueFrames)
    : FrameWriter(folder, width, height, queueFrames) {
  const std::string name = folder.string();
  if (width < 1 || height < 1 || width > kMaxSide || height > kMaxSide)
    throw ExportError("cannot write frames to " + name + ": the size " + std::to_string(width) + "x" +
                      std::to_string(height) + " is out of range (1 to " + std::to_string(kMaxSide) + " pixels each way)");
  std::error_code ec;
  if (std::filesystem::exists(folder, ec)) {
    if (!std::filesystem::is_directory(folder, ec))
      throw ExportError("cannot write frames to " + name + ": it is a file, not a folder");
    if (!std::filesystem::is_empty(folder, ec))
      throw ExportError("cannot write frames to " + name + ": the folder is not empty (its files are kept)");
  }
  temporary_ = createTemporarySibling(folder.has_filename() ? folder : folder.parent_path(), true);
  startThread();
}

PngSequenceWriter::~PngSequenceWriter() { abort(); }

std::string PngSequenceWriter::frameName(long index) {
  char name[32];
  std::snprintf(name, sizeof name, "%06ld.png", index);
  return name;
}

void PngSequenceWriter::writeFrame(const std::vector<std::uint8_t>& rgba) {
  const QImage image(rgba.data(), width(), height(), width() * 4, QImage::Format_RGBX8888);
  const std::filesystem::path file = temporary_ / frameName(nextIndex_);
  QImageWriter writer(QString::fromStdString(file.string()), "png");
  if (!writer.write(image))
    throw ExportError("writing frame " + std::to_string(nextIndex_) + " of " + target().string() + ": " +
                      writer.errorString().toStdString());
  std::error_code ec;
  addBytesWritten(std::filesystem::file_size(file, ec));
  ++nextIndex_;
}

void PngSequenceWriter::complete() {
  std::error_code ec;
  // rename() replaces an empty folder, and refuses one that gained files since the check at opening.
  std::filesystem::rename(temporary_, target(), ec);
  if (ec) throw ExportError("writing frames to " + target().string() + ": renaming the finished folder: " + ec.message());
  temporary_.clear();
}

void PngSequenceWriter::discard() noexcept {
  if (temporary_.empty()) return;
  std::error_code ec;
  std::filesystem::remove_all(temporary_, ec);
  temporary_.clear();
}

}  // namespace iso
