#pragma once
// File ▸ Export data and Save/Restore state for a window's simulation: the wavefield and the velocity
// model as .npy or .vti, the three slices on screen as .npy, and checkpoints (core/Checkpoint.h). The
// compute thread hands over a copy of its state between batches (SimulationController::requestSnapshot)
// and the files are written and read on a thread of their own: the GUI never waits for either.
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

  QList<QAction*> exportActions() const { return exportActions_; }  // every Data but State
  QAction* saveStateAction() const { return saveState_; }
  QAction* restoreStateAction() const { return restoreState_; }

  // Without a dialog (the menu entries' work, and tests): .vti or .npy by the extension; Slices writes
  // path's stem + "_xy.npy", "_xz.npy", "_yz.npy"; Traces .csv or .npy; Seismogram
  // a PNG (SeismogramImage.h); State a checkpoint. Reports through finished().
  void exportTo(Data data, const QString& path);
  // How Seismogram draws (style, normalisation): the Traces tab's, so the file shows what the tab does.
  void setSeismogramLook(std::function<SeismogramOptions()> look) { seismogramLook_ = std::move(look); }
  void restoreFrom(const QString& path);

 signals:
  void finished(bool ok, const QString& text);  // every export or restore, once its file is done
  void message(const QString& text, bool error);

 private:
  void ask(Data data);
  // Runs `work` on the worker thread; its message (or its exception's) is reported through finished(),
  // and on success `then` runs on the GUI thread first. Refused while a previous one runs.
  void startWork(std::function<QString()> work, std::function<void()> then = {});
  void onSnapshot(Data data, const QString& path, std::shared_ptr<SimulationSnapshot> snapshot,
                  const QString& error);

  QWidget* window_;
  SimulationPane* pane_;
  std::function<void(Checkpoint)> restore_;
  QList<QAction*> exportActions_;
  QAction *saveState_ = nullptr, *restoreState_ = nullptr;
  std::thread worker_;
  // Shared with snapshot receivers on the compute thread: cleared when this object goes, so a late
  // snapshot finds nobody to deliver to.
  struct Link;
  std::shared_ptr<Link> link_;
  QString lastFolder_;
  std::function<SeismogramOptions()> seismogramLook_;
};

}  // namespace iso
