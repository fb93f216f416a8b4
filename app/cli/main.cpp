// iso3dfd: the command-line tool. It links no Qt, so it runs on a machine with only an OpenCL driver.
// Exit status: 0 success, 1 a run or a check failed, 2 the command line is wrong (nothing was run).
// Under mpirun every rank runs this program: the ranks share one grid (createSolver over processRanks()),
// and rank 0 prints the report and writes the files.
#include <cmath>
#include <cstdio>
#include <exception>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>

#include "app/cli/Commands.h"
#include "compute/ClError.h"
#include "compute/Stage.h"
#include "core/Communicator.h"
#include "core/TemporaryFiles.h"
#include "core/Version.h"
#include "mpi/MpiSession.h"

namespace {

using namespace iso::cli;

// The exit status of an error: a wrong command line (usage, scenario, a --device that names no device)
// or a failed run.
int exitStatusOf(const std::exception& e) {
  if (dynamic_cast<const UsageError*>(&e) || dynamic_cast<const iso::ScenarioError*>(&e)) return kUsageExit;
  if (const auto* c = dynamic_cast<const iso::ComputeError*>(&e))
    return c->status() == iso::ComputeStatus::UnknownDevice ? kUsageExit : kFailureExit;
  if (const auto* all = dynamic_cast<const iso::RanksFailed*>(&e)) {  // the failing rank's own error, nested
    try {
      std::rethrow_if_nested(*all);
    } catch (const std::exception& own) {
      return exitStatusOf(own);
    }
  }
  return kFailureExit;
}

// Under mpirun, rank 0 reports an error that every rank has (a wrong command line, a collective step
// that failed on some rank: RanksFailed), and every rank ends normally. An error of one rank alone
// (during the steps, while the others wait for it) is reported by that rank, and MPI_Abort ends all.
int reportError(const std::exception& e, const iso::MpiSession& mpi) {
  const auto ranks = mpi.ranks();
  const int status = exitStatusOf(e);
  if (!ranks || ranks->size() == 1) {
    std::fprintf(stderr, "iso3dfd: error: %s\n", e.what());
    return status;
  }
  const bool shared = dynamic_cast<const iso::RanksFailed*>(&e) || status == kUsageExit;
  if (shared) {
    if (ranks->rank() == 0) std::fprintf(stderr, "iso3dfd: error: %s\n", e.what());
    return status;
  }
  std::fprintf(stderr, "iso3dfd: error (rank %d of %d): %s\n", ranks->rank(), ranks->size(), e.what());
  std::fflush(stderr);
  mpi.abort(status);
}

// Every command's options and its subcommand, registered on one CLI::App: parse, then execute().
struct CommandLine {
  CLI::App app{"iso3dfd: 3D acoustic wave propagation with the 16th-order ISO3DFD stencil on CPUs and OpenCL devices"};
  ScenarioOptions runOpts, benchOpts, verifyOpts, tuneOpts, viewOpts;
  RunOptions run;
  BenchOptions bench;
  VerifyOptions verify;
  TuneOptions tune;
  ViewCostOptions viewCost;
  bool bandwidth = false, links = false;
  std::string rankHalos = "shared-memory";
  CLI::App *runCmd = nullptr, *benchCmd = nullptr, *verifyCmd = nullptr, *devicesCmd = nullptr, *stagesCmd = nullptr,
           *tuneCmd = nullptr, *viewCmd = nullptr;

  CommandLine() {
    app.require_subcommand(1);
    app.set_version_flag("--version", std::string("iso3dfd ") + iso::kProjectVersion, "print the version and exit");
    addRun();
    addBench();
    addVerify();
    addRankHalos();
    addDevicesAndStages();
    addTune();
    addViewCost();
  }
  // The chosen command's exit status.
  int execute() const;

