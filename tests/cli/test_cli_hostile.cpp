// `iso3dfd` run as a careless or hostile user would: outputs aimed at devices, FIFOs, links and the
// standard output; caches that are damaged or nested deeply; numbers past every limit. Each either works
// as the target asks (a stream written in place, a link kept) or is refused with a message, and nothing
// that should stay is replaced. Device files exist only in a private mount namespace
// (tests/PrivateDevices.h), never on the machine's own /dev.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/PrivateDevices.h"
#include "tests/ScratchDir.h"
#include "tests/cli/CliRun.h"

namespace iso {
namespace {

namespace fs = std::filesystem;
using test::runCli;

fs::path freshFolder(const std::string& name) {
  const fs::path dir = test::scratchPath(name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

mode_t kindOf(const fs::path& p) {
  struct stat st {};
  return ::lstat(p.c_str(), &st) == 0 ? st.st_mode & S_IFMT : 0;
}

TEST(CliHostile, DumpingToDevNullLeavesTheDevice) {
  // As root, `--dump /dev/null` left /dev/null a 7,040-byte regular file. Here /dev is a tmpfs of a
  // private mount namespace, holding only the null device made for the test.
  const test::ChildResult child = test::inPrivateMountNamespace("/dev", [](std::string& report) {
    if (!test::makeCharDevice("/dev/null", 1, 3)) return (report = "mknod failed", 2);
    const std::string cmd = std::string(ISO3DFD_BINARY) + " run 12 12 12 2 --stage cpu-serial --dump /dev/null";
    std::FILE* out = ::popen((cmd + " 2>&1").c_str(), "r");  // popen reads through a pipe, not /dev/null
    char line[512];
    while (out && std::fgets(line, sizeof line, out)) report += line;
    const int status = out ? ::pclose(out) : -1;
    struct stat st {};
    if (::lstat("/dev/null", &st) != 0 || !S_ISCHR(st.st_mode)) return (report += "\n/dev/null was replaced", 1);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : (report += "\nthe run failed", 1);
  });
  if (child.exited && child.status == test::kNoPrivateNamespace) GTEST_SKIP() << child.report;
  ASSERT_TRUE(child.exited) << "signal " << child.status;
  EXPECT_EQ(child.status, 0) << child.report;
}

TEST(CliHostile, TracesToTheStandardOutputAddToTheRedirectedFile) {
  // `--traces /dev/stdout > log` replaced log with the traces alone.
  const fs::path log = freshFolder("stdout") / "log";
  const auto r = runCli("run 12 12 12 4 --stage cpu-serial --receiver 3,3,3 --traces /dev/stdout > " + log.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string text = test::readFileBytes(log);
  const auto header = text.find("Grid Sizes: 12 12 12"), traces = text.find("time_s,r0_i3_j3_k3"),
             wrote = text.find("wrote 1 traces of 4 samples to /dev/stdout");
  EXPECT_NE(header, std::string::npos) << text;
  EXPECT_NE(traces, std::string::npos) << text;
  EXPECT_TRUE(header < traces && traces < wrote && wrote != std::string::npos) << "out of order:\n" << text;
}

TEST(CliHostile, AFifoAndALinkStayWhatTheyAre) {
  const fs::path dir = freshFolder("fifo");
  const fs::path fifo = dir / "traces.csv", real = dir / "real.npy", link = dir / "u.npy";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::ofstream(real) << "older";
  fs::create_symlink(real, link);
  // A reader first (this test, holding the FIFO open before the run starts; the few traces fit in the
  // pipe's buffer, read once the run has ended), then a run without a reader, refused at once instead
  // of waiting.
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  const auto r = runCli("run 12 12 12 3 --stage cpu-serial --receiver 3,3,3 --traces " + fifo.string() + " --dump " +
                        link.string());
  std::string received;
  char chunk[4096];
  for (ssize_t n; (n = ::read(reader, chunk, sizeof chunk)) > 0;) received.append(chunk, std::size_t(n));
  ::close(reader);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(received.rfind("time_s,r0_i3_j3_k3\n", 0), 0u) << received;
  EXPECT_EQ(kindOf(fifo), S_IFIFO);
  EXPECT_EQ(kindOf(link), S_IFLNK);
  EXPECT_EQ(test::readFileBytes(real).rfind("\x93NUMPY", 0), 0u) << "the link's file was not written";
  const auto lonely = runCli("run 12 12 12 3 --stage cpu-serial --receiver 3,3,3 --traces " + fifo.string());
  EXPECT_EQ(lonely.status, 1) << lonely.output;
  EXPECT_NE(lonely.output.find("a FIFO that no process reads"), std::string::npos) << lonely.output;
  EXPECT_EQ(kindOf(fifo), S_IFIFO);
}

TEST(CliHostile, NumbersPastTheirLimitsAreNamed) {
  struct Case {
    const char* args;
    const char* message;
  };
  for (const Case& c : {Case{"run 12 12 12 2 --stage gpu-basic --device 99999999999999999999",
                             "no OpenCL device matches '99999999999999999999'"},
                        Case{"run 12 12 12 2 --dt 1e-320", "dt = 9.99989e-321 s is too small (allowed: at least 1e-12 s"},
                        Case{"run 12 12 12 2 --dt 1e-4abc", "--dt 1e-4abc: expected a number of seconds or auto"},
                        Case{"run 12 12 12 2 --boundary-width 4096",
                             "boundary.width = 4096 cells is wider than the layer of a 12 x 12 x 12 grid can be"}}) {
    const auto r = runCli(c.args);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.args << "\n" << r.output;
  }
}

TEST(CliHostile, DeeplyNestedCachesAreSetAsideAndTheRunGoesOn) {
  // A 2 MB bandwidth.json or tuning.json made every OpenCL run exit 139 until the cache was deleted.
  const fs::path cache = freshFolder("deep-cache");
  fs::permissions(cache, fs::perms::owner_all);
  const std::string deep = std::string(1000000, '[') + std::string(1000000, ']');
  std::ofstream(cache / "bandwidth.json") << deep;
  std::ofstream(cache / "tuning.json") << deep;
  const auto r = runCli("run 12 12 12 2 --stage gpu-basic", "ISO3DFD_CACHE_DIR=" + cache.string());
  if (r.output.find("no OpenCL device") != std::string::npos) GTEST_SKIP() << "no OpenCL device on this machine";
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("bandwidth.json cannot be read"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("tuning database"), std::string::npos) << r.output;
  EXPECT_EQ(test::readFileBytes(cache / "tuning.json"), deep) << "the tuning database is the user's: left for `tune` to keep aside";
  bool kept = false;
  for (const auto& e : fs::directory_iterator(cache))
    kept = kept || (e.path().filename().string().rfind("bandwidth.json.damaged-", 0) == 0 && test::readFileBytes(e.path()) == deep);
  EXPECT_TRUE(kept) << "the damaged bandwidth cache was not kept whole";
}

TEST(CliHostile, ASmallRunDoesNotStartTheBandwidthProbe) {
  // 2 x 256 MiB to time a copy made a 12^3 run fail under a 300 MB limit, and ran on every call when the
  // cache could not be written.
  const fs::path cache = freshFolder("probe-cache");
  fs::permissions(cache, fs::perms::owner_all);
  const auto r = runCli("run 12 12 12 2 --stage cpu-serial", "ISO3DFD_CACHE_DIR=" + cache.string());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_FALSE(fs::exists(cache / "host-bandwidth.json")) << r.output;
  EXPECT_EQ(r.output.find("roofline"), std::string::npos) << "a ceiling was shown without a measurement:\n" << r.output;
}

TEST(CliHostile, AnUnusableHomeIsNamedWhenNoOpenClPlatformStarts) {
  // PoCL does not start without a writable cache folder; the message said only "no platform installed".
  const auto r = runCli("devices", "env -u POCL_CACHE_DIR -u XDG_CACHE_HOME HOME=/proc");
  ASSERT_EQ(r.status, 0) << r.output;
  if (r.output.find("No OpenCL device found") == std::string::npos) GTEST_SKIP() << "a driver started anyway:\n" << r.output;
  EXPECT_NE(r.output.find("$HOME (/proc) is not writable: set POCL_CACHE_DIR"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace iso
