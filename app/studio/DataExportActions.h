#pragma once
// File ▸ Export data and Save/Restore state for a window's simulation: the wavefield and the velocity
// model as .npy or .vti, the three slices on screen as .npy, the receivers' traces (CSV, .npy, SEG-Y),
// a wavefield series for ParaView, and checkpoints (core/Checkpoint.h). The compute thread hands over a
// copy of its state between batches (SimulationController::requestSnapshot) and the files are written
// and read on a thread of their own: the GUI never waits for either. A series takes u from the compute
// thread every k steps (SimulationController::setFieldTap) and writes it on the series writer's thread
// (core/VtiSeriesWriter.h); the run waits only while the writer is a few frames behind.
#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <thread>

#include "app/studio/SeismogramImage.h"
#include "core/Checkpoint.h"

class QAction;
class QWidget;

namespace iso {

class SimulationPane;
struct SimulationSnapshot;

class DataExportActions : public QObject {
  Q_OBJECT
 public:
  enum class Data { Wavefield, VelocityModel, Slices, Traces, Seismogram, State };

  // restore: called on the GUI thread with a checkpoint read from disk (the window shows its scenario
  // and hands it to its controller).
  DataExportActions(QWidget* window, SimulationPane* pane, std::function<void(Checkpoint)> restore);
  ~DataExportActions() override;  // waits for a file being written or read

  QList<QAction*> exportActions() const { return exportActions_; }  // every Data but State, and the series
  QAction* seriesAction() const { return seriesAction_; }
  QAction* saveStateAction() const { return saveState_; }
  QAction* restoreStateAction() const { return restoreState_; }

  // Without a dialog (the menu entries' work, and tests): .vti or .npy by the extension; Slices writes
  // path's stem + "_xy.npy", "_xz.npy", "_yz.npy"; Traces .csv or .npy; Seismogram
  // a PNG (SeismogramImage.h); State a checkpoint. Reports through finished().
  void exportTo(Data data, const QString& path);
  // How Seismogram draws (style, normalisation): the Traces tab's, so the file shows what the tab does.
  void setSeismogramLook(std::function<SeismogramOptions()> look) { seismogramLook_ = std::move(look); }
  void restoreFrom(const QString& path);
  // A wavefield series (the menu entry's work, and tests): u every `every` steps from the current step,
  // every stride-th point, into `folder` (wavefield_NNNNNN.vti and ParaView's wavefield.pvd). It runs
  // until stopSeries() or until the run it samples ends (a rebuild, reset, loop or restore); finished()
  // reports it once its last frame is written.
  void startSeries(const QString& folder, int every, int stride);
  void stopSeries();
  bool seriesRunning() const { return series_ != nullptr; }

 signals:
  void finished(bool ok, const QString& text);  // every export or restore, once its file is done
  void message(const QString& text, bool error);

 private:
  void ask(Data data);
  void askSeries();
  struct Series;
  void seriesDone(int id, long frames, double megabytes, const QString& error);
  // Runs `work` on the worker thread; its message (or its exception's) is reported through finished(),
  // and on success `then` runs on the GUI thread first. Refused while a previous one runs.
  void startWork(std::function<QString()> work, std::function<void()> then = {});
  void onSnapshot(Data data, const QString& path, std::shared_ptr<SimulationSnapshot> snapshot,
                  const QString& error);

  QWidget* window_;
  SimulationPane* pane_;
  std::function<void(Checkpoint)> restore_;
  QList<QAction*> exportActions_;
  QAction *saveState_ = nullptr, *restoreState_ = nullptr, *seriesAction_ = nullptr;
  std::shared_ptr<Series> series_;  // the series being written, until its writer has finished
  int seriesCount_ = 0;             // numbers the series, so a late report finds the one it belongs to
  std::thread worker_;
  // Shared with snapshot receivers on the compute thread: cleared when this object goes, so a late
  // snapshot finds nobody to deliver to.
  struct Link;
  std::shared_ptr<Link> link_;
  QString lastFolder_;
  std::function<SeismogramOptions()> seismogramLook_;
};

}  // namespace iso
