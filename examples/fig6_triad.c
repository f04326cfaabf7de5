/* fig6_triad.c — the ULIBC paper's Fig. 6 in C: STREAM Triad with one array
 * part per NUMA node, written with the paper's own function names.
 *
 *   usage: fig6_triad [POLICY [THREADS [N]]]     (defaults: scatter, all, 4 Mi)
 *
 * Each node index k gets arrays of len[k] elements from lmalloc(…, k), in
 * proportion to the threads mapped to it; each thread binds itself with
 * set_affinity, works on its ordcoreid-th slice of its node's arrays and
 * unbinds with clear_affinity. The program then shows where every thread ran
 * and where every page sits, and fails if either differs from the mapping. */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <ulibc/compat.h>
#include <unistd.h>

enum { A, B, C, ARRAYS };

int main(int argc, char **argv) {
  const char *policy = argc > 1 ? argv[1] : "scatter";
  const int asked = argc > 2 ? atoi(argv[2]) : 0;
  const size_t n = argc > 3 ? strtoull(argv[3], NULL, 10) : (size_t)1 << 22;
  if (ulibc_init_with(NULL, policy, asked) != 0) {
    fprintf(stderr, "fig6_triad: %s\n", ulibc_last_error());
    return 2;
  }
  const int threads = ulibc_get_num_threads(), nodes = get_online_numa_nodes();
  if (n < (size_t)threads) {
    fprintf(stderr, "fig6_triad: n = %zu is smaller than the %d threads\n", n, threads);
    return 2;
  }
  const size_t page = (size_t)sysconf(_SC_PAGESIZE);
  const int bound = get_numa_procid(0) >= 0; /* policy none binds nothing */
  double *(*arr)[ARRAYS] = calloc((size_t)nodes, sizeof *arr);
  size_t *len = calloc((size_t)nodes, sizeof *len);
  int *node_id = calloc((size_t)nodes, sizeof *node_id), *cpu = calloc((size_t)threads, sizeof *cpu);
  int failures = 0;

  /* Node k's share of n is proportional to the threads mapped to it. */
  size_t before = 0;
  for (int k = 0; k < nodes; ++k) {
    const size_t cores = (size_t)get_numa_online_cores(k);
    len[k] = n * (before + cores) / (size_t)threads - n * before / (size_t)threads;
    before += cores;
    for (int x = 0; x < ARRAYS; ++x)
      if (!(arr[k][x] = lmalloc(len[k] * sizeof(double), k))) {
        fprintf(stderr, "fig6_triad: lmalloc on node index %d: %s\n", k, ulibc_last_error());
        return 1;
      }
  }
  for (int t = 0; t < threads; ++t) node_id[get_numa_nodeid(t)] = ulibc_get_numa_node_osid(t);

#pragma omp parallel num_threads(threads)
  {
    const int id = omp_get_thread_num();
    if (bound) set_affinity(get_numa_procid(id));
    const int k = get_numa_nodeid(id), r = get_numa_ordcoreid(id), m = get_numa_online_cores(k);
    double *a = arr[k][A], *b = arr[k][B], *c = arr[k][C];
    const size_t lo = len[k] * (size_t)r / (size_t)m, hi = len[k] * (size_t)(r + 1) / (size_t)m;
    for (size_t i = lo; i < hi; ++i) b[i] = 1.0, c[i] = 2.0; /* first touch, by the owner */
    for (size_t i = lo; i < hi; ++i) a[i] = b[i] + 3.0 * c[i];
    cpu[id] = sched_getcpu();
    clear_affinity();
  }

  printf("policy %s, %d threads, %d node(s), n = %zu\n", ulibc_get_policy_name(), threads, nodes, n);
  for (int t = 0; t < threads; ++t) {
    const int mapped = get_numa_procid(t);
    printf("  thread %2d ran on processor %2d, mapped to %2d (node index %d)\n", t, cpu[t], mapped, get_numa_nodeid(t));
    failures += bound && cpu[t] != mapped;
  }
  for (int k = 0; k < nodes; ++k) {
    const size_t bytes = len[k] * sizeof(double);
    long pages = 0, local = 0;
    for (int x = 0; x < ARRAYS; ++x) {
      for (size_t i = 0; i < len[k]; ++i) failures += arr[k][x][i] != (x == A ? 7.0 : x == B ? 1.0 : 2.0);
      local += ulibc_pages_on_node(arr[k][x], bytes, node_id[k]);
      pages += (long)((bytes + page - 1) / page);
    }
    if (bound)
      printf("  node index %d (node %d): %zu elements, %ld of %ld pages on the node\n", k, node_id[k], len[k], local,
             pages);
    else
      printf("  %zu elements, unbound: pages where first touch put them\n", len[k]);
    failures += bound && local != pages;
  }
  for (int k = 0; k < nodes; ++k)
    for (int x = 0; x < ARRAYS; ++x) lfree(arr[k][x]);
  free(arr), free(len), free(node_id), free(cpu);
  printf("%s\n", failures ? "FAILED: see the lines above" : "every thread and every page where the mapping says");
  return failures ? 1 : 0;
}
