/* backend.h — the one interface between the harness and a GPU runtime.
 *
 * Shape follows SQLite's sqlite3_vfs and ggml's backend interface: one
 * struct of function pointers, `abi` first, members only ever appended.
 * Callers go through the dh_backend_* wrappers in registry.c, which supply
 * defaults for optional members. No vendor header is included here: only
 * backends/<name>/ sees CL/cl.h, cuda.h, nvrtc.h, ...
 *
 * Vendor runtimes are loaded at run time (dlopen) by each backend's probe(),
 * so the harness starts on a machine without any of them; a missing runtime
 * is "0 devices" plus a reason, never a failed start.
 *
 * Return convention (libuv style): 0 on success, a negative dh_code on
 * failure with `err` filled (the vendor's own message included). `err` is
 * caller-owned and untouched on success.
 *
 * backends/ is the ground floor: it knows nothing above it.
 */
#ifndef DH_BACKEND_H
#define DH_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "errors.h"

#define DH_BACKEND_ABI 1

struct dh_device;   /* opaque, backend-owned */
struct dh_program;  /* opaque, backend-owned */
struct dh_buffer;   /* opaque, backend-owned */

/* Where a device's warp width came from. */
enum dh_warp_source { DH_WARP_DEVICE = 0, DH_WARP_DEFAULT, DH_WARP_OVERRIDE };

struct dh_device_info {
    char name[256];
    char vendor[128];
    char platform[256];      /* OpenCL platform, "CUDA", "HIP" */
    char driver[128];        /* driver version string */
    char runtime[128];       /* runtime / API version */
    char arch[64];           /* e.g. "sm_90", "gfx90a", "" when unknown */
    char kind[16];           /* "gpu", "cpu", "accelerator" */
    int warp_width;
    enum dh_warp_source warp_source;
    int compute_units;
    int max_wg;              /* largest work-group (block) size */
    int clock_mhz;           /* max/current SM clock where known, else 0 */
    uint64_t global_mem_bytes;
    uint64_t max_alloc_bytes;
    uint64_t local_mem_bytes;/* shared/local memory per work-group */
    int has_counters;        /* 1: counters() can measure CFE */
};

enum dh_arg_kind { DH_ARG_BUFFER = 1, DH_ARG_I32, DH_ARG_U32, DH_ARG_F32 };

struct dh_arg {
    enum dh_arg_kind kind;
    union {
        struct dh_buffer *buf;
        int32_t i32;
        uint32_t u32;
        float f32;
    } v;
};

/* One 1-D launch. Work-group size is also compiled in as DH_WG. */
struct dh_launch {
    const char *kernel;
    size_t global;           /* total work-items, a multiple of local */
    size_t local;
    int n_args;
    const struct dh_arg *args;
};

/* Hardware counters of one launch (optional backend feature). */
struct dh_counters {
    double thread_inst_pred_on;   /* thread instructions executed, predicate on */
    double warp_inst_executed;    /* warp instructions issued/executed */
    int warp_width;
    double cfe;                   /* thread_inst / (warp_inst * warp_width) */
    char source[32];              /* e.g. "cupti" */
};

/* One instruction's counts over a pass of launches (optional backend
 * feature: CUDA's CUPTI SASS metrics), summed over every launch of its
 * function in the pass. */
struct dh_pc_count {
    char func[128];               /* the function as the module names it */
    unsigned pc;                  /* byte offset of the instruction in it */
    double inst;                  /* warp instructions executed */
    double thread;                /* thread instructions executed: active lanes */
    double pred_on;               /* of those, with the instruction's predicate on */
};

enum dh_copy_dir { DH_TO_DEVICE = 1, DH_TO_HOST = 2 };

struct dh_backend_ops {
    int abi;                 /* DH_BACKEND_ABI; first member, append-only */
    const char *name;        /* "opencl", "cuda", "hip", ... */

    /* Load the runtime (once) and count devices. A missing runtime or no
     * device is *not* an error: *n = 0 and `why` says so (may be NULL). */
    int (*probe)(int *n_devices, char *why, size_t why_len, struct dh_err *err);

    /* Describe device `index` without keeping it open. */
    int (*describe)(int index, struct dh_device_info *info, struct dh_err *err);

    /* Open device `index` (context + queue). Owns everything it creates. */
    int (*open)(int index, struct dh_device **dev, struct dh_err *err);
    void (*close)(struct dh_device *dev);

    /* Build `source` with `options` (e.g. "-D DH_WG=256 ..."). On a compile
     * failure, *log (malloc'd, caller frees) holds the compiler's log.
     * Backends may cache binaries (see cache.h); `*cached` says whether
     * this build came from the cache (may be NULL). */
    int (*build)(struct dh_device *dev, const char *source, const char *options,
                 struct dh_program **prog, char **log, int *cached,
                 struct dh_err *err);
    void (*free_program)(struct dh_program *prog);

    int (*alloc)(struct dh_device *dev, size_t bytes, struct dh_buffer **buf,
                 struct dh_err *err);
    void (*free_buffer)(struct dh_buffer *buf);
    /* Blocking copy of `bytes` between host and buffer. */
    int (*copy)(struct dh_buffer *buf, void *host, size_t bytes,
                enum dh_copy_dir dir, struct dh_err *err);

    /* Launch and wait. *ms (may be NULL) = device time between the
     * backend's own start/end events, in milliseconds. */
    int (*launch)(struct dh_program *prog, const struct dh_launch *l,
                  double *ms, struct dh_err *err);

    /* (optional, may be NULL) Launch once under the hardware profiler and
     * return control-flow counters. NULL means "no counters here": the
     * harness falls back to the model. */
    int (*counters)(struct dh_program *prog, const struct dh_launch *l,
                    struct dh_counters *out, struct dh_err *err);

    /* (optional, may be NULL) Per-instruction counts of every launch in
     * `dev` between pc_begin and pc_end (launches as usual, timed or
     * not). pc_end returns them (*out malloc'd, caller frees; *n
     * records) and tears down what pc_begin set up; after a failed
     * pc_begin there is nothing to end. */
    int (*pc_begin)(struct dh_device *dev, struct dh_err *err);
    int (*pc_end)(struct dh_device *dev, struct dh_pc_count **out, long *n,
                  struct dh_err *err);
};

/* ---- registry (registry.c) ---- */
int dh_backend_count(void);
const struct dh_backend_ops *dh_backend_at(int i);
/* NULL name = the default backend ("opencl"). NULL if unknown. */
const struct dh_backend_ops *dh_backend_find(const char *name);
/* Comma-separated list of registered names, for usage messages. */
const char *dh_backend_names(void);
/* Tests may register extra backends (e.g. a fault-injecting wrapper). */
int dh_backend_register(const struct dh_backend_ops *ops);

/* Wrapper: counters, with the optional member checked. */
int dh_backend_counters(const struct dh_backend_ops *b, struct dh_program *p,
                        const struct dh_launch *l, struct dh_counters *out,
                        struct dh_err *err);

#endif
