/* test_stats.c — median, MAD, bootstrap intervals. */
#include <math.h>

#include "testutil.h"
#include "../harness/stats/stats.h"

static void median_odd_even(void **st)
{
    (void)st;
    double a[] = {5, 1, 3};
    double b[] = {4, 1, 3, 2};
    assert_true(dh_median(a, 3) == 3);
    assert_true(dh_median(b, 4) == 2.5);
    assert_true(a[0] == 5);           /* input untouched */
}

static void mad_and_ci(void **st)
{
    (void)st;
    double x[] = {10, 10.5, 9.5, 10.2, 9.8, 10.1, 9.9, 10.3, 9.7, 100};
    struct dh_stats s;
    dh_stats_of(x, 10, &s);
    assert_true(fabs(s.median - 10.05) < 1e-12);
    /* MAD ignores the outlier: raw MAD 0.25, scaled 0.37065 */
    assert_true(fabs(s.mad - 1.4826 * 0.25) < 1e-9);
    assert_true(s.ci_lo <= s.median && s.median <= s.ci_hi);
    assert_true(s.ci_hi < 20);        /* the outlier does not drag the interval */
    assert_true(s.min == 9.5 && s.max == 100);
}

static void ratio(void **st)
{
    (void)st;
    double a[20], b[20];
    for (int i = 0; i < 20; i++) {
        a[i] = 2.0 + 0.01 * (i % 5);
        b[i] = 1.0 + 0.005 * (i % 5);
    }
    double lo, hi;
    double r = dh_ratio_ci(a, 20, b, 20, &lo, &hi);
    assert_true(fabs(r - 2.02 / 1.01) < 1e-9);
    assert_true(lo <= r && r <= hi);
    assert_true(hi - lo < 0.1);
    /* same samples, same interval */
    double lo2, hi2;
    dh_ratio_ci(a, 20, b, 20, &lo2, &hi2);
    assert_true(lo == lo2 && hi == hi2);
}

static void empty(void **st)
{
    (void)st;
    struct dh_stats s;
    dh_stats_of(NULL, 0, &s);
    assert_int_equal(s.n, 0);
    assert_true(isnan(s.median));
}

/* The bootstrap intervals are the same figures the sort-every-resample
 * implementation gave (values pinned from it: the counting form draws the
 * same resamples and must find the same medians), ties and even n included. */
static void bootstrap_pinned(void **st)
{
    (void)st;
    double x[] = {2.0, 2.5, 1.9, 2.2, 2.2, 3.1, 1.8, 2.05, 2.4, 2.6, 1.95, 2.3, 2.2};
    double y[] = {1.1, 1.3, 1.0, 1.2, 1.25, 1.05, 1.15, 1.3, 1.12, 1.18};
    struct dh_stats s;
    dh_stats_of(x, 13, &s);
    assert_true(s.ci_lo == 2 && s.ci_hi == 2.3999999999999999);
    dh_stats_of(x, 12, &s);
    assert_true(s.ci_lo == 1.9750000000000001 && s.ci_hi == 2.4500000000000002);
    double lo, hi, r = dh_ratio_ci(x, 13, y, 10, &lo, &hi);
    assert_true(r == 1.8884120171673822 && lo == 1.6734693877551017 && hi == 2.1198156682027647);
    /* a constant series: its interval is the value, with no bootstrap */
    double c[] = {0, 0, 0, 0};
    dh_stats_of(c, 4, &s);
    assert_true(s.ci_lo == 0 && s.ci_hi == 0 && s.median == 0);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(bootstrap_pinned), cmocka_unit_test(median_odd_even), cmocka_unit_test(mad_and_ci),
        cmocka_unit_test(ratio), cmocka_unit_test(empty),
    };
    return cmocka_run_group_tests_name("stats", t, NULL, NULL);
}
