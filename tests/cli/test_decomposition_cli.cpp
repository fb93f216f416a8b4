// The grid cut into slabs, end to end: `--device cpu,cpu` (two slabs on PoCL in one process) and
// `mpirun -np 2 | 3` (uneven slabs) with cpu-parallel, gpu-basic and gpu-optimized, for both absorbing
// boundaries, with receivers on and next to the cuts, write --dump and --traces files identical byte for
// byte to a run on one device; `-np 4` and `-np 8` too (cpu-parallel), and halos through shared memory
// (the default on one host) or as messages. Rank 0 prints the one report.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "tests/ScratchDir.h"
#include "tests/cli/CliRun.h"

namespace {

using iso::test::CliResult;
using iso::test::runCli;

std::string fileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// mpirun as CI runs it (as root, two cores): any number of ranks on this host.
std::string mpirun(int ranks) {
#ifdef ISO_TESTS_HAVE_MPI
  return std::string("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 ") +
         ISO_MPIEXEC + " --oversubscribe -np " + std::to_string(ranks);
#else
  (void)ranks;
  return "";
#endif
}

#define ISO_REQUIRE_MPI()                                                                                  \
  do {                                                                                                     \
    if (mpirun(1).empty()) FAIL() << "this build has no MPI: install libopenmpi-dev (scripts/setup.sh)";  \
  } while (0)

bool haveOpenCl() { return runCli("devices").output.find("No OpenCL") == std::string::npos; }

// 36 planes: cut at 18 by two ranks, at 12 and 24 by three; receivers on both sides of every cut, the
// source (the grid's centre) on the first plane of a slab.
std::string scenarioArgs(const std::string& stage, const std::string& boundary) {
  std::string args = "run 27 19 36 16 --stage " + stage + " --boundary " + boundary + " --boundary-width 9";
  for (const char* r : {"3,4,11", "3,4,12", "20,9,17", "20,9,18", "5,17,23", "5,17,24", "13,9,30"})
    args += std::string(" --receiver ") + r;
  if (stage == "cpu-parallel") args += " --param threads=1";  // ranks share two cores
  return args;
}

struct Files {
  std::string dump, traces;
};

Files runAndRead(const std::string& args, const std::string& prefix, const std::string& name) {
  const auto dump = iso::test::scratchPath(name + ".npy"), traces = iso::test::scratchPath(name + ".csv");
  std::filesystem::remove(dump);
  std::filesystem::remove(traces);
  const CliResult r = runCli(args + " --dump " + dump.string() + " --traces " + traces.string(), prefix);
  EXPECT_EQ(r.status, 0) << prefix << " " << args << "\n" << r.output;
  return {fileBytes(dump), fileBytes(traces)};
}

void expectSameFiles(const Files& one, const Files& cut, const std::string& what) {
  ASSERT_FALSE(one.dump.empty()) << what << ": the single device's dump";
  EXPECT_TRUE(one.dump == cut.dump) << what << ": --dump differs from one device's";
  EXPECT_TRUE(one.traces == cut.traces) << what << ": --traces differs from one device's";
}

class RanksGiveOneDevicesBits : public ::testing::TestWithParam<std::string> {};

TEST_P(RanksGiveOneDevicesBits, TwoAndThreeRanksForBothBoundaries) {
  ISO_REQUIRE_MPI();
  const std::string stage = GetParam();
  if (stage != "cpu-parallel" && !haveOpenCl()) GTEST_SKIP() << "no OpenCL device";
  const std::string device = stage == "cpu-parallel" ? "" : " --device cpu";
  for (const std::string boundary : {"absorbing", "sponge"}) {
    const std::string args = scenarioArgs(stage, boundary) + device;
    const Files one = runAndRead(args, "", "one");
    for (int ranks : {2, 3})
      expectSameFiles(one, runAndRead(args, mpirun(ranks), "ranks"), stage + " " + boundary + " on " + std::to_string(ranks) + " ranks");
  }
}

INSTANTIATE_TEST_SUITE_P(Stages, RanksGiveOneDevicesBits,
                         ::testing::Values("cpu-parallel", "gpu-basic", "gpu-optimized", "gpu-half"),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::erase(name, '-');
                           return name;
                         });

