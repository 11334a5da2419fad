/* regroup_window.c — Greedy and Greedy-Max for workloads with many
 * distinct BBVs (regroup.h; the exact forms are in regroup.c). */
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
#define DH_RG_WINDOW 32
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

/* Groups are kept in lexicographic order of their first class; nx/pv
 * link the alive ones. A group's members are runs of (class, count) in a
 * list: run q is made for group q's class at the start (a class is in one
 * group at a time, so no run is ever made again), a merge links z's runs
 * after a's, and an emission takes runs off the head. No run list is
 * allocated or copied as groups merge. */
struct wgroups {
    long m;
    int *nx, *pv;
    unsigned *ver;
    double *bestg;      /* gain of each group's latest entry */
    uint32_t *bounds;   /* group j's min counts at j * 2nb, its max after them */
    long *size;         /* items; 0: not alive */
    int *head, *tail;   /* first and last run */
    int *rcls, *rnext;  /* per run: class, next run of its group (-1: last) */
    long *rcnt;         /* per run: items */
    int nb;
};

/* the next DH_RG_WINDOW alive groups after i (fwd) or before it, their
 * bounds and the gains of merging each with i */
static int wg_window(const struct wgroups *W, long i, int fwd, const double *cost, int nb,
                     int *who, double *g)
{
    const uint32_t *mn[DH_RG_WINDOW], *mx[DH_RG_WINDOW];
    int n = 0;
    size_t w = 2 * (size_t)nb;
    for (int j = fwd ? W->nx[i] : W->pv[i]; n < DH_RG_WINDOW && j >= 0;
         j = fwd ? W->nx[j] : W->pv[j]) {
        who[n] = j;
        mn[n] = W->bounds + (size_t)j * w;
        mx[n] = mn[n] + nb;
        /* the bounds of groups all over the table miss the cache: start
         * every candidate's loads before the first gain waits on one */
        for (size_t o = 0; o < w; o += 16)
            __builtin_prefetch(mn[n] + o);
        __builtin_prefetch(mn[n] + w - 1);
        n++;
    }
    const uint32_t *mi = W->bounds + (size_t)i * w;
    dh__rg_gains_fast(cost, nb, mi, mi + nb, mn, mx, n, g);
    return n;
}

/* i's partner of largest gain in its forward window (the first of equal
 * gains), -1 for none; its gain in *bg (-1e300 for none) */
static int wg_best(const struct wgroups *W, long i, const double *cost, int nb, double *bg)
{
    int best = -1, who[DH_RG_WINDOW];
    double gs[DH_RG_WINDOW];
    *bg = -1e300;
    int n = wg_window(W, i, 1, cost, nb, who, gs);
    for (int k = 0; k < n; k++)
        if (gs[k] > *bg) {
            *bg = gs[k];
            best = who[k];
        }
    return best;
}

static int wg_best_push(struct wgroups *W, long i, const double *cost, int nb, struct heap *h)
{
    double bg;
    int best = wg_best(W, i, cost, nb, &bg);
    W->bestg[i] = bg;
    if (best < 0)
        return 0;
    struct hent e = {bg, i, best, W->ver[i], W->ver[best]};
    return heap_push(h, e);
}

static void wg_unlink(struct wgroups *W, long z)
{
    if (W->pv[z] >= 0) W->nx[W->pv[z]] = W->nx[z];
    if (W->nx[z] >= 0) W->pv[W->nx[z]] = W->pv[z];
}

/* group a's bounds: the min and max counts of its members' classes */
static void wg_bounds(struct wgroups *W, long a, const struct classes *c)
{
    int nb = c->nb;
    uint32_t *mn = W->bounds + (size_t)a * 2 * nb, *mx = mn + nb;
    for (int q = 0; q < nb; q++) {
        mn[q] = UINT32_MAX;
        mx[q] = 0;
    }
    for (int r = W->head[a]; r >= 0; r = W->rnext[r]) {
        const uint32_t *v = c->vec[W->rcls[r]];
        for (int q = 0; q < nb; q++) {
            if (v[q] < mn[q]) mn[q] = v[q];
            if (v[q] > mx[q]) mx[q] = v[q];
        }
    }
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
    W->size[a] -= group;
    return 0;
}

