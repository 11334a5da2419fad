/* offline.h — compiling a kernel for a GPU that is not here: the CUBIN
 * the CUDA backend would build for compute capability `cc`, with line
 * information, for reading its machine code (harness/model/sasscost.c).
 * Needs NVRTC only (no driver, no device); no vendor header here. */
#ifndef DH_OFFLINE_H
#define DH_OFFLINE_H

#include <stddef.h>

#include "errors.h"

/* Compile `source` with `options` (the run's own, space-separated) plus
 * -lineinfo for sm_<cc>. 0: *image (malloc'd, caller frees) is the CUBIN,
 * *size its bytes, `compiler` (may be NULL) "NVRTC 13.0". Errors:
 * -DH_E_UNAVAILABLE (no NVRTC, NVRTC cannot target sm_<cc>, or the
 * harness was built without the CUDA backend: the message says which),
 * -DH_E_BUILD (the compile failed: the first error line). */
int dh_offline_cubin(int cc, const char *source, const char *options, void **image,
                     size_t *size, char *compiler, size_t compiler_len, struct dh_err *err);

/* The compiler dh_offline_cubin would use, loaded but not run: "NVRTC
 * 13.0 /path/libnvrtc.so" into buf (a cache key's part). 0, or the
 * error dh_offline_cubin would give. */
int dh_offline_compiler(char *buf, size_t len, struct dh_err *err);

#endif