TEST(Decomposition, TwoSlabsOnOneOpenClDeviceInOneProcessGiveItsBits) {
  if (!haveOpenCl()) GTEST_SKIP() << "no OpenCL device";
  for (const std::string stage : {"gpu-basic", "gpu-optimized"})
    for (const std::string boundary : {"absorbing", "sponge"}) {
      const std::string args = scenarioArgs(stage, boundary);
      expectSameFiles(runAndRead(args + " --device cpu", "", "one"), runAndRead(args + " --device cpu,cpu", "", "two"),
                      stage + " " + boundary + " in two slabs");
    }
}

// The outputs rank 0 writes from what every rank reads together: a --dump-every series (each frame, and
// the collection) and SEG-Y traces, the same bytes as one process's.
TEST(Decomposition, SeriesAndSegyTracesOfRanksAreOneProcesssBytes) {
  ISO_REQUIRE_MPI();
  const std::string args = "run 17 13 30 7 --stage cpu-serial --receiver 8,6,14 --receiver 8,6,15";
  std::string files[2][6];
  for (int run = 0; run < 2; ++run) {
    const auto folder = iso::test::scratchPath(run ? "series-ranks" : "series-one");
    const auto segy = iso::test::scratchPath(run ? "ranks.sgy" : "one.sgy");
    std::filesystem::remove_all(folder);
    std::filesystem::remove(segy);
    const CliResult r = runCli(args + " --dump-every 3 " + folder.string() + " --traces " + segy.string(), run ? mpirun(2) : "");
    ASSERT_EQ(r.status, 0) << r.output;
    int f = 0;
    for (const char* name : {"wavefield.pvd", "wavefield_000000.vti", "wavefield_000003.vti", "wavefield_000006.vti"})
      files[run][f++] = fileBytes(folder / name);
    files[run][f++] = fileBytes(folder / "wavefield_000007.vti");  // absent: the series is every 3 steps
    files[run][f] = fileBytes(segy);
  }
  for (int f = 0; f < 6; ++f) {
    if (f != 4) {
      EXPECT_FALSE(files[0][f].empty()) << "file " << f << " of one process";
    }
    EXPECT_TRUE(files[0][f] == files[1][f]) << "file " << f << " differs on 2 ranks";
  }
}

TEST(Decomposition, FourAndEightRanksGiveOneRanksBits) {
  ISO_REQUIRE_MPI();
  const std::string args = "run 19 13 64 10 --stage cpu-parallel --param threads=1 --receiver 9,6,31 --receiver 9,6,32";
  const Files one = runAndRead(args, "", "one");
  for (int ranks : {4, 8}) expectSameFiles(one, runAndRead(args, mpirun(ranks), "ranks"), std::to_string(ranks) + " ranks");
}

