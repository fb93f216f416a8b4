// End-to-end tests of `iso3dfd`: what a user types, what a user reads.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/controller/BenchmarkReport.h"
#include "core/FieldCompare.h"
#include "core/Npy.h"
#include "tests/ScratchDir.h"
#include "tests/SanitizerBuild.h"
#include "tests/cli/CliRun.h"

namespace {

using Result = iso::test::CliResult;
using iso::test::runCli;

std::filesystem::path tempPath(const std::string& name) { return iso::test::scratchPath(name); }

// ‖a − b‖ / ‖a‖ of two fields written by --dump, by compareFields (infinite when their sizes differ, an
// entry is not finite or a is all zeros).
double relativeDifference(const std::filesystem::path& a, const std::filesystem::path& b) {
  const auto x = iso::readNpy(a.string()), y = iso::readNpy(b.string());
  if (x.data.size() != y.data.size() || iso::l2Norm(x.data) == 0.0) return INFINITY;
  const iso::FieldDifference d = iso::compareFields(y.data, x.data);
  return d.nonFinite > 0 ? INFINITY : d.relativeL2;
}

// Each command line exits with 2 and a message holding `phrase`, before anything runs.
struct UsageCase {
  std::string args, phrase;
};
void expectUsageErrors(const std::vector<UsageCase>& cases) {
  for (const auto& c : cases) {
    const Result r = runCli(c.args);
    EXPECT_EQ(r.status, 2) << c.args << " gave:\n" << r.output;
    EXPECT_NE(r.output.find(c.phrase), std::string::npos) << c.args << " gave:\n" << r.output;
    EXPECT_EQ(r.output.find("Running"), std::string::npos) << c.args << ": the run started";
  }
}

}  // namespace

TEST(Cli, HelpForEveryCommand) {
  for (const char* cmd : {"", "run", "bench", "verify", "devices", "stages", "tune", "view-cost"}) {
    const Result r = runCli(std::string(cmd) + " --help");
    EXPECT_EQ(r.status, 0) << cmd;
    EXPECT_NE(r.output.find("Usage"), std::string::npos) << cmd << ": " << r.output;
  }
}

TEST(Cli, ViewCostComparesTheControllerWithTheSolverAlone) {
  const Result r = runCli("view-cost 24 20 16 --stage cpu-serial --seconds 0.5 --fps 30");
  ASSERT_EQ(r.status, 0) << r.output;
  for (const char* key : {"cpu-serial", "24x20x16", "solver alone", "30 Hz reader", "frames/s delivered", "ratio"})
    EXPECT_NE(r.output.find(key), std::string::npos) << key << " missing in: " << r.output;
}

TEST(Cli, ViewCostOfTheVolumeViewSaysWhatTheRendererTook) {
  const Result r = runCli("view-cost 24 20 16 --stage cpu-parallel --seconds 0.5 --mode volume --resolution 96x60 --image-scale 2");
  ASSERT_EQ(r.status, 0) << r.output;
  for (const char* key : {"solver alone", "ratio", "volume image", "48x30", "ms per image on"})
    EXPECT_NE(r.output.find(key), std::string::npos) << key << " missing in: " << r.output;
  for (const char* bad : {"--resolution 96", "--resolution 0x10", "--resolution 96x60x2", "--image-scale 0"}) {
    const Result refused = runCli(std::string("view-cost 24 20 16 --stage cpu-serial --seconds 0.5 --mode volume ") + bad);
    EXPECT_EQ(refused.status, 2) << bad << ": " << refused.output;
  }
}

TEST(Cli, RunPrintsTheSampleFiguresAndOurTraffic) {
  const Result r = runCli("run 24 20 16 6 --scenario oneapi --coefficients oneapi --stage cpu-serial");
  ASSERT_EQ(r.status, 0) << r.output;
  for (const char* key : {"Grid Sizes: 24 20 16", "time", "throughput", "Mpts/s", "flops", "GBytes/s",
                          "16 B/pt", "cpu-serial"})
    EXPECT_NE(r.output.find(key), std::string::npos) << key << " missing in:\n" << r.output;
}

