#pragma once
// A time series of the wavefield for ParaView: one VTK image data file per frame (VtiWriter.h) and a
// ParaView data collection (.pvd) listing them with their times, so that ParaView opens the folder's
// series as one data set with an animation time. Frames are written on a thread of the writer's own
// through a bounded queue: the thread that computes hands a frame over and goes on; it waits only while
// `capacity` frames are queued (a series never drops a frame). The collection is replaced (atomically)
// after every frame, so it lists whole files only, also while the run goes on or after it was killed.
#include <array>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace iso {

struct SeriesGeometry {
  std::array<int, 3> size{0, 0, 0};  // interior points n1, n2, n3 of every field handed over
  double dx = 0.0;                   // metres
  int stride = 1;                    // keep every stride-th point along each axis (from point 0)
};

struct SeriesStats {
  long frames = 0;               // frames written whole (and listed in the collection)
  std::uint64_t bytes = 0;       // their size on disk
  double writeSeconds = 0.0;     // spent writing, on the writer's thread
  double waitSeconds = 0.0;      // spent by push() waiting for room in the queue
};

class VtiSeriesWriter {
 public:
  static constexpr const char* kCollectionName = "wavefield.pvd";

  // Creates `folder` when it does not exist (its parent must). Files of the same names there are
  // replaced. `done` (optional) is called on the writer's thread when it ends: after close() or
  // finish() once every queued frame is written, or at the first error (then with it).
  VtiSeriesWriter(std::string folder, SeriesGeometry geometry, std::size_t capacity,
                  std::function<void(const SeriesStats&, std::exception_ptr)> done = {});
  // The queue's length for fields of this geometry: 4 frames, fewer where they would hold more than
  // 1 GiB (the queue holds whole fields; the stride is applied on the writer's thread), at least 1.
  static std::size_t defaultCapacity(const SeriesGeometry& geometry);
  // The most memory the series holds with a queue of `capacity` frames: the queue, the frame being
  // written (and its decimated copy with a stride), the thread's stack and allocation arena (address
  // space that a `ulimit -v` counts). The frame its caller reads before push() is the caller's.
  static std::size_t memoryBytes(const SeriesGeometry& geometry, std::size_t capacity);
  static constexpr std::size_t kThreadBytes = std::size_t(72) << 20;  // 8 MiB stack, glibc's 64 MiB arena
  ~VtiSeriesWriter();  // close() and wait for the thread
  VtiSeriesWriter(const VtiSeriesWriter&) = delete;
  VtiSeriesWriter& operator=(const VtiSeriesWriter&) = delete;

  // Queues u at `step` (time in seconds): interior, C order (n3, n2, n1), n1·n2·n3 values. Waits while
  // the queue is full. Throws the writer's error (FileWriteError: a full disk) once it has one, and
  // std::logic_error after close().
  void push(long step, double time, std::vector<float> field);
  // No more frames: the thread writes the queued ones and ends. Returns at once.
  void close();
  // close(), waits until the thread has ended and throws its error, if any.
  void finish();

  SeriesStats stats() const;
  const std::string& folder() const { return folder_; }
  std::string collectionPath() const;
  std::array<int, 3> frameSize() const;  // points per axis after the stride
  // The file frame `step` is written to, relative to the folder: "wavefield_000120.vti".
  static std::string frameName(long step);

 private:
  struct Frame {
    long step = 0;
    double time = 0.0;
    std::vector<float> field;
  };
  void run();
  void write(Frame& frame);  // takes the frame's field
  std::string collectionXml() const;

  std::string folder_;
  SeriesGeometry geometry_;
  std::size_t capacity_;
  std::function<void(const SeriesStats&, std::exception_ptr)> done_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Frame> queue_;
  bool closed_ = false;
  std::exception_ptr error_;
  SeriesStats stats_;
  std::vector<std::pair<double, std::string>> written_;  // writer thread only: (time, file) listed
  std::thread thread_;
};

}  // namespace iso
