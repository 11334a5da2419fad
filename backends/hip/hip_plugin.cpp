/* hip_plugin.cpp — the HIP backend's ops (name "hip"): HIP runtime API plus
 * hipRTC, built as the plugin build/lib/libdh-hip.so that hip_loader.c
 * dlopens; see backends/hip/README.md.
 *
 * One source, two platforms (the way ggml builds its CUDA code as HIP):
 *   NVIDIA  HIP 5.2's nvidia_detail headers, compiled by CUDA 11.8's nvcc
 *           (-D__HIP_PLATFORM_NVIDIA__); hip* calls are inline wrappers over
 *           the CUDA runtime (static), the driver and NVRTC (CUDA 13).
 *   AMD     hipcc / libamdhip64 (hipRTC is part of it in HIP 5.2).
 * C++ only because HIP's NVIDIA headers are; the interface is C.
 *
 * Objects: a dh_device owns one blocking stream and two timing events on
 * the device's primary context and keeps lists of its programs and
 * buffers; close() unloads/frees what is still alive and leaves those
 * handles orphaned (their owner still frees them; any other use is
 * -DH_E_USAGE), exactly as the CUDA backend does. Nothing is left for
 * process exit to tear down: the CUDA runtime linked statically into this
 * plugin would otherwise destroy its context from an exit handler after
 * the modules it does not know about (see README, "Teardown").
 *
 * Threading: one device must not be used from two threads at once; each
 * call makes the device current (hipSetDevice) on the calling thread.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hip/hip_runtime_api.h>
#include <hip/hiprtc.h>

/* the project's headers are C without extern "C" guards */
extern "C" {
#include "../backend.h"
#include "../cache.h"
#include "../rtc_options.h"
}
#include "hip_plugin.h"

#if defined(__HIP_PLATFORM_NVIDIA__) || defined(__HIP_PLATFORM_NVCC__)
#define DH_HIP_NVIDIA 1
#define DH_HIP_PLATFORM "nvidia"
#else
#define DH_HIP_PLATFORM "amd"
#endif

/* ---- errors -------------------------------------------------------------- */

/* "<what>: hipErrorX: <HIP's text>"; a fault that leaves the context
 * unusable says so (it is sticky, like CUDA's). */
static int dh__hip_err(struct dh_err *err, int code, hipError_t r,
                       const char *what)
{
    const char *sticky = "";
    if (r == hipErrorIllegalAddress || r == hipErrorLaunchFailure ||
        r == hipErrorAssert || r == hipErrorIllegalState)
        sticky = " (sticky: HIP is unusable in this process until it restarts)";
    return dh_err_set(err, code, "%s: %s: %s%s", what, hipGetErrorName(r),
                      hipGetErrorString(r), sticky);
}

#define DH__HIP_WHAT(buf, ...) snprintf((buf), sizeof(buf), __VA_ARGS__)

/* ---- objects ------------------------------------------------------------- */

struct dh__hip_fn {
    char *name;                  /* malloc'd */
    hipFunction_t fn;
};

struct dh_device {
    int index;
    hipStream_t stream;          /* blocking: orders with hipMemcpy */
    hipEvent_t ev_start, ev_end;
    int warp_width;
    int is_amd;
    int warp_votes;              /* 0: builds get -D DH_NO_WARP_VOTES */
    char rtc_arch[64];           /* e.g. "--gpu-architecture=compute_90" */
    char cache_device[400];      /* cache key parts, see build */
    char cache_driver[200];
    struct dh_program *progs;    /* live programs (doubly linked) */
    struct dh_buffer *bufs;      /* live buffers */
};

struct dh_program {
    struct dh_device *dev;       /* NULL once orphaned by close */
    hipModule_t mod;
    struct dh__hip_fn *fns;      /* hipFunction_t per kernel name seen */
    int n_fns, cap_fns;
    struct dh_program *prev, *next;
};

