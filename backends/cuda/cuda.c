/* cuda.c — the CUDA backend (dh_backend_cuda, name "cuda"): CUDA driver API
 * plus NVRTC; see backends/cuda/README.md.
 *
 * libcuda.so.1, NVRTC and (optionally) NVML are dlopen'd by cuda_load.c on
 * the first probe()/describe()/open(), so the harness starts on a machine
 * without a driver and probe() answers "0 devices" plus the reason.
 * NVRTC compiling is in cuda_rtc.c; counters come from cupti_cfe.cpp
 * (CUPTI range profiler, also dlopen'd).
 *
 * Objects: a dh_device owns the primary context reference, one stream and
 * two timing events, and keeps lists of the programs and buffers made on
 * it; close() unloads/frees what is still alive and leaves those handles
 * "orphaned" (their owner still frees them; any other use is -DH_E_USAGE).
 *
 * Threading: loading is done once (pthread_once). Each call makes the
 * device's context current on the calling thread; one device must not be
 * used from two threads at once.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cache.h"
#include "cuda_load.h"
#include "cuda_rtc.h"
#include "cupti_cfe.h"

/* ---- objects ------------------------------------------------------------- */

struct dh__cuda_fn {
    char *name;                  /* malloc'd */
    CUfunction fn;
};

struct dh_device {
    int index;
    CUdevice cu;
    CUcontext ctx;               /* primary context, retained */
    CUstream stream;             /* blocking stream: orders with cuMemcpy */
    CUevent ev_start, ev_end;
    int warp_width;
    struct dh__cuda_target target;   /* what NVRTC compiles for */
    char cache_device[400];      /* cache key parts, see build */
    char cache_driver[200];
    struct dh_program *progs;    /* live programs (doubly linked) */
    struct dh_buffer *bufs;      /* live buffers */
};

struct dh_program {
    struct dh_device *dev;       /* NULL once orphaned by close */
    CUmodule mod;
    struct dh__cuda_fn *fns;     /* CUfunction per kernel name seen */
    int n_fns, cap_fns;
    struct dh_program *prev, *next;
};

struct dh_buffer {
    struct dh_device *dev;       /* NULL once orphaned by close */
    CUdeviceptr ptr;
    size_t bytes;
    struct dh_buffer *prev, *next;
};

/* Make dev's context current on this thread (cheap when it already is). */
static int dh__cuda_bind(struct dh_device *dev, struct dh_err *err)
{
    CUresult r = dh__cuda_cuCtxSetCurrent(dev->ctx);
    if (r != CUDA_SUCCESS)
        return dh__cuda_err(err, DH_E_INTERNAL, r, "cuCtxSetCurrent");
    return 0;
}

/* ---- probe / describe ---------------------------------------------------- */

static int dh__cuda_probe(int *n_devices, char *why, size_t why_len,
                          struct dh_err *err)
{
    (void)err;
    *n_devices = 0;
    struct dh_err e;
    if (dh__cuda_load(&e)) {
        if (why && why_len)
            snprintf(why, why_len, "%s", e.msg);
        return 0;
    }
    int n = 0;
    CUresult r = dh__cuda_cuDeviceGetCount(&n);
    if (r != CUDA_SUCCESS) {
        dh__cuda_err(&e, DH_E_UNAVAILABLE, r, "cuDeviceGetCount");
        if (why && why_len)
            snprintf(why, why_len, "%s", e.msg);
        return 0;
    }
    if (n == 0 && why && why_len)
        snprintf(why, why_len, "CUDA driver loaded but reports no device");
    *n_devices = n;
    return 0;
}

static int dh__cuda_attr(CUdevice d, CUdevice_attribute a, int *v,
                         struct dh_err *err)
{
    CUresult r = dh__cuda_cuDeviceGetAttribute(v, a, d);
    if (r != CUDA_SUCCESS)
        return dh__cuda_err(err, DH_E_UNAVAILABLE, r,
                            "cuDeviceGetAttribute(%d)", (int)a);
    return 0;
}

/* Device info without a context. NVML (if loaded) adds the driver's own
 * version string and the max SM clock when the attribute gives none. */
