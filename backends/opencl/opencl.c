/* opencl.c — the OpenCL backend, through the ICD loader loaded at run time.
 *
 * Works with PoCL (the embedded default CPU device) and with any vendor's
 * OpenCL GPU. Devices of all platforms are numbered in platform order.
 * The warp width comes from CL_DEVICE_WARP_SIZE_NV on NVIDIA and
 * CL_DEVICE_WAVEFRONT_WIDTH_AMD on AMD; otherwise 32 (marked "default").
 * DH_WARP_WIDTH=N overrides it (marked "override"), e.g. to test remaps
 * with small warps on a CPU device.
 */
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../backend.h"
#include "../cache.h"

#ifndef CL_DEVICE_WARP_SIZE_NV
#define CL_DEVICE_WARP_SIZE_NV 0x4003
#endif
#ifndef CL_DEVICE_WAVEFRONT_WIDTH_AMD
#define CL_DEVICE_WAVEFRONT_WIDTH_AMD 0x4043
#endif

/* ---- the runtime, loaded once ---- */
#define DH__CL_FUNCS(X)                                                       \
    X(clGetPlatformIDs) X(clGetPlatformInfo) X(clGetDeviceIDs)                \
    X(clGetDeviceInfo) X(clCreateContext) X(clReleaseContext)                 \
    X(clCreateCommandQueue) X(clReleaseCommandQueue)                          \
    X(clCreateProgramWithSource) X(clCreateProgramWithBinary)                 \
    X(clBuildProgram) X(clGetProgramBuildInfo) X(clGetProgramInfo)            \
    X(clReleaseProgram) X(clCreateKernel) X(clReleaseKernel)                  \
    X(clSetKernelArg) X(clEnqueueNDRangeKernel) X(clCreateBuffer)             \
    X(clReleaseMemObject) X(clEnqueueWriteBuffer) X(clEnqueueReadBuffer)      \
    X(clWaitForEvents) X(clGetEventProfilingInfo) X(clGetEventInfo)           \
    X(clReleaseEvent) X(clFinish)

static struct {
    int tried, ok;
    char why[256];
    void *lib;
#define DH__CL_PTR(f) __typeof__(&f) f;
    DH__CL_FUNCS(DH__CL_PTR)
#undef DH__CL_PTR
} cl;

