/* cuda_load.h — the CUDA driver API, NVRTC and NVML entry points, loaded at
 * run time by cuda_load.c, and the CUDA/NVRTC error text. Internal to
 * the CUDA backend (cuda.c, and backends/gpu/gpu.c through cuda_vendor.h).
 *
 * Every entry point is a pointer dh__cuda_<symbol> whose type is the
 * header's own declaration (__typeof__), so a prototype can never drift
 * from cuda.h/nvrtc.h. The symbol names are the real, versioned ones:
 * cuda.h #defines e.g. cuMemAlloc to cuMemAlloc_v2, and dlsym needs what
 * the library exports. The pointers are valid only after dh__cuda_load()
 * returned 0.
 */
#ifndef DH_CUDA_LOAD_H
#define DH_CUDA_LOAD_H

#include <stddef.h>

#include <cuda.h>
#include <nvrtc.h>

#include "errors.h"

#define DH__CU_FUNCS(X)                                                      \
    X(cuInit) X(cuDriverGetVersion) X(cuGetErrorName) X(cuGetErrorString)    \
    X(cuDeviceGetCount) X(cuDeviceGet) X(cuDeviceGetName)                    \
    X(cuDeviceGetAttribute) X(cuDeviceGetPCIBusId) X(cuDeviceTotalMem_v2)    \
    X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease_v2)              \
    X(cuCtxSetCurrent) X(cuCtxSynchronize)                                   \
    X(cuStreamCreate) X(cuStreamDestroy_v2) X(cuStreamSynchronize)           \
    X(cuEventCreate) X(cuEventDestroy_v2) X(cuEventRecord)                   \
    X(cuEventSynchronize)                                                    \
    X(cuModuleLoadData) X(cuModuleUnload) X(cuModuleGetFunction)             \
    X(cuMemAlloc_v2) X(cuMemFree_v2) X(cuMemcpyHtoD_v2) X(cuMemcpyDtoH_v2)   \
    X(cuLaunchKernel)

#define DH__RTC_FUNCS(X)                                                     \
    X(nvrtcGetErrorString) X(nvrtcVersion)                                   \
    X(nvrtcGetNumSupportedArchs) X(nvrtcGetSupportedArchs)                   \
    X(nvrtcCreateProgram) X(nvrtcDestroyProgram) X(nvrtcCompileProgram)      \
    X(nvrtcGetProgramLogSize) X(nvrtcGetProgramLog)                          \
    X(nvrtcGetCUBINSize) X(nvrtcGetCUBIN) X(nvrtcGetPTXSize) X(nvrtcGetPTX)

#define DH__CUDA_DECL(f) extern __typeof__(f) *dh__cuda_##f;
DH__CU_FUNCS(DH__CUDA_DECL)
DH__RTC_FUNCS(DH__CUDA_DECL)
#undef DH__CUDA_DECL
/* cuEventElapsedTime_v2 (CUDA >= 12.8), else the v1 symbol (same type). */
extern __typeof__(cuEventElapsedTime_v2) *dh__cuda_cuEventElapsedTime;
/* Optional (CUDA >= 12.4): NULL when the driver lacks it. */
extern __typeof__(cuFuncLoad) *dh__cuda_cuFuncLoad;

/* What loading found; read-only outside cuda_load.c. */
struct dh__cuda_runtime {
    int ok;                  /* driver + NVRTC resolved and cuInit passed */
    char why[512];           /* one-line reason when !ok */
    char nvrtc_path[256];    /* the NVRTC that was loaded */
    int nvrtc_major, nvrtc_minor;
    int driver_version;      /* cuDriverGetVersion, e.g. 13000 */
};
extern struct dh__cuda_runtime dh__cuda_rt;

/* Load libcuda.so.1 and NVRTC (and NVML, optional) once per process and
 * cuInit. 0 when usable, else -DH_E_UNAVAILABLE with the reason (the same
 * text as dh__cuda_rt.why). Thread-safe. */
int dh__cuda_load(struct dh_err *err);

/* NVRTC alone (no driver needed): 0, or -DH_E_UNAVAILABLE with the
 * reason. The dh__cuda_nvrtc* pointers and dh__cuda_rt.nvrtc_* are set
 * on success. Thread-safe. */
int dh__cuda_load_nvrtc(struct dh_err *err);

/* NVML's driver version string (e.g. "580.159") and the max SM clock of
 * CUDA device `d`; left "" / 0 where NVML is missing or silent. */
void dh__cuda_nvml_info(CUdevice d, char *driver, size_t driver_len,
                        int *max_sm_mhz);

/* Error text for gpu.c's dh__gpu_err: CUDA's name ("CUDA_ERROR_X") and
 * description of r, each NULL where the driver is not loaded or does not
 * know r; and whether r is sticky (a kernel fault: CUDA then fails every
 * later call in the process, and only a new process recovers). */
void dh__cuda_error_text(CUresult r, const char **name, const char **text);
int dh__cuda_sticky(CUresult r);

/* Fill err with "<what>: <nvrtcGetErrorString>"; returns -code. */
int dh__cuda_rtc_err(struct dh_err *err, int code, nvrtcResult r,
                     const char *what);

#endif
