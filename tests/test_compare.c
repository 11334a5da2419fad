/* test_compare.c — Mann-Whitney U against scipy's values, verdicts on
 * synthetic results, `harness compare` exit codes and JUnit output,
 * a planted 10% slowdown in the committed H100 results, merge and
 * baselines. cpu_tdr's end-to-end judgement is test_compare_host.c's. */

#include <libxml/parser.h>

#include "compare_test.h"
#include "../harness/stats/baseline.h"
#include "../harness/cli/cli.h"
#include "../harness/stats/junit.h"
#include "../harness/stats/load.h"

#define CLOSE(a, b, tol) assert_true(fabs((a) - (b)) <= (tol) * fmax(1e-300, fabs(b)))

/* ---- Mann-Whitney: values from scipy 1.17 (scipy.stats.mannwhitneyu) ---- */

static void mwu_textbook(void **st)
{
    (void)st;
    /* scipy's documented example (Conover's males/females ages) */
    double males[] = {19, 22, 16, 29, 24}, females[] = {20, 11, 17, 12};
    struct dh_mwu r;
    assert_int_equal(dh_mann_whitney(males, 5, females, 4, DH_ALT_TWO_SIDED, &r), 0);
    assert_true(r.exact);
    CLOSE(r.u, 17.0, 1e-12);
    CLOSE(r.p, 0.1111111111111111, 1e-12);
    assert_int_equal(dh_mann_whitney(males, 5, females, 4, DH_ALT_GREATER, &r), 0);
    CLOSE(r.p, 0.05555555555555555, 1e-12);
    assert_int_equal(dh_mann_whitney(males, 5, females, 4, DH_ALT_LESS, &r), 0);
    CLOSE(r.p, 0.9682539682539683, 1e-12);
}

static void mwu_exact_larger(void **st)
{
    (void)st;
    double a[] = {1.1, 2.3, 3.7, 4.2, 5.9, 6.1, 7.4, 8.8, 9.0, 10.5, 11.2, 12.6};
    double b[] = {0.5, 1.9, 2.2, 3.1, 3.3, 4.8, 5.0, 5.5, 6.6, 7.0, 8.1, 9.9};
    struct dh_mwu r;
    assert_int_equal(dh_mann_whitney(a, 12, b, 12, DH_ALT_GREATER, &r), 0);
    assert_true(r.exact);
    CLOSE(r.u, 98.0, 1e-12);
    CLOSE(r.p, 0.07158388791179209, 1e-10);
    assert_int_equal(dh_mann_whitney(a, 12, b, 12, DH_ALT_TWO_SIDED, &r), 0);
    CLOSE(r.p, 0.14316777582358417, 1e-10);
    /* 20 x 25, no ties: C(45,20) ~ 3e12 counts, exact path */
    double x[20], y[25];
    for (int i = 0; i < 20; i++)
        x[i] = (i * 37 % 101) / 7.0 + 0.013 * i;
    for (int i = 0; i < 25; i++)
        y[i] = (i * 53 % 97) / 6.5 + 0.017 * i + 1.3;
    assert_int_equal(dh_mann_whitney(x, 20, y, 25, DH_ALT_GREATER, &r), 0);
    assert_true(r.exact);
    CLOSE(r.u, 219.0, 1e-12);
    CLOSE(r.p, 0.7621875087231755, 1e-10);
    assert_int_equal(dh_mann_whitney(x, 20, y, 25, DH_ALT_LESS, &r), 0);
    CLOSE(r.p, 0.2448973532890432, 1e-10);
}

