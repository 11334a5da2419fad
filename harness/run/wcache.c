/* wcache.c — see wcache.h. */
#include "wcache.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "../../suites/lib/kit.h"
#include "worker_state.h"

extern const char *const dh_codehash_table[][2];   /* build/codehash.c */

void dh_wcache_default_dir(char *out, size_t len)
{
    const char *env = getenv("DH_CACHE"), *dir = getenv("DH_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (env && *env)
        snprintf(out, len, "%s", env);
    else if (dir && *dir)
        snprintf(out, len, "%s/workloads", dir);
    else if (xdg && *xdg)
        snprintf(out, len, "%s/divharness/workloads", xdg);
    else
        snprintf(out, len, "%s/.cache/divharness/workloads", home && *home ? home : "/tmp");
}

int dh_wcache_parse_limit(const char *text, uint64_t *bytes, char *why, size_t len)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || !isfinite(v) || v < 0) {
        snprintf(why, len, "cache limit '%s' is not a size: write bytes or a number with "
                 "K, M, G or T (powers of 1024), e.g. 8G", text);
        return -1;
    }
    double mul = 1;
    switch (toupper((unsigned char)*end)) {
    case 0: break;
    case 'K': mul = 1024.0; end++; break;
    case 'M': mul = 1024.0 * 1024; end++; break;
    case 'G': mul = 1024.0 * 1024 * 1024; end++; break;
    case 'T': mul = 1024.0 * 1024 * 1024 * 1024; end++; break;
    default: end = (char *)"?";
    }
    if (*end && strcmp(end, "B") && strcmp(end, "iB") && strcmp(end, "b")) {
        snprintf(why, len, "cache limit '%s' has an unknown unit: use K, M, G or T (powers "
                 "of 1024), e.g. 8G", text);
        return -1;
    }
    v *= mul;
    if (v >= 1.8e19) {
        snprintf(why, len, "cache limit '%s' is too large", text);
        return -1;
    }
    *bytes = (uint64_t)v;
    return 0;
}

int dh_wcache_default_limit(uint64_t *bytes, char *why, size_t len)
{
    const char *env = getenv("DH_CACHE_LIMIT");
    if (env && *env) {
        if (dh_wcache_parse_limit(env, bytes, why, len)) {
            size_t o = strlen(why);
            snprintf(why + o, len - o, " (from $DH_CACHE_LIMIT)");
            return -1;
        }
        return 0;
    }
    *bytes = DH_WCACHE_LIMIT_DEFAULT;
    return 0;
}

int dh_wcache_open(struct dh_wcache *wc, const char *dir, uint64_t limit_bytes,
                   struct dh_err *err)
{
    memset(wc, 0, sizeof *wc);
    return dh_store_open(&wc->store, dir, limit_bytes, err);
}

const char *dh_wcache_codehash(const char *suite, const char *name)
{
    char full[128];
    snprintf(full, sizeof full, "%s/%s", suite, name);
    for (int i = 0; dh_codehash_table[i][0]; i++)
        if (!strcmp(dh_codehash_table[i][0], full))
            return dh_codehash_table[i][1];
    return NULL;
}

/* ---- notes ---- */

static void workload_label(const struct dh_case *c, const char *what, char *out, size_t len)
{
    char wl[400];
    dh_pset_format(&c->params, DH_P_WORKLOAD, wl, sizeof wl);
    snprintf(out, len, "%s/%s %s %s %s", c->suite, c->bench_name, c->size,
             wl[0] ? wl : "-", what);
}

static void note_bad(const struct dh_worker *w, const struct dh_case *c, const char *what,
                     const char *why)
{
    if (w->wcache->quiet)
        return;
    char label[600];
    workload_label(c, what, label, sizeof label);
    fprintf(stderr, "harness: workload cache: %s: entry not used (%s); made anew\n", label,
            why);
}

static void note_write(struct dh_worker *w, const char *msg)
{
    if (w->wcache->warned)
        return;
    w->wcache->warned = 1;
    if (!w->wcache->quiet)
        fprintf(stderr, "harness: workload cache: %s; the run goes on without storing "
            "(--no-cache to skip the cache)\n", msg);
}

static void note_large(struct dh_worker *w, const char *label, const char *why)
{
    if (w->wcache->told_large)
        return;
    w->wcache->told_large = 1;
    if (!w->wcache->quiet)
        fprintf(stderr, "harness: workload cache: %s not stored: %s (raise it with "
                "--cache-limit)\n", label, why);
}

/* ---- host data ---- */

static int is_kit(const struct dh_bench *b)
{
    return b && b->kit && b->setup == dh_kit_setup;
}

