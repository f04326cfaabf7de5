// os/os.hpp — the OS layer: every call ULIBC makes to the operating system, one header per concern, and the one
// rule they all keep.
//
// The rule (mimalloc's for its primitives): nothing here throws, prints or decides what a failure means. A call
// that can fail says so in what it returns: the errno of the failure, as an int result (0: it worked) or in the
// returned struct's `error`, with what it made or found handed through its last parameter or in that struct; a
// value the kernel may simply not have (an absent file or field, no CPUID) is an empty std::optional. The layer
// above turns a failure into an Error of the right kind with a message naming what was asked, or into nothing
// to report. Each header says which of these its calls use.
#pragma once

#include "os/affinity.hpp"
#include "os/cpuid.hpp"
#include "os/fs.hpp"
#include "os/kernel_mask.hpp"
#include "os/meminfo.hpp"
#include "os/memory.hpp"
#include "os/pages.hpp"
#include "os/process.hpp"
#include "os/process_control.hpp"
