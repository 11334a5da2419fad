/* cuda.c — the CUDA backend's own part (dh_backend_cuda, name "cuda"):
 * CUDA driver API plus NVRTC; see backends/cuda/README.md.
 *
 * The ops themselves (open/close, program cache, buffers, launch) are
 * backends/gpu/gpu.c, which the HIP plugin compiles too; this file holds
 * what only CUDA does, as gpu.h's hooks: describing a device (plus NVML),
 * the primary context, the NVRTC target, and the counters op (CUPTI).
 *
 * libcuda.so.1, NVRTC and (optionally) NVML are dlopen'd by cuda_load.c on
 * the first probe()/describe()/open(), so the harness starts on a machine
 * without a driver and probe() answers "0 devices" plus the reason.
 * NVRTC compiling is in cuda_rtc.c; counters come from cupti_cfe.cpp
 * (CUPTI range profiler, also dlopen'd).
 *
 * Threading: loading is done once (pthread_once). Each call makes the
 * device's context current on the calling thread; one device must not be
 * used from two threads at once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu.h"
#include "cupti_cfe.h"

/* ---- describe / open / close: gpu.h's hooks ------------------------------ */

/* NVML (if loaded) adds the driver's own version string and the max SM
 * clock when the attribute gives none. */
int dh__gpu_describe_vendor(int index, dh_gpu_device d, int major, int minor,
                            struct dh_device_info *info, struct dh_err *err)
{
    (void)index;
    CUresult r = dh__cuda_cuDeviceGetName(info->name, (int)sizeof info->name,
                                          d);
    if (r != CUDA_SUCCESS)
        return dh__gpu_err(err, DH_E_UNAVAILABLE, r, "cuDeviceGetName");
    size_t total = 0;
    if ((r = dh__cuda_cuDeviceTotalMem_v2(&total, d)) != CUDA_SUCCESS)
        return dh__gpu_err(err, DH_E_UNAVAILABLE, r, "cuDeviceTotalMem");
    snprintf(info->vendor, sizeof info->vendor, "NVIDIA");
    snprintf(info->platform, sizeof info->platform, "CUDA");
    snprintf(info->arch, sizeof info->arch, "sm_%d%d", major, minor);
    info->global_mem_bytes = total;
    info->max_alloc_bytes = total;
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

/* The primary context, retained and made current; then what NVRTC
 * compiles for. */
int dh__gpu_open_vendor(struct dh_device *dev,
                        const struct dh_device_info *info, struct dh_err *err)
{
    struct dh__gpu_vdev *v = &dev->v;
    CUresult r;
    const char *what = NULL;
    if ((r = dh__cuda_cuDeviceGet(&v->cu, dev->index)) != CUDA_SUCCESS)
        what = "cuDeviceGet";
    else if ((r = dh__cuda_cuDevicePrimaryCtxRetain(&v->ctx, v->cu))
             != CUDA_SUCCESS)
        what = "cuDevicePrimaryCtxRetain";
    else if ((r = dh__cuda_cuCtxSetCurrent(v->ctx)) != CUDA_SUCCESS)
        what = "cuCtxSetCurrent";
    if (what)
        return dh__gpu_err(err, DH_E_UNAVAILABLE, r, "%s (device %d)", what,
                            dev->index);

    int major = 0, minor = 0;
    if ((r = dh__cuda_cuDeviceGetAttribute(
             &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, v->cu))
            != CUDA_SUCCESS ||
        (r = dh__cuda_cuDeviceGetAttribute(
             &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, v->cu))
            != CUDA_SUCCESS)
        return dh__gpu_err(err, DH_E_UNAVAILABLE, r,
                            "cuDeviceGetAttribute(compute capability)");
    dh__cuda_rtc_target(major * 10 + minor, &v->target);
    snprintf(dev->load_what, sizeof dev->load_what, "cuModuleLoadData(%s %s)",
             v->target.cubin ? "CUBIN" : "PTX", v->target.name);
    /* The cache key: a different device, target, driver or NVRTC must
     * never reuse a binary. */
    snprintf(dev->cache_device, sizeof dev->cache_device, "%s %s %s",
             info->name, info->arch, v->target.name);
    snprintf(dev->cache_driver, sizeof dev->cache_driver, "%s; NVRTC %d.%d",
             info->driver, dh__cuda_rt.nvrtc_major, dh__cuda_rt.nvrtc_minor);
    return 0;
}

/* Drop our primary-context reference (the modules, buffers, events and
 * stream are gone already). */
void dh__gpu_close_vendor(struct dh_device *dev)
{
    if (dev->v.ctx) {
        dh__cuda_cuCtxSetCurrent(NULL);
        dh__cuda_cuDevicePrimaryCtxRelease_v2(dev->v.cu);
    }
}

/* ---- build: gpu.h's hooks ------------------------------------------------ */

int dh__gpu_build_check(struct dh_device *dev, const char *options,
                        struct dh_err *err)
{
    (void)options;
    if (!dev->v.target.name[0])
        return dh_err_set(err, DH_E_UNSUPPORTED, "%s", dev->v.target.why);
    return 0;
}

int dh__gpu_compile(struct dh_device *dev, const char *source,
                    const char *options, void **img, size_t *size, char **log,
                    struct dh_err *err)
{
    return dh__cuda_rtc_compile(&dev->v.target, source, options, img, size,
                                log, err);
}

/* ---- counters ------------------------------------------------------------ */

/* The profiler's launch callback: one untimed launch, then wait. */
static int dh__cuda_cfe_launch(void *arg, struct dh_err *err)
{
    struct dh__gpu_call *c = arg;
    CUresult r = dh__gpu_enqueue(c);
    if (r != CUDA_SUCCESS)
        return dh__gpu_err(err, DH_E_LAUNCH, r, "cuLaunchKernel(%s, grid %u,"
                            " block %u) under CUPTI", c->kernel, c->grid,
                            c->block);
    r = dh__cuda_cuStreamSynchronize(c->prog->dev->stream);
    if (r != CUDA_SUCCESS)
        return dh__gpu_err(err, DH_E_LAUNCH, r, "kernel %s (grid %u, block "
                            "%u) failed under CUPTI", c->kernel, c->grid,
                            c->block);
    return 0;
}

/* Optional ops: per-instruction counts of the launches between them
 * (CUPTI SASS metrics). Nothing of ours may be in flight when patching
 * starts or when the counts are read. */
int dh__cuda_pc_begin(struct dh_device *dev, struct dh_err *err)
{
    CUresult r = dh__cuda_cuCtxSynchronize();
    if (r != CUDA_SUCCESS)
        return dh__gpu_err(err, DH_E_LAUNCH, r, "cuCtxSynchronize");
    return dh__cuda_pcs_begin(dev->v.ctx, dev->index, err);
}

int dh__cuda_pc_end(struct dh_device *dev, struct dh_pc_count **out, long *n,
                    struct dh_err *err)
{
    CUresult r = dh__cuda_cuCtxSynchronize();
    if (r != CUDA_SUCCESS) {
        struct dh_pc_count *v = NULL;
        long m = 0;
        struct dh_err e2 = {0};
        (void)dh__cuda_pcs_end(dev->v.ctx, dev->index, &v, &m, &e2);
        free(v);
        return dh__gpu_err(err, DH_E_LAUNCH, r, "cuCtxSynchronize");
    }
    return dh__cuda_pcs_end(dev->v.ctx, dev->index, out, n, err);
}

/* Optional op: one extra launch under the CUPTI range profiler (separate
 * from timed launches; the kernel's side effects happen once more). */
int dh__cuda_counters(struct dh_program *p, const struct dh_launch *l,
                      struct dh_counters *out, struct dh_err *err)
{
    char why[512];
    if (dh__cuda_cfe_load(why, sizeof why))
        return dh_err_set(err, DH_E_UNAVAILABLE, "%s", why);
    struct dh__gpu_call c;
    int rc = dh__gpu_prepare(p, l, &c, err);
    if (rc)
        return rc;
    /* Nothing else of ours may be in flight inside the profiled range. */
    CUresult r = dh__cuda_cuCtxSynchronize();
    if (r != CUDA_SUCCESS)
        return dh__gpu_err(err, DH_E_LAUNCH, r, "cuCtxSynchronize");
    double thread_inst = 0, warp_inst = 0;
    rc = dh__cuda_cfe_measure(p->dev->v.ctx, p->dev->index,
                              dh__cuda_cfe_launch, &c, &thread_inst,
                              &warp_inst, err);
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
