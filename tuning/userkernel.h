/* userkernel.h — a user's own kernel, described by an XML descriptor
 * (tuning/descriptor-1.xsd, embedded), made into a benchmark at run time
 * so `harness tune` can search its tunables without rebuilding the harness.
 * Outputs are checked against the descriptor's reference entry point run
 * on the CPU device (PoCL), or the same entry point at its defaults. */
#ifndef DH_USERKERNEL_H
#define DH_USERKERNEL_H

#include "../harness/support/expr.h"
#include "../suites/suite.h"

/* Load and validate; on error -DH_E_DATA/-DH_E_IO with the line and field
 * named. The returned bench lives until the process ends. */
int dh_ukernel_load(const char *descriptor, const char *kernel_override,
                    const struct dh_bench **bench, struct dh_err *err);

#endif