static void mwu_ties_asymptotic(void **st)
{
    (void)st;
    double a[] = {1, 2, 2, 3, 3, 3, 4, 5, 5, 6, 7, 7};
    double b[] = {2, 3, 3, 4, 4, 5, 6, 6, 6, 7, 8, 8, 9};
    struct dh_mwu r;
    assert_int_equal(dh_mann_whitney(a, 12, b, 13, DH_ALT_LESS, &r), 0);
    assert_false(r.exact);
    CLOSE(r.u, 48.5, 1e-12);
    CLOSE(r.p, 0.05570971177405949, 1e-9);
    assert_int_equal(dh_mann_whitney(a, 12, b, 13, DH_ALT_GREATER, &r), 0);
    CLOSE(r.p, 0.9501939139591351, 1e-9);
    assert_int_equal(dh_mann_whitney(a, 12, b, 13, DH_ALT_TWO_SIDED, &r), 0);
    CLOSE(r.p, 0.11141942354811898, 1e-9);
    double x[10], y[10];
    for (int i = 0; i < 10; i++) {
        x[i] = 10.0 + 0.1 * i;
        y[i] = 10.5 + 0.1 * i;
    }
    assert_int_equal(dh_mann_whitney(x, 10, y, 10, DH_ALT_LESS, &r), 0);
    CLOSE(r.u, 12.5, 1e-12);
    CLOSE(r.p, 0.0025376961576369615, 1e-9);
    /* everything tied: no evidence */
    double z[3] = {1, 1, 1};
    assert_int_equal(dh_mann_whitney(z, 3, z, 3, DH_ALT_GREATER, &r), 0);
    CLOSE(r.p, 1.0, 1e-12);
    assert_int_equal(dh_mann_whitney(z, 0, z, 3, DH_ALT_GREATER, &r), -1);
}


static void metric_verdicts(void **st)
{
    (void)st;
    struct dh_cmp_opts o = opts();
    double b[40], n[40];
    struct dh_cmp_metric m;
    lcg = 7;
    for (int i = 0; i < 20; i++) {
        b[i] = 1.0 * (1 + 0.01 * jitter());
        n[i] = 1.0 * (1 + 0.01 * jitter());
    }
    dh_cmp_metric_eval("kernel", b, 20, n, 20, &o, &m);
    assert_int_equal(m.verdict, DH_V_SAME);
    for (int i = 0; i < 20; i++)     /* 10% slower */
        n[i] = b[(i + 3) % 20] * 1.10;
    dh_cmp_metric_eval("kernel", b, 20, n, 20, &o, &m);
    assert_int_equal(m.verdict, DH_V_SLOWER);
    CLOSE(m.ratio, 1.10, 1e-9);
    assert_true(m.p_slower < 1e-4);
    for (int i = 0; i < 20; i++)     /* 10% faster */
        n[i] = b[(i + 3) % 20] / 1.10;
    dh_cmp_metric_eval("kernel", b, 20, n, 20, &o, &m);
    assert_int_equal(m.verdict, DH_V_FASTER);
    /* 1.5% slower: significant, but below half the 5% threshold: same */
    for (int i = 0; i < 20; i++)
        n[i] = b[(i + 3) % 20] * 1.015;
    dh_cmp_metric_eval("kernel", b, 20, n, 20, &o, &m);
    assert_true(m.p_slower < o.alpha);
    assert_int_equal(m.verdict, DH_V_SAME);
    assert_non_null(strstr(m.why, "below"));
    /* 4% slower: significant, in the grey zone between half the threshold and
     * the threshold: ambiguous, not "same" */
    for (int i = 0; i < 20; i++)
        n[i] = b[(i + 3) % 20] * 1.04;
    dh_cmp_metric_eval("kernel", b, 20, n, 20, &o, &m);
    assert_int_equal(m.verdict, DH_V_AMBIGUOUS);
    assert_non_null(strstr(m.why, "below the 5.0% threshold"));
    /* too few samples: 9 on one side, even for a 50% slowdown */
    for (int i = 0; i < 9; i++)
        n[i] = b[i] * 1.5;
    dh_cmp_metric_eval("kernel", b, 20, n, 9, &o, &m);
    assert_int_equal(m.verdict, DH_V_AMBIGUOUS);
    assert_non_null(strstr(m.why, "few samples"));
    /* noisy (spread ~15%), no clear shift: ambiguous, not "same" */
    for (int i = 0; i < 20; i++) {
        b[i] = 1.0 * (1 + 0.3 * jitter());
        n[i] = 1.0 * (1 + 0.3 * jitter());
    }
    dh_cmp_metric_eval("kernel", b, 20, n, 20, &o, &m);
    assert_true(m.spread > o.max_spread);
    assert_int_equal(m.verdict, DH_V_AMBIGUOUS);
    assert_non_null(strstr(m.why, "noisy"));
    /* noisy but a 3x slowdown: still slower (threshold = 2 x spread) */
    for (int i = 0; i < 20; i++)
        n[i] = b[i] * 3;
    dh_cmp_metric_eval("kernel", b, 20, n, 20, &o, &m);
    assert_int_equal(m.verdict, DH_V_SLOWER);
    assert_true(m.threshold >= 2 * m.spread - 1e-12);
    /* median up 20% but half the samples are faster: the test disagrees */
    for (int i = 0; i < 10; i++)
        b[i] = 1.0 + 0.001 * i;
    for (int i = 0; i < 5; i++)
        n[i] = 0.95 + 0.001 * i;
    for (int i = 5; i < 11; i++)
        n[i] = 1.2 + 0.001 * i;
    dh_cmp_metric_eval("kernel", b, 10, n, 11, &o, &m);
    assert_true(m.ratio > 1.15);
    assert_int_equal(m.verdict, DH_V_AMBIGUOUS);
    assert_non_null(strstr(m.why, "does not back"));
}

