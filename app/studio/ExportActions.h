#pragma once
// Record… (Ctrl+R) and Save image… (F12) for a window and the view it shows (its simulation pane, or the
// compare view's viewports together), for the window's menu and toolbar: the dialogs, the recording
// session, and while recording an indicator in the status bar (frames, duration, file size, the run
// waiting for the encoder) with a Stop button that finishes the file. Images are written on a thread of
// their own; nothing here blocks the GUI on the encoder or the disk.
#include <QObject>
#include <QString>
#include <QTimer>
#include <optional>
#include <thread>

#include "render/FrameTarget.h"

class QAction;
class QLabel;
class QMainWindow;
class QToolButton;
class QWidget;

namespace iso {

class RecordableView;
class RecordingSession;

class ExportActions : public QObject {
  Q_OBJECT
 public:
  // Adds the recording indicator to the window's status bar (hidden until a recording starts).
  // playAction: the window's checkable Play action, which Save image unchecks while its dialog is open.
  // It says what the user asked for: a recording checks it as it starts the run and unchecks it when
  // it leaves the run on its last frame, but not while it holds the run at each frame.
  ExportActions(QMainWindow* window, RecordableView* view, QAction* playAction);
  ~ExportActions() override;  // discards an unfinished recording, waits for an image being written

  QAction* recordAction() const { return record_; }
  QAction* saveImageAction() const { return saveImage_; }
  RecordingSession* recording() const { return session_; }

  // While a recording runs it plays and holds the run itself: the window's Play and Pause go through
  // steerRun (true: taken), and the window leaves its button alone when the run stops at a frame.
  bool steersRun() const;
  bool steerRun(bool playing);

 signals:
  void message(const QString& text, bool error);  // for the window's message panel

 private:
  void toggleRecording();  // the dialog, or Stop while recording
  void saveImage();
  // Draws the picture of the image being saved and writes it on a thread; the run goes on as it was.
  void takeImage();
  void onRecordingFinished(bool ok, const QString& text);
  void showRecording(bool on);
  void updateIndicator();

  QMainWindow* window_;
  RecordableView* view_;
  QAction* playAction_;
  RecordingSession* session_;
  QAction *record_ = nullptr, *saveImage_ = nullptr;
  QWidget* indicator_ = nullptr;
  QLabel* indicatorText_ = nullptr;
  QToolButton* stop_ = nullptr;
  QTimer indicatorTimer_;
  QString lastRecordPath_, lastImagePath_;
  std::thread imageWriter_;
  // An image asked for whose picture the view renders first (the volume view, at the image's size).
  struct PendingImage {
    ImageOptions options;
    QString path;
    bool resume = false;  // the run played before the dialog
    QMetaObject::Connection ready;
  };
  std::optional<PendingImage> pendingImage_;
  QTimer pendingTimeout_;
};

}  // namespace iso
