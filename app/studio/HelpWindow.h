#pragma once
// Help ▸ User guide and Help ▸ Keyboard shortcuts: one window with two tabs and one search box. The
// guide is the README (compiled into the program), one entry per section; the search keeps the
// sections that hold every word typed and marks them in the text. The shortcuts are read from the
// actions of the window that opened it (so the list is never out of date), with the mouse gestures of
// the view beside them.
#include <QList>
#include <QWidget>

class QAction;
class QLineEdit;
class QListWidget;
class QTabWidget;
class QTableWidget;
class QTextBrowser;

namespace iso {

class HelpWindow : public QWidget {
  Q_OBJECT
 public:
  enum Tab { GuideTab, ShortcutsTab };

  // `actions`: those whose shortcuts the list shows (e.g. every action of the main window).
  explicit HelpWindow(const QList<QAction*>& actions, QWidget* parent = nullptr);

  void showTab(Tab tab);
  void setSearch(const QString& text);

  // The README's sections: a heading and its Markdown, in order (the title's introduction first).
  struct Section {
    QString heading, markdown;
  };
  static QList<Section> guideSections();

  QListWidget* sections() const { return sections_; }  // the sections the search keeps
  QTextBrowser* guide() const { return guide_; }
  QTableWidget* shortcuts() const { return shortcuts_; }

 private:
  void filter();
  void showSection(int row);
  void fillShortcuts(const QList<QAction*>& actions);

  QList<Section> all_;
  QLineEdit* search_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  QListWidget* sections_ = nullptr;
  QTextBrowser* guide_ = nullptr;
  QTableWidget* shortcuts_ = nullptr;
};

}  // namespace iso
