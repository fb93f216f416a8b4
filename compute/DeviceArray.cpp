#include "compute/DeviceArray.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/Half.h"

namespace iso {

namespace {

// The bytes of `count` floats · scale as stored.
std::vector<unsigned char> encoded(const float* values, std::size_t count, float scale, bool half) {
  std::vector<unsigned char> bytes(count * (half ? 2 : 4));
  for (std::size_t i = 0; i < count; ++i) {
    const float v = values[i] * scale;
    if (half) {
      const std::uint16_t h = floatToHalf(v);
      std::memcpy(bytes.data() + 2 * i, &h, 2);
    } else {
      std::memcpy(bytes.data() + 4 * i, &v, 4);
    }
  }
  return bytes;
}

void decode(const unsigned char* bytes, std::size_t count, float scale, bool half, float* out) {
  for (std::size_t i = 0; i < count; ++i) {
    float v;
    if (half) {
      std::uint16_t h;
      std::memcpy(&h, bytes + 2 * i, 2);
      v = halfToFloat(h);
    } else {
      std::memcpy(&v, bytes + 4 * i, 4);
    }
    out[i] = v * scale;
  }
}

}  // namespace

DeviceArray::DeviceArray(const ClContext& ctx, std::size_t count, bool half, std::size_t guard, float guardValue,
                         const std::string& what)
    : half_(half), count_(count) {
  const std::size_t element = elementBytes();
  if (guard == 0) {
    array_ = Buffer<unsigned char>(ctx, count * element, CL_MEM_READ_WRITE, what);
    return;
  }
  const std::size_t align = std::max<std::size_t>(ctx.baseAddressAlignBytes() / element, 1);
  guard_ = (guard + align - 1) / align * align;
  parent_ = Buffer<unsigned char>(ctx, (count + 2 * guard_) * element, CL_MEM_READ_WRITE, "guarded " + what);
  const std::vector<unsigned char> pattern = encoded(&guardValue, 1, 1.0f, half);
  checkCl(clEnqueueFillBuffer(ctx.queue(), parent_.get(), pattern.data(), pattern.size(), 0, parent_.bytes(), 0,
                              nullptr, nullptr),
          "clEnqueueFillBuffer", "filling the guard regions of " + what);
  array_ = Buffer<unsigned char>::subBuffer(parent_, guard_ * element, count * element);
}

void DeviceArray::fillZero(const ClContext& ctx) const {
  // A pattern of one element, not one byte: NVIDIA's driver (580) never returned from a fill whose count
  // of 1-byte patterns passed 2^31 (a 2.3 GB buffer: one core busy, the GPU idle), and every buffer the
  // kernels index has fewer than 2^31 elements.
  const std::vector<unsigned char> zero(elementBytes(), 0);
  checkCl(clEnqueueFillBuffer(ctx.queue(), array_.get(), zero.data(), zero.size(), 0, array_.bytes(), 0, nullptr, nullptr),
          "clEnqueueFillBuffer", "zeroing a field buffer");
}

void DeviceArray::write(const ClContext& ctx, const std::vector<float>& values, float scale) const {
  const std::vector<unsigned char> bytes = encoded(values.data(), std::min(values.size(), count_), scale, half_);
  array_.write(ctx, bytes.data(), bytes.size());
}

void DeviceArray::read(const ClContext& ctx, float* out, std::size_t offset, std::size_t count, float scale) const {
  std::vector<unsigned char> bytes(count * elementBytes());
  array_.read(ctx, bytes.data(), bytes.size(), offset * elementBytes());
  decode(bytes.data(), count, scale, half_, out);
}

void DeviceArray::readInterior(const ClContext& ctx, const Grid& g, float* out, float scale) const {
  const std::size_t e = elementBytes(), R = kHalfLength;
  const std::size_t bufferOrigin[3] = {R * e, R, R}, hostOrigin[3] = {0, 0, 0};
  const std::size_t region[3] = {std::size_t(g.n1) * e, std::size_t(g.n2), std::size_t(g.n3)};
  std::vector<unsigned char> bytes(g.interiorSize() * e);
  checkCl(clEnqueueReadBufferRect(ctx.queue(), get(), CL_TRUE, bufferOrigin, hostOrigin, region, std::size_t(g.nx()) * e,
                                  g.planeSize() * e, std::size_t(g.n1) * e, std::size_t(g.n1) * g.n2 * e, bytes.data(),
                                  0, nullptr, nullptr),
          "clEnqueueReadBufferRect", "reading the field");
  decode(bytes.data(), g.interiorSize(), scale, half_, out);
}

std::vector<float> DeviceArray::readAllocation(const ClContext& ctx) const {
  const Buffer<unsigned char>& whole = guard_ ? parent_ : array_;
  std::vector<unsigned char> bytes(whole.bytes());
  whole.read(ctx, bytes.data(), bytes.size());
  std::vector<float> out(bytes.size() / elementBytes());
  decode(bytes.data(), out.size(), 1.0f, half_, out.data());
  return out;
}

}  // namespace iso
