#pragma once
// The text a SliceView paints over its planes, read back with its boxes: for tests of what the view
// writes where (labels that fit, bars that keep their ticks).
#include <QPaintDevice>
#include <QPaintEngine>
#include <QPainter>
#include <QRectF>
#include <QString>
#include <QTextItem>
#include <QTransform>
#include <vector>

#include "render/SliceView.h"

namespace iso::test {

struct PaintedText {
  QString text;
  QRectF box;  // view pixels
};

// A paint device that keeps every text drawn on it, with its box in device pixels: the pen position, the
// advance, the font's ascent and descent, through the painter's transform (rotated titles included).
class TextRecorder : public QPaintDevice {
 public:
  using Text = PaintedText;
  explicit TextRecorder(QSize size) : size_(size) {}
  QPaintEngine* paintEngine() const override { return &engine_; }
  const std::vector<Text>& texts() const { return engine_.texts; }

 protected:
  int metric(PaintDeviceMetric metric) const override {
    switch (metric) {
      case PdmWidth: return size_.width();
      case PdmHeight: return size_.height();
      case PdmDpiX: case PdmDpiY: case PdmPhysicalDpiX: case PdmPhysicalDpiY: return 96;
      case PdmDepth: return 32;
      case PdmDevicePixelRatio: return 1;
      case PdmDevicePixelRatioScaled: return int(devicePixelRatioFScale());
      default: return 0;
    }
  }

 private:
  // Every feature claimed, so that the painter hands over text as text and the transform as state.
  struct Engine : QPaintEngine {
    Engine() : QPaintEngine(AllFeatures) {}
    bool begin(QPaintDevice*) override { return true; }
    bool end() override { return true; }
    Type type() const override { return User; }
    void updateState(const QPaintEngineState& state) override {
      if (state.state() & DirtyTransform) transform = state.transform();
    }
    void drawTextItem(const QPointF& at, const QTextItem& item) override {
      const QRectF box(at.x(), at.y() - item.ascent(), item.width(), item.ascent() + item.descent());
      texts.push_back({item.text(), transform.mapRect(box)});
    }
    // Shapes and pictures leave no text.
    void drawPixmap(const QRectF&, const QPixmap&, const QRectF&) override {}
    void drawImage(const QRectF&, const QImage&, const QRectF&, Qt::ImageConversionFlags) override {}
    void drawPath(const QPainterPath&) override {}
    void drawPolygon(const QPointF*, int, PolygonDrawMode) override {}
    void drawPolygon(const QPoint*, int, PolygonDrawMode) override {}
    QTransform transform;
    std::vector<Text> texts;
  };
  QSize size_;
  mutable Engine engine_;
};

// Everything SliceView::paintDecorations paints as text, in the order painted.
inline std::vector<PaintedText> paintedTexts(SliceView& view) {
  TextRecorder recorder(view.size());
  QPainter painter(&recorder);
  view.paintDecorations(painter);
  painter.end();
  return recorder.texts();
}

}  // namespace iso::test