struct dh_buffer {
    struct dh_device *dev;       /* NULL once orphaned by close */
    void *ptr;
    size_t bytes;
    struct dh_buffer *prev, *next;
};

static int dh__hip_bind(struct dh_device *dev, struct dh_err *err)
{
    hipError_t r = hipSetDevice(dev->index);
    if (r != hipSuccess)
        return dh__hip_err(err, DH_E_INTERNAL, r, "hipSetDevice");
    return 0;
}

/* Warp-vote forms on AMD: off unless DH_HIP_WARP_VOTES=1 (they are
 * compile-checked for wave64 and wave32 in CI but have never run on an
 * AMD GPU here). On NVIDIA they are the same code the CUDA backend runs. */
static int dh__hip_votes_wanted(int is_amd)
{
    const char *v = getenv("DH_HIP_WARP_VOTES");
    if (v && *v)
        return strcmp(v, "0") != 0;
    return !is_amd;
}

/* ---- probe / describe ---------------------------------------------------- */

static int dh__hip_probe(int *n_devices, char *why, size_t why_len,
                         struct dh_err *err)
{
    (void)err;
    *n_devices = 0;
    int n = 0;
    hipError_t r = hipGetDeviceCount(&n);
    if (r != hipSuccess) {
        struct dh_err e;
        dh__hip_err(&e, DH_E_UNAVAILABLE, r, "hipGetDeviceCount");
        if (why && why_len)
            snprintf(why, why_len, "%s", e.msg);
        return 0;
    }
    if (n == 0 && why && why_len)
        snprintf(why, why_len, "HIP runtime loaded (%s platform) but reports "
                 "no device", DH_HIP_PLATFORM);
    *n_devices = n;
    return 0;
}

static int dh__hip_attr(int dev, hipDeviceAttribute_t a, const char *name,
                        int *v, struct dh_err *err)
{
    hipError_t r = hipDeviceGetAttribute(v, a, dev);
    if (r != hipSuccess) {
        char what[128];
        DH__HIP_WHAT(what, "hipDeviceGetAttribute(%s)", name);
        return dh__hip_err(err, DH_E_UNAVAILABLE, r, what);
    }
    return 0;
}
#define DH__HIP_ATTR(d, a, v, err) dh__hip_attr((d), (a), #a, (v), (err))

static int dh__hip_describe(int index, struct dh_device_info *info,
                            struct dh_err *err)
{
    int n = 0;
    hipError_t r = hipGetDeviceCount(&n);
    if (r != hipSuccess)
        return dh__hip_err(err, DH_E_UNAVAILABLE, r, "hipGetDeviceCount");
    if (index < 0 || index >= n)
        return dh_err_set(err, DH_E_USAGE, "HIP device %d out of range (%d "
                          "device%s)", index, n, n == 1 ? "" : "s");
    hipDeviceProp_t prop;
    memset(&prop, 0, sizeof prop);
    if ((r = hipGetDeviceProperties(&prop, index)) != hipSuccess)
        return dh__hip_err(err, DH_E_UNAVAILABLE, r, "hipGetDeviceProperties");

