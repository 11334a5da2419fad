/* regroup.c — Sorting, Greedy and Greedy-Max regrouping (regroup.h). */
#include "regroup.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regroup_common.h"


int dh_regroup_parse(const char *name)
{
    if (!name)
        return 0;
    if (!strcmp(name, "sort"))
        return DH_RG_SORT;
    if (!strcmp(name, "greedy"))
        return DH_RG_GREEDY;
    if (!strcmp(name, "greedymax"))
        return DH_RG_GREEDYMAX;
    return 0;
}

/* ---- classes: the distinct BBVs ---- */


static uint64_t hash_vec(const uint32_t *v, int nb)
{
    uint64_t h = 1469598103934665603ull;
    for (int b = 0; b < nb; b++) {
        h ^= v[b];
        h *= 1099511628211ull;
    }
    return h ^ (h >> 29);
}

static void classes_free(struct classes *c)
{
    free(c->vec); free(c->count); free(c->first); free(c->item_class); free(c->lat);
    memset(c, 0, sizeof *c);
}

static int classes_build(const struct dh_bbv *b, struct classes *c)
{
    long n = b->n_items;
    int nb = b->n_blocks;
    memset(c, 0, sizeof *c);
    c->nb = nb;
    size_t cap = 64;
    while (cap < (size_t)n * 2)
        cap <<= 1;
    long *slot = malloc(cap * sizeof *slot);
    c->vec = malloc((size_t)n * sizeof *c->vec);
    c->count = calloc((size_t)n, sizeof *c->count);
    c->first = malloc((size_t)n * sizeof *c->first);
    c->item_class = malloc((size_t)n * sizeof *c->item_class);
    if (!slot || !c->vec || !c->count || !c->first || !c->item_class) {
        free(slot);
        classes_free(c);
        return -DH_E_RESOURCES;
    }
    memset(slot, 0xff, cap * sizeof *slot);
    for (long i = 0; i < n; i++) {
        const uint32_t *v = b->counts + (size_t)i * nb;
        size_t h = hash_vec(v, nb) & (cap - 1);
        long k;
        while ((k = slot[h]) >= 0 && memcmp(c->vec[k], v, (size_t)nb * 4))
            h = (h + 1) & (cap - 1);
        if (k < 0) {
            k = c->n++;
            slot[h] = k;
            c->vec[k] = v;
            c->first[k] = i;
        }
        c->count[k]++;
        c->item_class[i] = k;
    }
    free(slot);
    c->lat = malloc((size_t)c->n * sizeof *c->lat);
    if (!c->lat) {
        classes_free(c);
        return -DH_E_RESOURCES;
    }
    for (long k = 0; k < c->n; k++) {
        double s = 0;
        for (int j = 0; j < nb; j++)
            s += b->block_cost[j] * c->vec[k][j];
        c->lat[k] = s;
    }
    return 0;
}

/* Items of each class in item order: members[start[k] .. start[k+1]). */
static int class_members(const struct classes *c, long n, long **start_out, long **mem_out)
{
    long *start = calloc((size_t)c->n + 1, sizeof *start);
    long *mem = malloc((size_t)n * sizeof *mem);
    if (!start || !mem) {
        free(start); free(mem);
        return -DH_E_RESOURCES;
    }
    for (long k = 0; k < c->n; k++)
        start[k + 1] = start[k] + c->count[k];
    long *fill = malloc((size_t)c->n * sizeof *fill);
    if (!fill) {
        free(start); free(mem);
        return -DH_E_RESOURCES;
    }
    memcpy(fill, start, (size_t)c->n * sizeof *fill);
    for (long i = 0; i < n; i++)
        mem[fill[c->item_class[i]]++] = i;
    free(fill);
    *start_out = start;
    *mem_out = mem;
    return 0;
}

/* ---- from runs of classes to a permutation ---- */

/* Turn runs of classes into the permutation: each class hands out its
 * members in item order. */
static int seq_emit(const struct classes *c, long n, const struct seq *s, int *perm)
{
    long *start, *mem;
    int rc = class_members(c, n, &start, &mem);
    if (rc)
        return rc;
    long j = 0;
    for (long r = 0; r < s->n; r++)
        for (long q = 0; q < s->cnt[r]; q++)
            perm[j++] = (int)mem[start[s->cls[r]]++];
    free(start);
    free(mem);
    return j == n ? 0 : -DH_E_INTERNAL;
}

/* ---- greedy (Algorithm 1) ---- */

static void gg_best(struct ggroup *G, long m, long i, const double *cost, int nb)
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

static int greedy(const struct dh_bbv *b, const struct classes *c, int group, struct seq *out)
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
        gg_best(G, m, i, b->block_cost, nb);
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
                gg_best(G, m, i, b->block_cost, nb);
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

/* ---- greedy-max (Algorithm 2) ---- */

