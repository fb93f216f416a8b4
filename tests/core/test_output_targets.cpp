// What the one writer (core/OutputFile.h) does with each kind of target: a FIFO, a name of an open
// descriptor and harmless devices are written in place and stay what they were; other devices and block
// devices are refused without being opened; a read-only file is not replaced; an interrupted write
// leaves no temporary file; stale temporaries of writers that died are swept. Device files exist only
// inside a private mount namespace (tests/PrivateDevices.h), never on the machine's /dev.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "core/OutputFile.h"
#include "core/TemporaryFiles.h"
#include "tests/PrivateDevices.h"
#include "tests/ScratchDir.h"

namespace iso {
namespace {

namespace fs = std::filesystem;

fs::path freshFolder(const std::string& name) {
  const fs::path dir = test::scratchPath(name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::set<std::string> namesIn(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

std::string errorOf(const std::function<void()>& write) {
  try {
    write();
  } catch (const FileWriteError& e) {
    return e.what();
  }
  return "no error";
}

bool isFifo(const fs::path& p) {
  struct stat st {};
  return ::lstat(p.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
}

TEST(OutputTargets, AFifoIsWrittenAsAStreamAndStaysAFifo) {
  const fs::path dir = freshFolder("fifo");
  const fs::path fifo = dir / "traces.csv", link = dir / "link.csv";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  fs::create_symlink(fifo, link);
  for (const fs::path& target : {fifo, link}) {
    // The reader opens first (the writer does not wait for one); the text fits the pipe's buffer.
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(reader, 0);
    std::thread writer([&] { writeWholeFile(target.string(), "time_s,r0\n0.001,1.5\n"); });
    writer.join();
    char buffer[256];
    const ssize_t n = ::read(reader, buffer, sizeof buffer);
    ::close(reader);
    EXPECT_EQ(std::string(buffer, std::size_t(std::max<ssize_t>(n, 0))), "time_s,r0\n0.001,1.5\n") << target;
    EXPECT_TRUE(isFifo(fifo)) << "the FIFO was replaced";
    EXPECT_TRUE(fs::is_symlink(link)) << "the link was replaced";
  }
  EXPECT_EQ(namesIn(dir), (std::set<std::string>{"traces.csv", "link.csv"}));
}

TEST(OutputTargets, AFifoWithoutAReaderIsRefusedAtOnce) {
  const fs::path dir = freshFolder("fifo-no-reader");
  const fs::path fifo = dir / "u.npy";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string message = errorOf([&] { writeWholeFile(fifo.string(), "x"); });
  EXPECT_NE(message.find("no process reads"), std::string::npos) << message;
  EXPECT_NE(message.find(fifo.string()), std::string::npos) << message;
  EXPECT_TRUE(isFifo(fifo));
}

TEST(OutputTargets, ANameOfAnOpenDescriptorAddsToItsFileInsteadOfReplacingIt) {
  const fs::path log = freshFolder("descriptor") / "log";
  const test::ChildResult child = test::runInChild([&](std::string& report) {
    // `iso3dfd run --traces /dev/stdout > log`: what the program printed before stays, in order.
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || ::dup2(fd, STDOUT_FILENO) < 0) return 2;
    std::printf("printed\n");  // still in stdout's buffer when the writer starts
    struct stat before {};
    ::fstat(fd, &before);
    try {
      writeWholeFile("/proc/self/fd/1", "through /proc\n");
      writeWholeFile("/proc/self/fd/" + std::to_string(fd), "through the descriptor\n");
      if (fs::exists("/dev/stdout")) writeWholeFile("/dev/stdout", "through /dev/stdout\n");
    } catch (const std::exception& e) {
      report = e.what();
      return 1;
    }
    struct stat after {};
    ::stat(log.c_str(), &after);
    report = after.st_ino == before.st_ino ? "" : "log was replaced by another file";
    return report.empty() ? 0 : 1;
  });
  ASSERT_TRUE(child.exited) << "signal " << child.status;
  ASSERT_EQ(child.status, 0) << child.report;
  std::string expected = "printed\nthrough /proc\nthrough the descriptor\n";
  if (fs::exists("/dev/stdout")) expected += "through /dev/stdout\n";
  EXPECT_EQ(test::readFileBytes(log), expected);
}

TEST(OutputTargets, HarmlessDevicesAreWrittenInPlaceOthersAreRefusedUnopened) {
  const fs::path dev = freshFolder("dev");
  const test::ChildResult child = test::inPrivateMountNamespace(dev.string(), [&](std::string& report) {
    const fs::path null = dev / "null", random = dev / "random", block = dev / "loop200", link = dev / "out.npy";
    // 1:8 (random) is outside the set written to, and harmless even if a bug opened it; 7:200 is a
    // loop device number that no loop device uses here.
    if (!test::makeCharDevice(null.string(), 1, 3) || !test::makeCharDevice(random.string(), 1, 8) ||
        ::mknod(block.c_str(), S_IFBLK | 0600, makedev(7, 200)) != 0)
      return (report = "mknod failed", 2);
    fs::create_symlink(null, link);
    const auto kindOf = [](const fs::path& p) {
      struct stat st {};
      ::lstat(p.c_str(), &st);
      return st.st_mode & S_IFMT;
    };
    try {
      writeWholeFile(null.string(), std::string(3 << 20, 'x'));  // past the writer's buffer
      writeWholeFile(link.string(), "through a link");
    } catch (const std::exception& e) {
      return (report = std::string("the null device was refused: ") + e.what(), 1);
    }
    for (const auto& [target, expected] : {std::pair{random, "character device (1:8)"}, std::pair{block, "block device (7:200)"}}) {
      const std::string message = errorOf([&] { writeWholeFile(target.string(), "x"); });
      if (message.find(expected) == std::string::npos) return (report = target.string() + ": " + message, 1);
    }
    if (kindOf(null) != S_IFCHR || kindOf(random) != S_IFCHR || kindOf(block) != S_IFBLK || kindOf(link) != S_IFLNK)
      return (report = "a device or the link was replaced", 1);
    if (namesIn(dev) != std::set<std::string>{"null", "random", "loop200", "out.npy"})
      return (report = "a temporary file was left in the folder", 1);
    return 0;
  });
  if (child.exited && child.status == test::kNoPrivateNamespace) GTEST_SKIP() << child.report;
  ASSERT_TRUE(child.exited) << "signal " << child.status;
  EXPECT_EQ(child.status, 0) << child.report;
}

TEST(OutputTargets, AReadOnlyFileIsNotReplacedByAnotherUser) {
  const fs::path dir = freshFolder("read-only");
  const fs::path file = dir / "scenario.json";
  std::ofstream(file) << "keep";
  fs::permissions(file, fs::perms(0444));
  if (::geteuid() == 0) {
    // Root writes any file, as `>` does; the replacement keeps the mode.
    writeWholeFile(file.string(), "new");
    EXPECT_EQ(test::readFileBytes(file), "new");
    EXPECT_EQ(fs::status(file).permissions() & fs::perms::all, fs::perms(0444));
    return;
  }
  const std::string message = errorOf([&] { writeWholeFile(file.string(), "new"); });
  EXPECT_NE(message.find("read-only"), std::string::npos) << message;
  EXPECT_EQ(test::readFileBytes(file), "keep");
}

TEST(OutputTargets, AnInterruptedWriteLeavesNoTemporaryFile) {
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) {
    const fs::path dir = freshFolder("interrupted");
    std::ofstream(dir / "u.npy") << "older";
    const test::ChildResult child = test::runInChild([&](std::string&) {
      OutputFile file((dir / "u.npy").string());
      file.write(std::string(3 << 20, 'x'));  // on disk already, past the buffer
      OutputFolder frames((dir / "frames").string());
      frames.writeFile("000000.png", "png", 3);
      ::raise(signal);
      return 0;
    });
    EXPECT_FALSE(child.exited) << "the child was not ended by signal " << signal;
    EXPECT_EQ(child.status, signal);
    EXPECT_EQ(namesIn(dir), std::set<std::string>{"u.npy"}) << "signal " << signal;
    EXPECT_EQ(test::readFileBytes(dir / "u.npy"), "older");
  }
}

void age(const fs::path& p, long seconds) {
  timeval times[2] = {};
  times[0].tv_sec = times[1].tv_sec = ::time(nullptr) - seconds;
  ASSERT_EQ(::lutimes(p.c_str(), times), 0) << p;
}

TEST(OutputTargets, StaleTemporariesOfWritersThatDiedAreSwept) {
  const fs::path dir = freshFolder("sweep");
  // pid_max is at most 2^22 on Linux: no process has this id.
  const std::string dead = "4194305", alive = std::to_string(::getpid());
  const std::set<std::string> swept = {".u.npy.iso3dfd-" + dead + "-3.tmp", ".u.npy." + dead + ".7.tmp",
                                       ".rec.mp4.partial-a1b2c3", ".frames.iso3dfd-" + dead + "-0.tmp"};
  const std::set<std::string> kept = {".u.npy.iso3dfd-" + alive + "-1.tmp",  // its writer still runs
                                      ".v.npy.iso3dfd-" + dead + "-2.tmp.young",  // not ours
                                      ".traces.csv.partial-xyz",                    // not ours
                                      "u.npy"};
  for (const auto& name : swept) {
    if (name.rfind(".frames", 0) == 0) {
      fs::create_directory(dir / name);
      std::ofstream(dir / name / "000000.png") << "png";
    } else {
      std::ofstream(dir / name) << "left by a crash";
    }
    age(dir / name, 2 * 24 * 3600);
  }
  for (const auto& name : kept) {
    std::ofstream(dir / name) << "x";
    age(dir / name, 2 * 24 * 3600);
  }
  const std::string young = ".w.npy.iso3dfd-" + dead + "-4.tmp";  // less than a day old
  std::ofstream(dir / young) << "x";
  for (const auto& name : swept) EXPECT_TRUE(TemporaryFiles::isTemporaryName(name)) << name;
  // The first output written into the folder sweeps it.
  writeWholeFile((dir / "new.json").string(), "{}");
  std::set<std::string> expected = kept;
  expected.insert({young, "new.json"});
  EXPECT_EQ(namesIn(dir), expected);
}

}  // namespace
}  // namespace iso
