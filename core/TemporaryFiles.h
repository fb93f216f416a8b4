#pragma once
// The temporary files and folders that outputs are written into before they replace their target
// (OutputFile.h). Each is named ".NAME.iso3dfd-PID-N.tmp" beside its target, so that the final rename
// stays within one file system and anyone can tell whose it is. None is left behind:
//  - the writer removes its own on failure or when it is dropped unfinished;
//  - SIGINT, SIGTERM and SIGHUP remove every one this process holds before the process ends as the
//    signal says (installed on first use, only where the signal still has its default action);
//  - the first time a process writes into a folder, it sweeps from it this program's temporaries older
//    than a day whose process is gone (a crash, SIGKILL, a power cut), including the names of earlier
//    versions (".NAME.PID.N.tmp", ".NAME.partial-XXXXXX").
#include <filesystem>
#include <string>

namespace iso {

class TemporaryFiles {
 public:
  struct Created {
    std::string path;
    int fd = -1;   // an open, empty file (O_WRONLY, close-on-exec); -1 for a folder
    int slot = -1;  // for release(); -1 when the registry is full (then a signal cannot remove it)
  };

  // A new empty file (or folder) beside `target`, which lies in an existing folder. Throws FileWriteError
  // naming the folder and the reason when the folder cannot take it.
  static Created create(const std::filesystem::path& target, bool folder);
  // The temporary of `slot` is gone (renamed into place or removed by its writer): a signal no longer
  // touches that name.
  static void release(int slot) noexcept;

  // Whether `name` (a file name, no folder) is one of this program's temporaries, of this version or an
  // earlier one.
  static bool isTemporaryName(const std::string& name);
  // Removes the stale temporaries from `folder` (see above); errors are ignored. Done by create() once
  // per folder and process.
  static void sweepStale(const std::filesystem::path& folder);
  // Installs the SIGINT/SIGTERM/SIGHUP handlers now (create() does on first use). A program calls it
  // first thing in main: libraries that install their own handlers later (LLVM, under PoCL) keep it
  // as the previous one and call it; installed after them, it would leave theirs alone and never run.
  static void removeOnSignals();
};

}  // namespace iso
