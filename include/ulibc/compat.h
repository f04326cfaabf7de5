/* ulibc/compat.h — the ULIBC paper's bare names, for code written against it.
 * Each is the prefixed function of ulibc.h under its original name; lmalloc
 * is ulibc_lmalloc_nearest, so a memory-less node gets its nearest memory
 * (the strict ulibc_lmalloc stays available under its prefixed name). */
#ifndef ULIBC_COMPAT_H
#define ULIBC_COMPAT_H

#include "ulibc/ulibc.h"

enum { SCATTER = ULIBC_SCATTER, COMPACT = ULIBC_COMPACT, COMPACT_PLUS = ULIBC_COMPACT_PLUS };

static inline int set_affinity_policy(int policy) { return ulibc_set_affinity_policy(policy); }
static inline int get_online_numa_nodes(void) { return ulibc_get_online_numa_nodes(); }
static inline int get_numa_online_cores(int node) { return ulibc_get_numa_online_cores(node); }
static inline int get_numa_procid(int tid) { return ulibc_get_numa_procid(tid); }
static inline int get_numa_nodeid(int tid) { return ulibc_get_numa_nodeid(tid); }
static inline int get_numa_coreid(int tid) { return ulibc_get_numa_coreid(tid); }
static inline int get_numa_smtid(int tid) { return ulibc_get_numa_smtid(tid); }
static inline int get_numa_ordcoreid(int tid) { return ulibc_get_numa_ordcoreid(tid); }
static inline void *lmalloc(size_t size, int node) { return ulibc_lmalloc_nearest(size, node); }
static inline void lfree(void *ptr) { (void)ulibc_lfree(ptr); }
static inline int set_affinity(int proc) { return ulibc_set_affinity(proc); }
static inline void clear_affinity(void) { (void)ulibc_clear_affinity(); }

#endif /* ULIBC_COMPAT_H */
