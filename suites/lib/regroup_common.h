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
    long *item_class;       /* per item */
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

void dh__rg_gg_bounds(struct ggroup *g, const struct classes *c);
int dh__rg_emit_first(struct ggroup *g, long group, struct seq *out);

/* above this many classes the window forms run (dh_regroup_exact_limit) */
extern long dh__rg_exact_limit_value;
int dh__rg_greedy_window(const struct dh_bbv *b, const struct classes *c, int group,
                         struct seq *out);
int dh__rg_greedymax_window(const struct dh_bbv *b, const struct classes *c, int group,
                            struct seq *out);

#endif
