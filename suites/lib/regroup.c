/* regroup.c — Sorting, Greedy and Greedy-Max regrouping (regroup.h). */
#include "regroup.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostwork.h"
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


/* A hash of the counters with no chain through them (NH, as in UMAC):
 * the sum of (v[2j] + k[2j]) x (v[2j+1] + k[2j+1]), 32 x 32 -> 64-bit
 * products that are all independent, over four sums, then mixed. k: per
 * block, random 32-bit keys (hash_keys). Equal vectors hash equal; a
 * collision only costs a compare. */
static uint64_t hash_vec(const uint32_t *v, const uint32_t *k, int nb)
{
    uint64_t s0 = (uint64_t)nb, s1 = 0, s2 = 0, s3 = 0;
    int b = 0;
    for (; b + 8 <= nb; b += 8) {
        s0 += (uint64_t)(uint32_t)(v[b] + k[b]) * (uint32_t)(v[b + 1] + k[b + 1]);
        s1 += (uint64_t)(uint32_t)(v[b + 2] + k[b + 2]) * (uint32_t)(v[b + 3] + k[b + 3]);
        s2 += (uint64_t)(uint32_t)(v[b + 4] + k[b + 4]) * (uint32_t)(v[b + 5] + k[b + 5]);
        s3 += (uint64_t)(uint32_t)(v[b + 6] + k[b + 6]) * (uint32_t)(v[b + 7] + k[b + 7]);
    }
    for (; b + 2 <= nb; b += 2)
        s0 += (uint64_t)(uint32_t)(v[b] + k[b]) * (uint32_t)(v[b + 1] + k[b + 1]);
    if (b < nb)
        s1 += (uint64_t)(uint32_t)(v[b] + k[b]) * (uint32_t)(k[b + 1]);
    uint64_t h = s0 ^ (s1 * 0x9e3779b97f4a7c15ull) ^ (s2 * 0xc2b2ae3d27d4eb4full)
               ^ (s3 * 0xff51afd7ed558ccdull);
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

/* hash_vec's keys for nb blocks (nb + 1: an odd count's last block pairs
 * with a key alone); fixed, so the same vectors hash the same everywhere */
static uint32_t *hash_keys(int nb)
{
    uint32_t *k = malloc(((size_t)nb + 1) * sizeof *k);
    uint64_t z = 0x2545f4914f6cdd1dull;
    for (int b = 0; k && b <= nb; b++) {
        z += 0x9e3779b97f4a7c15ull;
        uint64_t x = z;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
        k[b] = (uint32_t)((x ^ (x >> 31)) >> 16);
    }
    return k;
}

/* v and w hold the same counters */
static int same_vec(const uint32_t *v, const uint32_t *w, int nb)
{
    return !memcmp(v, w, (size_t)nb * sizeof *v);
}

static void classes_free(struct classes *c)
{
    free(c->vec); free(c->count); free(c->first); free(c->item_class); free(c->lat);
    memset(c, 0, sizeof *c);
}

/* An open-addressing table of distinct vectors that grows with them
 * (classes are few: a table sized by the items would not stay in cache). */
struct vtab {
    int nb;
    long n, cap;                /* classes, slots (a power of two) */
    long *slot;                 /* class or -1 */
    const uint32_t **vec;       /* per class */
    uint64_t *hash;             /* per class */
    long *count, *first;        /* per class */
    long vcap;
};

static void vtab_free(struct vtab *t)
{
    free(t->slot); free(t->vec); free(t->hash); free(t->count); free(t->first);
    memset(t, 0, sizeof *t);
}

static int vtab_rehash(struct vtab *t, long cap)
{
    long *slot = malloc((size_t)cap * sizeof *slot);
    if (!slot)
        return -1;
    memset(slot, 0xff, (size_t)cap * sizeof *slot);
    for (long k = 0; k < t->n; k++) {
        size_t h = t->hash[k] & (size_t)(cap - 1);
        while (slot[h] >= 0)
            h = (h + 1) & (size_t)(cap - 1);
        slot[h] = k;
    }
    free(t->slot);
    t->slot = slot;
    t->cap = cap;
    return 0;
}

/* the class of vector v (hash h), added when new with `cnt` members and
 * first member `first`; -1 when out of memory */
static long vtab_add(struct vtab *t, const uint32_t *v, uint64_t h, long cnt, long first)
{
    if (2 * (t->n + 1) > t->cap && vtab_rehash(t, t->cap ? 2 * t->cap : 1024))
        return -1;
    size_t at = h & (size_t)(t->cap - 1);
    long k;
    while ((k = t->slot[at]) >= 0 &&
           (t->hash[k] != h || !same_vec(t->vec[k], v, t->nb)))
        at = (at + 1) & (size_t)(t->cap - 1);
    if (k >= 0) {
        t->count[k] += cnt;
        return k;
    }
    if (t->n == t->vcap) {
        long vc = t->vcap ? 2 * t->vcap : 256;
        const uint32_t **nv = realloc(t->vec, (size_t)vc * sizeof *nv);
        if (nv)
            t->vec = nv;
        uint64_t *nh = realloc(t->hash, (size_t)vc * sizeof *nh);
        if (nh)
            t->hash = nh;
        long *nc = realloc(t->count, (size_t)vc * sizeof *nc);
        if (nc)
            t->count = nc;
        long *nf = realloc(t->first, (size_t)vc * sizeof *nf);
        if (nf)
            t->first = nf;
        if (!nv || !nh || !nc || !nf)
            return -1;
        t->vcap = vc;
    }
    k = t->n++;
    t->slot[at] = k;
    t->vec[k] = v;
    t->hash[k] = h;
    t->count[k] = cnt;
    t->first[k] = first;
    return k;
}

/* chunks of the items for the passes over them: DH_HW_CHUNK items each
 * (hostwork.h), handed out dynamically, at most `most` */
static long rg_chunks(long n, long most)
{
    long nc = (n + DH_HW_CHUNK - 1) / DH_HW_CHUNK;
    nc = nc > most ? most : nc;
    return nc < 1 ? 1 : nc;
}

/* chunk c of nc over n items starts here */
static inline long rg_lo(long n, long nc, long c)
{
    return c * (n / nc) + (c < n % nc ? c : n % nc);
}

/* Classes numbered in the order of their first member, as a serial scan
 * would: each chunk of the items finds its classes (any thread, in any
 * order), then the chunks' classes are merged in item order (a chunk's
 * classes in the order of their first member there), so the numbering
 * does not depend on the chunks or the thread count. */
static int classes_build(const struct dh_bbv *b, struct classes *c)
{
    long n = b->n_items;
    int nb = b->n_blocks, nt = dh_regroup_threads(n), rc = 0;
    memset(c, 0, sizeof *c);
    c->nb = nb;
    if (n > INT_MAX)
        return -DH_E_RESOURCES;
    long nc = rg_chunks(n, LONG_MAX);
    c->item_class = malloc((size_t)(n ? n : 1) * sizeof *c->item_class);
    struct vtab *loc = calloc((size_t)nc, sizeof *loc);
    long **map = calloc((size_t)nc, sizeof *map);
    uint32_t *keys = hash_keys(nb);
    if (!c->item_class || !loc || !map || !keys) {
        free(loc); free(map); free(keys);
        classes_free(c);
        return -DH_E_RESOURCES;
    }
    int failed = 0;
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) reduction(| : failed)
    for (long t = 0; t < nc; t++) {
        loc[t].nb = nb;
        for (long i = rg_lo(n, nc, t), hi = rg_lo(n, nc, t + 1); i < hi && !failed; i++) {
            const uint32_t *v = b->counts + (size_t)i * (size_t)nb;
            long k = vtab_add(&loc[t], v, hash_vec(v, keys, nb), 1, i);
            if (k < 0)
                failed = 1;
            c->item_class[i] = (int)k;
        }
        free(loc[t].slot);                  /* the merge reads the classes only */
        loc[t].slot = NULL;
    }
    free(keys);
    struct vtab g = {.nb = nb};
    for (long t = 0; t < nc && !failed; t++) {
        map[t] = malloc((size_t)(loc[t].n ? loc[t].n : 1) * sizeof **map);
        failed |= !map[t];
        for (long l = 0; l < loc[t].n && !failed; l++)
            failed |= (map[t][l] = vtab_add(&g, loc[t].vec[l], loc[t].hash[l], loc[t].count[l],
                                            loc[t].first[l])) < 0;
    }
    if (!failed) {
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
        for (long t = 0; t < nc; t++)
            for (long i = rg_lo(n, nc, t), hi = rg_lo(n, nc, t + 1); i < hi; i++)
                c->item_class[i] = (int)map[t][c->item_class[i]];
        c->n = g.n;
        c->vec = g.vec;
        c->count = g.count;
        c->first = g.first;
        g.vec = NULL;
        g.count = g.first = NULL;
        c->lat = malloc((size_t)(c->n ? c->n : 1) * sizeof *c->lat);
        failed |= !c->lat;
    }
    for (long t = 0; t < nc; t++) {
        vtab_free(&loc[t]);
        free(map[t]);
    }
    free(loc);
    free(map);
    vtab_free(&g);
    if (failed) {
        classes_free(c);
        return -DH_E_RESOURCES;
    }
    for (long k = 0; k < c->n; k++) {
        double s = 0;
        for (int j = 0; j < nb; j++)
            s += b->block_cost[j] * c->vec[k][j];
        c->lat[k] = s;
    }
    return rc;
}