/* BASE: 4 cases; NEW: the same cases with changes, one case missing, one new. */
static void case_verdicts(void **st)
{
    (void)st;
    static struct dh_run b[5], n[5];
    lcg = 11;
    make_run(&b[0], "baseline", NULL, 2, 40, 0.01, 15);
    make_run(&b[1], "gpu_tdr", "hot", 2, 30, 0.01, 15);
    make_run(&b[2], "gpu_tdr", "dgi", 2, 35, 0.01, 15);
    make_run(&b[3], "cpu_tdr", NULL, 2, 20, 0.01, 15);
    make_run(&b[4], "melded", NULL, 2, 25, 0.01, 15);
    for (int i = 0; i < 5; i++)
        assert_int_equal(dh_run_copy(&n[i], &b[i]), 0);
    b[0].r.has_counters = n[0].r.has_counters = 1;
    b[0].r.ctr.warp_inst_executed = n[0].r.ctr.warp_inst_executed = 100;
    b[0].r.ctr.cfe = 0.50;
    n[0].r.ctr.cfe = 0.47;                            /* CFE drop 0.03 */
    scale(&n[1], 1.10, 0);                            /* 10% slower */
    n[2].r.status = DH_E_WRONG;                       /* verification failed */
    n[2].r.verify.mismatches = 3;
    scale(&n[3], 2.00, 1);    /* cpu_tdr: host work slower, e2e +33% (past the 20% host threshold) */
    dh_pset_put(&n[3].c.params, "wg", "128", 128, DH_P_TUNABLE);   /* tunable moved */
    dh_run_release(&n[4]);
    make_run(&n[4], "melded", NULL, 4, 25, 0.01, 15);  /* new case; paths=2 one gone */
    struct dh_resultfile fb, fn;
    as_file(&fb, b, 5);
    as_file(&fn, n, 5);
    struct dh_cmp c;
    struct dh_cmp_opts o = opts();
    struct dh_err e = {0};
    assert_int_equal(dh_compare(&fb, &fn, &o, &c, &e), 0);
    assert_int_equal(c.n, 6);
    assert_int_equal(c.n_matched, 4);
    /* NEW's order, then BASE-only */
    assert_ptr_equal(c.cases[0].cur, &n[0]);
    assert_int_equal(c.cases[0].verdict, DH_V_SAME);
    assert_true(c.cases[0].cfe_drop);
    assert_true(c.cases[0].failure);
    assert_int_equal(c.cases[1].verdict, DH_V_SLOWER);
    assert_true(c.cases[1].failure);
    assert_int_equal(c.cases[2].verdict, DH_V_WRONG);
    assert_true(c.cases[2].failure);
    /* tunables moved: matched, judged, and noted */
    assert_ptr_equal(c.cases[3].base, &b[3]);
    assert_int_equal(c.cases[3].n_metrics, 2);
    assert_int_equal(c.cases[3].m[0].verdict, DH_V_SAME);
    assert_int_equal(c.cases[3].m[1].verdict, DH_V_SLOWER);   /* e2e */
    assert_int_equal(c.cases[3].verdict, DH_V_SLOWER);
    assert_non_null(strstr(c.cases[3].note, "tunables moved: wg=256 -> wg=128"));
    assert_int_equal(c.cases[4].verdict, DH_V_ONLY_NEW);
    assert_false(c.cases[4].failure);
    assert_int_equal(c.cases[5].verdict, DH_V_ONLY_BASE);
    assert_ptr_equal(c.cases[5].base, &b[4]);
    assert_int_equal(c.n_failures, 4);
    assert_int_equal(c.count[DH_V_SLOWER], 2);
    dh_cmp_free(&c);
    /* a NEW run that timed out where BASE had timings fails; unsupported does not */
    dh_run_release(&n[1]);
    dh_run_release(&n[2]);
    assert_int_equal(dh_run_copy(&n[1], &b[1]), 0);
    n[1].r.status = DH_E_TIMEOUT;
    assert_int_equal(dh_run_copy(&n[2], &b[2]), 0);
    n[2].r.status = DH_E_UNSUPPORTED;
    as_file(&fn, n, 3);
    assert_int_equal(dh_compare(&fb, &fn, &o, &c, &e), 0);
    assert_int_equal(c.cases[1].verdict, DH_V_FAILED);
    assert_true(c.cases[1].failure);
    assert_int_equal(c.cases[2].verdict, DH_V_UNTIMED);
    assert_false(c.cases[2].failure);
    dh_cmp_free(&c);
}


