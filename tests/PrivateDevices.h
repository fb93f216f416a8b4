#pragma once
// Device files for tests, never on the machine's own /dev: runs `body` in a forked child
// (tests/core/ChildProcess.h) that has a mount namespace of its own, in which `folder` (/dev itself, or a
// scratch folder) is an empty tmpfs where body creates the device files it needs (mknod). The namespace
// and everything in it vanish with the child. Making one needs CAP_SYS_ADMIN (root, as CI runs the
// suite); where it cannot be made, the caller skips, saying why.
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "tests/core/ChildProcess.h"

namespace iso::test {

// The child's exit status when the namespace could not be made (its report says why).
inline constexpr int kNoPrivateNamespace = 77;

inline ChildResult inPrivateMountNamespace(const std::string& folder, const std::function<int(std::string&)>& body) {
  return runInChild([&](std::string& report) {
    // Private propagation first: a mount made below must never reach the machine's own tree.
    if (::unshare(CLONE_NEWNS) != 0 || ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        ::mount("tmpfs", folder.c_str(), "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755") != 0) {
      report = std::string("no private mount namespace here (needs CAP_SYS_ADMIN): ") + std::strerror(errno);
      return kNoPrivateNamespace;
    }
    return body(report);
  });
}

// A character device node (major:minor) at `path`, inside a private namespace only.
inline bool makeCharDevice(const std::string& path, unsigned major, unsigned minor) {
  return ::mknod(path.c_str(), S_IFCHR | 0666, makedev(major, minor)) == 0;
}

}  // namespace iso::test