// Ranks of one host read each other's halos in a shared-memory window by default; as messages they
// must give the same bits (the path between hosts).
TEST(Decomposition, HalosAsMessagesOrThroughSharedMemoryGiveTheSameBits) {
  ISO_REQUIRE_MPI();
  const std::string args = scenarioArgs("cpu-parallel", "absorbing");
  const Files one = runAndRead(args, "", "one");
  expectSameFiles(one, runAndRead(args + " --rank-halos messages", mpirun(3), "ranks"), "3 ranks, halos as messages");
  expectSameFiles(one, runAndRead(args + " --rank-halos shared-memory", mpirun(3), "ranks"), "3 ranks, shared memory");
  const CliResult r = runCli("run 17 13 30 4 --stage cpu-parallel --param threads=1 --rank-halos messages", mpirun(2));
  EXPECT_NE(r.output.find("2 ranks (Open MPI"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("), halos as messages"), std::string::npos) << r.output;
}

// A device list of several devices per rank: each rank runs its share, one slab on each, and exchanges
// between its own slabs in its process and with the other ranks' through the window or as messages.
TEST(Decomposition, RanksWithSeveralSlabsEachGiveOneDevicesBits) {
  ISO_REQUIRE_MPI();
  if (!haveOpenCl()) GTEST_SKIP() << "no OpenCL device";
  const std::string args = "run 19 13 64 10 --stage gpu-optimized --boundary absorbing --boundary-width 6 "
                           "--receiver 9,6,10 --receiver 9,6,11 --receiver 9,6,31 --receiver 9,6,32 --device ";
  const Files one = runAndRead(args + "cpu", "", "one");
  expectSameFiles(one, runAndRead(args + "cpu,cpu,cpu,cpu", mpirun(2), "ranks"), "2 ranks of 2 slabs");
  expectSameFiles(one, runAndRead(args + "cpu,cpu,cpu,cpu,cpu,cpu", mpirun(3), "ranks"), "3 ranks of 2 slabs");
  expectSameFiles(one, runAndRead(args + "cpu,cpu,cpu,cpu,cpu,cpu --rank-halos messages", mpirun(3), "ranks"),
                  "3 ranks of 2 slabs, halos as messages");
  const CliResult r = runCli(args + "cpu,cpu,cpu,cpu", mpirun(2));
  EXPECT_NE(r.output.find("slab 1: planes 16-31 (16), rank 0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("slab 2: planes 32-47 (16), rank 1"), std::string::npos) << r.output;
}

TEST(Decomposition, RankZeroPrintsTheOneReportWithTheSlabs) {
  ISO_REQUIRE_MPI();
  const CliResult r = runCli("run 17 13 30 4 --stage cpu-parallel --param threads=1", mpirun(3));
  ASSERT_EQ(r.status, 0) << r.output;
  std::size_t reports = 0;
  for (std::size_t at = r.output.find("Grid Sizes"); at != std::string::npos; at = r.output.find("Grid Sizes", at + 1)) ++reports;
  EXPECT_EQ(reports, 1u) << r.output;
  for (const char* key : {"Decomposition: 3 slabs along z over 3 ranks", "halos through shared memory (one host)",
                          "slab 0: planes 0-9 (10), rank 0",
                          "slab 2: planes 20-29 (10), rank 2", "3 × host CPU"})
    EXPECT_NE(r.output.find(key), std::string::npos) << key << " missing in:\n" << r.output;
}

// Slabs in one process report the stage parameters they run with (resolved once for the whole grid).
TEST(Decomposition, SlabsInOneProcessReportTheirParameters) {
  if (!haveOpenCl()) GTEST_SKIP() << "no OpenCL device";
  const CliResult r = runCli("run 17 13 30 4 --stage gpu-basic --device cpu,cpu --param wg_x=8");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("Decomposition: 2 slabs along z"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("parameters: wg_x=8"), std::string::npos) << r.output;
}

TEST(Decomposition, AnErrorOfTheRanksIsPrintedOnceAndFailsTheRun) {
  ISO_REQUIRE_MPI();
  // Three ranks, a grid too thin for three slabs of 8 planes: every rank fails together.
  CliResult r = runCli("run 17 13 20 4 --stage cpu-serial", mpirun(3));
  EXPECT_NE(r.status, 0) << r.output;
  std::size_t errors = 0;
  for (std::size_t at = r.output.find("error:"); at != std::string::npos; at = r.output.find("error:", at + 1)) ++errors;
  EXPECT_EQ(errors, 1u) << r.output;
  EXPECT_NE(r.output.find("use fewer devices or a larger n3"), std::string::npos) << r.output;
  if (!haveOpenCl()) return;
  r = runCli("run 17 13 40 4 --stage gpu-basic --device cpu,cpu,cpu", mpirun(2));
  EXPECT_NE(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("3 devices for 2 ranks"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("as many for each rank"), std::string::npos) << r.output;
}

}  // namespace
