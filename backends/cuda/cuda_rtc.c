/* cuda_rtc.c — NVRTC for the CUDA backend: target choice, option
 * splitting and compilation to CUBIN or PTX; see cuda_rtc.h. */
#include "cuda_rtc.h"
#include "rtc_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_load.h"

/* Contract in cuda_rtc.h. NVRTC lists its archs in ascending order. */
void dh__cuda_rtc_target(int cc, struct dh__cuda_target *t)
{
    memset(t, 0, sizeof *t);
    int n = 0, best = 0, lo = 0, hi = 0, exact = 0;
    int *archs = NULL;
    if (dh__cuda_nvrtcGetNumSupportedArchs(&n) == NVRTC_SUCCESS && n > 0 &&
        (archs = calloc((size_t)n, sizeof *archs)) &&
        dh__cuda_nvrtcGetSupportedArchs(archs) == NVRTC_SUCCESS) {
        lo = archs[0];
        hi = archs[n - 1];
        for (int i = 0; i < n; i++) {
            if (archs[i] == cc)
                exact = 1;
            if (archs[i] <= cc && archs[i] > best)
                best = archs[i];
        }
    }
    free(archs);
    const char *force_ptx = getenv("DH_CUDA_PTX");
    int ptx_only = force_ptx && *force_ptx && strcmp(force_ptx, "0") != 0;
    if (exact && !ptx_only) {
        snprintf(t->name, sizeof t->name, "sm_%d", cc);
        t->cubin = 1;
    } else if (best) {
        snprintf(t->name, sizeof t->name, "compute_%d", best);
        t->cubin = 0;
    } else {
        snprintf(t->why, sizeof t->why,
                 "NVRTC %d.%d (%s) cannot target sm_%d (it supports sm_%d.."
                 "sm_%d)", dh__cuda_rt.nvrtc_major, dh__cuda_rt.nvrtc_minor,
                 dh__cuda_rt.nvrtc_path, cc, lo, hi);
    }
}

/* The first error line of an NVRTC log ("file(line): error: ..." or
 * "...: catastrophic error: ..."), for the one-line message; the full log
 * goes to *log. */
static void dh__cuda_first_error(const char *log, char *out, size_t out_len)
{
    out[0] = 0;
    if (!log)
        return;
    const char *hit = strstr(log, ": error");
    const char *fatal = strstr(log, "catastrophic error");
    if (!hit || (fatal && fatal < hit))
        hit = fatal;
    if (!hit)
        return;
    const char *start = hit;
    while (start > log && start[-1] != '\n')
        start--;
    size_t n = strcspn(start, "\n");
    snprintf(out, out_len, "%.*s", (int)(n < 400 ? n : 400), start);
}

int dh__cuda_rtc_compile(const struct dh__cuda_target *t, const char *source,
                         const char *options, void **image, size_t *size,
                         char **log, struct dh_err *err)
{
    char target_opt[64];
    const char *extra[1] = {target_opt};
    snprintf(target_opt, sizeof target_opt, "--gpu-architecture=%s",
             t->name);
    char **argv = NULL, *store = NULL;
    int argc = 0;
    if (dh_rtc_split_options(options, extra, 1, &argv, &argc, &store))
        return dh_err_set(err, DH_E_RESOURCES, "out of host memory");

    int rc = 0;
    nvrtcProgram prog = NULL;
    nvrtcResult r = dh__cuda_nvrtcCreateProgram(&prog, source,
                                                "dh_kernel.cu", 0, NULL, NULL);
    if (r != NVRTC_SUCCESS) {
        prog = NULL;
        rc = dh__cuda_rtc_err(err, DH_E_BUILD, r, "nvrtcCreateProgram");
        goto out;
    }
    r = dh__cuda_nvrtcCompileProgram(prog, argc, (const char *const *)argv);
    if (r != NVRTC_SUCCESS) {
        size_t n = 0;
        char *text = NULL;
        if (dh__cuda_nvrtcGetProgramLogSize(prog, &n) == NVRTC_SUCCESS && n &&
            (text = malloc(n + 1)) &&
            dh__cuda_nvrtcGetProgramLog(prog, text) == NVRTC_SUCCESS)
            text[n] = 0;
        else if (text)
            text[0] = 0;
        char first[420];
        dh__cuda_first_error(text, first, sizeof first);
        const char *s = dh__cuda_nvrtcGetErrorString(r);
        rc = dh_err_set(err, DH_E_BUILD, "NVRTC compile for %s failed: %s%s%s",
                        t->name, s ? s : "error", first[0] ? ": " : "",
                        first);
        if (log)
            *log = text;
        else
            free(text);
        goto out;
    }
    size_t n = 0;
    r = t->cubin ? dh__cuda_nvrtcGetCUBINSize(prog, &n)
                          : dh__cuda_nvrtcGetPTXSize(prog, &n);
    void *img = NULL;
    if (r == NVRTC_SUCCESS && n && !(img = malloc(n))) {
        rc = dh_err_set(err, DH_E_RESOURCES, "out of host memory");
        goto out;
    }
    if (r == NVRTC_SUCCESS)
        r = t->cubin ? dh__cuda_nvrtcGetCUBIN(prog, img)
                              : dh__cuda_nvrtcGetPTX(prog, img);
    if (r != NVRTC_SUCCESS || !n) {
        free(img);
        rc = dh__cuda_rtc_err(err, DH_E_BUILD, r,
                              t->cubin ? "nvrtcGetCUBIN"
                                                : "nvrtcGetPTX");
        goto out;
    }
    *image = img;
    *size = n;
out:
    if (prog)
        dh__cuda_nvrtcDestroyProgram(&prog);
    free(argv);
    free(store);
    return rc;
}
