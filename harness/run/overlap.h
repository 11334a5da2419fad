/* overlap.h — `run --overlap`: the next workload's host data (its seeded
 * input and CPU reference) made while the device times the current one.
 *
 * The runner's process holds no device runtime (runner.h), so it may
 * fork: before a case is sent to its worker, a helper process is started
 * for the next workload of the plan that the workload cache can hold and
 * does not hold yet. The helper runs the benchmark's own setup (generator
 * and reference) and stores the host data as the worker would
 * (wcache.h), at the lowest priority (nice 19), named "dh-prep" (ps, top)
 * and, on a host of 4 or more CPUs, pinned to the last quarter of them
 * with as many OpenMP threads (else one). When the runner reaches that
 * workload it waits for the helper, which is making what the worker would
 * make (the helper's CPUs are widened to all while it is waited for); the
 * worker then reads the entry like any cached one: the same bytes, the
 * same checks, the same verification. BBVs need the device and stay with
 * the worker.
 *
 * Nothing here fails a run: a helper whose setup fails, that crashes, is
 * killed or is still busy past the case's watchdog leaves the workload to
 * the worker, which makes it in the foreground as without overlap (one
 * line on stderr says so). A helper never outlives the harness
 * (PR_SET_PDEATHSIG) and never leaves a torn entry: the store writes under
 * a temporary name and renames, and the temporary file of a helper that
 * was stopped is removed. A benchmark found to keep data the cache cannot
 * hold (its own priv with no restore) gets no more helpers in the run; a
 * write that fails turns the overlap off for the rest of the run (the
 * worker warns about the cache itself). Internal to harness/run/ and its
 * command.
 */
#ifndef DH_OVERLAP_H
#define DH_OVERLAP_H

#include <stddef.h>

#include "../../results/record.h"

struct dh_wcache;

enum dh_overlap_mode { DH_OVERLAP_NO = 0, DH_OVERLAP_YES, DH_OVERLAP_AUTO };

/* "yes", "no", "auto": 0, or -1 for anything else. */
int dh_overlap_parse(const char *text, enum dh_overlap_mode *mode);

/* The CPUs this process may run on (its affinity mask). */
int dh_overlap_cpus(void);

/* Whether `mode` turns the overlap on: 1 on, 0 off with why (the rule
 * for auto: worker processes, a workload cache, at least
 * DH_OVERLAP_MIN_CPUS CPUs and no CPU device among the plan's devices,
 * whose timing would share the cores with the helper), -1 a usage error
 * with why (yes without worker processes, or with --no-cache). cache: 1
 * on, 0 off by --no-cache, -1 off because its folder cannot be used (yes
 * is then off with why, not an error). */
#define DH_OVERLAP_MIN_CPUS 4
int dh_overlap_decide(enum dh_overlap_mode mode, int isolate, int cache, int cpus,
                      int cpu_device, char *why, size_t len);

struct dh_overlap;

/* A helper state for one run (NULL out of memory: no overlap). */
struct dh_overlap *dh_overlap_open(struct dh_wcache *wc);

/* Before runs[i] (pending) goes to its worker: when a helper made its
 * workload, wait for it (at most the case's timeout; SIGINT stops the
 * wait) and set *bg_ms to what making it cost (the helper's CPU time
 * over its threads: about what the worker would have spent), *bg_wall_ms
 * to how long the helper took at its priority, and *wait_ms to the wait
 * (all 0: no helper made it, or it failed); then start a helper for the
 * next workload after runs[i]'s, when none is busy. */
void dh_overlap_step(struct dh_overlap *ov, const struct dh_run *runs, int n, int i,
                     double *bg_ms, double *bg_wall_ms, double *wait_ms);

/* Stop a busy helper (killed, reaped, its temporary file removed) and
 * free. NULL is fine. */
void dh_overlap_close(struct dh_overlap *ov);

#endif
