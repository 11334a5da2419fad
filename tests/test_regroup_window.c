/* test_regroup_window.c — the window forms of Greedy and Greedy-Max (the
 * regroupings of workloads with many distinct BBVs, such as gdt's) and
 * Greedy's exact all-pairs form (up to 700 classes here) give exactly the
 * runs of classes their earlier, slower forms gave
 * (regroup_window_oracle.h), over random inputs: 1 to 24 blocks, a few to
 * thousands of classes, counts that leave remainders or fill groups,
 * block costs and counts drawn from few values so gains and latencies tie,
 * counts near 2^32 (the conversions to double), and groups of 32 and 64 (and 1 and 3, the edges). */
#include "testutil.h"
#include "regroup_window_oracle.h"

#include <omp.h>

static uint64_t rnd(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int g_nb;
static int cmp_vec(const void *a, const void *b)
{
    return memcmp(a, b, (size_t)g_nb * sizeof(uint32_t));
}

/* n random distinct vectors of nb counters below `top` (0: within 5 of
 * 2^32), in random order:
 * the classes of a workload, each with a count, first member and latency
 * as classes_build makes them. Fewer than n where the values run out. */
struct shape {
    struct classes c;
    uint32_t *vec;
    double *cost;
    struct dh_bbv b;
};

/* blocks whose counter is the same in every class (their bit set, blocks
 0 to 31): as gdt's entry and day blocks */
static uint32_t g_fixed;

/* costs: 0, x/7 (no power of two makes them integers: the gains in
 * doubles); 1, 0 to 2; 2, quarters up to 250; 3, integers from -300 to
 * 699; 4, integers below 100 from block 64 on, 0 before (the last four:
 * the gains in integers, where the counters allow) */
static void shape_make(struct shape *s, uint64_t *st, int nb, long n, uint32_t top, long most,
                       int few_costs)
{
    memset(s, 0, sizeof *s);
    s->vec = malloc((size_t)n * (size_t)nb * sizeof *s->vec);
    s->cost = malloc((size_t)nb * sizeof *s->cost);
    assert_non_null(s->vec);
    assert_non_null(s->cost);
    for (size_t q = 0; q < (size_t)n * (size_t)nb; q++)    /* top 0: near 2^32 */
        s->vec[q] = q % (size_t)nb < 32 && g_fixed >> (q % (size_t)nb) & 1
                    ? 400 + (uint32_t)(q % (size_t)nb)
                    : top ? (uint32_t)(rnd(st) % top) : UINT32_MAX - (uint32_t)(rnd(st) % 5);
    g_nb = nb;
    qsort(s->vec, (size_t)n, (size_t)nb * sizeof *s->vec, cmp_vec);
    long u = 0;
    for (long k = 0; k < n; k++)
        if (!u || memcmp(s->vec + (size_t)(u - 1) * nb, s->vec + (size_t)k * nb,
                         (size_t)nb * sizeof *s->vec))
            memmove(s->vec + (size_t)u++ * nb, s->vec + (size_t)k * nb,
                    (size_t)nb * sizeof *s->vec);
    for (long k = u - 1; k > 0; k--) {         /* class numbers not in lex order */
        long j = (long)(rnd(st) % (uint64_t)(k + 1));
        for (int b = 0; b < nb; b++) {
            uint32_t t = s->vec[(size_t)k * nb + b];
            s->vec[(size_t)k * nb + b] = s->vec[(size_t)j * nb + b];
            s->vec[(size_t)j * nb + b] = t;
        }
    }
    for (int b = 0; b < nb; b++)
        s->cost[b] = few_costs == 1 ? (double)(rnd(st) % 3)
                     : few_costs == 2 ? (double)(rnd(st) % 1000) / 4.0
                     : few_costs == 3 ? (double)(rnd(st) % 1000) - 300.0
                     : few_costs == 4 ? (b >= 64 ? (double)(rnd(st) % 100) : 0.0)
                     : (double)(rnd(st) % 1000) / 7.0;
    struct classes *c = &s->c;
    c->nb = nb;
    c->n = u;
    c->vec = malloc((size_t)(u ? u : 1) * sizeof *c->vec);
    c->count = malloc((size_t)(u ? u : 1) * sizeof *c->count);
    c->first = malloc((size_t)(u ? u : 1) * sizeof *c->first);
    c->lat = malloc((size_t)(u ? u : 1) * sizeof *c->lat);
    assert_true(c->vec && c->count && c->first && c->lat);
    for (long k = 0; k < u; k++) {
        c->vec[k] = s->vec + (size_t)k * nb;
        c->count[k] = 1 + (long)(rnd(st) % 4 ? rnd(st) % 3 : rnd(st) % (uint64_t)most);
        c->first[k] = k;
        double l = 0;
        for (int b = 0; b < nb; b++)
            l += s->cost[b] * c->vec[k][b];
        c->lat[k] = l;
    }
    for (long k = u - 1; k > 0; k--) {         /* first members in another order */
        long j = (long)(rnd(st) % (uint64_t)(k + 1)), t = c->first[k];
        c->first[k] = c->first[j];
        c->first[j] = t;
    }
    /* the items: one of each class (whose counters classes_build would
     * make these classes; Greedy's plan reads them) */
    s->b = (struct dh_bbv){.n_items = u, .n_blocks = nb, .counts = s->vec,
                           .block_cost = s->cost};
}

static void shape_free(struct shape *s)
{
    free(s->vec); free(s->cost);
    free(s->c.vec); free(s->c.count); free(s->c.first); free(s->c.lat);
}

static void same_runs(const struct seq *a, const struct seq *b, const char *what, long trial)
{
    if (a->n != b->n)
        fail_msg("%s, trial %ld: %ld runs, the oracle %ld", what, trial, a->n, b->n);
    for (long r = 0; r < a->n; r++)
        if (a->cls[r] != b->cls[r] || a->cnt[r] != b->cnt[r])
            fail_msg("%s, trial %ld: run %ld is (class %ld, %ld), the oracle's (class %ld, %ld)",
                     what, trial, r, a->cls[r], a->cnt[r], b->cls[r], b->cnt[r]);
}

static void check(struct shape *s, int group, long trial)
{
    struct seq got = {0}, want = {0};
    assert_int_equal(dh__rg_greedy_window(&s->b, &s->c, group, &got), 0);
    assert_int_equal(oracle_greedy_window(&s->b, &s->c, group, &want), 0);
    same_runs(&got, &want, "greedy", trial);
    free(got.cls); free(got.cnt); free(want.cls); free(want.cnt);
    memset(&got, 0, sizeof got);
    memset(&want, 0, sizeof want);
    assert_int_equal(dh__rg_greedymax_window(&s->b, &s->c, group, &got), 0);
    assert_int_equal(oracle_greedymax_window(&s->b, &s->c, group, &want), 0);
    same_runs(&got, &want, "greedymax", trial);
    free(got.cls); free(got.cnt); free(want.cls); free(want.cnt);
    if (s->c.n > 700)                       /* the all-pairs form: slow */
        return;
    memset(&got, 0, sizeof got);
    memset(&want, 0, sizeof want);
    assert_int_equal(dh__rg_greedy_exact(&s->b, &s->c, group, &got), 0);
    assert_int_equal(oracle_greedy_exact(&s->b, &s->c, group, &want), 0);
    same_runs(&got, &want, "greedy (exact)", trial);
    free(got.cls); free(got.cnt); free(want.cls); free(want.cnt);
}

/* many small random shapes: every block count, few and many classes */
static void random_shapes(void **st)
{
    (void)st;
    uint64_t seed = 0x77;
    static const int groups[] = {32, 64, 1, 3};
    for (long trial = 0; trial < 400; trial++) {
        int nb = 1 + (int)(trial % 24);
        long n = trial % 3 == 0 ? 1 + (long)(rnd(&seed) % 40)
                 : trial % 3 == 1 ? 50 + (long)(rnd(&seed) % 600) : 50 + (long)(rnd(&seed) % 1500);
        uint32_t top = trial % 5 == 4 ? 0 : trial % 2 ? 3 : 1000;
        struct shape s;
        shape_make(&s, &seed, nb, n, top, 3 * 64 + 5, (int)(trial % 4 == 1));
        check(&s, groups[trial % 8 < 6 ? trial % 2 : 2 + trial % 2], trial);
        shape_free(&s);
    }
}

/* gdt's shape: 18 blocks, thousands of classes of one item each, counts
 * spread over hundreds of values; costs of every kind (in doubles; in
 * integers on 16-bit rows, with and without blocks that never vary, and
 * ranges at 2^14 - 1, the rows' limit, and at 2^14, past it; 70 blocks) */
static void gdt_like(void **st)
{
    (void)st;
    uint64_t seed = 0x9d7;
    static const struct { uint32_t top, fixed; int costs, nb; } k[] = {
        {440, 0, 0, 18}, {16, 0, 0, 18}, {440, 0, 1, 18}, {440, 0x3f, 2, 18}, {16, 0x21, 3, 18},
        {16384, 0x2, 1, 18}, {16385, 0x2, 1, 18}, {440, 0x3ffff, 1, 18},
        {300, 0x80000005, 4, 70},   /* past the 64 blocks of one planning pass */
    };
    for (long trial = 0; trial < 2 * (long)(sizeof k / sizeof k[0]); trial++) {
        struct shape s;
        g_fixed = k[trial / 2].fixed;
        shape_make(&s, &seed, k[trial / 2].nb, 20000, k[trial / 2].top, 2, k[trial / 2].costs);
        g_fixed = 0;
        check(&s, trial % 2 ? 64 : 32, trial);
        shape_free(&s);
    }
}

/* Greedy's plan reads the items' counters where there are at most 4 items
 * a group, else the classes': both give the oracle's runs (the items
 * here: each class once, then each class 5 times) */
static void plan_paths(void **st)
{
    (void)st;
    uint64_t seed = 0x91a;
    struct shape s;
    g_fixed = 0x21;
    shape_make(&s, &seed, 18, 20000, 440, 2, 1);
    g_fixed = 0;
    long u = s.c.n;
    check(&s, 32, 0);
    uint32_t *five = malloc((size_t)u * 5 * 18 * sizeof *five);
    assert_non_null(five);
    for (long i = 0; i < 5 * u; i++)
        memcpy(five + (size_t)i * 18, s.vec + (size_t)(i % u) * 18, 18 * sizeof *five);
    s.b.counts = five;
    s.b.n_items = 5 * u;
    check(&s, 32, 1);
    s.b.counts = s.vec;
    free(five);
    shape_free(&s);
}

/* gdt's size (about 130K classes): the class sort, the groups and their
 * first best partners run on several threads above 32K classes a thread;
 * at 1 and 4 threads the same runs as the oracle's */
static void gdt_size_threads(void **st)
{
    (void)st;
    uint64_t seed = 0x6d7;
    int width = omp_get_max_threads();
    for (long trial = 0; trial < 2; trial++) {
        struct shape s;
        g_fixed = trial ? 0x3f : 0;         /* the second: as hostbench's gdt */
        shape_make(&s, &seed, 18, 140000, trial ? 440 : 16, trial ? 2 : 200, trial ? 1 : 0);
        g_fixed = 0;
        assert_true(s.c.n > 4 * 32768);
        struct seq want = {0};
        assert_int_equal(oracle_greedy_window(&s.b, &s.c, 64, &want), 0);
        for (int t = 1; t <= 4; t *= 4) {
            omp_set_num_threads(t);
            struct seq got = {0};
            assert_int_equal(dh__rg_greedy_window(&s.b, &s.c, 64, &got), 0);
            same_runs(&got, &want, t == 1 ? "greedy, 1 thread" : "greedy, 4 threads", trial);
            free(got.cls); free(got.cnt);
        }
        omp_set_num_threads(width);
        free(want.cls); free(want.cnt);
        shape_free(&s);
    }
}

/* dh__rg_sorted_classes (Sorting's order, and the window forms' class
 * order): the lexicographic order of the vectors, checked against qsort
 * with a plain comparator, at 1, 2 and 4 threads (above 32K classes a
 * thread the chunks are sorted and merged on several) */
static const struct classes *g_c;
static int cmp_class(const void *a, const void *b)
{
    const uint32_t *u = g_c->vec[*(const long *)a], *v = g_c->vec[*(const long *)b];
    for (int j = 0; j < g_c->nb; j++)
        if (u[j] != v[j])
            return u[j] < v[j] ? -1 : 1;
    return 0;
}

static void sorted_classes(void **st)
{
    (void)st;
    uint64_t seed = 0x5017;
    /* fix: 1, counters 0, 1 and 4 the same in every class (the order's
     * key skips them); 2, every counter but the last, which is distinct */
    static const struct { int nb; long n; uint32_t top; int fix; } sh[] = {
        {1, 1, 10, 0}, {1, 300, 1000, 0}, {2, 5000, 100, 0}, {3, 70000, 60, 0},
        {18, 140000, 440, 0}, {5, 200000, 0, 0}, {24, 131073, 3, 0}, {2, 100000, 1000, 0},
        {20, 140000, 440, 1}, {6, 3000, 1000, 1}, {3, 140000, 10, 2}, {1, 70000, 10, 2},
        {2, 40, 10, 2},
    };
    int width = omp_get_max_threads();
    for (size_t q = 0; q < sizeof sh / sizeof sh[0]; q++) {
        struct shape s;
        shape_make(&s, &seed, sh[q].nb, sh[q].n, sh[q].top, 2, 0);
        for (long k = 0; k < s.c.n; k++) {
            uint32_t *v = s.vec + (size_t)k * (size_t)sh[q].nb;
            if (sh[q].fix == 1)
                v[0] = 7, v[1] = 0, v[4] = 3;
            for (int j = 0; sh[q].fix == 2 && j < sh[q].nb; j++)
                v[j] = j + 1 < sh[q].nb ? 5 : (uint32_t)k * 7919u;
        }
        long n = s.c.n, *want = malloc((size_t)n * sizeof *want);
        assert_non_null(want);
        for (long k = 0; k < n; k++)
            want[k] = k;
        g_c = &s.c;
        qsort(want, (size_t)n, sizeof *want, cmp_class);
        for (int t = 1; t <= 4; t *= 2) {
            omp_set_num_threads(t);
            long *got = dh__rg_sorted_classes(&s.c);
            assert_non_null(got);
            for (long k = 0; k < n; k++)
                if (got[k] != want[k])
                    fail_msg("shape %zu (%ld classes), %d threads: place %ld holds class %ld, "
                             "qsort's %ld", q, n, t, k, got[k], want[k]);
            free(got);
        }
        omp_set_num_threads(width);
        free(want);
        shape_free(&s);
    }
}

/* dh__rg_int_costs: integers, powers of two below 1 and negative costs
 * pass; costs no power of two makes integers, non-finite ones, counters
 * from 2^30 and a sum at the bound 2 top sum|c| = 2^31 do not */
static void int_costs(void **st)
{
    (void)st;
    int32_t ci[4];
    double sc = 0;
    const double a[4] = {3, 0, 244, 1}, q[4] = {0.25, 1.5, -2, 0}, t[4] = {1, 1.0 / 7, 2, 3};
    assert_true(dh__rg_int_costs(a, 4, 504, ci, &sc));
    assert_true(sc == 1.0 && ci[0] == 3 && ci[2] == 244 && ci[3] == 1);
    assert_true(dh__rg_int_costs(q, 4, 504, ci, &sc));
    assert_true(sc == 0.25 && ci[0] == 1 && ci[1] == 6 && ci[2] == -8 && ci[3] == 0);
    assert_false(dh__rg_int_costs(t, 4, 504, ci, &sc));
    const double nan[1] = {0.0 / 0.0}, inf[1] = {1.0 / 0.0};
    assert_false(dh__rg_int_costs(nan, 1, 5, ci, &sc));
    assert_false(dh__rg_int_costs(inf, 1, 5, ci, &sc));
    const double one[1] = {1};
    assert_false(dh__rg_int_costs(one, 1, 1u << 30, ci, &sc));
    const double big[2] = {1 << 14, 1 << 14};      /* sum 2^15: 2 top 2^15 < 2^31 for top < 2^15 */
    assert_true(dh__rg_int_costs(big, 2, (1u << 15) - 1, ci, &sc));
    assert_false(dh__rg_int_costs(big, 2, 1u << 15, ci, &sc));
}

/* dh__rg_gains_i16 against dh__rg_gain_mm, bit for bit, in AVX2 and in
 * plain C: random groups of 16-bit rows (minima below maxima) with
 * offsets, integer and quarter costs, negative too, blocks that never
 * vary, 1 to 40 varying blocks and 1 to 32 candidates (the eight-wide
 * steps and the tail), counters up to the rows' limit 2^14 - 1 */
static void gains_i16(void **st)
{
    (void)st;
    uint64_t seed = 0x1616;
    for (long trial = 0; trial < 3000; trial++) {
        int nb = 1 + (int)(rnd(&seed) % 48), n = 1 + (int)(rnd(&seed) % 32);
        uint32_t span = trial % 3 ? 1u << 14 : 1 + (uint32_t)(rnd(&seed) % 600);
        double cost[48];
        uint32_t off[48], fixed[48], mn[33][48], mx[33][48];
        int var[48], nv = 0;
        for (int b = 0; b < nb; b++) {
            cost[b] = trial % 2 ? (double)(int)(rnd(&seed) % 400) - 100
                                : (double)(rnd(&seed) % 400) / 4.0;
            fixed[b] = rnd(&seed) % 4 == 0;
            off[b] = (uint32_t)(rnd(&seed) % 1000);
            if (!fixed[b])
                var[nv++] = b;
        }
        for (int k = 0; k <= n; k++)
            for (int b = 0; b < nb; b++) {
                uint32_t x = (uint32_t)(rnd(&seed) % span), y = (uint32_t)(rnd(&seed) % span);
                mn[k][b] = off[b] + (fixed[b] ? 0 : x < y ? x : y);
                mx[k][b] = off[b] + (fixed[b] ? 0 : x < y ? y : x);
            }
        uint32_t top = 0;
        for (int b = 0; b < nb; b++)
            top = off[b] + span > top ? off[b] + span : top;
        int32_t ci[48];
        double scale;
        if (!dh__rg_int_costs(cost, nb, top, ci, &scale))
            continue;
        int rs = (nv + 15) / 16 * 16 + 16 * (trial % 2);    /* padding beyond, too */
        int16_t c16[64] = {0};
        uint16_t rows[33][128];
        memset(rows, 0, sizeof rows);
        int64_t kk = 0;
        for (int b = 0; b < nb; b++)
            kk += (int64_t)ci[b] * off[b];
        int okc = 1;
        for (int q = 0; q < nv; q++) {
            okc &= ci[var[q]] >= INT16_MIN && ci[var[q]] <= INT16_MAX;
            c16[q] = (int16_t)ci[var[q]];
            for (int k = 0; k <= n; k++) {
                rows[k][q] = (uint16_t)(mn[k][var[q]] - off[var[q]]);
                rows[k][rs + q] = (uint16_t)(mx[k][var[q]] - off[var[q]]);
            }
        }
        if (!okc)
            continue;
        const uint16_t *r2[32];
        for (int k = 0; k < n; k++)
            r2[k] = rows[k + 1];
        for (int plain = 0; plain < 2; plain++) {
            double g[32];
            dh__rg_i16_plain = plain;
            dh__rg_gains_i16(c16, rs, (int32_t)kk, scale, rows[0], r2, n, g);
            dh__rg_i16_plain = 0;
            for (int k = 0; k < n; k++) {
                double want = dh__rg_gain_mm(cost, nb, mn[0], mx[0], mn[k + 1], mx[k + 1]);
                if (memcmp(&g[k], &want, sizeof want))
                    fail_msg("trial %ld (%s), candidate %d of %d, %d blocks (%d vary): %.17g, "
                             "dh__rg_gain_mm %.17g", trial, plain ? "plain" : "avx2", k, n, nb,
                             nv, g[k], want);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(int_costs),
        cmocka_unit_test(gains_i16),
        cmocka_unit_test(random_shapes),
        cmocka_unit_test(gdt_like),
        cmocka_unit_test(plan_paths),
        cmocka_unit_test(sorted_classes),
        cmocka_unit_test(gdt_size_threads),
    };
    return cmocka_run_group_tests_name("regroup_window", t, NULL, NULL);
}
