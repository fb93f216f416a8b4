#pragma once
// Saving a drawing (a chart, the lesson's staircase) as PNG or SVG, chosen by the file name's extension,
// whole or not at all (core/AtomicFile).
#include <QByteArray>
#include <QSize>
#include <QString>
#include <functional>

class QPainter;

namespace iso {

// `draw` paints the picture into a `size` area (at the origin) of the painter it is given: an image of
// that many pixels on white for .png, an SVG of that view box for .svg (titled `title`). False with
// `error` set for another extension or a file that cannot be written; an older file is then kept.
bool writePictureFile(const QString& path, const QSize& size, const QString& title,
                      const std::function<void(QPainter&)>& draw, QString& error);

// `bytes` to `path`, whole or not at all; false with `error` set.
bool writeFileBytes(const QString& path, const QByteArray& bytes, QString& error);

}  // namespace iso
