/* hip_loader.c — the HIP backend as the harness sees it (dh_backend_hip,
 * name "hip"): a forwarder to the HIP plugin, loaded at run time.
 *
 * HIP code must be compiled by a HIP compiler (hipcc for AMD; CUDA 11.8's
 * nvcc with HIP 5.2's NVIDIA headers for NVIDIA), so the ops live in a
 * plugin of their own, libdh-hip.so (hip_plugin.cpp with ../gpu/gpu.c;
 * ggml's dynamic backends are the model). This file needs no vendor header
 * and is always compiled in. The first probe() looks for the plugin:
 *   1. $DH_HIP_PLUGIN (a path), else
 *   2. lib/libdh-hip.so beside the harness binary (build/lib/), else
 *   3. ../lib/libdh-hip.so (the test programs in build/tests/), else
 *   4. ../lib/divharness/libdh-hip.so (an installed harness: `make install`
 *      puts the binary in PREFIX/bin, the plugin in PREFIX/lib/divharness).
 * No plugin, or one that cannot load (HIP runtime or CUDA driver missing),
 * is "0 devices" plus the reason, never a failed start.
 *
 * The plugin is never dlclose'd: the CUDA runtime inside the NVIDIA build
 * and the HIP runtime keep exit handlers and threads that must find their
 * code mapped until the process ends.
 */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../backend.h"
#include "hip_plugin.h"

static pthread_once_t dh__hip_once = PTHREAD_ONCE_INIT;
static const struct dh_backend_ops *dh__hip_ops;   /* NULL: not loaded */
static char dh__hip_why[768];
static char dh__hip_platform[16];
static char dh__hip_path[PATH_MAX];

static int dh__hip_exists(const char *path)
{
    return access(path, F_OK) == 0;
}

/* The plugin's path into dh__hip_path; 0, or -1 when none is there. */
static int dh__hip_find(void)
{
    const char *env = getenv("DH_HIP_PLUGIN");
    if (env && *env) {
        snprintf(dh__hip_path, sizeof dh__hip_path, "%s", env);
        return dh__hip_exists(dh__hip_path) ? 0 : -1;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return -1;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash)
        return -1;
    *slash = 0;
    const char *rel[] = {"lib/" DH_HIP_PLUGIN_FILE, "../lib/" DH_HIP_PLUGIN_FILE,
                         "../lib/divharness/" DH_HIP_PLUGIN_FILE};
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        snprintf(dh__hip_path, sizeof dh__hip_path, "%s/%s", exe, rel[i]);
        if (dh__hip_exists(dh__hip_path))
            return 0;
    }
    snprintf(dh__hip_path, sizeof dh__hip_path, "%s/lib/%s", exe,
             DH_HIP_PLUGIN_FILE);
    return -1;
}

static void dh__hip_load(void)
{
    if (dh__hip_find()) {
        snprintf(dh__hip_why, sizeof dh__hip_why,
                 "HIP plugin not built: no %s (build it with `make hip-nvidia` "
                 "or `make hip-amd`, or set DH_HIP_PLUGIN)", dh__hip_path);
        return;
    }
    void *h = dlopen(dh__hip_path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(dh__hip_why, sizeof dh__hip_why,
                 "HIP plugin %s cannot load (HIP runtime or driver missing?): %s",
                 dh__hip_path, e ? e : "unknown dlopen error");
        return;
    }
    dh_hip_plugin_fn entry;
    *(void **)&entry = dlsym(h, DH_HIP_PLUGIN_ENTRY);
    if (!entry) {
        snprintf(dh__hip_why, sizeof dh__hip_why, "%s is not a HIP plugin of "
                 "divharness (no %s)", dh__hip_path, DH_HIP_PLUGIN_ENTRY);
        return;
    }
    char why[512] = "";
    const struct dh_backend_ops *ops =
        entry(DH_BACKEND_ABI, dh__hip_platform, sizeof dh__hip_platform, why,
              sizeof why);
    if (!ops || ops->abi < DH_BACKEND_ABI || !ops->probe || !ops->describe ||
        !ops->open || !ops->build || !ops->launch) {
        snprintf(dh__hip_why, sizeof dh__hip_why, "%s: %s", dh__hip_path,
                 why[0] ? why : "incomplete ops table");
        return;
    }
    dh__hip_ops = ops;
}

