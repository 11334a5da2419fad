/* bfs_graph.h — rodinia/bfs's host side of the graph: the seeded
 * generators, the CSR build, the CPU reference BFS and the relabelling
 * cpu_tdr applies. Plain C, no kit: bfs.c declares the benchmark. */
#ifndef BF_GRAPH_H
#define BF_GRAPH_H

#include <stdint.h>

/* A graph in CSR form: node i's neighbours are adj[off[i] .. off[i + 1]),
 * each list in the order of the drawn edges; m = off[n] entries. */
struct bf_graph {
    long n, m;
    int *off;                           /* n + 1 */
    int *adj;                           /* m */
};

/* The two inputs, from counter-based streams (the graph does not depend on
 * the thread count). rodinia: node i draws 2-4 edges to uniform random
 * nodes; rmat: ef * n edges by R-MAT (a, b, c, d) = (0.57, 0.19, 0.19,
 * 0.05) over log2(n) bits (n a power of two). Both are symmetrised (every
 * drawn edge also stored reversed); duplicates and self-loops stay.
 * 0, or -1 when out of host memory. */
int bf_make(struct bf_graph *g, long n, int rmat, int ef, uint64_t seed);
void bf_free(struct bf_graph *g);

/* BFS from src: cost[i] = level of node i, -1 unreached. Returns the
 * deepest level, or -1 when out of memory. */
int bf_levels(const struct bf_graph *g, int src, int *cost);

/* The graph relabelled by perm (new node j is old node perm[j]; inv its
 * inverse): the new offsets (n + 1), or the new edge array (m entries,
 * neighbours renamed through inv, each list in its old order). noff: the
 * new offsets, as bf_relabel_off makes them. */
void bf_relabel_off(const struct bf_graph *g, const int *perm, int *noff);
void bf_relabel_adj(const struct bf_graph *g, const int *perm, const int *noff, int *inv,
                    int *nadj);

#endif