/* ---- from runs of classes to a permutation ---- */

/* Turn runs of classes into the permutation: each class hands out its
 * members in item order (the r-th member of class k goes to the slot of
 * k's r-th place in the runs). The items go in chunks (any thread, in
 * any order): a chunk's members' ranks start after the earlier chunks'. */
static int seq_emit(const struct classes *c, long n, const struct seq *s, int *perm)
{
    long nc = c->n;
    int nt = dh_regroup_threads(n);
    /* chunks x classes ranks, and each chunk's walk over the runs: at most
     * about 2n + 64K of either */
    long work = nc + s->n, cap = 2 * n > 65536 ? 2 * n : 65536;
    long nch = rg_chunks(n, work > 0 && cap / work > 0 ? cap / work : 1);
    /* each class's runs, in sequence order: at[q] (output offset) and
     * upto[q] (the class's members placed through run q) */
    long *rstart = calloc((size_t)nc + 1, sizeof *rstart);
    long *at = malloc((size_t)(s->n ? s->n : 1) * sizeof *at);
    long *upto = malloc((size_t)(s->n ? s->n : 1) * sizeof *upto);
    long *base = calloc((size_t)nch * (size_t)(nc ? nc : 1), sizeof *base);
    long *fill = malloc((size_t)(nc ? nc : 1) * sizeof *fill);
    int rc = 0;
    if (!rstart || !at || !upto || !base || !fill) {
        rc = -DH_E_RESOURCES;
        goto out;
    }
    long total = 0;
    for (long r = 0; r < s->n; r++) {
        rstart[s->cls[r] + 1]++;
        total += s->cnt[r];
    }
    if (total != n) {
        rc = -DH_E_INTERNAL;
        goto out;
    }
    for (long k = 0; k < nc; k++)
        rstart[k + 1] += rstart[k];
    memcpy(fill, rstart, (size_t)nc * sizeof *fill);
    long off = 0;
    for (long r = 0; r < s->n; r++) {
        long k = s->cls[r], q = fill[k]++;
        at[q] = off;
        upto[q] = (q > rstart[k] ? upto[q - 1] : 0) + s->cnt[r];
        off += s->cnt[r];
    }
    for (long k = 0; k < nc; k++)           /* every member has its place */
        if ((rstart[k + 1] > rstart[k] ? upto[rstart[k + 1] - 1] : 0) != c->count[k]) {
            rc = -DH_E_INTERNAL;
            goto out;
        }
    /* members of each class in the chunks before chunk t; each chunk
     * counted and ranked in its thread's own arrays (rows of few classes
     * share cache lines: writing them from several threads at once is
     * false sharing on every item) */
    int oom = 0;
#pragma omp parallel num_threads(nt) reduction(| : oom)
    {
        long *mine = malloc((size_t)(nc ? nc : 1) * sizeof *mine);
        oom = !mine;
#pragma omp for schedule(dynamic, 1) nowait
        for (long t = 0; t < nch; t++) {
            if (!mine)
                continue;
            memset(mine, 0, (size_t)nc * sizeof *mine);
            for (long i = rg_lo(n, nch, t), hi = rg_lo(n, nch, t + 1); i < hi; i++)
                mine[c->item_class[i]]++;
            memcpy(base + (size_t)t * (size_t)nc, mine, (size_t)nc * sizeof *mine);
        }
        free(mine);
    }
    if (oom) {
        rc = -DH_E_RESOURCES;
        goto out;
    }
    for (long k = 0; k < nc; k++) {
        long sum = 0;
        for (long t = 0; t < nch; t++) {
            long v = base[(size_t)t * (size_t)nc + (size_t)k];
            base[(size_t)t * (size_t)nc + (size_t)k] = sum;
            sum += v;
        }
    }
#pragma omp parallel num_threads(nt) reduction(| : oom)
    {
        long *rank = malloc((size_t)(nc ? nc : 1) * sizeof *rank);
        long *cur = malloc((size_t)(nc ? nc : 1) * sizeof *cur);    /* the run reached */
        oom = !rank || !cur;
#pragma omp for schedule(dynamic, 1) nowait
        for (long t = 0; t < nch; t++) {
            if (!rank || !cur)
                continue;
            memcpy(rank, base + (size_t)t * (size_t)nc, (size_t)nc * sizeof *rank);
            for (long k = 0; k < nc; k++) {
                long q = rstart[k];
                while (q < rstart[k + 1] - 1 && upto[q] <= rank[k])
                    q++;
                cur[k] = q;
            }
            for (long i = rg_lo(n, nch, t), hi = rg_lo(n, nch, t + 1); i < hi; i++) {
                long k = c->item_class[i], r = rank[k]++, q = cur[k];
                while (upto[q] <= r)
                    q++;
                cur[k] = q;
                perm[at[q] + r - (q > rstart[k] ? upto[q - 1] : 0)] = (int)i;
            }
        }
        free(rank);
        free(cur);
    }
    if (oom)
        rc = -DH_E_RESOURCES;
out:
    free(rstart); free(at); free(upto); free(base); free(fill);
    return rc;
}

