/* gpu.c — the ops that the CUDA and the HIP backend share, written once
 * against the vocabulary of gpu.h and compiled twice: as C into the
 * harness (backend "cuda", names from backends/cuda/cuda_vendor.h) and as
 * C++ into the HIP plugin (backend "hip", backends/hip/hip_vendor.h).
 *
 * Owns: probe, describe's common part, open/close with the orphaning of
 * programs and buffers, build through the program cache and module load,
 * function lookup, launch checks and argument marshalling, the launch
 * between two timing events, buffers (alloc, free, copy), and the ops
 * table. The vendor files own the rest through gpu.h's hooks: cuda.c
 * (device description, primary context, NVRTC target, CUPTI counters) and
 * hip_plugin.cpp (device description, hipRTC, warp votes and wavefront
 * width, the plugin's entry point).
 *
 * Threading: one device must not be used from two threads at once; each
 * call makes the device's context current on the calling thread.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"

#ifdef __cplusplus
extern "C" {
#endif
#include "../cache.h"
#ifdef __cplusplus
}
#endif

#define DH__GPU_STR(x) #x
#define DH__GPU_XSTR(x) DH__GPU_STR(x)

int dh__gpu_err(struct dh_err *err, int code, dh_gpu_result r,
                const char *fmt, ...)
{
    char what[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const char *name, *text;
    dh_gpu_ErrorText(r, &name, &text);
    const char *note = dh_gpu_IsSticky(r) ? " (sticky: " DH_GPU_LABEL " is "
                                            "unusable in this process until "
                                            "it restarts)"
                                          : "";
    if (name)
        return dh_err_set(err, code, "%s: %s: %s%s", what, name,
                          text ? text : "(no description)", note);
    return dh_err_set(err, code, "%s: " DH_GPU_RESULT_TYPE " %d%s", what,
                      (int)r, note);
}

int dh__gpu_bind(struct dh_device *dev, struct dh_err *err)
{
    dh_gpu_result r = dh_gpu_SetCurrent(dev);
    if (r != DH_GPU_SUCCESS)
        return dh__gpu_err(err, DH_E_INTERNAL, r, "%s", DH_GPU_NAME_SetCurrent);
    return 0;
}

/* ---- probe / describe ---------------------------------------------------- */

static void dh__gpu_why(char *why, size_t why_len, const char *text)
{
    if (why && why_len)
        snprintf(why, why_len, "%s", text);
}

/* A runtime that does not load, or no device, is 0 devices and a reason. */
static int dh__gpu_probe(int *n_devices, char *why, size_t why_len,
                         struct dh_err *err)
{
    (void)err;
    *n_devices = 0;
    struct dh_err e;
    if (dh_gpu_Load(&e)) {
        dh__gpu_why(why, why_len, e.msg);
        return 0;
    }
    int n = 0;
    dh_gpu_result r = dh_gpu_DeviceGetCount(&n);
    if (r != DH_GPU_SUCCESS) {
        dh__gpu_err(&e, DH_E_UNAVAILABLE, r, "%s", DH_GPU_NAME_DeviceGetCount);
        dh__gpu_why(why, why_len, e.msg);
        return 0;
    }
    if (n == 0)
        dh__gpu_why(why, why_len, DH_GPU_NO_DEVICE);
    *n_devices = n;
    return 0;
}

static int dh__gpu_attr(dh_gpu_device d, dh_gpu_attr a, const char *name,
                        int *v, struct dh_err *err)
{
    dh_gpu_result r = dh_gpu_DeviceGetAttribute(v, a, d);
    if (r != DH_GPU_SUCCESS)
        return dh__gpu_err(err, DH_E_UNAVAILABLE, r, "%s(%s)",
                           DH_GPU_NAME_DeviceGetAttribute, name);
    return 0;
}
/* the vendor's own name of the attribute goes into the message */
#define DH__GPU_ATTR(d, a, v, err)                                           \
    dh__gpu_attr((d), (a), DH__GPU_XSTR(a), (v), (err))

/* Device info without a context. Every number comes from an attribute:
 * HIP's hipDeviceProp_t.multiProcessorCount reads 0 on NVIDIA. */
