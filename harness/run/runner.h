/* runner.h — devices, worker processes and the watchdog.
 *
 * The harness process never loads a GPU runtime itself: CUDA and HIP
 * contexts do not survive fork(), and PoCL's threads do not either. It
 * asks a short-lived child for the device list, then runs each device's
 * cases in a worker process of its own; a case that hangs past its
 * timeout or crashes the worker costs that case only (status "timeout" or
 * "crash"), the worker is restarted and the run goes on.
 */
#ifndef DH_RUNNER_H
#define DH_RUNNER_H

#include "../../results/record.h"

struct dh_wcache;

/* Probe every registered backend. isolate=1: in a child process. */
int dh_devices_gather(struct dh_devlist *l, int isolate, struct dh_err *err);
const struct dh_device_info *dh_devlist_find(const struct dh_devlist *l,
                                             const char *backend, int index);

struct dh_session;

struct dh_runner_opts {
    int isolate;                /* 1 = worker processes (default) */
    const char *dump_dir;
    struct dh_wcache *wcache;   /* the workload cache (wcache.h); NULL: none */
    int overlap;                /* 1: the next workload's host data made in the
                                   background while this one is timed
                                   (overlap.h); needs isolate and wcache */
    /* (optional) called before a pending run; may run other cases on the
     * session (tuning) and change the run's tunables; nonzero stops */
    int (*before)(void *ctx, int index, struct dh_session *s);
    /* called after each finished run (status set); return nonzero to stop */
    int (*finished)(void *ctx, int index);
    void *ctx;
};

/* A session keeps one worker process per device alive across cases, so
 * consecutive cases (or tuning evaluations) pay no process or context
 * start. dh_session_run always fills r (a device that cannot be opened,
 * a timeout, a crash: a status and message); it returns
 * -DH_E_INTERRUPTED after SIGINT, else 0. */
struct dh_session *dh_session_open(const struct dh_runner_opts *o);
int dh_session_run(struct dh_session *s, const struct dh_case *c, struct dh_result *r);
void dh_session_close(struct dh_session *s);
/* 1 when s runs its cases in worker processes (o.isolate), 0 in this one
 * (then this process holds the runtimes' and OpenMP's threads, and must
 * not fork a child that uses them). */
int dh_session_isolated(const struct dh_session *s);

/* Run every run whose r.status is -1 (pending). Sets each one's result.
 * Returns 0, or -DH_E_INTERRUPTED when SIGINT arrived (finished results
 * kept, the rest left with status "interrupted"). */
int dh_runner_execute(struct dh_run *runs, int n, const struct dh_runner_opts *o);

/* SIGINT handling: install, and query. */
void dh_runner_install_sigint(void);
int dh_runner_interrupted(void);

#endif