TEST(Cli, DumpWritesTheInteriorFieldInCOrder) {
  const auto file = tempPath("dump.npy");
  std::filesystem::remove(file);
  const Result r = runCli("run 19 13 11 5 --stage cpu-parallel --dump " + file.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const iso::NpyArray a = iso::readNpy(file.string());
  ASSERT_EQ(a.shape, (std::vector<std::size_t>{11, 13, 19}));
  double energy = 0.0;
  for (float v : a.data) {
    ASSERT_TRUE(std::isfinite(v));
    energy += double(v) * v;
  }
  EXPECT_GT(energy, 0.0) << "after 5 steps of a Ricker source the field is not zero";
}

TEST(Cli, TheBoundaryKindAndWidthAreOptions) {
  const auto file = tempPath("boundary.json");
  std::filesystem::remove(file);
  Result r = runCli("run 24 20 16 3 --boundary sponge --boundary-width 3 --save-scenario " + file.string());
  ASSERT_EQ(r.status, 0) << r.output;
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("\"kind\": \"sponge\""), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("\"width\": 3"), std::string::npos) << text.str();
  r = runCli("run 24 20 16 3 --boundary pml");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("absorbing"), std::string::npos) << "the message names the kinds: " << r.output;
}

TEST(Cli, SerialAndParallelDumpsAgree) {
  const auto a = tempPath("serial.npy"), b = tempPath("parallel.npy");
  ASSERT_EQ(runCli("run 21 17 13 8 --stage cpu-serial --dump " + a.string()).status, 0);
  ASSERT_EQ(runCli("run 21 17 13 8 --stage cpu-parallel --dump " + b.string()).status, 0);
  EXPECT_LE(relativeDifference(a, b), 1e-5);
}

TEST(Cli, TracesAreWrittenAsCsv) {
  const auto file = tempPath("traces.csv");
  std::filesystem::remove(file);
  const Result r = runCli("run 21 21 21 12 --stage cpu-parallel --receiver 3,10,10 --receiver 15,10,10 --traces " +
                          file.string());
  ASSERT_EQ(r.status, 0) << r.output;
  std::ifstream in(file);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) {
    if (lines++ == 0) {  // the user's two receivers replace the default scenario's line of receivers
      EXPECT_EQ(std::count(line.begin(), line.end(), ','), 2) << line;
    }
  }
  EXPECT_EQ(lines, 1 + 12) << "a header and one row per step";
}

TEST(Cli, VerifyPassesForTheCpuStages) {
  const Result r = runCli("verify 23 19 17 6 --stage cpu-parallel");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("ok"), std::string::npos) << r.output;
}

// The default length must end past the source's onset and before the absorbing layer has drained the
// field, where round-off alone makes the relative difference exceed the tolerance.
TEST(Cli, VerifyWithoutAnIterationCountPassesOnTheDefaultScenario) {
  const Result r = runCli("verify --stage cpu-parallel");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("verifying the first 500 of the scenario's"), std::string::npos) << r.output;
}

// 400 steps of the default scenario on 37 x 29 x 23: the absorbing layer has drained the field, and on
// its own scale u^400's round-off was 2-3e-4 for every stage; judged on the run's peak it passes.
TEST(Cli, VerifyPassesPastTheDrainedStateAndATighterToleranceFails) {
  const Result r = runCli("verify 37 29 23 400 --stage cpu-parallel");
  EXPECT_EQ(r.status, 0) << r.output;
  for (const char* key : {"ok", "error", "50, 100, 150, 200, 250, 300, 350, 400", "1e-05"})
    EXPECT_NE(r.output.find(key), std::string::npos) << key << " missing in:\n" << r.output;
  if (iso::test::kSanitizerBuild) return;  // there cpu-parallel computes cpu-serial's bits: no tolerance fails it
  const Result tight = runCli("verify 37 29 23 400 --stage cpu-parallel --tolerance 1e-12");
  EXPECT_EQ(tight.status, 1) << tight.output;
  EXPECT_NE(tight.output.find("FAIL"), std::string::npos) << tight.output;
}

