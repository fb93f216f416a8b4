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
#include "app/studio/ViewImage.h"
#include "core/Npy.h"
#include "core/Traces.h"
#include "core/VtiWriter.h"
#include "render/SliceView.h"

namespace iso {

struct DataExportActions::Link {
  std::mutex mutex;
  DataExportActions* target = nullptr;
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
      return {"Export &traces…", "The receivers' samples since step 0: CSV (time and one column per receiver) or NumPy "
                                 ".npy of shape (samples, receivers)",
              "traces-step%1.csv", "CSV (*.csv);;NumPy array (*.npy)"};
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
        if (path.endsWith(".npy", Qt::CaseInsensitive))
          saveTracesNpy(path.toStdString(), s.state.traces, receivers.size());
        else
          saveTracesCsv(path.toStdString(), s.state.traces, receivers, s.dt);
        return QStringLiteral("Saved %1 traces of %2 samples to %3").arg(receivers.size()).arg(step, path);
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
