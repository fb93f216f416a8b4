#include "app/studio/LessonWindow.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QShortcut>
#include <QStackedWidget>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "app/studio/CompareWindow.h"
#include "app/studio/HeadlessDriver.h"
#include "app/studio/LessonPredictPage.h"
#include "app/studio/LessonRunPage.h"
#include "app/studio/LessonSummaryPage.h"
#include "app/studio/MarkdownPage.h"
#include "app/studio/StageDiffView.h"
#include "app/studio/StageMaterial.h"
#include "app/studio/ViewImage.h"
#include "compute/DeviceRegistry.h"
#include "core/StageRegistry.h"
#include "render/SliceView.h"

namespace iso {
namespace {

const char* kindName(LessonWindow::PageKind kind) {
  switch (kind) {
    case LessonWindow::PageKind::Start: return "start";
    case LessonWindow::PageKind::Predict: return "predict";
    case LessonWindow::PageKind::Run: return "run";
    case LessonWindow::PageKind::Read: return "read";
    case LessonWindow::PageKind::Summary: return "summary";
  }
  return "";
}

QString gridText(const Scenario& s) { return QStringLiteral("%1×%2×%3").arg(s.n1).arg(s.n2).arg(s.n3); }

// The OpenCL device the scenario's selector picks, by name.
QString deviceText(const Scenario& s) {
  try {
    return "**" + QString::fromStdString(selectDevice(s.device).name) + "**";
  } catch (const std::exception&) {
    return "no device here (the CPU stages only)";
  }
}

// The Read page's heading. A stage built from its predecessor's own kernel file with other switches
// has no line that differs: the heading lists the notes that name its switched parts instead.
QString readHeading(const LessonStep& step, const LessonText& text) {
  const QString previous = QString::fromStdString(step.previous), stage = QString::fromStdString(step.stage);
  const std::string& file = StageRegistry::get(step.stage).sourceFiles.front();
  if (file != StageRegistry::get(step.previous).sourceFiles.front())
    return QStringLiteral("The code that changed from %1 to %2, hunk by hunk; the sentence under each title says what it "
                          "implements.").arg(previous, stage);
  QString notes;
  static const QRegularExpression code("`([^`]+)`");
  for (const LessonNote& note : text.notes) {
    QStringList keys;
    for (const std::string& key : note.keys) keys << "<code>" + QString::fromStdString(key).toHtmlEscaped() + "</code>";
    const QString sentence = QString::fromStdString(note.sentence).toHtmlEscaped().replace(code, "<code>\\1</code>");
    notes += "<li>" + (keys.isEmpty() ? sentence : keys.join(", ") + ": " + sentence) + "</li>";
  }
  return QStringLiteral("%1 runs %2's own kernel file, <code>%3</code>, built with other switches: no line differs, the "
                        "parts under its <code>#if</code>s do. Find them in the file below:<ul>%4</ul>")
      .arg(stage, previous, QString::fromStdString(file).toHtmlEscaped(), notes);
}

}  // namespace

LessonWindow::LessonWindow(const Scenario& scenario, const std::string& from, bool includeOpenCL, QWidget* parent)
    : QMainWindow(parent), scenario_(scenario), steps_(lessonSteps(from, includeOpenCL)) {
  setWindowTitle("iso3dfd studio — lesson");
  if (steps_.empty()) throw std::invalid_argument("the lesson has no steps on this machine");
  for (const std::string& stage : lessonStages(steps_)) {
    const auto markdown = readLessonMarkdown(stage);
    texts_[stage] = parseLessonText(markdown ? markdown->toStdString() : "# " + stage + "\n");
  }
  pages_.push_back({PageKind::Start, -1});
  for (int s = 0; s < int(steps_.size()); ++s)
    for (PageKind kind : {PageKind::Predict, PageKind::Run, PageKind::Read}) pages_.push_back({kind, s});
  pages_.push_back({PageKind::Summary, -1});

  buildPages();
  buildLayout();
  connect(outline_, &QListWidget::currentRowChanged, this, &LessonWindow::showPage);
  const auto back = [this] { showPage(current_ - 1); };
  const auto forward = [this] { showPage(current_ + 1); };
  connect(back_, &QPushButton::clicked, this, back);
  connect(next_, &QPushButton::clicked, this, forward);
  new QShortcut(QKeySequence(Qt::Key_PageUp), this, back);
  new QShortcut(QKeySequence(Qt::Key_PageDown), this, forward);
  connect(predict_, &LessonPredictPage::predictionChanged, this, [this](double speedup) {
    const Page p = page(current_);
    if (p.step >= 0) record_.setPrediction(steps_[std::size_t(p.step)].stage, speedup);
  });
  connect(run_, &LessonRunPage::measured, this, [this](const std::string& stage, const LessonMeasurement& m) { record_.setMeasurement(stage, m); });
  connect(summary_, &LessonSummaryPage::message, this, &LessonWindow::message);
  resize(1280, 720);
  showPage(0);
}

void LessonWindow::buildPages() {
  start_ = new QTextBrowser;
  prepareForReading(start_);
  predict_ = new LessonPredictPage;
  run_ = new LessonRunPage(scenario_);
  readPage_ = new QWidget;
  readHeading_ = new QLabel;
  readHeading_->setWordWrap(true);
  read_ = new StageDiffView;
  auto* readLayout = new QVBoxLayout(readPage_);
  readLayout->setContentsMargins(0, 0, 0, 0);
  readLayout->addWidget(readHeading_);
  readLayout->addWidget(read_, 1);
  summary_ = new LessonSummaryPage;
  stack_ = new QStackedWidget;
  for (QWidget* w : std::initializer_list<QWidget*>{start_, predict_, run_, readPage_, summary_}) stack_->addWidget(w);
}

// The outline of every page on the left; the page with its heading and Back / Next on the right.
void LessonWindow::buildLayout() {
  outline_ = new QListWidget;
  for (int n = 0; n < pageCount(); ++n) {
    const Page p = page(n);
    const QString kind = QString(kindName(p.kind));
    outline_->addItem(p.step < 0 ? kind.left(1).toUpper() + kind.mid(1)
                                 : QStringLiteral("%1 %2 · %3").arg(p.step + 1).arg(QString::fromStdString(steps_[std::size_t(p.step)].stage), kind));
  }
  QFont readable = outline_->font();
  readable.setPointSize(kReadingPointSize - 1);
  outline_->setFont(readable);
  outline_->setFixedWidth(outline_->sizeHintForColumn(0) + 28);
  heading_ = new QLabel;
  QFont large = heading_->font();
  large.setPointSize(kReadingPointSize + 3);
  large.setBold(true);
  heading_->setFont(large);
  heading_->setWordWrap(true);
  back_ = new QPushButton("◀ Back");
  back_->setToolTip("The page before (Page Up)");
  next_ = new QPushButton("Next ▶");
  next_->setToolTip("The next page (Page Down)");
  auto* buttons = new QHBoxLayout;
  buttons->addStretch(1);
  buttons->addWidget(back_);
  buttons->addWidget(next_);
  auto* right = new QWidget;
  auto* rightLayout = new QVBoxLayout(right);
  rightLayout->setContentsMargins(4, 0, 0, 0);
  rightLayout->addWidget(heading_);
  rightLayout->addWidget(stack_, 1);
  rightLayout->addLayout(buttons);
  auto* central = new QWidget;
  auto* layout = new QHBoxLayout(central);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(outline_);
  layout->addWidget(right, 1);
  setCentralWidget(central);
}

LessonWindow::~LessonWindow() = default;

const LessonText& LessonWindow::text(const std::string& stage) const { return texts_.at(stage); }

QString LessonWindow::stepHeading(int step) const {
  const LessonStep& s = steps_.at(std::size_t(step));
  return QStringLiteral("Step %1 of %2 · %3 over %4")
      .arg(step + 1)
      .arg(steps_.size())
      .arg(QString::fromStdString(s.stage), QString::fromStdString(s.previous));
}

QString LessonWindow::pageName(int n) const {
  const Page p = page(n);
  const std::string stage = p.step >= 0 ? steps_[std::size_t(p.step)].stage : p.kind == PageKind::Start ? steps_.front().previous : "all";
  return QStringLiteral("%1-%2-%3").arg(n, 2, 10, QChar('0')).arg(QString::fromStdString(stage), kindName(p.kind));
}

QString LessonWindow::startMarkdown() const {
  // The first stage's lesson text introduces the whole lesson; a lesson that starts later says where.
  const std::string first = steps_.front().previous, reference = StageRegistry::all().front().id;
  const auto introduction = readLessonMarkdown(reference);
  const LessonText intro = parseLessonText(introduction ? introduction->toStdString() : std::string());
  QString md;
  if (first == reference)
    md = QStringLiteral("# %1\n\n%2\n\n").arg(QString::fromStdString(intro.title), QString::fromStdString(intro.introduction));
  else
    md = QStringLiteral("# Starting from %1\n\n%2\n\n").arg(QString::fromStdString(first), QString::fromStdString(texts_.at(first).takeaway));
  for (const auto& [heading, body] : intro.otherSections)
    md += QStringLiteral("## %1\n\n%2\n\n").arg(QString::fromStdString(heading), QString::fromStdString(body));
  md += QStringLiteral("## This lesson\n\nScenario **%1**, %2 cells; OpenCL stages on %3; %4 steps:\n\n")
            .arg(QString::fromStdString(scenario_.name), gridText(scenario_), deviceText(scenario_))
            .arg(steps_.size());
  for (std::size_t s = 0; s < steps_.size(); ++s)
    md += QStringLiteral("%1. `%2` over `%3`: %4\n")
              .arg(s + 1)
              .arg(QString::fromStdString(steps_[s].stage), QString::fromStdString(steps_[s].previous),
                   QString::fromStdString(texts_.at(steps_[s].stage).title));
  return md;
}

void LessonWindow::showPage(int n) {
  n = std::clamp(n, 0, pageCount() - 1);
  if (n == current_) return;
  const Page p = page(n);
  if (current_ >= 0 && page(current_).kind == PageKind::Run) run_->play(false);
  current_ = n;
  {
    const QSignalBlocker block(outline_);
    outline_->setCurrentRow(n);
  }
  back_->setEnabled(n > 0);
  next_->setEnabled(n + 1 < pageCount());
  const LessonStep* step = p.step >= 0 ? &steps_[std::size_t(p.step)] : nullptr;
  switch (p.kind) {
    case PageKind::Start:
      heading_->setText("The lesson: from the reference to the fastest kernel, one step at a time");
      showMarkdown(start_, startMarkdown());
      stack_->setCurrentWidget(start_);
      break;
    case PageKind::Predict:
      heading_->setText(stepHeading(p.step) + " · Predict");
      predict_->setStep(*step, texts_.at(step->stage), record_.prediction(step->stage));
      stack_->setCurrentWidget(predict_);
      break;
    case PageKind::Run:
      heading_->setText(stepHeading(p.step) + " · Run");
      run_->setStep(*step, texts_.at(step->stage), record_.prediction(step->stage));
      stack_->setCurrentWidget(run_);
      run_->play(true);
      break;
    case PageKind::Read:
      heading_->setText(stepHeading(p.step) + " · Read");
      readHeading_->setText(readHeading(*step, texts_.at(step->stage)));
      read_->setStage(step->stage);
      stack_->setCurrentWidget(readPage_);
      break;
    case PageKind::Summary:
      heading_->setText("Summary: the staircase");
      refreshSummary();
      stack_->setCurrentWidget(summary_);
      break;
  }
  emit pageShown(n);
}

void LessonWindow::refreshSummary() {
  std::map<std::string, QString> takeaways;
  for (const auto& [stage, text] : texts_) takeaways[stage] = QString::fromStdString(text.takeaway);
  QString device;
  for (const StaircaseEntry& e : lessonStaircase(steps_, record_))
    if (e.measured && !e.measured->onHostCores) device = QString::fromStdString(e.measured->device);
  const QString subtitle = QStringLiteral("Scenario %1, %2 cells%3 · %4")
                               .arg(QString::fromStdString(scenario_.name), gridText(scenario_),
                                    device.isEmpty() ? QString(" · host CPU") : " · " + device,
                                    QDateTime::currentDateTime().toString("yyyy-MM-dd HH:mm"));
  summary_->setContent(lessonStaircase(steps_, record_), takeaways, subtitle);
}

void LessonWindow::setScenario(const Scenario& scenario) {
  scenario_ = scenario;
  run_->setScenario(scenario);
}

void LessonWindow::closeEvent(QCloseEvent* event) {
  run_->play(false);
  run_->compare()->close();  // stops the viewports' compute threads within a batch
  event->accept();
}

}  // namespace iso

