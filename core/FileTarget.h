#pragma once
// What a path names, before anything reads or writes it: the readers and the one writer (OutputFile.h)
// decide from this whether to replace a file, write a stream in place, or refuse. Symbolic links are
// followed one hop at a time, so that a name of an open descriptor (/dev/stdout, /dev/fd/N,
// /proc/self/fd/N) is seen as that descriptor rather than as the file behind it: `--traces /dev/stdout
// > log` must add to log, not replace it.
#include <stdexcept>
#include <string>

namespace iso {

// Every failure to write an output, or to read an input file, with a message naming the path and the
// reason.
struct FileWriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct FileReadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class FileTargetKind {
  Missing,     // nothing there yet (a new file, in a folder that may or may not exist)
  Regular,     // a regular file
  Directory,   // a folder
  Descriptor,  // a name of one of this process's open descriptors (written through it, never reopened)
  Fifo,        // a named pipe: a stream
  Device,      // a character device that is only a sink or a terminal: /dev/null, /dev/zero, /dev/full, ttys
  Refused,     // anything else: block and other character devices, sockets, loops, unreadable links
};

struct FileTarget {
  FileTargetKind kind = FileTargetKind::Missing;
  // The path symbolic links lead to: what is created, replaced or opened (the link itself stays).
  std::string resolved;
  int descriptor = -1;      // Descriptor: its number
  std::string description;  // for messages: "a FIFO", "a block device (8:0)", "standard output", ...

  // Written in place, in order, without seeking; never replaced.
  bool isStream() const {
    return kind == FileTargetKind::Descriptor || kind == FileTargetKind::Fifo || kind == FileTargetKind::Device;
  }
};

// Never throws: a path that cannot be examined is Refused, with the reason in `description`.
FileTarget inspectFileTarget(const std::string& path);

// A path as messages quote it: whole up to 200 bytes; a longer one (no real path is, but a name can be
// anything) as its start and its end, where the file name is, around "...".
std::string shownPath(const std::string& path);

}  // namespace iso