static int dh__cuda_describe(int index, struct dh_device_info *info,
                             struct dh_err *err)
{
    int rc = dh__cuda_load(err);
    if (rc)
        return rc;
    int n = 0;
    CUresult r = dh__cuda_cuDeviceGetCount(&n);
    if (r != CUDA_SUCCESS)
        return dh__cuda_err(err, DH_E_UNAVAILABLE, r, "cuDeviceGetCount");
    if (index < 0 || index >= n)
        return dh_err_set(err, DH_E_USAGE, "CUDA device %d out of range "
                          "(%d device%s)", index, n, n == 1 ? "" : "s");
    CUdevice d;
    if ((r = dh__cuda_cuDeviceGet(&d, index)) != CUDA_SUCCESS)
        return dh__cuda_err(err, DH_E_UNAVAILABLE, r, "cuDeviceGet(%d)",
                            index);

    memset(info, 0, sizeof *info);
    if ((r = dh__cuda_cuDeviceGetName(info->name, (int)sizeof info->name, d))
        != CUDA_SUCCESS)
        return dh__cuda_err(err, DH_E_UNAVAILABLE, r, "cuDeviceGetName");
    snprintf(info->vendor, sizeof info->vendor, "NVIDIA");
    snprintf(info->platform, sizeof info->platform, "CUDA");
    snprintf(info->kind, sizeof info->kind, "gpu");

    int major = 0, minor = 0, warp = 0, sms = 0, max_wg = 0, clock_khz = 0,
        shared = 0;
    if ((rc = dh__cuda_attr(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                            &major, err)) ||
        (rc = dh__cuda_attr(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                            &minor, err)) ||
        (rc = dh__cuda_attr(d, CU_DEVICE_ATTRIBUTE_WARP_SIZE, &warp, err)) ||
        (rc = dh__cuda_attr(d, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &sms,
                            err)) ||
        (rc = dh__cuda_attr(d, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                            &max_wg, err)) ||
        (rc = dh__cuda_attr(d, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
                            &shared, err)))
        return rc;
    /* Optional: the clock attribute is deprecated in newer CUDA. */
    if (dh__cuda_cuDeviceGetAttribute(&clock_khz,
                                      CU_DEVICE_ATTRIBUTE_CLOCK_RATE, d)
        != CUDA_SUCCESS)
        clock_khz = 0;
    size_t total = 0;
    if ((r = dh__cuda_cuDeviceTotalMem_v2(&total, d)) != CUDA_SUCCESS)
        return dh__cuda_err(err, DH_E_UNAVAILABLE, r, "cuDeviceTotalMem");

    snprintf(info->arch, sizeof info->arch, "sm_%d%d", major, minor);
    info->warp_width = warp;
    info->warp_source = DH_WARP_DEVICE;
    info->compute_units = sms;
    info->max_wg = max_wg;
    info->clock_mhz = clock_khz / 1000;
    info->global_mem_bytes = total;
    info->max_alloc_bytes = total;
    info->local_mem_bytes = (uint64_t)shared;
    snprintf(info->runtime, sizeof info->runtime, "NVRTC %d.%d",
             dh__cuda_rt.nvrtc_major, dh__cuda_rt.nvrtc_minor);

    int dv = dh__cuda_rt.driver_version, nvml_mhz = 0;
    char nvml_ver[96];
    dh__cuda_nvml_info(d, nvml_ver, sizeof nvml_ver, &nvml_mhz);
    if (!info->clock_mhz)
        info->clock_mhz = nvml_mhz;
    if (nvml_ver[0])
        snprintf(info->driver, sizeof info->driver, "%s (CUDA %d.%d)",
                 nvml_ver, dv / 1000, (dv % 1000) / 10);
    else
        snprintf(info->driver, sizeof info->driver, "CUDA %d.%d driver",
                 dv / 1000, (dv % 1000) / 10);

    info->has_counters = dh__cuda_cfe_load(NULL, 0) == 0;
    return 0;
}

/* ---- open / close -------------------------------------------------------- */

static void dh__cuda_unload_program(struct dh_program *p);

/* Tear down in dependency order: modules and buffers (they live in the
 * context), events, stream, then drop our primary-context reference.
 * Errors are ignored: nothing useful can be done with them here. */
