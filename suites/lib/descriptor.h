/* descriptor.h — a user's own kernel, described by an XML descriptor
 * (suites/lib/descriptor-2.xsd; version 1 is still read), made into a
 * declared benchmark (kit.h) at run time: `harness run --descriptor`
 * runs every variant it has an entry for, verified and timed like a
 * suite's case; `harness tune --descriptor` searches its tunables.
 *
 * The expected outputs come from the descriptor's reference: an entry of
 * the kernel file compiled for the host as plain C (the default; no
 * OpenCL device needed), the entry run on the OpenCL CPU device, or a
 * function of a C file the user names (hostref.h). */
#ifndef DH_DESCRIPTOR_H
#define DH_DESCRIPTOR_H

#include "../../harness/support/expr.h"
#include "../suite.h"

/* Load and validate; on error -DH_E_DATA / -DH_E_IO with the file, line
 * and field named. `kernel_override` replaces the kernel file (NULL: the
 * descriptor's). The returned bench lives until the process ends (a later
 * load replaces it). */
int dh_ukernel_load(const char *descriptor, const char *kernel_override,
                    const struct dh_bench **bench, struct dh_err *err);

#endif