static void command_exit_codes(void **st)
{
    (void)st;
    static struct dh_run b[3], n[3];
    lcg = 23;
    make_run(&b[0], "baseline", NULL, 2, 40, 0.01, 12);
    make_run(&b[1], "gpu_tdr", "dgi", 2, 35, 0.01, 12);
    make_run(&b[2], "melded", NULL, 2, 25, 0.01, 5);     /* too few: ambiguous */
    for (int i = 0; i < 3; i++)
        assert_int_equal(dh_run_copy(&n[i], &b[i]), 0);
    write_results(tpath("base.xml"), b, 3, "Test Device");
    write_results(tpath("same.xml"), n, 3, "Test Device");
    assert_int_equal(CMD(dh_cmd_compare, (char *)tpath("base.xml"), (char *)tpath("same.xml")),
                     DH_EXIT_OK);
    scale(&n[1], 1.10, 0);
    write_results(tpath("slow.xml"), n, 3, "Test Device");
    assert_int_equal(CMD(dh_cmd_compare, (char *)tpath("base.xml"), (char *)tpath("slow.xml"),
                         "--junit", (char *)tpath("junit.xml")),
                     DH_EXIT_REGRESSION);
    /* JUnit: well-formed, the slower case a <failure> with its numbers */
    xmlDocPtr doc = xmlReadFile(tpath("junit.xml"), NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    xmlNodePtr root = xmlDocGetRootElement(doc);
    assert_string_equal((const char *)root->name, "testsuites");
    xmlFreeDoc(doc);
    const char *j = slurp(tpath("junit.xml"));
    assert_non_null(strstr(j, "<testsuite name=\"micro\" tests=\"3\" failures=\"1\" errors=\"0\" "
                              "skipped=\"1\""));
    assert_non_null(strstr(j, "classname=\"micro.branch\" name=\"gpu_tdr[alg=dgi] "
                              "layers=1,paths=2 [small opencl:Test Device]\""));
    assert_non_null(strstr(j, "<failure type=\"slower\" message=\"slower: kernel"));
    assert_non_null(strstr(j, "+10.0%"));
    assert_non_null(strstr(j, "<skipped message=\"ambiguous: too few samples"));
    assert_non_null(strstr(j, "name=\"kernel_p_slower\""));
    assert_non_null(strstr(j, "<system-out>kernel median"));
    /* strict: the same verdicts, no per-case properties (suite properties stay) */
    assert_int_equal(CMD(dh_cmd_compare, (char *)tpath("base.xml"), (char *)tpath("slow.xml"),
                         "--junit", (char *)tpath("junit-strict.xml"), "--junit-strict"),
                     DH_EXIT_REGRESSION);
    j = slurp(tpath("junit-strict.xml"));
    assert_non_null(strstr(j, "<failure type=\"slower\""));
    assert_null(strstr(j, "kernel_p_slower"));
    assert_non_null(strstr(j, "name=\"threshold_min_pct\""));
    /* a larger threshold lets 10% pass */
    assert_int_equal(CMD(dh_cmd_compare, (char *)tpath("base.xml"), (char *)tpath("slow.xml"),
                         "--threshold", "15"),
                     DH_EXIT_OK);
    /* other devices: 3, unless allowed */
    write_results(tpath("otherdev.xml"), n, 3, "Other Device");
    assert_int_equal(CMD(dh_cmd_compare, (char *)tpath("base.xml"), (char *)tpath("otherdev.xml")),
                     DH_EXIT_INFRA);
    assert_int_equal(CMD(dh_cmd_compare, (char *)tpath("base.xml"), (char *)tpath("otherdev.xml"),
                         "--allow-device-change"),
                     DH_EXIT_REGRESSION);
    /* corrupt, truncated, other schema version, missing: 3 */
    FILE *f = fopen(tpath("corrupt.xml"), "w");
    fputs("<divharness version=\"1\"><environment><host>x</ho", f);
    fclose(f);
    f = fopen(tpath("v2.xml"), "w");
    fputs("<?xml version=\"1.0\"?>\n<divharness version=\"2\"/>\n", f);
    fclose(f);
    assert_int_equal(CMD(dh_cmd_compare, (char *)tpath("base.xml"), (char *)tpath("corrupt.xml")),
                     DH_EXIT_INFRA);
    assert_int_equal(CMD(dh_cmd_compare, (char *)tpath("v2.xml"), (char *)tpath("base.xml")),
                     DH_EXIT_INFRA);
    assert_int_equal(CMD(dh_cmd_compare, (char *)tpath("base.xml"), (char *)tpath("none.xml")),
                     DH_EXIT_INFRA);
    /* one-sided cases: listed; an error only with --strict; nothing shared: 3 */
    write_results(tpath("two.xml"), n, 2, "Test Device");
    assert_int_equal(CMD(dh_cmd_compare, (char *)tpath("base.xml"), (char *)tpath("two.xml"),
                         "--threshold", "15"),
                     DH_EXIT_OK);
    assert_int_equal(CMD(dh_cmd_compare, (char *)tpath("base.xml"), (char *)tpath("two.xml"),
                         "--threshold", "15", "--strict"),
                     DH_EXIT_INFRA);
    static struct dh_run other[1];
    make_run(&other[0], "baseline", NULL, 8, 40, 0.01, 12);
    write_results(tpath("other.xml"), other, 1, "Test Device");
    assert_int_equal(CMD(dh_cmd_compare, (char *)tpath("base.xml"), (char *)tpath("other.xml")),
                     DH_EXIT_INFRA);
    /* usage */
    assert_int_equal(CMD(dh_cmd_compare, (char *)tpath("base.xml")), DH_EXIT_USAGE);
    assert_int_equal(CMD(dh_cmd_compare, "a.xml", "b.xml", "--alpha", "2"), DH_EXIT_USAGE);
    assert_int_equal(CMD(dh_cmd_compare, "a.xml", "b.xml", "--bogus"), DH_EXIT_USAGE);
}


/* The committed H100 results, one case's samples made 10% slower. */
/* a night on a busy host is its own verdict, not a regression: the
 * conditions each run recorded say so (--strict fails on it); a quiet
 * host's same slowdown stays a regression */
static void busy_host(void **st)
{
    (void)st;
    static struct dh_run b[2], n[2];
    lcg = 29;
    make_run(&b[0], "baseline", NULL, 2, 40, 0.01, 12);
    make_run(&b[1], "gpu_tdr", "dgi", 2, 35, 0.01, 12);
    for (int i = 0; i < 2; i++)
        assert_int_equal(dh_run_copy(&n[i], &b[i]), 0);
    dh_test_load = 0.2;
    write_results(tpath("quiet-base.xml"), b, 2, "Test Device");
    scale(&n[1], 1.6, 0);
    dh_test_load = 3.9;                        /* a CPU hog beside it, 2 CPUs */
    write_results(tpath("busy.xml"), n, 2, "Test Device");
    dh_test_load = 0.3;
    write_results(tpath("quiet-slow.xml"), n, 2, "Test Device");
    dh_test_load = -1;
    /* what was recorded comes back */
    struct dh_resultfile rf;
    struct dh_err e = {0};
    assert_int_equal(dh_xml_read(tpath("busy.xml"), &rf, &e), 0);
    assert_true(rf.env.cond.valid);
    assert_true(rf.env.cond.load_before[0] == 3.9);
    assert_int_equal(rf.env.cond.cpus, 2);
    dh_resultfile_free(&rf);
    char out[8192];
    assert_int_equal(capture(dh_cmd_compare, out, sizeof out, (char *)tpath("quiet-base.xml"),
                             (char *)tpath("busy.xml")), DH_EXIT_OK);
    assert_non_null(strstr(out, "UNRELIABLE: NEW: host load 3.90 on 2 CPUs before the run"));
    assert_null(strstr(out, "REGRESSION"));
    assert_int_equal(CMD(dh_cmd_compare, (char *)tpath("quiet-base.xml"), (char *)tpath("busy.xml"),
                         "--strict"), DH_EXIT_INFRA);
    /* a busy BASE excuses nothing: NEW's slowdown against it stands */
    assert_int_equal(capture(dh_cmd_compare, out, sizeof out, (char *)tpath("busy.xml"),
                             (char *)tpath("quiet-slow.xml")), DH_EXIT_OK);
    assert_non_null(strstr(out, "note: BASE ran on a busy host"));
    /* a higher limit judges it after all */
    assert_int_equal(CMD(dh_cmd_compare, (char *)tpath("quiet-base.xml"), (char *)tpath("busy.xml"),
                         "--max-load", "4"), DH_EXIT_REGRESSION);
    assert_int_equal(CMD(dh_cmd_compare, (char *)tpath("quiet-base.xml"),
                         (char *)tpath("quiet-slow.xml")), DH_EXIT_REGRESSION);
    /* --junit -: stdout holds the JUnit XML alone (the table went to stderr) */
    assert_int_equal(capture(dh_cmd_compare, out, sizeof out, (char *)tpath("quiet-base.xml"),
                             (char *)tpath("quiet-slow.xml"), "--junit", "-"),
                     DH_EXIT_REGRESSION);
    assert_true(!strncmp(out, "<?xml", 5));
    assert_non_null(strstr(out, "<testsuites"));
    assert_null(strstr(out, "REGRESSION:"));
    /* merged with a quiet night, the busy one's conditions stay: the merged
     * night is unreliable too */
    assert_int_equal(CMD(dh_cmd_merge, (char *)tpath("merged-busy.xml"), (char *)tpath("busy.xml"),
                         (char *)tpath("quiet-slow.xml")), DH_EXIT_OK);
    assert_int_equal(capture(dh_cmd_compare, out, sizeof out, (char *)tpath("quiet-base.xml"),
                             (char *)tpath("merged-busy.xml")), DH_EXIT_OK);
    assert_non_null(strstr(out, "UNRELIABLE: NEW: host load 3.90"));
    /* the same timings at other tunables: said, and --strict fails on it */
    static struct dh_run m[2];
    for (int i = 0; i < 2; i++) {
        assert_int_equal(dh_run_copy(&m[i], &b[i]), 0);
        dh_pset_put(&m[i].c.params, "wg", "128", 128, DH_P_TUNABLE);
    }
    write_results(tpath("moved.xml"), m, 2, "Test Device");
    assert_int_equal(capture(dh_cmd_compare, out, sizeof out, (char *)tpath("quiet-base.xml"),
                             (char *)tpath("moved.xml")), DH_EXIT_OK);
    assert_non_null(strstr(out, "TUNABLES MOVED: 2 cases ran at other tunables than BASE"));
    assert_int_equal(CMD(dh_cmd_compare, (char *)tpath("quiet-base.xml"), (char *)tpath("moved.xml"),
                         "--strict"), DH_EXIT_INFRA);
    for (int i = 0; i < 2; i++)
        dh_run_release(&m[i]);
    for (int i = 0; i < 2; i++) {
        dh_run_release(&b[i]);
        dh_run_release(&n[i]);
    }
}

static void planted_h100(void **st)
{
    (void)st;
    const char *ref = "results/reference/h100/micro-cuda.xml";
    if (access(ref, R_OK)) {
        fprintf(stderr, "  (%s not found: run from the repository root)\n", ref);
        skip();
        return;
    }
    static struct dh_resultfile f;
    struct dh_err e = {0};
    assert_int_equal(dh_results_load(ref, &f, &e), 0);
    assert_true(f.n_runs >= 20);
    int victim = -1;
    for (int i = 0; i < f.n_runs && victim < 0; i++)
        if (!strcmp(f.runs[i].c.variant, "gpu_tdr"))
            victim = i;
    assert_true(victim >= 0);
    scale(&f.runs[victim], 1.10, 0);
    assert_int_equal(dh_xml_write(tpath("h100-slow.xml"), &f.env, &f.devs, f.runs, f.n_runs, &e),
                     0);
    static struct dh_resultfile b, n;
    assert_int_equal(dh_results_load(ref, &b, &e), 0);
    assert_int_equal(dh_results_load(tpath("h100-slow.xml"), &n, &e), 0);
    struct dh_cmp c;
    struct dh_cmp_opts o = opts();
    assert_int_equal(dh_compare(&b, &n, &o, &c, &e), 0);
    for (int i = 0; i < c.n; i++) {
        if (c.cases[i].cur->c.key[0] && !strcmp(c.cases[i].cur->c.key, f.runs[victim].c.key))
            assert_int_equal(c.cases[i].verdict, DH_V_SLOWER);
        else     /* identical samples: same, or ambiguous where too noisy to say so */
            assert_true(c.cases[i].verdict == DH_V_SAME
                        || (c.cases[i].verdict == DH_V_AMBIGUOUS
                            && c.cases[i].m[c.cases[i].n_metrics - 1].spread > o.max_spread));
    }
    assert_int_equal(c.n_failures, 1);
    dh_cmp_free(&c);
    assert_int_equal(CMD(dh_cmd_compare, (char *)ref, (char *)tpath("h100-slow.xml")),
                     DH_EXIT_REGRESSION);
    dh_resultfile_free(&f);
    dh_resultfile_free(&b);
    dh_resultfile_free(&n);
}

static void merge_and_baseline(void **st)
{
    (void)st;
    static struct dh_run a[2], b[2];
    lcg = 31;
    make_run(&a[0], "baseline", NULL, 2, 40, 0.01, 12);
    make_run(&a[1], "melded", NULL, 2, 25, 0.01, 12);
    make_run(&b[0], "baseline", NULL, 4, 50, 0.01, 12);
    assert_int_equal(dh_run_copy(&b[1], &a[1]), 0);
    scale(&b[1], 1.5, 0);                 /* the same case measured again */
    write_results(tpath("m1.xml"), a, 2, "Test Device");
    sleep(1);                             /* b is the later file */
    write_results(tpath("m2.xml"), b, 2, "Test Device");
    assert_int_equal(CMD(dh_cmd_merge, (char *)tpath("merged.xml"), (char *)tpath("m2.xml"),
                         (char *)tpath("m1.xml")),
                     DH_EXIT_OK);
    static struct dh_resultfile m;
    struct dh_err e = {0};
    assert_int_equal(dh_results_load(tpath("merged.xml"), &m, &e), 0);
    assert_int_equal(m.n_runs, 3);
    int found = 0;
    for (int i = 0; i < m.n_runs; i++)
        if (!strcmp(m.runs[i].c.key, a[1].c.key)) {
            found = 1;     /* the later file's run was kept */
            CLOSE(m.runs[i].r.kernel_ms[0], b[1].r.kernel_ms[0], 1e-6);
        }
    assert_true(found);
    assert_non_null(strstr(m.env.command, "harness merge"));
    dh_resultfile_free(&m);
    FILE *fc = fopen(tpath("m-corrupt.xml"), "w");
    fputs("<divharness version=\"1\"><runs>", fc);
    fclose(fc);
    assert_int_equal(CMD(dh_cmd_merge, (char *)tpath("x.xml"), (char *)tpath("m1.xml"),
                         (char *)tpath("m-corrupt.xml")),
                     DH_EXIT_INFRA);
    assert_int_equal(CMD(dh_cmd_merge, (char *)tpath("x.xml")), DH_EXIT_USAGE);

    /* baselines: none yet -> 3; save; compare picks it */
    char dir[256];
    snprintf(dir, sizeof dir, "%s", tpath("baselines"));
    assert_int_equal(CMD(dh_cmd_compare, "--baseline", "--dir", (char *)dir,
                         (char *)tpath("m1.xml")),
                     DH_EXIT_INFRA);
    assert_int_equal(CMD(dh_cmd_baseline, "path", (char *)tpath("m1.xml"), "--dir", (char *)dir),
                     DH_EXIT_INFRA);
    assert_int_equal(CMD(dh_cmd_baseline, "save", (char *)tpath("m1.xml"), "--dir", (char *)dir),
                     DH_EXIT_OK);
    assert_int_equal(CMD(dh_cmd_baseline, "path", (char *)tpath("m1.xml"), "--dir", (char *)dir),
                     DH_EXIT_OK);
    assert_int_equal(CMD(dh_cmd_compare, "--baseline", "--dir", (char *)dir,
                         (char *)tpath("m1.xml")),
                     DH_EXIT_OK);
    assert_int_equal(CMD(dh_cmd_compare, "--baseline", "--dir", (char *)dir,
                         (char *)tpath("m2.xml")),
                     DH_EXIT_REGRESSION);   /* melded 1.5x slower */
    /* the fingerprint follows the devices and drivers */
    write_results(tpath("m-otherdev.xml"), a, 2, "Other Device");
    static struct dh_resultfile f1, f2;
    assert_int_equal(dh_results_load(tpath("m1.xml"), &f1, &e), 0);
    assert_int_equal(dh_results_load(tpath("m-otherdev.xml"), &f2, &e), 0);
    char fp1[17], fp2[17], fp3[17];
    assert_int_equal(dh_baseline_fingerprint(&f1, fp1, NULL, 0, &e), 0);
    assert_int_equal(dh_baseline_fingerprint(&f2, fp2, NULL, 0, &e), 0);
    assert_string_not_equal(fp1, fp2);
    snprintf(f1.devs.d[0].info.driver, sizeof f1.devs.d[0].info.driver, "2.0");
    assert_int_equal(dh_baseline_fingerprint(&f1, fp3, NULL, 0, &e), 0);
    assert_string_not_equal(fp1, fp3);
    char path[512];
    dh_baseline_path(dir, fp1, path, sizeof path);
    assert_int_equal(access(path, R_OK), 0);
    /* a driver update: no baseline of its own, compared with the last driver's */
    assert_int_equal(dh_xml_write(tpath("m1-driver2.xml"), &f1.env, &f1.devs, f1.runs, f1.n_runs,
                                  &e), 0);
    assert_int_equal(CMD(dh_cmd_baseline, "path", (char *)tpath("m1-driver2.xml"), "--dir",
                         dir),
                     DH_EXIT_INFRA);
    int exact = 1;
    char other[512];
    assert_int_equal(dh_baseline_find(dir, &f1, other, sizeof other, &exact, &e), 0);
    assert_false(exact);
    assert_string_equal(other, path);
    assert_int_equal(CMD(dh_cmd_compare, "--baseline", "--dir", dir,
                         (char *)tpath("m1-driver2.xml")),
                     DH_EXIT_OK);
    /* other devices under any driver: still none */
    assert_int_equal(dh_baseline_find(dir, &f2, other, sizeof other, &exact, &e), 1);
    dh_resultfile_free(&f1);
    dh_resultfile_free(&f2);
}


int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(busy_host),
        cmocka_unit_test(mwu_textbook),       cmocka_unit_test(mwu_exact_larger),
        cmocka_unit_test(mwu_ties_asymptotic), cmocka_unit_test(metric_verdicts),
        cmocka_unit_test(case_verdicts),      cmocka_unit_test(command_exit_codes),
        cmocka_unit_test(planted_h100),       cmocka_unit_test(merge_and_baseline),
    };
    return cmocka_run_group_tests_name("compare", t, setup, teardown);
}
