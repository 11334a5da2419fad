/* cuda_load.c — run-time loading of the CUDA driver (libcuda.so.1), NVRTC
 * and NVML for the CUDA backend, and CUDA/NVRTC error text; see
 * cuda_load.h. Only headers are used at build time, so the harness starts
 * on a machine without a driver.
 *
 * Search order (pinned, because Debian's CUDA 11.8 may put an older
 * libnvrtc.so on the default path):
 *   driver  "libcuda.so.1" (the driver installs it on the loader path)
 *   NVRTC   $CUDA_HOME/lib64/libnvrtc.so.13 (CUDA_HOME defaults to
 *           /usr/local/cuda), then "libnvrtc.so.13", then "libnvrtc.so"
 *   NVML    "libnvidia-ml.so.1", optional (driver version string, clock)
 * Library handles are never closed: the pointers live as long as the
 * process.
 */
#include "cuda_load.h"
#include "gpu/gpu.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DH__CUDA_DEF(f) __typeof__(f) *dh__cuda_##f;
DH__CU_FUNCS(DH__CUDA_DEF)
DH__RTC_FUNCS(DH__CUDA_DEF)
#undef DH__CUDA_DEF
__typeof__(cuEventElapsedTime_v2) *dh__cuda_cuEventElapsedTime;
__typeof__(cuFuncLoad) *dh__cuda_cuFuncLoad;

struct dh__cuda_runtime dh__cuda_rt;

/* NVML ships no header with the toolkit; the few calls used, as NVML
 * documents them. */
typedef int dh__nvml_ret;                   /* nvmlReturn_t, 0 = success */
typedef struct dh__nvml_dev *dh__nvml_dev;  /* nvmlDevice_t */
#define DH__NVML_CLOCK_SM 1                 /* NVML_CLOCK_SM */
static dh__nvml_ret (*dh__nvml_init)(void);
static dh__nvml_ret (*dh__nvml_shutdown)(void);
static dh__nvml_ret (*dh__nvml_driver_version)(char *, unsigned);
static dh__nvml_ret (*dh__nvml_by_pci)(const char *, dh__nvml_dev *);
static dh__nvml_ret (*dh__nvml_max_clock)(dh__nvml_dev, int, unsigned *);
static int dh__nvml_ok;

static pthread_once_t dh__cuda_once = PTHREAD_ONCE_INIT;

/* Contract in cuda_load.h. */
int dh__cuda_sticky(CUresult r)
{
    switch (r) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_ECC_UNCORRECTABLE:
        return 1;
    default:
        return 0;
    }
}

void dh__cuda_error_text(CUresult r, const char **name, const char **text)
{
    *name = *text = NULL;
    if (dh__cuda_cuGetErrorName &&
        dh__cuda_cuGetErrorName(r, name) != CUDA_SUCCESS)
        *name = NULL;
    if (dh__cuda_cuGetErrorString &&
        dh__cuda_cuGetErrorString(r, text) != CUDA_SUCCESS)
        *text = NULL;
}

int dh__cuda_rtc_err(struct dh_err *err, int code, nvrtcResult r,
                     const char *what)
{
    const char *s =
        dh__cuda_nvrtcGetErrorString ? dh__cuda_nvrtcGetErrorString(r) : NULL;
    return dh_err_set(err, code, "%s: %s", what, s ? s : "NVRTC error");
}

static void *dh__cuda_sym(void *lib, const char *lib_name, const char *sym)
{
    void *p = dlsym(lib, sym);
    if (!p)
        snprintf(dh__cuda_rt.why, sizeof dh__cuda_rt.why,
                 "%s lacks %s (driver/toolkit too old?)", lib_name, sym);
    return p;
}

static void *dh__cuda_open_nvrtc(void)
{
    const char *home = getenv("CUDA_HOME");
    if (!home || !*home)
        home = "/usr/local/cuda";
    char pinned[300];
    snprintf(pinned, sizeof pinned, "%.200s/lib64/libnvrtc.so.13", home);
    const char *tries[] = {pinned, "libnvrtc.so.13", "libnvrtc.so"};
    char last[300] = "";
    for (size_t i = 0; i < sizeof tries / sizeof *tries; i++) {
        void *h = dlopen(tries[i], RTLD_NOW | RTLD_LOCAL);
        if (h) {
            snprintf(dh__cuda_rt.nvrtc_path, sizeof dh__cuda_rt.nvrtc_path,
                     "%s", tries[i]);
            return h;
        }
        snprintf(last, sizeof last, "%s", dlerror());
    }
    snprintf(dh__cuda_rt.why, sizeof dh__cuda_rt.why,
             "no NVRTC (tried %.200s, libnvrtc.so.13, libnvrtc.so): %.200s",
             pinned, last);
    return NULL;
}

static void dh__cuda_open_nvml(void)
{
    void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return;                       /* optional: descriptions lose detail */
    *(void **)&dh__nvml_init = dlsym(h, "nvmlInit_v2");
    *(void **)&dh__nvml_shutdown = dlsym(h, "nvmlShutdown");
    *(void **)&dh__nvml_driver_version = dlsym(h, "nvmlSystemGetDriverVersion");
    *(void **)&dh__nvml_by_pci = dlsym(h, "nvmlDeviceGetHandleByPciBusId_v2");
    *(void **)&dh__nvml_max_clock = dlsym(h, "nvmlDeviceGetMaxClockInfo");
    dh__nvml_ok = dh__nvml_init && dh__nvml_shutdown &&
                  dh__nvml_driver_version && dh__nvml_by_pci &&
                  dh__nvml_max_clock;
}

