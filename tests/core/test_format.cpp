// The number formats of messages and tables.
#include <gtest/gtest.h>

#include "core/Format.h"

namespace iso {
namespace {

TEST(Format, ShortNumberKeepsSixSignificantDigitsInTheShortestForm) {
  EXPECT_EQ(shortNumber(0.5), "0.5");
  EXPECT_EQ(shortNumber(100000), "100000");
  EXPECT_EQ(shortNumber(1e30), "1e+30");
  EXPECT_EQ(shortNumber(3.14159265), "3.14159");
}

TEST(Format, RoundedNumberHasThreeDigitsAndWholeNumbersFromOneHundred) {
  EXPECT_EQ(roundedNumber(0.0012345), "0.00123");
  EXPECT_EQ(roundedNumber(12.345), "12.3");
  EXPECT_EQ(roundedNumber(4500.4), "4500");
  EXPECT_EQ(roundedNumber(-250.6), "-251");
}

TEST(Format, GibibytesArePowersOfTwo) {
  EXPECT_EQ(byteSize(1024.0 * 1024.0 * 1024.0), "1.00 GiB");
  EXPECT_EQ(byteSize(1.5 * 1024.0 * 1024.0 * 1024.0), "1.50 GiB");
  EXPECT_EQ(byteSize(20.0 * 1024.0 * 1024.0), "20.0 MiB");
  EXPECT_EQ(byteSize(0), "0 bytes");
}

}  // namespace
}  // namespace iso