static void dh__cuda_close(struct dh_device *dev)
{
    if (!dev)
        return;
    if (dev->ctx)
        dh__cuda_cuCtxSetCurrent(dev->ctx);
    while (dev->progs)
        dh__cuda_unload_program(dev->progs);
    while (dev->bufs) {
        struct dh_buffer *b = dev->bufs;
        dh__cuda_cuMemFree_v2(b->ptr);
        b->ptr = 0;
        b->dev = NULL;
        dev->bufs = b->next;
        b->prev = b->next = NULL;
    }
    if (dev->ev_end)
        dh__cuda_cuEventDestroy_v2(dev->ev_end);
    if (dev->ev_start)
        dh__cuda_cuEventDestroy_v2(dev->ev_start);
    if (dev->stream)
        dh__cuda_cuStreamDestroy_v2(dev->stream);
    if (dev->ctx) {
        dh__cuda_cuCtxSetCurrent(NULL);
        dh__cuda_cuDevicePrimaryCtxRelease_v2(dev->cu);
    }
    free(dev);
}

static int dh__cuda_open(int index, struct dh_device **out, struct dh_err *err)
{
    *out = NULL;
    struct dh_device_info info;
    int rc = dh__cuda_describe(index, &info, err);  /* loads, checks index */
    if (rc)
        return rc;
    struct dh_device *dev = calloc(1, sizeof *dev);
    if (!dev)
        return dh_err_set(err, DH_E_RESOURCES, "out of host memory");
    dev->index = index;
    dev->warp_width = info.warp_width;

    /* On failure a handle stays NULL (calloc), so close() skips it. */
#define DH__OPEN_TRY(call, code, what)                                       \
    do {                                                                     \
        CUresult r_ = (call);                                                \
        if (r_ != CUDA_SUCCESS) {                                            \
            rc = dh__cuda_err(err, code, r_, "%s (device %d)", what, index); \
            goto fail;                                                       \
        }                                                                    \
    } while (0)
    DH__OPEN_TRY(dh__cuda_cuDeviceGet(&dev->cu, index), DH_E_UNAVAILABLE,
                 "cuDeviceGet");
    DH__OPEN_TRY(dh__cuda_cuDevicePrimaryCtxRetain(&dev->ctx, dev->cu),
                 DH_E_UNAVAILABLE, "cuDevicePrimaryCtxRetain");
    DH__OPEN_TRY(dh__cuda_cuCtxSetCurrent(dev->ctx), DH_E_UNAVAILABLE,
                 "cuCtxSetCurrent");
    DH__OPEN_TRY(dh__cuda_cuStreamCreate(&dev->stream, CU_STREAM_DEFAULT),
                 DH_E_RESOURCES, "cuStreamCreate");
    DH__OPEN_TRY(dh__cuda_cuEventCreate(&dev->ev_start, CU_EVENT_DEFAULT),
                 DH_E_RESOURCES, "cuEventCreate");
    DH__OPEN_TRY(dh__cuda_cuEventCreate(&dev->ev_end, CU_EVENT_DEFAULT),
                 DH_E_RESOURCES, "cuEventCreate");
#undef DH__OPEN_TRY

    int major = 0, minor = 0;
    if ((rc = dh__cuda_attr(dev->cu,
                            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                            &major, err)) ||
        (rc = dh__cuda_attr(dev->cu,
                            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                            &minor, err)))
        goto fail;
    dh__cuda_rtc_target(major * 10 + minor, &dev->target);
    /* The cache key: a different device, target, driver or NVRTC must
     * never reuse a binary. */
    snprintf(dev->cache_device, sizeof dev->cache_device, "%s %s %s",
             info.name, info.arch, dev->target.name);
    snprintf(dev->cache_driver, sizeof dev->cache_driver, "%s; NVRTC %d.%d",
             info.driver, dh__cuda_rt.nvrtc_major, dh__cuda_rt.nvrtc_minor);
    *out = dev;
    return 0;
fail:
    dh__cuda_close(dev);
    return rc;
}

/* ---- build --------------------------------------------------------------- */

