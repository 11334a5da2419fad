/* cupti_cfe.cpp — control-flow efficiency of one launch with the CUPTI
 * range profiler (CUDA >= 12.6; written against CUDA 13.0). See cupti_cfe.h.
 *
 * C++ only because cupti_profiler_host.h includes <string>; the code is C
 * style and exports a C interface. libcupti.so.13 is dlopen'd (never
 * linked); CUPTI loads libnvperf_host/target itself, and we preload them
 * from CUPTI's own folder so a CUPTI outside the loader's path still finds
 * them.
 *
 * Sequence per measurement (nothing is kept between calls, so a failure
 * leaves no half-open session behind):
 *   ProfilerInitialize -> DeviceGetChipName -> GetCounterAvailability ->
 *   ProfilerHostInitialize(range profiler) -> HostConfigAddMetrics ->
 *   HostGetConfigImage -> RangeProfilerEnable(ctx) ->
 *   GetCounterDataSize -> CounterDataImageInitialize ->
 *   SetConfig(AutoRange, KernelReplay) -> Start -> launch -> Stop (repeat
 *   until all passes are submitted) -> DecodeData ->
 *   HostEvaluateToGpuValues per range -> Disable -> HostDeinitialize ->
 *   ProfilerDeInitialize.
 */
#include "cupti_cfe.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

extern "C" {
#include "errors.h"
}

/* Every CUPTI entry point used; each becomes a pointer dh__cupti_<name>
 * with the header's own type. */
#define DH__CUPTI_FUNCS(X)                                                   \
    X(cuptiGetResultString)                                                  \
    X(cuptiProfilerInitialize)                                               \
    X(cuptiProfilerDeInitialize)                                             \
    X(cuptiDeviceGetChipName)                                                \
    X(cuptiProfilerGetCounterAvailability)                                   \
    X(cuptiProfilerHostInitialize)                                           \
    X(cuptiProfilerHostDeinitialize)                                         \
    X(cuptiProfilerHostConfigAddMetrics)                                     \
    X(cuptiProfilerHostGetConfigImageSize)                                   \
    X(cuptiProfilerHostGetConfigImage)                                       \
    X(cuptiProfilerHostEvaluateToGpuValues)                                  \
    X(cuptiRangeProfilerEnable)                                              \
    X(cuptiRangeProfilerDisable)                                             \
    X(cuptiRangeProfilerGetCounterDataSize)                                  \
    X(cuptiRangeProfilerCounterDataImageInitialize)                          \
    X(cuptiRangeProfilerSetConfig)                                           \
    X(cuptiRangeProfilerStart)                                               \
    X(cuptiRangeProfilerStop)                                                \
    X(cuptiRangeProfilerDecodeData)                                          \
    X(cuptiRangeProfilerGetCounterDataInfo)

#define DH__CUPTI_DECL(f) static decltype(&f) dh__cupti_##f;
DH__CUPTI_FUNCS(DH__CUPTI_DECL)
#undef DH__CUPTI_DECL

static struct {
    int tried;
    int ok;
    void *lib;
    char dir[1024];        /* folder libcupti came from; "" = loader search */
    char why[512];
} dh__cupti;

/* The two metrics; CFE = [0] / ([1] * warp width). */
static const char *const dh__cupti_metrics[2] = {
    "smsp__thread_inst_executed_pred_on.sum",
    "smsp__inst_executed.sum",
};

/* Upper bounds for one measurement: one launch is one range under
 * AutoRange; kernel replay does all passes inside that launch, the loop
 * bound only guards against a CUPTI that wants user replay. */
#define DH__CUPTI_MAX_RANGES 4
#define DH__CUPTI_MAX_PASSES 8

static void dh__cupti_try(const char *path)
{
    if (dh__cupti.lib)
        return;
    dh__cupti.lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!dh__cupti.lib) {
        snprintf(dh__cupti.why, sizeof dh__cupti.why, "%s", dlerror());
        return;
    }
    const char *slash = strrchr(path, '/');
    if (slash)
        snprintf(dh__cupti.dir, sizeof dh__cupti.dir, "%.*s",
                 (int)(slash - path), path);
}

