/* regroup_window.c — Greedy for workloads with many distinct BBVs
 * (regroup.h; the exact forms are in regroup.c, Greedy-Max's window form
 * in regroup_window_max.c). */
#include <omp.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "regroup_common.h"

/* ---- many classes: the same algorithms over sorted neighbourhoods ----
 * With more than DH_RG_EXACT classes (gdt: nearly every item its own
 * BBV) the all-pairs searches are quadratic or worse. Candidates are then
 * limited to the DH_RG_WINDOW nearest classes in lexicographic order (and,
 * for greedymax, in latency order too): similar BBVs sort near each other.
 * Greedy keeps its best pairs in a heap with lazy invalidation. */
#define DH_RG_EXACT 2048
long dh__rg_exact_limit_value = DH_RG_EXACT;

long dh_regroup_exact_limit(long n)
{
    long old = dh__rg_exact_limit_value;
    if (n >= 0)
        dh__rg_exact_limit_value = n;
    return old;
}

/* Heap entries: a pair's gain, its groups and their versions when it was
 * pushed. The gains are kept apart from the rest: a pop's sift-down
 * compares gains level by level (a chain of dependent loads, each a cache
 * miss below the top levels), and an array of gains alone is a quarter of
 * the entries' bytes. The moves are those of one array of whole entries,
 * so entries of equal gain come out in the same order. Groups are ints
 * (classes_build refuses more than INT_MAX items). */
struct hent { double gain; long i, j; unsigned vi, vj; };
struct hpay { int i, j; unsigned vi, vj; };

struct heap { long n, cap; double *g; struct hpay *p; };

static int heap_push(struct heap *h, struct hent x)
{
    if (h->n == h->cap) {
        long cap = h->cap ? h->cap * 2 : 1024;
        double *g = realloc(h->g, (size_t)cap * sizeof *g);
        if (!g)
            return -DH_E_RESOURCES;
        h->g = g;
        struct hpay *p = realloc(h->p, (size_t)cap * sizeof *p);
        if (!p)
            return -DH_E_RESOURCES;
        h->p = p;
        h->cap = cap;
    }
    long i = h->n++;
    while (i > 0 && h->g[(i - 1) / 2] < x.gain) {
        h->g[i] = h->g[(i - 1) / 2];
        h->p[i] = h->p[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->g[i] = x.gain;
    h->p[i] = (struct hpay){(int)x.i, (int)x.j, x.vi, x.vj};
    return 0;
}

/* A pop moves the hole down the path of larger children; the next
 * level's gains (the four grandchildren, one or two cache lines) are
 * fetched a level ahead, so the chain of compares waits on one miss less
 * per level. The moves are those of the plain sift-down. */
static struct hent heap_pop(struct heap *h)
{
    struct hent top = {h->g[0], h->p[0].i, h->p[0].j, h->p[0].vi, h->p[0].vj};
    long last = --h->n, i = 0;
    double xg = h->g[last];
    for (;;) {
        long l = 2 * i + 1, r = l + 1, m = i;
        __builtin_prefetch(h->g + 2 * l + 1);
        __builtin_prefetch(h->g + 2 * r + 2);
        __builtin_prefetch(h->p + 2 * l + 1);
        __builtin_prefetch(h->p + 2 * r + 2);
        double g = xg;
        if (l < h->n && h->g[l] > g) { m = l; g = h->g[l]; }
        if (r < h->n && h->g[r] > g) m = r;
        if (m == i)
            break;
        h->g[i] = h->g[m];
        h->p[i] = h->p[m];
        i = m;
    }
    if (h->n) {
        h->g[i] = xg;
        h->p[i] = h->p[last];
    }
    return top;
}

/* the rows' table (not zeroed: each row is, by the threads that fill
 * them), at a huge page's address (a 64-byte row is
 * one cache line, not two; where the system backs memory with huge pages
 * unasked, the table starts on one). No madvise(MADV_HUGEPAGE): the advice
 * would stay on the heap's addresses after the table is freed; with it,
 * Greedy-Max run after Greedy on the H100 machine took 6,880 faults a call
 * and was 50% slower at 1 and 2 threads, most likely each fault zeroing a
 * huge page. */
static void *rows_alloc(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, (size_t)2 << 20, bytes ? bytes : 64))
        return NULL;
    return p;
}

/* The alive groups, one bit each, and a bit per non-empty word: a window
 * is found by scanning bits (the whole set of gdt medium's 131K groups
 * is 16 KiB and stays in the first-level cache) rather than by following
 * links from group to group, a dependent load per step. */
struct aset {
    long n, nw;
    uint64_t *w, *s;
};

static int aset_init(struct aset *A, long n)
{
    A->n = n;
    A->nw = (n + 63) / 64;
    long ns = (A->nw + 63) / 64;
    A->w = calloc((size_t)(A->nw ? A->nw : 1), sizeof *A->w);
    A->s = calloc((size_t)(ns ? ns : 1), sizeof *A->s);
    if (!A->w || !A->s)
        return -DH_E_RESOURCES;
    for (long i = 0; i < n; i++)
        A->w[i >> 6] |= 1ULL << (i & 63);
    for (long q = 0; q < A->nw; q++)
        A->s[q >> 6] |= 1ULL << (q & 63);
    return 0;
}

