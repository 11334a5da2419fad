/* regroup_window_oracle.h — the window forms of Greedy and Greedy-Max
 * (suites/lib/regroup_window.c) and the exact Greedy (regroup.c) as they
 * were before their speed-ups, kept
 * unchanged as the oracle: the faster forms must give the same runs of
 * classes for every input (tests/test_regroup_window.c). Included by that
 * test only. */
#ifndef DH_REGROUP_WINDOW_ORACLE_H
#define DH_REGROUP_WINDOW_ORACLE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../suites/lib/regroup_common.h"

/* ---- many classes: the same algorithms over sorted neighbourhoods ----
 * With more than DH_RG_EXACT classes (gdt: nearly every item its own
 * BBV) the all-pairs searches are quadratic or worse. Candidates are then
 * limited to the DH_RG_WINDOW nearest classes in lexicographic order (and,
 * for greedymax, in latency order too): similar BBVs sort near each other.
 * Greedy keeps its best pairs in a heap with lazy invalidation. */
#define DH_RG_WINDOW 32

struct or_hent { double gain; long i, j; unsigned vi, vj; };

struct or_heap { long n, cap; struct or_hent *e; };

static int heap_push(struct or_heap *h, struct or_hent x)
{
    if (h->n == h->cap) {
        long cap = h->cap ? h->cap * 2 : 1024;
        struct or_hent *e = realloc(h->e, (size_t)cap * sizeof *e);
        if (!e)
            return -DH_E_RESOURCES;
        h->e = e;
        h->cap = cap;
    }
    long i = h->n++;
    while (i > 0 && h->e[(i - 1) / 2].gain < x.gain) {
        h->e[i] = h->e[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->e[i] = x;
    return 0;
}

static struct or_hent heap_pop(struct or_heap *h)
{
    struct or_hent top = h->e[0], x = h->e[--h->n];
    long i = 0;
    for (;;) {
        long l = 2 * i + 1, r = l + 1, m = i;
        double g = x.gain;
        if (l < h->n && h->e[l].gain > g) { m = l; g = h->e[l].gain; }
        if (r < h->n && h->e[r].gain > g) m = r;
        if (m == i)
            break;
        h->e[i] = h->e[m];
        i = m;
    }
    if (h->n)
        h->e[i] = x;
    return top;
}

/* groups are kept in lexicographic order of their first class; nx/pv link
 * the alive ones */
struct or_wgroups {
    struct ggroup *G;
    long m, *nx, *pv;
    unsigned *ver;
    double *bestg;      /* gain of each group's latest entry */
    uint32_t *bounds;   /* group j's min counts at j * 2nb, its max after them */
    int nb;
};

/* the next DH_RG_WINDOW alive groups after i (fwd) or before it, their
 * bounds and the gains of merging each with i */
static int wg_window(const struct or_wgroups *W, long i, int fwd, const double *cost, int nb,
                     long *who, double *g)
{
    const uint32_t *mn[DH_RG_WINDOW], *mx[DH_RG_WINDOW];
    int n = 0;
    size_t w = 2 * (size_t)nb;
    for (long j = fwd ? W->nx[i] : W->pv[i]; n < DH_RG_WINDOW && j >= 0;
         j = fwd ? W->nx[j] : W->pv[j]) {
        who[n] = j;
        mn[n] = W->bounds + (size_t)j * w;  /* = G[j].mn, without loading G[j] */
        mx[n] = mn[n] + nb;
        n++;
    }
    dh__rg_gains(cost, nb, W->G[i].mn, W->G[i].mx, mn, mx, n, g);
    return n;
}

static int wg_best_push(struct or_wgroups *W, long i, const double *cost, int nb, struct or_heap *h)
{
    long best = -1, who[DH_RG_WINDOW];
    double bg = -1e300, gs[DH_RG_WINDOW];
    int n = wg_window(W, i, 1, cost, nb, who, gs);
    for (int k = 0; k < n; k++)
        if (gs[k] > bg) {
            bg = gs[k];
            best = who[k];
        }
    W->bestg[i] = bg;
    if (best < 0)
        return 0;
    struct or_hent e = {bg, i, best, W->ver[i], W->ver[best]};
    return heap_push(h, e);
}

static void wg_unlink(struct or_wgroups *W, long z)
{
    if (W->pv[z] >= 0) W->nx[W->pv[z]] = W->nx[z];
    if (W->nx[z] >= 0) W->pv[W->nx[z]] = W->pv[z];
    W->G[z].alive = 0;
}

static int oracle_greedy_window(const struct dh_bbv *b, const struct classes *c, int group,
                         struct seq *out)
{
    int nb = c->nb, rc = 0;
    long *lex = dh__rg_sorted_classes(c);
    if (!lex)
        return -DH_E_RESOURCES;
    long m = 0;
    for (long q = 0; q < c->n; q++) {
        long k = lex[q];
        if ((rc = dh__rg_seq_push(out, k, c->count[k] / group * group)))
            goto out0;
        if (c->count[k] % group)
            m++;
    }
    struct or_wgroups W = {0};
    struct or_heap h = {0};
    uint32_t *bounds = NULL;
    W.m = m;
    W.G = calloc((size_t)m + 1, sizeof *W.G);
    W.nx = malloc(((size_t)m + 1) * sizeof *W.nx);
    W.pv = malloc(((size_t)m + 1) * sizeof *W.pv);
    W.ver = calloc((size_t)m + 1, sizeof *W.ver);
    W.bestg = malloc(((size_t)m + 1) * sizeof *W.bestg);
    bounds = malloc(((size_t)m + 1) * 2 * nb * sizeof *bounds);
    W.bounds = bounds;
    W.nb = nb;
    if (!W.G || !W.nx || !W.pv || !W.ver || !W.bestg || !bounds) {
        rc = -DH_E_RESOURCES;
        goto out;
    }
    long i = 0;
    for (long q = 0; q < c->n; q++) {
        long k = lex[q], r = c->count[k] % group;
        if (!r)
            continue;
        W.G[i].alive = 1;
        W.G[i].size = r;
        W.G[i].mn = bounds + (size_t)i * 2 * nb;
        W.G[i].mx = W.G[i].mn + nb;
        if ((rc = dh__rg_seq_push(&W.G[i].mem, k, r)))
            goto out;
        dh__rg_gg_bounds(&W.G[i], c);
        W.nx[i] = i + 1 < m ? i + 1 : -1;
        W.pv[i] = i - 1;
        i++;
    }
    for (i = 0; i < m; i++)
        if ((rc = wg_best_push(&W, i, b->block_cost, nb, &h)))
            goto out;
    while (h.n) {
        struct or_hent e = heap_pop(&h);
        long a = e.i, z = e.j;
        if (!W.G[a].alive)
            continue;
        if (!W.G[z].alive || e.vi != W.ver[a] || e.vj != W.ver[z]) {
            if ((rc = wg_best_push(&W, a, b->block_cost, nb, &h)))
                goto out;
            continue;
        }
        struct ggroup *A = &W.G[a], *Z = &W.G[z];
        for (long r = 0; r < Z->mem.n; r++)
            if ((rc = dh__rg_seq_push(&A->mem, Z->mem.cls[r], Z->mem.cnt[r])))
                goto out;
        A->size += Z->size;
        wg_unlink(&W, z);
        W.ver[z]++;
        free(Z->mem.cls); free(Z->mem.cnt);
        memset(&Z->mem, 0, sizeof Z->mem);
        if (A->size >= group && (rc = dh__rg_emit_first(A, group, out)))
            goto out;
        W.ver[a]++;
        if (!A->size) {
            wg_unlink(&W, a);
        } else {
            dh__rg_gg_bounds(A, c);
            if ((rc = wg_best_push(&W, a, b->block_cost, nb, &h)))
                goto out;
        }
        /* groups before a: a changed; an entry that pointed at a or z is
         * stale and is searched again when it comes up */
        if (A->size) {
            long who[DH_RG_WINDOW];
            double gs[DH_RG_WINDOW];
            int nw = wg_window(&W, a, 0, b->block_cost, nb, who, gs);
            for (int k = 0; k < nw; k++) {
                long p = who[k];
                double g = gs[k];
                if (g > W.bestg[p]) {
                    W.bestg[p] = g;
                    struct or_hent x = {g, p, a, W.ver[p], W.ver[a]};
                    if ((rc = heap_push(&h, x)))
                        goto out;
                }
            }
        }
    }
    for (i = 0; i < m; i++)               /* what never merged, in order */
        if (W.G[i].alive)
            for (long r = 0; r < W.G[i].mem.n; r++)
                if ((rc = dh__rg_seq_push(out, W.G[i].mem.cls[r], W.G[i].mem.cnt[r])))
                    goto out;
out:
    if (W.G)
        for (i = 0; i < m; i++) {
            free(W.G[i].mem.cls);
            free(W.G[i].mem.cnt);
        }
    free(W.G); free(W.nx); free(W.pv); free(W.ver); free(W.bestg); free(bounds); free(h.e);
out0:
    free(lex);
    return rc;
}

/* greedymax over neighbourhoods: the seed is the costliest class left; a
 * group grows by the class of largest gain among the DH_RG_WINDOW nearest
 * classes with items left, in lexicographic and in latency order, around
 * the class added last */
struct or_olist { long *nx, *pv, *pos, *ord; uint32_t *vec; };

/* the classes in order ord, their vectors copied in that order (a scan
 * along the list then reads memory in sequence, not all over the table) */
static int olist_init(struct or_olist *o, long *ord, const struct classes *c)
{
    long n = c->n;
    int nb = c->nb;
    o->ord = ord;
    o->nx = malloc((size_t)n * sizeof *o->nx);
    o->pv = malloc((size_t)n * sizeof *o->pv);
    o->pos = malloc((size_t)n * sizeof *o->pos);
    o->vec = malloc((size_t)n * (size_t)nb * sizeof *o->vec);
    if (!o->nx || !o->pv || !o->pos || !o->vec)
        return -DH_E_RESOURCES;
    for (long q = 0; q < n; q++) {
        o->pos[ord[q]] = q;
        o->nx[q] = q + 1 < n ? q + 1 : -1;
        o->pv[q] = q - 1;
        memcpy(o->vec + (size_t)q * (size_t)nb, c->vec[ord[q]], (size_t)nb * sizeof *o->vec);
    }
    return 0;
}

static void olist_drop(struct or_olist *o, long k)
{
    long q = o->pos[k];
    if (o->pv[q] >= 0) o->nx[o->pv[q]] = o->nx[q];
    if (o->nx[q] >= 0) o->pv[o->nx[q]] = o->pv[q];
}

static void olist_free(struct or_olist *o)
{
    free(o->nx); free(o->pv); free(o->pos); free(o->ord); free(o->vec);
}

static void scan_side(const struct or_olist *o, long q, int fwd, const long *left,
                      const struct dh_bbv *b, const struct classes *c, const uint32_t *mn,
                      const uint32_t *mx, long *best, double *bg)
{
    long p = fwd ? o->nx[q] : o->pv[q];
    for (int k = 0; k < DH_RG_WINDOW && p >= 0; k++, p = fwd ? o->nx[p] : o->pv[p]) {
        long j = o->ord[p];
        if (!left[j])
            continue;
        const uint32_t *v = o->vec + (size_t)p * (size_t)c->nb;
        double g = dh__rg_gain_mm(b->block_cost, c->nb, mn, mx, v, v);
        if (g > *bg) {
            *bg = g;
            *best = j;
        }
    }
}

static int oracle_greedymax_window(const struct dh_bbv *b, const struct classes *c, int group,
                            struct seq *out)
{
    int nb = c->nb, rc = 0;
    struct or_olist L = {0}, X = {0};
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
            room -= t;
            if (!room)
                break;
            long best = -1;
            double bg = -1e300;
            scan_side(&X, X.pos[k], 1, left, b, c, mn, mx, &best, &bg);
            scan_side(&X, X.pos[k], 0, left, b, c, mn, mx, &best, &bg);
            scan_side(&L, L.pos[k], 1, left, b, c, mn, mx, &best, &bg);
            scan_side(&L, L.pos[k], 0, left, b, c, mn, mx, &best, &bg);
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

/* ---- the exact Greedy (regroup.c, Algorithm 1), as it was ---- */

static void or_gg_best(struct ggroup *G, long m, long i, const double *cost, int nb)
{
    G[i].best = -1;
    G[i].best_gain = -1e300;
    for (long j = 0; j < m; j++) {
        if (j == i || !G[j].alive)
            continue;
        double g = dh__rg_gain_mm(cost, nb, G[i].mn, G[i].mx, G[j].mn, G[j].mx);
        if (g > G[i].best_gain) {
            G[i].best_gain = g;
            G[i].best = j;
        }
    }
}

static int oracle_greedy_exact(const struct dh_bbv *b, const struct classes *c, int group, struct seq *out)
{
    int nb = c->nb, rc = 0;
    long m = 0;
    /* identical items first: a class fills whole groups by itself */
    for (long k = 0; k < c->n; k++) {
        long full = c->count[k] / group * group;
        if ((rc = dh__rg_seq_push(out, k, full)))
            return rc;
        if (c->count[k] % group)
            m++;
    }
    if (m == 0)
        return 0;
    /* the remainders start as one group each; a merge leaves at most one
     * new group, so m groups are ever needed */
    struct ggroup *G = calloc((size_t)m, sizeof *G);
    uint32_t *bounds = malloc((size_t)m * 2 * nb * sizeof *bounds);
    if (!G || !bounds) {
        free(G); free(bounds);
        return -DH_E_RESOURCES;
    }
    long i = 0;
    for (long k = 0; k < c->n; k++) {
        long r = c->count[k] % group;
        if (!r)
            continue;
        G[i].alive = 1;
        G[i].size = r;
        G[i].mn = bounds + (size_t)i * 2 * nb;
        G[i].mx = G[i].mn + nb;
        if ((rc = dh__rg_seq_push(&G[i].mem, k, r)))
            goto out;
        dh__rg_gg_bounds(&G[i], c);
        i++;
    }
    for (i = 0; i < m; i++)
        or_gg_best(G, m, i, b->block_cost, nb);
    long alive = m;
    while (alive > 1) {
        long a = -1;
        for (i = 0; i < m; i++)
            if (G[i].alive && G[i].best >= 0 && (a < 0 || G[i].best_gain > G[a].best_gain))
                a = i;
        long z = G[a].best;
        /* merge z into a: a's items first, then z's */
        for (long r = 0; r < G[z].mem.n; r++)
            if ((rc = dh__rg_seq_push(&G[a].mem, G[z].mem.cls[r], G[z].mem.cnt[r])))
                goto out;
        G[a].size += G[z].size;
        G[z].alive = 0;
        free(G[z].mem.cls); free(G[z].mem.cnt);
        memset(&G[z].mem, 0, sizeof G[z].mem);
        alive--;
        if (G[a].size >= group) {
            if ((rc = dh__rg_emit_first(&G[a], group, out)))
                goto out;
            if (!G[a].size) {
                G[a].alive = 0;
                alive--;
            }
        }
        if (G[a].alive)
            dh__rg_gg_bounds(&G[a], c);
        /* refresh best partners that pointed at a or z, and a's own */
        for (i = 0; i < m; i++) {
            if (!G[i].alive)
                continue;
            if (i == a || G[i].best == a || G[i].best == z)
                or_gg_best(G, m, i, b->block_cost, nb);
            else if (G[a].alive) {
                double g = dh__rg_gain_mm(b->block_cost, nb, G[i].mn, G[i].mx, G[a].mn, G[a].mx);
                if (g > G[i].best_gain) {
                    G[i].best_gain = g;
                    G[i].best = a;
                }
            }
        }
    }
    for (i = 0; i < m; i++)              /* the last, partial group */
        if (G[i].alive)
            for (long r = 0; r < G[i].mem.n; r++)
                if ((rc = dh__rg_seq_push(out, G[i].mem.cls[r], G[i].mem.cnt[r])))
                    goto out;
out:
    for (i = 0; i < m; i++) {
        free(G[i].mem.cls);
        free(G[i].mem.cnt);
    }
    free(G);
    free(bounds);
    return rc;
}

#endif
