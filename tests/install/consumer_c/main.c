/* main.c — an installed-tree consumer of the C API, built with pkg-config only.
 * usage: consumer_c [FSROOT [POLICY [THREADS]]]; "-" or no FSROOT: the live machine.
 * Prints the policy, the counts and one line per thread through the paper's
 * bare names (ulibc/compat.h) and the prefixed ones (ulibc/ulibc.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ulibc/compat.h>
#include <ulibc/ulibc.h>

int main(int argc, char **argv) {
  const char *fsroot = argc > 1 && strcmp(argv[1], "-") != 0 ? argv[1] : NULL;
  const char *policy = argc > 2 ? argv[2] : "scatter";
  const int nthreads = argc > 3 ? atoi(argv[3]) : 0;
  if (ulibc_init_with(fsroot, policy, nthreads) != 0) {
    fprintf(stderr, "ulibc_init_with: %s\n", ulibc_last_error());
    return 1;
  }
  /* An error is reported, not fatal. */
  if (get_numa_procid(-1) != -1 || ulibc_last_error()[0] == '\0') {
    fprintf(stderr, "get_numa_procid(-1) did not report an error\n");
    return 1;
  }
  printf("policy %s threads %d nodes %d\n", ulibc_get_policy_name(), ulibc_get_num_threads(), get_online_numa_nodes());
  for (int n = 0; n < get_online_numa_nodes(); ++n) printf("node %d cores %d\n", n, get_numa_online_cores(n));
  for (int t = 0; t < ulibc_get_num_threads(); ++t)
    printf("thread %d proc %d node %d core %d smt %d ordcore %d\n", t, get_numa_procid(t), get_numa_nodeid(t),
           get_numa_coreid(t), get_numa_smtid(t), get_numa_ordcoreid(t));
  /* The compat enum drives the setter. */
  if (set_affinity_policy(COMPACT) != 0) {
    fprintf(stderr, "set_affinity_policy: %s\n", ulibc_last_error());
    return 1;
  }
  printf("after set_affinity_policy(COMPACT): %s", ulibc_get_policy_name());
  for (int t = 0; t < ulibc_get_num_threads(); ++t) printf(" %d", get_numa_procid(t));
  printf("\n");
  return 0;
}
