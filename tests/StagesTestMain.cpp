// main() of the test programs that link compute: the stages registered first thing, as the programs
// register them (compute/Stage.h), then every test.
#include <gtest/gtest.h>

#include "compute/Stage.h"

int main(int argc, char** argv) {
  iso::registerStages();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
