/* worker.h — runs cases on one open device.
 *
 * Used inside a worker process (runner.c forks one per device, before the
 * harness touches any runtime, so a hang or crash costs one case) or
 * in-process (--isolate=no, and the tests). Keeps the host data of the
 * last workload, so the variants of one workload share one input and one
 * CPU reference.
 *
 * harness/run/ is the run engine: planning (plan.c), the runner and its
 * worker processes (runner.c), kernel sources (source.c) and a case's life
 * on a device (worker.c, one file per step: workload.c, build.c,
 * profile.c, measure.c, counters.c). It may call suites/, the statistics,
 * the model, results/, support and backends/; the commands and tuning
 * call it.
 */
#ifndef DH_WORKER_H
#define DH_WORKER_H

#include "worker_state.h"


int dh_worker_open(struct dh_worker *w, const struct dh_backend_ops *be, int index,
                   struct dh_err *err);
/* Always fills r (status + message on failure); never exits. */
void dh_worker_run(struct dh_worker *w, const struct dh_case *c, struct dh_result *r);
void dh_worker_close(struct dh_worker *w);

/* Input copies to rotate through for a working set of `bytes`. */
int dh_rotate_for(uint64_t bytes_per_copy);

#endif