static int greedymax(const struct dh_bbv *b, const struct classes *c, int group, struct seq *out)
{
    int nb = c->nb, rc = 0;
    long *order = malloc((size_t)c->n * sizeof *order);
    long *left = malloc((size_t)c->n * sizeof *left);
    uint32_t *mn = malloc((size_t)nb * 2 * sizeof *mn), *mx;
    if (!order || !left || !mn) {
        rc = -DH_E_RESOURCES;
        goto out;
    }
    mx = mn + nb;
    for (long k = 0; k < c->n; k++) {
        order[k] = k;
        left[k] = c->count[k];
    }
    dh__rg_sort_by_latency(c, order);
    long head = 0;          /* first class in `order` with items left */
    for (;;) {
        while (head < c->n && !left[order[head]])
            head++;
        if (head == c->n)
            break;
        /* seed: the costliest item left; identical items fill first */
        long k = order[head], room = group;
        memcpy(mn, c->vec[k], (size_t)nb * 4);
        memcpy(mx, c->vec[k], (size_t)nb * 4);
        while (room > 0) {
            long t = left[k] < room ? left[k] : room;
            if ((rc = dh__rg_seq_push(out, k, t)))
                goto out;
            left[k] -= t;
            room -= t;
            if (!room)
                break;
            /* no identical item left: the item of largest gain joins */
            long best = -1;
            double bg = -1e300;
            for (long q = head; q < c->n; q++) {
                long j = order[q];
                if (!left[j])
                    continue;
                double g = dh__rg_gain_mm(b->block_cost, nb, mn, mx, c->vec[j], c->vec[j]);
                if (g > bg) {
                    bg = g;
                    best = j;
                }
            }
            if (best < 0)
                break;
            k = best;
            for (int j = 0; j < nb; j++) {
                if (c->vec[k][j] < mn[j]) mn[j] = c->vec[k][j];
                if (c->vec[k][j] > mx[j]) mx[j] = c->vec[k][j];
            }
        }
    }
out:
    free(order);
    free(left);
    free(mn);
    return rc;
}

long dh_regroup_classes(const struct dh_bbv *b)
{
    struct classes c;
    if (classes_build(b, &c))
        return -1;
    long n = c.n;
    classes_free(&c);
    return n;
}

int dh_regroup_bbv(const struct dh_bbv *b, enum dh_regroup_alg alg, int group, int *perm,
                   struct dh_err *err)
{
    if (group < 1)
        return dh_err_set(err, DH_E_USAGE, "regroup: group=%d must be positive", group);
    struct classes c;
    if (classes_build(b, &c))
        return dh_err_set(err, DH_E_RESOURCES, "regroup: out of host memory for %ld BBVs",
                          b->n_items);
    struct seq s = {0};
    int rc = 0;
    if (alg == DH_RG_SORT) {
        long *o = dh__rg_sorted_classes(&c);
        if (!o)
            rc = -DH_E_RESOURCES;
        for (long q = 0; !rc && q < c.n; q++)
            rc = dh__rg_seq_push(&s, o[q], c.count[o[q]]);
        free(o);
    } else if (alg == DH_RG_GREEDY) {
        rc = c.n > dh__rg_exact_limit_value ? dh__rg_greedy_window(b, &c, group, &s) : greedy(b, &c, group, &s);
    } else if (alg == DH_RG_GREEDYMAX) {
        rc = c.n > dh__rg_exact_limit_value ? dh__rg_greedymax_window(b, &c, group, &s)
                               : greedymax(b, &c, group, &s);
    } else {
        rc = dh_err_set(err, DH_E_USAGE, "regroup: unknown algorithm %d", (int)alg);
    }
    if (!rc)
        rc = seq_emit(&c, b->n_items, &s, perm);
    if (rc == -DH_E_RESOURCES)
        dh_err_set(err, DH_E_RESOURCES, "regroup: out of host memory");
    else if (rc == -DH_E_INTERNAL)
        dh_err_set(err, DH_E_INTERNAL, "regroup: the permutation does not cover every item");
    free(s.cls);
    free(s.cnt);
    classes_free(&c);
    return rc;
}

int dh_regroup_check(const struct dh_case *c, const struct dh_device_info *dev, char *why,
                     size_t why_len)
{
    if (strcmp(c->variant, "cpu_tdr") || !dh_pset_find(&c->params, "group"))
        return 0;
    int grp = (int)dh_pset_num(&c->params, "group", 64);
    if (dev && dev->warp_width > 0 && grp % dev->warp_width) {
        snprintf(why, why_len, "group=%d is not a multiple of the warp width %d: groups "
                 "would share warps", grp, dev->warp_width);
        return -DH_E_CONSTRAINT;
    }
    return 0;
}

int dh_regroup_run(struct dh_exec *x, int *perm, void (*by_key)(void *ctx), void *ctx,
                   double *host_ms, struct dh_err *err)
{
    if (dh_regroup_parse(dh_pset_text(&x->c->params, "regroup", "key")))
        return dh_regroup_exec(x, perm, host_ms, err);
    double t0 = dh_now_ms();
    by_key(ctx);
    x->order = perm;
    *host_ms = dh_now_ms() - t0;
    return 0;
}

int dh_regroup_exec(struct dh_exec *x, int *perm, double *host_ms, struct dh_err *err)
{
    const char *name = dh_pset_text(&x->c->params, "regroup", "");
    int alg = dh_regroup_parse(name);
    if (!alg)
        return dh_err_set(err, DH_E_USAGE, "regroup=%s is not a BBV regrouping", name);
    if (!x->bbv)
        return dh_err_set(err, DH_E_UNSUPPORTED,
                          "regroup=%s needs the workload's basic-block vectors, and this "
                          "run has none (run without --no-model)", name);
    int group = (int)dh_pset_num(&x->c->params, "group", 64);
    double t0 = dh_now_ms();
    int rc = dh_regroup_bbv(x->bbv, (enum dh_regroup_alg)alg, group, perm, err);
    *host_ms = dh_now_ms() - t0 + x->bbv->acquire_ms;
    if (!rc)
        x->order = perm;
    return rc;
}