static int dh__cuda_new_program(struct dh_device *dev, CUmodule mod,
                                struct dh_program **out, struct dh_err *err)
{
    struct dh_program *p = calloc(1, sizeof *p);
    if (!p) {
        dh__cuda_cuModuleUnload(mod);
        return dh_err_set(err, DH_E_RESOURCES, "out of host memory");
    }
    p->dev = dev;
    p->mod = mod;
    p->next = dev->progs;
    if (dev->progs)
        dev->progs->prev = p;
    dev->progs = p;
    *out = p;
    return 0;
}

static int dh__cuda_build(struct dh_device *dev, const char *source,
                          const char *options, struct dh_program **prog,
                          char **log, int *cached, struct dh_err *err)
{
    if (log)
        *log = NULL;
    if (cached)
        *cached = 0;
    *prog = NULL;
    if (!dev || !source)
        return dh_err_set(err, DH_E_USAGE, "cuda build: no device or source");
    if (!dev->target.name[0])
        return dh_err_set(err, DH_E_UNSUPPORTED, "%s", dev->target.why);
    int rc = dh__cuda_bind(dev, err);
    if (rc)
        return rc;

    char key[33];
    dh_cache_key(key, "cuda", dev->cache_device, dev->cache_driver, source,
                 options);
    void *img = NULL;
    size_t size = 0;
    CUmodule mod;
    CUresult r;
    if (dh_cache_load(key, &img, &size) == 0) {
        /* A NUL after the data, so that a truncated PTX file cannot make
         * the driver read past the buffer. */
        char *nul = realloc(img, size + 1);
        r = CUDA_ERROR_OUT_OF_MEMORY;
        if (nul) {
            img = nul;
            nul[size] = 0;
            r = dh__cuda_cuModuleLoadData(&mod, img);
        }
        free(img);
        img = NULL;
        if (r == CUDA_SUCCESS) {
            if (cached)
                *cached = 1;
            return dh__cuda_new_program(dev, mod, prog, err);
        }
        /* unusable cache entry: compile afresh and overwrite it below */
    }
    rc = dh__cuda_rtc_compile(&dev->target, source, options, &img, &size,
                              log, err);
    if (rc)
        return rc;
    r = dh__cuda_cuModuleLoadData(&mod, img);
    if (r != CUDA_SUCCESS) {
        free(img);
        return dh__cuda_err(err, DH_E_BUILD, r, "cuModuleLoadData(%s %s)",
                            dev->target.cubin ? "CUBIN" : "PTX",
                            dev->target.name);
    }
    dh_cache_store(key, img, size);
    free(img);
    return dh__cuda_new_program(dev, mod, prog, err);
}

/* Unload p's module and unlink it from its device; p stays allocated. */
static void dh__cuda_unload_program(struct dh_program *p)
{
    struct dh_device *dev = p->dev;
    if (!dev)
        return;
    if (p->mod) {
        dh__cuda_cuCtxSetCurrent(dev->ctx);
        dh__cuda_cuModuleUnload(p->mod);
        p->mod = NULL;
    }
    if (p->prev)
        p->prev->next = p->next;
    else
        dev->progs = p->next;
    if (p->next)
        p->next->prev = p->prev;
    p->prev = p->next = NULL;
    p->dev = NULL;
}

static void dh__cuda_free_program(struct dh_program *p)
{
    if (!p)
        return;
    dh__cuda_unload_program(p);
    for (int i = 0; i < p->n_fns; i++)
        free(p->fns[i].name);
    free(p->fns);
    free(p);
}

/* ---- buffers ------------------------------------------------------------- */

static int dh__cuda_alloc(struct dh_device *dev, size_t bytes,
                          struct dh_buffer **out, struct dh_err *err)
{
    *out = NULL;
    if (!dev || !bytes)
        return dh_err_set(err, DH_E_USAGE, "cuda alloc: %s",
                          dev ? "zero bytes" : "no device");
    int rc = dh__cuda_bind(dev, err);
    if (rc)
        return rc;
    struct dh_buffer *b = calloc(1, sizeof *b);
    if (!b)
        return dh_err_set(err, DH_E_RESOURCES, "out of host memory");
    CUresult r = dh__cuda_cuMemAlloc_v2(&b->ptr, bytes);
    if (r != CUDA_SUCCESS) {
        free(b);
        return dh__cuda_err(err, DH_E_RESOURCES, r, "cuMemAlloc(%zu bytes)",
                            bytes);
    }
    b->dev = dev;
    b->bytes = bytes;
    b->next = dev->bufs;
    if (dev->bufs)
        dev->bufs->prev = b;
    dev->bufs = b;
    *out = b;
    return 0;
}