/* The words are read and written whole (relaxed atomics: plain loads and
 * stores on x86-64): the thread that searches ahead (below) reads them
 * while the loop drops groups. Bits only ever go from 1 to 0, and a word's
 * summary bit is cleared after the word empties, so a reader may find a
 * summary bit over an empty word and skips it. */
static inline uint64_t aset_ld(const uint64_t *p)
{
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static void aset_drop(struct aset *A, long i)
{
    long q = i >> 6;
    uint64_t x = A->w[q] & ~(1ULL << (i & 63));
    __atomic_store_n(&A->w[q], x, __ATOMIC_RELAXED);
    if (!x)
        __atomic_store_n(&A->s[q >> 6], A->s[q >> 6] & ~(1ULL << (q & 63)), __ATOMIC_RELAXED);
}

/* the first alive group after i, -1 for none */
static long aset_next(const struct aset *A, long i)
{
    long j = i + 1;
    if (j >= A->n)
        return -1;
    long q = j >> 6;
    uint64_t x = aset_ld(&A->w[q]) & (~0ULL << (j & 63));
    if (x)
        return (q << 6) + __builtin_ctzll(x);
    long ns = (A->nw + 63) / 64;
    for (long t = (q + 1) >> 6, first = 1; t < ns; t++, first = 0) {
        uint64_t y = aset_ld(&A->s[t]);
        if (first)
            y &= (q + 1) & 63 ? ~0ULL << ((q + 1) & 63) : ~0ULL;
        for (; y; y &= y - 1) {
            long w = (t << 6) + __builtin_ctzll(y);
            uint64_t z = aset_ld(&A->w[w]);
            if (z)
                return (w << 6) + __builtin_ctzll(z);
        }
    }
    return -1;
}

/* the last alive group before i, -1 for none */
static long aset_prev(const struct aset *A, long i)
{
    long j = i - 1;
    if (j < 0)
        return -1;
    long q = j >> 6;
    uint64_t x = aset_ld(&A->w[q]) & (~0ULL >> (63 - (j & 63)));
    if (x)
        return (q << 6) + 63 - __builtin_clzll(x);
    for (long t = (q - 1) >= 0 ? (q - 1) >> 6 : -1, first = 1; t >= 0; t--, first = 0) {
        uint64_t y = aset_ld(&A->s[t]);
        if (first)
            y &= ~0ULL >> (63 - ((q - 1) & 63));
        for (; y; y &= ~(1ULL << (63 - __builtin_clzll(y)))) {
            long w = (t << 6) + 63 - __builtin_clzll(y);
            uint64_t z = aset_ld(&A->w[w]);
            if (z)
                return (w << 6) + 63 - __builtin_clzll(z);
        }
    }
    return -1;
}

/* up to max alive groups after i (fwd) or before it, nearest first, into
 * who; how many. A word's bits are taken all at once. */
static int aset_collect(const struct aset *A, long i, int fwd, int *who, int max)
{
    int n = 0;
    if (fwd) {
        long j = aset_next(A, i);
        while (j >= 0 && n < max) {
            long q = j >> 6;
            uint64_t x = aset_ld(&A->w[q]) & (~0ULL << (j & 63));
            for (; x && n < max; x &= x - 1)
                who[n++] = (int)((q << 6) + __builtin_ctzll(x));
            if (n < max)
                j = aset_next(A, (q << 6) + 63);
        }
    } else {
        long j = aset_prev(A, i);
        while (j >= 0 && n < max) {
            long q = j >> 6;
            uint64_t x = aset_ld(&A->w[q]) & (~0ULL >> (63 - (j & 63)));
            for (; x && n < max; x &= ~(1ULL << (63 - __builtin_clzll(x))))
                who[n++] = (int)((q << 6) + 63 - __builtin_clzll(x));
            if (n < max)
                j = aset_prev(A, q << 6);
        }
    }
    return n;
}

/* Groups are kept in lexicographic order of their first class; `alive`
 * has the ones left. A group's members are runs of (class, count) in a
 * list: run q is made for group q's class at the start (a class is in one
 * group at a time, so no run is ever made again), a merge links z's runs
 * after a's, and an emission takes runs off the head. No run list is
 * allocated or copied as groups merge.
 *
 * Each group's bounds are a row: its minima, then its maxima. A search
 * reads 32 rows from all over the table (gdt medium: 131K groups), and
 * the loads, not the sums, are its time; so where the gains are exact in
 * integers (dh__rg_int_costs) a row holds only the blocks that vary among
 * the groups, each as 16 bits above the block's smallest count
 * (dh__rg_gains_i16): gdt's 18 blocks of 32 bits, 144 bytes, become 12
 * of 16 bits padded to 16, 64 bytes, one cache line. Otherwise a row is
 * the nb counters of 32 bits and the gains are summed in doubles. */
/* a group's items and version side by side: a pop reads both of its two
 * groups' (one cache miss each, not two) */
struct wstate {
    uint32_t size;      /* below 2 x group */
    unsigned ver;
};

struct wgroups {
    long m;
    struct aset alive;
    struct wstate *st;  /* per group: items (0: not alive) and version */
    double *bestg;      /* gain of each group's latest entry */
    void *bounds;       /* group j's row at j * rowb */
    size_t rowb;
    int *head, *tail;   /* first and last run */
    int *rcls, *rnext;  /* per run: class, next run of its group (-1: last) */
    long *rcnt;         /* per run: items */
    int nb;
    const double *cost;
    /* the 16-bit rows (i16 set): rs counters a half, the nv blocks that
     * vary (var[q]: the block; off[q]: its smallest count) */
    int i16, rs, nv;
    int *var;
    uint32_t *off;
    int16_t *c16;
    int32_t k;
    double scale;
};

static inline void *wg_row(const struct wgroups *W, long j)
{
    return (char *)W->bounds + (size_t)j * W->rowb;
}

/* a row's bounds emptied (a group's, or the search ahead's own), then
 * those of one class added (set) */
static void row_reset(const struct wgroups *W, void *row)
{
    if (W->i16) {
        uint16_t *r = row;
        for (int q = 0; q < W->nv; q++) {
            r[q] = UINT16_MAX;
            r[W->rs + q] = 0;
        }
    } else {
        uint32_t *r = row;
        for (int q = 0; q < W->nb; q++) {
            r[q] = UINT32_MAX;
            r[W->nb + q] = 0;
        }
    }
}

static void row_add_class(const struct wgroups *W, void *row, const uint32_t *v)
{
    if (W->i16) {
        uint16_t *r = row;
        for (int q = 0; q < W->nv; q++) {
            uint16_t x = (uint16_t)(v[W->var[q]] - W->off[q]);
            if (x < r[q]) r[q] = x;
            if (x > r[W->rs + q]) r[W->rs + q] = x;
        }
    } else {
        uint32_t *r = row;
        for (int q = 0; q < W->nb; q++) {
            if (v[q] < r[q]) r[q] = v[q];
            if (v[q] > r[W->nb + q]) r[W->nb + q] = v[q];
        }
    }
}

/* row a's bounds widened by z's: the union's */
static void row_add_row(const struct wgroups *W, void *a, const void *z)
{
    if (W->i16) {
        uint16_t *A = a;
        const uint16_t *Z = z;
        for (int q = 0; q < W->nv; q++) {
            if (Z[q] < A[q]) A[q] = Z[q];
            if (Z[W->rs + q] > A[W->rs + q]) A[W->rs + q] = Z[W->rs + q];
        }
    } else {
        uint32_t *A = a;
        const uint32_t *Z = z;
        for (int q = 0; q < W->nb; q++) {
            if (Z[q] < A[q]) A[q] = Z[q];
            if (Z[W->nb + q] > A[W->nb + q]) A[W->nb + q] = Z[W->nb + q];
        }
    }
}

static void wg_reset(struct wgroups *W, long j)
{
    row_reset(W, wg_row(W, j));
}

static void wg_add_class(struct wgroups *W, long j, const uint32_t *v)
{
    row_add_class(W, wg_row(W, j), v);
}

static void wg_add_group(struct wgroups *W, long a, long z)
{
    row_add_row(W, wg_row(W, a), wg_row(W, z));
}

/* the gains of merging the group whose row is ri with each of n groups
 * whose rows are r[] */
static void row_gains(const struct wgroups *W, const void *ri, const void *const *r, int n,
                      double *g)
{
    if (W->i16) {
        dh__rg_gains_i16(W->c16, W->rs, W->k, W->scale, ri, (const uint16_t *const *)r, n, g);
        return;
    }
    const uint32_t *mn[DH_RG_WINDOW], *mx[DH_RG_WINDOW], *mi = ri;
    for (int q = 0; q < n; q++) {
        mn[q] = r[q];
        mx[q] = mn[q] + W->nb;
    }
    dh__rg_gains_fast(W->cost, W->nb, mi, mi + W->nb, mn, mx, n, g);
}

static void wg_gains(const struct wgroups *W, long i, const void *const *r, int n, double *g)
{
    row_gains(W, wg_row(W, i), r, n, g);
}

static inline void wg_prefetch_row(const struct wgroups *W, long j)
{
    const char *r = wg_row(W, j);
    for (size_t o = 0; o < W->rowb; o += 64)
        __builtin_prefetch(r + o);
    __builtin_prefetch(r + W->rowb - 1);
}

/* the next DH_RG_WINDOW alive groups after i (fwd) or before it, and
 * the gains of merging each with i */
static int wg_window(const struct wgroups *W, long i, int fwd, int *who, double *g)
{
    const void *r[DH_RG_WINDOW];
    int n = aset_collect(&W->alive, i, fwd, who, DH_RG_WINDOW);
    for (int q = 0; q < n; q++) {
        r[q] = wg_row(W, who[q]);
        /* rows all over the table miss the cache: start every
         * candidate's loads before the first gain waits on one */
        wg_prefetch_row(W, who[q]);
    }
    wg_gains(W, i, r, n, g);
    return n;
}

/* start the loads of the next entry's search (the heap's top after a
 * pop is most often the next one popped): i's window's rows, in the
 * shadow of this entry's work */
static void wg_prefetch(const struct wgroups *W, long i)
{
    int who[DH_RG_WINDOW], n = aset_collect(&W->alive, i, 1, who, DH_RG_WINDOW);
    __builtin_prefetch(W->st + i);
    wg_prefetch_row(W, i);
    for (int q = 0; q < n; q++)
        wg_prefetch_row(W, who[q]);
}

/* i's partner of largest gain in its forward window (the first of equal
 * gains), -1 for none; its gain in *bg (-1e300 for none) */
static int wg_best(const struct wgroups *W, long i, double *bg)
{
    int best = -1, who[DH_RG_WINDOW];
    double gs[DH_RG_WINDOW];
    *bg = -1e300;
    int n = wg_window(W, i, 1, who, gs);
    for (int k = 0; k < n; k++)
        if (gs[k] > *bg) {
            *bg = gs[k];
            best = who[k];
        }
    return best;
}

/* i's best partner and its gain noted, and pushed if there is one */
static int wg_push_best(struct wgroups *W, long i, int best, double bg, struct heap *h)
{
    W->bestg[i] = bg;
    if (best < 0)
        return 0;
    struct hent e = {bg, i, best, W->st[i].ver, W->st[best].ver};
    return heap_push(h, e);
}

static int wg_best_push(struct wgroups *W, long i, struct heap *h)
{
    double bg;
    int best = wg_best(W, i, &bg);
    return wg_push_best(W, i, best, bg, h);
}

/* group a's first `group` items out as a finished group; the rest stay */
static int wg_emit_first(struct wgroups *W, long a, long group, struct seq *out)
{
    long need = group;
    int r = W->head[a], rc;
    while (need > 0) {
        long t = W->rcnt[r] < need ? W->rcnt[r] : need;
        if ((rc = dh__rg_seq_push(out, W->rcls[r], t)))
            return rc;
        W->rcnt[r] -= t;
        need -= t;
        if (!W->rcnt[r])
            r = W->rnext[r];
    }
    W->head[a] = r;
    W->st[a].size -= group;
    return 0;
}

/* ---- the search ahead ----
 * After a pop the heap's top is nearly always the next entry popped (on
 * gdt's shape 97% of the entries that need work), and its windows seldom
 * hold the two groups the entry in hand merges. So with more threads,
 * helpers work the next entry while the loop works this one: they read
 * the groups' state and, for a stale entry, search the group's forward
 * window; for a merge they build the merged row (the emission's remainder
 * where the merge emits) and search both windows as the loop would after
 * the merge. With two helpers one takes the forward window, the other the
 * backward one. The loop takes an answer only if no merge since its
 * search began touched a group the search read: every merge is logged
 * (its two groups) after its writes, a search notes the log's length
 * before its first read and the range of groups it read, and the loop
 * checks the merges logged since against that range. A search that raced
 * a merge may have read rows half written; such an answer is never taken,
 * and its reads stay in bounds (the bitmap's words are read whole; run
 * walks are bounded). Otherwise the loop searches itself, as with one
 * thread: the merges are the same in every case, only who computed the
 * gains differs. */
#define AH_LOG 64                   /* merges remembered */
#define AH_MAX 2                    /* helpers */
#define AH_SLOW 64                  /* waits that yield (and 1 in 64 more) before the
                                     * loop goes alone */

enum { AH_NONE, AH_DEAD, AH_STALE, AH_MERGE, AH_GONE };

/* one part of an answer: the forward (0) or the backward (1) window */
struct ahpart {
    struct hpay ent;                /* the entry searched */
    long epoch;                     /* merges logged when the search began */
    long lo, hi;                    /* the groups it read lie in [lo, hi] (and ent.j) */
    int kind, best, nb;
    double bg;                      /* forward: best's gain (-1e300: none) */
    int who[DH_RG_WINDOW];          /* backward: the window, its gains */
    double g[DH_RG_WINDOW];
    void *row;                      /* a merge's new row */
};

struct ahdone {
    long q __attribute__((aligned(64)));
};

struct ahead {
    long req __attribute__((aligned(64)));     /* requests posted; slot req & 1 */
    long nlog __attribute__((aligned(64)));    /* merges logged */
    int quit;
    long slow, waits;                          /* waits that yielded the core; all */
    struct ahdone done[AH_MAX];                /* requests each helper answered */
    long log[AH_LOG][2] __attribute__((aligned(64)));
    struct ahpart s[2][2] __attribute__((aligned(64)));  /* [req & 1][part] */
    const struct classes *c;
    int group, nh;
};

long dh__rg_ahead_taken, dh__rg_ahead_missed;
int dh__rg_ahead_off;

static inline unsigned ah_ld32(const unsigned *p)
{
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* the merged group's row: the union, or where the merge emits, the bounds
 * of what stays (the runs after the first `group` items of a's runs and
 * then z's, as wg_emit_first takes them); 0, or 1 where nothing stays,
 * -1 for a walk that met a run list being rewritten */
static int ah_merged_row(const struct wgroups *W, const struct ahead *A, long a, long z,
                         uint32_t sa, uint32_t sz, void *row)
{
    if (sa + sz < (uint32_t)A->group) {
        memcpy(row, wg_row(W, a), W->rowb);
        row_add_row(W, row, wg_row(W, z));
        return 0;
    }
    if (sa + sz == (uint32_t)A->group)
        return 1;
    memset(row, 0, W->rowb);
    row_reset(W, row);
    long need = A->group, steps = 0;
    int r = W->head[a], ta = W->tail[a], inz = 0;
    while (r >= 0 && r < W->m && steps++ < 4 * A->group + 8) {
        long cnt = W->rcnt[r];
        long t = cnt < need ? cnt : need;
        need -= t;
        if (cnt - t > 0)
            row_add_class(W, row, A->c->vec[W->rcls[r]]);
        if (r == ta && !inz) {
            r = W->head[z];
            inz = 1;
        } else {
            r = W->rnext[r];
        }
    }
    return r < 0 && inz ? 0 : -1;
}

/* the gains of the group whose row is ri with the n groups in who */
static void ah_gains(const struct wgroups *W, const void *ri, const int *who, int n, double *g)
{
    const void *r[DH_RG_WINDOW];
    for (int q = 0; q < n; q++) {
        r[q] = wg_row(W, who[q]);
        wg_prefetch_row(W, who[q]);
    }
    row_gains(W, ri, r, n, g);
}

/* part `part` of the answer for S->ent (read from the state as it is) */
static void ah_work(const struct wgroups *W, struct ahead *A, struct ahpart *S, int part)
{
    S->epoch = __atomic_load_n(&A->nlog, __ATOMIC_ACQUIRE);
    long a = S->ent.i, z = S->ent.j;
    uint32_t sa = ah_ld32(&W->st[a].size), sz = ah_ld32(&W->st[z].size);
    S->lo = S->hi = a;
    if (!sa) {
        S->kind = AH_DEAD;
        return;
    }
    int stale = !sz || S->ent.vi != ah_ld32(&W->st[a].ver) ||
                S->ent.vj != ah_ld32(&W->st[z].ver);
    if (stale && part) {
        S->kind = AH_STALE;                     /* no backward window */
        return;
    }
    const void *ri = wg_row(W, a);
    if (!stale) {
        int k = ah_merged_row(W, A, a, z, sa, sz, S->row);
        if (k) {
            S->kind = k > 0 ? AH_GONE : AH_NONE;
            return;
        }
        ri = S->row;
    }
    S->kind = stale ? AH_STALE : AH_MERGE;
    if (part) {
        S->nb = aset_collect(&W->alive, a, 0, S->who, DH_RG_WINDOW);
        S->lo = S->nb < DH_RG_WINDOW ? 0 : S->who[S->nb - 1];
        ah_gains(W, ri, S->who, S->nb, S->g);
        return;
    }
    /* the forward window, once z is gone for a merge: 33 after a, less z */
    int who[DH_RG_WINDOW + 1], n1, n = 0;
    double gs[DH_RG_WINDOW];
    n1 = aset_collect(&W->alive, a, 1, who, stale ? DH_RG_WINDOW : DH_RG_WINDOW + 1);
    S->hi = n1 < (stale ? DH_RG_WINDOW : DH_RG_WINDOW + 1) ? W->m : who[n1 - 1];
    for (int q = 0; q < n1 && n < DH_RG_WINDOW; q++)
        if (stale || who[q] != z)
            who[n++] = who[q];
    ah_gains(W, ri, who, n, gs);
    S->best = -1;
    S->bg = -1e300;
    for (int q = 0; q < n; q++)
        if (gs[q] > S->bg) {
            S->bg = gs[q];
            S->best = who[q];
        }
}

#define AH_SPINS 4096

static void ah_pause(long *spins)
{
    if (++*spins < AH_SPINS)
        __builtin_ia32_pause();
    else
        sched_yield();              /* fewer cores than threads */
}

/* helper k: answers requests until told to stop (one helper: both parts) */
static void ah_serve(const struct wgroups *W, struct ahead *A, int k)
{
    long seen = 0, spins = 0;
    for (;;) {
        long q = __atomic_load_n(&A->req, __ATOMIC_ACQUIRE);
        if (q != seen) {
            seen = q;
            spins = 0;
            for (int part = 0; part < 2; part++)
                if (A->nh == 1 || part == k)
                    ah_work(W, A, &A->s[q & 1][part], part);
            __atomic_store_n(&A->done[k].q, q, __ATOMIC_RELEASE);
        } else if (__atomic_load_n(&A->quit, __ATOMIC_ACQUIRE)) {
            return;
        } else {
            ah_pause(&spins);
        }
    }
}

/* every helper done with the last request; a wait long enough to yield
 * the core is counted (the helpers then share cores with other work) */
static void ah_wait(struct ahead *A)
{
    long spins = 0;
    for (int k = 0; k < A->nh; k++)
        while (__atomic_load_n(&A->done[k].q, __ATOMIC_ACQUIRE) != A->req)
            ah_pause(&spins);
    A->slow += spins >= AH_SPINS;
    A->waits++;
}

/* is the part (if it was for e) still what the loop would compute: no
 * merge logged since its search began touched what it read */
static int ah_valid(const struct ahead *A, const struct ahpart *S, const struct hent *e)
{
    if (S->ent.i != e->i || S->ent.j != e->j || S->ent.vi != e->vi || S->ent.vj != e->vj ||
        S->kind == AH_NONE)
        return 0;
    if (A->nlog - S->epoch > AH_LOG)
        return 0;
    for (long t = S->epoch; t < A->nlog; t++)
        for (int k = 0; k < 2; k++) {
            long x = A->log[t % AH_LOG][k];
            if ((x >= S->lo && x <= S->hi) || x == S->ent.j)
                return 0;
        }
    return 1;
}

/* the answer's parts for entry e, each NULL where not to be taken */
static void ah_take(struct ahead *A, const struct hent *e, const struct ahpart **P)
{
    P[0] = P[1] = NULL;
    if (!A->req)
        return;
    ah_wait(A);
    for (int part = 0; part < 2; part++) {
        const struct ahpart *S = &A->s[A->req & 1][part];
        if (ah_valid(A, S, e))
            P[part] = S;
        else if (S->ent.i == e->i && S->ent.j == e->j)
            dh__rg_ahead_missed++;
    }
    if (P[0])
        dh__rg_ahead_taken++;
}

/* ask for the search of the heap's top (the loop has taken the previous
 * answer, or passed it by) */
static void ah_post(struct ahead *A, const struct wgroups *W, const struct heap *h)
{
    if (!h->n || !W->st[h->p[0].i].size)
        return;
    long q = A->req + 1;
    A->s[q & 1][0].ent = A->s[q & 1][1].ent = h->p[0];
    __atomic_store_n(&A->req, q, __ATOMIC_RELEASE);
}

static void ah_log(struct ahead *A, long a, long z)
{
    A->log[A->nlog % AH_LOG][0] = a;
    A->log[A->nlog % AH_LOG][1] = z;
    __atomic_store_n(&A->nlog, A->nlog + 1, __ATOMIC_RELEASE);
}

static void wg_free(struct wgroups *W)
{
    free(W->bounds);
    free(W->alive.w); free(W->alive.s); free(W->st); free(W->bestg);
    free(W->head); free(W->tail); free(W->rcls); free(W->rnext); free(W->rcnt);
    free(W->var); free(W->off); free(W->c16);
}

/* blocks a pass of wg_plan_i16 takes (a thread's minima and maxima on
 * its stack) */
#define DH_RG_MAXB 64

/* 16-bit rows if the gains are exact in integers and every block that
 * varies among the m groups' classes spans less than 2^14. Where there
 * are not many more items than groups (gdt: 131K of each) the ranges are
 * taken over all the items' counters, read in sequence, rather than over
 * the groups' classes, one read each from all over the counters: they
 * hold the classes' ranges, and any offsets and bounds that hold for
 * them hold for the classes' (the gains stay exact, rows may be wider). */
static int wg_plan_i16(struct wgroups *W, const struct dh_bbv *bb, const struct classes *c,
                       long m)
{
    int nb = c->nb, nt = dh_regroup_threads(m);
    uint32_t *lo = malloc((size_t)nb * sizeof *lo), *hi = malloc((size_t)nb * sizeof *hi);
    int32_t *ci = malloc((size_t)nb * sizeof *ci);
    W->var = malloc((size_t)nb * sizeof *W->var);
    W->off = malloc((size_t)nb * sizeof *W->off);
    W->c16 = calloc((size_t)nb + 16, sizeof *W->c16);
    if (!lo || !hi || !ci || !W->var || !W->off || !W->c16) {
        free(lo); free(hi); free(ci);
        return -DH_E_RESOURCES;
    }
    /* every block's smallest and largest count, one pass over the
     * items or the classes a thread, the threads' then joined */
    int items = bb->n_items <= 4 * m;
    for (int q = 0; q < nb; q++) {
        lo[q] = UINT32_MAX;
        hi[q] = 0;
    }
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        uint32_t l[DH_RG_MAXB], h[DH_RG_MAXB];
        for (int b0 = 0; b0 < nb; b0 += DH_RG_MAXB) {
            int nq = nb - b0 < DH_RG_MAXB ? nb - b0 : DH_RG_MAXB;
            for (int q = 0; q < nq; q++) {
                l[q] = UINT32_MAX;
                h[q] = 0;
            }
            if (items) {
#pragma omp for schedule(static)
                for (long i = 0; i < bb->n_items; i++) {
                    const uint32_t *v = bb->counts + (size_t)i * (size_t)nb + b0;
                    for (int q = 0; q < nq; q++) {
                        if (v[q] < l[q]) l[q] = v[q];
                        if (v[q] > h[q]) h[q] = v[q];
                    }
                }
            } else {
#pragma omp for schedule(static)
                for (long i = 0; i < m; i++) {
                    const uint32_t *v = c->vec[W->rcls[i]] + b0;
                    for (int q = 0; q < nq; q++) {
                        if (v[q] < l[q]) l[q] = v[q];
                        if (v[q] > h[q]) h[q] = v[q];
                    }
                }
            }
#pragma omp critical(dh_rg_plan)
            for (int q = 0; q < nq; q++) {
                if (l[q] < lo[b0 + q]) lo[b0 + q] = l[q];
                if (h[q] > hi[b0 + q]) hi[b0 + q] = h[q];
            }
        }
    }
    uint32_t top = 0;
    for (int q = 0; q < nb; q++)
        if (m && hi[q] > top)
            top = hi[q];
    W->i16 = m > 0 && dh__rg_int_costs(W->cost, nb, top, ci, &W->scale);
    int64_t k = 0;
    W->nv = 0;
    for (int q = 0; q < nb && W->i16; q++) {
        if (lo[q] == hi[q]) {                   /* the same in every group */
            k += (int64_t)ci[q] * lo[q];
            continue;
        }
        if (hi[q] - lo[q] >= 1u << 14 || ci[q] < INT16_MIN || ci[q] > INT16_MAX)
            W->i16 = 0;
        k += (int64_t)ci[q] * lo[q];            /* 2 (l+o) - (h+o) = 2l - h + o */
        W->var[W->nv] = q;
        W->off[W->nv] = lo[q];
        W->c16[W->nv++] = (int16_t)ci[q];
    }
    W->k = (int32_t)k;                          /* |k| <= top sum|c| < 2^30 */
    W->rs = (W->nv + 15) / 16 * 16;
    if (!W->rs)
        W->rs = 16;
    free(lo); free(hi); free(ci);
    return 0;
}

/* Greedy's merges: the best pair popped, its groups merged (the first
 * `group` items emitted once they fill one), the new group's best partner
 * pushed and the groups before it offered it; an entry whose groups have
 * changed since it was pushed is searched again. A, if not NULL: the next
 * entry is searched ahead on the second thread. */
static int wg_loop(struct wgroups *W, struct heap *h, const struct classes *c, int group,
                   struct seq *out, struct ahead *A)
{
    int rc;
    long pre = -1;          /* the group whose search was last prefetched */
    while (h->n) {
        struct hent e = heap_pop(h);
        long a = e.i, z = e.j;
        const struct ahpart *P[2] = {NULL, NULL};
        if (A)
            ah_take(A, &e, P);
        if (A && A->slow > AH_SLOW + A->waits / 64) {  /* helpers without cores: alone */
            ah_wait(A);
            __atomic_store_n(&A->quit, 1, __ATOMIC_RELEASE);
            A = NULL;
        }
        if (A) {
            ah_post(A, W, h);
        } else if (h->n && h->p[0].i != pre) {
            pre = h->p[0].i;
            wg_prefetch(W, h->p[0].i);
        }
        for (long q = 0; q < 3 && q < h->n; q++) {
            __builtin_prefetch(W->st + h->p[q].i);
            __builtin_prefetch(W->st + h->p[q].j);
        }
        if (!W->st[a].size)
            continue;
        if (!W->st[z].size || e.vi != W->st[a].ver || e.vj != W->st[z].ver) {
            rc = P[0] && P[0]->kind == AH_STALE ? wg_push_best(W, a, P[0]->best, P[0]->bg, h)
                                                : wg_best_push(W, a, h);
            if (rc)
                return rc;
            continue;
        }
        /* z's runs after a's */
        W->rnext[W->tail[a]] = W->head[z];
        W->tail[a] = W->tail[z];
        W->st[a].size += W->st[z].size;
        W->st[z].size = 0;
        aset_drop(&W->alive, z);
        W->st[z].ver++;
        int emitted = W->st[a].size >= (uint32_t)group;
        if (emitted && (rc = wg_emit_first(W, a, group, out)))
            return rc;
        W->st[a].ver++;
        if (!W->st[a].size) {
            aset_drop(&W->alive, a);
            if (A)
                ah_log(A, a, z);
            continue;
        }
        const struct ahpart *F = P[0] && P[0]->kind == AH_MERGE ? P[0] : NULL;
        const struct ahpart *B = P[1] && P[1]->kind == AH_MERGE ? P[1] : NULL;
        if (F || B)                         /* the row built ahead */
            memcpy(wg_row(W, a), (F ? F : B)->row, W->rowb);
        else if (emitted) {                 /* members left: bounds anew */
            wg_reset(W, a);
            for (int r = W->head[a]; r >= 0; r = W->rnext[r])
                wg_add_class(W, a, c->vec[W->rcls[r]]);
        } else {                            /* the union's: the same values */
            wg_add_group(W, a, z);
        }
        if (A)
            ah_log(A, a, z);
        if ((rc = F ? wg_push_best(W, a, F->best, F->bg, h) : wg_best_push(W, a, h)))
            return rc;
        /* groups before a: a changed; an entry that pointed at a or z is
         * stale and is searched again when it comes up */
        int who[DH_RG_WINDOW];
        double gs[DH_RG_WINDOW];
        const int *bw = who;
        const double *bg = gs;
        int nw;
        if (B) {
            nw = B->nb;
            bw = B->who;
            bg = B->g;
        } else {
            nw = wg_window(W, a, 0, who, gs);
        }
        for (int k = 0; k < nw; k++) {
            long p = bw[k];
            double g = bg[k];
            if (g > W->bestg[p]) {
                W->bestg[p] = g;
                struct hent x = {g, p, a, W->st[p].ver, W->st[a].ver};
                if ((rc = heap_push(h, x)))
                    return rc;
            }
        }
    }
    return 0;
}

int dh__rg_greedy_window(const struct dh_bbv *b, const struct classes *c, int group,
                         struct seq *out)
{
    int nb = c->nb, rc = 0;
    long *lex = dh__rg_sorted_classes(c);
    if (!lex)
        return -DH_E_RESOURCES;
    /* identical items first: whole groups of a class, in lexicographic
     * order; the remainders become the groups, their classes in rcls */
    struct wgroups W = {0};
    struct heap h = {0};
    struct ahead *A = NULL;
    int *best = NULL;
    size_t m1 = (size_t)c->n + 1;
    W.rcls = malloc(m1 * sizeof *W.rcls);
    if (!W.rcls) {
        rc = -DH_E_RESOURCES;
        goto out;
    }
    long m = 0;
    for (long q = 0; q < c->n; q++) {
        long k = lex[q];
        if ((rc = dh__rg_seq_push(out, k, c->count[k] / group * group)))
            goto out;
        if (c->count[k] % group)
            W.rcls[m++] = (int)k;
    }
    W.m = m;
    W.nb = nb;
    W.cost = b->block_cost;
    if ((rc = wg_plan_i16(&W, b, c, m)))
        goto out;
    W.rowb = W.i16 ? 2 * (size_t)W.rs * sizeof(uint16_t) : 2 * (size_t)nb * sizeof(uint32_t);
    m1 = (size_t)m + 1;
    W.st = calloc(m1, sizeof *W.st);
    W.bestg = malloc(m1 * sizeof *W.bestg);
    W.bounds = rows_alloc(m1 * W.rowb);
    W.head = malloc(m1 * sizeof *W.head);
    W.tail = malloc(m1 * sizeof *W.tail);
    W.rnext = malloc(m1 * sizeof *W.rnext);
    W.rcnt = malloc(m1 * sizeof *W.rcnt);
    best = malloc(m1 * sizeof *best);
    /* every group pushes one entry first; about as many more come */
    h.cap = 2 * (long)m1;
    h.g = malloc((size_t)h.cap * sizeof *h.g);
    h.p = malloc((size_t)h.cap * sizeof *h.p);
    if (!W.st || !W.bestg || !W.bounds || !W.head || !W.tail || !W.rnext ||
        !W.rcnt || !best || !h.g || !h.p || aset_init(&W.alive, m)) {
        rc = -DH_E_RESOURCES;
        goto out;
    }
    /* the groups, then each one's best partner, on the threads (a search
     * reads 33 rows from all over the table, a microsecond: 2K groups a
     * thread are worth a thread); the entries pushed after, in group
     * order, as one by one */
    int nt = dh__rg_threads_for(m, 2048);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
#pragma omp for schedule(static)
        for (long i = 0; i < m; i++) {
            int k = W.rcls[i];
            W.st[i].size = (uint32_t)(c->count[k] % group);
            W.head[i] = W.tail[i] = (int)i;
            W.rnext[i] = -1;
            W.rcnt[i] = W.st[i].size;
            memset(wg_row(&W, i), 0, W.rowb);        /* the padding lanes 0 */
            wg_reset(&W, i);
            wg_add_class(&W, i, c->vec[k]);
        }
#pragma omp for schedule(dynamic, 1024)
        for (long i = 0; i < m; i++)
            best[i] = wg_best(&W, i, &W.bestg[i]);
    }
    for (long i = 0; i < m; i++)
        if (best[i] >= 0 && (rc = heap_push(&h, (struct hent){W.bestg[i], i, best[i], 0, 0})))
            goto out;
    /* the merge loop: on two threads, with the next entry searched
     * ahead, where there are enough groups and threads (the same merges) */
    if (nt > 1 && omp_get_num_procs() > 1 && !dh__rg_ahead_off) {
        if (posix_memalign((void **)&A, 64, sizeof *A)) {
            A = NULL;
            rc = -DH_E_RESOURCES;
            goto out;
        }
        memset(A, 0, sizeof *A);
        for (int q = 0; q < 4; q++)
            if (posix_memalign(&A->s[q / 2][q % 2].row, 64, W.rowb)) {
                rc = -DH_E_RESOURCES;
                goto out;
            }
        A->c = c;
        A->group = group;
        int np = omp_get_num_procs(), na = nt < np ? nt : np;
#pragma omp parallel num_threads(na > AH_MAX ? AH_MAX + 1 : na)
        {
            int me = omp_get_thread_num();
#pragma omp single
            A->nh = omp_get_num_threads() - 1;
            if (!A->nh)
                rc = wg_loop(&W, &h, c, group, out, NULL);
            else if (me == 0) {
                rc = wg_loop(&W, &h, c, group, out, A);
                if (!A->quit) {
                    ah_wait(A);
                    __atomic_store_n(&A->quit, 1, __ATOMIC_RELEASE);
                }
            } else {
                ah_serve(&W, A, me - 1);
            }
        }
    } else {
        rc = wg_loop(&W, &h, c, group, out, NULL);
    }
    if (rc)
        goto out;
    for (long i = 0; i < m; i++)            /* what never merged, in order */
        if (W.st[i].size)
            for (int r = W.head[i]; r >= 0; r = W.rnext[r])
                if ((rc = dh__rg_seq_push(out, W.rcls[r], W.rcnt[r])))
                    goto out;
out:
    if (A) {
        for (int q = 0; q < 4; q++)
            free(A->s[q / 2][q % 2].row);
        free(A);
    }
    wg_free(&W);
    free(best);
    free(h.g);
    free(h.p);
    free(lex);
    return rc;
}