 private:
  void addRun();
  void addBench();
  void addVerify();
  void addRankHalos();
  void addDevicesAndStages();
  void addTune();
  void addViewCost();
};

// run: one stage, its report and files.
void CommandLine::addRun() {
  runCmd = app.add_subcommand("run", "Run one stage and print time, throughput, flops and bytes");
  runOpts.addTo(*runCmd);
  runCmd->add_option("--dump", run.dump, "write the final field u^N: F.npy (interior, shape (n3,n2,n1)), or F.vti (VTK image data with the velocity, for ParaView)");
  runCmd->add_option("--traces", run.traces, "write the receivers' traces: .csv, .npy, or .sgy (a SEG-Y shot gather); needs --receiver");
  runCmd->add_option("--save-scenario", run.saveScenario, "write the scenario of this run as JSON");
  addSeriesOptions(*runCmd, run);
  runCmd->add_option("--dump-model", run.dumpModel, "write the velocity model (m/s): F.npy (shape (n3,n2,n1)) or F.vti");
  runCmd->add_option("--checkpoint", run.checkpoint,
                     "write the run's whole state (both time levels, model, scenario, step, traces) to F at the end; "
                     "`run N --restart F` continues it bit for bit (docs/FILES.md)");
  runCmd->add_option("--checkpoint-every", run.checkpointEvery, "with --checkpoint: also write it every k steps");
  runCmd->add_option("--restart", run.restart,
                     "continue the checkpoint F for the given steps (n1 n2 n3 N with F's grid, or N alone); "
                     "the scenario is F's, --stage/--device/--param may change how it runs");
}

// bench: every stage on one scenario.
void CommandLine::addBench() {
  benchCmd = app.add_subcommand("bench", "Run every available stage on one scenario and print a table "
                                               "(speed-ups, roofline share, difference to cpu-serial)");
  benchOpts.addTo(*benchCmd, false);
  benchCmd->add_option("--stages", bench.stages, "stages to run (default: all available)")->delimiter(',');
  benchCmd->add_option("--sizes", bench.sizes, "cubes n to time one after the other, e.g. 256,512,768 "
                                               "(instead of the scenario's grid)")->delimiter(',');
  benchCmd->add_flag("--tune", bench.tune, "tune the tunable OpenCL stages (gpu-slm, gpu-optimized, gpu-temporal) at "
                                           "each size first (stored in the tuning database, which the timed runs then use)");
  benchCmd->add_option("--repeat", bench.repeat, "timed chunks per stage; the median is reported")
      ->check(CLI::Range(1, 1000))->capture_default_str();
  benchCmd->add_option("--json", bench.json, "also write the report as JSON (schema: app/controller/BenchmarkReport.h)");
  benchCmd->add_option("--csv", bench.csv, "also write the report as CSV");
}

// verify: stages against cpu-serial or the exact solution.
void CommandLine::addVerify() {
  verifyCmd = app.add_subcommand("verify", "Run stages against cpu-serial and print their differences; "
                                                 "OpenCL buffers run inside NaN guard regions that are checked");
  verifyOpts.addTo(*verifyCmd, false);
  verifyCmd->add_option("--stage", verify.stages, "stages to check, or 'all'")->delimiter(',')->capture_default_str();
  verifyCmd->add_option("--tolerance", verify.tolerance,
                        "largest error that passes, for every stage (default: each stage's own; docs/NUMERICS.md)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            const double v = std::strtod(text.c_str(), nullptr);
            return std::isfinite(v) && v >= 0.0 ? "" : "the tolerance must be a finite number >= 0, got " + text;
          },
          "TOLERANCE >= 0"));
  verifyCmd->add_flag("--analytic", verify.analytic,
                      "check the stages against the exact solution of a point source in a constant medium instead "
                      "(receivers at 100, 200 and 300 m; the scenario's stage parameters and device apply)");
  verifyCmd->add_flag("--candidates", verify.candidates, "also check every tuning candidate of the tunable "
                                                         "OpenCL stages on the device");
  verifyCmd->add_option("--sweep", verify.sweeps, "check these parameter sets of the stages given that take their "
                                                  "keys instead: the products of \"key=v1,v2;key=v3\" over the "
                                                  "defaults (repeatable)");
}

// --rank-halos on the commands that run under mpirun: how the ranks of one host pass their halos.
void CommandLine::addRankHalos() {
  for (CLI::App* cmd : {runCmd, benchCmd, verifyCmd})
    cmd->add_option("--rank-halos", rankHalos,
                    "under mpirun, how ranks on one host pass their halo planes: shared-memory (an MPI-3 window "
                    "that the devices copy them into and out of directly) or messages (MPI_Isend/MPI_Irecv, as between hosts)")
        ->check(CLI::IsMember({"shared-memory", "messages"}))
        ->capture_default_str();
}

// devices and stages: what this machine has.
void CommandLine::addDevicesAndStages() {
  devicesCmd = app.add_subcommand("devices", "List OpenCL platforms and devices, and the stages available here");
  stagesCmd = app.add_subcommand("stages", "List every stage: its title, oneAPI sample, description and parameters");
  devicesCmd->add_flag("--bandwidth", bandwidth, "measure each device's copy bandwidth again (the roofline ceiling)");
  devicesCmd->add_flag("--links", links, "measure how fast planes move between every two devices: through page-locked "
                                         "host memory (what slabs use) and device to device in one context");
}

// tune: the tuning sweeps.
void CommandLine::addTune() {
  tuneCmd = app.add_subcommand("tune", "Sweep the tunable parameters of the OpenCL stages that have them "
                                             "(gpu-slm, gpu-optimized, gpu-temporal) on a device and grid; keep the best "
                                             "in the tuning database");
  tuneOpts.addTo(*tuneCmd, false);
  tuneCmd->add_option("--stage", tune.stages, "OpenCL stages to tune")->delimiter(',')->capture_default_str();
  tuneCmd->add_option("--steps", tune.steps, "timed steps per batch")->check(CLI::Range(1, 100000))->capture_default_str();
  tuneCmd->add_option("--repeats", tune.repeats, "timed batches; the median counts")->check(CLI::Range(1, 100))->capture_default_str();
  tuneCmd->add_flag("--dry-run", tune.dryRun, "time the candidates but leave the database as it is");
  tuneCmd->add_option("--sweep", tune.sweeps, "time the products of \"key=v1,v2;key=v3\" over the defaults as the "
                                              "candidates of the stages that take their keys (repeatable; the "
                                              "database stays as it is)");
  tuneCmd->add_flag("--ptxas", tune.ptxas, "print NVIDIA's ptxas report (registers, spills) of every "
                                           "candidate of the tuned stages");
  tuneCmd->add_option("--ptx-dir", tune.ptxDir, "with --ptxas: write each candidate's PTX into this folder");
}

