// The host's IEEE half conversions (core/Half.h), which must round exactly as a device's vstore_half_rte
// does: checked against the compiler's own _Float16 conversion (round to nearest, ties to even) on every
// half and on floats spread over the whole 32-bit range.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/Half.h"

namespace iso {
namespace {

#if defined(__FLT16_MAX__)
std::uint16_t compilerHalf(float value) {
  volatile float v = value;  // converted at run time, not folded
  return std::bit_cast<std::uint16_t>(static_cast<_Float16>(v));
}
#endif

TEST(Half, EveryHalfConvertsToTheFloatItIsAndBack) {
  for (std::uint32_t bits = 0; bits <= 0xffffu; ++bits) {
    const float f = halfToFloat(std::uint16_t(bits));
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(f)))) << std::hex << bits;
      continue;
    }
    EXPECT_EQ(floatToHalf(f), bits) << std::hex << bits;
#if defined(__FLT16_MAX__)
    EXPECT_EQ(std::bit_cast<std::uint16_t>(static_cast<_Float16>(f)), bits) << std::hex << bits;
#endif
  }
}

TEST(Half, RoundsToNearestWithTiesToEven) {
  const float ulpAtOne = 1.0f / 1024.0f;  // half keeps 10 bits after the point
  EXPECT_EQ(halfToFloat(floatToHalf(1.0f + 0.5f * ulpAtOne)), 1.0f);                          // tie: even 1.0
  EXPECT_EQ(halfToFloat(floatToHalf(1.0f + 1.5f * ulpAtOne)), 1.0f + 2.0f * ulpAtOne);        // tie: even up
  EXPECT_EQ(halfToFloat(floatToHalf(1.0f + 0.5001f * ulpAtOne)), 1.0f + ulpAtOne);            // past the tie
  EXPECT_EQ(halfToFloat(floatToHalf(65504.0f)), 65504.0f);                                     // the largest half
  EXPECT_EQ(halfToFloat(floatToHalf(65519.0f)), 65504.0f);                                     // still rounds down
  EXPECT_TRUE(std::isinf(halfToFloat(floatToHalf(65520.0f))));                                 // rounds beyond it
  EXPECT_EQ(halfToFloat(floatToHalf(-1e9f)), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(halfToFloat(floatToHalf(std::ldexp(1.0f, -24))), std::ldexp(1.0f, -24));          // smallest subnormal
  EXPECT_EQ(halfToFloat(floatToHalf(std::ldexp(1.0f, -25))), 0.0f);                           // tie: even 0
  EXPECT_EQ(halfToFloat(floatToHalf(std::ldexp(1.5f, -25))), std::ldexp(1.0f, -24));
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000u);
}

#if defined(__FLT16_MAX__)
TEST(Half, AgreesWithTheCompilersConversionAcrossTheFloats) {
  // Every 4099th bit pattern: every exponent, signs, NaNs, infinities, subnormals and ties along the way.
  for (std::uint64_t bits = 0; bits <= 0xffffffffu; bits += 4099) {
    const float f = std::bit_cast<float>(std::uint32_t(bits));
    const std::uint16_t ours = floatToHalf(f), theirs = compilerHalf(f);
    if (std::isnan(f))
      EXPECT_TRUE(std::isnan(halfToFloat(ours))) << std::hex << bits;
    else
      ASSERT_EQ(ours, theirs) << std::hex << bits << " = " << f;
  }
}
#endif

}  // namespace
}  // namespace iso
