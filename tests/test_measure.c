/* test_measure.c — the measurement schedule of harness/run/measure.c on a
 * made-up benchmark (no device): host work timed in a phase of its own,
 * the timed kernel repetitions all in the steady state that follows it. */
#include "testutil.h"

#include "../harness/run/steps.h"
#include "../harness/run/worker_state.h"
#include "../suites/suite.h"

/* The made-up benchmark: its kernel takes 2 ms on a run that did host work
 * (the device idle while the host worked), then 1.6, 1.3, 1.1 ms on the
 * runs after it, 1 ms back to back; its host work takes host[k] ms on the
 * k-th time it is done (cycling), or nothing where host is NULL. */
struct fake {
    const double *host;
    int n_host_values;
    int host_done;          /* times the host work was done */
    int since;              /* runs since the last one with host work */
    int runs, reused, redone_after_first;
    int poisoned;
    double plateau_ms;      /* >0: after host work the kernel takes 1.2 ms,
                               flat, until this much kernel time has run,
                               then 1 ms (a device coming back slowly) */
    double busy;            /* kernel time since the last host work */
};

static int f_upload(void *st, struct dh_exec *x, struct dh_err *e)
{
    (void)st, (void)x, (void)e;
    return 0;
}

static int f_poison(void *st, struct dh_exec *x, struct dh_err *e)
{
    (void)x, (void)e;
    ((struct fake *)st)->poisoned = 1;
    return 0;
}

static int f_run(void *st, struct dh_exec *x, int rep, struct dh_sample *s, struct dh_err *e)
{
    (void)rep, (void)e;
    struct fake *f = st;
    memset(s, 0, sizeof *s);
    int host = 0;
    if (f->host) {
        if (x->host_reuse && f->host_done) {
            s->host_ms = -1;
            f->reused++;
        } else {
            s->host_ms = f->host[f->host_done % f->n_host_values];
            if (f->host_done)
                f->redone_after_first++;
            f->host_done++;
            host = 1;
        }
    }
    static const double after[] = {2.0, 1.6, 1.3, 1.1};
    f->since = host ? 0 : f->since + 1;
    s->kernel_ms = f->host && f->since < 4 ? after[f->since] : 1.0;
    if (f->plateau_ms > 0) {
        f->busy = host ? 0 : f->busy;
        s->kernel_ms = f->busy < f->plateau_ms ? 1.2 : 1.0;
        f->busy += s->kernel_ms;
    }
    f->runs++;
    f->poisoned = 0;
    return 0;
}

static int f_verify(void *st, struct dh_exec *x, struct dh_verify *v, struct dh_err *e)
{
    (void)x, (void)e;
    memset(v, 0, sizeof *v);
    v->checked = 1;
    v->mismatches = ((struct fake *)st)->poisoned;   /* a run must follow the poison */
    return 0;
}

static const struct dh_bench fake_bench = {
    .suite = "test", .name = "fake", .upload = f_upload, .poison = f_poison,
    .run = f_run, .verify = f_verify,
};

static void measure_x(struct fake *f, int reps, int warmup, int kernel_only,
                      struct dh_result *r)
{
    static struct dh_worker w;
    static struct dh_case c;
    memset(&w, 0, sizeof w);
    memset(&c, 0, sizeof c);
    w.state = f;
    c.bench = &fake_bench;
    c.reps = reps;
    c.warmup = warmup;
    c.reps_max = 40;
    c.reps_target = 0.5;
    struct dh_exec x = {.c = &c, .kernel_only = kernel_only};
    memset(r, 0, sizeof *r);
    assert_int_equal(dh_result_reserve(r), 0);
    assert_int_equal(dh__measure(&w, &c, &x, r), 0);
    assert_int_equal(r->status, 0);
    assert_int_equal(x.host_reuse, 0);
}

static void measure(struct fake *f, int reps, int warmup, struct dh_result *r)
{
    measure_x(f, reps, warmup, 0, r);
}

/* kernel time only (the remap overhead's runs): the host work of the
 * verified run is reused by every later run, never redone or timed, and
 * the warm-up still waits for the kernel to settle after it */
static void kernel_only_no_host_phase(void **st)
{
    (void)st;
    const double h[] = {100, 101};
    struct fake f = {.host = h, .n_host_values = 2, .since = 99};
    struct dh_result r;
    measure_x(&f, 20, 2, 1, &r);
    assert_int_equal(r.n, 20);
    assert_int_equal(f.host_done, 1);
    assert_int_equal(f.redone_after_first, 0);
    for (int i = 0; i < r.n; i++)
        assert_true(r.kernel_ms[i] == 1.0);
    dh_result_release(&r);
}

/* settled at the fifth host sample: five host repetitions, then every
 * recorded kernel sample a steady-state one (the old schedule kept the
 * kernel samples of the host repetitions: five at 2 ms) */
