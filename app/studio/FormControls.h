#pragma once
// The building blocks of the studio's forms: spin and combo boxes with their range and unit in the
// tooltip, and rows of widgets. Every box takes the mouse wheel only once it has focus: a wheel that
// scrolls a dock past it changes nothing.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QList>
#include <QPair>
#include <QSpinBox>
#include <QString>
#include <QWheelEvent>
#include <functional>
#include <initializer_list>

class QHBoxLayout;
class QWidget;

namespace iso {

// Box with the wheel only under focus; an ignored wheel event goes on to the parent (the scroll area).
template <class Box>
class FocusWheel : public Box {
 public:
  FocusWheel() { this->setFocusPolicy(Qt::StrongFocus); }  // the wheel alone never gives focus

 protected:
  void wheelEvent(QWheelEvent* event) override {
    if (this->hasFocus()) Box::wheelEvent(event);
    else event->ignore();
  }
};

using SpinBox = FocusWheel<QSpinBox>;
using DoubleSpinBox = FocusWheel<QDoubleSpinBox>;
using ComboBox = FocusWheel<QComboBox>;

// Spin boxes commit on Enter, focus loss or arrows, not on every keystroke: each change may rebuild.
QSpinBox* intSpin(int min, int max, int value, const QString& suffix, const QString& tip);
QDoubleSpinBox* realSpin(double min, double max, int decimals, double value, const QString& suffix, const QString& tip);
// Items with their own tooltips.
QComboBox* combo(const QList<QPair<QString, QString>>& labelsAndTips, const QString& tip);

// Calls `onChange` (in `context`) whenever the value of `control` changes: a spin, combo or check box, or
// a line edit (when its editing is finished).
void onValueChanged(QWidget* control, QObject* context, const std::function<void()>& onChange);

QHBoxLayout* row(std::initializer_list<QWidget*> widgets);  // no margins
QWidget* rowWidget(std::initializer_list<QWidget*> widgets);

}  // namespace iso