static int dh__gpu_describe(int index, struct dh_device_info *info,
                            struct dh_err *err)
{
    int rc = dh_gpu_Load(err);
    if (rc)
        return rc;
    int n = 0;
    dh_gpu_result r = dh_gpu_DeviceGetCount(&n);
    if (r != DH_GPU_SUCCESS)
        return dh__gpu_err(err, DH_E_UNAVAILABLE, r, "%s",
                           DH_GPU_NAME_DeviceGetCount);
    if (index < 0 || index >= n)
        return dh_err_set(err, DH_E_USAGE, "%s device %d out of range (%d "
                          "device%s)", DH_GPU_LABEL, index, n,
                          n == 1 ? "" : "s");
    dh_gpu_device d;
    if ((r = dh_gpu_DeviceGet(&d, index)) != DH_GPU_SUCCESS)
        return dh__gpu_err(err, DH_E_UNAVAILABLE, r, "%s(%d)",
                           DH_GPU_NAME_DeviceGet, index);

    memset(info, 0, sizeof *info);
    snprintf(info->kind, sizeof info->kind, "gpu");
    int major = 0, minor = 0, warp = 0, cus = 0, max_wg = 0, clock_khz = 0,
        shared = 0;
    if ((rc = DH__GPU_ATTR(d, DH_GPU_ATTR_CC_MAJOR, &major, err)) ||
        (rc = DH__GPU_ATTR(d, DH_GPU_ATTR_CC_MINOR, &minor, err)) ||
        (rc = DH__GPU_ATTR(d, DH_GPU_ATTR_WARP_SIZE, &warp, err)) ||
        (rc = DH__GPU_ATTR(d, DH_GPU_ATTR_MULTIPROCESSOR_COUNT, &cus, err)) ||
        (rc = DH__GPU_ATTR(d, DH_GPU_ATTR_MAX_THREADS_PER_BLOCK, &max_wg,
                           err)) ||
        (rc = DH__GPU_ATTR(d, DH_GPU_ATTR_MAX_SHARED_MEMORY_PER_BLOCK,
                           &shared, err)))
        return rc;
    if (dh_gpu_DeviceGetAttribute(&clock_khz, DH_GPU_ATTR_CLOCK_RATE, d)
        != DH_GPU_SUCCESS)
        clock_khz = 0;
    info->warp_width = warp;
    info->warp_source = DH_WARP_DEVICE;
    info->compute_units = cus;
    info->max_wg = max_wg;
    info->clock_mhz = clock_khz / 1000;
    info->local_mem_bytes = (uint64_t)shared;
    return dh__gpu_describe_vendor(index, d, major, minor, info, err);
}

/* ---- open / close -------------------------------------------------------- */

static void dh__gpu_unload_program(struct dh_program *p);

/* Tear down in dependency order: modules and buffers (they live in the
 * context), events, stream, then the vendor's context. Errors are ignored:
 * nothing useful can be done with them here. Nothing is left for process
 * exit to tear down (the HIP plugin's README, "Teardown", says why). */
static void dh__gpu_close(struct dh_device *dev)
{
    if (!dev)
        return;
    (void)dh_gpu_SetCurrent(dev);
    while (dev->progs)
        dh__gpu_unload_program(dev->progs);
    while (dev->bufs) {
        struct dh_buffer *b = dev->bufs;
        (void)dh_gpu_MemFree(b->ptr);
        b->ptr = 0;
        b->dev = NULL;
        dev->bufs = b->next;
        b->prev = b->next = NULL;
    }
    if (dev->ev_end)
        (void)dh_gpu_EventDestroy(dev->ev_end);
    if (dev->ev_start)
        (void)dh_gpu_EventDestroy(dev->ev_start);
    if (dev->stream)
        (void)dh_gpu_StreamDestroy(dev->stream);
    dh__gpu_close_vendor(dev);
    free(dev);
}

static int dh__gpu_open(int index, struct dh_device **out, struct dh_err *err)
{
    *out = NULL;
    struct dh_device_info info;
    int rc = dh__gpu_describe(index, &info, err);   /* loads, checks index */
    if (rc)
        return rc;
    struct dh_device *dev = (struct dh_device *)calloc(1, sizeof *dev);
    if (!dev)
        return dh_err_set(err, DH_E_RESOURCES, "out of host memory");
    dev->index = index;
    dev->warp_width = info.warp_width;

    /* On failure a handle stays NULL (calloc), so close() skips it. */
    dh_gpu_result r = DH_GPU_SUCCESS;
    const char *what = NULL;
    if ((rc = dh__gpu_open_vendor(dev, &info, err)))
        goto fail;
    if ((r = dh_gpu_StreamCreate(&dev->stream)) != DH_GPU_SUCCESS)
        what = DH_GPU_NAME_StreamCreate;
    else if ((r = dh_gpu_EventCreate(&dev->ev_start)) != DH_GPU_SUCCESS ||
             (r = dh_gpu_EventCreate(&dev->ev_end)) != DH_GPU_SUCCESS)
        what = DH_GPU_NAME_EventCreate;
    if (what) {
        rc = dh__gpu_err(err, DH_E_RESOURCES, r, "%s (device %d)", what,
                         index);
        goto fail;
    }
    *out = dev;
    return 0;
fail:
    dh__gpu_close(dev);
    return rc;
}

