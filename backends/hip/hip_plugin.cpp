/* hip_plugin.cpp — the HIP backend's own part (name "hip"): HIP runtime
 * API plus hipRTC, built with backends/gpu/gpu.c as the plugin
 * build/lib/libdh-hip.so that hip_loader.c dlopens; see
 * backends/hip/README.md.
 *
 * The ops themselves (open/close, program cache, buffers, launch) are
 * gpu.c, written once for CUDA and HIP; this file holds what only HIP
 * does, as gpu.h's hooks: describing a device, the context and the hipRTC
 * arch, the wavefront-width check and the warp-vote forms on AMD, the
 * hipRTC compile; and the plugin's entry point.
 *
 * One source, two platforms (the way ggml builds its CUDA code as HIP):
 *   NVIDIA  HIP 5.2's nvidia_detail headers, compiled by CUDA 11.8's nvcc
 *           (-D__HIP_PLATFORM_NVIDIA__); hip* calls are inline wrappers over
 *           the CUDA runtime (static), the driver and NVRTC (CUDA 13).
 *   AMD     hipcc / libamdhip64 (hipRTC is part of it in HIP 5.2).
 * C++ only because HIP's NVIDIA headers are; the interface is C.
 *
 * Nothing is left for process exit to tear down: close() unloads and frees
 * everything (gpu.c) and then waits for the device here. The CUDA runtime
 * linked statically into this plugin would otherwise destroy its context
 * from an exit handler after the modules it does not know about (see
 * README, "Teardown").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hip/hiprtc.h>

#include "../gpu/gpu.h"
extern "C" {
#include "../rtc_options.h"
}
#include "hip_plugin.h"

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

/* ---- describe / open / close: gpu.h's hooks ------------------------------ */

int dh__gpu_describe_vendor(int index, dh_gpu_device d, int major, int minor,
                            struct dh_device_info *info, struct dh_err *err)
{
    (void)d;
    hipDeviceProp_t prop;
    memset(&prop, 0, sizeof prop);
    hipError_t r = hipGetDeviceProperties(&prop, index);
    if (r != hipSuccess)
        return dh__gpu_err(err, DH_E_UNAVAILABLE, r, "hipGetDeviceProperties");
    snprintf(info->name, sizeof info->name, "%s", prop.name);
#ifdef DH_HIP_NVIDIA
    snprintf(info->vendor, sizeof info->vendor, "NVIDIA");
    snprintf(info->platform, sizeof info->platform, "HIP (NVIDIA platform)");
    snprintf(info->arch, sizeof info->arch, "sm_%d%d", major, minor);
#else
    (void)major;
    (void)minor;
    snprintf(info->vendor, sizeof info->vendor, "AMD");
    snprintf(info->platform, sizeof info->platform, "HIP (AMD platform)");
    snprintf(info->arch, sizeof info->arch, "%s", prop.gcnArchName);
#endif
    /* totalGlobalMem, not hipMemGetInfo: that needs a context */
    info->global_mem_bytes = prop.totalGlobalMem;
    info->max_alloc_bytes = prop.totalGlobalMem;
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

/* The device's primary context belongs to the HIP runtime: made current
 * here, never released. */
int dh__gpu_open_vendor(struct dh_device *dev,
                        const struct dh_device_info *info, struct dh_err *err)
{
    struct dh__gpu_vdev *v = &dev->v;
#ifdef DH_HIP_NVIDIA
    v->is_amd = 0;
    int major = 0, minor = 0;
    (void)hipDeviceGetAttribute(&major, hipDeviceAttributeComputeCapabilityMajor,
                                dev->index);
    (void)hipDeviceGetAttribute(&minor, hipDeviceAttributeComputeCapabilityMinor,
                                dev->index);
    /* PTX for the device's own virtual arch; the driver JIT-compiles it */
    snprintf(v->rtc_arch, sizeof v->rtc_arch,
             "--gpu-architecture=compute_%d%d", major, minor);
#else
    v->is_amd = 1;
    /* hipRTC compiles for the current device (set before every build) */
    v->rtc_arch[0] = 0;
#endif
    v->warp_votes = dh__hip_votes_wanted(v->is_amd);

    /* hipModuleLoadData needs a current context: hipSetDevice alone does
     * not create the primary context on the NVIDIA platform, hipFree(0)
     * does. */
    const char *what = "hipSetDevice";
    hipError_t r = hipSetDevice(dev->index);
    if (r == hipSuccess) {
        what = "hipFree(0) (context creation)";
        r = hipFree(0);
    }
    if (r != hipSuccess)
        return dh__gpu_err(err, DH_E_UNAVAILABLE, r, "%s (device %d)", what,
                           dev->index);

    snprintf(dev->load_what, sizeof dev->load_what, "hipModuleLoadData");
    snprintf(dev->cache_device, sizeof dev->cache_device, "%s %s %s votes=%d",
             info->name, info->arch, v->rtc_arch, v->warp_votes);
    snprintf(dev->cache_driver, sizeof dev->cache_driver, "%s; %s",
             info->driver, info->runtime);
    return 0;
}

void dh__gpu_close_vendor(struct dh_device *dev)
{
    (void)dev;
    (void)hipDeviceSynchronize();
}

/* ---- build: gpu.h's hooks ------------------------------------------------ */

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

int dh__gpu_build_check(struct dh_device *dev, const char *options,
                        struct dh_err *err)
{
    int wave = dh__hip_wave_of(options);
    if (wave > 0 && wave != dev->warp_width)
        return dh_err_set(err, DH_E_CONSTRAINT,
                          "hip build: DH_WAVE=%d but this device runs %d-wide "
                          "wavefronts: lane masks and warp-level forms built "
                          "for one width compute wrong slots on the other; "
                          "build with DH_WAVE=%d", wave, dev->warp_width,
                          dev->warp_width);
    return 0;
}

/* hipRTC: source + options -> code object (AMD) or PTX (NVIDIA). */
int dh__gpu_compile(struct dh_device *dev, const char *source,
                    const char *options, void **img, size_t *size, char **log,
                    struct dh_err *err)
{
    const char *extra[3] = {dev->v.rtc_arch,
                            dev->v.warp_votes ? "" : "-DDH_NO_WARP_VOTES", NULL};
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
        const char *vote = dev->v.warp_votes ? NULL : dh__hip_vote_name(text);
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

/* ---- the plugin's entry point -------------------------------------------- */

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
