#include "compute/OpenClPictureRenderer.h"

#include <algorithm>
#include <stdexcept>

#include <glm/gtc/type_ptr.hpp>

#include "compute/KernelSources.h"
#include "core/GridWorld.h"

namespace iso {
namespace {

// pic_params of picture.cl, member for member (4-byte members only: the same layout on both sides).
struct PictureParams {
  float toGrid[16];
  float eye[4];
  float size[4];
  float point[4];
  int n[4];
  int width, height, sceneWidth, layers;
  float clip, rangeLow, tint, velLo, velHi;
  std::uint32_t background;
  int crossings, pixels;
};
static_assert(sizeof(PictureParams) == 44 * 4, "pic_params in picture.cl has 44 four-byte members");

PictureParams paramsOf(const SlicePicture& p, const SliceSet& s, int layers, PicturePixels pixels) {
  PictureParams q{};
  const std::array<int, 3> size{s.n1, s.n2, s.n3};
  const glm::mat4 toGrid = worldToGridMatrix(size) * glm::inverse(p.worldToClip);
  std::copy_n(glm::value_ptr(toGrid), 16, q.toGrid);
  const int point[3] = {s.i, s.j, s.k};
  for (int a = 0; a < 3; ++a) {
    q.eye[a] = p.eye[a];
    q.size[a] = float(size[std::size_t(a)]);
    q.point[a] = float(point[a]) + 0.5f;  // through the centre of the slice's cells, as the quads lie
    q.n[a] = size[std::size_t(a)];
  }
  q.width = p.width, q.height = p.height, q.sceneWidth = p.sceneWidth, q.layers = layers;
  q.clip = p.clip, q.rangeLow = p.rangeLow, q.tint = p.tintOpacity;
  q.velLo = p.velocityRange[0], q.velHi = p.velocityRange[1];
  q.background = p.background;
  q.crossings = p.smoothCrossings ? 1 : 0;
  q.pixels = pixels == PicturePixels::Rgba ? 0 : pixels == PicturePixels::VideoPlanes ? 1 : 2;  // PIC_RGBA, PIC_PLANES, PIC_RGB32
  return q;
}

}  // namespace

OpenClPictureRenderer::OpenClPictureRenderer(const ClContext& solverContext, Build when)
    : ctx_(ClContext::sharing(solverContext)) {
  if (when == Build::InBackground) building_ = std::async(std::launch::async, [this] { return build(ctx_); });
}

OpenClPictureRenderer::~OpenClPictureRenderer() {
  for (const Flight& f : flight_) f.read.wait();  // the device must not write memory that goes
  for (PinnedMemory& slot : readBack_) unmap(slot);
  clFinish(ctx_.queue());  // the unmaps done before their buffers go; a failure here cannot be reported
}

void OpenClPictureRenderer::unmap(PinnedMemory& pinned) {
  if (pinned.memory != nullptr) clEnqueueUnmapMemObject(ctx_.queue(), pinned.buffer.get(), pinned.memory, 0, nullptr, nullptr);
  pinned.memory = nullptr;
}

std::uint8_t* OpenClPictureRenderer::ensure(PinnedMemory& pinned, std::size_t bytes, const char* what) {
  if (pinned.bytes >= bytes) return pinned.memory;
  if (pinned.memory != nullptr)
    checkCl(clEnqueueUnmapMemObject(ctx_.queue(), pinned.buffer.get(), pinned.memory, 0, nullptr, nullptr),
            "clEnqueueUnmapMemObject", what);
  pinned = PinnedMemory{};
  pinned.buffer = Buffer<std::uint8_t>(ctx_, bytes, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, what);
  cl_int err = CL_SUCCESS;
  void* mapped = clEnqueueMapBuffer(ctx_.queue(), pinned.buffer.get(), CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
                                    nullptr, nullptr, &err);
  checkCl(err, "clEnqueueMapBuffer", what);
  pinned.memory = static_cast<std::uint8_t*>(mapped);
  pinned.bytes = bytes;
  return pinned.memory;
}

OpenClPictureRenderer::BuiltProgram OpenClPictureRenderer::build(const ClContext& ctx) {
  BuiltProgram b;
  b.program = Program(ctx, {kernelSource("picture.cl"), "", "picture renderer (picture.cl)"});
  b.kernel = b.program.kernel("picture_blocks");
  b.colormap = Buffer<std::uint32_t>(ctx, kColourTableEntries, CL_MEM_READ_ONLY, "picture colormap");
  b.layerTable = Buffer<int>(ctx, 5 * SlicePicture::kMaxLayers, CL_MEM_READ_ONLY, "picture layer table");
  return b;
}

void OpenClPictureRenderer::ensureBuilt() {
  if (built_) return;
  BuiltProgram b = building_.valid() ? building_.get() : build(ctx_);  // a failed build is tried again next time
  program_ = std::move(b.program);
  kernel_ = std::move(b.kernel);
  colormap_ = std::move(b.colormap);
  layerTable_ = std::move(b.layerTable);
  built_ = true;
}

Event OpenClPictureRenderer::send(cl_mem to, std::size_t offset, std::size_t bytes, const void* from) const {
  cl_event done = nullptr;
  checkCl(clEnqueueWriteBuffer(ctx_.queue(), to, CL_FALSE, offset, bytes, from, 0, nullptr, &done),
          "clEnqueueWriteBuffer", "picture input, " + std::to_string(bytes) + " bytes");
  return Event(done);
}

Event OpenClPictureRenderer::sendPlanes(const SliceSet& slices, const std::shared_ptr<const SliceSet>& velocity, bool tints) {
  const std::size_t floats = slices.planeFloats();
  if (planes_.size() != floats) {
    planes_ = Buffer<float>(ctx_, floats, CL_MEM_READ_ONLY, "picture planes");
    velocity_ = Buffer<float>(ctx_, floats, CL_MEM_READ_ONLY, "picture velocity planes");
    velocitySent_.reset();
  }
  Event planes = send(planes_.get(), 0, floats * sizeof(float), slices.planes().data());
  if (!tints || velocity == velocitySent_) return planes;
  velocitySent_ = velocity;  // held: the write reads it later
  send(velocity_.get(), 0, floats * sizeof(float), velocity->planes().data());
  return planes;
}

void OpenClPictureRenderer::sendColormap(const SlicePicture& picture) {
  if (colormapSent_ == picture.colormap) return;
  colormapSent_ = picture.colormap;
  send(colormap_.get(), 0, sizeof picture.colormap, colormapSent_->data());  // a member: alive while queued
}

void OpenClPictureRenderer::sendLayers(const std::vector<PictureLayer>& layers) {
  std::vector<std::array<int, 5>> places;
  int words = 0;
  for (const PictureLayer& l : layers) {
    places.push_back({l.x, l.y, l.width, l.height, words});
    words += l.width * l.height;
  }
  if (places != layerPlaces_) {  // a new layout: everything again
    layerPlaces_ = places;
    layerGenerations_.assign(layers.size(), 0);
    if (std::size_t(words) > layerWords_.size())
      layerWords_ = Buffer<std::uint32_t>(ctx_, std::size_t(words) * 2, CL_MEM_READ_ONLY, "picture layers");
    if (!places.empty()) send(layerTable_.get(), 0, places.size() * sizeof places[0], layerPlaces_.data());
  }
  // Straight from the caller's (pageable) memory, which the layers keep until the picture is collected:
  // staging them through page-locked memory of the renderer's first cost the GUI thread 2-4 ms a picture on
  // an H200's host, against 0.3-1.2 this way (docs/PERFORMANCE.md).
  for (std::size_t n = 0; n < layers.size(); ++n) {
    const PictureLayer& l = layers[n];
    if (layerGenerations_[n] == l.generation && l.generation != 0) continue;  // 0: contents without a name
    layerGenerations_[n] = l.generation;
    const std::size_t origin[3] = {0, 0, 0};
    const std::size_t at[3] = {std::size_t(layerPlaces_[n][4]) * 4, 0, 0};
    const std::size_t region[3] = {std::size_t(l.width) * 4, std::size_t(l.height), 1};
    checkCl(clEnqueueWriteBufferRect(ctx_.queue(), layerWords_.get(), CL_FALSE, at, origin, region, std::size_t(l.width) * 4, 0,
                                     std::size_t(l.stride) * 4, 0, l.pixels, 0, nullptr, nullptr),
            "clEnqueueWriteBufferRect", "picture layer " + std::to_string(n));
  }
}

void OpenClPictureRenderer::start(const SlicePicture& picture, std::shared_ptr<const SliceSet> slices,
                                  std::shared_ptr<const SliceSet> velocity, std::vector<PictureLayer> layers,
                                  PicturePixels pixels) {
  if (!slices) throw std::invalid_argument("a picture without slices");
  if (const std::string problem = slicePictureProblem(picture, *slices, velocity.get(), layers, pixels); !problem.empty())
    throw std::invalid_argument(problem);
  if (inFlight() >= kSlots) throw std::logic_error("OpenClPictureRenderer: " + std::to_string(kSlots) + " pictures already on their way");
  ensureBuilt();
  releaseSentSlices();
  const std::size_t bytes = pictureBytes(picture.width, picture.height, pixels);
  // The read-back memory is mapped (a blocking call, which waits for what the queue holds) before anything
  // of this picture is queued: all slots at once when nothing is on its way, as a recording starts.
  if (flight_.empty())
    for (PinnedMemory& slot : readBack_) ensure(slot, bytes, "picture read-back");
  std::uint8_t* memory = ensure(readBack_[std::size_t(nextSlot_)], bytes, "picture read-back");
  Event planesSent = sendPlanes(*slices, velocity, picture.tintOpacity > 0.0f);
  sendColormap(picture);
  sendLayers(layers);
  if (out_.size() < bytes) out_ = Buffer<std::uint8_t>(ctx_, bytes, CL_MEM_WRITE_ONLY, "picture");
  const PictureParams params = paramsOf(picture, *slices, int(layers.size()), pixels);
  const Buffer<std::uint32_t>& words = layerWords_.size() > 0 ? layerWords_ : colormap_;  // any buffer when there are none
  NDRange range;
  range.dims = 2;
  range.global = {std::size_t(picture.width + 1) / 2, std::size_t(picture.height + 1) / 2, 1};
  Flight f;
  f.kernel = kernel_.args(params, planes_, velocity_, colormap_, layerTable_, words, out_).launch(ctx_, range);
  f.slot = nextSlot_;
  nextSlot_ = (nextSlot_ + 1) % kSlots;
  f.bytes = bytes;
  out_.read(ctx_, memory, bytes, 0, &f.read);
  checkCl(clFlush(ctx_.queue()), "clFlush", "picture");
  f.slices = std::move(slices);
  f.planesSent = std::move(planesSent);
  f.velocity = std::move(velocity);
  f.layers = std::move(layers);
  flight_.push_back(std::move(f));
}

void OpenClPictureRenderer::releaseSentSlices() {
  for (Flight& f : flight_)
    if (f.slices && f.planesSent.complete()) f.slices.reset();
}

void OpenClPictureRenderer::collect(const std::function<void(std::span<const std::uint8_t> bytes)>& use) {
  if (flight_.empty()) throw std::logic_error("OpenClPictureRenderer: no picture on its way");
  Flight f = std::move(flight_.front());
  flight_.pop_front();
  f.read.wait();
  ++times_.pictures;
  times_.kernelSeconds += f.kernel.seconds();
  times_.readSeconds += f.read.seconds();
  use({readBack_[std::size_t(f.slot)].memory, f.bytes});
}

}  // namespace iso