static const char *cl_err_name(cl_int e)
{
    switch (e) {
#define C(x) case x: return #x;
    C(CL_DEVICE_NOT_FOUND) C(CL_DEVICE_NOT_AVAILABLE)
    C(CL_COMPILER_NOT_AVAILABLE) C(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    C(CL_OUT_OF_RESOURCES) C(CL_OUT_OF_HOST_MEMORY)
    C(CL_BUILD_PROGRAM_FAILURE) C(CL_INVALID_VALUE)
    C(CL_INVALID_DEVICE) C(CL_INVALID_BINARY) C(CL_INVALID_BUILD_OPTIONS)
    C(CL_INVALID_PROGRAM_EXECUTABLE) C(CL_INVALID_KERNEL_NAME)
    C(CL_INVALID_KERNEL_ARGS) C(CL_INVALID_ARG_INDEX) C(CL_INVALID_ARG_SIZE)
    C(CL_INVALID_ARG_VALUE) C(CL_INVALID_WORK_GROUP_SIZE)
    C(CL_INVALID_WORK_ITEM_SIZE) C(CL_INVALID_GLOBAL_WORK_SIZE)
    C(CL_INVALID_BUFFER_SIZE) C(CL_INVALID_MEM_OBJECT)
    C(CL_INVALID_COMMAND_QUEUE) C(CL_INVALID_CONTEXT)
    C(CL_INVALID_PLATFORM)
    C(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    C(CL_PROFILING_INFO_NOT_AVAILABLE) C(CL_INVALID_OPERATION)
#undef C
    }
    return "CL_ERROR";
}

#define CLFAIL(err, code, e, what) \
    dh_err_set(err, code, "opencl: %s failed: %s (%d)", what, cl_err_name(e), (int)(e))

static int load(void)
{
    if (cl.tried)
        return cl.ok;
    cl.tried = 1;
    const char *names[] = {getenv("DH_OPENCL_LIB"), "libOpenCL.so.1", "libOpenCL.so"};
    for (size_t i = 0; i < 3 && !cl.lib; i++)
        if (names[i] && *names[i])
            cl.lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!cl.lib) {
        snprintf(cl.why, sizeof cl.why,
                 "no OpenCL ICD loader (libOpenCL.so.1): install ocl-icd-libopencl1 "
                 "and a driver such as pocl-opencl-icd");
        return 0;
    }
#define DH__CL_SYM(f)                                                         \
    if (!(cl.f = (__typeof__(cl.f))dlsym(cl.lib, #f))) {                     \
        snprintf(cl.why, sizeof cl.why, "libOpenCL lacks %s", #f);            \
        return 0;                                                             \
    }
    DH__CL_FUNCS(DH__CL_SYM)
#undef DH__CL_SYM
    cl.ok = 1;
    return 1;
}

/* All devices of all platforms, in platform order. */
#define DH__CL_MAXDEV 64
static cl_device_id devs[DH__CL_MAXDEV];
static cl_platform_id dev_plat[DH__CL_MAXDEV];
static int n_devs = -1;

static int enumerate(char *why, size_t why_len)
{
    if (n_devs >= 0)
        return n_devs;
    n_devs = 0;
    cl_uint np = 0;
    cl_platform_id plats[16];
    cl_int e = cl.clGetPlatformIDs(16, plats, &np);
    if (e != CL_SUCCESS || np == 0) {
        if (why)
            snprintf(why, why_len, "no OpenCL platform (ICD loader found none: "
                     "is an ICD file in /etc/OpenCL/vendors? e.g. apt-get install "
                     "pocl-opencl-icd)");
        return 0;
    }
    for (cl_uint p = 0; p < np && p < 16; p++) {
        cl_uint nd = 0;
        cl_device_id d[16];
        if (cl.clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 16, d, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint i = 0; i < nd && n_devs < DH__CL_MAXDEV; i++) {
            dev_plat[n_devs] = plats[p];
            devs[n_devs++] = d[i];
        }
    }
    if (!n_devs && why)
        snprintf(why, why_len, "OpenCL platforms found but no devices");
    return n_devs;
}

static int cl_probe(int *n, char *why, size_t why_len, struct dh_err *err)
{
    (void)err;
    *n = 0;
    if (!load()) {
        if (why)
            snprintf(why, why_len, "%s", cl.why);
        return 0;
    }
    *n = enumerate(why, why_len);
    return 0;
}

static void dstr(cl_device_id d, cl_device_info what, char *out, size_t len)
{
    out[0] = 0;
    if (cl.clGetDeviceInfo(d, what, len, out, NULL) != CL_SUCCESS)
        out[0] = 0;
    out[len - 1] = 0;
}

static cl_ulong dulong(cl_device_id d, cl_device_info what)
{
    cl_ulong v = 0;
    if (cl.clGetDeviceInfo(d, what, sizeof v, &v, NULL) != CL_SUCCESS)
        return 0;
    return v;
}

static cl_uint duint(cl_device_id d, cl_device_info what, int *ok)
{
    cl_uint v = 0;
    int good = cl.clGetDeviceInfo(d, what, sizeof v, &v, NULL) == CL_SUCCESS;
    if (ok)
        *ok = good;
    return good ? v : 0;
}

static int cl_describe(int index, struct dh_device_info *info, struct dh_err *err)
{
    int n = 0;
    cl_probe(&n, NULL, 0, err);
    if (index < 0 || index >= n)
        return dh_err_set(err, DH_E_USAGE, "opencl: no device %d (this machine has %d; "
                          "see `harness devices`)", index, n);
    cl_device_id d = devs[index];
    memset(info, 0, sizeof *info);
    dstr(d, CL_DEVICE_NAME, info->name, sizeof info->name);
    dstr(d, CL_DEVICE_VENDOR, info->vendor, sizeof info->vendor);
    dstr(d, CL_DRIVER_VERSION, info->driver, sizeof info->driver);
    dstr(d, CL_DEVICE_VERSION, info->runtime, sizeof info->runtime);
    cl.clGetPlatformInfo(dev_plat[index], CL_PLATFORM_NAME, sizeof info->platform,
                         info->platform, NULL);
    info->platform[sizeof info->platform - 1] = 0;
    cl_device_type t = 0;
    cl.clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof t, &t, NULL);
    snprintf(info->kind, sizeof info->kind, "%s",
             (t & CL_DEVICE_TYPE_GPU) ? "gpu" : (t & CL_DEVICE_TYPE_CPU) ? "cpu" : "accelerator");
    info->compute_units = (int)duint(d, CL_DEVICE_MAX_COMPUTE_UNITS, NULL);
    info->clock_mhz = (int)duint(d, CL_DEVICE_MAX_CLOCK_FREQUENCY, NULL);
    size_t wg = 0;
    cl.clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    info->max_wg = (int)wg;
    info->global_mem_bytes = dulong(d, CL_DEVICE_GLOBAL_MEM_SIZE);
    info->max_alloc_bytes = dulong(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    info->local_mem_bytes = dulong(d, CL_DEVICE_LOCAL_MEM_SIZE);

    int ok = 0;
    cl_uint w = duint(d, CL_DEVICE_WARP_SIZE_NV, &ok);
    if (!ok || !w)
        w = duint(d, CL_DEVICE_WAVEFRONT_WIDTH_AMD, &ok);
    info->warp_width = (ok && w) ? (int)w : 32;
    info->warp_source = (ok && w) ? DH_WARP_DEVICE : DH_WARP_DEFAULT;
    const char *ov = getenv("DH_WARP_WIDTH");
    if (ov && atoi(ov) > 0) {
        info->warp_width = atoi(ov);
        info->warp_source = DH_WARP_OVERRIDE;
    }
    info->has_counters = 0;
    return 0;
}

/* ---- device ---- */
struct dh_device {
    int index;
    cl_device_id id;
    cl_context ctx;
    cl_command_queue q;
    struct dh_device_info info;
};

struct dh_program {
    struct dh_device *dev;
    cl_program prog;
    struct { char name[64]; cl_kernel k; } kern[8];
    int n_kern;
};

struct dh_buffer {
    struct dh_device *dev;
    cl_mem mem;
    size_t bytes;
};

static int cl_open(int index, struct dh_device **out, struct dh_err *err)
{
    struct dh_device *d = calloc(1, sizeof *d);
    if (!d)
        return dh_err_set(err, DH_E_RESOURCES, "opencl: out of host memory");
    int rc = cl_describe(index, &d->info, err);
    if (rc) {
        free(d);
        return rc;
    }
    d->index = index;
    d->id = devs[index];
    cl_int e;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                     (cl_context_properties)dev_plat[index], 0};
    d->ctx = cl.clCreateContext(props, 1, &d->id, NULL, NULL, &e);
    if (e != CL_SUCCESS) {
        free(d);
        return CLFAIL(err, DH_E_UNAVAILABLE, e, "clCreateContext");
    }
    d->q = cl.clCreateCommandQueue(d->ctx, d->id, CL_QUEUE_PROFILING_ENABLE, &e);
    if (e != CL_SUCCESS) {
        cl.clReleaseContext(d->ctx);
        free(d);
        return CLFAIL(err, DH_E_UNAVAILABLE, e, "clCreateCommandQueue");
    }
    *out = d;
    return 0;
}

static void cl_close(struct dh_device *d)
{
    if (!d)
        return;
    cl.clFinish(d->q);
    cl.clReleaseCommandQueue(d->q);
    cl.clReleaseContext(d->ctx);
    free(d);
}

static char *build_log(struct dh_device *d, cl_program p)
{
    size_t n = 0;
    cl.clGetProgramBuildInfo(p, d->id, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    char *log = calloc(1, n + 1);
    if (log && n)
        cl.clGetProgramBuildInfo(p, d->id, CL_PROGRAM_BUILD_LOG, n, log, NULL);
    return log;
}

static int try_cached(struct dh_device *d, const char *key, const char *options,
                      cl_program *out)
{
    void *bin = NULL;
    size_t len = 0;
    if (dh_cache_load(key, &bin, &len))
        return -1;
    cl_int e, st;
    const unsigned char *b = bin;
    cl_program p = cl.clCreateProgramWithBinary(d->ctx, 1, &d->id, &len, &b, &st, &e);
    free(bin);
    if (e != CL_SUCCESS || st != CL_SUCCESS)
        return -1;
    if (cl.clBuildProgram(p, 1, &d->id, options, NULL, NULL) != CL_SUCCESS) {
        cl.clReleaseProgram(p);
        return -1;
    }
    *out = p;
    return 0;
}

static void store_binary(struct dh_device *d, const char *key, cl_program p)
{
    (void)d;
    size_t len = 0;
    if (cl.clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL) != CL_SUCCESS
        || !len)
        return;
    unsigned char *bin = malloc(len);
    if (!bin)
        return;
    if (cl.clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) == CL_SUCCESS)
        dh_cache_store(key, bin, len);
    free(bin);
}

static int cl_build(struct dh_device *d, const char *source, const char *options,
                    struct dh_program **out, char **log, int *cached,
                    struct dh_err *err)
{
    char key[33], devid[512];
    snprintf(devid, sizeof devid, "%s|%s|%s", d->info.platform, d->info.name,
             d->info.runtime);
    dh_cache_key(key, "opencl", devid, d->info.driver, source, options);
    if (log)
        *log = NULL;
    cl_program p = NULL;
    int hit = try_cached(d, key, options, &p) == 0;
    if (!hit) {
        cl_int e;
        size_t len = strlen(source);
        p = cl.clCreateProgramWithSource(d->ctx, 1, &source, &len, &e);
        if (e != CL_SUCCESS)
            return CLFAIL(err, DH_E_BUILD, e, "clCreateProgramWithSource");
        e = cl.clBuildProgram(p, 1, &d->id, options, NULL, NULL);
        if (e != CL_SUCCESS) {
            char *l = build_log(d, p);
            /* first line of the compiler's complaint, for the one-line message */
            char first[300] = "";
            if (l) {
                const char *s = strstr(l, "error");
                snprintf(first, sizeof first, "%s", s ? s : l);
                char *nl = strchr(first, '\n');
                if (nl)
                    *nl = 0;
            }
            if (log)
                *log = l;
            else
                free(l);
            cl.clReleaseProgram(p);
            return dh_err_set(err, DH_E_BUILD, "opencl: clBuildProgram failed: %s (%d)%s%s",
                              cl_err_name(e), (int)e, first[0] ? ": " : "", first);
        }
        store_binary(d, key, p);
    }
    struct dh_program *prog = calloc(1, sizeof *prog);
    if (!prog) {
        cl.clReleaseProgram(p);
        return dh_err_set(err, DH_E_RESOURCES, "opencl: out of host memory");
    }
    prog->dev = d;
    prog->prog = p;
    if (cached)
        *cached = hit;
    *out = prog;
    return 0;
}

static void cl_free_program(struct dh_program *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->n_kern; i++)
        cl.clReleaseKernel(p->kern[i].k);
    cl.clReleaseProgram(p->prog);
    free(p);
}

static int cl_alloc(struct dh_device *d, size_t bytes, struct dh_buffer **out,
                    struct dh_err *err)
{
    if (bytes > d->info.max_alloc_bytes && d->info.max_alloc_bytes)
        return dh_err_set(err, DH_E_RESOURCES,
                          "opencl: buffer of %zu bytes exceeds the device's largest "
                          "allocation (%llu bytes): choose a smaller --size",
                          bytes, (unsigned long long)d->info.max_alloc_bytes);
    cl_int e;
    cl_mem m = cl.clCreateBuffer(d->ctx, CL_MEM_READ_WRITE, bytes ? bytes : 1, NULL, &e);
    if (e != CL_SUCCESS)
        return CLFAIL(err, DH_E_RESOURCES, e, "clCreateBuffer");
    struct dh_buffer *b = calloc(1, sizeof *b);
    if (!b) {
        cl.clReleaseMemObject(m);
        return dh_err_set(err, DH_E_RESOURCES, "opencl: out of host memory");
    }
    b->dev = d;
    b->mem = m;
    b->bytes = bytes;
    *out = b;
    return 0;
}

static void cl_free_buffer(struct dh_buffer *b)
{
    if (!b)
        return;
    cl.clReleaseMemObject(b->mem);
    free(b);
}

static int cl_copy(struct dh_buffer *b, void *host, size_t bytes,
                   enum dh_copy_dir dir, struct dh_err *err)
{
    if (bytes > b->bytes)
        return dh_err_set(err, DH_E_INTERNAL, "opencl: copy of %zu bytes into a "
                          "%zu-byte buffer", bytes, b->bytes);
    cl_int e = dir == DH_TO_DEVICE
        ? cl.clEnqueueWriteBuffer(b->dev->q, b->mem, CL_TRUE, 0, bytes, host, 0, NULL, NULL)
        : cl.clEnqueueReadBuffer(b->dev->q, b->mem, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
    if (e != CL_SUCCESS)
        return CLFAIL(err, DH_E_LAUNCH, e, dir == DH_TO_DEVICE ? "clEnqueueWriteBuffer"
                                                               : "clEnqueueReadBuffer");
    return 0;
}

static cl_kernel kernel_of(struct dh_program *p, const char *name, cl_int *e)
{
    for (int i = 0; i < p->n_kern; i++)
        if (!strcmp(p->kern[i].name, name))
            return p->kern[i].k;
    cl_kernel k = cl.clCreateKernel(p->prog, name, e);
    if (*e != CL_SUCCESS)
        return NULL;
    if (p->n_kern < 8) {
        snprintf(p->kern[p->n_kern].name, sizeof p->kern[0].name, "%s", name);
        p->kern[p->n_kern++].k = k;
    }
    return k;
}

static int cl_launch(struct dh_program *p, const struct dh_launch *l, double *ms,
                     struct dh_err *err)
{
    if (!l->local || l->global % l->local)
        return dh_err_set(err, DH_E_USAGE, "opencl: global size %zu is not a multiple "
                          "of the work-group size %zu", l->global, l->local);
    cl_int e = CL_SUCCESS;
    cl_kernel k = kernel_of(p, l->kernel, &e);
    if (!k)
        return CLFAIL(err, DH_E_LAUNCH, e, l->kernel);
    for (int i = 0; i < l->n_args; i++) {
        const struct dh_arg *a = &l->args[i];
        switch (a->kind) {
        case DH_ARG_BUFFER: e = cl.clSetKernelArg(k, i, sizeof(cl_mem), &a->v.buf->mem); break;
        case DH_ARG_I32: e = cl.clSetKernelArg(k, i, 4, &a->v.i32); break;
        case DH_ARG_U32: e = cl.clSetKernelArg(k, i, 4, &a->v.u32); break;
        case DH_ARG_F32: e = cl.clSetKernelArg(k, i, 4, &a->v.f32); break;
        default: e = CL_INVALID_ARG_VALUE;
        }
        if (e != CL_SUCCESS)
            return dh_err_set(err, DH_E_LAUNCH, "opencl: clSetKernelArg(%s, %d) failed: %s",
                              l->kernel, i, cl_err_name(e));
    }
    cl_event ev;
    e = cl.clEnqueueNDRangeKernel(p->dev->q, k, 1, NULL, &l->global, &l->local, 0, NULL, &ev);
    if (e != CL_SUCCESS)
        return CLFAIL(err, e == CL_OUT_OF_RESOURCES ? DH_E_RESOURCES : DH_E_LAUNCH, e,
                      "clEnqueueNDRangeKernel");
    e = cl.clWaitForEvents(1, &ev);
    cl_int st = CL_COMPLETE;
    cl.clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    if (e != CL_SUCCESS || st < 0) {
        cl.clReleaseEvent(ev);
        return CLFAIL(err, DH_E_LAUNCH, e != CL_SUCCESS ? e : st, "kernel execution");
    }
    if (ms) {
        cl_ulong t0 = 0, t1 = 0;
        cl.clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
        cl.clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
        *ms = (double)(t1 - t0) * 1e-6;
    }
    cl.clReleaseEvent(ev);
    return 0;
}

const struct dh_backend_ops dh_backend_opencl = {
    .abi = DH_BACKEND_ABI,
    .name = "opencl",
    .probe = cl_probe,
    .describe = cl_describe,
    .open = cl_open,
    .close = cl_close,
    .build = cl_build,
    .free_program = cl_free_program,
    .alloc = cl_alloc,
    .free_buffer = cl_free_buffer,
    .copy = cl_copy,
    .launch = cl_launch,
    .counters = NULL,
};