static void dh__cupti_load_once(void)
{
    const char *home = getenv("CUDA_HOME");
    if (!home || !*home)
        home = "/usr/local/cuda";
    const char *subdirs[] = {"extras/CUPTI/lib64", "lib64"};
    char path[1200];
    for (size_t i = 0; i < sizeof subdirs / sizeof *subdirs; i++) {
        snprintf(path, sizeof path, "%s/%s/libcupti.so.13", home, subdirs[i]);
        dh__cupti_try(path);
    }
    dh__cupti_try("/usr/local/cuda/targets/x86_64-linux/lib/libcupti.so.13");
    dh__cupti_try("libcupti.so.13");
    if (!dh__cupti.lib) {
        char last[512];
        snprintf(last, sizeof last, "%s", dh__cupti.why);
        snprintf(dh__cupti.why, sizeof dh__cupti.why,
                 "CUPTI not found (libcupti.so.13 under $CUDA_HOME=%.100s or "
                 "the loader path): %.300s", home, last);
        return;
    }
#define DH__CUPTI_SYM(f)                                                     \
    if (!(*(void **)&dh__cupti_##f = dlsym(dh__cupti.lib, #f))) {            \
        snprintf(dh__cupti.why, sizeof dh__cupti.why,                        \
                 "libcupti.so.13 lacks %s (CUPTI older than 12.6?)", #f);    \
        return;                                                              \
    }
    DH__CUPTI_FUNCS(DH__CUPTI_SYM)
#undef DH__CUPTI_SYM
    dh__cupti.ok = 1;
}

extern "C" int dh__cuda_cfe_load(char *why, size_t why_len)
{
    if (!dh__cupti.tried) {
        dh__cupti.tried = 1;
        dh__cupti_load_once();
    }
    if (!dh__cupti.ok && why && why_len)
        snprintf(why, why_len, "%s", dh__cupti.why);
    return dh__cupti.ok ? 0 : -1;
}

/* A CUPTI parameter struct, zeroed, with structSize set (C++17 has no
 * designated initialisers). */
#define DH__CUPTI_PARAMS(T, v)                                               \
    T v;                                                                     \
    memset(&v, 0, sizeof v);                                                 \
    v.structSize = T##_STRUCT_SIZE

/* Translate a failed CUPTI call into -DH_E_UNAVAILABLE with CUPTI's text. */
static int dh__cupti_fail(struct dh_err *err, CUptiResult r, const char *call)
{
    const char *s = NULL;
    if (dh__cupti_cuptiGetResultString(r, &s) != CUPTI_SUCCESS || !s)
        s = "unknown CUPTI error";
    if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ||
        r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
        return dh_err_set(err, DH_E_UNAVAILABLE,
                          "%s: %s (%d): GPU performance counters need "
                          "privileges: run as root, or load the nvidia module "
                          "with NVreg_RestrictProfilingToAdminUsers=0",
                          call, s, (int)r);
    return dh_err_set(err, DH_E_UNAVAILABLE, "%s: %s (%d)", call, s, (int)r);
}

/* Call a CUPTI entry point; on failure record the error and jump to the
 * teardown. `rc` and `err` are the caller's. */
#define DH__CUPTI_CALL(f, p)                                                 \
    do {                                                                     \
        CUptiResult r_ = dh__cupti_##f(&(p));                                \
        if (r_ != CUPTI_SUCCESS) {                                           \
            rc = dh__cupti_fail(err, r_, #f);                                \
            goto out;                                                        \
        }                                                                    \
    } while (0)

/* Preload CUPTI's nvperf companions from CUPTI's own folder, so that its
 * own dlopen by soname finds them even when that folder is not on the
 * loader path. Failure is harmless: CUPTI then searches as usual. The
 * handles are kept for the life of the process on purpose. */
static void dh__cupti_preload_nvperf(void)
{
    static int done;
    if (done || !dh__cupti.dir[0])
        return;
    done = 1;
    const char *names[] = {"libnvperf_host.so", "libnvperf_target.so"};
    char path[1200];
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(path, sizeof path, "%s/%s", dh__cupti.dir, names[i]);
        (void)dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    }
}

extern "C" int dh__cuda_cfe_measure(CUcontext ctx, int device_index,
                                    dh__cuda_cfe_launch_fn launch, void *arg,
                                    double *thread_inst_pred_on,
                                    double *warp_inst, struct dh_err *err)
{
    char why[512];
    if (dh__cuda_cfe_load(why, sizeof why))
        return dh_err_set(err, DH_E_UNAVAILABLE, "%s", why);
    dh__cupti_preload_nvperf();

    int rc = 0;
    int prof_init = 0, range_on = 0;
    CUpti_Profiler_Host_Object *host = NULL;
    CUpti_RangeProfiler_Object *ranges = NULL;
    uint8_t *avail = NULL, *config = NULL, *data = NULL;
    size_t config_size = 0, data_size = 0;
    const size_t n_metrics = 2;
    const char **metrics = const_cast<const char **>(dh__cupti_metrics);
    double sum[2] = {0, 0};

    {
        DH__CUPTI_PARAMS(CUpti_Profiler_Initialize_Params, ip);
        DH__CUPTI_CALL(cuptiProfilerInitialize, ip);
        prof_init = 1;
    }
    const char *chip;
    {
        DH__CUPTI_PARAMS(CUpti_Device_GetChipName_Params, cn);
        cn.deviceIndex = (size_t)device_index;
        DH__CUPTI_CALL(cuptiDeviceGetChipName, cn);
        chip = cn.pChipName;
    }
    {
        /* First call sizes the image, second fills it. */
        DH__CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params, ca);
        ca.ctx = ctx;
        DH__CUPTI_CALL(cuptiProfilerGetCounterAvailability, ca);
        avail = (uint8_t *)malloc(ca.counterAvailabilityImageSize);
        if (!avail) {
            rc = dh_err_set(err, DH_E_RESOURCES, "out of host memory");
            goto out;
        }
        ca.pCounterAvailabilityImage = avail;
        DH__CUPTI_CALL(cuptiProfilerGetCounterAvailability, ca);
    }
    {
        DH__CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params, hi);
        hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
        hi.pChipName = chip;
        hi.pCounterAvailabilityImage = avail;
        DH__CUPTI_CALL(cuptiProfilerHostInitialize, hi);
        host = hi.pHostObject;
    }
    {
        DH__CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params, am);
        am.pHostObject = host;
        am.ppMetricNames = metrics;
        am.numMetrics = n_metrics;
        DH__CUPTI_CALL(cuptiProfilerHostConfigAddMetrics, am);

        DH__CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params, cs);
        cs.pHostObject = host;
        DH__CUPTI_CALL(cuptiProfilerHostGetConfigImageSize, cs);
        config_size = cs.configImageSize;
        config = (uint8_t *)malloc(config_size);
        if (!config) {
            rc = dh_err_set(err, DH_E_RESOURCES, "out of host memory");
            goto out;
        }
        DH__CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params, gi);
        gi.pHostObject = host;
        gi.pConfigImage = config;
        gi.configImageSize = config_size;
        DH__CUPTI_CALL(cuptiProfilerHostGetConfigImage, gi);
    }
    {
        DH__CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params, en);
        en.ctx = ctx;
        DH__CUPTI_CALL(cuptiRangeProfilerEnable, en);
        ranges = en.pRangeProfilerObject;
        range_on = 1;
    }
    {
        DH__CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params, ds);
        ds.pRangeProfilerObject = ranges;
        ds.pMetricNames = metrics;
        ds.numMetrics = n_metrics;
        ds.maxNumOfRanges = DH__CUPTI_MAX_RANGES;
        ds.maxNumRangeTreeNodes = DH__CUPTI_MAX_RANGES;
        DH__CUPTI_CALL(cuptiRangeProfilerGetCounterDataSize, ds);
        data_size = ds.counterDataSize;
        data = (uint8_t *)calloc(data_size, 1);
        if (!data) {
            rc = dh_err_set(err, DH_E_RESOURCES, "out of host memory");
            goto out;
        }
        DH__CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params,
                         ci);
        ci.pRangeProfilerObject = ranges;
        ci.pCounterData = data;
        ci.counterDataSize = data_size;
        DH__CUPTI_CALL(cuptiRangeProfilerCounterDataImageInitialize, ci);
    }
    {
        DH__CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params, sc);
        sc.pRangeProfilerObject = ranges;
        sc.pConfig = config;
        sc.configSize = config_size;
        sc.pCounterDataImage = data;
        sc.counterDataImageSize = data_size;
        sc.range = CUPTI_AutoRange;
        sc.replayMode = CUPTI_KernelReplay;
        sc.maxRangesPerPass = DH__CUPTI_MAX_RANGES;
        sc.numNestingLevels = 1;
        sc.minNestingLevel = 1;
        sc.passIndex = 0;
        sc.targetNestingLevel = 1;
        DH__CUPTI_CALL(cuptiRangeProfilerSetConfig, sc);
    }
    {
        int all_submitted = 0;
        for (int pass = 0; pass < DH__CUPTI_MAX_PASSES && !all_submitted;
             pass++) {
            DH__CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params, st);
            st.pRangeProfilerObject = ranges;
            DH__CUPTI_CALL(cuptiRangeProfilerStart, st);
            int lrc = launch(arg, err);
            DH__CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params, sp);
            sp.pRangeProfilerObject = ranges;
            CUptiResult sr = dh__cupti_cuptiRangeProfilerStop(&sp);
            if (lrc) {          /* the launch's own error wins */
                rc = lrc;
                goto out;
            }
            if (sr != CUPTI_SUCCESS) {
                rc = dh__cupti_fail(err, sr, "cuptiRangeProfilerStop");
                goto out;
            }
            all_submitted = sp.isAllPassSubmitted;
        }
        if (!all_submitted) {
            rc = dh_err_set(err, DH_E_UNAVAILABLE,
                            "CUPTI range profiler wanted more than %d passes "
                            "for %s and %s", DH__CUPTI_MAX_PASSES,
                            metrics[0], metrics[1]);
            goto out;
        }
    }
    {
        DH__CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params, dd);
        dd.pRangeProfilerObject = ranges;
        DH__CUPTI_CALL(cuptiRangeProfilerDecodeData, dd);
        if (dd.numOfRangeDropped) {
            rc = dh_err_set(err, DH_E_UNAVAILABLE,
                            "CUPTI dropped %zu profiling range(s)",
                            dd.numOfRangeDropped);
            goto out;
        }
    }
    {
        DH__CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params, gd);
        gd.pCounterDataImage = data;
        gd.counterDataImageSize = data_size;
        DH__CUPTI_CALL(cuptiRangeProfilerGetCounterDataInfo, gd);
        if (gd.numTotalRanges == 0) {
            rc = dh_err_set(err, DH_E_UNAVAILABLE,
                            "CUPTI recorded no range: was a kernel launched?");
            goto out;
        }
        /* One launch should be one range; summing keeps any split honest. */
        for (size_t r = 0; r < gd.numTotalRanges; r++) {
            double v[2] = {0, 0};
            DH__CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params,
                             ev);
            ev.pHostObject = host;
            ev.pCounterDataImage = data;
            ev.counterDataImageSize = data_size;
            ev.rangeIndex = r;
            ev.ppMetricNames = metrics;
            ev.numMetrics = n_metrics;
            ev.pMetricValues = v;
            DH__CUPTI_CALL(cuptiProfilerHostEvaluateToGpuValues, ev);
            sum[0] += v[0];
            sum[1] += v[1];
        }
    }
    *thread_inst_pred_on = sum[0];
    *warp_inst = sum[1];

