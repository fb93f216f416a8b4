#pragma once
// Saving a view as an image file at a chosen size (RecordableView::renderImage), whole or not at all.
#include <QString>

#include "app/studio/RecordableView.h"

namespace iso {

// Renders `view` with `options` and writes it to `path` (format from the extension: .png, .jpg, ...)
// through a temporary file renamed when complete: on failure nothing is left under `path` and an older
// file there is kept. False with `error` set on failure.
bool saveViewImage(RecordableView& view, const QString& path, const ImageOptions& options, QString& error);
// The writing half of saveViewImage, for any thread: `image` to `path`, whole or not at all; a null
// image (a grab or a drawing that failed) is refused without touching `path`.
bool writeImageFile(const QImage& image, const QString& path, QString& error);

// "1920x1080" → QSize; an empty QSize (with `error` set) for anything else or sides below 1.
QSize parseResolution(const QString& text, QString& error);

}  // namespace iso
