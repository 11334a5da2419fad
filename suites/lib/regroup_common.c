/* regroup_common.c — the pieces regroup.c (the exact algorithms, the API)
 * and regroup_window.c (the neighbourhood forms) share: output sequences,
 * class orders, group bounds and the emission of a finished group
 * (regroup_common.h). Internal to suites/lib. */
#include "regroup_common.h"

#include <stdint.h>
#include <stdlib.h>
#include <omp.h>

int dh_regroup_threads(long n)
{
    int t = omp_get_max_threads();
    long most = n / 32768 + 1;          /* at least 32K items a thread */
    return t < 1 ? 1 : t > most ? (int)most : t;
}

/* ---- an output sequence of (class, count) runs ---- */

int dh__rg_seq_push(struct seq *s, long cls, long cnt)
{
    if (cnt <= 0)
        return 0;
    if (s->n && s->cls[s->n - 1] == cls) {
        s->cnt[s->n - 1] += cnt;
        return 0;
    }
    if (s->n == s->cap) {
        /* small first: every group being formed has its own, and a
         * workload of distinct BBVs has a group per item */
        long cap = s->cap ? s->cap * 2 : 4;
        long *a = realloc(s->cls, (size_t)cap * sizeof *a);
        if (!a)
            return -DH_E_RESOURCES;
        s->cls = a;
        long *b2 = realloc(s->cnt, (size_t)cap * sizeof *b2);
        if (!b2)
            return -DH_E_RESOURCES;
        s->cnt = b2;
        s->cap = cap;
    }
    s->cls[s->n] = cls;
    s->cnt[s->n] = cnt;
    s->n++;
    return 0;
}

/* ---- class orders ---- */

static const struct classes *g_sort_c;
static int cmp_lex(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    for (int j = 0; j < g_sort_c->nb; j++) {
        uint32_t u = g_sort_c->vec[x][j], v = g_sort_c->vec[y][j];
        if (u != v)
            return u < v ? -1 : 1;
    }
    return 0;
}

long *dh__rg_sorted_classes(const struct classes *c)
{
    long *o = malloc((size_t)c->n * sizeof *o);
    if (!o)
        return NULL;
    for (long k = 0; k < c->n; k++)
        o[k] = k;
    g_sort_c = c;
    qsort(o, (size_t)c->n, sizeof *o, cmp_lex);
    return o;
}

static const struct classes *g_lat_c;
static int cmp_lat_desc(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    double u = g_lat_c->lat[x], v = g_lat_c->lat[y];
    if (u != v)
        return u > v ? -1 : 1;
    return g_lat_c->first[x] < g_lat_c->first[y] ? -1 : 1;
}

void dh__rg_sort_by_latency(const struct classes *c, long *order)
{
    g_lat_c = c;
    qsort(order, (size_t)c->n, sizeof *order, cmp_lat_desc);
}

/* ---- groups being formed ---- */

void dh__rg_gg_bounds(struct ggroup *g, const struct classes *c)
{
    int nb = c->nb;
    for (int b = 0; b < nb; b++) {
        g->mn[b] = UINT32_MAX;
        g->mx[b] = 0;
    }
    for (long r = 0; r < g->mem.n; r++) {
        const uint32_t *v = c->vec[g->mem.cls[r]];
        for (int b = 0; b < nb; b++) {
            if (v[b] < g->mn[b]) g->mn[b] = v[b];
            if (v[b] > g->mx[b]) g->mx[b] = v[b];
        }
    }
}

/* A merged group of `group` items or more: its first `group` items form a
 * finished group, the rest stay. */
int dh__rg_emit_first(struct ggroup *g, long group, struct seq *out)
{
    long need = group, r = 0;
    int rc;
    while (need > 0) {
        long t = g->mem.cnt[r] < need ? g->mem.cnt[r] : need;
        if ((rc = dh__rg_seq_push(out, g->mem.cls[r], t)))
            return rc;
        g->mem.cnt[r] -= t;
        need -= t;
        if (!g->mem.cnt[r])
            r++;
    }
    long w = 0;
    for (long q = r; q < g->mem.n; q++)
        if (g->mem.cnt[q]) {
            g->mem.cls[w] = g->mem.cls[q];
            g->mem.cnt[w++] = g->mem.cnt[q];
        }
    g->mem.n = w;
    g->size -= group;
    return 0;
}