static void dh__cuda_free_buffer(struct dh_buffer *b)
{
    if (!b)
        return;
    struct dh_device *dev = b->dev;
    if (dev) {
        dh__cuda_cuCtxSetCurrent(dev->ctx);
        dh__cuda_cuMemFree_v2(b->ptr);
        if (b->prev)
            b->prev->next = b->next;
        else
            dev->bufs = b->next;
        if (b->next)
            b->next->prev = b->prev;
    }
    free(b);
}

/* Synchronous copies on the legacy default stream, which orders with the
 * device's (blocking) stream. A host-to-device copy from pageable memory
 * may return before the DMA lands, so it is followed by a context sync. */
static int dh__cuda_copy(struct dh_buffer *b, void *host, size_t bytes,
                         enum dh_copy_dir dir, struct dh_err *err)
{
    if (!b || !b->dev)
        return dh_err_set(err, DH_E_USAGE, "cuda copy: %s",
                          b ? "buffer's device was closed" : "no buffer");
    if (bytes > b->bytes || (bytes && !host))
        return dh_err_set(err, DH_E_USAGE, "cuda copy: %zu bytes into a "
                          "%zu-byte buffer%s", bytes, b->bytes,
                          host ? "" : " (no host pointer)");
    if (!bytes)
        return 0;
    int rc = dh__cuda_bind(b->dev, err);
    if (rc)
        return rc;
    CUresult r;
    if (dir == DH_TO_DEVICE) {
        r = dh__cuda_cuMemcpyHtoD_v2(b->ptr, host, bytes);
        if (r == CUDA_SUCCESS)
            r = dh__cuda_cuCtxSynchronize();
        if (r != CUDA_SUCCESS)
            return dh__cuda_err(err, DH_E_LAUNCH, r, "cuMemcpyHtoD(%zu bytes)",
                                bytes);
    } else if (dir == DH_TO_HOST) {
        r = dh__cuda_cuMemcpyDtoH_v2(host, b->ptr, bytes);
        if (r != CUDA_SUCCESS)
            return dh__cuda_err(err, DH_E_LAUNCH, r, "cuMemcpyDtoH(%zu bytes)",
                                bytes);
    } else {
        return dh_err_set(err, DH_E_USAGE, "cuda copy: bad direction %d",
                          (int)dir);
    }
    return 0;
}

/* ---- launch -------------------------------------------------------------- */

#define DH__CUDA_MAX_ARGS 64

/* One launch, marshalled: params[i] points into vals[i]. */
struct dh__cuda_call {
    struct dh_program *prog;
    CUfunction fn;
    unsigned grid, block;
    const char *kernel;
    union {
        CUdeviceptr ptr;
        int32_t i32;
        uint32_t u32;
        float f32;
    } vals[DH__CUDA_MAX_ARGS];
    void *params[DH__CUDA_MAX_ARGS + 1];
};

/* The CUfunction for `name`, cached per program (names are unmangled:
 * the dialect declares kernels extern "C"). */
static int dh__cuda_function(struct dh_program *p, const char *name,
                             CUfunction *fn, struct dh_err *err)
{
    for (int i = 0; i < p->n_fns; i++)
        if (!strcmp(p->fns[i].name, name)) {
            *fn = p->fns[i].fn;
            return 0;
        }
    CUresult r = dh__cuda_cuModuleGetFunction(fn, p->mod, name);
    if (r != CUDA_SUCCESS)
        return dh__cuda_err(err, r == CUDA_ERROR_NOT_FOUND ? DH_E_USAGE
                                                           : DH_E_LAUNCH,
                            r, "cuModuleGetFunction(\"%s\")", name);
    /* Load it now so the first timed launch does not pay for lazy loading
     * between its events; a failure here shows again at launch. */
    if (dh__cuda_cuFuncLoad)
        (void)dh__cuda_cuFuncLoad(*fn);
    if (p->n_fns == p->cap_fns) {
        int cap = p->cap_fns ? 2 * p->cap_fns : 8;
        struct dh__cuda_fn *f = realloc(p->fns, (size_t)cap * sizeof *f);
        if (!f)
            return 0;                     /* works, just uncached */
        p->fns = f;
        p->cap_fns = cap;
    }
    char *copy = strdup(name);
    if (copy) {
        p->fns[p->n_fns].name = copy;
        p->fns[p->n_fns].fn = *fn;
        p->n_fns++;
    }
    return 0;
}

