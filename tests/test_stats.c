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

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(median_odd_even), cmocka_unit_test(mad_and_ci),
        cmocka_unit_test(ratio), cmocka_unit_test(empty),
    };
    return cmocka_run_group_tests_name("stats", t, NULL, NULL);
}