static int dh__hip_ready(struct dh_err *err)
{
    pthread_once(&dh__hip_once, dh__hip_load);
    if (!dh__hip_ops)
        return dh_err_set(err, DH_E_UNAVAILABLE, "%s", dh__hip_why);
    return 0;
}

static int dh__hip_probe(int *n_devices, char *why, size_t why_len,
                         struct dh_err *err)
{
    *n_devices = 0;
    struct dh_err e;
    if (dh__hip_ready(&e)) {
        if (why && why_len)
            snprintf(why, why_len, "%s", e.msg);
        return 0;
    }
    return dh__hip_ops->probe(n_devices, why, why_len, err);
}

static int dh__hip_describe(int index, struct dh_device_info *info,
                            struct dh_err *err)
{
    int rc = dh__hip_ready(err);
    return rc ? rc : dh__hip_ops->describe(index, info, err);
}

static int dh__hip_open(int index, struct dh_device **dev, struct dh_err *err)
{
    *dev = NULL;
    int rc = dh__hip_ready(err);
    return rc ? rc : dh__hip_ops->open(index, dev, err);
}

/* Objects exist only when the plugin loaded, so these need no check. */
static void dh__hip_close(struct dh_device *dev)
{
    if (dev && dh__hip_ops)
        dh__hip_ops->close(dev);
}

static int dh__hip_build(struct dh_device *dev, const char *source,
                         const char *options, struct dh_program **prog,
                         char **log, int *cached, struct dh_err *err)
{
    int rc = dh__hip_ready(err);
    if (rc) {
        *prog = NULL;
        if (log)
            *log = NULL;
        return rc;
    }
    return dh__hip_ops->build(dev, source, options, prog, log, cached, err);
}

static void dh__hip_free_program(struct dh_program *prog)
{
    if (prog && dh__hip_ops)
        dh__hip_ops->free_program(prog);
}

static int dh__hip_alloc(struct dh_device *dev, size_t bytes,
                         struct dh_buffer **buf, struct dh_err *err)
{
    int rc = dh__hip_ready(err);
    if (rc) {
        *buf = NULL;
        return rc;
    }
    return dh__hip_ops->alloc(dev, bytes, buf, err);
}

static void dh__hip_free_buffer(struct dh_buffer *buf)
{
    if (buf && dh__hip_ops)
        dh__hip_ops->free_buffer(buf);
}

static int dh__hip_copy(struct dh_buffer *buf, void *host, size_t bytes,
                        enum dh_copy_dir dir, struct dh_err *err)
{
    int rc = dh__hip_ready(err);
    return rc ? rc : dh__hip_ops->copy(buf, host, bytes, dir, err);
}

static int dh__hip_launch(struct dh_program *prog, const struct dh_launch *l,
                          double *ms, struct dh_err *err)
{
    int rc = dh__hip_ready(err);
    return rc ? rc : dh__hip_ops->launch(prog, l, ms, err);
}

/* counters: NULL. HIP has none here; the harness says CFE comes from the
 * model (AMD's equivalent would be rocprof's VALUUtilization). */
const struct dh_backend_ops dh_backend_hip = {
    .abi = DH_BACKEND_ABI,
    .name = "hip",
    .probe = dh__hip_probe,
    .describe = dh__hip_describe,
    .open = dh__hip_open,
    .close = dh__hip_close,
    .build = dh__hip_build,
    .free_program = dh__hip_free_program,
    .alloc = dh__hip_alloc,
    .free_buffer = dh__hip_free_buffer,
    .copy = dh__hip_copy,
    .launch = dh__hip_launch,
    .counters = NULL,
};

/* For `harness devices` and tests: where the plugin was looked for, and
 * the platform it was built for ("" when not loaded). */
const char *dh_hip_plugin_path(void)
{
    pthread_once(&dh__hip_once, dh__hip_load);
    return dh__hip_path;
}

const char *dh_hip_plugin_platform(void)
{
    pthread_once(&dh__hip_once, dh__hip_load);
    return dh__hip_platform;
}