/* ---- greedy (Algorithm 1) ---- */

/* scratch for the gains of one group against many */
struct gscratch {
    long *who;
    const uint32_t **mn, **mx;
    double *g;
};

/* the gains of (mn1, mx1) with the n groups listed in x, into x->g, in
 * pieces an int counts */
static void gains_many(const double *cost, int nb, const uint32_t *mn1, const uint32_t *mx1,
                       struct gscratch *x, long n)
{
    for (long k = 0; k < n; k += 1L << 20) {
        long p = n - k < (1L << 20) ? n - k : 1L << 20;
        dh__rg_gains_fast(cost, nb, mn1, mx1, x->mn + k, x->mx + k, (int)p, x->g + k);
    }
}

/* i's partner of largest gain, the first of equal gains in index order;
 * the gains computed all at once (dh__rg_gains_fast, the same values) */
static void gg_best(struct ggroup *G, long m, long i, const double *cost, int nb,
                    struct gscratch *x)
{
    G[i].best = -1;
    G[i].best_gain = -1e300;
    long n = 0;
    for (long j = 0; j < m; j++) {
        if (j == i || !G[j].alive)
            continue;
        x->who[n] = j;
        x->mn[n] = G[j].mn;
        x->mx[n++] = G[j].mx;
    }
    gains_many(cost, nb, G[i].mn, G[i].mx, x, n);
    for (long k = 0; k < n; k++)
        if (x->g[k] > G[i].best_gain) {
            G[i].best_gain = x->g[k];
            G[i].best = x->who[k];
        }
}

