#include "app/studio/DataExportActions.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QWidget>
#include <mutex>

#include "app/controller/SimulationController.h"
#include "app/studio/SimulationPane.h"
#include "app/studio/SeismogramImage.h"
#include "app/studio/SeriesDialog.h"
#include "app/studio/ViewImage.h"
#include "core/Npy.h"
#include "core/Traces.h"
#include "core/VtiSeriesWriter.h"
#include "core/VtiWriter.h"
#include "render/SliceView.h"

namespace iso {

struct DataExportActions::Link {
  std::mutex mutex;
  DataExportActions* target = nullptr;
};

struct DataExportActions::Series {
  int id = 0;
  int every = 0;
  std::unique_ptr<VtiSeriesWriter> writer;
  std::mutex mutex;
  std::string refused;  // why the compute thread could not queue a frame (set there), reported at the end
};

namespace {

struct DataKind {
  const char* menuText;
  const char* tip;
  const char* suggestedName;
  const char* filters;
};

DataKind kindOf(DataExportActions::Data data) {
  switch (data) {
    case DataExportActions::Data::Wavefield:
      return {"Export &wavefield…", "The current wavefield u (interior cells) as NumPy .npy, or as VTK image data (.vti, "
                                    "with the velocity, spacing in metres) for ParaView",
              "wavefield-step%1.vti", "VTK image data (*.vti);;NumPy array (*.npy)"};
    case DataExportActions::Data::VelocityModel:
      return {"Export velocity &model…", "The velocity model (m/s) as NumPy .npy or VTK image data (.vti)",
              "velocity.vti", "VTK image data (*.vti);;NumPy array (*.npy)"};
    case DataExportActions::Data::Slices:
      return {"Export &slices…", "The three slices on screen as NumPy arrays: NAME_xy.npy (n2, n1), NAME_xz.npy (n3, n1), "
                                 "NAME_yz.npy (n3, n2)",
              "slices-step%1.npy", "NumPy arrays (*.npy)"};
    case DataExportActions::Data::Traces:
      return {"Export &traces…", "The receivers' samples since step 0: CSV (time and one column per receiver), NumPy "
                                 ".npy of shape (samples, receivers), or a SEG-Y shot gather (.sgy) for seismic software",
              "traces-step%1.csv", "CSV (*.csv);;NumPy array (*.npy);;SEG-Y shot gather (*.sgy *.segy)"};
    case DataExportActions::Data::Seismogram:
      return {"Export seis&mogram…", "The receivers' traces as an image (PNG): time down, one band per receiver",
              "seismogram-step%1.png", "PNG images (*.png)"};
    case DataExportActions::Data::State:
      return {"Save s&tate…", "Everything the run continues from (both time levels, model, scenario, step, traces) in "
                              "one checkpoint file; Restore state continues it bit for bit on the same stage",
              "state-step%1.ckp", "Checkpoints (*.ckp)"};
  }
  return {};
}

std::vector<float> interiorOf(const Grid& g, const std::vector<float>& padded) {
  std::vector<float> interior;
  interior.reserve(g.interiorSize());
  for (int k = 0; k < g.n3; ++k)
    for (int j = 0; j < g.n2; ++j) {
      const float* row = padded.data() + g.interiorIndex(0, j, k);
      interior.insert(interior.end(), row, row + g.n1);
    }
  return interior;
}

bool isVti(const QString& path) { return path.endsWith(".vti", Qt::CaseInsensitive); }

void writeGrid(const QString& path, const char* name, const std::vector<float>& values, const SimulationSnapshot& s,
               bool withVelocity) {
  const Scenario& sc = s.scenario;
  if (isVti(path)) {
    VtiImage image{{sc.n1, sc.n2, sc.n3}, {s.dx, s.dx, s.dx}, {0, 0, 0}, {{name, values}}};
    if (withVelocity) image.arrays.push_back({"velocity (m/s)", s.velocity});
    writeVti(path.toStdString(), image);
  } else {
    writeNpy(path.toStdString(), values.data(), {std::size_t(sc.n3), std::size_t(sc.n2), std::size_t(sc.n1)});
  }
}

}  // namespace

DataExportActions::DataExportActions(QWidget* window, SimulationPane* pane, std::function<void(Checkpoint)> restore)
    : QObject(window), window_(window), pane_(pane), restore_(std::move(restore)), link_(std::make_shared<Link>()) {
  link_->target = this;
  for (Data data : {Data::Wavefield, Data::VelocityModel, Data::Slices, Data::Traces, Data::Seismogram}) {
    const DataKind kind = kindOf(data);
    QAction* action = new QAction(kind.menuText, this);
    action->setToolTip(kind.tip);
    action->setStatusTip(kind.tip);
    connect(action, &QAction::triggered, this, [this, data] { ask(data); });
    exportActions_.push_back(action);
  }
  saveState_ = new QAction(kindOf(Data::State).menuText, this);
  saveState_->setToolTip(kindOf(Data::State).tip);
  saveState_->setStatusTip(kindOf(Data::State).tip);
  connect(saveState_, &QAction::triggered, this, [this] { ask(Data::State); });
  seriesAction_ = new QAction("Wavefield se&ries…", this);
  seriesAction_->setToolTip("Write u every k steps as VTK image data with a ParaView collection (.pvd) carrying the times: "
                            "ParaView opens the run as an animation");
  seriesAction_->setStatusTip(seriesAction_->toolTip());
  connect(seriesAction_, &QAction::triggered, this, [this] { series_ ? stopSeries() : askSeries(); });
  exportActions_.push_back(seriesAction_);
  restoreState_ = new QAction("&Restore state…", this);
  restoreState_->setToolTip("Continue a run saved with Save state (or iso3dfd run --checkpoint) from its step");
  restoreState_->setStatusTip(restoreState_->toolTip());
  connect(restoreState_, &QAction::triggered, this, [this] {
    const QString path = QFileDialog::getOpenFileName(window_, "Restore state", lastFolder_, "Checkpoints (*.ckp);;All files (*)");
    if (path.isEmpty()) return;
    lastFolder_ = QFileInfo(path).absolutePath();
    restoreFrom(path);
  });
}

DataExportActions::~DataExportActions() {
  {
    std::lock_guard lock(link_->mutex);
    link_->target = nullptr;
  }
  if (worker_.joinable()) worker_.join();
}

void DataExportActions::ask(Data data) {
  const DataKind kind = kindOf(data);
  const QString name = QString(kind.suggestedName).contains("%1") ? QString(kind.suggestedName).arg(pane_->shownStep())
                                                                    : QString(kind.suggestedName);
  const QString folder = lastFolder_.isEmpty() ? QDir::homePath() : lastFolder_;
  const QString path = QFileDialog::getSaveFileName(window_, QString(kind.menuText).remove('&').remove(QChar(0x2026)),
                                                    QDir(folder).filePath(name), kind.filters);
  if (path.isEmpty()) return;
  lastFolder_ = QFileInfo(path).absolutePath();
  exportTo(data, path);
}

void DataExportActions::exportTo(Data data, const QString& path) {
  if (data == Data::Slices) {
    const std::shared_ptr<const SliceSet> slices = pane_->view()->slices();
    if (!slices) {
      emit finished(false, "No slices to export yet");
      return;
    }
    startWork([slices, path] {
      const QString stem = QFileInfo(path).dir().filePath(QFileInfo(path).completeBaseName());
      const auto n = [](int v) { return std::size_t(v); };
      writeNpy((stem + "_xy.npy").toStdString(), slices->xy.data(), {n(slices->n2), n(slices->n1)});
      writeNpy((stem + "_xz.npy").toStdString(), slices->xz.data(), {n(slices->n3), n(slices->n1)});
      writeNpy((stem + "_yz.npy").toStdString(), slices->yz.data(), {n(slices->n3), n(slices->n2)});
      return QStringLiteral("Saved the slices of step %1 through cell (%2, %3, %4) as %5_xy/_xz/_yz.npy")
          .arg(slices->step).arg(slices->i).arg(slices->j).arg(slices->k).arg(stem);
    });
    return;
  }
  // The copy is taken between two batches on the compute thread and comes back here.
  pane_->controller().requestSnapshot([link = link_, data, path](std::optional<SimulationSnapshot> snapshot,
                                                                 std::string error) {
    auto shared = snapshot ? std::make_shared<SimulationSnapshot>(std::move(*snapshot)) : nullptr;
    std::lock_guard lock(link->mutex);
    if (!link->target) return;
    DataExportActions* target = link->target;
    QMetaObject::invokeMethod(
        target, [target, data, path, shared, message = QString::fromStdString(error)] { target->onSnapshot(data, path, shared, message); },
        Qt::QueuedConnection);
  });
}

void DataExportActions::onSnapshot(Data data, const QString& path, std::shared_ptr<SimulationSnapshot> snapshot,
                                   const QString& error) {
  if (!snapshot) {
    emit finished(false, "Nothing exported: " + error);
    emit message("Nothing exported: " + error, true);
    return;
  }
  const SeismogramOptions look = seismogramLook_ ? seismogramLook_() : SeismogramOptions{};
  startWork([data, path, snapshot, look] {
    const SimulationSnapshot& s = *snapshot;
    const Grid grid(s.scenario.n1, s.scenario.n2, s.scenario.n3);
    const QString step = QString::number(s.state.step);
    switch (data) {
      case Data::Wavefield:
        writeGrid(path, "u", interiorOf(grid, s.state.current), s, true);
        return "Saved the wavefield u^" + step + " to " + path;
      case Data::VelocityModel:
        writeGrid(path, "velocity (m/s)", s.velocity, s, false);
        return "Saved the velocity model to " + path;
      case Data::State: {
        Scenario scenario = s.scenario;
        scenario.steps = int(s.state.step);
        saveCheckpoint(path.toStdString(), {scenario, s.velocity, s.state});
        return "Saved the state at step " + step + " (" + QString::fromStdString(s.stage) + ") to " + path;
      }
      case Data::Traces: {
        const auto& receivers = s.scenario.receivers;
        if (receivers.empty()) throw std::runtime_error("the scenario has no receivers: nothing to export");
        const std::string file = path.toStdString();
        const bool segy = traceFormatOf(file) == TraceFormat::Segy;  // its traces start with u^0 at t = 0
        const std::vector<float> initial = segy ? initialReceiverValues(s.scenario, s.velocity) : std::vector<float>();
        QString text = QStringLiteral("Saved %1 traces of %2 samples to %3")
                           .arg(receivers.size()).arg(s.state.step + (segy ? 1 : 0)).arg(path);
        for (const std::string& note : saveTraces(file, s.state.traces, s.scenario, s.dt, initial))
          text += "; " + QString::fromStdString(note);
        return text;
      }
      case Data::Seismogram: {
        if (s.scenario.receivers.empty()) throw std::runtime_error("the scenario has no receivers: no seismogram");
        if (s.state.step == 0) throw std::runtime_error("no samples yet: run the simulation first");
        SeismogramOptions options = withOffsetsOf(look, s.scenario);  // the whole record, at its own size
        options.firstSample = 0;
        options.size = {};
        const QImage image = seismogramImage(s.state.traces, s.scenario.receivers, s.dt,
                                             QString::fromStdString(s.scenario.name + " · " + s.stage) + " · step " + step, options);
        QString problem;
        if (!writeImageFile(image, path, problem)) throw std::runtime_error(problem.toStdString());
        return "Saved the seismogram of " + QString::number(s.scenario.receivers.size()) + " receivers to " + path;
      }
      case Data::Slices: break;
    }
    return QString();
  });
}

void DataExportActions::askSeries() {
  const ControllerStatus status = pane_->controller().status();
  if (!status.hasSolver) {
    emit message("No simulation is running: nothing to write", true);
    return;
  }
  const QString folder = lastFolder_.isEmpty() ? QDir::homePath() : lastFolder_;
  SeriesDialog dialog(QDir(folder).filePath(QStringLiteral("wavefield-series-step%1").arg(pane_->shownStep())),
                      {status.grid.n1, status.grid.n2, status.grid.n3}, window_);
  if (dialog.exec() != QDialog::Accepted) return;
  lastFolder_ = QFileInfo(dialog.folder()).absolutePath();
  startSeries(dialog.folder(), dialog.every(), dialog.stride());
}

void DataExportActions::startSeries(const QString& folder, int every, int stride) {
  if (series_) {
    emit finished(false, "A wavefield series is being written already");
    return;
  }
  const ControllerStatus status = pane_->controller().status();
  if (!status.hasSolver) {
    emit finished(false, "No simulation is running: nothing to write");
    return;
  }
  auto series = std::make_shared<Series>();
  series->id = ++seriesCount_;
  series->every = every;
  const auto done = [link = link_, id = series->id](const SeriesStats& stats, std::exception_ptr error) {
    QString problem;
    try {
      if (error) std::rethrow_exception(error);
    } catch (const std::exception& e) {
      problem = QString::fromStdString(e.what());
    }
    std::lock_guard lock(link->mutex);
    if (DataExportActions* target = link->target)
      QMetaObject::invokeMethod(
          target, [target, id, frames = stats.frames, mb = double(stats.bytes) / (1024.0 * 1024.0), problem] { target->seriesDone(id, frames, mb, problem); },
          Qt::QueuedConnection);
  };
  try {
    const Grid& g = status.grid;
    const SeriesGeometry geometry{{g.n1, g.n2, g.n3}, status.dx, stride};
    series->writer = std::make_unique<VtiSeriesWriter>(folder.toStdString(), geometry, VtiSeriesWriter::defaultCapacity(geometry), done);
  } catch (const std::exception& e) {
    emit finished(false, "No series written: " + QString::fromStdString(e.what()));
    emit message("No series written: " + QString::fromStdString(e.what()), true);
    return;
  }
  series_ = series;
  pane_->controller().setFieldTap(
      {every,
       [series](long step, double time, std::vector<float> field) {
         try {
           series->writer->push(step, time, std::move(field));  // waits while the writer's queue is full
           return true;
         } catch (const std::exception& e) {  // the writer's own error reaches its report anyway
           std::lock_guard lock(series->mutex);
           series->refused = e.what();
           return false;
         }
       },
       [series] { series->writer->close(); }});
  seriesAction_->setText("Stop the wavefield se&ries");
  emit message(QStringLiteral("Writing u every %1 steps to %2 (File ▸ Export data ▸ Stop the wavefield series ends it)")
                   .arg(every).arg(folder),
               false);
}

void DataExportActions::stopSeries() {
  if (!series_) return;
  pane_->controller().setFieldTap({});  // the tap goes, the writer writes what it holds and reports
  seriesAction_->setEnabled(false);
  seriesAction_->setText("Finishing the wavefield series…");
}

void DataExportActions::seriesDone(int id, long frames, double megabytes, const QString& error) {
  if (!series_ || series_->id != id) return;
  QString problem = error;
  {
    std::lock_guard lock(series_->mutex);
    if (problem.isEmpty()) problem = QString::fromStdString(series_->refused);
  }
  const QString collection = QString::fromStdString(series_->writer->collectionPath());
  const int every = series_->every;
  series_.reset();  // its writer's thread has ended
  seriesAction_->setEnabled(true);
  seriesAction_->setText("Wavefield se&ries…");
  const QString text = QStringLiteral("%1 frames of u (every %2 steps, %3 MB) in %4")
                           .arg(frames).arg(every).arg(megabytes, 0, 'f', 1).arg(collection);
  if (!problem.isEmpty()) {
    emit message("The wavefield series stopped: " + problem + "; " + text, true);
    emit finished(false, "The wavefield series stopped: " + problem + "; " + text);
    return;
  }
  emit message("Saved " + text, false);
  emit finished(true, "Saved " + text);
}

void DataExportActions::restoreFrom(const QString& path) {
  auto loaded = std::make_shared<Checkpoint>();
  startWork(
      [loaded, path] {
        *loaded = loadCheckpoint(path.toStdString());
        return QStringLiteral("Restored step %1 of '%2' (%3) from %4")
            .arg(loaded->state.step)
            .arg(QString::fromStdString(loaded->scenario.name), QString::fromStdString(loaded->scenario.stage), path);
      },
      [this, loaded] { restore_(std::move(*loaded)); });
}

void DataExportActions::startWork(std::function<QString()> work, std::function<void()> then) {
  if (worker_.joinable()) {
    emit finished(false, "A file is still being written; try again when it is done");
    emit message("A file is still being written; try again when it is done", true);
    return;
  }
  worker_ = std::thread([this, work = std::move(work), then = std::move(then)] {
    bool ok = true;
    QString text;
    try {
      text = work();
    } catch (const std::exception& e) {
      ok = false;
      text = QString::fromStdString(e.what());
    }
    QMetaObject::invokeMethod(this, [this, ok, text, then] {
      worker_.join();
      if (ok && then) then();
      emit message(text, !ok);
      emit finished(ok, text);
    }, Qt::QueuedConnection);
  });
}

}  // namespace iso