out:
    /* Teardown in reverse order; errors here cannot be acted on and must
     * not mask the first failure. */
    if (range_on) {
        DH__CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params, di);
        di.pRangeProfilerObject = ranges;
        (void)dh__cupti_cuptiRangeProfilerDisable(&di);
    }
    if (host) {
        DH__CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params, hd);
        hd.pHostObject = host;
        (void)dh__cupti_cuptiProfilerHostDeinitialize(&hd);
    }
    if (prof_init) {
        DH__CUPTI_PARAMS(CUpti_Profiler_DeInitialize_Params, pd);
        (void)dh__cupti_cuptiProfilerDeInitialize(&pd);
    }
    free(data);
    free(config);
    free(avail);
    return rc;
}

/* ---- per-instruction counts: CUPTI SASS metrics --------------------------
 *
 * Sequence: ProfilerInitialize -> DeviceGetChipName -> SassMetrics
 * GetProperties (an id per metric) -> SassMetricsSetConfig(device) ->
 * SassMetricsEnable(ctx, lazy patching) ... the caller's launches ...
 * ctx synchronize -> GetDataProperties -> FlushData -> Disable ->
 * UnsetConfig -> ProfilerDeInitialize. The patched code counts every
 * executed instruction exactly (no sampling); it runs slower, so the
 * caller's pass is never a timed one. Entry points are resolved apart
 * from the range profiler's, so a CUPTI without them (older than 12.4)
 * still gives CFE. */
