/* run_progress.h — what cmd_run.c shares with run_progress.c: the state
 * of one `harness run` and the hooks and summary that show it. Internal to
 * harness/cli. */
#ifndef DH_RUN_PROGRESS_H
#define DH_RUN_PROGRESS_H

#include "../../results/xml.h"
#include "../run/plan.h"
#include "../../tuning/tuning.h"

struct dh__run_ctx {
    struct dh_tune_opts tune;
    const char *path;
    const struct dh_plan_rec *plan;     /* --shard: the plan, else NULL */
    struct dh_env env;
    struct dh_devlist *devs;
    struct dh_run *runs;
    int n, done, tty, write_failed;
    struct dh_err err;
    /* progress: the cases this process runs (resumed and refused ones are
     * not), how many of them finished, since when */
    int pending, ran, current;
    double t0;
};

/* the runner's hooks (ctx: a struct dh__run_ctx): before case i, tune and
 * show it; after it, write every result so far to x->path and show it
 * (1 stops the run: the write failed, x->err says why) */
int dh__run_on_before(void *vctx, int i, struct dh_session *s);
int dh__run_on_finished(void *vctx, int i);
/* the table of the n runs on stdout, and the cases without a ceiling */
void dh__run_summary(const struct dh_run *runs, int n);

#endif
