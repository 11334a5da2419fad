/* test_isolation.c — hang and crash isolation of worker processes (a
 * separate program: the parent must not have touched a runtime before it
 * forks, as in `harness run`), with the fault wrapper of faultwrap.h.
 * Needs a device (PoCL here): SKIPPED where there is none. */
#include "faultwrap.h"

static void hang_and_crash(void **st)
{
    (void)st;
    struct dh_err e = {0};
    assert_int_equal(dh_devices_gather(&devs, 1, &e), 0);   /* in a child */
    if (!dh_devlist_find(&devs, "opencl", 0)) {
        skip();
        return;
    }
    const char *p[] = {"paths=2", "layers=1"};
    struct dh_run *runs;
    int n;
    wrap();
    hang_launch = 1;                 /* the baseline's kernel hangs */
    assert_int_equal(plan_run("opencl", "baseline,melded", 2, p, 1, 3, &runs, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(runs[0].r.status, DH_E_TIMEOUT);
    assert_non_null(strstr(runs[0].r.message, "--timeout"));
    assert_int_equal(runs[1].r.status, 0);   /* a fresh worker runs the next case */
    free(runs);
    wrap();
    crash_launch = 1;
    assert_int_equal(plan_run("opencl", "baseline,melded", 2, p, 1, 60, &runs, &n), 0);
    assert_int_equal(runs[0].r.status, DH_E_CRASH);
    assert_int_equal(runs[1].r.status, 0);
    free(runs);
}

int main(void)
{
    setenv("DH_CACHE_DIR", "/tmp/dh-test-cache", 0);
    const struct CMUnitTest t[] = {cmocka_unit_test(hang_and_crash)};
    return cmocka_run_group_tests_name("isolation", t, NULL, NULL);
}
