// main() of core_tests: a program built on core alone knows the CPU stages, which it registers first
// thing (core/CpuSolvers.h), then every test.
#include <gtest/gtest.h>

#include "core/CpuSolvers.h"

int main(int argc, char** argv) {
  iso::registerCpuStages();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
