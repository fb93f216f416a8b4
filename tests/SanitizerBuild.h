#pragma once
// Whether this build runs under a sanitizer (CMake's ISO_SANITIZE). There the cpu-parallel kernels are
// built without FMA contraction (core/CpuParallelSolver.cpp says why), so they compute cpu-serial's bits
// exactly: a test whose premise is their round-off difference has nothing to show in such a build.
namespace iso::test {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitizerBuild = true;
#else
inline constexpr bool kSanitizerBuild = false;
#endif
}  // namespace iso::test
