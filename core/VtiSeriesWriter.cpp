#include "core/VtiSeriesWriter.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <sys/stat.h>

#include "core/OutputFile.h"
#include "core/VtiWriter.h"

namespace iso {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

int pointsAlong(int n, int stride) { return (n + stride - 1) / stride; }

// Every stride-th point along each axis of an interior field, C order (n3, n2, n1) in and out (the field
// itself at stride 1: no copy of a whole frame).
std::vector<float> decimated(std::vector<float>&& field, const std::array<int, 3>& n, int stride) {
  if (stride == 1) return std::move(field);
  std::vector<float> out;
  out.reserve(std::size_t(pointsAlong(n[0], stride)) * pointsAlong(n[1], stride) * pointsAlong(n[2], stride));
  for (int k = 0; k < n[2]; k += stride)
    for (int j = 0; j < n[1]; j += stride)
      for (int i = 0; i < n[0]; i += stride) out.push_back(field[(std::size_t(k) * n[1] + j) * n[0] + i]);
  return out;
}

void makeFolder(const std::string& folder) {
  if (folder.empty()) throw FileWriteError("the series needs a folder name (got an empty one)");
  std::error_code ec;
  if (fs::is_directory(folder, ec)) return;
  if (fs::exists(folder, ec)) throw FileWriteError("'" + folder + "' exists and is not a folder");
  if (::mkdir(folder.c_str(), 0777) != 0 && errno != EEXIST)  // not create_directories: a typo in a parent is an error
    throw FileWriteError("cannot create the folder '" + folder + "': " + std::strerror(errno));
}

}  // namespace

VtiSeriesWriter::VtiSeriesWriter(std::string folder, SeriesGeometry geometry, std::size_t capacity,
                                 std::function<void(const SeriesStats&, std::exception_ptr)> done)
    : folder_(std::move(folder)), geometry_(geometry), capacity_(std::max<std::size_t>(capacity, 1)), done_(std::move(done)) {
  const auto [n1, n2, n3] = geometry_.size;
  if (n1 < 1 || n2 < 1 || n3 < 1) throw std::invalid_argument("a wavefield series needs at least one point per axis");
  if (!(geometry_.dx > 0.0)) throw std::invalid_argument("a wavefield series needs a positive dx");
  if (geometry_.stride < 1) throw std::invalid_argument("the stride of a wavefield series must be at least 1");
  makeFolder(folder_);
  thread_ = std::thread([this] { run(); });
}

VtiSeriesWriter::~VtiSeriesWriter() {
  close();
  if (thread_.joinable()) thread_.join();
}

std::size_t VtiSeriesWriter::defaultCapacity(const SeriesGeometry& g) {
  constexpr std::size_t kFrames = 4, kBytes = std::size_t(1) << 30;
  const std::size_t frameBytes = std::size_t(std::max(g.size[0], 1)) * std::max(g.size[1], 1) * std::max(g.size[2], 1) * sizeof(float);
  return std::clamp<std::size_t>(kBytes / frameBytes, 1, kFrames);
}

std::size_t VtiSeriesWriter::memoryBytes(const SeriesGeometry& g, std::size_t capacity) {
  const auto points = [&](int stride) {
    return std::size_t(pointsAlong(g.size[0], stride)) * pointsAlong(g.size[1], stride) * pointsAlong(g.size[2], stride);
  };
  const std::size_t frame = points(1) * sizeof(float), decimatedFrame = g.stride > 1 ? points(g.stride) * sizeof(float) : 0;
  return (capacity + 1) * frame + decimatedFrame + kThreadBytes;
}

std::string VtiSeriesWriter::frameName(long step) {
  char name[48];
  std::snprintf(name, sizeof name, "wavefield_%06ld.vti", step);
  return name;
}

std::string VtiSeriesWriter::collectionPath() const { return (fs::path(folder_) / kCollectionName).string(); }

std::array<int, 3> VtiSeriesWriter::frameSize() const {
  const int s = geometry_.stride;
  return {pointsAlong(geometry_.size[0], s), pointsAlong(geometry_.size[1], s), pointsAlong(geometry_.size[2], s)};
}

void VtiSeriesWriter::push(long step, double time, std::vector<float> field) {
  const auto [n1, n2, n3] = geometry_.size;
  if (field.size() != std::size_t(n1) * n2 * n3)
    throw std::invalid_argument("a frame of " + std::to_string(field.size()) + " values for a grid of " +
                                std::to_string(std::size_t(n1) * n2 * n3) + " points");
  const auto start = Clock::now();
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return error_ || closed_ || queue_.size() < capacity_; });
  stats_.waitSeconds += secondsSince(start);
  if (error_) std::rethrow_exception(error_);
  if (closed_) throw std::logic_error("the wavefield series is closed");
  queue_.push_back({step, time, std::move(field)});
  changed_.notify_all();
}

void VtiSeriesWriter::close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
  changed_.notify_all();
}

void VtiSeriesWriter::finish() {
  close();
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(mutex_);
  if (error_) std::rethrow_exception(error_);
}

SeriesStats VtiSeriesWriter::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void VtiSeriesWriter::run() {
  for (;;) {
    Frame frame;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [this] { return closed_ || !queue_.empty(); });
      if (queue_.empty()) break;  // closed and drained
      frame = std::move(queue_.front());
      queue_.pop_front();
      changed_.notify_all();  // room for the next frame
    }
    try {
      write(frame);
    } catch (...) {
      std::lock_guard lock(mutex_);
      error_ = std::current_exception();
      queue_.clear();
      changed_.notify_all();
      break;
    }
  }
  SeriesStats stats;
  std::exception_ptr error;
  {
    std::lock_guard lock(mutex_);
    stats = stats_;
    error = error_;
  }
  if (done_) done_(stats, error);
}

void VtiSeriesWriter::write(Frame& frame) {
  const auto start = Clock::now();
  const double spacing = geometry_.dx * geometry_.stride;
  VtiImage image{frameSize(), {spacing, spacing, spacing}, {0.0, 0.0, 0.0},
                 {{"u", decimated(std::move(frame.field), geometry_.size, geometry_.stride)}}};
  const std::string name = frameName(frame.step);
  const std::string path = (fs::path(folder_) / name).string();
  writeVti(path, image);
  written_.emplace_back(frame.time, name);
  writeWholeFile(collectionPath(), collectionXml());
  std::error_code ec;
  const std::uintmax_t bytes = fs::file_size(path, ec);
  std::lock_guard lock(mutex_);
  ++stats_.frames;
  stats_.bytes += ec ? 0 : bytes;
  stats_.writeSeconds += secondsSince(start);
}

// ParaView's collection: each data set with its time; ParaView's animation steps through them.
std::string VtiSeriesWriter::collectionXml() const {
  std::string xml = "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
                    "  <Collection>\n";
  char line[160];
  for (const auto& [time, file] : written_) {
    std::snprintf(line, sizeof line, "    <DataSet timestep=\"%.17g\" group=\"\" part=\"0\" file=\"%s\"/>\n", time, file.c_str());
    xml += line;
  }
  return xml + "  </Collection>\n</VTKFile>\n";
}

}  // namespace iso
