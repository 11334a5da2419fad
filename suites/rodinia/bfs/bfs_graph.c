/* bfs_graph.c — the graphs of rodinia/bfs, the reference BFS and the
 * relabelling (bfs_graph.h). */
#include "bfs_graph.h"

#include <stdlib.h>
#include <string.h>

#include <omp.h>

/* splitmix64 of a counter: each node (rodinia) or edge (rmat) draws from
 * its own stream, the same at any thread count */
static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t draw(uint64_t seed, uint64_t ctr)
{
    return mix(seed ^ (ctr * 0xd1342543de82ef95ULL));
}

static int below(uint64_t r, long n)            /* uniform in [0, n), n <= 2^31 */
{
    return (int)(((r >> 32) * (uint64_t)n) >> 32);
}

/* CSR of the symmetrised pairs (u[e], v[e]); pairs with v < 0 are none.
 * Each thread owns a range of nodes and reads every pair for them, so a
 * list holds its entries in pair order with no atomics: the graph is the
 * same at any thread count. */
static int build(struct bf_graph *g, long n, long np, const int *u, const int *v)
{
    int *cur = calloc((size_t)n + 1, sizeof *cur);
    g->off = malloc(((size_t)n + 1) * sizeof *g->off);
    g->adj = NULL;
    if (!cur || !g->off) {
        free(cur);
        return -1;
    }
    int fail = 0;
#pragma omp parallel
    {
        int nt = omp_get_num_threads(), t = omp_get_thread_num();
        long lo = n * t / nt, hi = n * (t + 1) / nt;
        for (long e = 0; e < np; e++) {
            if (v[e] < 0)
                continue;
            if (u[e] >= lo && u[e] < hi)
                cur[u[e]]++;
            if (v[e] >= lo && v[e] < hi)
                cur[v[e]]++;
        }
#pragma omp barrier
#pragma omp single
        {
            g->off[0] = 0;
            for (long i = 0; i < n; i++) {
                g->off[i + 1] = g->off[i] + cur[i];
                cur[i] = g->off[i];
            }
            g->n = n;
            g->m = g->off[n];
            fail = !(g->adj = malloc((size_t)(g->m ? g->m : 1) * sizeof *g->adj));
        }
        for (long e = 0; e < np && !fail; e++) {
            if (v[e] < 0)
                continue;
            if (u[e] >= lo && u[e] < hi)
                g->adj[cur[u[e]]++] = v[e];
            if (v[e] >= lo && v[e] < hi)
                g->adj[cur[v[e]]++] = u[e];
        }
    }
    free(cur);
    return fail ? -1 : 0;
}

int bf_make(struct bf_graph *g, long n, int rmat, int ef, uint64_t seed)
{
    memset(g, 0, sizeof *g);
    long np = rmat ? (long)ef * n : 4 * n;
    int *u = malloc((size_t)np * sizeof *u), *v = malloc((size_t)np * sizeof *v);
    if (!u || !v) {
        free(u);
        free(v);
        return -1;
    }
    if (rmat) {
        /* edge e: one quadrant per bit from the top, 16 random bits each */
        int scale = 0;
        while ((1L << scale) < n)
            scale++;
        const uint32_t ta = 37356, tb = 49807, tc = 62259;   /* 0.57, 0.76, 0.95 of 2^16 */
#pragma omp parallel for schedule(static)
        for (long e = 0; e < np; e++) {
            uint64_t r = 0;
            int x = 0, y = 0;
            for (int b = 0; b < scale; b++) {
                if (b % 4 == 0)
                    r = draw(seed, (uint64_t)e * 8 + (uint64_t)(b / 4));
                uint32_t q = (uint32_t)(r >> (16 * (b % 4))) & 0xffffu;
                x = 2 * x + (q >= tb);
                y = 2 * y + ((q >= ta && q < tb) || q >= tc);
            }
            u[e] = x;
            v[e] = y;
        }
    } else {
        /* node i: 2-4 edges to uniform random nodes (slots 4i .. 4i + 3) */
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) {
            int k = 2 + (int)(draw(seed, 5 * (uint64_t)i) % 3);
            for (int j = 0; j < 4; j++) {
                u[4 * i + j] = (int)i;
                v[4 * i + j] = j < k ? below(draw(seed, 5 * (uint64_t)i + 1 + (uint64_t)j), n) : -1;
            }
        }
    }
    int rc = build(g, n, np, u, v);
    free(u);
    free(v);
    if (rc)
        bf_free(g);
    return rc;
}

void bf_free(struct bf_graph *g)
{
    free(g->off);
    free(g->adj);
    memset(g, 0, sizeof *g);
}

int bf_levels(const struct bf_graph *g, int src, int *cost)
{
    int *queue = malloc((size_t)g->n * sizeof *queue);
    if (!queue)
        return -1;
    for (long i = 0; i < g->n; i++)
        cost[i] = -1;
    long head = 0, tail = 0;
    int deepest = 0;
    cost[src] = 0;
    queue[tail++] = src;
    while (head < tail) {
        int x = queue[head++];
        for (int e = g->off[x]; e < g->off[x + 1]; e++) {
            int y = g->adj[e];
            if (cost[y] < 0) {
                cost[y] = cost[x] + 1;
                deepest = cost[y];
                queue[tail++] = y;
            }
        }
    }
    free(queue);
    return deepest;
}

void bf_relabel_off(const struct bf_graph *g, const int *perm, int *noff)
{
    noff[0] = 0;
    for (long j = 0; j < g->n; j++)
        noff[j + 1] = noff[j] + (g->off[perm[j] + 1] - g->off[perm[j]]);
}

void bf_relabel_adj(const struct bf_graph *g, const int *perm, const int *noff, int *inv,
                    int *nadj)
{
#pragma omp parallel for schedule(static)
    for (long j = 0; j < g->n; j++)
        inv[perm[j]] = (int)j;
#pragma omp parallel for schedule(dynamic, 1024)
    for (long j = 0; j < g->n; j++) {
        const int *a = g->adj + g->off[perm[j]];
        int *b = nadj + noff[j];
        for (int k = 0; k < noff[j + 1] - noff[j]; k++)
            b[k] = inv[a[k]];
    }
}
