/* regroup_window.c — Greedy for workloads with many distinct BBVs
 * (regroup.h; the exact forms are in regroup.c, Greedy-Max's window form
 * in regroup_window_max.c). */
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

static void aset_drop(struct aset *A, long i)
{
    long q = i >> 6;
    A->w[q] &= ~(1ULL << (i & 63));
    if (!A->w[q])
        A->s[q >> 6] &= ~(1ULL << (q & 63));
}

/* the first alive group after i, -1 for none */
static long aset_next(const struct aset *A, long i)
{
    long j = i + 1;
    if (j >= A->n)
        return -1;
    long q = j >> 6;
    uint64_t x = A->w[q] & (~0ULL << (j & 63));
    if (x)
        return (q << 6) + __builtin_ctzll(x);
    long ns = (A->nw + 63) / 64;
    for (long t = (q + 1) >> 6, first = 1; t < ns; t++, first = 0) {
        uint64_t y = A->s[t];
        if (first)
            y &= (q + 1) & 63 ? ~0ULL << ((q + 1) & 63) : ~0ULL;
        if (y) {
            long w = (t << 6) + __builtin_ctzll(y);
            return (w << 6) + __builtin_ctzll(A->w[w]);
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
    uint64_t x = A->w[q] & (~0ULL >> (63 - (j & 63)));
    if (x)
        return (q << 6) + 63 - __builtin_clzll(x);
    for (long t = (q - 1) >= 0 ? (q - 1) >> 6 : -1, first = 1; t >= 0; t--, first = 0) {
        uint64_t y = A->s[t];
        if (first)
            y &= ~0ULL >> (63 - ((q - 1) & 63));
        if (y) {
            long w = (t << 6) + 63 - __builtin_clzll(y);
            return (w << 6) + 63 - __builtin_clzll(A->w[w]);
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
            uint64_t x = A->w[q] & (~0ULL << (j & 63));
            for (; x && n < max; x &= x - 1)
                who[n++] = (int)((q << 6) + __builtin_ctzll(x));
            if (n < max)
                j = aset_next(A, (q << 6) + 63);
        }
    } else {
        long j = aset_prev(A, i);
        while (j >= 0 && n < max) {
            long q = j >> 6;
            uint64_t x = A->w[q] & (~0ULL >> (63 - (j & 63)));
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

/* group j's bounds emptied, then those of one class added (set) */
static void wg_reset(struct wgroups *W, long j)
{
    if (W->i16) {
        uint16_t *r = wg_row(W, j);
        for (int q = 0; q < W->nv; q++) {
            r[q] = UINT16_MAX;
            r[W->rs + q] = 0;
        }
    } else {
        uint32_t *r = wg_row(W, j);
        for (int q = 0; q < W->nb; q++) {
            r[q] = UINT32_MAX;
            r[W->nb + q] = 0;
        }
    }
}

static void wg_add_class(struct wgroups *W, long j, const uint32_t *v)
{
    if (W->i16) {
        uint16_t *r = wg_row(W, j);
        for (int q = 0; q < W->nv; q++) {
            uint16_t x = (uint16_t)(v[W->var[q]] - W->off[q]);
            if (x < r[q]) r[q] = x;
            if (x > r[W->rs + q]) r[W->rs + q] = x;
        }
    } else {
        uint32_t *r = wg_row(W, j);
        for (int q = 0; q < W->nb; q++) {
            if (v[q] < r[q]) r[q] = v[q];
            if (v[q] > r[W->nb + q]) r[W->nb + q] = v[q];
        }
    }
}

/* a's bounds widened by z's: the union's */
static void wg_add_group(struct wgroups *W, long a, long z)
{
    if (W->i16) {
        uint16_t *A = wg_row(W, a);
        const uint16_t *Z = wg_row(W, z);
        for (int q = 0; q < W->nv; q++) {
            if (Z[q] < A[q]) A[q] = Z[q];
            if (Z[W->rs + q] > A[W->rs + q]) A[W->rs + q] = Z[W->rs + q];
        }
    } else {
        uint32_t *A = wg_row(W, a);
        const uint32_t *Z = wg_row(W, z);
        for (int q = 0; q < W->nb; q++) {
            if (Z[q] < A[q]) A[q] = Z[q];
            if (Z[W->nb + q] > A[W->nb + q]) A[W->nb + q] = Z[W->nb + q];
        }
    }
}

/* the gains of merging group i with each of n groups whose rows are r[] */
static void wg_gains(const struct wgroups *W, long i, const void *const *r, int n, double *g)
{
    if (W->i16) {
        dh__rg_gains_i16(W->c16, W->rs, W->k, W->scale, wg_row(W, i),
                         (const uint16_t *const *)r, n, g);
        return;
    }
    const uint32_t *mn[DH_RG_WINDOW], *mx[DH_RG_WINDOW], *mi = wg_row(W, i);
    for (int q = 0; q < n; q++) {
        mn[q] = r[q];
        mx[q] = mn[q] + W->nb;
    }
    dh__rg_gains_fast(W->cost, W->nb, mi, mi + W->nb, mn, mx, n, g);
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

static int wg_best_push(struct wgroups *W, long i, struct heap *h)
{
    double bg;
    int best = wg_best(W, i, &bg);
    W->bestg[i] = bg;
    if (best < 0)
        return 0;
    struct hent e = {bg, i, best, W->st[i].ver, W->st[best].ver};
    return heap_push(h, e);
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
    long pre = -1;          /* the group whose search was last prefetched */
    while (h.n) {
        struct hent e = heap_pop(&h);
        long a = e.i, z = e.j;
        if (h.n && h.p[0].i != pre) {
            pre = h.p[0].i;
            __builtin_prefetch(W.st + h.p[0].j);
            wg_prefetch(&W, h.p[0].i);
            for (long q = 1; q < 3 && q < h.n; q++) {
                __builtin_prefetch(W.st + h.p[q].i);
                __builtin_prefetch(W.st + h.p[q].j);
            }
        }
        if (!W.st[a].size)
            continue;
        if (!W.st[z].size || e.vi != W.st[a].ver || e.vj != W.st[z].ver) {
            if ((rc = wg_best_push(&W, a, &h)))
                goto out;
            continue;
        }
        /* z's runs after a's */
        W.rnext[W.tail[a]] = W.head[z];
        W.tail[a] = W.tail[z];
        W.st[a].size += W.st[z].size;
        W.st[z].size = 0;
        aset_drop(&W.alive, z);
        W.st[z].ver++;
        int emitted = W.st[a].size >= (uint32_t)group;
        if (emitted && (rc = wg_emit_first(&W, a, group, out)))
            goto out;
        W.st[a].ver++;
        if (!W.st[a].size) {
            aset_drop(&W.alive, a);
        } else {
            if (emitted) {                  /* members left: bounds anew */
                wg_reset(&W, a);
                for (int r = W.head[a]; r >= 0; r = W.rnext[r])
                    wg_add_class(&W, a, c->vec[W.rcls[r]]);
            } else {                        /* the union's: the same values */
                wg_add_group(&W, a, z);
            }
            if ((rc = wg_best_push(&W, a, &h)))
                goto out;
            /* groups before a: a changed; an entry that pointed at a or
             * z is stale and is searched again when it comes up */
            int who[DH_RG_WINDOW];
            double gs[DH_RG_WINDOW];
            int nw = wg_window(&W, a, 0, who, gs);
            for (int k = 0; k < nw; k++) {
                long p = who[k];
                double g = gs[k];
                if (g > W.bestg[p]) {
                    W.bestg[p] = g;
                    struct hent x = {g, p, a, W.st[p].ver, W.st[a].ver};
                    if ((rc = heap_push(&h, x)))
                        goto out;
                }
            }
        }
    }
    for (long i = 0; i < m; i++)            /* what never merged, in order */
        if (W.st[i].size)
            for (int r = W.head[i]; r >= 0; r = W.rnext[r])
                if ((rc = dh__rg_seq_push(out, W.rcls[r], W.rcnt[r])))
                    goto out;
out:
    wg_free(&W);
    free(best);
    free(h.g);
    free(h.p);
    free(lex);
    return rc;
}