// view-cost: what the live view costs the computation.
void CommandLine::addViewCost() {
  viewCmd = app.add_subcommand("view-cost", "Measure what the live view costs the computation: the "
                                                  "application's compute thread with a reader taking slices "
                                                  "at --fps, against the solver alone");
  viewOpts.addTo(*viewCmd);
  viewCmd->add_option("--seconds", viewCost.seconds, "measured seconds of each run")
      ->check(CLI::Range(0.5, 600.0))->capture_default_str();
  viewCmd->add_option("--fps", viewCost.fps, "slices taken per second")->check(CLI::Range(1.0, 1000.0))->capture_default_str();
  viewCmd->add_option("--steps-per-frame", viewCost.stepsPerFrame, "time steps per published frame")
      ->check(CLI::Range(1, 1000))->capture_default_str();
  viewCmd->add_option("--slice-path", viewCost.slicePath,
                      "ring: the solver writes each frame into a ring of host memory slots, standing in for the "
                      "studio's mapped GL buffers (1 host copy); host: the triple buffer, the reader copying each "
                      "frame (2 host copies)")
      ->check(CLI::IsMember({"ring", "host"}))
      ->capture_default_str();
  viewCmd->add_option("--mode", viewCost.mode,
                      "slices: the three planes; volume: with each frame an image of the whole field, ray-marched "
                      "on the solver's device (the host's cores for CPU stages)")
      ->check(CLI::IsMember({"slices", "volume"}))
      ->capture_default_str();
  viewCmd->add_option("--resolution", viewCost.resolution, "volume: the view's size in pixels, WxH")->capture_default_str();
  viewCmd->add_option("--image-scale", viewCost.imageScale, "volume: render at 1/S of the resolution")
      ->check(CLI::Range(1, 8))
      ->capture_default_str();
  viewCmd->add_option("--samples-per-cell", viewCost.samplesPerCell, "volume: samples along each ray per cell")
      ->check(CLI::Range(0.25, 8.0))
      ->capture_default_str();
  viewCmd->add_flag("--no-early-termination", viewCost.noEarlyTermination, "volume: march every ray to its end");
  viewCmd->add_flag("--context", viewCost.velocityContext, "volume: the velocity model's contrasts as a faint surface");
}

int CommandLine::execute() const {
  if (*runCmd) return runCommand(runOpts, run);
  if (*benchCmd) return benchCommand(benchOpts, bench);
  if (*verifyCmd) return verifyCommand(verifyOpts, verify);
  if (*devicesCmd) return devicesCommand(bandwidth, links);
  if (*stagesCmd) return stagesCommand();
  if (*tuneCmd) return tuneCommand(tuneOpts, tune);
  if (*viewCmd) return viewCostCommand(viewOpts, viewCost);
  return 0;
}

}  // namespace

int runProgram(int argc, char** argv, const iso::MpiSession& mpi);

int main(int argc, char** argv) {
  iso::TemporaryFiles::removeOnSignals();  // before any library installs handlers of its own
  iso::registerStages();  // before any option names or checks a stage
  std::optional<iso::MpiSession> mpi;
  try {
    mpi.emplace(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "iso3dfd: error: %s\n", e.what());
    return kFailureExit;
  }
  iso::setProcessRanks(mpi->ranks());
  const int status = runProgram(argc, argv, *mpi);
  iso::setProcessRanks(nullptr);  // the ranks go before MPI_Finalize (the session's end)
  return status;
}

int runProgram(int argc, char** argv, const iso::MpiSession& mpi) {
  const bool quiet = !iso::isReportingProcess();
  // Rank 0 prints the one report; the other ranks' standard output goes nowhere (errors still show).
  if (quiet && !std::freopen("/dev/null", "w", stdout)) {
    std::fprintf(stderr, "iso3dfd: error: cannot silence the standard output of a rank other than 0\n");
    return kFailureExit;
  }
  CommandLine cli;
  try {
    cli.app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return cli.app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return cli.app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return cli.app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (!quiet) cli.app.exit(e);  // prints CLI11's message
    return kUsageExit;
  }
  if (const auto ranks = mpi.ranks()) ranks->allowSharedMemory(cli.rankHalos == "shared-memory");
  try {
    return cli.execute();
  } catch (const std::bad_alloc&) {  // an allocation the memory checks did not foresee
    return reportError(std::runtime_error("out of memory: an allocation failed (free memory, the container's and the "
                                          "address-space limits); use a smaller grid or fewer outputs"), mpi);
  } catch (const std::exception& e) {
    return reportError(e, mpi);
  }
}