// A sweep applies to the stages given that take its keys (here gpu-temporal, not gpu-basic, which runs
// as a user runs it), each set merged over the stage's defaults.
TEST(Cli, VerifyChecksSweptCandidatesInsideGuardRegions) {
  if (runCli("devices").output.find("No OpenCL") != std::string::npos) GTEST_SKIP() << "no OpenCL device";
  const Result r = runCli("verify 19 13 11 4 --stage gpu-basic,gpu-temporal --sweep \"tile_x=8,16\"");
  ASSERT_EQ(r.status, 0) << r.output;
  for (const char* key : {"gpu-basic", "wg_x=32", "gpu-temporal", " tile_x=8 ", " tile_x=16 ", "intact", "traces"})
    EXPECT_NE(r.output.find(key), std::string::npos) << key << " missing in:\n" << r.output;
  EXPECT_EQ(r.output.find("FAIL"), std::string::npos) << r.output;
}

TEST(Cli, BenchWritesJsonThatLoadsBackAndCsv) {
  const auto json = tempPath("bench.json"), csv = tempPath("bench.csv");
  const Result r = runCli("bench 24 20 16 6 --stages cpu-parallel,cpu-serial --repeat 2 --json " + json.string() +
                          " --csv " + csv.string());
  ASSERT_EQ(r.status, 0) << r.output;
  for (const char* key : {"xserial", "xprev", "relL2", "host memcpy bandwidth"})
    EXPECT_NE(r.output.find(key), std::string::npos) << key << " missing in:\n" << r.output;
  const iso::BenchmarkReport report = iso::readBenchmarkJson(json.string());
  ASSERT_EQ(report.rows.size(), 2u);
  EXPECT_EQ(report.rows[0].stage, "cpu-serial") << "the reference runs first";
  const iso::BenchmarkRow& parallel = report.rows[1];
  EXPECT_EQ(parallel.n1, 24);
  EXPECT_EQ(parallel.steps, 6);
  EXPECT_GT(parallel.throughput.mpts, 0.0);
  ASSERT_TRUE(parallel.difference.has_value());
  EXPECT_LE(parallel.difference->relativeL2, 1e-5);
  EXPECT_FALSE(report.date.empty());
  std::ifstream in(csv);
  int lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  EXPECT_EQ(lines, 3) << "a header and one line per stage";
}

