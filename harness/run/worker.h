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

#include "../../results/record.h"
#include "../../suites/suite.h"

struct dh_worker {
    const struct dh_backend_ops *be;
    struct dh_device *dev;
    struct dh_device_info info;
    const char *dump_dir;          /* --dump-source, may be NULL */
    /* host data of the last workload */
    const struct dh_bench *bench;
    void *state;
    char state_id[800];
    /* BBVs of that workload (kept with it; a failure is kept too, so
     * the variants of one workload do not repeat a failing profile) */
    struct dh_bbv bbv;
    uint32_t *bbv_counts;
    double *bbv_cost;
    int bbv_tried, bbv_status;
    long bbv_classes;              /* distinct BBVs, 0 = not counted yet */
    char bbv_message[1024];
};

int dh_worker_open(struct dh_worker *w, const struct dh_backend_ops *be, int index,
                   struct dh_err *err);
/* Always fills r (status + message on failure); never exits. */
void dh_worker_run(struct dh_worker *w, const struct dh_case *c, struct dh_result *r);
void dh_worker_close(struct dh_worker *w);

/* Input copies to rotate through for a working set of `bytes`. */
int dh_rotate_for(uint64_t bytes_per_copy);

#endif
