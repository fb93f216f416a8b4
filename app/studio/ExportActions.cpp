#include "app/studio/ExportActions.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMainWindow>
#include <QPainter>
#include <QScopeGuard>
#include <QStatusBar>
#include <QToolButton>

#include "app/studio/ExportDialog.h"
#include "app/studio/RecordingSession.h"
#include "app/studio/ViewImage.h"

namespace iso {
namespace {

constexpr int kIndicatorMs = 250;
constexpr int kPendingImageMs = 60000;  // the longest a picture rendered by the solver may take

// A red disc: the usual sign of a recorder, and no standard style icon has one.
QIcon recordIcon() {
  QPixmap pixmap(32, 32);
  pixmap.fill(Qt::transparent);
  QPainter painter(&pixmap);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setPen(Qt::NoPen);
  painter.setBrush(QColor(215, 40, 40));
  painter.drawEllipse(QRectF(6, 6, 20, 20));
  return QIcon(pixmap);
}

}  // namespace

ExportActions::ExportActions(QMainWindow* window, RecordableView* view, QAction* playAction)
    : QObject(window), window_(window), view_(view), playAction_(playAction), session_(new RecordingSession(view, this)) {
  record_ = new QAction(recordIcon(), "&Record…", this);
  record_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
  record_->setToolTip("Record a video or PNG frames of the view (Ctrl+R)");
  connect(record_, &QAction::triggered, this, &ExportActions::toggleRecording);
  saveImage_ = new QAction("Save &image…", this);
  saveImage_->setShortcut(Qt::Key_F12);
  saveImage_->setToolTip("Save the view as an image at a chosen resolution (F12)");
  connect(saveImage_, &QAction::triggered, this, &ExportActions::saveImage);
  // A picture rendered by the solver (the volume) that does not come: say so, and let the run go on.
  pendingTimeout_.setSingleShot(true);
  pendingTimeout_.setInterval(kPendingImageMs);
  connect(&pendingTimeout_, &QTimer::timeout, this, [this] {
    if (!pendingImage_) return;
    disconnect(pendingImage_->ready);
    playAction_->setChecked(pendingImage_->resume);
    pendingImage_.reset();
    view_->preparePictures(nullptr);
    emit message("Image not saved: the view's picture at that size did not come within a minute", true);
  });

  indicator_ = new QWidget;
  auto* row = new QHBoxLayout(indicator_);
  row->setContentsMargins(0, 0, 0, 0);
  auto* dot = new QLabel;
  dot->setPixmap(recordIcon().pixmap(14, 14));
  indicatorText_ = new QLabel;
  indicatorText_->setToolTip("Frames recorded, the video's length at its frame rate and the output's size so far.\n"
                             "No frame is dropped: when the encoder falls behind, the simulation waits for it.");
  stop_ = new QToolButton;
  stop_->setText("Stop");
  stop_->setToolTip("Stop recording and finish the file (Ctrl+R)");
  connect(stop_, &QToolButton::clicked, this, &ExportActions::toggleRecording);
  row->addWidget(dot);
  row->addWidget(indicatorText_);
  row->addWidget(stop_);
  window_->statusBar()->addPermanentWidget(indicator_);
  indicator_->hide();

  connect(&indicatorTimer_, &QTimer::timeout, this, &ExportActions::updateIndicator);
  connect(session_, &RecordingSession::started, this, [this] {
    showRecording(true);
    if (steersRun()) playAction_->setChecked(true);  // (a recording of one frame is over already)
  });
  connect(session_, &RecordingSession::frameCaptured, this, [this] {
    // The recording's last frame (it is finishing): the run rests on that frame's step.
    if (session_->state() == RecordingSession::State::Finishing) playAction_->setChecked(false);
  });
  connect(session_, &RecordingSession::finished, this, &ExportActions::onRecordingFinished);
  lastRecordPath_ = QDir::home().filePath("iso3dfd.mp4");
}

ExportActions::~ExportActions() {
  if (imageWriter_.joinable()) imageWriter_.join();
}

bool ExportActions::steersRun() const { return session_->state() == RecordingSession::State::Recording; }

bool ExportActions::steerRun(bool playing) {
  if (!steersRun()) return false;
  session_->setUserPlaying(playing);
  return true;
}

void ExportActions::toggleRecording() {
  if (session_->state() == RecordingSession::State::Recording) {
    session_->stop();
    updateIndicator();
    return;
  }
  if (session_->state() == RecordingSession::State::Finishing) return;  // the file is being completed
  ExportDialog dialog(ExportDialog::Kind::Recording, lastRecordPath_, view_->screenPixels(), window_);
  if (dialog.exec() != QDialog::Accepted) return;
  lastRecordPath_ = dialog.path();
  RecordingSettings settings;
  settings.path = dialog.path();
  settings.picture = dialog.picture();
  settings.fps = dialog.fps();
  settings.every = dialog.every();
  if (!session_->start(settings)) emit message("Recording not started: " + session_->error(), true);
}

void ExportActions::onRecordingFinished(bool ok, const QString& text) {
  showRecording(false);
  if (ok)
    emit message(QStringLiteral("Recorded %1 frames to %2").arg(session_->framesCaptured()).arg(text), false);
  else
    emit message("Recording failed, nothing written: " + text, true);
}

void ExportActions::showRecording(bool on) {
  record_->setText(on ? "Stop &recording" : "&Record…");
  record_->setToolTip(on ? "Stop recording and finish the file (Ctrl+R)" : "Record a video or PNG frames of the view (Ctrl+R)");
  indicator_->setVisible(on);
  if (on) {
    updateIndicator();
    indicatorTimer_.start(kIndicatorMs);
  } else {
    indicatorTimer_.stop();
    view_->setRecordingNotice({});
  }
}

void ExportActions::updateIndicator() {
  const RecordingSession& s = *session_;
  const bool finishing = s.state() == RecordingSession::State::Finishing;
  // No frame is dropped: when the encoder falls behind, the run waits for it, and says so.
  QString wait;
  if (s.waitingForWriter())
    wait = " · run waiting for the encoder";
  else if (s.waitSeconds() >= 0.1)
    wait = QStringLiteral(" · run held %1 s for the encoder").arg(s.waitSeconds(), 0, 'f', 1);
  indicatorText_->setText(QStringLiteral("%1 %2 frames · %3 s · %4")
                              .arg(finishing ? "finishing" : "REC")
                              .arg(s.framesCaptured())
                              .arg(s.seconds(), 0, 'f', 1)
                              .arg(QLocale().formattedDataSize(qint64(s.bytesWritten()))) +
                          wait);
  stop_->setEnabled(!finishing);
  // The same over the view, where the user watches the run (on screen only: not in the video).
  view_->setRecordingNotice(finishing ? QStringLiteral("recording: finishing the file")
                                      : QStringLiteral("recording: %1 frames").arg(s.framesCaptured()) + wait);
}

void ExportActions::saveImage() {
  if (imageWriter_.joinable() || pendingImage_) {
    emit message("The previous image is still being written", true);
    return;
  }
  // The run waits while the dialog is open, so that the picture shows the step the user saw.
  const bool wasPlaying = playAction_->isChecked();
  playAction_->setChecked(false);
  auto resume = qScopeGuard([&] { playAction_->setChecked(wasPlaying); });
  const auto nameFor = [](long step) { return QDir::home().filePath(QStringLiteral("iso3dfd-step%1.png").arg(step)); };
  const QString suggested = nameFor(view_->imageStep());
  if (lastImagePath_.isEmpty() || QFileInfo(lastImagePath_).isDir()) lastImagePath_ = suggested;
  ExportDialog dialog(ExportDialog::Kind::Image, lastImagePath_, view_->screenPixels(), window_);
  if (dialog.exec() != QDialog::Accepted) return;
  // A batch in flight when the run paused may have moved the view on: the suggested name follows it.
  QString path = dialog.path();
  if (path == suggested) path = nameFor(view_->imageStep());
  lastImagePath_ = path;
  ImageOptions options = dialog.picture();
  options.scale = options.size == view_->screenPixels() ? window_->devicePixelRatioF() : 0.0;
  // A view that renders its picture where the data lies (the volume) renders it for this image first,
  // at rest: the image is taken when that frame is shown (at once for any other view).
  resume.dismiss();
  pendingImage_ = PendingImage{options, path, wasPlaying, {}};
  view_->preparePictures(&options);
  if (view_->imageStep() >= 0) return takeImage();
  pendingImage_->ready = view_->connectImageStep(this, [this](long) { takeImage(); });
  pendingTimeout_.start();
}

void ExportActions::takeImage() {
  if (!pendingImage_) return;
  const PendingImage pending = std::move(*pendingImage_);
  pendingImage_.reset();
  disconnect(pending.ready);
  pendingTimeout_.stop();
  QString error;
  const QImage image = view_->renderImage(pending.options, error);
  view_->preparePictures(nullptr);
  playAction_->setChecked(pending.resume);
  if (image.isNull()) {
    emit message("Image not saved: " + error, true);
    return;
  }
  // Encoding a 4K PNG takes a while: on a thread, the result reported back here.
  imageWriter_ = std::thread([this, image, path = pending.path] {
    QString problem;
    const bool ok = writeImageFile(image, path, problem);
    QMetaObject::invokeMethod(this, [this, ok, path, problem] {
      imageWriter_.join();
      emit message(ok ? "Saved " + path : "Image not saved: " + problem, !ok);
    }, Qt::QueuedConnection);
  });
}

}  // namespace iso