namespace iso {
namespace {

constexpr int kSettleMs = 200;  // a page's layout, paint and deferred wrapping before it is saved
constexpr int kPollMs = 100;

// Goes through every page of a lesson window by itself (iso3dfd-studio --lesson --screenshots DIR):
// each page is shown and saved; a Run page first runs its steps and waits for both measurements.
class LessonTour : public QObject {
 public:
  LessonTour(LessonWindow& window, QString folder, QString handout, long runSteps)
      : window_(window), folder_(std::move(folder)), handout_(std::move(handout)), runSteps_(runSteps) {
    connect(&poll_, &QTimer::timeout, this, &LessonTour::checkRun);
  }
  void start() { QTimer::singleShot(0, this, [this] { visit(0); }); }
  int status() const { return status_; }

 private:
  void visit(int n) {
    page_ = n;
    if (n >= window_.pageCount()) return finish();
    window_.showPage(n);
    if (window_.page(n).kind != LessonWindow::PageKind::Run) {
      QTimer::singleShot(kSettleMs, this, [this] { capture(); });
      return;
    }
    window_.runPage()->compare()->setStopStep(runSteps_);
    poll_.start(kPollMs);
  }

  // A Run page is saved once both stages have run its steps and been measured.
  void checkRun() {
    LessonRunPage* run = window_.runPage();
    if (const QString problem = run->problem(); !problem.isEmpty()) {
      poll_.stop();
      return fail(QStringLiteral("%1: %2").arg(window_.pageName(page_), problem));
    }
    if (run->compare()->shownStep() < runSteps_ || run->measurement(0).mpts <= 0.0 || run->measurement(1).mpts <= 0.0) return;
    poll_.stop();
    run->play(false);  // the verdict and the roofline of the last step
    QTimer::singleShot(kSettleMs, this, [this] { capture(); });
  }