#include <cupti_sass_metrics.h>

extern "C" {
#include "backend.h"
}

#define DH__CUPTI_SASS_FUNCS(X)                                              \
    X(cuptiSassMetricsGetProperties)                                         \
    X(cuptiSassMetricsSetConfig)                                             \
    X(cuptiSassMetricsUnsetConfig)                                           \
    X(cuptiSassMetricsEnable)                                                \
    X(cuptiSassMetricsDisable)                                               \
    X(cuptiSassMetricsGetDataProperties)                                     \
    X(cuptiSassMetricsFlushData)

#define DH__CUPTI_DECL(f) static decltype(&f) dh__cupti_##f;
DH__CUPTI_SASS_FUNCS(DH__CUPTI_DECL)
#undef DH__CUPTI_DECL

/* The three metrics, in dh_pc_count's order: inst, thread, pred_on. */
static const char *const dh__sass_metrics[3] = {
    "smsp__sass_inst_executed",
    "smsp__sass_thread_inst_executed",
    "smsp__sass_thread_inst_executed_pred_on",
};

static struct {
    int tried, ok;
    char why[256];
    int active;                 /* between begin and end */
    int configured;             /* set up (kept between passes) */
    int passes;                 /* begun in this process */
    uint64_t ids[3];
} dh__sass;

