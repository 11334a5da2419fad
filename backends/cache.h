/* cache.h — on-disk cache of compiled programs, shared by the backends.
 *
 * Key: a hash of (source, build options, device name, driver version,
 * backend), so a new driver or a changed kernel never reuses a stale
 * binary. Files live under $DH_CACHE_DIR, else
 * ${XDG_CACHE_HOME:-~/.cache}/divharness/programs/. Writes are atomic
 * (temporary file + rename), entries checksummed (a corrupt one is a
 * miss, rebuilt); a cache that cannot be written is silently
 * skipped (it is an optimisation, never a source of failure).
 * Set DH_NO_CACHE=1 to bypass it.
 */
#ifndef DH_CACHE_H
#define DH_CACHE_H

#include <stddef.h>
#include <stdint.h>

/* 128-bit FNV-1a style digest as 32 hex chars + NUL. */
void dh_cache_key(char key[33], const char *backend, const char *device,
                  const char *driver, const char *source, const char *options);
/* 0 and a malloc'd *data on hit; -1 on miss. */
int dh_cache_load(const char *key, void **data, size_t *len);
void dh_cache_store(const char *key, const void *data, size_t len);
/* Read every entry and check its checksum: the counts of good and bad
 * ones, the first bad one's path; bad ones removed when remove_bad (the
 * next build makes them anew). 0, or -1 when the folder is unreadable. */
int dh_cache_verify(int remove_bad, int *good, int *bad, char *first_bad, size_t fb_len);
/* The cache folder (without trailing slash), e.g. for `harness devices`. */
const char *dh_cache_dir(void);
/* Generic 64-bit FNV-1a, also used for case hashes. */
uint64_t dh_fnv1a64(const void *data, size_t len, uint64_t h);
#define DH_FNV_OFFSET 0xcbf29ce484222325ULL

#endif
