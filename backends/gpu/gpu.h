/* gpu.h — the bookkeeping shared by the CUDA and the HIP backend (gpu.c),
 * written once against a small vendor-neutral vocabulary and compiled
 * twice, the way ggml builds its CUDA backend as HIP:
 *
 *   CUDA  gpu.c as C, into build/harness (backend "cuda"); the vocabulary
 *         is backends/cuda/cuda_vendor.h: the driver API's entry points
 *         loaded by dlopen (cuda_load.c).
 *   HIP   gpu.c as C++, into the plugin build/lib/libdh-hip.so (backend
 *         "hip", `make hip-nvidia` / `make hip-amd`); the vocabulary is
 *         backends/hip/hip_vendor.h: the hip* calls.
 *
 * Internal to backends/gpu/, backends/cuda/ and backends/hip/. This header
 * says:
 *   - what a vendor header must define (the vocabulary, below);
 *   - the objects behind backend.h's opaque handles;
 *   - the hooks a vendor file (cuda.c, hip_plugin.cpp) defines: the parts
 *     that really differ (device description, context, compiler, target
 *     checks);
 *   - what gpu.c offers the vendor files besides the ops table.
 *
 * The vocabulary a vendor header defines (the vendor's names stand beside
 * each in cuda_vendor.h and hip_vendor.h):
 *   types      dh_gpu_result, dh_gpu_device, dh_gpu_attr, dh_gpu_stream,
 *              dh_gpu_event, dh_gpu_module, dh_gpu_function, dh_gpu_ptr (a
 *              device address), struct dh__gpu_vdev (the vendor's part of
 *              a device: context, compile target)
 *   calls      returning a dh_gpu_result: dh_gpu_DeviceGetCount,
 *              dh_gpu_DeviceGet, dh_gpu_DeviceGetAttribute,
 *              dh_gpu_SetCurrent(dev) (dev's context current on this
 *              thread; success while it has none yet), dh_gpu_Synchronize,
 *              dh_gpu_Stream{Create,Destroy,Synchronize},
 *              dh_gpu_Event{Create,Destroy,Record,Synchronize,ElapsedTime},
 *              dh_gpu_Module{LoadData,Unload,GetFunction},
 *              dh_gpu_Mem{Alloc,Free,cpyHtoD,cpyDtoH}, dh_gpu_LaunchKernel;
 *              and dh_gpu_Load(err) (0 or -DH_E_UNAVAILABLE: the runtime
 *              loaded), dh_gpu_FuncPreload(fn) (void: load the kernel
 *              now, not in the first timed launch; a no-op where the vendor
 *              has no such call), dh_gpu_ErrorText(r, &name, &text) (the
 *              vendor's name and description of r, each NULL when
 *              unknown), dh_gpu_IsSticky(r)
 *   constants  DH_GPU_SUCCESS, DH_GPU_ERROR_NOT_FOUND,
 *              DH_GPU_ERROR_OUT_OF_MEMORY, DH_GPU_ATTR_*
 *   words      DH_GPU_BACKEND (the backend's name), DH_GPU_LABEL (the
 *              runtime in messages), DH_GPU_RESULT_TYPE, DH_GPU_NO_DEVICE
 *              (probe's reason for 0 devices), DH_GPU_NAME_* and
 *              DH_GPU_FMT_* (the vendor's call names, for messages)
 *   the table  DH_GPU_OPS (its C name), DH_GPU_COUNTERS (the counters op,
 *              or NULL), DH_GPU_PC_BEGIN / DH_GPU_PC_END (per-instruction
 *              counts, or NULL)
 */
#ifndef DH_GPU_H
#define DH_GPU_H

#include <stddef.h>
#include <stdint.h>

/* the project's headers are C without extern "C" guards */
#ifdef __cplusplus
extern "C" {
#endif
#include "../backend.h"
#ifdef __cplusplus
}
#endif

/* HIP first: nvcc with HIP's NVIDIA headers defines __CUDACC__ as well. */
#if defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_NVIDIA__)
#define DH_GPU_HIP 1
#include "../hip/hip_vendor.h"
#else
#define DH_GPU_CUDA 1
#include "../cuda/cuda_vendor.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- objects ------------------------------------------------------------- */

struct dh__gpu_fn {
    char *name;                  /* malloc'd */
    dh_gpu_function fn;
};