int dh__wcache_workload_key(const struct dh_case *c, struct dh_store_key *k)
{
    const struct dh_bench *b = c->bench;
    if (!is_kit(b))
        return -1;
    const char *code = b->fingerprint ? NULL : dh_wcache_codehash(c->suite, c->bench_name);
    if (!b->fingerprint && !code)
        return -1;
    struct dh_keyb kb;
    if (dh_keyb_init(&kb))
        return -1;
    char wl[800];
    dh_pset_format(&c->params, DH_P_WORKLOAD, wl, sizeof wl);
    dh_keyb_int(&kb, "format", DH_WCACHE_FORMAT);
    dh_keyb_str(&kb, "suite", c->suite);
    dh_keyb_str(&kb, "bench", c->bench_name);
    if (b->fingerprint) {                     /* a user's kernel: its texts */
        dh_keyb_str(&kb, "fingerprint", b->fingerprint);
        dh_keyb_str(&kb, "source", b->source);
    } else {
        dh_keyb_str(&kb, "code", code);
    }
    dh_keyb_str(&kb, "size", c->size);
    dh_keyb_str(&kb, "workload", wl);
    dh_keyb_final(&kb, k);
    return 0;
}

/* the payload: the number of parts and each one's bytes, then the parts */
struct fill_ctx {
    struct dh_store_reader *r;
    char why[256];
};

static int fill_parts(void *ctx, const struct dh_kpart *parts, int n, struct dh_err *err)
{
    struct fill_ctx *f = ctx;
    uint64_t head[1 + DH_KIT_MAXPARTS];
    if (dh_store_read(f->r, head, (size_t)(n + 1) * 8, f->why, sizeof f->why))
        return dh_err_set(err, DH_E_DATA, "%s", f->why);
    if (head[0] != (uint64_t)n)
        return dh_err_set(err, DH_E_DATA, "%llu buffers, the benchmark has %d",
                          (unsigned long long)head[0], n);
    for (int i = 0; i < n; i++)
        if (head[1 + i] != parts[i].bytes)
            return dh_err_set(err, DH_E_DATA, "buffer %d of %llu bytes, the workload needs %zu",
                              i, (unsigned long long)head[1 + i], parts[i].bytes);
    for (int i = 0; i < n; i++)
        if (dh_store_read(f->r, parts[i].p, parts[i].bytes, f->why, sizeof f->why))
            return dh_err_set(err, DH_E_DATA, "%s", f->why);
    /* the checksum before the data are used */
    if (dh_store_done(f->r, f->why, sizeof f->why))
        return dh_err_set(err, DH_E_DATA, "%s", f->why);
    return 0;
}

int dh__wcache_host_load(struct dh_worker *w, const struct dh_case *c,
                         const struct dh_store_key *k, void **state)
{
    if (!w->wcache)
        return 0;
    struct dh_store_reader r;
    struct fill_ctx f = {.r = &r};
    int got = dh_store_get(&w->wcache->store, k, DH_WCACHE_HOST, &r, f.why, sizeof f.why);
    if (got < 0)
        note_bad(w, c, "host data", f.why);
    if (got <= 0)
        return 0;
    struct dh_err e = {0};
    if (dh_kit_setup_loaded(c, state, fill_parts, &f, &e)) {
        if (r.fd >= 0)                        /* stopped before the checksum */
            dh_store_abandon(&r);
        dh_store_remove(w->wcache->store.dir, strrchr(r.path, '/') + 1);
        note_bad(w, c, "host data", e.msg);
        *state = NULL;
        return 0;
    }
    return 1;
}

int dh__wcache_host_save(struct dh_worker *w, const struct dh_case *c,
                          const struct dh_store_key *k, void *state)
{
    if (!w->wcache)
        return 1;
    struct dh_kpart parts[DH_KIT_MAXPARTS];
    int n;
    if (dh_kit_host_parts(state, parts, &n))
        return 1;                             /* priv data: not storable */
    uint64_t head[1 + DH_KIT_MAXPARTS];
    uint64_t total = (uint64_t)(n + 1) * 8;
    head[0] = (uint64_t)n;
    for (int i = 0; i < n; i++) {
        head[1 + i] = parts[i].bytes;
        total += parts[i].bytes;
    }
    char label[600], why[256];
    workload_label(c, "host", label, sizeof label);
    struct dh_store_writer wr;
    struct dh_err e = {0};
    int rc = dh_store_begin(&w->wcache->store, k, DH_WCACHE_HOST, label, total, &wr, why,
                            sizeof why, &e);
    if (rc > 0) {
        note_large(w, label, why);
        return 1;
    }
    if (!rc)
        rc = dh_store_write(&wr, head, (size_t)(n + 1) * 8, &e);
    for (int i = 0; !rc && i < n; i++)
        rc = dh_store_write(&wr, parts[i].p, parts[i].bytes, &e);
    if (!rc)
        rc = dh_store_commit(&wr, &e);
    if (rc)
        note_write(w, e.msg);
    return rc ? -1 : 0;
}