static void wg_free(struct wgroups *W)
{
    free(W->nx); free(W->pv); free(W->ver); free(W->bestg); free(W->bounds); free(W->size);
    free(W->head); free(W->tail); free(W->rcls); free(W->rnext); free(W->rcnt);
}

int dh__rg_greedy_window(const struct dh_bbv *b, const struct classes *c, int group,
                         struct seq *out)
{
    int nb = c->nb, rc = 0;
    const double *cost = b->block_cost;
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
    m1 = (size_t)m + 1;
    W.m = m;
    W.nb = nb;
    W.nx = malloc(m1 * sizeof *W.nx);
    W.pv = malloc(m1 * sizeof *W.pv);
    W.ver = calloc(m1, sizeof *W.ver);
    W.bestg = malloc(m1 * sizeof *W.bestg);
    W.bounds = malloc(m1 * 2 * (size_t)nb * sizeof *W.bounds);
    W.size = malloc(m1 * sizeof *W.size);
    W.head = malloc(m1 * sizeof *W.head);
    W.tail = malloc(m1 * sizeof *W.tail);
    W.rnext = malloc(m1 * sizeof *W.rnext);
    W.rcnt = malloc(m1 * sizeof *W.rcnt);
    best = malloc(m1 * sizeof *best);
    /* every group pushes one entry first; about as many more come */
    h.cap = 2 * (long)m1;
    h.g = malloc((size_t)h.cap * sizeof *h.g);
    h.p = malloc((size_t)h.cap * sizeof *h.p);
    if (!W.nx || !W.pv || !W.ver || !W.bestg || !W.bounds || !W.size || !W.head || !W.tail ||
        !W.rnext || !W.rcnt || !best || !h.g || !h.p) {
        rc = -DH_E_RESOURCES;
        goto out;
    }
    /* the groups, then each one's best partner, on the threads; the
     * entries pushed after, in group order, as one by one */
    int nt = dh_regroup_threads(m);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
#pragma omp for schedule(static)
        for (long i = 0; i < m; i++) {
            int k = W.rcls[i];
            W.size[i] = c->count[k] % group;
            W.head[i] = W.tail[i] = (int)i;
            W.rnext[i] = -1;
            W.rcnt[i] = W.size[i];
            uint32_t *mn = W.bounds + (size_t)i * 2 * nb;
            memcpy(mn, c->vec[k], (size_t)nb * sizeof *mn);
            memcpy(mn + nb, c->vec[k], (size_t)nb * sizeof *mn);
            W.nx[i] = i + 1 < m ? (int)i + 1 : -1;
            W.pv[i] = (int)i - 1;
        }
#pragma omp for schedule(dynamic, 1024)
        for (long i = 0; i < m; i++)
            best[i] = wg_best(&W, i, cost, nb, &W.bestg[i]);
    }
    for (long i = 0; i < m; i++)
        if (best[i] >= 0 && (rc = heap_push(&h, (struct hent){W.bestg[i], i, best[i], 0, 0})))
            goto out;
    while (h.n) {
        struct hent e = heap_pop(&h);
        long a = e.i, z = e.j;
        if (!W.size[a])
            continue;
        if (!W.size[z] || e.vi != W.ver[a] || e.vj != W.ver[z]) {
            if ((rc = wg_best_push(&W, a, cost, nb, &h)))
                goto out;
            continue;
        }
        /* z's runs after a's */
        W.rnext[W.tail[a]] = W.head[z];
        W.tail[a] = W.tail[z];
        W.size[a] += W.size[z];
        W.size[z] = 0;
        wg_unlink(&W, z);
        W.ver[z]++;
        int emitted = W.size[a] >= group;
        if (emitted && (rc = wg_emit_first(&W, a, group, out)))
            goto out;
        W.ver[a]++;
        if (!W.size[a]) {
            wg_unlink(&W, a);
        } else {
            if (emitted)                    /* members left: bounds anew */
                wg_bounds(&W, a, c);
            else {                          /* the union's: the same values */
                uint32_t *A = W.bounds + (size_t)a * 2 * nb;
                const uint32_t *Z = W.bounds + (size_t)z * 2 * nb;
                for (int q = 0; q < nb; q++) {
                    if (Z[q] < A[q]) A[q] = Z[q];
                    if (Z[nb + q] > A[nb + q]) A[nb + q] = Z[nb + q];
                }
            }
            if ((rc = wg_best_push(&W, a, cost, nb, &h)))
                goto out;
            /* groups before a: a changed; an entry that pointed at a or
             * z is stale and is searched again when it comes up */
            int who[DH_RG_WINDOW];
            double gs[DH_RG_WINDOW];
            int nw = wg_window(&W, a, 0, cost, nb, who, gs);
            for (int k = 0; k < nw; k++) {
                long p = who[k];
                double g = gs[k];
                if (g > W.bestg[p]) {
                    W.bestg[p] = g;
                    struct hent x = {g, p, a, W.ver[p], W.ver[a]};
                    if ((rc = heap_push(&h, x)))
                        goto out;
                }
            }
        }
    }
    for (long i = 0; i < m; i++)            /* what never merged, in order */
        if (W.size[i])
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