static void dh__cuda_load_once(void)
{
    void *cu = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!cu) {
        snprintf(dh__cuda_rt.why, sizeof dh__cuda_rt.why,
                 "no CUDA driver: %.400s", dlerror());
        return;
    }
#define DH__LOAD_CU(f)                                                       \
    if (!(*(void **)&dh__cuda_##f = dh__cuda_sym(cu, "libcuda.so.1", #f)))   \
        return;
    DH__CU_FUNCS(DH__LOAD_CU)
#undef DH__LOAD_CU
    *(void **)&dh__cuda_cuEventElapsedTime =
        dlsym(cu, "cuEventElapsedTime_v2");
    if (!dh__cuda_cuEventElapsedTime &&
        !(*(void **)&dh__cuda_cuEventElapsedTime =
              dh__cuda_sym(cu, "libcuda.so.1", "cuEventElapsedTime")))
        return;

    /* Optional: loads a kernel eagerly, keeping lazy loading (the CUDA 12+
     * default) out of the first timed launch. */
    *(void **)&dh__cuda_cuFuncLoad = dlsym(cu, "cuFuncLoad");

    CUresult r = dh__cuda_cuInit(0);
    if (r != CUDA_SUCCESS) {
        struct dh_err e;
        dh__gpu_err(&e, DH_E_UNAVAILABLE, r, "cuInit");
        snprintf(dh__cuda_rt.why, sizeof dh__cuda_rt.why, "%.500s", e.msg);
        return;
    }
    if (dh__cuda_cuDriverGetVersion(&dh__cuda_rt.driver_version)
        != CUDA_SUCCESS)
        dh__cuda_rt.driver_version = 0;

    void *rtc = dh__cuda_open_nvrtc();
    if (!rtc)
        return;
#define DH__LOAD_RTC(f)                                                      \
    if (!(*(void **)&dh__cuda_##f =                                          \
              dh__cuda_sym(rtc, dh__cuda_rt.nvrtc_path, #f)))                \
        return;
    DH__RTC_FUNCS(DH__LOAD_RTC)
#undef DH__LOAD_RTC
    if (dh__cuda_nvrtcVersion(&dh__cuda_rt.nvrtc_major,
                              &dh__cuda_rt.nvrtc_minor) != NVRTC_SUCCESS)
        dh__cuda_rt.nvrtc_major = dh__cuda_rt.nvrtc_minor = 0;

    dh__cuda_open_nvml();
    dh__cuda_rt.ok = 1;
}

/* NVRTC alone, for compiling without a driver (cuda_offline.c). The
 * pointers are the same as dh__cuda_load's: dlopen of one library gives
 * one handle, so whichever runs first, both agree. */
static pthread_once_t dh__nvrtc_once = PTHREAD_ONCE_INIT;
static int dh__nvrtc_ok;
static char dh__nvrtc_why[512];

static void dh__cuda_load_nvrtc_once(void)
{
    char keep[512];
    snprintf(keep, sizeof keep, "%s", dh__cuda_rt.why);
    void *rtc = dh__cuda_open_nvrtc();
    if (rtc) {
        dh__nvrtc_ok = 1;
#define DH__LOAD_RTC(f)                                                      \
    if (dh__nvrtc_ok && !(*(void **)&dh__cuda_##f =                          \
              dh__cuda_sym(rtc, dh__cuda_rt.nvrtc_path, #f)))                \
        dh__nvrtc_ok = 0;
        DH__RTC_FUNCS(DH__LOAD_RTC)
#undef DH__LOAD_RTC
    }
    if (dh__nvrtc_ok && dh__cuda_nvrtcVersion(&dh__cuda_rt.nvrtc_major,
                                              &dh__cuda_rt.nvrtc_minor) != NVRTC_SUCCESS)
        dh__cuda_rt.nvrtc_major = dh__cuda_rt.nvrtc_minor = 0;
    if (!dh__nvrtc_ok)
        snprintf(dh__nvrtc_why, sizeof dh__nvrtc_why, "%s", dh__cuda_rt.why);
    snprintf(dh__cuda_rt.why, sizeof dh__cuda_rt.why, "%s", keep);
}

int dh__cuda_load_nvrtc(struct dh_err *err)
{
    pthread_once(&dh__nvrtc_once, dh__cuda_load_nvrtc_once);
    if (!dh__nvrtc_ok)
        return dh_err_set(err, DH_E_UNAVAILABLE, "%s", dh__nvrtc_why);
    return 0;
}

int dh__cuda_load(struct dh_err *err)
{
    pthread_once(&dh__cuda_once, dh__cuda_load_once);
    if (!dh__cuda_rt.ok)
        return dh_err_set(err, DH_E_UNAVAILABLE, "%s", dh__cuda_rt.why);
    return 0;
}

/* Init/shutdown per call keeps NVML's reference count balanced; NVML is
 * matched to the CUDA device by PCI bus id (the orders may differ). */
void dh__cuda_nvml_info(CUdevice d, char *driver, size_t driver_len,
                        int *max_sm_mhz)
{
    if (driver_len)
        driver[0] = 0;
    *max_sm_mhz = 0;
    if (!dh__nvml_ok || dh__nvml_init() != 0)
        return;
    if (driver_len &&
        dh__nvml_driver_version(driver, (unsigned)driver_len) != 0)
        driver[0] = 0;
    char bus[64];
    dh__nvml_dev nd;
    unsigned mhz = 0;
    if (dh__cuda_cuDeviceGetPCIBusId(bus, (int)sizeof bus, d) == CUDA_SUCCESS
        && dh__nvml_by_pci(bus, &nd) == 0 &&
        dh__nvml_max_clock(nd, DH__NVML_CLOCK_SM, &mhz) == 0)
        *max_sm_mhz = (int)mhz;
    dh__nvml_shutdown();
}
