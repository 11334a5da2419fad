/* strategy.c — the order in which a tuner visits configurations.
 *   exhaustive  every configuration, in enumeration order
 *   random      a seeded random permutation
 *   anneal      simulated annealing: from the start configuration, a
 *               random neighbour is accepted when faster, or with
 *               probability exp(-(t_new/t_cur - 1)/T) when slower; T cools
 *               geometrically; a neighbour already measured costs nothing;
 *               when every neighbour is known it jumps to an unmeasured one
 *   model       the order a ranking gives (model.c ranks by the BBV
 *               model's predicted time): dh_strategy_ranked
 * Each configuration is evaluated at most once. */
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "tuning.h"

static uint64_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int dh_strategy_run(enum dh_tune_mode mode, int n, const int *nb, int max_nb, int start,
                    int budget, double seconds, unsigned seed, dh_eval_fn f, void *ctx,
                    int *order)
{
    if (n <= 0)
        return 0;
    if (budget <= 0 || budget > n)
        budget = n;
    double t_end = seconds > 0 ? now_s() + seconds : 0;
    uint64_t st = 0x9e3779b97f4a7c15ULL ^ seed;
    double *ms = malloc((size_t)n * sizeof *ms);
    char *done = calloc((size_t)n, 1);
    int *perm = malloc((size_t)n * sizeof *perm);
    if (!ms || !done || !perm) {
        free(ms);
        free(done);
        free(perm);
        return 0;
    }
    for (int i = 0; i < n; i++)
        perm[i] = i;
    if (mode == DH_TUNE_RANDOM)
        for (int i = n - 1; i > 0; i--) {
            int j = (int)(rnd(&st) % (uint64_t)(i + 1));
            int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
    int k = 0;
#define EVAL(i)                                                                 \
    do {                                                                        \
        ms[i] = f(ctx, i);                                                      \
        done[i] = 1;                                                            \
        order[k++] = i;                                                         \
    } while (0)
    if (mode != DH_TUNE_ANNEAL || !nb) {
        for (int p = 0; p < n && k < budget; p++) {
            if (t_end && now_s() > t_end)
                break;
            EVAL(perm[p]);
        }
    } else {
        int cur = start >= 0 && start < n ? start : 0;
        EVAL(cur);
        double T = 0.3;
        while (k < budget && !(t_end && now_s() > t_end)) {
            int cand[64], nc = 0;
            for (int q = 0; q < max_nb && q < 64; q++)
                if (nb[cur * max_nb + q] >= 0)
                    cand[nc++] = nb[cur * max_nb + q];
            int next = -1, fresh = 0;
            for (int tries = 0; tries < 2 * nc && next < 0; tries++) {
                int c = cand[rnd(&st) % (uint64_t)nc];
                if (!done[c]) {
                    next = c;
                    fresh = 1;
                }
            }
            if (next < 0) {
                /* every neighbour known: move to the best known neighbour,
                 * or jump to a random unmeasured configuration */
                int any = -1;
                for (int c = 0; c < n; c++)
                    if (!done[c] && (any < 0 || rnd(&st) % 4 == 0))
                        any = c;
                if (any < 0)
                    break;
                next = any;
                fresh = 1;
            }
            if (fresh)
                EVAL(next);
            double a = ms[cur], b = ms[next];
            int accept = b >= 0 && (a < 0 || b < a
                         || (double)(rnd(&st) % 1000000) / 1e6 < exp(-(b / a - 1) / T));
            if (accept)
                cur = next;
            T *= 0.85;
        }
    }
#undef EVAL
    free(ms);
    free(done);
    free(perm);
    return k;
}

int dh_strategy_ranked(int n, const int *rank, int budget, double seconds, dh_eval_fn f,
                       void *ctx, int *order)
{
    if (n <= 0 || !rank)
        return 0;
    if (budget <= 0 || budget > n)
        budget = n;
    double t_end = seconds > 0 ? now_s() + seconds : 0;
    char *done = calloc((size_t)n, 1);
    if (!done)
        return 0;
    int k = 0;
    for (int p = 0; p < n && k < budget; p++) {
        int i = rank[p];
        if (i < 0 || i >= n || done[i])
            continue;               /* a bad or repeated entry: never twice */
        if (t_end && now_s() > t_end)
            break;
        done[i] = 1;
        f(ctx, i);
        order[k++] = i;
    }
    free(done);
    return k;
}
