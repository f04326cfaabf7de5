// ulibc/spin.hpp — the pause a waiting thread makes between two polls.
#pragma once

namespace ulibc {

// Tells the processor this is a spin-wait loop: on x86 the PAUSE instruction
// saves power and frees the core's resources for its SMT sibling, and leaving
// the loop does not flush the pipeline on a memory-order violation.
inline void spin_pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

}  // namespace ulibc
