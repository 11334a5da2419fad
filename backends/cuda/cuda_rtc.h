/* cuda_rtc.h — NVRTC compilation for the CUDA backend (cuda_rtc.c):
 * choosing the target for a device and compiling one source to CUBIN or
 * PTX. Internal to backends/cuda/; needs dh__cuda_load() to have succeeded.
 */
#ifndef DH_CUDA_RTC_H
#define DH_CUDA_RTC_H

#include <stddef.h>

#include "errors.h"

struct dh__cuda_target {
    char name[32];           /* "sm_90" (CUBIN) or "compute_90" (PTX); ""
                                when NVRTC cannot serve the device */
    int cubin;               /* 1: CUBIN, 0: PTX for the driver's JIT */
    char why[512];           /* reason when name is "" */
};

/* The target for compute capability `cc` (major*10+minor): CUBIN for
 * sm_<cc> when NVRTC supports it, else PTX for the highest supported
 * compute_XY <= cc (the driver JIT-compiles it), else none (t->why).
 * DH_CUDA_PTX=1 in the environment forces the PTX route. */
void dh__cuda_rtc_target(int cc, struct dh__cuda_target *t);

/* Compile `source` with the space-separated `options` (see
 * dh__cuda_split_options in cuda_rtc.c) plus --gpu-architecture=<t->name>.
 * 0: *image (malloc'd, caller frees) holds the CUBIN, or the PTX with its
 * NUL, and *size its length in bytes. -DH_E_BUILD: err has a one-line
 * message (NVRTC's status and the log's first error line) and, when `log`
 * is non-NULL, *log the whole NVRTC log (malloc'd, caller frees).
 * -DH_E_RESOURCES when host memory runs out. */
int dh__cuda_rtc_compile(const struct dh__cuda_target *t, const char *source,
                         const char *options, void **image, size_t *size,
                         char **log, struct dh_err *err);

#endif