/* ---- BBVs ---- */

void dh__wcache_bbv_key(const struct dh_worker *w, const struct dh_case *c,
                        const struct dh_store_key *workload, const char *src,
                        const char *opts, struct dh_store_key *k)
{
    (void)c;
    struct dh_keyb kb;
    if (dh_keyb_init(&kb)) {
        memset(k, 0, sizeof *k);
        return;
    }
    dh_keyb_int(&kb, "format", DH_WCACHE_FORMAT);
    dh_keyb_add(&kb, "workload", workload->b, sizeof workload->b);
    dh_keyb_str(&kb, "source", src);
    dh_keyb_str(&kb, "options", opts);
    dh_keyb_str(&kb, "backend", w->be->name);
    dh_keyb_str(&kb, "device", w->info.name);
    dh_keyb_str(&kb, "driver", w->info.driver);
    if (w->bbv_nwin > 1)       /* ordered BBVs: their windows (off: the key as before) */
        dh_keyb_int(&kb, "bbv_windows", w->bbv_nwin);
    dh_keyb_final(&kb, k);
}

/* The payload: a head (items, counters per item: blocks x windows, the
 * acquire_ms of the run that made them, the number of distinct rows, 0
 * for none listed), with ordered BBVs (windows > 1) a 64-bit count of
 * windows, then either every item's counts (a row: windows x blocks), or
 * the distinct rows and each item's index into them. Most workloads have
 * few distinct BBVs (micro's 4M items have 2 to 8; srad's 16M, 27): 784
 * MiB of counts become 16 MiB. */
struct bbv_head {
    uint64_t items, n_blocks;
    double acquire_ms;
    uint64_t n_unique;
};

/* The distinct BBVs of counts: *n_unique and index[i] (item i's class),
 * first[c] an item of class c. 0, or -1 when there are more than `most`
 * (the counts are then stored as they are) or no memory. */
static int bbv_classes(const uint32_t *counts, long items, int nb, long most, uint32_t *index,
                       long **first, long *n_unique)
{
    size_t cap = 64;
    while (cap < 2 * (size_t)most)
        cap *= 2;
    long *slot = malloc(cap * sizeof *slot);
    long *fst = malloc(((size_t)most + 1) * sizeof *fst);
    if (!slot || !fst) {
        free(slot);
        free(fst);
        return -1;
    }
    memset(slot, 0xff, cap * sizeof *slot);       /* -1: empty */
    long n = 0;
    size_t row = (size_t)nb * 4;
    for (long i = 0; i < items; i++) {
        const uint32_t *v = counts + (size_t)i * nb;
        size_t h = (size_t)XXH3_64bits(v, row) & (cap - 1);
        while (slot[h] >= 0 && memcmp(counts + (size_t)fst[slot[h]] * nb, v, row))
            h = (h + 1) & (cap - 1);
        if (slot[h] < 0) {
            if (n == most) {
                free(slot);
                free(fst);
                return -1;
            }
            fst[n] = i;
            slot[h] = n++;
        }
        index[i] = (uint32_t)slot[h];
    }
    free(slot);
    *first = fst;
    *n_unique = n;
    return 0;
}