/* Check `l` and marshal it into `c`. All problems are -DH_E_USAGE. */
static int dh__cuda_prepare(struct dh_program *p, const struct dh_launch *l,
                            struct dh__cuda_call *c, struct dh_err *err)
{
    if (!p || !p->dev || !p->mod)
        return dh_err_set(err, DH_E_USAGE, "cuda launch: %s",
                          p ? "program's device was closed" : "no program");
    if (!l || !l->kernel)
        return dh_err_set(err, DH_E_USAGE, "cuda launch: no kernel name");
    if (!l->local || !l->global || l->global % l->local)
        return dh_err_set(err, DH_E_USAGE, "cuda launch %s: global %zu is not "
                          "a positive multiple of local %zu", l->kernel,
                          l->global, l->local);
    if (l->local > UINT_MAX || l->global / l->local > 0x7fffffffu)
        return dh_err_set(err, DH_E_USAGE, "cuda launch %s: %zu/%zu exceeds "
                          "the 1-D grid limit", l->kernel, l->global,
                          l->local);
    if (l->n_args < 0 || l->n_args > DH__CUDA_MAX_ARGS ||
        (l->n_args && !l->args))
        return dh_err_set(err, DH_E_USAGE, "cuda launch %s: bad argument "
                          "list (%d, at most %d)", l->kernel, l->n_args,
                          DH__CUDA_MAX_ARGS);
    c->prog = p;
    c->kernel = l->kernel;
    c->block = (unsigned)l->local;
    c->grid = (unsigned)(l->global / l->local);
    for (int i = 0; i < l->n_args; i++) {
        const struct dh_arg *a = &l->args[i];
        switch (a->kind) {
        case DH_ARG_BUFFER:
            if (!a->v.buf || a->v.buf->dev != p->dev)
                return dh_err_set(err, DH_E_USAGE, "cuda launch %s: argument "
                                  "%d is not a live buffer of this device",
                                  l->kernel, i);
            c->vals[i].ptr = a->v.buf->ptr;
            break;
        case DH_ARG_I32: c->vals[i].i32 = a->v.i32; break;
        case DH_ARG_U32: c->vals[i].u32 = a->v.u32; break;
        case DH_ARG_F32: c->vals[i].f32 = a->v.f32; break;
        default:
            return dh_err_set(err, DH_E_USAGE, "cuda launch %s: argument %d "
                              "has unknown kind %d", l->kernel, i,
                              (int)a->kind);
        }
        c->params[i] = &c->vals[i];
    }
    c->params[l->n_args] = NULL;
    int rc = dh__cuda_bind(p->dev, err);
    if (rc)
        return rc;
    return dh__cuda_function(p, l->kernel, &c->fn, err);
}

static CUresult dh__cuda_enqueue(struct dh__cuda_call *c)
{
    return dh__cuda_cuLaunchKernel(c->fn, c->grid, 1, 1, c->block, 1, 1, 0,
                            c->prog->dev->stream, c->params, NULL);
}

