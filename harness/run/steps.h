/* steps.h — the steps of a case's life on a device, one file each, in the
 * order worker.c calls them:
 *
 *   workload.c  the workload's host data: input and CPU reference, made
 *               once and shared by the variants of one workload
 *   build.c     the kernel source and build options; the build itself
 *   profile.c   the workload's basic-block vectors: a profiling run
 *   measure.c   upload, poison, verify first, warm up, time, verify again
 *   counters.c  a counters pass of its own, never mixed with timing
 *   remap.c     gpu_tdr: the remap overhead, the gpu_tdr and baseline
 *               kernels on the input already in path order
 *
 * The model's pricing of a run is harness/model/price.c. What the steps
 * share (a failure recorded, a run's device objects freed) is steps.c.
 * Each step fills the result's status and message when it
 * fails and returns nonzero; the caller then stops the case. Internal to
 * harness/run/.
 */
#ifndef DH_STEPS_H
#define DH_STEPS_H

#include "../model/bbv.h"
#include "worker_state.h"

/* steps.c: the result's status and message from an error. */
void dh__step_fail(struct dh_result *r, const struct dh_err *e, int rc);
/* steps.c: free what one run made on the device (the benchmark's
 * buffers, the counter buffer, the program); host data stay. */
void dh__exec_teardown(struct dh_worker *w, const struct dh_bench *b, struct dh_exec *x);

/* workload.c: the host data of c's workload in w->state (set up unless
 * the last case's workload is the same one). */
int dh__workload_ensure(struct dh_worker *w, const struct dh_case *c, struct dh_result *r);
/* Forget the workload's host data and its BBVs. */
void dh__workload_drop(struct dh_worker *w);

/* build.c: c's build options (a profiling build adds DH_BBV) into out. */
int dh__build_options(struct dh_worker *w, const struct dh_case *c, int bbv, char *out,
                      size_t len);
/* The assembled source of c (*src, the caller frees) and its options in
 * r->options; dumped under w->dump_dir when set. */
int dh__build_prepare(struct dh_worker *w, const struct dh_case *c, char **src,
                      struct dh_result *r);
/* Build src with r->options into x->prog (timed, cache noted). */
int dh__build(struct dh_worker *w, const char *src, struct dh_exec *x, struct dh_result *r);

/* profile.c: the BBVs the case needs (*bbv NULL when it needs none or
 * when the model alone wanted them and they could not be had); *table the
 * latency table that prices them. */
int dh__profile_bbv(struct dh_worker *w, const struct dh_case *c,
                    struct dh_latency_table *table, const struct dh_bbv **bbv,
                    int *want_model, struct dh_result *r);
/* A zeroed counter buffer for every item of the current upload, in
 * `windows` rows each (1: the totals; more: ordered BBVs). */
int dh__profile_buffer(struct dh_worker *w, const struct dh_bench *b, int windows,
                       struct dh_buffer **buf, long *items, struct dh_err *e);

/* measure.c: upload, verify the first run, warm up, the timed runs on
 * poisoned outputs, verify again, check the timings. */
/* 1 once the host samples h[0..n-1] need no more: at least 5, and their
 * median's 95% interval within +-5% (or no host work at all); later
 * repetitions reuse the host work (measure.c) */
int dh_host_settled(const double *h, int n);
/* 1 once the warm-up kernel times k[0..n-1] that follow a host phase no
 * longer fall: at least 4, the median of the last 4 within 2% of the
 * lowest (measure.c) */
int dh_kernel_settled(const double *k, int n);
int dh__measure(struct dh_worker *w, const struct dh_case *c, struct dh_exec *x,
                struct dh_result *r);

/* counters.c: the counters pass, when the case asks and the backend can. */
void dh__counters(struct dh_worker *w, const struct dh_case *c, struct dh_exec *x,
                  struct dh_result *r);
/* One more run of the case's launches with per-instruction counts (*pc
 * malloc'd, *n records), after the counters pass: CUPTI's range profiler
 * after SASS metrics in one process counts nothing, the other way round
 * works, and SASS metrics count once a process (CUDA 13.0, the H100;
 * runner.c gives the next case a fresh worker). Counts that miss a
 * kernel the pass launched are an error. */
int dh__pc_pass(struct dh_worker *w, const struct dh_case *c, struct dh_exec *x,
                struct dh_pc_count **pc, long *n, struct dh_err *e);

/* measured_costs.c: DH_BLOCK_COSTS=measured. dh__measured_costs: at the
 * workload's baseline case, once, a pass of per-instruction counts
 * (backend pc_begin/pc_end) mapped to the blocks (harness/model/
 * measured.h), installed in w->bbv; a failure says why on stderr once and
 * leaves the costs as they were; 1 when they were installed.
 * dh__measured_install: the workload's
 * measured costs into w->bbv again (workload_bbv, later cases); 0 when
 * there are none. */
int dh__measured_costs(struct dh_worker *w, const struct dh_case *c, struct dh_exec *x);
int dh__measured_install(struct dh_worker *w, int nb);

/* remap.c: a gpu_tdr case's remap overhead into r->remap when the case
 * asks (c->remap_overhead) and its run succeeded; x's device data are
 * freed first (its program stays for the caller). A failed run of it
 * fails the case (r->status, r->message). */
void dh__remap_overhead(struct dh_worker *w, const struct dh_case *c, struct dh_exec *x,
                        struct dh_result *r);

#endif