int dh__rg_greedy_exact(const struct dh_bbv *b, const struct classes *c, int group,
                        struct seq *out)
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
    struct gscratch x = {
        malloc((size_t)m * sizeof *x.who), malloc((size_t)m * sizeof *x.mn),
        malloc((size_t)m * sizeof *x.mx), malloc((size_t)m * sizeof *x.g)};
    double *ga = malloc((size_t)m * sizeof *ga);     /* gain with a, by group */
    if (!G || !bounds || !x.who || !x.mn || !x.mx || !x.g || !ga) {
        free(G); free(bounds); free(x.who); free(x.mn); free(x.mx); free(x.g); free(ga);
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
        gg_best(G, m, i, b->block_cost, nb, &x);
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
        int emitted = G[a].size >= group;
        if (emitted) {
            if ((rc = dh__rg_emit_first(&G[a], group, out)))
                goto out;
            if (!G[a].size) {
                G[a].alive = 0;
                alive--;
            }
        }
        if (G[a].alive && emitted)          /* members left: bounds anew */
            dh__rg_gg_bounds(&G[a], c);
        else if (G[a].alive)                /* the union's: the same values */
            for (int q = 0; q < nb; q++) {
                if (G[z].mn[q] < G[a].mn[q]) G[a].mn[q] = G[z].mn[q];
                if (G[z].mx[q] > G[a].mx[q]) G[a].mx[q] = G[z].mx[q];
            }
        /* every group's gain with a at once (the gain is symmetric: min and
         * max per block, summed in block order) */
        if (G[a].alive) {
            long n = 0;
            for (i = 0; i < m; i++)
                if (G[i].alive && i != a) {
                    x.who[n] = i;
                    x.mn[n] = G[i].mn;
                    x.mx[n++] = G[i].mx;
                }
            gains_many(b->block_cost, nb, G[a].mn, G[a].mx, &x, n);
            for (long k = 0; k < n; k++)
                ga[x.who[k]] = x.g[k];
        }
        /* refresh best partners that pointed at a or z, and a's own */
        for (i = 0; i < m; i++) {
            if (!G[i].alive)
                continue;
            if (i == a || G[i].best == a || G[i].best == z)
                gg_best(G, m, i, b->block_cost, nb, &x);
            else if (G[a].alive) {
                double g = ga[i];
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
    free(x.who); free(x.mn); free(x.mx); free(x.g); free(ga);
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
        rc = c.n > dh__rg_exact_limit_value ? dh__rg_greedy_window(b, &c, group, &s) : dh__rg_greedy_exact(b, &c, group, &s);
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

int dh_regroup_deal(int *perm, long n, int warp, int wg)
{
    if (warp < 1 || wg < warp || wg % warp || n % wg || n / wg < 2)
        return 0;
    long groups = n / wg, wpg = wg / warp;
    int *tmp = malloc((size_t)n * sizeof *tmp);
    if (!tmp)
        return -DH_E_RESOURCES;
    int nt = dh_regroup_threads(n);
#pragma omp parallel for num_threads(nt) schedule(static)
    for (long g = 0; g < groups; g++)
        for (long j = 0; j < wpg; j++)      /* group g's j-th warp <- sorted warp j G + g */
            memcpy(tmp + (g * wpg + j) * warp, perm + (j * groups + g) * warp,
                   (size_t)warp * sizeof *tmp);
    memcpy(perm, tmp, (size_t)n * sizeof *tmp);
    free(tmp);
    return 0;
}

struct wcost {
    double c;
    long w;
};

static int wcost_desc(const void *a, const void *b)
{
    const struct wcost *x = a, *y = b;
    if (x->c != y->c)
        return x->c < y->c ? 1 : -1;
    return (x->w > y->w) - (x->w < y->w);            /* stable: the order's */
}

int dh_regroup_heavy_first(int *perm, long n, int warp, const struct dh_bbv *b)
{
    if (warp < 1 || n < 2 * (long)warp)
        return 0;
    long nw = n / warp;                               /* whole warps */
    int nb = b->n_blocks;
    struct wcost *wc = malloc((size_t)nw * sizeof *wc);
    int *tmp = malloc((size_t)nw * warp * sizeof *tmp);
    if (!wc || !tmp) {
        free(wc);
        free(tmp);
        return -DH_E_RESOURCES;
    }
    int nt = dh_regroup_threads(n);
#pragma omp parallel for num_threads(nt) schedule(static)
    for (long w = 0; w < nw; w++) {
        double c = 0;
        for (int j = 0; j < nb; j++) {
            uint32_t mx = 0;
            for (long t = w * warp; t < (w + 1) * warp; t++) {
                uint32_t v = b->counts[(size_t)perm[t] * nb + j];
                if (v > mx)
                    mx = v;
            }
            c += b->block_cost[j] * mx;
        }
        wc[w] = (struct wcost){c, w};
    }
    qsort(wc, (size_t)nw, sizeof *wc, wcost_desc);
    for (long k = 0; k < nw; k++)
        memcpy(tmp + k * warp, perm + wc[k].w * warp, (size_t)warp * sizeof *tmp);
    memcpy(perm, tmp, (size_t)nw * warp * sizeof *tmp);
    free(wc);
    free(tmp);
    return 0;
}

/* deal=1: the order's warps dealt over the work-groups; deal=2: ordered
 * costliest first, then dealt (host time) */
static int deal_if_asked(struct dh_exec *x, int *perm, long n, double *host_ms,
                         struct dh_err *err)
{
    int deal = (int)dh_pset_num(&x->c->params, "deal", 0);
    if (!deal)
        return 0;
    double t0 = dh_now_ms();
    int warp = x->info && x->info->warp_width > 0 ? x->info->warp_width : 32;
    int wg = (int)dh_pset_num(&x->c->params, "wg", 256);
    if (deal == 2) {
        if (!x->bbv)
            return dh_err_set(err, DH_E_UNSUPPORTED,
                              "deal=2 orders the warps by their modeled cost and needs the "
                              "workload's basic-block vectors, and this run has none (run "
                              "without --no-model, or use deal=1)");
        if (dh_regroup_heavy_first(perm, n, warp, x->bbv))
            return dh_err_set(err, DH_E_RESOURCES, "deal: out of host memory for %ld items",
                              n);
    }
    if (dh_regroup_deal(perm, n, warp, wg))
        return dh_err_set(err, DH_E_RESOURCES, "deal: out of host memory for %ld items", n);
    *host_ms += dh_now_ms() - t0;
    return 0;
}

int dh_regroup_run(struct dh_exec *x, int *perm, long n, void (*by_key)(void *ctx), void *ctx,
                   double *host_ms, struct dh_err *err)
{
    int rc;
    if (dh_regroup_parse(dh_pset_text(&x->c->params, "regroup", "key"))) {
        rc = dh_regroup_exec(x, perm, host_ms, err);
    } else {
        double t0 = dh_now_ms();
        by_key(ctx);
        x->order = perm;
        *host_ms = dh_now_ms() - t0;
        rc = 0;
    }
    return rc ? rc : deal_if_asked(x, perm, n, host_ms, err);
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