static int dh__sass_load(struct dh_err *err)
{
    char why[512];
    if (dh__cuda_cfe_load(why, sizeof why))
        return dh_err_set(err, DH_E_UNAVAILABLE, "%s", why);
    if (!dh__sass.tried) {
        dh__sass.tried = 1;
        dh__sass.ok = 1;
#define DH__CUPTI_SYM(f)                                                     \
    if (dh__sass.ok && !(*(void **)&dh__cupti_##f = dlsym(dh__cupti.lib, #f))) { \
        snprintf(dh__sass.why, sizeof dh__sass.why,                          \
                 "libcupti.so.13 lacks %s (CUPTI older than 12.4?)", #f);    \
        dh__sass.ok = 0;                                                     \
    }
        DH__CUPTI_SASS_FUNCS(DH__CUPTI_SYM)
#undef DH__CUPTI_SYM
    }
    if (!dh__sass.ok)
        return dh_err_set(err, DH_E_UNAVAILABLE, "%s", dh__sass.why);
    return 0;
}

/* DH_CUPTI_DEBUG=1: each SASS-metrics call's result on stderr. */
static void dh__sass_note(const char *call, CUptiResult r)
{
    const char *d = getenv("DH_CUPTI_DEBUG");
    if (!d || !*d || !strcmp(d, "0"))
        return;
    const char *s = NULL;
    if (dh__cupti_cuptiGetResultString(r, &s) != CUPTI_SUCCESS || !s)
        s = "?";
    fprintf(stderr, "cupti: %s -> %s (%d)\n", call, s, (int)r);
}

/* The profiler and the metrics' configuration are set up at the first
 * pass of a process and kept (each pass enables and disables): on CUDA
 * 13.0 a second cuptiSassMetricsSetConfig after an UnsetConfig fails
 * with CUPTI_ERROR_OUT_OF_MEMORY (the H100, 2026-11-26).
 * DH_PCS_MODE=full tears everything down after each pass. */
static int dh__sass_keep(void)
{
    const char *m = getenv("DH_PCS_MODE");
    return !(m && !strcmp(m, "full"));
}

/* Teardown of whatever begin set up; errors cannot be acted on here. */
static void dh__sass_teardown(CUcontext ctx, int device_index, int enabled, int configured)
{
    if (enabled) {
        DH__CUPTI_PARAMS(CUpti_SassMetricsDisable_Params, di);
        di.ctx = ctx;
        dh__sass_note("cuptiSassMetricsDisable", dh__cupti_cuptiSassMetricsDisable(&di));
    }
    dh__sass.active = 0;
    if (dh__sass_keep())
        return;
    if (configured) {
        DH__CUPTI_PARAMS(CUpti_SassMetricsUnsetConfig_Params, un);
        un.deviceIndex = (uint32_t)device_index;
        dh__sass_note("cuptiSassMetricsUnsetConfig", dh__cupti_cuptiSassMetricsUnsetConfig(&un));
    }
    DH__CUPTI_PARAMS(CUpti_Profiler_DeInitialize_Params, pd);
    dh__sass_note("cuptiProfilerDeInitialize", dh__cupti_cuptiProfilerDeInitialize(&pd));
    dh__sass.configured = 0;
}

extern "C" int dh__cuda_pcs_begin(CUcontext ctx, int device_index, struct dh_err *err)
{
    int rc = dh__sass_load(err);
    if (rc)
        return rc;
    if (dh__sass.active)
        return dh_err_set(err, DH_E_INTERNAL, "per-instruction counts already begun");
    dh__cupti_preload_nvperf();
    int configured = 0, enabled = 0;
    CUpti_SassMetrics_Config cfg[3];
    if (!dh__sass.configured) {
        {
            DH__CUPTI_PARAMS(CUpti_Profiler_Initialize_Params, ip);
            CUptiResult r = dh__cupti_cuptiProfilerInitialize(&ip);
            dh__sass_note("cuptiProfilerInitialize", r);
            if (r != CUPTI_SUCCESS)
                return dh__cupti_fail(err, r, "cuptiProfilerInitialize");
        }
        dh__sass.active = 1;
        const char *chip;
        {
            DH__CUPTI_PARAMS(CUpti_Device_GetChipName_Params, cn);
            cn.deviceIndex = (size_t)device_index;
            DH__CUPTI_CALL(cuptiDeviceGetChipName, cn);
            chip = cn.pChipName;
        }
        for (int k = 0; k < 3; k++) {
            DH__CUPTI_PARAMS(CUpti_SassMetrics_GetProperties_Params, gp);
            gp.pChipName = chip;
            gp.pMetricName = dh__sass_metrics[k];
            DH__CUPTI_CALL(cuptiSassMetricsGetProperties, gp);
            dh__sass.ids[k] = gp.metric.metricId;
            cfg[k].metricId = gp.metric.metricId;
            cfg[k].outputGranularity = CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU;
        }
        {
            DH__CUPTI_PARAMS(CUpti_SassMetricsSetConfig_Params, sc);
            sc.numOfMetricConfig = 3;
            sc.pConfigs = cfg;
            sc.deviceIndex = (uint32_t)device_index;
            CUptiResult r = dh__cupti_cuptiSassMetricsSetConfig(&sc);
            dh__sass_note("cuptiSassMetricsSetConfig", r);
            if (r != CUPTI_SUCCESS) {
                rc = dh__cupti_fail(err, r, "cuptiSassMetricsSetConfig");
                goto out;
            }
            configured = 1;
            dh__sass.configured = 1;
        }
    }
    dh__sass.active = 1;
    dh__sass.passes++;
    {
        DH__CUPTI_PARAMS(CUpti_SassMetricsEnable_Params, en);
        en.ctx = ctx;
        /* every function loaded, patched now: with lazy patching (at a
         * function's first launch) a second pass of a process patched
         * nothing (CUDA 13.0, the H100); DH_PCS_LAZY=1 asks for it */
        const char *lz = getenv("DH_PCS_LAZY");
        en.enableLazyPatching = lz && !strcmp(lz, "1");
        CUptiResult r = dh__cupti_cuptiSassMetricsEnable(&en);
        dh__sass_note("cuptiSassMetricsEnable", r);
        if (r != CUPTI_SUCCESS) {
            rc = dh__cupti_fail(err, r, "cuptiSassMetricsEnable");
            configured = dh__sass.configured;
            dh__sass.configured = 0;      /* set up afresh next time */
            goto out;
        }
        enabled = 1;
    }
    return 0;
out:
    if (dh__sass_keep() && !enabled) {
        /* a failed set-up is undone even when kept */
        if (configured) {
            DH__CUPTI_PARAMS(CUpti_SassMetricsUnsetConfig_Params, un);
            un.deviceIndex = (uint32_t)device_index;
            (void)dh__cupti_cuptiSassMetricsUnsetConfig(&un);
        }
        DH__CUPTI_PARAMS(CUpti_Profiler_DeInitialize_Params, pd);
        (void)dh__cupti_cuptiProfilerDeInitialize(&pd);
        dh__sass.configured = 0;
        dh__sass.active = 0;
        return rc;
    }
    dh__sass_teardown(ctx, device_index, enabled, configured);
    return rc;
}

/* The record of (func, pc) in v[0..n), appended when new; -1 when out of
 * memory. Records arrive grouped by function and pc, so the last one is
 * tried first. */
static long dh__pc_slot(struct dh_pc_count **v, long *n, long *cap, const char *func, unsigned pc)
{
    for (long i = *n - 1; i >= 0 && i >= *n - 4; i--)
        if ((*v)[i].pc == pc && !strcmp((*v)[i].func, func))
            return i;
    for (long i = 0; i < *n; i++)
        if ((*v)[i].pc == pc && !strcmp((*v)[i].func, func))
            return i;
    if (*n == *cap) {
        long nc = *cap ? 2 * *cap : 1024;
        void *p = realloc(*v, (size_t)nc * sizeof **v);
        if (!p)
            return -1;
        *v = (struct dh_pc_count *)p;
        *cap = nc;
    }
    struct dh_pc_count *r = &(*v)[(*n)++];
    memset(r, 0, sizeof *r);
    snprintf(r->func, sizeof r->func, "%s", func);
    r->pc = pc;
    return *n - 1;
}

extern "C" int dh__cuda_pcs_end(CUcontext ctx, int device_index, struct dh_pc_count **out,
                                long *n_out, struct dh_err *err)
{
    *out = NULL;
    *n_out = 0;
    if (!dh__sass.active)
        return dh_err_set(err, DH_E_INTERNAL, "per-instruction counts not begun");
    int rc = 0;
    CUpti_SassMetrics_Data *data = NULL;
    CUpti_SassMetrics_InstanceValue *vals = NULL;
    struct dh_pc_count *v = NULL;
    long n = 0, cap = 0;
    size_t recs = 0, inst = 0;
    {
        DH__CUPTI_PARAMS(CUpti_SassMetricsGetDataProperties_Params, dp);
        dp.ctx = ctx;
        DH__CUPTI_CALL(cuptiSassMetricsGetDataProperties, dp);
        recs = dp.numOfPatchedInstructionRecords;
        inst = dp.numOfInstances;
    }
    if (recs == 0 || inst == 0) {
        rc = dh_err_set(err, DH_E_UNAVAILABLE, dh__sass.passes > 1
                        ? "CUPTI patched no instruction: SASS metrics count once a process "
                          "(CUDA 13.0); run with --isolate yes"
                        : "CUPTI patched no instruction: was a kernel launched?");
        goto out;
    }
    data = (CUpti_SassMetrics_Data *)calloc(recs, sizeof *data);
    vals = (CUpti_SassMetrics_InstanceValue *)calloc(recs * inst, sizeof *vals);
    if (!data || !vals) {
        rc = dh_err_set(err, DH_E_RESOURCES, "out of host memory for %zu instruction records",
                        recs);
        goto out;
    }
    for (size_t i = 0; i < recs; i++)
        data[i].pInstanceValues = vals + i * inst;
    {
        DH__CUPTI_PARAMS(CUpti_SassMetricsFlushData_Params, fd);
        fd.ctx = ctx;
        fd.numOfPatchedInstructionRecords = recs;
        fd.numOfInstances = inst;
        fd.pMetricsData = data;
        DH__CUPTI_CALL(cuptiSassMetricsFlushData, fd);
    }
    for (size_t i = 0; i < recs; i++) {
        long s = dh__pc_slot(&v, &n, &cap, data[i].functionName ? data[i].functionName : "?",
                             data[i].pcOffset);
        if (s < 0) {
            rc = dh_err_set(err, DH_E_RESOURCES, "out of host memory for %zu instruction "
                            "records", recs);
            goto out;
        }
        for (size_t k = 0; k < inst; k++) {
            const CUpti_SassMetrics_InstanceValue *iv = &data[i].pInstanceValues[k];
            double x = (double)iv->value;
            if (iv->metricId == dh__sass.ids[0])
                v[s].inst += x;
            else if (iv->metricId == dh__sass.ids[1])
                v[s].thread += x;
            else if (iv->metricId == dh__sass.ids[2])
                v[s].pred_on += x;
        }
    }
out:
    dh__sass_teardown(ctx, device_index, 1, 1);
    free(data);
    free(vals);
    if (rc) {
        free(v);
        return rc;
    }
    *out = v;
    *n_out = n;
    return 0;
}
