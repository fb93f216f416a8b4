#pragma once
// A one-line label that ends in "…" when its text does not fit, instead of being cut off mid-glyph (the
// status bar's counters, which yield room to the recording indicator).
#include <QString>
#include <QWidget>

namespace iso {

class ElidedLabel : public QWidget {
  Q_OBJECT
 public:
  explicit ElidedLabel(QWidget* parent = nullptr);
  void setText(const QString& text);
  QString text() const { return text_; }
  QSize sizeHint() const override;         // the whole text
  QSize minimumSizeHint() const override;  // an ellipsis' worth

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  QString text_;
};

}  // namespace iso
