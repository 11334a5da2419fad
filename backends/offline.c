/* offline.c — see offline.h; the CUDA backend does the work where it is
 * built (backends/cuda/cuda_offline.c). */
#include "offline.h"

#ifdef DH_HAVE_CUDA
int dh__cuda_offline_cubin(int cc, const char *source, const char *options, void **image,
                           size_t *size, char *compiler, size_t compiler_len,
                           struct dh_err *err);
int dh__cuda_offline_compiler(char *buf, size_t len, struct dh_err *err);
#endif

int dh_offline_cubin(int cc, const char *source, const char *options, void **image,
                     size_t *size, char *compiler, size_t compiler_len, struct dh_err *err)
{
#ifdef DH_HAVE_CUDA
    return dh__cuda_offline_cubin(cc, source, options, image, size, compiler, compiler_len,
                                  err);
#else
    (void)cc; (void)source; (void)options; (void)image; (void)size;
    (void)compiler; (void)compiler_len;
    return dh_err_set(err, DH_E_UNAVAILABLE, "this harness was built without the CUDA "
                      "backend (NO_CUDA=1 or no CUDA headers): rebuild with the CUDA toolkit's "
                      "headers to compile kernels for sm_XY");
#endif
}

int dh_offline_compiler(char *buf, size_t len, struct dh_err *err)
{
#ifdef DH_HAVE_CUDA
    return dh__cuda_offline_compiler(buf, len, err);
#else
    (void)buf; (void)len;
    return dh_err_set(err, DH_E_UNAVAILABLE, "this harness was built without the CUDA "
                      "backend (NO_CUDA=1 or no CUDA headers): rebuild with the CUDA toolkit's "
                      "headers to compile kernels for sm_XY");
#endif
}