/* ---- build --------------------------------------------------------------- */

static int dh__gpu_new_program(struct dh_device *dev, dh_gpu_module mod,
                               struct dh_program **out, struct dh_err *err)
{
    struct dh_program *p = (struct dh_program *)calloc(1, sizeof *p);
    if (!p) {
        (void)dh_gpu_ModuleUnload(mod);
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

static int dh__gpu_build(struct dh_device *dev, const char *source,
                         const char *options, struct dh_program **prog,
                         char **log, int *cached, struct dh_err *err)
{
    if (log)
        *log = NULL;
    if (cached)
        *cached = 0;
    *prog = NULL;
    if (!dev || !source)
        return dh_err_set(err, DH_E_USAGE, "%s build: no device or source",
                          DH_GPU_BACKEND);
    int rc = dh__gpu_build_check(dev, options, err);
    if (rc || (rc = dh__gpu_bind(dev, err)))
        return rc;

    /* The key: a different device, target, driver or compiler must never
     * reuse a binary (the vendor's open() wrote the parts). */
    char key[33];
    dh_cache_key(key, DH_GPU_BACKEND, dev->cache_device, dev->cache_driver,
                 source, options);
    void *img = NULL;
    size_t size = 0;
    dh_gpu_module mod;
    dh_gpu_result r;
    if (dh_cache_load(key, &img, &size) == 0) {
        /* A NUL after the data, so that a truncated PTX file cannot make
         * the driver read past the buffer. */
        char *nul = (char *)realloc(img, size + 1);
        r = DH_GPU_ERROR_OUT_OF_MEMORY;
        if (nul) {
            img = nul;
            nul[size] = 0;
            r = dh_gpu_ModuleLoadData(&mod, img);
        }
        free(img);
        img = NULL;
        if (r == DH_GPU_SUCCESS) {
            if (cached)
                *cached = 1;
            return dh__gpu_new_program(dev, mod, prog, err);
        }
        /* unusable cache entry: compile afresh and overwrite it below */
    }
    rc = dh__gpu_compile(dev, source, options, &img, &size, log, err);
    if (rc)
        return rc;
    r = dh_gpu_ModuleLoadData(&mod, img);
    if (r != DH_GPU_SUCCESS) {
        free(img);
        return dh__gpu_err(err, DH_E_BUILD, r, "%s", dev->load_what);
    }
    dh_cache_store(key, img, size);
    free(img);
    return dh__gpu_new_program(dev, mod, prog, err);
}

/* Unload p's module and unlink it from its device; p stays allocated. */
static void dh__gpu_unload_program(struct dh_program *p)
{
    struct dh_device *dev = p->dev;
    if (!dev)
        return;
    if (p->mod) {
        (void)dh_gpu_SetCurrent(dev);
        (void)dh_gpu_ModuleUnload(p->mod);
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

static void dh__gpu_free_program(struct dh_program *p)
{
    if (!p)
        return;
    dh__gpu_unload_program(p);
    for (int i = 0; i < p->n_fns; i++)
        free(p->fns[i].name);
    free(p->fns);
    free(p);
}

/* ---- buffers ------------------------------------------------------------- */

static int dh__gpu_alloc(struct dh_device *dev, size_t bytes,
                         struct dh_buffer **out, struct dh_err *err)
{
    *out = NULL;
    if (!dev || !bytes)
        return dh_err_set(err, DH_E_USAGE, "%s alloc: %s", DH_GPU_BACKEND,
                          dev ? "zero bytes" : "no device");
    int rc = dh__gpu_bind(dev, err);
    if (rc)
        return rc;
    struct dh_buffer *b = (struct dh_buffer *)calloc(1, sizeof *b);
    if (!b)
        return dh_err_set(err, DH_E_RESOURCES, "out of host memory");
    dh_gpu_result r = dh_gpu_MemAlloc(&b->ptr, bytes);
    if (r != DH_GPU_SUCCESS) {
        free(b);
        return dh__gpu_err(err, DH_E_RESOURCES, r, "%s(%zu bytes)",
                           DH_GPU_NAME_MemAlloc, bytes);
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

static void dh__gpu_free_buffer(struct dh_buffer *b)
{
    if (!b)
        return;
    struct dh_device *dev = b->dev;
    if (dev) {
        (void)dh_gpu_SetCurrent(dev);
        (void)dh_gpu_MemFree(b->ptr);
        if (b->prev)
            b->prev->next = b->next;
        else
            dev->bufs = b->next;
        if (b->next)
            b->next->prev = b->prev;
    }
    free(b);
}

/* Synchronous copies on the default (null) stream, which orders with the
 * device's blocking stream. A host-to-device copy from pageable memory
 * may return before the DMA lands, so a sync follows it. */
static int dh__gpu_copy(struct dh_buffer *b, void *host, size_t bytes,
                        enum dh_copy_dir dir, struct dh_err *err)
{
    if (!b || !b->dev)
        return dh_err_set(err, DH_E_USAGE, "%s copy: %s", DH_GPU_BACKEND,
                          b ? "buffer's device was closed" : "no buffer");
    if (bytes > b->bytes || (bytes && !host))
        return dh_err_set(err, DH_E_USAGE, "%s copy: %zu bytes into a "
                          "%zu-byte buffer%s", DH_GPU_BACKEND, bytes, b->bytes,
                          host ? "" : " (no host pointer)");
    if (!bytes)
        return 0;
    int rc = dh__gpu_bind(b->dev, err);
    if (rc)
        return rc;
    dh_gpu_result r;
    if (dir == DH_TO_DEVICE) {
        r = dh_gpu_MemcpyHtoD(b->ptr, host, bytes);
        if (r == DH_GPU_SUCCESS)
            r = dh_gpu_Synchronize();
        if (r != DH_GPU_SUCCESS)
            return dh__gpu_err(err, DH_E_LAUNCH, r, DH_GPU_FMT_HTOD, bytes);
    } else if (dir == DH_TO_HOST) {
        r = dh_gpu_MemcpyDtoH(host, b->ptr, bytes);
        if (r != DH_GPU_SUCCESS)
            return dh__gpu_err(err, DH_E_LAUNCH, r, DH_GPU_FMT_DTOH, bytes);
    } else {
        return dh_err_set(err, DH_E_USAGE, "%s copy: bad direction %d",
                          DH_GPU_BACKEND, (int)dir);
    }
    return 0;
}

/* ---- launch -------------------------------------------------------------- */

/* The function for `name`, cached per program (names are unmangled: the
 * dialect declares kernels extern "C"). */
static int dh__gpu_function(struct dh_program *p, const char *name,
                            dh_gpu_function *fn, struct dh_err *err)
{
    for (int i = 0; i < p->n_fns; i++)
        if (!strcmp(p->fns[i].name, name)) {
            *fn = p->fns[i].fn;
            return 0;
        }
    dh_gpu_result r = dh_gpu_ModuleGetFunction(fn, p->mod, name);
    if (r != DH_GPU_SUCCESS)
        return dh__gpu_err(err, r == DH_GPU_ERROR_NOT_FOUND ? DH_E_USAGE
                                                            : DH_E_LAUNCH,
                           r, "%s(\"%s\")", DH_GPU_NAME_ModuleGetFunction,
                           name);
    dh_gpu_FuncPreload(*fn);
    if (p->n_fns == p->cap_fns) {
        int cap = p->cap_fns ? 2 * p->cap_fns : 8;
        struct dh__gpu_fn *f =
            (struct dh__gpu_fn *)realloc(p->fns, (size_t)cap * sizeof *f);
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

int dh__gpu_prepare(struct dh_program *p, const struct dh_launch *l,
                    struct dh__gpu_call *c, struct dh_err *err)
{
    if (!p || !p->dev || !p->mod)
        return dh_err_set(err, DH_E_USAGE, "%s launch: %s", DH_GPU_BACKEND,
                          p ? "program's device was closed" : "no program");
    if (!l || !l->kernel)
        return dh_err_set(err, DH_E_USAGE, "%s launch: no kernel name",
                          DH_GPU_BACKEND);
    if (!l->local || !l->global || l->global % l->local)
        return dh_err_set(err, DH_E_USAGE, "%s launch %s: global %zu is not "
                          "a positive multiple of local %zu", DH_GPU_BACKEND,
                          l->kernel, l->global, l->local);
    if (l->local > UINT_MAX || l->global / l->local > 0x7fffffffu)
        return dh_err_set(err, DH_E_USAGE, "%s launch %s: %zu/%zu exceeds "
                          "the 1-D grid limit", DH_GPU_BACKEND, l->kernel,
                          l->global, l->local);
    if (l->n_args < 0 || l->n_args > DH__GPU_MAX_ARGS ||
        (l->n_args && !l->args))
        return dh_err_set(err, DH_E_USAGE, "%s launch %s: bad argument "
                          "list (%d, at most %d)", DH_GPU_BACKEND, l->kernel,
                          l->n_args, DH__GPU_MAX_ARGS);
    c->prog = p;
    c->kernel = l->kernel;
    c->block = (unsigned)l->local;
    c->grid = (unsigned)(l->global / l->local);
    for (int i = 0; i < l->n_args; i++) {
        const struct dh_arg *a = &l->args[i];
        switch (a->kind) {
        case DH_ARG_BUFFER:
            if (!a->v.buf || a->v.buf->dev != p->dev)
                return dh_err_set(err, DH_E_USAGE, "%s launch %s: argument "
                                  "%d is not a live buffer of this device",
                                  DH_GPU_BACKEND, l->kernel, i);
            c->vals[i].ptr = a->v.buf->ptr;
            break;
        case DH_ARG_I32: c->vals[i].i32 = a->v.i32; break;
        case DH_ARG_U32: c->vals[i].u32 = a->v.u32; break;
        case DH_ARG_F32: c->vals[i].f32 = a->v.f32; break;
        default:
            return dh_err_set(err, DH_E_USAGE, "%s launch %s: argument %d "
                              "has unknown kind %d", DH_GPU_BACKEND, l->kernel,
                              i, (int)a->kind);
        }
        c->params[i] = &c->vals[i];
    }
    c->params[l->n_args] = NULL;
    int rc = dh__gpu_bind(p->dev, err);
    if (rc)
        return rc;
    return dh__gpu_function(p, l->kernel, &c->fn, err);
}

dh_gpu_result dh__gpu_enqueue(struct dh__gpu_call *c)
{
    return dh_gpu_LaunchKernel(c->fn, c->grid, 1, 1, c->block, 1, 1, 0,
                               c->prog->dev->stream, c->params, NULL);
}

static int dh__gpu_launch(struct dh_program *p, const struct dh_launch *l,
                          double *ms, struct dh_err *err)
{
    struct dh__gpu_call c;
    int rc = dh__gpu_prepare(p, l, &c, err);
    if (rc)
        return rc;
    struct dh_device *dev = p->dev;
    dh_gpu_result r = dh_gpu_EventRecord(dev->ev_start, dev->stream);
    if (r != DH_GPU_SUCCESS)
        return dh__gpu_err(err, DH_E_LAUNCH, r, "%s(start)",
                           DH_GPU_NAME_EventRecord);
    r = dh__gpu_enqueue(&c);
    if (r != DH_GPU_SUCCESS) {
        /* drain the start event */
        (void)dh_gpu_StreamSynchronize(dev->stream);
        return dh__gpu_err(err, DH_E_LAUNCH, r, "%s(%s, grid %u, block %u)",
                           DH_GPU_NAME_LaunchKernel, c.kernel, c.grid,
                           c.block);
    }
    if ((r = dh_gpu_EventRecord(dev->ev_end, dev->stream)) != DH_GPU_SUCCESS)
        return dh__gpu_err(err, DH_E_LAUNCH, r, "%s(end)",
                           DH_GPU_NAME_EventRecord);
    /* A fault in the kernel (illegal address, trap...) surfaces here; it
     * is sticky: the context is unusable afterwards and the device should
     * be closed and reopened (or the worker process restarted). */
    if ((r = dh_gpu_EventSynchronize(dev->ev_end)) != DH_GPU_SUCCESS)
        return dh__gpu_err(err, DH_E_LAUNCH, r, "kernel %s (grid %u, block "
                           "%u) failed", c.kernel, c.grid, c.block);
    float t = 0;
    if ((r = dh_gpu_EventElapsedTime(&t, dev->ev_start, dev->ev_end))
        != DH_GPU_SUCCESS)
        return dh__gpu_err(err, DH_E_LAUNCH, r, "%s",
                           DH_GPU_NAME_EventElapsedTime);
    if (ms)
        *ms = t;
    return 0;
}

/* Positional: the plugin's C++ has no designated initializers. */
const struct dh_backend_ops DH_GPU_OPS = {
    DH_BACKEND_ABI,
    DH_GPU_BACKEND,
    dh__gpu_probe,
    dh__gpu_describe,
    dh__gpu_open,
    dh__gpu_close,
    dh__gpu_build,
    dh__gpu_free_program,
    dh__gpu_alloc,
    dh__gpu_free_buffer,
    dh__gpu_copy,
    dh__gpu_launch,
    DH_GPU_COUNTERS,
    DH_GPU_PC_BEGIN,
    DH_GPU_PC_END,
};
