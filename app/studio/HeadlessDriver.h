#pragma once
// The command line's automation of a studio window, the same for the main window, the compare view and
// the benchmark panel: run to an end (the step asked for, or the last stage timed), then print what the
// window found, save the screenshot and the results, and quit with a status (0: everything written and
// every check passed, 1: otherwise); or record the view; a failure of an automated run quits with 1
// instead of waiting for a user. Each window's run function describes its window (a Target) and says
// when its run is built and when it has ended.
#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>

#include "app/studio/StudioOptions.h"

class QWidget;

namespace iso {

class RecordableView;
class RecordingSession;

// "iso3dfd-studio: text" on stderr.
void printStudioError(const QString& text);

class HeadlessDriver : public QObject {
 public:
  // What a run found at its end: lines for stdout, and the problems that fail it (stderr, status 1).
  struct Report {
    QStringList lines;
    QStringList problems;
  };

  struct Target {
    QWidget* window = nullptr;       // shown by exec; grabbed as a whole by --whole-window
    RecordableView* view = nullptr;  // drawn at the picture's size, and recorded (null: none, the panel)
    // Grabbed as it is on screen for a screenshot with the default picture (null: the view is drawn).
    QWidget* screenArea = nullptr;
    RecordingSession* recording = nullptr;   // the window's own, so that it shows as its Record button's
    std::function<double()> pointsComputed;  // grid points updated so far, over every solver (recording)
    std::function<Report()> conclude;        // at the end, before the outputs are written
    std::function<bool(const QString& path, QString& error)> writeResults;  // --json
    int settleMs = 0;  // from the end to concluding: e.g. the views painting the last step
  };

  HeadlessDriver(const StudioOptions& options, Target target);

  // With --screenshot: ends the run once the view holds options.steps (where the run function has the
  // run pause).
  void finishAtStep();
  // Ends the run: after settleMs, concludes, prints, writes the screenshot and the results, and quits.
  void finish();
  // Prints `message`; in an automated run, quits with status 1.
  void fail(const QString& message);
  // With --record: starts recording the view (call it once the run is built); quits with 0 once the
  // output is complete, printing what was written and how fast it went, or with 1 saying why not.
  void startRecording();
  // Shows the window, calls `play` and runs the event loop until the run ends; the exit status.
  int exec(const std::function<void()>& play);

 private:
  // Seconds since the recording started, and the grid points computed by then.
  struct Mark {
    double seconds = 0.0, points = 0.0;
  };
  // When the recording began, the run reached its first frame's step, and the last frame was taken.
  struct RecordingMarks {
    Mark start, first, last;
  };
  void conclude();
  void printRenderer() const;
  // What a finished recording wrote and how fast it went; `wall`: seconds from its start to its file's end.
  void printRecording(const RecordingSession& recording, const QString& file, double wall, const RecordingMarks& marks);
  bool saveScreenshot(QString& problem);

  const StudioOptions& options_;
  Target target_;
  bool ended_ = false;    // finish() or a failure: later ends are ignored
  bool recording_ = false;
};

}  // namespace iso
