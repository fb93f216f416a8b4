#include "app/studio/PictureFile.h"

#include <QBuffer>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>

#include "core/OutputFile.h"

namespace iso {

bool writePictureFile(const QString& path, const QSize& size, const QString& title,
                      const std::function<void(QPainter&)>& draw, QString& error) {
  const QString extension = QFileInfo(path).suffix().toLower();
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (extension == "png") {
    QImage image(size, QImage::Format_RGB32);
    image.fill(Qt::white);
    {
      QPainter painter(&image);
      draw(painter);
    }
    if (!image.save(&buffer, "PNG")) {
      error = "could not encode the picture as PNG";
      return false;
    }
  } else if (extension == "svg") {
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(title);
    svg.setDescription("iso3dfd studio");
    QPainter painter;
    if (!painter.begin(&svg)) {
      error = "could not draw the picture as SVG";
      return false;
    }
    draw(painter);
    painter.end();
  } else {
    error = path + ": expected a name ending in .png or .svg";
    return false;
  }
  return writeFileBytes(path, bytes, error);
}

bool writeFileBytes(const QString& path, const QByteArray& bytes, QString& error) {
  try {
    writeWholeFile(path.toStdString(), std::string_view(bytes.constData(), std::size_t(bytes.size())));
  } catch (const FileWriteError& e) {
    error = QString::fromStdString(e.what());
    return false;
  }
  return true;
}

}  // namespace iso
