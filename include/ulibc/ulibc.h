/* ulibc/ulibc.h — the C API of ULIBC (the primary API; C++ has ulibc.hpp).
 *
 * A process has one current mapping: the topology below ULIBC_FSROOT (or /),
 * a policy (ULIBC_POLICY, default scatter) and a thread count
 * (ULIBC_NUM_THREADS, else OMP_NUM_THREADS, else every usable processor).
 * It is built on first use or by ulibc_init*, and replaced by the setters.
 *
 * Errors are reported, never fatal: a function that fails returns -1 (or
 * NULL) and ulibc_last_error() returns a message for the calling thread.
 * Query functions are safe to call from many threads at once. */
#ifndef ULIBC_ULIBC_H
#define ULIBC_ULIBC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum ulibc_policy {
  ULIBC_SCATTER = 0,      /* spread threads over nodes first */
  ULIBC_COMPACT = 1,      /* fill one node, SMT siblings included, before the next */
  ULIBC_COMPACT_PLUS = 2, /* fill nodes in order, every core once before any sibling */
  ULIBC_NONE = 3          /* no binding: the baseline */
};

/* (Re)build the current mapping from the environment. 0 or -1. */
int ulibc_init(void);
/* The same with explicit choices; NULL / 0 falls back to the environment.
 * policy is a name: "scatter", "compact", "compact+", "none", "list:0,8,16-23". */
int ulibc_init_with(const char *fsroot, const char *policy, int nthreads);
/* Why the last failing call on this thread failed ("" if none did). */
const char *ulibc_last_error(void);

/* Replace the policy (enum ulibc_policy), keeping topology and thread count. */
int ulibc_set_affinity_policy(int policy);
/* Replace policy (by name, NULL keeps it) and thread count (0 keeps it). */
int ulibc_set_mapping(const char *policy, int nthreads);
/* The current policy's name; NULL on error. Valid until the mapping changes. */
const char *ulibc_get_policy_name(void);

int ulibc_get_num_threads(void);                 /* threads in the mapping */
int ulibc_get_num_procs(void);                   /* usable processors: online and allowed */
int ulibc_get_num_nodes(void);                   /* NUMA nodes of the machine */
int ulibc_get_online_numa_nodes(void);           /* nodes the mapping uses */
int ulibc_get_numa_online_cores(int node_index); /* threads mapped to that node */

/* Thread tid's placement (0 <= tid < ulibc_get_num_threads()). */
int ulibc_get_numa_procid(int tid);    /* OS processor id (-1 under ULIBC_NONE) */
int ulibc_get_numa_nodeid(int tid);    /* node index: dense, indexes per-node arrays */
int ulibc_get_numa_node_osid(int tid); /* the node's OS id */
int ulibc_get_numa_packageid(int tid); /* physical package id */
int ulibc_get_numa_coreid(int tid);    /* kernel core_id */
int ulibc_get_numa_smtid(int tid);     /* SMT rank within its core */
int ulibc_get_numa_ordcoreid(int tid); /* rank among the threads of its node */

/* Binding. The first bind of a thread remembers its mask;
 * ulibc_clear_affinity() restores it (nothing to do for an unbound thread). */
int ulibc_set_affinity(int proc); /* bind the calling thread to a processor */
int ulibc_clear_affinity(void);
/* Binds the calling thread to entry tid of the current mapping (nothing
 * under ULIBC_NONE). */
int ulibc_bind_thread_as(int tid);
/* The parts of ulibc_bind_openmp_team below that need no OpenMP runtime:
 * whether to bind (1), leave binding to the runtime (0, ulibc_last_error()
 * says why) or fail (-1); and the verdict after the region. */
int ulibc_openmp_team_plan(void);
int ulibc_openmp_team_result(int nthreads, int team_size, int failures);

#ifdef _OPENMP
#include <omp.h>
/* Inside a parallel region: bind the calling thread by omp_get_thread_num()
 * (the paper's usage). */