/* greedymax over neighbourhoods: the seed is the costliest class left; a
 * group grows by the class of largest gain among the DH_RG_WINDOW nearest
 * classes with items left, in lexicographic and in latency order, around
 * the class added last */
struct olist {
    long *nx, *pv, *pos, *ord;
    uint32_t *vec;
    char *has;      /* per position: the class has items left (a scan reads
                     * it in sequence; left[] by class is all over memory) */
};

/* the classes in order ord, their vectors copied in that order (a scan
 * along the list then reads memory in sequence, not all over the table) */
static int olist_init(struct olist *o, long *ord, const struct classes *c)
{
    long n = c->n;
    int nb = c->nb;
    o->ord = ord;
    o->nx = malloc((size_t)n * sizeof *o->nx);
    o->pv = malloc((size_t)n * sizeof *o->pv);
    o->pos = malloc((size_t)n * sizeof *o->pos);
    o->vec = malloc((size_t)n * (size_t)nb * sizeof *o->vec);
    o->has = malloc((size_t)(n ? n : 1));
    if (!o->nx || !o->pv || !o->pos || !o->vec || !o->has)
        return -DH_E_RESOURCES;
    for (long q = 0; q < n; q++) {
        o->pos[ord[q]] = q;
        o->nx[q] = q + 1 < n ? q + 1 : -1;
        o->pv[q] = q - 1;
        o->has[q] = c->count[ord[q]] > 0;
        memcpy(o->vec + (size_t)q * (size_t)nb, c->vec[ord[q]], (size_t)nb * sizeof *o->vec);
    }
    return 0;
}

static void olist_drop(struct olist *o, long k)
{
    long q = o->pos[k];
    if (o->pv[q] >= 0) o->nx[o->pv[q]] = o->nx[q];
    if (o->nx[q] >= 0) o->pv[o->nx[q]] = o->pv[q];
}

static void olist_free(struct olist *o)
{
    free(o->nx); free(o->pv); free(o->pos); free(o->ord); free(o->vec); free(o->has);
}

/* the DH_RG_WINDOW classes after (fwd) or before position q of o, those
 * with items left as candidates: their gains are computed four at a time
 * (dh__rg_gains_fast, bit for bit dh__rg_gain_mm's), then taken in walk order,
 * so the first of equal gains wins as in a one-by-one scan */
