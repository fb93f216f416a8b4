#pragma once
// Finds an action of a window's menus by (part of) its text, as a user looks for it.
#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>

namespace iso::test {

// The last action of any menu of the menu bar whose text contains `text`; nullptr when none does.
inline QAction* menuAction(const QMainWindow& window, const QString& text) {
  QAction* found = nullptr;
  for (QAction* menu : window.menuBar()->actions())
    if (menu->menu())
      for (QAction* a : menu->menu()->actions())
        if (a->text().contains(text)) found = a;
  return found;
}

}  // namespace iso::test
