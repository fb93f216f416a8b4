#include "app/studio/ViewImage.h"

#include <QBuffer>
#include <QFileInfo>
#include <QImageWriter>
#include <QRegularExpression>

#include "core/OutputFile.h"

namespace iso {

bool saveViewImage(RecordableView& view, const QString& path, const ImageOptions& options, QString& error) {
  const QImage image = view.renderImage(options, error);
  return !image.isNull() && writeImageFile(image, path, error);
}

bool writeImageFile(const QImage& image, const QString& path, QString& error) {
  if (image.isNull()) {  // a grab or a drawing that failed: nothing to write, and no file touched
    error = QStringLiteral("cannot write %1: no picture was drawn").arg(path);
    return false;
  }
  const QByteArray suffix = QFileInfo(path).suffix().toLower().toLatin1();
  const QByteArray format = suffix.isEmpty() ? QByteArray("png") : suffix;
  if (!QImageWriter::supportedImageFormats().contains(format)) {
    error = QStringLiteral("cannot write %1: unknown image format '%2' (use .png or .jpg)").arg(path, QString(format));
    return false;
  }
  // Encoded in memory, then written by the one writer of every output (core/OutputFile): whole or not
  // at all into a file, in place into a stream (/dev/stdout), never over a device or a folder.
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  QImageWriter writer(&buffer, format);
  if (!writer.write(image)) {
    error = QStringLiteral("cannot write %1: %2").arg(path, writer.errorString());
    return false;
  }
  try {
    writeWholeFile(path.toStdString(), std::string_view(bytes.constData(), std::size_t(bytes.size())));
  } catch (const FileWriteError& e) {
    error = QStringLiteral("cannot write %1: %2").arg(path, QString::fromStdString(e.what()));
    return false;
  }
  return true;
}

QSize parseResolution(const QString& text, QString& error) {
  static const QRegularExpression pattern("^\\s*(\\d{1,6})\\s*[xX×]\\s*(\\d{1,6})\\s*$");
  const QRegularExpressionMatch m = pattern.match(text);
  const QSize size = m.hasMatch() ? QSize(m.captured(1).toInt(), m.captured(2).toInt()) : QSize();
  if (size.width() < 1 || size.height() < 1) {
    error = QStringLiteral("resolution '%1': expected WIDTHxHEIGHT in pixels, e.g. 1920x1080").arg(text);
    return {};
  }
  return size;
}

}  // namespace iso
