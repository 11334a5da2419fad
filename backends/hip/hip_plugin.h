/* hip_plugin.h — the contract between the harness's HIP loader
 * (hip_loader.c, always compiled in) and the HIP plugin (hip_plugin.cpp
 * with backends/gpu/gpu.c, built as build/lib/libdh-hip.so by
 * `make hip-nvidia` or `make hip-amd`).
 *
 * The plugin exports one C function, DH_HIP_PLUGIN_ENTRY. The loader calls
 * it with the backend ABI it was built with; the plugin answers its ops
 * table, or NULL with a reason when the ABIs differ. The ops follow
 * backends/backend.h to the letter (the loader forwards every call), with
 * name "hip" and counters NULL. The plugin carries its own copies of
 * backends/errors.c, backends/cache.c and backends/rtc_options.c, so it
 * needs nothing else from the harness.
 */
#ifndef DH_HIP_PLUGIN_H
#define DH_HIP_PLUGIN_H

#include <stddef.h>

#include "../backend.h"

#define DH_HIP_PLUGIN_ENTRY "dh_hip_plugin_ops"
#define DH_HIP_PLUGIN_FILE "libdh-hip.so"

#ifdef __cplusplus
extern "C" {
#endif

/* abi: the caller's DH_BACKEND_ABI. Returns the ops, or NULL with `why`
 * filled. Also fills `platform` ("nvidia" or "amd": what the plugin was
 * built for). */
typedef const struct dh_backend_ops *(*dh_hip_plugin_fn)(int abi, char *platform,
                                                         size_t platform_len,
                                                         char *why, size_t why_len);

/* hip_loader.c (harness side): where the plugin was looked for, and the
 * platform it was built for ("" when it did not load). */
const char *dh_hip_plugin_path(void);
const char *dh_hip_plugin_platform(void);

#ifdef __cplusplus
}
#endif

#endif
