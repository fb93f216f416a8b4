#pragma once
// The one writer of every file both programs produce: fields, traces, scenarios, checkpoints, reports,
// caches, images, videos and frame folders. What it does depends on what the target is (FileTarget.h):
//  - nothing, or a regular file: the bytes go to a temporary file beside it (TemporaryFiles.h), which
//    replaces the target (rename) only once every write, the flush to disk and the close have
//    succeeded: whole or not at all. A full disk, a quota or a killed process leaves the previous file
//    as it was. The replaced file keeps its permissions (and, written by root, its owner); a file that
//    is read-only to the writer is not replaced;
//  - a symbolic link: the link stays, and what it leads to is written as its kind says;
//  - a FIFO, /dev/null and the like, a terminal, or a name of an open descriptor (/dev/stdout,
//    /dev/fd/N): written in place as a stream, never replaced (a FIFO must have a reader already: the
//    writer does not wait for one). A format that seeks (video) refuses them;
//  - a folder, a block device, any other device or a socket: refused, untouched.
// Errors are FileWriteError naming the path and the operating system's reason.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/FileTarget.h"

namespace iso {

class OutputFile {
 public:
  // Opens the temporary file or the stream for `path` (throws FileWriteError when it cannot).
  // `ownerOnly`: the file gets mode 0600, whatever the umask or the replaced file's mode (secrets).
  explicit OutputFile(std::string path, bool ownerOnly = false);
  // Without commit(), removes the temporary file: a replaced target is left untouched.
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  bool isStream() const { return stream_; }
  void write(const void* data, std::size_t bytes);  // buffered; throws FileWriteError
  void write(std::string_view text) { write(text.data(), text.size()); }
  // Moves the write position, for formats that complete a header at the end (MP4). Not on a stream.
  void seek(std::uint64_t offset);
  std::uint64_t position() const { return position_; }
  std::uint64_t size() const { return size_; }  // the largest position written so far
  // Flushes, syncs to disk, closes and renames over the target (a stream: flushes and closes). Throws
  // FileWriteError; after a failure the temporary file is removed and a replaced target is unchanged.
  void commit();

  const std::string& path() const { return path_; }

 private:
  void openTemporary(const FileTarget& target, bool ownerOnly);
  void openStream(const FileTarget& target);
  void flushBuffer();
  void writeAll(const char* data, std::size_t bytes);
  [[noreturn]] void fail(const std::string& what, int error);
  void discard() noexcept;

  std::string path_;        // as the caller named it, for messages
  std::string targetPath_;  // the file replaced: path_ with symbolic links resolved
  std::string tempPath_;
  int tempSlot_ = -1;
  int fd_ = -1;
  bool stream_ = false;
  std::uint64_t position_ = 0, size_ = 0;
  std::string buffer_;
};

// A folder of files (numbered frames) written whole or not at all: the files go into a temporary
// folder beside the target, renamed to the target once complete. The target must be missing or an empty
// folder (a symbolic link to one stays, and its folder is replaced).
class OutputFolder {
 public:
  explicit OutputFolder(std::string path);  // throws FileWriteError
  ~OutputFolder();                           // without commit(): the temporary folder and its files go
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;

  // One whole file of the folder (not replaced: each name once). Throws FileWriteError.
  void writeFile(const std::string& name, const void* data, std::size_t bytes);
  void commit();  // throws FileWriteError; a folder that gained files since it was checked is kept
  const std::string& path() const { return path_; }

 private:
  void discard() noexcept;

  std::string path_, targetPath_, tempPath_;
  int tempSlot_ = -1;
};

// The whole of `contents` as the file at `path` (OutputFile).
void writeWholeFile(const std::string& path, std::string_view contents);

// Why `path` cannot take an output, before anything is computed for it ("" when it can): a folder, a
// refused device, a folder that does not exist or cannot be written, a read-only file. `needsSeeking`:
// the format cannot be written as a stream.
std::string outputTargetProblem(const std::string& path, bool needsSeeking = false);

// Whether two paths name the same file, existing or not (so that an output never overwrites an input),
// through symbolic links and however they are spelled.
bool samePath(const std::filesystem::path& a, const std::filesystem::path& b);

}  // namespace iso
