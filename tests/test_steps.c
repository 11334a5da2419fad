/* test_steps.c — step detection on synthetic histories with known steps,
 * noise and outliers (harness/stats/steps.h). */
#include <math.h>

#include "testutil.h"
#include "../harness/stats/steps.h"

static unsigned long long rng = 88172645463325252ull;
static double uni(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return ((rng >> 11) + 0.5) / 9007199254740992.0;
}
static double gauss(void)
{
    return sqrt(-2 * log(uni())) * cos(6.283185307179586 * uni());
}

/* a series of n nights at level 1 ms with noise (relative sd), steps of
 * size ratio[k] at night at[k], and outlier nights (x 1.5) */
static void series(double *x, int n, double noise, const int *at, const double *ratio, int ns,
                   const int *out, int no)
{
    double level = 1;
    for (int t = 0, k = 0; t < n; t++) {
        if (k < ns && t == at[k])
            level *= ratio[k++];
        x[t] = level * (1 + noise * gauss());
    }
    for (int k = 0; k < no; k++)
        x[out[k]] *= 1.5;
}

static void two_steps_noise_outliers(void **st)
{
    (void)st;
    double x[120];
    int at[] = {40, 85}, out[] = {10, 60, 100};
    double ratio[] = {1.10, 0.92};
    struct dh_steps_opts o;
    dh_steps_opts_default(&o);
    for (int trial = 0; trial < 20; trial++) {
        series(x, 120, 0.01, at, ratio, 2, out, 3);
        struct dh_step s[8];
        int k = dh_steps_find(x, 120, &o, s, 8);
        if (k != 2)
            fprintf(stderr, "trial %d: %d steps\n", trial, k);
        assert_int_equal(k, 2);
        assert_true(abs(s[0].at - 40) <= 1 && abs(s[1].at - 85) <= 1);
        assert_true(fabs(s[0].change - 0.10) < 0.02);
        assert_true(fabs(s[1].change - (0.92 - 1)) < 0.02);
    }
}

static void noise_alone(void **st)
{
    (void)st;
    double x[200];
    struct dh_steps_opts o;
    dh_steps_opts_default(&o);
    int out[] = {50, 51, 150};           /* even two outlier nights in a row */
    for (int trial = 0; trial < 20; trial++) {
        series(x, 200, 0.02, NULL, NULL, 0, out, 3);
        struct dh_step s[8];
        assert_int_equal(dh_steps_find(x, 200, &o, s, 8), 0);
    }
}

/* a small step below the threshold is no step; a step on the last nights
 * is found once min_len nights show it */
static void small_and_late(void **st)
{
    (void)st;
    double x[60];
    struct dh_steps_opts o;
    dh_steps_opts_default(&o);
    int at1[] = {30};
    double r1[] = {1.02};
    series(x, 60, 0.005, at1, r1, 1, NULL, 0);
    struct dh_step s[4];
    assert_int_equal(dh_steps_find(x, 60, &o, s, 4), 0);
    int at2[] = {56};
    double r2[] = {1.20};
    series(x, 60, 0.005, at2, r2, 1, NULL, 0);
    assert_int_equal(dh_steps_find(x, 60, &o, s, 4), 1);
    assert_int_equal(s[0].at, 56);
    assert_int_equal(dh_steps_find(x, 4, &o, s, 4), 0);     /* too few nights */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_steps_noise_outliers),
        cmocka_unit_test(noise_alone),
        cmocka_unit_test(small_and_late),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