    memset(info, 0, sizeof *info);
    snprintf(info->name, sizeof info->name, "%s", prop.name);
    snprintf(info->kind, sizeof info->kind, "gpu");
    int warp = 0, cus = 0, max_wg = 0, clock_khz = 0, shared = 0, major = 0,
        minor = 0, rc;
    /* multiProcessorCount of hipDeviceProp_t read 0 on the NVIDIA platform:
     * every number comes from hipDeviceGetAttribute. */
    if ((rc = DH__HIP_ATTR(index, hipDeviceAttributeWarpSize, &warp, err)) ||
        (rc = DH__HIP_ATTR(index, hipDeviceAttributeMultiprocessorCount, &cus,
                           err)) ||
        (rc = DH__HIP_ATTR(index, hipDeviceAttributeMaxThreadsPerBlock, &max_wg,
                           err)) ||
        (rc = DH__HIP_ATTR(index, hipDeviceAttributeMaxSharedMemoryPerBlock,
                           &shared, err)) ||
        (rc = DH__HIP_ATTR(index, hipDeviceAttributeComputeCapabilityMajor,
                           &major, err)) ||
        (rc = DH__HIP_ATTR(index, hipDeviceAttributeComputeCapabilityMinor,
                           &minor, err)))
        return rc;
    if (hipDeviceGetAttribute(&clock_khz, hipDeviceAttributeClockRate, index)
        != hipSuccess)
        clock_khz = 0;
#ifdef DH_HIP_NVIDIA
    snprintf(info->vendor, sizeof info->vendor, "NVIDIA");
    snprintf(info->platform, sizeof info->platform, "HIP (NVIDIA platform)");
    snprintf(info->arch, sizeof info->arch, "sm_%d%d", major, minor);
#else
    snprintf(info->vendor, sizeof info->vendor, "AMD");
    snprintf(info->platform, sizeof info->platform, "HIP (AMD platform)");
    snprintf(info->arch, sizeof info->arch, "%s", prop.gcnArchName);
#endif
    /* totalGlobalMem, not hipMemGetInfo: that needs a context */
    size_t total = prop.totalGlobalMem;
    info->warp_width = warp;
    info->warp_source = DH_WARP_DEVICE;
    info->compute_units = cus;
    info->max_wg = max_wg;
    info->clock_mhz = clock_khz / 1000;
    info->global_mem_bytes = total;
    info->max_alloc_bytes = total;
    info->local_mem_bytes = (uint64_t)shared;
    info->has_counters = 0;    /* no counters on HIP: CFE from the model */

    int dv = 0, rv = 0;
    (void)hipDriverGetVersion(&dv);
    (void)hipRuntimeGetVersion(&rv);
#ifdef DH_HIP_NVIDIA
    snprintf(info->driver, sizeof info->driver, "CUDA %d.%d driver", dv / 1000,
             (dv % 1000) / 10);
    snprintf(info->runtime, sizeof info->runtime, "HIP %d.%d (NVIDIA, CUDA "
             "runtime %d.%d), hipRTC over NVRTC", HIP_VERSION_MAJOR,
             HIP_VERSION_MINOR, rv / 1000, (rv % 1000) / 10);
#else
    snprintf(info->driver, sizeof info->driver, "HIP driver %d", dv);
    snprintf(info->runtime, sizeof info->runtime, "HIP %d.%d runtime %d, hipRTC",
             HIP_VERSION_MAJOR, HIP_VERSION_MINOR, rv);
#endif
    return 0;
}

/* ---- open / close -------------------------------------------------------- */

static void dh__hip_unload_program(struct dh_program *p);

/* Tear down in dependency order: modules and buffers (they live in the
 * context), events, stream. The primary context itself belongs to the HIP
 * runtime. Errors are ignored: nothing useful can be done with them. */
static void dh__hip_close(struct dh_device *dev)
{
    if (!dev)
        return;
    (void)hipSetDevice(dev->index);
    while (dev->progs)
        dh__hip_unload_program(dev->progs);
    while (dev->bufs) {
        struct dh_buffer *b = dev->bufs;
        (void)hipFree(b->ptr);
        b->ptr = NULL;
        b->dev = NULL;
        dev->bufs = b->next;
        b->prev = b->next = NULL;
    }
    if (dev->ev_end)
        (void)hipEventDestroy(dev->ev_end);
    if (dev->ev_start)
        (void)hipEventDestroy(dev->ev_start);
    if (dev->stream)
        (void)hipStreamDestroy(dev->stream);
    (void)hipDeviceSynchronize();
    free(dev);
}