  void capture() {
    if (!folder_.isEmpty()) {
      const QString path = QDir(folder_).filePath(window_.pageName(page_) + ".png");
      QString error;
      if (!writeImageFile(SliceView::grabWithViews(window_), path, error)) return fail(error);
      std::printf("%s\n", qPrintable(path));
      std::fflush(stdout);
    }
    QTimer::singleShot(0, this, [this] { visit(page_ + 1); });
  }

  void finish() {
    QString error;
    if (!handout_.isEmpty() && !window_.summaryPage()->writeHandout(handout_, error)) return fail(error);
    if (!handout_.isEmpty()) std::printf("%s\n", qPrintable(handout_));
    for (const StaircaseEntry& e : lessonStaircase(window_.steps(), window_.record()))
      std::printf("%s: %s%s\n", e.stage.c_str(), e.measured ? qPrintable(QString::number(e.measured->mpts, 'f', 1) + " Mpts/s") : "not measured",
                  e.measuredSpeedup ? qPrintable(QStringLiteral(", ×%1 over %2").arg(*e.measuredSpeedup, 0, 'f', 2).arg(QString::fromStdString(e.previous)))
                                    : "");
    std::fflush(stdout);
    QApplication::exit(status_);
  }

  void fail(const QString& why) {
    printStudioError("lesson: " + why);
    status_ = 1;
    QApplication::exit(status_);
  }

  LessonWindow& window_;
  QString folder_, handout_;
  long runSteps_;
  int page_ = 0, status_ = 0;
  QTimer poll_;
};

}  // namespace

int runLesson(const Scenario& scenario, const std::string& from, const QString& screenshots, const QString& handout, long runSteps) {
  std::unique_ptr<LessonWindow> window;
  try {
    window = std::make_unique<LessonWindow>(scenario, from, !listDevices().empty());
  } catch (const std::exception& e) {
    printStudioError(QStringLiteral("--lesson: %1").arg(e.what()));
    return 1;
  }
  window->show();
  if (screenshots.isEmpty() && handout.isEmpty()) return QApplication::exec();
  if (!screenshots.isEmpty() && !QDir().mkpath(screenshots)) {
    printStudioError("--screenshots " + screenshots + ": the folder cannot be made");
    return 1;
  }
  LessonTour tour(*window, screenshots, handout, runSteps);
  tour.start();
  QApplication::exec();
  return tour.status();
}

}  // namespace iso
