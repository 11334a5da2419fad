/* wcache.h — the workload cache: a workload's host data (seeded inputs and
 * CPU reference) and its BBVs kept on disk between runs, so a nightly does
 * not make them again. The entries are harness/support/store.h's
 * (checksummed, written atomically, evicted least recently used first);
 * this file says what goes in them and what keys them. docs/guide/workload-cache.md is the user's account, with the reasons for each key.
 *
 * Host data key: the cache's format, the benchmark (suite/name), its code
 * (built-in: the SHA-256 of its folder and the shared generator code,
 * made by the Makefile, tools/codehash.sh; a user's kernel: its
 * descriptor and C reference texts and its kernel source), the size and
 * the workload parameters (the seed among them). Only declared
 * benchmarks whose host data are their buffers alone are stored (one that
 * keeps data of its own, priv, is made every time).
 *
 * BBV key: the workload's key and what the profiling run depends on
 * beyond it: the assembled source and the options of the profiling build
 * (tunables such as wg: the work assignment), the backend, the device's
 * name and its driver.
 *
 * Nothing here fails a run: a miss or a bad entry (noted in one line on
 * stderr, removed) means the data are made as without a cache; a write
 * that fails is warned about once per worker and the run goes on. */
#ifndef DH_WCACHE_H
#define DH_WCACHE_H

#include <stdint.h>

#include "../support/store.h"

#define DH_WCACHE_FORMAT 3        /* what the payloads hold; bump on any change
                                     (3: host data carry the generator's derived names) */
#define DH_WCACHE_HOST 1          /* entry kinds */
#define DH_WCACHE_BBV 2
#define DH_WCACHE_LIMIT_DEFAULT (8ULL << 30)

struct dh_wcache {
    struct dh_store store;
    int warned;                   /* a failed write was said */
    int told_large;               /* an entry over the limit was said */
    int quiet;                    /* no notes (tests) */
};

/* The folder: $DH_CACHE, else $DH_CACHE_DIR/workloads, else
 * ${XDG_CACHE_HOME:-~/.cache}/divharness/workloads. */
void dh_wcache_default_dir(char *out, size_t len);
/* "8G", "500M", "1.5GiB", "1048576" (bytes; K M G T are powers of
 * 1024). 0, or -1 with why. */
int dh_wcache_parse_limit(const char *text, uint64_t *bytes, char *why, size_t len);
/* The limit: $DH_CACHE_LIMIT, else DH_WCACHE_LIMIT_DEFAULT; a bad value
 * is -1 with why. */
int dh_wcache_default_limit(uint64_t *bytes, char *why, size_t len);
int dh_wcache_open(struct dh_wcache *wc, const char *dir, uint64_t limit_bytes,
                   struct dh_err *err);

/* The code key of a built-in benchmark ("suite/name"), NULL when the
 * build has none (the benchmark is then never cached). */
const char *dh_wcache_codehash(const char *suite, const char *name);

/* ---- the steps' side (internal to harness/run/) ---- */
struct dh_worker;
struct dh_case;
struct dh_bench;

/* c's workload key into *k: 0, or -1 when the workload is not cached (no
 * code key for its benchmark, or not a declared benchmark). */
int dh__wcache_workload_key(const struct dh_case *c, struct dh_store_key *k);
/* The host data of c's workload from the cache into *state: 1 loaded
 * (the benchmark's setup skipped), 0 not (a miss, or a bad entry noted
 * and removed). */
int dh__wcache_host_load(struct dh_worker *w, const struct dh_case *c,
                         const struct dh_store_key *k, void **state);
/* Store the host data just made (when the benchmark's are storable): 0
 * stored, 1 not storable (the benchmark's own priv data) or larger than
 * the limit, -1 the write failed (warned once). */
int dh__wcache_host_save(struct dh_worker *w, const struct dh_case *c,
                          const struct dh_store_key *k, void *state);
/* The BBV key: the workload key, the profiling build's source and
 * options, the backend, device and driver. */
void dh__wcache_bbv_key(const struct dh_worker *w, const struct dh_case *c,
                        const struct dh_store_key *workload, const char *src,
                        const char *opts, struct dh_store_key *k);
/* items x windows x n_blocks counts (windows 1: the totals; more:
 * ordered BBVs, DH_BBV_WINDOW) into a new array (*counts, the caller
 * frees) and the acquire_ms of the run that made them: 1 loaded, 0 not.
 * The key names the windows too (w->bbv_nwin above 1). */
int dh__wcache_bbv_load(struct dh_worker *w, const struct dh_case *c,
                        const struct dh_store_key *k, long items, int n_blocks, int windows,
                        uint32_t **counts, double *acquire_ms);
void dh__wcache_bbv_save(struct dh_worker *w, const struct dh_case *c,
                         const struct dh_store_key *k, long items, int n_blocks, int windows,
                         const uint32_t *counts, double acquire_ms);

#endif
