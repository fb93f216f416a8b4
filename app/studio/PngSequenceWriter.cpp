#include "app/studio/PngSequenceWriter.h"

#include <QBuffer>
#include <QImage>
#include <QImageWriter>
#include <cstdio>

namespace iso {

PngSequenceWriter::PngSequenceWriter(const std::filesystem::path& folder, int width, int height, std::size_t queueFrames)
    : FrameWriter(folder, width, height, queueFrames) {
  const std::string name = shownPath(folder.string());
  if (width < 1 || height < 1 || width > kMaxSide || height > kMaxSide)
    throw ExportError("cannot write frames to " + name + ": the size " + std::to_string(width) + "x" +
                      std::to_string(height) + " is out of range (1 to " + std::to_string(kMaxSide) + " pixels each way)");
  try {
    folder_ = std::make_unique<OutputFolder>(folder.string());
  } catch (const FileWriteError& e) {
    throw ExportError("cannot write frames to " + name + ": " + e.what());
  }
  startThread();
}

PngSequenceWriter::~PngSequenceWriter() { abort(); }

std::string PngSequenceWriter::frameName(long index) {
  char name[32];
  std::snprintf(name, sizeof name, "%06ld.png", index);
  return name;
}

void PngSequenceWriter::writeFrame(const Frame& frame) {
  const QImage image(frame.bytes.data(), width(), height(), width() * 4, QImage::Format_RGBX8888);
  QByteArray png;
  QBuffer buffer(&png);
  buffer.open(QIODevice::WriteOnly);
  QImageWriter writer(&buffer, "png");
  if (!writer.write(image))
    throw ExportError("writing frame " + std::to_string(nextIndex_) + " of " + shownPath(target().string()) + ": " +
                      writer.errorString().toStdString());
  try {
    folder_->writeFile(frameName(nextIndex_), png.constData(), std::size_t(png.size()));
  } catch (const FileWriteError& e) {
    throw ExportError(e.what());
  }
  addBytesWritten(std::uint64_t(png.size()));
  ++nextIndex_;
}

void PngSequenceWriter::complete() {
  try {
    folder_->commit();
  } catch (const FileWriteError& e) {
    throw ExportError(e.what());
  }
}

void PngSequenceWriter::discard() noexcept { folder_.reset(); }

}  // namespace iso