static inline int ulibc_bind_thread(void) { return ulibc_bind_thread_as(omp_get_thread_num()); }
/* Outside a parallel region: open one of ulibc_get_num_threads() threads and
 * bind each. Returns 1 if bound, 0 if binding was left to the OpenMP runtime
 * (policy none, or OMP_PLACES/OMP_PROC_BIND/GOMP_CPU_AFFINITY/KMP_AFFINITY
 * set and ULIBC_OUTSIDE_BINDING is not "override"; ulibc_last_error() says
 * which), -1 on error. Inline: it runs on the program's OpenMP runtime. */
static inline int ulibc_bind_openmp_team(void) {
  const int plan = ulibc_openmp_team_plan();
  if (plan != 1) return plan;
  const int n = ulibc_get_num_threads();
  int team = 0, failures = 0;
#pragma omp parallel num_threads(n) reduction(+ : failures)
  {
    if (omp_get_thread_num() == 0) team = omp_get_num_threads();
    failures += ulibc_bind_thread() != 0;
  }
  return ulibc_openmp_team_result(n, team, failures);
}
#endif

/* Node-local memory: page aligned, NULL with ulibc_last_error()
 * on failure, released with ulibc_lfree. */
enum ulibc_mem_flags {
  ULIBC_MEM_STRICT = 0,    /* only the node(s) asked for */
  ULIBC_MEM_PREFERRED = 1, /* the node first, others when it cannot */
  ULIBC_MEM_THP = 2,       /* transparent huge pages */
  ULIBC_MEM_HUGETLB = 4    /* explicit huge pages, falling back to THP, then base pages */
};
/* size bytes on node index node_index of the current mapping (strict): NULL
 * when that node has no memory this process may use. */
void *ulibc_lmalloc(size_t size, int node_index);
/* The same, but a node without memory this process may use gets the nearest
 * node that has it (by distance, ties to the lower id), and ulibc_lmalloc_note
 * says so: what the paper's lmalloc does (ulibc/compat.h), so that its loop
 * over node indices works on machines with memory-less nodes. */
void *ulibc_lmalloc_nearest(size_t size, int node_index);
/* size bytes on OS node node_id, with ulibc_mem_flags. */
void *ulibc_lmalloc_node(size_t size, int node_id, int flags);
/* size bytes interleaved over the OS nodes node_ids[0..count-1] (count 0:
 * every node with memory). */
void *ulibc_lmalloc_interleaved(size_t size, const int *node_ids, int count, int flags);
/* Frees memory from the ulibc_lmalloc* family. A pointer ULIBC did not hand
 * out, or one already freed, is refused with -1 and an error (not a crash). */
int ulibc_lfree(void *ptr);
/* Why an allocation got other pages than its flags asked for; "" if none. */
const char *ulibc_lmalloc_note(const void *ptr);
/* Pages of [addr, addr + size) that sit on OS node node_id now, without
 * moving or allocating anything; node_id -1 counts pages not yet touched.
 * Any mapped range works, not only ULIBC's. -1 on error. */
long ulibc_pages_on_node(const void *addr, size_t size, int node_id);

/* The hierarchical NUMA barrier for the current mapping's threads. */
typedef struct ulibc_barrier ulibc_barrier;
ulibc_barrier *ulibc_barrier_create(void);
int ulibc_barrier_wait(ulibc_barrier *b, int tid); /* every tid of the mapping, each episode */
void ulibc_barrier_destroy(ulibc_barrier *b);

/* Fork/join tasks on the current mapping's threads (ulibc/tasks.hpp): one worker per thread, bound to it;
 * scheduler "random", "hierarchical" or "adws" (NULL: random). NULL on error. */
typedef struct ulibc_tasks ulibc_tasks;
ulibc_tasks *ulibc_tasks_create(const char *scheduler);
/* body(i, j, arg) on pieces [i, j) of [begin, end) of at most grain elements, in parallel, split by recursive
 * halving (under adws, piece k of W on worker k); returns when all have run. 0, or -1 for a grain of 0 or
 * end < begin. */
int ulibc_tasks_parallel_for(ulibc_tasks *t, size_t begin, size_t end, size_t grain,
                             void (*body)(size_t begin, size_t end, void *arg), void *arg);
int ulibc_tasks_current_worker(void); /* inside a body: the worker running it; -1 elsewhere */
void ulibc_tasks_destroy(ulibc_tasks *t);

#ifdef __cplusplus
}
#endif

#endif /* ULIBC_ULIBC_H */