static int dh__hip_open(int index, struct dh_device **out, struct dh_err *err)
{
    *out = NULL;
    struct dh_device_info info;
    int rc = dh__hip_describe(index, &info, err);   /* checks index */
    if (rc)
        return rc;
    struct dh_device *dev = (struct dh_device *)calloc(1, sizeof *dev);
    if (!dev)
        return dh_err_set(err, DH_E_RESOURCES, "out of host memory");
    dev->index = index;
    dev->warp_width = info.warp_width;
#ifdef DH_HIP_NVIDIA
    dev->is_amd = 0;
    int major = 0, minor = 0;
    (void)hipDeviceGetAttribute(&major, hipDeviceAttributeComputeCapabilityMajor, index);
    (void)hipDeviceGetAttribute(&minor, hipDeviceAttributeComputeCapabilityMinor, index);
    /* PTX for the device's own virtual arch; the driver JIT-compiles it */
    snprintf(dev->rtc_arch, sizeof dev->rtc_arch,
             "--gpu-architecture=compute_%d%d", major, minor);
#else
    dev->is_amd = 1;
    /* hipRTC compiles for the current device (set before every build) */
    dev->rtc_arch[0] = 0;
#endif
    dev->warp_votes = dh__hip_votes_wanted(dev->is_amd);

    char what[96];
    hipError_t r;
#define DH__OPEN_TRY(call, code, name)                                       \
    do {                                                                     \
        if ((r = (call)) != hipSuccess) {                                    \
            DH__HIP_WHAT(what, "%s (device %d)", name, index);               \
            rc = dh__hip_err(err, code, r, what);                            \
            goto fail;                                                       \
        }                                                                    \
    } while (0)
    /* hipModuleLoadData needs a current context: hipSetDevice alone does
     * not create the primary context on the NVIDIA platform, hipFree(0)
     * does. */
    DH__OPEN_TRY(hipSetDevice(index), DH_E_UNAVAILABLE, "hipSetDevice");
    DH__OPEN_TRY(hipFree(0), DH_E_UNAVAILABLE, "hipFree(0) (context creation)");
    DH__OPEN_TRY(hipStreamCreate(&dev->stream), DH_E_RESOURCES, "hipStreamCreate");
    DH__OPEN_TRY(hipEventCreate(&dev->ev_start), DH_E_RESOURCES, "hipEventCreate");
    DH__OPEN_TRY(hipEventCreate(&dev->ev_end), DH_E_RESOURCES, "hipEventCreate");
#undef DH__OPEN_TRY

    snprintf(dev->cache_device, sizeof dev->cache_device, "%s %s %s votes=%d",
             info.name, info.arch, dev->rtc_arch, dev->warp_votes);
    snprintf(dev->cache_driver, sizeof dev->cache_driver, "%s; %s", info.driver,
             info.runtime);
    *out = dev;
    return 0;
fail:
    dh__hip_close(dev);
    return rc;
}

/* ---- build --------------------------------------------------------------- */

/* DH_WAVE in the options (-1 when absent). */
static int dh__hip_wave_of(const char *options)
{
    const char *p = options ? strstr(options, "DH_WAVE=") : NULL;
    return p ? atoi(p + 8) : -1;
}

/* A kernel that asked for a warp-vote form while they are off fails to
 * compile at one of these names. */
static const char *dh__hip_vote_name(const char *log)
{
    static const char *const names[] = {"dh_tdr_hot_warp", "dh_tdr_dgi_scan",
                                        "DH_TDR_SCAN_INTS", "dh_ballot",
                                        "dh_shfl", "dh_popc", "dh_lanemask_lt"};
    for (size_t i = 0; log && i < sizeof names / sizeof names[0]; i++)
        if (strstr(log, names[i]))
            return names[i];
    return NULL;
}

