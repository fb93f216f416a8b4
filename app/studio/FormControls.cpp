#include "app/studio/FormControls.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QWidget>

namespace iso {

QSpinBox* intSpin(int min, int max, int value, const QString& suffix, const QString& tip) {
  auto* s = new SpinBox;
  s->setRange(min, max);
  s->setValue(value);
  s->setSuffix(suffix);
  s->setKeyboardTracking(false);
  s->setToolTip(QStringLiteral("%1\nRange: %2 to %3%4").arg(tip).arg(min).arg(max).arg(suffix));
  return s;
}

QDoubleSpinBox* realSpin(double min, double max, int decimals, double value, const QString& suffix,
                         const QString& tip) {
  auto* s = new DoubleSpinBox;
  s->setRange(min, max);
  s->setDecimals(decimals);
  s->setValue(value);
  s->setSuffix(suffix);
  s->setKeyboardTracking(false);
  s->setToolTip(QStringLiteral("%1\nRange: %2 to %3%4").arg(tip).arg(min).arg(max).arg(suffix));
  return s;
}

QComboBox* combo(const QList<QPair<QString, QString>>& labelsAndTips, const QString& tip) {
  auto* c = new ComboBox;
  for (int n = 0; n < labelsAndTips.size(); ++n) {
    c->addItem(labelsAndTips[n].first);
    c->setItemData(n, labelsAndTips[n].second, Qt::ToolTipRole);
  }
  c->setToolTip(tip);
  return c;
}

void onValueChanged(QWidget* control, QObject* context, const std::function<void()>& onChange) {
  if (auto* s = qobject_cast<QSpinBox*>(control)) QObject::connect(s, &QSpinBox::valueChanged, context, onChange);
  else if (auto* d = qobject_cast<QDoubleSpinBox*>(control)) QObject::connect(d, &QDoubleSpinBox::valueChanged, context, onChange);
  else if (auto* c = qobject_cast<QComboBox*>(control)) QObject::connect(c, &QComboBox::currentIndexChanged, context, onChange);
  else if (auto* b = qobject_cast<QCheckBox*>(control)) QObject::connect(b, &QCheckBox::toggled, context, onChange);
  else if (auto* e = qobject_cast<QLineEdit*>(control)) QObject::connect(e, &QLineEdit::editingFinished, context, onChange);
}

QHBoxLayout* row(std::initializer_list<QWidget*> widgets) {
  auto* h = new QHBoxLayout;
  h->setContentsMargins(0, 0, 0, 0);
  for (QWidget* w : widgets) h->addWidget(w);
  return h;
}

QWidget* rowWidget(std::initializer_list<QWidget*> widgets) {
  auto* w = new QWidget;
  w->setLayout(row(widgets));
  return w;
}

}  // namespace iso