static void host_phase(void **st)
{
    (void)st;
    const double h[] = {100, 101};
    struct fake f = {.host = h, .n_host_values = 2, .since = 99};
    struct dh_result r;
    measure(&f, 20, 2, &r);
    assert_int_equal(r.n, 20);
    assert_int_equal(dh_host_count(&r), 5);
    assert_int_equal(r.n_host, 5);
    for (int i = 0; i < 5; i++)
        assert_true(r.host_ms[i] == h[(i + 1) % 2]);     /* the first run's is not kept */
    for (int i = 0; i < r.n; i++)
        assert_true(r.kernel_ms[i] == 1.0);
    assert_int_equal(f.redone_after_first, 5);
    /* the warm-up kept the device busy for 100 ms of kernel time (1.6 1.3
     * 1.1, then 96 runs of 1 ms), then went on until the kernel times
     * stopped falling (4 more at 1 ms: the median of the last 4 within 2%
     * of the lowest) */
    assert_int_equal(f.reused, 99 + 4 + 20);
    dh_result_release(&r);
}

/* warmup 1 (the first run only): a host phase still gets its warm-up */
static void host_phase_no_warmup(void **st)
{
    (void)st;
    const double h[] = {50};
    struct fake f = {.host = h, .n_host_values = 1, .since = 99};
    struct dh_result r;
    measure(&f, 10, 1, &r);
    assert_int_equal(r.n, 10);
    assert_int_equal(dh_host_count(&r), 5);
    for (int i = 0; i < r.n; i++)
        assert_true(r.kernel_ms[i] == 1.0);
    dh_result_release(&r);
}

/* host work that never settles: timed on as many repetitions as the
 * kernel (n_host 0: every repetition has its own), still none of their
 * kernel samples kept */
static void host_never_settles(void **st)
{
    (void)st;
    const double h[] = {10, 90, 20, 80, 5, 95, 30};
    struct fake f = {.host = h, .n_host_values = 7, .since = 99};
    struct dh_result r;
    measure(&f, 12, 2, &r);
    assert_int_equal(r.n, 12);
    assert_int_equal(r.n_host, 0);
    assert_int_equal(dh_host_count(&r), 12);
    for (int i = 0; i < 12; i++) {
        assert_true(r.host_ms[i] == h[(i + 1) % 7]);
        assert_true(r.kernel_ms[i] == 1.0);
    }
    dh_result_release(&r);
}

/* a device that comes back slowly and flat after host work (1.2 ms for
 * 30 ms of kernel time, then 1 ms): the window rule alone sees four equal
 * warm-up times, calls it settled and times the plateau (the H200 A/A's
 * cpu_tdr kernels); busy first, the timed repetitions are steady */
static void slow_flat_recovery(void **st)
{
    (void)st;
    const double h[] = {20};
    struct fake f = {.host = h, .n_host_values = 1, .since = 99, .plateau_ms = 30};
    struct dh_result r;
    measure(&f, 20, 2, &r);
    assert_int_equal(r.n, 20);
    for (int i = 0; i < r.n; i++)
        assert_true(r.kernel_ms[i] == 1.0);
    dh_result_release(&r);
}

/* the warm-up rule on made-up kernel times */
static void settle_rule(void **st)
{
    (void)st;
    const double falling[] = {2.0, 1.6, 1.3, 1.1, 1.0, 1.0, 1.0};
    const double flat[] = {1.0, 1.01, 0.99, 1.0};
    assert_false(dh_kernel_settled(flat, 3));             /* fewer than 4 */
    assert_true(dh_kernel_settled(flat, 4));
    assert_false(dh_kernel_settled(falling, 4));
    assert_false(dh_kernel_settled(falling, 6));          /* 1.3 1.1 1 1: 1.05 */
    assert_true(dh_kernel_settled(falling, 7));
}

/* no host work: no host phase, the repetitions as before, host 0 each */
static void no_host_work(void **st)
{
    (void)st;
    struct fake f = {0};
    struct dh_result r;
    measure(&f, 10, 3, &r);
    assert_int_equal(r.n, 10);
    assert_int_equal(r.n_host, 0);
    assert_int_equal(f.runs, 1 + 2 + 10);
    for (int i = 0; i < 10; i++) {
        assert_true(r.host_ms[i] == 0);
        assert_true(r.kernel_ms[i] == 1.0);
    }
    dh_result_release(&r);
}

/* --reps auto stops once the kernel's interval is met, but never with
 * fewer repetitions than host samples (at most one per repetition) */
static void auto_keeps_host_count(void **st)
{
    (void)st;
    const double h[] = {10, 90, 20, 80, 5, 95, 30};
    struct fake f = {.host = h, .n_host_values = 7};
    struct dh_result r;
    measure(&f, DH_REPS_AUTO, 2, &r);     /* host never settles: 40 host samples */
    assert_int_equal(r.n, 40);
    assert_int_equal(dh_host_count(&r), 40);
    dh_result_release(&r);
    const double g[] = {10};
    struct fake f2 = {.host = g, .n_host_values = 1};
    measure(&f2, DH_REPS_AUTO, 2, &r);    /* settled at 5: the kernel's floor stops it */
    assert_int_equal(r.n, DH_REPS_AUTO_MIN);
    assert_int_equal(r.n_host, 5);
    dh_result_release(&r);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(settle_rule),
        cmocka_unit_test(host_phase),
        cmocka_unit_test(host_phase_no_warmup),
        cmocka_unit_test(host_never_settles),
        cmocka_unit_test(no_host_work),
        cmocka_unit_test(auto_keeps_host_count),
        cmocka_unit_test(kernel_only_no_host_phase),
        cmocka_unit_test(slow_flat_recovery),
    };
    return cmocka_run_group_tests(t, NULL, NULL);
}