int dh__wcache_bbv_load(struct dh_worker *w, const struct dh_case *c,
                        const struct dh_store_key *k, long items, int n_blocks, int windows,
                        uint32_t **counts, double *acquire_ms)
{
    *counts = NULL;
    if (!w->wcache)
        return 0;
    struct dh_store_reader r;
    char why[256];
    int got = dh_store_get(&w->wcache->store, k, DH_WCACHE_BBV, &r, why, sizeof why);
    if (got < 0)
        note_bad(w, c, "BBVs", why);
    if (got <= 0)
        return 0;
    struct bbv_head head;
    if (windows < 1)
        windows = 1;
    int nb = n_blocks;
    n_blocks *= windows;       /* a row: the item's windows */
    size_t row = (size_t)n_blocks * 4, bytes = (size_t)items * row;
    uint32_t *uniq = NULL, *idx = NULL;
    enum { CHUNK = 1 << 16 };
    if (dh_store_read(&r, &head, sizeof head, why, sizeof why))
        goto bad;
    if (windows > 1) {
        uint64_t nw = 0;
        if (dh_store_read(&r, &nw, sizeof nw, why, sizeof why))
            goto bad;
        if (nw != (uint64_t)windows) {
            snprintf(why, sizeof why, "%llu BBV windows, the profiling build has %d",
                     (unsigned long long)nw, windows);
            goto bad;
        }
    }
    if (head.items != (uint64_t)items || head.n_blocks != (uint64_t)n_blocks
        || head.n_unique > (uint64_t)items) {
        snprintf(why, sizeof why, "%llu items x %llu counters (%llu distinct), the workload "
                 "has %ld x %d (%d blocks x %d windows)", (unsigned long long)head.items,
                 (unsigned long long)head.n_blocks,
                 (unsigned long long)head.n_unique, items, n_blocks, nb, windows);
        goto bad;
    }
    if (!(*counts = malloc(bytes ? bytes : 1))) {
        dh_store_abandon(&r);
        return 0;
    }
    if (!head.n_unique) {
        if (dh_store_read(&r, *counts, bytes, why, sizeof why))
            goto bad;
    } else {
        if (!(uniq = malloc(head.n_unique * row)) || !(idx = malloc(CHUNK * 4))) {
            free(uniq);
            free(*counts);
            *counts = NULL;
            dh_store_abandon(&r);
            return 0;
        }
        if (dh_store_read(&r, uniq, head.n_unique * row, why, sizeof why))
            goto bad;
        for (long i = 0; i < items; i += CHUNK) {
            long n = items - i < CHUNK ? items - i : CHUNK;
            if (dh_store_read(&r, idx, (size_t)n * 4, why, sizeof why))
                goto bad;
            for (long j = 0; j < n; j++) {
                if (idx[j] >= head.n_unique) {
                    snprintf(why, sizeof why, "item %ld names BBV %u of %llu", i + j, idx[j],
                             (unsigned long long)head.n_unique);
                    goto bad;
                }
                memcpy(*counts + (size_t)(i + j) * n_blocks, uniq + (size_t)idx[j] * n_blocks,
                       row);
            }
        }
        free(uniq);
        free(idx);
        uniq = idx = NULL;
    }
    if (dh_store_done(&r, why, sizeof why)) {
        free(*counts);
        *counts = NULL;
        note_bad(w, c, "BBVs", why);
        return 0;
    }
    *acquire_ms = head.acquire_ms;
    return 1;
bad:
    free(uniq);
    free(idx);
    free(*counts);
    *counts = NULL;
    dh_store_abandon(&r);
    dh_store_remove(w->wcache->store.dir, strrchr(r.path, '/') + 1);
    note_bad(w, c, "BBVs", why);
    return 0;
}

void dh__wcache_bbv_save(struct dh_worker *w, const struct dh_case *c,
                         const struct dh_store_key *k, long items, int n_blocks, int windows,
                         const uint32_t *counts, double acquire_ms)
{
    if (!w->wcache)
        return;
    struct bbv_head head = {(uint64_t)items, (uint64_t)n_blocks, acquire_ms, 0};
    uint64_t nw = windows > 1 ? (uint64_t)windows : 1;
    n_blocks *= (int)nw;       /* a row: the item's windows */
    head.n_blocks = (uint64_t)n_blocks;
    size_t row = (size_t)n_blocks * 4, bytes = (size_t)items * row;
    /* listed when that is smaller: fewer distinct BBVs than items / 4 */
    uint32_t *index = items > 0 && n_blocks > 1 ? malloc((size_t)items * 4) : NULL;
    long *first = NULL, n_unique = 0;
    if (index && !bbv_classes(counts, items, n_blocks, items / 4, index, &first, &n_unique))
        head.n_unique = (uint64_t)n_unique;
    uint64_t payload = sizeof head + (nw > 1 ? sizeof nw : 0)
                       + (head.n_unique ? head.n_unique * row + (uint64_t)items * 4 : bytes);
    char label[700], what[200], why[256];
    char win[64] = "";
    if (nw > 1)
        snprintf(win, sizeof win, " %llu windows of %ld", (unsigned long long)nw,
                 w->bbv_window);
    snprintf(what, sizeof what, "BBVs %s %.120s wg=%s%s", w->be->name, w->info.name,
             dh_pset_text(&c->params, "wg", "?"), win);
    workload_label(c, what, label, sizeof label);
    struct dh_store_writer wr;
    struct dh_err e = {0};
    int rc = dh_store_begin(&w->wcache->store, k, DH_WCACHE_BBV, label, payload, &wr, why,
                            sizeof why, &e);
    if (rc > 0) {
        note_large(w, label, why);
        goto out;
    }
    if (!rc)
        rc = dh_store_write(&wr, &head, sizeof head, &e);
    if (!rc && nw > 1)
        rc = dh_store_write(&wr, &nw, sizeof nw, &e);
    if (head.n_unique) {
        for (long u = 0; !rc && u < n_unique; u++)
            rc = dh_store_write(&wr, counts + (size_t)first[u] * n_blocks, row, &e);
        if (!rc)
            rc = dh_store_write(&wr, index, (size_t)items * 4, &e);
    } else if (!rc) {
        rc = dh_store_write(&wr, counts, bytes, &e);
    }
    if (!rc)
        rc = dh_store_commit(&wr, &e);
    if (rc)
        note_write(w, e.msg);
out:
    free(index);
    free(first);
}
