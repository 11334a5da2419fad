/* cuda_offline.c — a CUBIN with line information for a GPU that is not
 * here (backends/offline.h): NVRTC alone, the backend's own compile path
 * (cuda_rtc.c) with -lineinfo added. */
#define _GNU_SOURCE                     /* dladdr */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cuda_load.h"
#include "cuda_rtc.h"

int dh__cuda_offline_cubin(int cc, const char *source, const char *options, void **image,
                           size_t *size, char *compiler, size_t compiler_len,
                           struct dh_err *err);
int dh__cuda_offline_compiler(char *buf, size_t len, struct dh_err *err);

int dh__cuda_offline_compiler(char *buf, size_t len, struct dh_err *err)
{
    int rc = dh__cuda_load_nvrtc(err);
    if (rc)
        return rc;
    /* the library file the loader found (the name opened may be a bare
     * soname), its size and time: a patch release of the same major.minor
     * is another compiler */
    Dl_info di;
    struct stat st;
    const char *file = dladdr((void *)dh__cuda_nvrtcVersion, &di) && di.dli_fname
                       ? di.dli_fname : dh__cuda_rt.nvrtc_path;
    if (stat(file, &st))
        memset(&st, 0, sizeof st);
    snprintf(buf, len, "NVRTC %d.%d %s %lld %lld.%09ld", dh__cuda_rt.nvrtc_major,
             dh__cuda_rt.nvrtc_minor, file, (long long)st.st_size, (long long)st.st_mtim.tv_sec,
             st.st_mtim.tv_nsec);
    return 0;
}

int dh__cuda_offline_cubin(int cc, const char *source, const char *options, void **image,
                           size_t *size, char *compiler, size_t compiler_len,
                           struct dh_err *err)
{
    int rc = dh__cuda_load_nvrtc(err);
    if (rc)
        return rc;
    if (compiler && compiler_len)
        snprintf(compiler, compiler_len, "NVRTC %d.%d", dh__cuda_rt.nvrtc_major,
                 dh__cuda_rt.nvrtc_minor);
    struct dh__cuda_target t;
    dh__cuda_rtc_target(cc, &t);
    /* DH_CUDA_PTX=1 steers runs to the driver's JIT; here only a CUBIN
     * has machine code to read */
    char exact[32];
    snprintf(exact, sizeof exact, "compute_%d", cc);
    if (!t.cubin && !strcmp(t.name, exact)) {
        snprintf(t.name, sizeof t.name, "sm_%d", cc);
        t.cubin = 1;
    }
    if (!t.cubin)
        return dh_err_set(err, DH_E_UNAVAILABLE, "NVRTC %d.%d (%s) cannot emit a CUBIN for "
                          "sm_%d%s%s: use an NVRTC that supports it (CUDA_HOME)",
                          dh__cuda_rt.nvrtc_major, dh__cuda_rt.nvrtc_minor,
                          dh__cuda_rt.nvrtc_path, cc, t.why[0] ? ": " : "", t.why);
    size_t n = strlen(options ? options : "") + 16;
    char *opts = malloc(n);
    if (!opts)
        return dh_err_set(err, DH_E_RESOURCES, "out of host memory");
    snprintf(opts, n, "%s -lineinfo", options ? options : "");
    char *log = NULL;
    rc = dh__cuda_rtc_compile(&t, source, opts, image, size, &log, err);
    free(log);
    free(opts);
    return rc;
}
