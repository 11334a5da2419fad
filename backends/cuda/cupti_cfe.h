/* cupti_cfe.h — control-flow-efficiency counters of one kernel launch via
 * the CUPTI range profiler, for the CUDA backend (cuda.c).
 *
 * Implemented in cupti_cfe.cpp, a C++ translation unit only because CUDA
 * 13's cupti_profiler_host.h does a bare `#include <string>`. The interface
 * is plain C. libcupti.so.13 is dlopen'd on first use (never linked), so
 * a machine without CUPTI just reports "no counters".
 *
 * Not thread-safe: one measurement at a time per process (CUPTI's profiler
 * session is process-global anyway).
 */
#ifndef DH_CUDA_CUPTI_CFE_H
#define DH_CUDA_CUPTI_CFE_H

#include <stddef.h>

#include <cuda.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dh_err;

/* Load libcupti (once per process; later calls return the first answer).
 * 0 when every range-profiler entry point resolved; -1 otherwise, with a
 * one-line reason in `why` (may be NULL). Does not touch the GPU. */
int dh__cuda_cfe_load(char *why, size_t why_len);

/* The caller's "launch once and wait" routine. Returns 0 or a negative
 * dh_code with `err` filled; it must launch exactly one kernel in `ctx`. */
typedef int (*dh__cuda_cfe_launch_fn)(void *arg, struct dh_err *err);

/* Profile one launch in `ctx` (already current on this thread) of CUDA
 * device ordinal `device_index`: calls `launch(arg, err)` under the range
 * profiler (auto range, kernel replay) and returns the sums of
 * smsp__thread_inst_executed_pred_on and smsp__inst_executed.
 * Returns 0, or a negative dh_code with `err` filled:
 *   -DH_E_UNAVAILABLE  CUPTI missing or refused (privileges: the message
 *                      names the fix), with CUPTI's own text;
 *   whatever `launch` returned when the launch itself failed.
 * Everything CUPTI set up is torn down before returning, success or not. */
int dh__cuda_cfe_measure(CUcontext ctx, int device_index,
                         dh__cuda_cfe_launch_fn launch, void *arg,
                         double *thread_inst_pred_on, double *warp_inst,
                         struct dh_err *err);

/* Per-instruction counts (CUPTI SASS metrics: warp instructions, thread
 * instructions, predicated-on thread instructions, per function and pc)
 * of every launch in `ctx` between begin and end. begin sets the profiler
 * up and patches each function at its first launch; end (after the
 * launches have finished) returns the counts summed per (function, pc),
 * *out malloc'd, and tears everything down. A failed begin leaves nothing
 * to end. -DH_E_UNAVAILABLE where CUPTI lacks SASS metrics or refuses. */
struct dh_pc_count;
int dh__cuda_pcs_begin(CUcontext ctx, int device_index, struct dh_err *err);
int dh__cuda_pcs_end(CUcontext ctx, int device_index, struct dh_pc_count **out, long *n,
                     struct dh_err *err);

#ifdef __cplusplus
}
#endif

#endif