static void scan_side(const struct olist *o, long q, int fwd,
                      const struct dh_bbv *b, const struct classes *c, const uint32_t *mn,
                      const uint32_t *mx, long *best, double *bg)
{
    const uint32_t *v[DH_RG_WINDOW] = {0};
    long who[DH_RG_WINDOW];
    double g[DH_RG_WINDOW];
    int n = 0;
    long p = fwd ? o->nx[q] : o->pv[q];
    for (int k = 0; k < DH_RG_WINDOW && p >= 0; k++, p = fwd ? o->nx[p] : o->pv[p]) {
        if (!o->has[p])
            continue;
        who[n] = o->ord[p];
        v[n++] = o->vec + (size_t)p * (size_t)c->nb;
    }
    dh__rg_gains_fast(b->block_cost, c->nb, mn, mx, v, v, n, g);
    for (int k = 0; k < n; k++)
        if (g[k] > *bg) {
            *bg = g[k];
            *best = who[k];
        }
}

int dh__rg_greedymax_window(const struct dh_bbv *b, const struct classes *c, int group,
                            struct seq *out)
{
    int nb = c->nb, rc = 0;
    struct olist L = {0}, X = {0};
    long *left = malloc((size_t)c->n * sizeof *left);
    char *gone = calloc((size_t)c->n, 1);
    uint32_t *mn = malloc((size_t)nb * 2 * sizeof *mn), *mx;
    long *lat = malloc((size_t)c->n * sizeof *lat);
    long *lex = dh__rg_sorted_classes(c);
    if (!left || !gone || !mn || !lat || !lex) {
        free(lat); free(lex);
        rc = -DH_E_RESOURCES;
        goto out;
    }
    mx = mn + nb;
    for (long k = 0; k < c->n; k++) {
        lat[k] = k;
        left[k] = c->count[k];
    }
    dh__rg_sort_by_latency(c, lat);
    if ((rc = olist_init(&L, lat, c)) || (rc = olist_init(&X, lex, c)))
        goto out;
    long head = 0;          /* position in L of the costliest class left */
    for (;;) {
        while (head >= 0 && !left[L.ord[head]])
            head = L.nx[head];
        if (head < 0)
            break;
        long k = L.ord[head], room = group;
        memcpy(mn, c->vec[k], (size_t)nb * 4);
        memcpy(mx, c->vec[k], (size_t)nb * 4);
        for (;;) {
            long t = left[k] < room ? left[k] : room;
            if ((rc = dh__rg_seq_push(out, k, t)))
                goto out;
            left[k] -= t;
            if (!left[k])
                L.has[L.pos[k]] = X.has[X.pos[k]] = 0;
            room -= t;
            if (!room)
                break;
            long best = -1;
            double bg = -1e300;
            scan_side(&X, X.pos[k], 1, b, c, mn, mx, &best, &bg);
            scan_side(&X, X.pos[k], 0, b, c, mn, mx, &best, &bg);
            scan_side(&L, L.pos[k], 1, b, c, mn, mx, &best, &bg);
            scan_side(&L, L.pos[k], 0, b, c, mn, mx, &best, &bg);
            if (!left[k] && !gone[k]) {     /* searched around; now unlink */
                if (L.ord[head] == k)
                    head = L.nx[head];
                olist_drop(&L, k);
                olist_drop(&X, k);
                gone[k] = 1;
            }
            if (best < 0) {
                /* nothing left near: the costliest class left fills on */
                while (head >= 0 && !left[L.ord[head]])
                    head = L.nx[head];
                if (head < 0)
                    break;
                best = L.ord[head];
            }
            k = best;
            for (int j = 0; j < nb; j++) {
                if (c->vec[k][j] < mn[j]) mn[j] = c->vec[k][j];
                if (c->vec[k][j] > mx[j]) mx[j] = c->vec[k][j];
            }
        }
        if (!left[k] && !gone[k]) {
            if (head >= 0 && L.ord[head] == k)
                head = L.nx[head];
            olist_drop(&L, k);
            olist_drop(&X, k);
            gone[k] = 1;
        }
    }
out:
    olist_free(&L);
    olist_free(&X);
    free(gone);
    free(left);
    free(mn);
    return rc;
}
