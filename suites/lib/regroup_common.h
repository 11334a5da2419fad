/* regroup_common.h — what regroup.c (the exact algorithms, the API) and
 * regroup_window.c (the neighbourhood forms for many classes) share.
 * Internal to suites/lib. */
#ifndef DH_REGROUP_COMMON_H
#define DH_REGROUP_COMMON_H

#include <stdint.h>

#include "regroup.h"

/* the distinct BBVs of the items */
struct classes {
    int nb;
    long n;                 /* classes */
    const uint32_t **vec;   /* a member's counters */
    long *count;            /* members */
    long *first;            /* first member in item order */
    int *item_class;        /* per item */
    double *lat;            /* eq. 11: sum of block cost x count */
};

/* an output sequence of (class, count) runs */
struct seq {
    long n, cap;
    long *cls, *cnt;
};

/* a group being formed: its members as runs, min/max counts per block */
struct ggroup {
    int alive;
    long size;
    uint32_t *mn, *mx;
    struct seq mem;         /* (class, count) runs */
    long best;              /* partner of largest gain, -1 none */
    double best_gain;
};

/* threads for n pieces of work, at least grain pieces a thread (at most
 * omp_get_max_threads()); dh_regroup_threads is grain 32K, for work of a
 * few operations an item */
int dh__rg_threads_for(long n, long grain);

int dh__rg_seq_push(struct seq *s, long cls, long cnt);
long *dh__rg_sorted_classes(const struct classes *c);      /* lexicographic */
void dh__rg_sort_by_latency(const struct classes *c, long *order);  /* costliest first */
/* gain (eq. 8-10) of merging two groups, given their min/max counts: the
 * inner loop of every search, so inline */
static inline double dh__rg_gain_mm(const double *cost, int nb, const uint32_t *mn1,
                                    const uint32_t *mx1,
                                    const uint32_t *mn2, const uint32_t *mx2)
{
    double g = 0;
    for (int b = 0; b < nb; b++) {
        uint32_t lo = mn1[b] < mn2[b] ? mn1[b] : mn2[b];
        uint32_t hi = mx1[b] > mx2[b] ? mx1[b] : mx2[b];
        g += cost[b] * ((double)lo - (double)(hi - lo));
    }
    return g;
}

/* The gains of merging group 1 with each of n candidates (their bounds in
 * mn2[k], mx2[k]) into g[k]: four candidates' sums interleaved (one sum
 * is a chain of dependent adds; four chains keep the adder busy), each
 * summed in block order exactly as dh__rg_gain_mm, so bit for bit the
 * same gains. */
static inline void dh__rg_gains(const double *cost, int nb, const uint32_t *mn1,
                                const uint32_t *mx1, const uint32_t *const *mn2,
                                const uint32_t *const *mx2, int n, double *g)
{
    int k = 0;
    for (; k + 4 <= n; k += 4) {
        double g0 = 0, g1 = 0, g2 = 0, g3 = 0;
        const uint32_t *a0 = mn2[k], *a1 = mn2[k + 1], *a2 = mn2[k + 2], *a3 = mn2[k + 3];
        const uint32_t *b0 = mx2[k], *b1 = mx2[k + 1], *b2 = mx2[k + 2], *b3 = mx2[k + 3];
        for (int b = 0; b < nb; b++) {
            uint32_t l = mn1[b], h = mx1[b];
            uint32_t lo0 = l < a0[b] ? l : a0[b], hi0 = h > b0[b] ? h : b0[b];
            uint32_t lo1 = l < a1[b] ? l : a1[b], hi1 = h > b1[b] ? h : b1[b];
            uint32_t lo2 = l < a2[b] ? l : a2[b], hi2 = h > b2[b] ? h : b2[b];
            uint32_t lo3 = l < a3[b] ? l : a3[b], hi3 = h > b3[b] ? h : b3[b];
            g0 += cost[b] * ((double)lo0 - (double)(hi0 - lo0));
            g1 += cost[b] * ((double)lo1 - (double)(hi1 - lo1));
            g2 += cost[b] * ((double)lo2 - (double)(hi2 - lo2));
            g3 += cost[b] * ((double)lo3 - (double)(hi3 - lo3));
        }
        g[k] = g0;
        g[k + 1] = g1;
        g[k + 2] = g2;
        g[k + 3] = g3;
    }
    for (; k < n; k++)
        g[k] = dh__rg_gain_mm(cost, nb, mn1, mx1, mn2[k], mx2[k]);
}

/* dh__rg_gains in AVX2 where the CPU has it (chosen at run time): the same
 * gains bit for bit, several times faster */
void dh__rg_gains_fast(const double *cost, int nb, const uint32_t *mn1, const uint32_t *mx1,
                       const uint32_t *const *mn2, const uint32_t *const *mx2, int n, double *g);

/* Gains in integers, where they are exact. dh__rg_gain_mm sums
 * cost[b] x t[b] in doubles, t[b] = 2 lo - hi in [-top, 2 top] for
 * counters up to top. If every cost times 2^s (s <= 22) is an integer
 * c[b] and 2 top sum|c[b]| < 2^31, every product and every partial sum
 * is a multiple of 2^-s below 2^31 x 2^-s: exact in a double, so the
 * double sum is the integer sum S of c[b] x t[b] times 2^-s, in any
 * order and in any split, and S fits an int32. dh__rg_int_costs finds
 * c (into ci[0..nb)) and 2^-s, and says whether it holds (top < 2^30). */
int dh__rg_int_costs(const double *cost, int nb, uint32_t top, int32_t *ci, double *scale);

/* The gains of dh__rg_gains, bit for bit, where dh__rg_int_costs holds,
 * from rows of 16-bit counters: a row is rs minima then rs maxima (rs a
 * multiple of 16), each counter less a block's offset, the blocks that
 * vary (below 2^14 once offset) with their costs in c16, zeros after;
 * k is the rest of S, the same for every pair: the blocks that never
 * vary at their one value and the offsets, at their costs. */
void dh__rg_gains_i16(const int16_t *c16, int rs, int32_t k, double scale,
                      const uint16_t *r1, const uint16_t *const *r2, int n, double *g);
/* set: dh__rg_gains_i16 sums in plain C where the CPU has AVX2 too (the
 * tests compare both forms) */
extern int dh__rg_i16_plain;

void dh__rg_gg_bounds(struct ggroup *g, const struct classes *c);
int dh__rg_emit_first(struct ggroup *g, long group, struct seq *out);

/* Greedy's exact form (all pairs), for up to dh__rg_exact_limit_value
 * classes */
int dh__rg_greedy_exact(const struct dh_bbv *b, const struct classes *c, int group,
                        struct seq *out);

/* the window forms' neighbourhood: the nearest classes (or groups) a
 * search looks at, each way */
#define DH_RG_WINDOW 32

/* above this many classes the window forms run (dh_regroup_exact_limit);
 * c must be the classes of b's items (regroup.c's classes_build), as
 * Greedy's plan may read the items' counters instead of the classes' */
extern long dh__rg_exact_limit_value;
int dh__rg_greedy_window(const struct dh_bbv *b, const struct classes *c, int group,
                         struct seq *out);
int dh__rg_greedymax_window(const struct dh_bbv *b, const struct classes *c, int group,
                            struct seq *out);

#endif