TEST(Cli, BenchTimesEveryListedSize) {
  const auto json = tempPath("sizes.json");
  const Result r = runCli("bench 10 10 10 3 --stages cpu-serial --sizes 12,14 --repeat 1 --json " + json.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const iso::BenchmarkReport report = iso::readBenchmarkJson(json.string());
  ASSERT_EQ(report.rows.size(), 2u);
  EXPECT_EQ(report.rows[0].n1, 12);
  EXPECT_EQ(report.rows[1].n3, 14);
}

TEST(Cli, UsageErrorsExitWithTwoBeforeAnythingRuns) {
  const std::string model = tempPath("m.npy").string(), traces = tempPath("t.csv").string();
  const std::string missingFolder = tempPath("no-such-folder").string() + "/u.npy";
  const std::vector<UsageCase> cases = {
      {"verify 10 10 10 2 --tolerance nan", "tolerance"},
      {"verify 10 10 10 2 --tolerance -1", "tolerance"},
      {"run 10 10 10 2 --dump \"\"", "--dump needs a file name"},
      {"run 10 10 10 2 --stage cpu-serial --device gpu", "runs on the host CPU"},
      {"bench 10 10 10 2 --stages cpu-serial,cpu-parallel --device 0", "run on the host CPU"},
      {"run 10 10 10 2 --model-file " + model + " --dump " + model, "also an input"},
      {"run 10 10 10 2 --receiver 1,1,1 --traces " + traces + " --dump " + traces, "the same file"},
      {"bench 10 10 10 2 --json " + traces + " --csv " + traces, "the same file"},
      {"run 10 10 10 2 --scenario oneapi --traces " + traces, "needs at least one receiver"},
      {"run 10 10 10 2 --dump " + missingFolder, "does not exist"},
      {"run 10 10 10 2 --dump " + tempPath("").string(), "is a folder"},
      {"bench 10 10 10 2 --sizes 0", "--sizes"},
      {"tune 10 10 10 --stage cpu-serial", "only gpu-slm, gpu-optimized"},
      {"tune 10 10 10 --ptx-dir /tmp", "--ptx-dir goes with --ptxas"},
      {"tune 10 10 10 --stage gpu-slm --sweep \"y_per_item=1,2\"", "no OpenCL stage among gpu-slm takes"},
      {"verify 10 10 10 2 --stage cpu-serial", "nothing to verify"},
      {"run 10 10 10 2 --stage gpu-warp", "unknown stage"},
      {"run 10 10 10 2 --stage gpu-basic --device no-such-device-xyz", "no OpenCL device matches"},
      {"run --no-such-option", "no-such-option"},
      {"run --size 0,10,10 2", "--size 0,10,10: expected a cube N or n1,n2,n3"},
      {"run 10 10 10 2 --size 5,5,5", "give the grid once"},
      {"run 10 10 10 2 --dx 1 --dx 2", "--dx 1 and 2: give it once"},
      {"frobnicate", ""},
  };
  expectUsageErrors(cases);
  EXPECT_FALSE(std::filesystem::exists(traces)) << "no output of a refused command is written";
}

// The studio's spellings (shared by both programs: app/options) describe the same run as the older ones.
TEST(Cli, TheStudiosSpellingsDescribeTheSameRun) {
  const auto saved = [](const std::string& args) {
    const auto file = tempPath("spelling.json");
    std::filesystem::remove(file);
    const Result r = runCli("run " + args + " --save-scenario " + file.string());
    EXPECT_EQ(r.status, 0) << args << " gave:\n" << r.output;
    std::ifstream in(file);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  const std::string positional = saved("24 20 16 3 --scenario oneapi --stage cpu-parallel --param threads=2");
  ASSERT_NE(positional.find("\"n1\": 24"), std::string::npos) << positional;
  EXPECT_EQ(saved("--size 24,20,16 3 --preset oneapi --stage cpu-parallel --threads 2"), positional);
  EXPECT_EQ(saved("--size 16 3 --stage cpu-serial"), saved("16 16 16 3 --stage cpu-serial")) << "--size N is a cube";
}

// The tuner times a stage's own kernel: with the default scenario's perfectly matched layer it leaves the
// layer out (its kernels take no stage parameter) and says so; the sponge, part of the stencil, stays.
TEST(Cli, TuneTimesTheStageWithoutTheAbsorbingLayer) {
  if (runCli("devices").output.find("No OpenCL") != std::string::npos) GTEST_SKIP() << "no OpenCL device";
  const std::string note = "timed without the absorbing layer";
  Result r = runCli("tune 20 18 16 --stage gpu-slm --dry-run");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find(note), std::string::npos) << r.output;
  r = runCli("tune 20 18 16 --stage gpu-slm --dry-run --boundary sponge");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output.find(note), std::string::npos) << r.output;
}

// A sweep, like the tuner, gives its best as an entry of the shipped database, with the swept value in it.
TEST(Cli, TuneSweepPrintsItsBestAsAShippedEntry) {
  if (runCli("devices").output.find("No OpenCL") != std::string::npos) GTEST_SKIP() << "no OpenCL device";
  const Result r = runCli("tune 20 18 16 --stage gpu-slm --dry-run --steps 2 --repeats 1 --sweep \"tile_x=8\"");
  ASSERT_EQ(r.status, 0) << r.output;
  const std::size_t entry = r.output.find("shipped entry: ");
  ASSERT_NE(entry, std::string::npos) << r.output;
  const std::string line = r.output.substr(entry, r.output.find('\n', entry) - entry);
  for (const char* key : {"\"stage\":\"gpu-slm\"", "\"tile_x\":8"})
    EXPECT_NE(line.find(key), std::string::npos) << key << " in " << line;
}

