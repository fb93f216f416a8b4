#include "core/Half.h"

#include <bit>

namespace iso {

std::uint16_t floatToHalf(float value) {
  const std::uint32_t f = std::bit_cast<std::uint32_t>(value);
  const std::uint16_t sign = std::uint16_t((f >> 16) & 0x8000u);
  const std::uint32_t magnitude = f & 0x7fffffffu;
  if (magnitude >= 0x7f800000u)  // infinity or NaN (a NaN keeps a payload bit so that it stays one)
    return std::uint16_t(sign | 0x7c00u | (magnitude > 0x7f800000u ? 0x200u : 0u));
  if (magnitude >= 0x477ff000u) return std::uint16_t(sign | 0x7c00u);  // rounds to beyond 65504
  if (magnitude < 0x38800000u) {  // below the smallest normal half: a subnormal or 0
    if (magnitude < 0x33000000u) return sign;  // below half the smallest subnormal (ties go to even 0)
    // value / 2^-24 = mantissa · 2^(exponent − 126), exponent <= 112
    const int shift = 126 - int(magnitude >> 23);  // 14 .. 24
    const std::uint32_t mantissa = (magnitude & 0x7fffffu) | 0x800000u;
    const std::uint32_t lost = mantissa & ((1u << shift) - 1u), halfway = 1u << (shift - 1);
    std::uint32_t half = mantissa >> shift;
    if (lost > halfway || (lost == halfway && (half & 1u))) ++half;  // may carry into the smallest normal
    return std::uint16_t(sign | half);
  }
  // A normal half: rebias the exponent, round the 13 mantissa bits that go (a carry may raise the
  // exponent, which is what rounding up to the next power of two means).
  std::uint32_t half = ((magnitude - 0x38000000u) >> 13);
  const std::uint32_t lost = magnitude & 0x1fffu;
  if (lost > 0x1000u || (lost == 0x1000u && (half & 1u))) ++half;
  return std::uint16_t(sign | half);
}

float halfToFloat(std::uint16_t bits) {
  const std::uint32_t sign = std::uint32_t(bits & 0x8000u) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1fu, mantissa = bits & 0x3ffu;
  if (exponent == 0x1fu) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  if (exponent != 0) return std::bit_cast<float>(sign | ((exponent + 112u) << 23) | (mantissa << 13));
  // A subnormal half (or 0): mantissa · 2^-24, exact in float.
  const float value = float(mantissa) * 5.9604644775390625e-8f;
  return sign ? -value : value;
}

}  // namespace iso