/* A device owns its context (v), one blocking stream and two timing events,
 * and keeps lists of the programs and buffers made on it; close() unloads
 * and frees what is still alive and leaves those handles orphaned (their
 * owner still frees them; any other use is -DH_E_USAGE). */
struct dh_device {
    int index;
    dh_gpu_stream stream;        /* blocking: orders with the sync copies */
    dh_gpu_event ev_start, ev_end;
    int warp_width;
    char load_what[64];          /* a failed module load, named in messages,
                                    e.g. "cuModuleLoadData(PTX compute_90)" */
    char cache_device[400];      /* cache key parts, see build */
    char cache_driver[200];
    struct dh_program *progs;    /* live programs (doubly linked) */
    struct dh_buffer *bufs;      /* live buffers */
    struct dh__gpu_vdev v;       /* the vendor's own: context, compile target */
};

struct dh_program {
    struct dh_device *dev;       /* NULL once orphaned by close */
    dh_gpu_module mod;
    struct dh__gpu_fn *fns;      /* function per kernel name seen */
    int n_fns, cap_fns;
    struct dh_program *prev, *next;
};

struct dh_buffer {
    struct dh_device *dev;       /* NULL once orphaned by close */
    dh_gpu_ptr ptr;
    size_t bytes;
    struct dh_buffer *prev, *next;
};

#define DH__GPU_MAX_ARGS 64

/* One launch, checked and marshalled: params[i] points into vals[i]. */
struct dh__gpu_call {
    struct dh_program *prog;
    dh_gpu_function fn;
    unsigned grid, block;
    const char *kernel;
    union {
        dh_gpu_ptr ptr;
        int32_t i32;
        uint32_t u32;
        float f32;
    } vals[DH__GPU_MAX_ARGS];
    void *params[DH__GPU_MAX_ARGS + 1];
};

/* ---- hooks: defined by the vendor file (cuda.c, hip_plugin.cpp) ---------- */

/* describe's vendor part: info has kind, warp width, compute units, max
 * work-group, clock and local memory from device attributes already; the
 * hook fills name, vendor, platform, arch, memory sizes, driver, runtime and
 * has_counters (and may fill a clock the attribute left 0). */
int dh__gpu_describe_vendor(int index, dh_gpu_device d, int major, int minor,
                            struct dh_device_info *info, struct dh_err *err);

/* open's vendor part, before the stream and events are made: the context
 * (current on this thread afterwards), dev->v, dev->load_what and the
 * cache key parts. On failure close() runs, so a handle it did not make
 * must stay zero. */
int dh__gpu_open_vendor(struct dh_device *dev,
                        const struct dh_device_info *info, struct dh_err *err);

/* close's last step, after the stream is gone: give the context back. */
void dh__gpu_close_vendor(struct dh_device *dev);

/* A build this device refuses before compiling (no target; a wavefront
 * width that is not the device's): a negative code with err filled. */
int dh__gpu_build_check(struct dh_device *dev, const char *options,
                        struct dh_err *err);

/* Compile source + options into a module image for dev. 0: *img (malloc'd,
 * caller frees) and *size; PTX keeps its NUL. Else a negative code, err
 * with the first error line and, when log is non-NULL, *log the whole log
 * (malloc'd, caller frees). */
int dh__gpu_compile(struct dh_device *dev, const char *source,
                    const char *options, void **img, size_t *size, char **log,
                    struct dh_err *err);

/* ---- gpu.c, for the vendor files ----------------------------------------- */

/* Fill err with "<what>: <vendor's error name>: <its description>" and
 * return -code; what is printf-style. A sticky error (a kernel fault: the
 * runtime then fails every later call in the process) gets a note saying
 * so, since only a new process recovers. */
int dh__gpu_err(struct dh_err *err, int code, dh_gpu_result r,
                const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Make dev's context current on this thread: 0 or -DH_E_INTERNAL. */
int dh__gpu_bind(struct dh_device *dev, struct dh_err *err);

/* Check l and marshal it into c, with the device bound and the function
 * looked up; problems with l are -DH_E_USAGE. */
int dh__gpu_prepare(struct dh_program *p, const struct dh_launch *l,
                    struct dh__gpu_call *c, struct dh_err *err);

/* Enqueue a prepared call on its device's stream (no events, no wait). */
dh_gpu_result dh__gpu_enqueue(struct dh__gpu_call *c);

/* The backend's ops: dh_backend_cuda, or the plugin's table. */
extern const struct dh_backend_ops DH_GPU_OPS;

#ifdef __cplusplus
}
#endif

#endif
