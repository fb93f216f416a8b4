#include "app/studio/HelpWindow.h"

#include <QAction>
#include <QFile>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QVBoxLayout>

#include "app/studio/MarkdownPage.h"

namespace iso {
namespace {

// What the keyboard cannot say: the mouse in the view, and the keys of the other windows.
const std::pair<const char*, const char*> kGestures[] = {
    {"Click on a slice", "Move the source to that cell (the run restarts)"},
    {"Shift+click on a slice", "Add a receiver at that cell"},
    {"Drag (left button)", "Orbit the 3D camera"},
    {"Drag (right or middle button)", "Pan the 3D camera"},
    {"Wheel", "Zoom the 3D view"},
    {"Double-click", "Reset the 3D camera"},
    {"L (compare view)", "Link or unlink the viewports' camera, mode and slice point"},
    {"V (compare view)", "Tint the slices with the velocity model"},
    {"D (compare view)", "Difference mode: |u − u_ref| in every viewport"},
    {"Page Down / Page Up (lesson)", "The next / previous page of the lesson"},
};

QString plain(QString text) { return text.remove('&'); }

}  // namespace

HelpWindow::HelpWindow(const QList<QAction*>& actions, QWidget* parent) : QWidget(parent, Qt::Window), all_(guideSections()) {
  setWindowTitle("iso3dfd studio — help");
  search_ = new QLineEdit;
  search_->setPlaceholderText("Search the guide and the shortcuts");
  search_->setClearButtonEnabled(true);
  sections_ = new QListWidget;
  guide_ = new QTextBrowser;
  prepareForReading(guide_);
  guide_->setOpenExternalLinks(true);
  auto* split = new QSplitter(Qt::Horizontal);
  split->addWidget(sections_);
  split->addWidget(guide_);
  split->setStretchFactor(1, 1);
  split->setSizes({260, 900});
  shortcuts_ = new QTableWidget(0, 2);
  shortcuts_->setHorizontalHeaderLabels({"Keys", "Does"});
  shortcuts_->verticalHeader()->setVisible(false);
  shortcuts_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  shortcuts_->horizontalHeader()->setStretchLastSection(true);
  shortcuts_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  fillShortcuts(actions);
  tabs_ = new QTabWidget;
  tabs_->addTab(split, "User guide");
  tabs_->addTab(shortcuts_, "Keyboard shortcuts");
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(search_);
  layout->addWidget(tabs_, 1);
  connect(search_, &QLineEdit::textChanged, this, &HelpWindow::filter);
  connect(sections_, &QListWidget::currentRowChanged, this, &HelpWindow::showSection);
  filter();
  resize(1180, 700);
}

QList<HelpWindow::Section> HelpWindow::guideSections() {
  QFile file(":/help/README.md");
  if (!file.open(QIODevice::ReadOnly)) return {{"Guide", "The README is not compiled into this program."}};
  QList<Section> sections;
  for (const QString& line : QString::fromUtf8(file.readAll()).split('\n')) {
    if (line.startsWith("# ") || line.startsWith("## ") || sections.isEmpty()) {
      sections.append({line.startsWith('#') ? line.section(' ', 1) : QString("iso3dfd studio"), {}});
      if (line.startsWith('#')) continue;
    }
    sections.last().markdown += line + '\n';
  }
  return sections;
}

void HelpWindow::showTab(Tab tab) { tabs_->setCurrentIndex(int(tab)); }

void HelpWindow::setSearch(const QString& text) { search_->setText(text); }

void HelpWindow::filter() {
  const QStringList words = search_->text().split(' ', Qt::SkipEmptyParts);
  const auto matches = [&](const QString& text) {
    return std::all_of(words.begin(), words.end(), [&](const QString& w) { return text.contains(w, Qt::CaseInsensitive); });
  };
  const QString current = sections_->currentItem() ? sections_->currentItem()->text() : QString();
  {
    const QSignalBlocker block(sections_);
    sections_->clear();
    for (int n = 0; n < all_.size(); ++n)
      if (matches(all_[n].heading + '\n' + all_[n].markdown)) {
        auto* item = new QListWidgetItem(all_[n].heading, sections_);
        item->setData(Qt::UserRole, n);
      }
  }
  const QList<QListWidgetItem*> same = sections_->findItems(current, Qt::MatchExactly);
  sections_->setCurrentRow(same.isEmpty() ? 0 : sections_->row(same.first()));
  showSection(sections_->currentRow());
  for (int r = 0; r < shortcuts_->rowCount(); ++r)
    shortcuts_->setRowHidden(r, !matches(shortcuts_->item(r, 0)->text() + ' ' + shortcuts_->item(r, 1)->text()));
}

void HelpWindow::showSection(int row) {
  if (row < 0 || !sections_->item(row)) {
    guide_->setPlainText(search_->text().isEmpty() ? QString() : "Nothing in the guide holds \"" + search_->text() + "\".");
    return;
  }
  const Section& s = all_[sections_->item(row)->data(Qt::UserRole).toInt()];
  showMarkdown(guide_, "## " + s.heading + "\n\n" + s.markdown);
  // Every occurrence of the words searched for is marked; the view starts at the first.
  QList<QTextEdit::ExtraSelection> marks;
  for (const QString& word : search_->text().split(' ', Qt::SkipEmptyParts))
    for (QTextCursor c = guide_->document()->find(word); !c.isNull(); c = guide_->document()->find(word, c)) {
      QTextEdit::ExtraSelection mark;
      mark.cursor = c;
      mark.format.setBackground(QColor(255, 230, 120));
      marks.append(mark);
    }
  guide_->setExtraSelections(marks);
  if (!marks.isEmpty()) guide_->setTextCursor(marks.first().cursor);
  guide_->ensureCursorVisible();
}

void HelpWindow::fillShortcuts(const QList<QAction*>& actions) {
  QList<std::pair<QString, QString>> rows;
  for (const QAction* a : actions) {
    const QList<QKeySequence> keys = a->shortcuts();
    if (keys.isEmpty() || plain(a->text()).isEmpty()) continue;
    QStringList names;
    for (const QKeySequence& k : keys) names << k.toString(QKeySequence::NativeText);
    rows.append({names.join(" or "), plain(a->text()).remove("…")});
  }
  for (const auto& [keys, does] : kGestures) rows.append({QString(keys), QString(does)});
  shortcuts_->setRowCount(int(rows.size()));
  for (int r = 0; r < rows.size(); ++r) {
    shortcuts_->setItem(r, 0, new QTableWidgetItem(rows[r].first));
    shortcuts_->setItem(r, 1, new QTableWidgetItem(rows[r].second));
  }
}

}  // namespace iso