static int dh__cuda_launch(struct dh_program *p, const struct dh_launch *l,
                           double *ms, struct dh_err *err)
{
    struct dh__cuda_call c;
    int rc = dh__cuda_prepare(p, l, &c, err);
    if (rc)
        return rc;
    struct dh_device *dev = p->dev;
    CUresult r = dh__cuda_cuEventRecord(dev->ev_start, dev->stream);
    if (r != CUDA_SUCCESS)
        return dh__cuda_err(err, DH_E_LAUNCH, r, "cuEventRecord(start)");
    r = dh__cuda_enqueue(&c);
    if (r != CUDA_SUCCESS) {
        dh__cuda_cuStreamSynchronize(dev->stream);   /* drain the start event */
        return dh__cuda_err(err, DH_E_LAUNCH, r, "cuLaunchKernel(%s, grid %u,"
                            " block %u)", c.kernel, c.grid, c.block);
    }
    if ((r = dh__cuda_cuEventRecord(dev->ev_end, dev->stream)) != CUDA_SUCCESS)
        return dh__cuda_err(err, DH_E_LAUNCH, r, "cuEventRecord(end)");
    /* A fault in the kernel (illegal address, trap...) surfaces here; it
     * is sticky: the context is unusable afterwards and the device should
     * be closed and reopened (or the worker process restarted). */
    if ((r = dh__cuda_cuEventSynchronize(dev->ev_end)) != CUDA_SUCCESS)
        return dh__cuda_err(err, DH_E_LAUNCH, r, "kernel %s (grid %u, block "
                            "%u) failed", c.kernel, c.grid, c.block);
    float t = 0;
    if ((r = dh__cuda_cuEventElapsedTime(&t, dev->ev_start, dev->ev_end))
        != CUDA_SUCCESS)
        return dh__cuda_err(err, DH_E_LAUNCH, r, "cuEventElapsedTime");
    if (ms)
        *ms = t;
    return 0;
}

/* ---- counters ------------------------------------------------------------ */

/* The profiler's launch callback: one untimed launch, then wait. */
static int dh__cuda_cfe_launch(void *arg, struct dh_err *err)
{
    struct dh__cuda_call *c = arg;
    CUresult r = dh__cuda_enqueue(c);
    if (r != CUDA_SUCCESS)
        return dh__cuda_err(err, DH_E_LAUNCH, r, "cuLaunchKernel(%s, grid %u,"
                            " block %u) under CUPTI", c->kernel, c->grid,
                            c->block);
    r = dh__cuda_cuStreamSynchronize(c->prog->dev->stream);
    if (r != CUDA_SUCCESS)
        return dh__cuda_err(err, DH_E_LAUNCH, r, "kernel %s (grid %u, block "
                            "%u) failed under CUPTI", c->kernel, c->grid,
                            c->block);
    return 0;
}

/* Optional op: one extra launch under the CUPTI range profiler (separate
 * from timed launches; the kernel's side effects happen once more). */
static int dh__cuda_counters(struct dh_program *p, const struct dh_launch *l,
                             struct dh_counters *out, struct dh_err *err)
{
    char why[512];
    if (dh__cuda_cfe_load(why, sizeof why))
        return dh_err_set(err, DH_E_UNAVAILABLE, "%s", why);
    struct dh__cuda_call c;
    int rc = dh__cuda_prepare(p, l, &c, err);
    if (rc)
        return rc;
    /* Nothing else of ours may be in flight inside the profiled range. */
    CUresult r = dh__cuda_cuCtxSynchronize();
    if (r != CUDA_SUCCESS)
        return dh__cuda_err(err, DH_E_LAUNCH, r, "cuCtxSynchronize");
    double thread_inst = 0, warp_inst = 0;
    rc = dh__cuda_cfe_measure(p->dev->ctx, p->dev->index, dh__cuda_cfe_launch,
                              &c, &thread_inst, &warp_inst, err);
    if (rc)
        return rc;
    memset(out, 0, sizeof *out);
    out->thread_inst_pred_on = thread_inst;
    out->warp_inst_executed = warp_inst;
    out->warp_width = p->dev->warp_width;
    out->cfe = warp_inst > 0 && out->warp_width > 0
                   ? thread_inst / (warp_inst * out->warp_width)
                   : 0.0;
    snprintf(out->source, sizeof out->source, "cupti");
    return 0;
}

const struct dh_backend_ops dh_backend_cuda = {
    .abi = DH_BACKEND_ABI,
    .name = "cuda",
    .probe = dh__cuda_probe,
    .describe = dh__cuda_describe,
    .open = dh__cuda_open,
    .close = dh__cuda_close,
    .build = dh__cuda_build,
    .free_program = dh__cuda_free_program,
    .alloc = dh__cuda_alloc,
    .free_buffer = dh__cuda_free_buffer,
    .copy = dh__cuda_copy,
    .launch = dh__cuda_launch,
    .counters = dh__cuda_counters,
};