static int dh__hip_new_program(struct dh_device *dev, hipModule_t mod,
                               struct dh_program **out, struct dh_err *err)
{
    struct dh_program *p = (struct dh_program *)calloc(1, sizeof *p);
    if (!p) {
        (void)hipModuleUnload(mod);
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

/* hipRTC: source + options -> code object (AMD) or PTX (NVIDIA). */
static int dh__hip_compile(struct dh_device *dev, const char *source,
                           const char *options, void **img, size_t *size,
                           char **log, struct dh_err *err)
{
    const char *extra[3] = {dev->rtc_arch,
                            dev->warp_votes ? "" : "-DDH_NO_WARP_VOTES", NULL};
    char **argv = NULL, *store = NULL;
    int argc = 0;
    if (dh_rtc_split_options(options, extra, 2, &argv, &argc, &store))
        return dh_err_set(err, DH_E_RESOURCES, "out of host memory");
    hiprtcProgram prog;
    hiprtcResult rr = hiprtcCreateProgram(&prog, source, "divharness.hip", 0,
                                          NULL, NULL);
    if (rr != HIPRTC_SUCCESS) {
        free(argv);
        free(store);
        return dh_err_set(err, DH_E_BUILD, "hiprtcCreateProgram: %s",
                          hiprtcGetErrorString(rr));
    }
    rr = hiprtcCompileProgram(prog, argc, (const char **)argv);
    free(argv);
    free(store);
    size_t log_len = 0;
    char *text = NULL;
    if (hiprtcGetProgramLogSize(prog, &log_len) == HIPRTC_SUCCESS && log_len > 1 &&
        (text = (char *)malloc(log_len + 1))) {
        if (hiprtcGetProgramLog(prog, text) != HIPRTC_SUCCESS)
            text[0] = 0;
        text[log_len] = 0;
    }
    if (rr != HIPRTC_SUCCESS) {
        int rc;
        const char *vote = dev->warp_votes ? NULL : dh__hip_vote_name(text);
        if (vote) {
            rc = dh_err_set(err, DH_E_UNSUPPORTED,
                            "this build uses a warp-vote form (%s), which the "
                            "hip backend leaves off on AMD: those forms are "
                            "compile-checked for wave64 and wave32 but have "
                            "not run on an AMD GPU; the portable forms "
                            "(alg=hot, dgi) run here; DH_HIP_WARP_VOTES=1 "
                            "builds the warp-vote forms anyway", vote);
        } else {
            /* the first line of the log that says "error" */
            char first[600] = "";
            const char *e = text ? strstr(text, "error") : NULL;
            if (e) {
                const char *b = e;
                while (b > text && b[-1] != '\n')
                    b--;
                size_t l = strcspn(b, "\n");
                if (l >= sizeof first)
                    l = sizeof first - 1;
                memcpy(first, b, l);
                first[l] = 0;
            }
            rc = dh_err_set(err, DH_E_BUILD, "hipRTC compile failed: %s%s%s",
                            hiprtcGetErrorString(rr), first[0] ? ": " : "",
                            first);
        }
        if (log)
            *log = text;
        else
            free(text);
        (void)hiprtcDestroyProgram(&prog);
        return rc;
    }
    free(text);
    size_t n = 0;
    if ((rr = hiprtcGetCodeSize(prog, &n)) != HIPRTC_SUCCESS || !n) {
        (void)hiprtcDestroyProgram(&prog);
        return dh_err_set(err, DH_E_BUILD, "hiprtcGetCodeSize: %s",
                          hiprtcGetErrorString(rr));
    }
    char *code = (char *)malloc(n + 1);
    if (!code) {
        (void)hiprtcDestroyProgram(&prog);
        return dh_err_set(err, DH_E_RESOURCES, "out of host memory");
    }
    if ((rr = hiprtcGetCode(prog, code)) != HIPRTC_SUCCESS) {
        free(code);
        (void)hiprtcDestroyProgram(&prog);
        return dh_err_set(err, DH_E_BUILD, "hiprtcGetCode: %s",
                          hiprtcGetErrorString(rr));
    }
    code[n] = 0;               /* PTX is text: keep it terminated */
    (void)hiprtcDestroyProgram(&prog);
    *img = code;
    *size = n;
    return 0;
}

static int dh__hip_build(struct dh_device *dev, const char *source,
                         const char *options, struct dh_program **prog,
                         char **log, int *cached, struct dh_err *err)
{
    if (log)
        *log = NULL;
    if (cached)
        *cached = 0;
    *prog = NULL;
    if (!dev || !source)
        return dh_err_set(err, DH_E_USAGE, "hip build: no device or source");
    int wave = dh__hip_wave_of(options);
    if (wave > 0 && wave != dev->warp_width)
        return dh_err_set(err, DH_E_CONSTRAINT,
                          "hip build: DH_WAVE=%d but this device runs %d-wide "
                          "wavefronts: lane masks and warp-level forms built "
                          "for one width compute wrong slots on the other; "
                          "build with DH_WAVE=%d", wave, dev->warp_width,
                          dev->warp_width);
    int rc = dh__hip_bind(dev, err);
    if (rc)
        return rc;

    char key[33];
    dh_cache_key(key, "hip", dev->cache_device, dev->cache_driver, source,
                 options);
    void *img = NULL;
    size_t size = 0;
    hipModule_t mod;
    hipError_t r;
    if (dh_cache_load(key, &img, &size) == 0) {
        char *nul = (char *)realloc(img, size + 1);
        r = hipErrorOutOfMemory;
        if (nul) {
            img = nul;
            nul[size] = 0;
            r = hipModuleLoadData(&mod, img);
        }
        free(img);
        img = NULL;
        if (r == hipSuccess) {
            if (cached)
                *cached = 1;
            return dh__hip_new_program(dev, mod, prog, err);
        }
    }
    rc = dh__hip_compile(dev, source, options, &img, &size, log, err);
    if (rc)
        return rc;
    r = hipModuleLoadData(&mod, img);
    if (r != hipSuccess) {
        free(img);
        return dh__hip_err(err, DH_E_BUILD, r, "hipModuleLoadData");
    }
    dh_cache_store(key, img, size);
    free(img);
    return dh__hip_new_program(dev, mod, prog, err);
}

static void dh__hip_unload_program(struct dh_program *p)
{
    struct dh_device *dev = p->dev;
    if (!dev)
        return;
    if (p->mod) {
        (void)hipSetDevice(dev->index);
        (void)hipModuleUnload(p->mod);
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

static void dh__hip_free_program(struct dh_program *p)
{
    if (!p)
        return;
    dh__hip_unload_program(p);
    for (int i = 0; i < p->n_fns; i++)
        free(p->fns[i].name);
    free(p->fns);
    free(p);
}

/* ---- buffers ------------------------------------------------------------- */

static int dh__hip_alloc(struct dh_device *dev, size_t bytes,
                         struct dh_buffer **out, struct dh_err *err)
{
    *out = NULL;
    if (!dev || !bytes)
        return dh_err_set(err, DH_E_USAGE, "hip alloc: %s",
                          dev ? "zero bytes" : "no device");
    int rc = dh__hip_bind(dev, err);
    if (rc)
        return rc;
    struct dh_buffer *b = (struct dh_buffer *)calloc(1, sizeof *b);
    if (!b)
        return dh_err_set(err, DH_E_RESOURCES, "out of host memory");
    hipError_t r = hipMalloc(&b->ptr, bytes);
    if (r != hipSuccess) {
        free(b);
        char what[64];
        DH__HIP_WHAT(what, "hipMalloc(%zu bytes)", bytes);
        return dh__hip_err(err, DH_E_RESOURCES, r, what);
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

static void dh__hip_free_buffer(struct dh_buffer *b)
{
    if (!b)
        return;
    struct dh_device *dev = b->dev;
    if (dev) {
        (void)hipSetDevice(dev->index);
        (void)hipFree(b->ptr);
        if (b->prev)
            b->prev->next = b->next;
        else
            dev->bufs = b->next;
        if (b->next)
            b->next->prev = b->prev;
    }
    free(b);
}

/* Synchronous copies on the null stream, which orders with the device's
 * blocking stream. A host-to-device copy from pageable memory may return
 * before the DMA lands: a device sync follows it. */
static int dh__hip_copy(struct dh_buffer *b, void *host, size_t bytes,
                        enum dh_copy_dir dir, struct dh_err *err)
{
    if (!b || !b->dev)
        return dh_err_set(err, DH_E_USAGE, "hip copy: %s",
                          b ? "buffer's device was closed" : "no buffer");
    if (bytes > b->bytes || (bytes && !host))
        return dh_err_set(err, DH_E_USAGE, "hip copy: %zu bytes into a %zu-byte "
                          "buffer%s", bytes, b->bytes,
                          host ? "" : " (no host pointer)");
    if (!bytes)
        return 0;
    int rc = dh__hip_bind(b->dev, err);
    if (rc)
        return rc;
    hipError_t r;
    char what[64];
    if (dir == DH_TO_DEVICE) {
        r = hipMemcpy(b->ptr, host, bytes, hipMemcpyHostToDevice);
        if (r == hipSuccess)
            r = hipDeviceSynchronize();
        DH__HIP_WHAT(what, "hipMemcpy(HtoD, %zu bytes)", bytes);
    } else if (dir == DH_TO_HOST) {
        r = hipMemcpy(host, b->ptr, bytes, hipMemcpyDeviceToHost);
        DH__HIP_WHAT(what, "hipMemcpy(DtoH, %zu bytes)", bytes);
    } else {
        return dh_err_set(err, DH_E_USAGE, "hip copy: bad direction %d", (int)dir);
    }
    if (r != hipSuccess)
        return dh__hip_err(err, DH_E_LAUNCH, r, what);
    return 0;
}

/* ---- launch -------------------------------------------------------------- */

#define DH__HIP_MAX_ARGS 64

static int dh__hip_function(struct dh_program *p, const char *name,
                            hipFunction_t *fn, struct dh_err *err)
{
    for (int i = 0; i < p->n_fns; i++)
        if (!strcmp(p->fns[i].name, name)) {
            *fn = p->fns[i].fn;
            return 0;
        }
    hipError_t r = hipModuleGetFunction(fn, p->mod, name);
    if (r != hipSuccess) {
        char what[160];
        DH__HIP_WHAT(what, "hipModuleGetFunction(\"%.100s\")", name);
        return dh__hip_err(err, r == hipErrorNotFound ? DH_E_USAGE : DH_E_LAUNCH,
                           r, what);
    }
    if (p->n_fns == p->cap_fns) {
        int cap = p->cap_fns ? 2 * p->cap_fns : 8;
        struct dh__hip_fn *f =
            (struct dh__hip_fn *)realloc(p->fns, (size_t)cap * sizeof *f);
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

static int dh__hip_launch(struct dh_program *p, const struct dh_launch *l,
                          double *ms, struct dh_err *err)
{
    if (!p || !p->dev || !p->mod)
        return dh_err_set(err, DH_E_USAGE, "hip launch: %s",
                          p ? "program's device was closed" : "no program");
    if (!l || !l->kernel)
        return dh_err_set(err, DH_E_USAGE, "hip launch: no kernel name");
    if (!l->local || !l->global || l->global % l->local)
        return dh_err_set(err, DH_E_USAGE, "hip launch %s: global %zu is not a "
                          "positive multiple of local %zu", l->kernel, l->global,
                          l->local);
    if (l->local > UINT_MAX || l->global / l->local > 0x7fffffffu)
        return dh_err_set(err, DH_E_USAGE, "hip launch %s: %zu/%zu exceeds the "
                          "1-D grid limit", l->kernel, l->global, l->local);
    if (l->n_args < 0 || l->n_args > DH__HIP_MAX_ARGS || (l->n_args && !l->args))
        return dh_err_set(err, DH_E_USAGE, "hip launch %s: bad argument list "
                          "(%d, at most %d)", l->kernel, l->n_args,
                          DH__HIP_MAX_ARGS);
    union {
        void *ptr;
        int32_t i32;
        uint32_t u32;
        float f32;
    } vals[DH__HIP_MAX_ARGS];
    void *params[DH__HIP_MAX_ARGS + 1];
    for (int i = 0; i < l->n_args; i++) {
        const struct dh_arg *a = &l->args[i];
        switch (a->kind) {
        case DH_ARG_BUFFER:
            if (!a->v.buf || a->v.buf->dev != p->dev)
                return dh_err_set(err, DH_E_USAGE, "hip launch %s: argument %d "
                                  "is not a live buffer of this device",
                                  l->kernel, i);
            vals[i].ptr = a->v.buf->ptr;
            break;
        case DH_ARG_I32: vals[i].i32 = a->v.i32; break;
        case DH_ARG_U32: vals[i].u32 = a->v.u32; break;
        case DH_ARG_F32: vals[i].f32 = a->v.f32; break;
        default:
            return dh_err_set(err, DH_E_USAGE, "hip launch %s: argument %d has "
                              "unknown kind %d", l->kernel, i, (int)a->kind);
        }
        params[i] = &vals[i];
    }
    params[l->n_args] = NULL;
    struct dh_device *dev = p->dev;
    int rc = dh__hip_bind(dev, err);
    hipFunction_t fn;
    if (rc || (rc = dh__hip_function(p, l->kernel, &fn, err)))
        return rc;
    unsigned block = (unsigned)l->local, grid = (unsigned)(l->global / l->local);
    char what[200];
    hipError_t r = hipEventRecord(dev->ev_start, dev->stream);
    if (r != hipSuccess)
        return dh__hip_err(err, DH_E_LAUNCH, r, "hipEventRecord(start)");
    r = hipModuleLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, dev->stream,
                              params, NULL);
    if (r != hipSuccess) {
        (void)hipStreamSynchronize(dev->stream);
        DH__HIP_WHAT(what, "hipModuleLaunchKernel(%.100s, grid %u, block %u)",
                     l->kernel, grid, block);
        return dh__hip_err(err, DH_E_LAUNCH, r, what);
    }
    if ((r = hipEventRecord(dev->ev_end, dev->stream)) != hipSuccess)
        return dh__hip_err(err, DH_E_LAUNCH, r, "hipEventRecord(end)");
    if ((r = hipEventSynchronize(dev->ev_end)) != hipSuccess) {
        DH__HIP_WHAT(what, "kernel %.100s (grid %u, block %u) failed", l->kernel,
                     grid, block);
        return dh__hip_err(err, DH_E_LAUNCH, r, what);
    }
    float t = 0;
    if ((r = hipEventElapsedTime(&t, dev->ev_start, dev->ev_end)) != hipSuccess)
        return dh__hip_err(err, DH_E_LAUNCH, r, "hipEventElapsedTime");
    if (ms)
        *ms = t;
    return 0;
}

static const struct dh_backend_ops dh__hip_ops = {
    DH_BACKEND_ABI,
    "hip",
    dh__hip_probe,
    dh__hip_describe,
    dh__hip_open,
    dh__hip_close,
    dh__hip_build,
    dh__hip_free_program,
    dh__hip_alloc,
    dh__hip_free_buffer,
    dh__hip_copy,
    dh__hip_launch,
    NULL,                    /* counters: none on HIP, CFE from the model */
};

extern "C" __attribute__((visibility("default")))
const struct dh_backend_ops *dh_hip_plugin_ops(int abi, char *platform,
                                               size_t platform_len, char *why,
                                               size_t why_len)
{
    if (platform && platform_len)
        snprintf(platform, platform_len, "%s", DH_HIP_PLATFORM);
    if (abi != DH_BACKEND_ABI) {
        if (why && why_len)
            snprintf(why, why_len, "HIP plugin built for backend ABI %d, the "
                     "harness has %d: rebuild it (make hip-nvidia or hip-amd)",
                     DH_BACKEND_ABI, abi);
        return NULL;
    }
    return &dh__hip_ops;
}
