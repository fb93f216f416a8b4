#include "core/FlushDenormals.h"

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

namespace iso {

namespace {

#if defined(__x86_64__) || defined(__i386__)
constexpr unsigned kFlushBits = 0x8040u;  // FTZ (bit 15) | DAZ (bit 6)
unsigned long long readMode() { return _mm_getcsr(); }
void writeMode(unsigned long long mode) { _mm_setcsr(unsigned(mode)); }
#elif defined(__aarch64__)
constexpr unsigned long long kFlushBits = 1ull << 24;  // FPCR.FZ
unsigned long long readMode() {
  unsigned long long fpcr;
  asm volatile("mrs %0, fpcr" : "=r"(fpcr));
  return fpcr;
}
void writeMode(unsigned long long mode) { asm volatile("msr fpcr, %0" : : "r"(mode)); }
#else
constexpr unsigned long long kFlushBits = 0;  // no known control here: arithmetic stays IEEE
unsigned long long readMode() { return 0; }
void writeMode(unsigned long long) {}
#endif

}  // namespace

FlushDenormals::FlushDenormals() : saved_(readMode()) {
  if ((saved_ & kFlushBits) != kFlushBits) writeMode(saved_ | kFlushBits);
}

// Only the flush bits go back: exception flags raised in the scope stay raised, as they would without it.
FlushDenormals::~FlushDenormals() {
  if ((saved_ & kFlushBits) != kFlushBits) writeMode((readMode() & ~kFlushBits) | (saved_ & kFlushBits));
}

bool FlushDenormals::active() { return kFlushBits != 0 && (readMode() & kFlushBits) == kFlushBits; }

}  // namespace iso