TEST(Cli, AFailedRunKeepsTheOldOutput) {
  const auto dump = tempPath("kept.npy");
  ASSERT_EQ(runCli("run 9 9 9 2 --stage cpu-serial --dump " + dump.string()).status, 0);
  const auto before = std::filesystem::file_size(dump);
  // A grid too large for memory fails after the options were accepted; the old file stays whole.
  const Result r = runCli("run 8000 8000 8000 5 --dump " + dump.string());
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(std::filesystem::file_size(dump), before);
  EXPECT_EQ(iso::readNpy(dump.string()).shape, (std::vector<std::size_t>{9, 9, 9}));
}

TEST(Cli, BadInputGivesAClearErrorAndNonZeroStatus) {
  const std::vector<UsageCase> cases = {
      {"run 0 10 10 5", "n1"},
      {"run 10 10 10 5 --stage gpu-warp", "unknown stage"},
      {"run 10 10 10 5 --dt 1.0", "stability"},
      {"run 10 10 10 5 --receiver 50,1,1", "receiver"},
      {"run 10 10 10 5 --source-pos 1,1,99", "source"},
      {"run 10 10 10 5 --scenario /nonexistent/file.json", "/nonexistent/file.json"},
      {"run 10 10 10 5 --model-file /nonexistent/model.npy", "/nonexistent/model.npy"},
      {"run 10 10 10 5 --param tile_x", "key=integer"},
      {"run 8000 8000 8000 5", "memory"},
      {"frobnicate", ""},
  };
  for (const auto& c : cases) {
    const Result r = runCli(c.args);
    EXPECT_NE(r.status, 0) << c.args;
    EXPECT_NE(r.output.find(c.phrase), std::string::npos) << c.args << " gave:\n" << r.output;
  }
}

namespace {

std::string fileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// N steps in one run against a checkpoint after `cut` steps continued for the rest: the final field and
// every trace sample equal bit for bit. The default scenario's source still fires across the cut.
void expectRestartContinuesBitForBit(const std::string& stage) {
  const std::string grid = "31 27 23 ", common = " --stage " + stage + " --receiver 5,6,7 --receiver 20,13,11";
  const auto whole = tempPath("whole-" + stage + ".npy"), wholeTraces = tempPath("whole-" + stage + ".csv");
  const auto resumed = tempPath("resumed-" + stage + ".npy"), resumedTraces = tempPath("resumed-" + stage + ".csv");
  const auto state = tempPath("state-" + stage + ".ckp");
  for (const auto& f : {whole, wholeTraces, resumed, resumedTraces, state}) std::filesystem::remove(f);
  Result r = runCli("run " + grid + "70" + common + " --dump " + whole.string() + " --traces " + wholeTraces.string());
  ASSERT_EQ(r.status, 0) << r.output;
  r = runCli("run " + grid + "45" + common + " --checkpoint " + state.string() + " --checkpoint-every 20");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("state at step 20"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("state at step 45"), std::string::npos) << r.output;
  r = runCli("run " + grid + "25 --restart " + state.string() + " --dump " + resumed.string() + " --traces " +
             resumedTraces.string());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("u^70"), std::string::npos) << r.output;
  const std::string a = fileBytes(whole), b = fileBytes(resumed);
  ASSERT_GT(a.size(), 31u * 27 * 23 * 4);
  EXPECT_TRUE(a == b) << stage << ": the resumed field differs from the uninterrupted one";
  EXPECT_EQ(fileBytes(wholeTraces), fileBytes(resumedTraces)) << stage;
  double energy = 0.0;
  for (float v : iso::readNpy(whole.string()).data) energy += double(v) * v;
  EXPECT_GT(energy, 0.0);
}

}  // namespace

TEST(Cli, CheckpointAndRestartContinueBitForBitOnTheCpu) { expectRestartContinuesBitForBit("cpu-parallel"); }

TEST(Cli, CheckpointAndRestartContinueBitForBitOnOpenCl) {
  if (runCli("devices").output.find("No OpenCL") != std::string::npos) GTEST_SKIP() << "no OpenCL device";
  expectRestartContinuesBitForBit("gpu-optimized");
  // Two steps per pass: the checkpoint at step 45 falls after a single step, which the restart continues.
  expectRestartContinuesBitForBit("gpu-temporal");
}

// A checkpoint is one format for every stage: the CPU's absorbing-layer memory (kept in its own layout in
// memory) and the OpenCL stages' meet in PmlProfile::memoryDims's. Restarted on the other kind of stage at
// step 100, when the wave is deep in the layer (losing x's ψ alone there leaves a 4e-3 difference 30 steps
// on), the run continues as that stage's own uninterrupted one does, to rounding.
TEST(Cli, CheckpointsRestartOnTheOtherKindOfStage) {
  if (runCli("devices").output.find("No OpenCL") != std::string::npos) GTEST_SKIP() << "no OpenCL device";
  const std::string grid = "31 27 23 ";
  for (const auto& [from, to] : {std::pair{"cpu-parallel", "gpu-optimized"}, std::pair{"gpu-optimized", "cpu-parallel"}}) {
    const auto state = tempPath(std::string("across-") + from + ".ckp"), whole = tempPath(std::string("across-whole-") + to + ".npy"),
               resumed = tempPath(std::string("across-resumed-") + to + ".npy");
    for (const auto& f : {state, whole, resumed}) std::filesystem::remove(f);
    ASSERT_EQ(runCli("run " + grid + "100 --stage " + from + " --checkpoint " + state.string()).status, 0) << from;
    ASSERT_EQ(runCli("run " + grid + "130 --stage " + to + " --dump " + whole.string()).status, 0) << to;
    const Result r = runCli("run 30 --restart " + state.string() + " --stage " + to + " --dump " + resumed.string());
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_LE(relativeDifference(whole, resumed), 1e-5) << from << " restarted as " << to;
  }
}

TEST(Cli, RestartRefusesDamagedCheckpointsAndChangedPhysics) {
  const auto state = tempPath("refused.ckp");
  std::filesystem::remove(state);
  ASSERT_EQ(runCli("run 20 18 16 10 --stage cpu-parallel --checkpoint " + state.string()).status, 0);
  const auto size = std::filesystem::file_size(state);

  Result r = runCli("run 5 --restart " + state.string() + " --dx 5");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("--dx would change it"), std::string::npos) << r.output;
  r = runCli("run 21 18 16 5 --restart " + state.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("grid is 20 x 18 x 16"), std::string::npos) << r.output;
  r = runCli("run 5 --restart " + state.string() + " --dump " + state.string());
  EXPECT_EQ(r.status, 2) << r.output;

  {  // one flipped byte in the field data
    std::fstream f(state, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(std::streamoff(size - 100));
    f.put('\x7f');
  }
  r = runCli("run 5 --restart " + state.string());
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("checksum mismatch"), std::string::npos) << r.output;
  std::filesystem::resize_file(state, size / 2);
  r = runCli("run 5 --restart " + state.string());
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("truncated"), std::string::npos) << r.output;
}

TEST(Cli, DumpModelWritesTheVelocity) {
  const auto file = tempPath("model.npy");
  std::filesystem::remove(file);
  const Result r = runCli("run 19 13 11 2 --stage cpu-parallel --model constant --velocity 2345 --dump-model " + file.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const iso::NpyArray a = iso::readNpy(file.string());
  ASSERT_EQ(a.shape, (std::vector<std::size_t>{11, 13, 19}));
  for (float v : a.data) ASSERT_EQ(v, 2345.0f);
}

namespace {

// Peak resident memory (KiB) of `iso3dfd ARGS` (space-separated, no quoting), or -1 when it failed.
long peakMemoryKiB(const std::string& args) {
  std::vector<std::string> words{ISO3DFD_BINARY};
  std::istringstream in(args);
  for (std::string w; in >> w;) words.push_back(w);
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  std::fflush(nullptr);  // or the child would write this process's buffered output again
  const pid_t pid = fork();
  if (pid == 0) {
    std::freopen("/dev/null", "w", stdout);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  struct rusage usage {};
  if (pid < 0 || wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
  return usage.ru_maxrss;
}

}  // namespace

// A live view runs for hours: a run's memory must not grow with its length (no per-step events, logs
// or buffers kept). 10⁵ steps against 10³ on a 16³ grid without receivers (whose traces are the output
// and grow by 4 bytes per receiver and step by design).
TEST(Cli, MemoryStaysFlatOverALongRun) {
#if defined(__SANITIZE_ADDRESS__)
  // Measured: gpu-basic 194 → 569 MB over 10^5 steps under ASan, 189 → 195 MB with a 1 MB quarantine.
  GTEST_SKIP() << "AddressSanitizer holds freed memory in its quarantine (256 MB by default): peaks mean nothing here";
#endif
  std::vector<std::string> stages{"cpu-parallel"};
  if (runCli("devices").output.find("No OpenCL") == std::string::npos) stages.push_back("gpu-basic");
  for (const std::string& stage : stages) {
    // First a run that fills the kernel caches: compiling a kernel takes memory of its own.
    ASSERT_GT(peakMemoryKiB("run 16 16 16 10 --scenario oneapi --stage " + stage), 0) << stage;
    const long shortRun = peakMemoryKiB("run 16 16 16 1000 --scenario oneapi --stage " + stage);
    const long longRun = peakMemoryKiB("run 16 16 16 100000 --scenario oneapi --stage " + stage);
    ASSERT_GT(shortRun, 0) << stage;
    ASSERT_GT(longRun, 0) << stage;
    std::printf("%s: peak %ld KiB after 10^3 steps, %ld KiB after 10^5\n", stage.c_str(), shortRun, longRun);
    EXPECT_LE(longRun - shortRun, 3 * 1024) << stage << ": more than 3 MiB of growth";
  }
}

TEST(Cli, StagesListsEveryStageWithItsParameters) {
  const Result r = runCli("stages");
  ASSERT_EQ(r.status, 0) << r.output;
  for (const char* stage : {"cpu-serial —", "cpu-parallel —", "gpu-basic —", "gpu-slm —", "gpu-optimized —"})
    EXPECT_NE(r.output.find(stage), std::string::npos) << stage << "\n" << r.output;
  EXPECT_NE(r.output.find("--param tile_x=N"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--param block_x=N"), std::string::npos) << r.output;
}

TEST(Cli, VersionComesFromTheProject) {
  const Result r = runCli("--version");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output.rfind("iso3dfd ", 0), 0u) << r.output;
  EXPECT_NE(r.output.find('.'), std::string::npos) << r.output;  // "iso3dfd MAJOR.MINOR.PATCH"
}

TEST(Cli, SeriesAndSegyOptionsAreCheckedBeforeAnythingRuns) {
  const std::string file = tempPath("series-is-a-file").string();
  std::ofstream(file) << "x";
  const std::string folder = tempPath("series-unused").string(), shot = tempPath("refused.sgy").string();
  const std::vector<UsageCase> cases = {
      {"run 10 10 10 2 --dump-every 0 " + folder, "K must be a whole number of steps >= 1"},
      {"run 10 10 10 2 --dump-every x " + folder, "K must be a whole number"},
      {"run 10 10 10 2 --dump-every 1 " + file, "is a file, not a folder"},
      {"run 10 10 10 2 --dump-every 1 " + tempPath("no-such-parent").string() + "/series", "does not exist"},
      {"run 10 10 10 2 --dump-every 1 \"\"", "needs a folder name"},
      {"run 10 10 10 2 --dump-stride 2", "--dump-stride needs --dump-every"},
      {"run 10 10 10 2 --dump-every 1 " + folder + " --dump-stride 0", "--dump-stride must be >= 1"},
      {"run 10 10 10 40000 --receiver 1,1,1 --traces " + shot, "1 to 32767 samples per trace, not 40001"},
  };
  expectUsageErrors(cases);
  EXPECT_FALSE(std::filesystem::exists(folder)) << "no folder of a refused command is made";
  EXPECT_FALSE(std::filesystem::exists(shot));
}

// The series keeps three frames of u in memory besides the solver's arrays; where the memory left after
// the solver cannot hold them the run is refused before its first step, naming the series. The address
// space is limited (`ulimit -v`, which the memory check counts) in steps of half a frame from below what
// the solver needs until the run goes through: on the way, one limit lets the solver in and not the series.
TEST(Cli, ASeriesThatDoesNotFitBesideTheSolverIsRefused) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a sanitizer's shadow memory does not start under an address-space limit";
#else
  const std::string folder = tempPath("series-too-big").string();
  const std::size_t frameKiB = std::size_t(256) * 256 * 256 * 4 / 1024;  // 64 MiB per frame of u
  const std::string command = "run 256 256 256 1 --stage cpu-serial --boundary reflecting --dump-every 1 " + folder;
  bool seriesRefused = false, ran = false;
  for (std::size_t limit = 4 * frameKiB; limit <= 40 * frameKiB && !ran; limit += frameKiB / 2) {
    const Result r = runCli(command, "ulimit -v " + std::to_string(limit) + ";");
    ASSERT_TRUE(r.status == 0 || r.status == 1 || r.status == 2) << "limit " << limit << " KiB: " << r.output;
    EXPECT_EQ(r.output.find("bad_alloc"), std::string::npos) << "limit " << limit << " KiB: " << r.output;
    // (A named allocation may still fail where the check's margin is thin: "cannot allocate <what>".)
    EXPECT_EQ(r.output.find("an allocation failed"), std::string::npos) << "an allocation no check foresaw, limit "
                                                                        << limit << " KiB: " << r.output;
    if (r.output.find("--dump-every: the wavefield series (three frames of u in memory at once) needs") != std::string::npos) {
      seriesRefused = true;
      EXPECT_NE(r.output.find("address-space limit"), std::string::npos) << r.output;
      EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(folder) / "u_000000.vti")) << "refused before a frame";
    }
    ran = r.status == 0;
  }
  EXPECT_TRUE(ran) << "no limit up to 2.5 GiB of address space let the run through";
  EXPECT_TRUE(seriesRefused) << "no limit admitted the solver but not the series";
#endif
}

// The run's throughput with the series is measured and printed; every frame's file is listed in the
// collection with its time (python.VtiSeriesReadByVtk reads the values back through VTK).
TEST(Cli, DumpEveryWritesASeriesAndSaysWhatItCost) {
  const auto folder = tempPath("cli-series");
  const Result r = runCli("run 21 17 13 9 --stage cpu-parallel --dt 0.0005 --dump-every 4 " + folder.string());
  ASSERT_EQ(r.status, 0) << r.output;
  for (const char* step : {"000000", "000004", "000008"})
    EXPECT_TRUE(std::filesystem::exists(folder / ("wavefield_" + std::string(step) + ".vti"))) << step;
  EXPECT_FALSE(std::filesystem::exists(folder / "wavefield_000009.vti"));
  std::ifstream in(folder / "wavefield.pvd");
  const std::string pvd((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const char* entry : {"timestep=\"0\"", "timestep=\"0.002\"", "timestep=\"0.0040000000000000001\""})
    EXPECT_NE(pvd.find(entry), std::string::npos) << entry << " missing in:\n" << pvd;
  for (const char* key : {"wrote 3 frames", "with the series: 9 steps in", "Mpts/s", "waiting for the writer"})
    EXPECT_NE(r.output.find(key), std::string::npos) << key << " missing in:\n" << r.output;
}
