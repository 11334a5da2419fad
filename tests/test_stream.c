/* test_stream.c — results files read as a stream and held as compact runs:
 * the limits a run record kept before (samples, options, log, evaluations),
 * the blocks of a run (copy, move, fit, release), refusals named at their
 * line deep in a file, the order of refusals, and a section-at-a-time
 * write read back. */
#include <math.h>
#include <unistd.h>

#include "testutil.h"
#include "../harness/stats/derive.h"
#include "../harness/stats/load.h"
#include "../results/xml.h"
#include "../suites/suite.h"

static char dir[] = "/tmp/dh-test-stream-XXXXXX";

static const char *tpath(const char *name)
{
    static char p[8][256];
    static int k;
    k = (k + 1) % 8;
    snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
    return p[k];
}

static void make_run(struct dh_run *u, const char *variant, int paths, double ms, int n)
{
    memset(u, 0, sizeof *u);
    struct dh_case *c = &u->c;
    c->bench = dh_bench_find("micro", "branch");
    snprintf(c->suite, sizeof c->suite, "micro");
    snprintf(c->bench_name, sizeof c->bench_name, "branch");
    snprintf(c->variant, sizeof c->variant, "%s", variant);
    snprintf(c->backend, sizeof c->backend, "opencl");
    snprintf(c->device_name, sizeof c->device_name, "Dev");
    snprintf(c->size, sizeof c->size, "small");
    c->reps = n;
    c->warmup = 2;
    char p[16];
    snprintf(p, sizeof p, "%d", paths);
    dh_pset_put(&c->params, "paths", p, paths, DH_P_WORKLOAD);
    dh_pset_put(&c->params, "wg", "256", 256, DH_P_TUNABLE);
    dh_case_identity(c);
    u->r.verified = 1;
    u->r.n = n;
    assert_int_equal(dh_result_samples(&u->r, n), 0);
    for (int i = 0; i < n; i++)
        u->r.kernel_ms[i] = ms * (1 + 0.001 * (i % 7));
}

static void write_file(const char *path, struct dh_run *runs, int n)
{
    struct dh_env env;
    dh_env_fill(&env, 0, NULL);
    struct dh_devlist devs = {0};
    devs.n = 1;
    snprintf(devs.d[0].backend, 16, "opencl");
    snprintf(devs.d[0].info.name, sizeof devs.d[0].info.name, "Dev");
    devs.d[0].info.warp_width = 32;
    struct dh_err e = {0};
    dh_run_derive(runs, n);
    assert_int_equal(dh_xml_write(path, &env, &devs, runs, n, &e), 0);
}

static void spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* text with the first `from` after `after` replaced by `to` (malloc'd) */
static char *replace_after(const char *text, const char *after, const char *from, const char *to)
{
    const char *a = strstr(text, after);
    assert_non_null(a);
    const char *at = strstr(a, from);
    assert_non_null(at);
    size_t head = (size_t)(at - text), tl = strlen(at + strlen(from));
    char *out = malloc(head + strlen(to) + tl + 1);
    assert_non_null(out);
    memcpy(out, text, head);
    strcpy(out + head, to);
    strcat(out, at + strlen(from));
    return out;
}

static int line_of(const char *text, const char *at)
{
    int line = 1;
    for (const char *p = text; p < at; p++)
        line += *p == '\n';
    return line;
}

/* a series longer than the record ever held: the first DH_MAX_SAMPLES, as
 * before; a shorter host series ends in zeros */
static void long_series(void **st)
{
    (void)st;
    static struct dh_run runs[2];
    make_run(&runs[0], "baseline", 2, 2.0, 12);
    make_run(&runs[1], "gpu_tdr", 2, 1.0, 12);
    write_file(tpath("long.xml"), runs, 2);
    char *text = dh_test_slurp(tpath("long.xml"), NULL);
    const char *k = strstr(text, "<kernel ");
    assert_non_null(k);
    const char *open_end = strchr(k, '>');
    const char *close = strstr(k, "</kernel>");
    size_t big = 400 * 16 + 64;
    char *series = malloc(big);
    size_t o = 0;
    for (int i = 0; i < 300; i++)
        o += (size_t)snprintf(series + o, big - o, "%s%d", i ? " " : "", 1000 + i);
    size_t head = (size_t)(open_end + 1 - text);
    char *bad = malloc(strlen(text) + big);
    memcpy(bad, text, head);
    strcpy(bad + head, series);
    strcat(bad, close);
    spit(tpath("long.xml"), bad);
    struct dh_resultfile f;
    struct dh_err e = {0};
    assert_int_equal(dh_results_load(tpath("long.xml"), &f, &e), 0);
    assert_int_equal(f.runs[0].r.n, DH_MAX_SAMPLES);
    assert_int_equal(f.runs[0].r.n_room, DH_MAX_SAMPLES);
    for (int i = 0; i < DH_MAX_SAMPLES; i++) {
        assert_true(f.runs[0].r.kernel_ms[i] == 1000 + i);
        assert_true(f.runs[0].r.host_ms[i] == 0);      /* 12 host zeros, then zeros */
        assert_true(f.runs[0].r.xfer_ms[i] == 0);
    }
    assert_int_equal(f.runs[1].r.n, 12);
    assert_int_equal(f.runs[1].r.n_room, 12);          /* sized to what it holds */
    /* written back: the 256 */
    struct dh_err e2 = {0};
    assert_int_equal(dh_xml_write(tpath("long2.xml"), &f.env, &f.devs, f.runs, f.n_runs, &e2), 0);
    struct dh_resultfile g;
    assert_int_equal(dh_results_load(tpath("long2.xml"), &g, &e), 0);
    assert_int_equal(g.runs[0].r.n, DH_MAX_SAMPLES);
    assert_true(g.runs[0].r.kernel_ms[DH_MAX_SAMPLES - 1] == 1000 + DH_MAX_SAMPLES - 1);
    dh_resultfile_free(&g);
    dh_resultfile_free(&f);
    free(bad);
    free(series);
    free(text);
    dh_run_release(&runs[0]);
    dh_run_release(&runs[1]);
}

/* options and log longer than the record kept: cut where they were cut
 * (4095 and 8191 bytes), held in blocks of their length */
static void huge_texts(void **st)
{
    (void)st;
    static struct dh_run runs[1];
    make_run(&runs[0], "baseline", 2, 2.0, 12);
    runs[0].r.status = DH_E_BUILD;
    snprintf(runs[0].r.message, sizeof runs[0].r.message, "build failed");
    static char opts[10000], log[30000];
    for (size_t i = 0; i < sizeof opts - 1; i++)
        opts[i] = (char)('a' + i % 26);
    for (size_t i = 0; i < sizeof log - 1; i++)
        log[i] = i % 80 == 79 ? '\n' : (char)('A' + i % 26);
    /* a block holds what it is given, up to the limit */
    assert_int_equal(dh_result_text(&runs[0].r.options, opts, sizeof opts), 0);
    assert_int_equal(strlen(runs[0].r.options), sizeof opts - 1);
    assert_int_equal(dh_result_text(&runs[0].r.build_log, log, sizeof log), 0);
    write_file(tpath("texts.xml"), runs, 1);
    struct dh_resultfile f;
    struct dh_err e = {0};
    assert_int_equal(dh_results_load(tpath("texts.xml"), &f, &e), 0);
    assert_int_equal(strlen(f.runs[0].r.options), DH_OPTIONS_MAX - 1);
    assert_int_equal(strncmp(f.runs[0].r.options, opts, DH_OPTIONS_MAX - 1), 0);
    assert_int_equal(strlen(f.runs[0].r.build_log), DH_BUILD_LOG_MAX - 1);
    assert_int_equal(strncmp(f.runs[0].r.build_log, log, DH_BUILD_LOG_MAX - 1), 0);
    assert_string_equal(f.runs[0].r.message, "build failed");
    dh_resultfile_free(&f);
    /* no options, no log: no blocks, written without <build> as before */
    dh_result_release(&runs[0].r);
    assert_null(runs[0].r.options);
    assert_string_equal(dh_text(runs[0].r.options), "");
    dh_run_release(&runs[0]);
}

/* copy, move, fit, release; evaluations up to their maximum */
static void blocks(void **st)
{
    (void)st;
    static struct dh_run a, b, c;
    make_run(&a, "baseline", 2, 2.0, 20);
    a.r.host_ms[3] = 0.5;
    assert_int_equal(dh_result_text(&a.r.options, "-D X=1", DH_OPTIONS_MAX), 0);
    for (int i = 0; i < DH_TUNE_MAX_EVALS; i++) {
        struct dh_tune_eval *ev = dh_tuning_add(&a.tune);
        assert_non_null(ev);
        snprintf(ev->tunables, sizeof ev->tunables, "wg=%d", i);
        ev->ms = i + 1;
    }
    assert_null(dh_tuning_add(&a.tune));               /* the maximum, as before */
    assert_int_equal(a.tune.n_eval, DH_TUNE_MAX_EVALS);
    assert_int_equal(dh_run_copy(&b, &a), 0);
    assert_ptr_not_equal(b.r.kernel_ms, a.r.kernel_ms);
    assert_true(b.r.host_ms[3] == 0.5 && b.r.kernel_ms[19] == a.r.kernel_ms[19]);
    b.r.kernel_ms[0] = 99;                             /* its own */
    assert_true(a.r.kernel_ms[0] != 99);
    assert_string_equal(b.r.options, "-D X=1");
    char lastwg[32];
    snprintf(lastwg, sizeof lastwg, "wg=%d", DH_TUNE_MAX_EVALS - 1);
    assert_string_equal(b.tune.eval[DH_TUNE_MAX_EVALS - 1].tunables, lastwg);
    dh_run_move(&c, &b);
    assert_null(b.r.kernel_ms);
    assert_null(b.tune.eval);
    assert_true(c.r.kernel_ms[0] == 99);
    dh_run_release(&b);                                /* nothing left to free */
    /* a worker's room, fitted to the samples it filled */
    struct dh_result r = {0};
    assert_int_equal(dh_result_reserve(&r), 0);
    assert_int_equal(r.n_room, DH_MAX_SAMPLES);
    r.n = 3;
    for (int i = 0; i < 3; i++) {
        r.kernel_ms[i] = i + 1;
        r.host_ms[i] = 0.25;
        r.xfer_ms[i] = 0.5;
    }
    assert_int_equal(dh_result_text(&r.options, "", DH_OPTIONS_MAX), 0);
    assert_null(r.options);                            /* empty: no block */
    dh_result_fit(&r);
    assert_int_equal(r.n_room, 3);
    assert_true(r.kernel_ms[2] == 3 && r.host_ms[2] == 0.25 && r.xfer_ms[2] == 0.5);
    assert_true(dh_e2e_sample(&r, 1) == 2 + 0.25 + 0.5);
    dh_result_release(&r);
    assert_null(r.kernel_ms);
    dh_run_release(&a);
    dh_run_release(&c);
}

/* a file of many runs: a refusal or a schema error far into it is named
 * at its line; what comes first wins as it did with a whole tree */
static void deep_errors(void **st)
{
    (void)st;
    enum { N = 600 };
    static struct dh_run runs[N];
    for (int i = 0; i < N; i++)
        make_run(&runs[i], i % 2 ? "gpu_tdr" : "baseline", 2 + i / 2, 1.0 + i % 2, 12);
    write_file(tpath("many.xml"), runs, N);
    size_t len;
    char *text = dh_test_slurp(tpath("many.xml"), &len);
    struct dh_resultfile f;
    struct dh_err e = {0};
    assert_int_equal(dh_results_load(tpath("many.xml"), &f, &e), 0);
    assert_int_equal(f.n_runs, N);
    for (int i = 0; i < N; i++)
        assert_string_equal(f.runs[i].c.id, runs[i].c.id);
    assert_true(f.runs[N - 1].has_speedup);
    dh_resultfile_free(&f);
    char last_id[900];
    snprintf(last_id, sizeof last_id, "id=\"%s\"", runs[N - 1].c.id);
    char want[64];

    /* a sample no measurement gives, in the last run */
    const char *kat = strstr(strstr(text, last_id), "<kernel ");
    const char *gt = strchr(kat, '>');
    char *bad = malloc(len + 16);
    memcpy(bad, text, (size_t)(gt + 1 - text));
    strcpy(bad + (gt + 1 - text), "INF ");
    strcat(bad, gt + 1);
    spit(tpath("inf.xml"), bad);
    assert_int_equal(dh_results_load(tpath("inf.xml"), &f, &e), -DH_E_DATA);
    snprintf(want, sizeof want, "line %d: ", line_of(text, kat));
    assert_non_null(strstr(e.msg, want));
    assert_non_null(strstr(e.msg, "kernel time sample is inf"));
    assert_non_null(strstr(e.msg, tpath("inf.xml")));

    /* an attribute the schema does not allow, in the last run */
    char *attr = replace_after(text, last_id, "<verification ", "<verification bogus=\"1\" ");
    spit(tpath("attr.xml"), attr);
    assert_int_equal(dh_xml_validate(tpath("attr.xml"), &e), -DH_E_DATA);
    snprintf(want, sizeof want, "line %d: ",
             line_of(attr, strstr(strstr(attr, last_id), "<verification ")));
    assert_non_null(strstr(e.msg, "does not match results schema"));
    assert_non_null(strstr(e.msg, want));
    assert_non_null(strstr(e.msg, "bogus"));
    assert_int_equal(dh_results_load(tpath("attr.xml"), &f, &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, want));

    /* an element missing a child (the last run's <timing> without its
     * series): complained of at its end tag, named at its start */
    const char *tat = strstr(strstr(text, last_id), "<timing ");
    const char *kst = strstr(tat, "<kernel "), *kend = strstr(kst, "</timing>");
    while (kend[-1] == ' ')
        kend--;                                    /* its series gone, timing empty */
    char *nok = malloc(len + 1);
    memcpy(nok, text, (size_t)(kst - text));
    strcpy(nok + (kst - text), kend);
    spit(tpath("nokernel.xml"), nok);
    assert_int_equal(dh_xml_validate(tpath("nokernel.xml"), &e), -DH_E_DATA);
    snprintf(want, sizeof want, "line %d: Element 'timing': Missing child", line_of(text, tat));
    assert_non_null(strstr(e.msg, want));
    free(nok);
    /* the root without its runs: named at the root's line */
    const char *rs = strstr(text, "  <runs>"), *re = strstr(text, "  </runs>\n");
    char *noruns = malloc(len + 1);
    memcpy(noruns, text, (size_t)(rs - text));
    strcpy(noruns + (rs - text), re + strlen("  </runs>\n"));
    spit(tpath("noruns.xml"), noruns);
    assert_int_equal(dh_xml_validate(tpath("noruns.xml"), &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, "line 2: Element 'divharness': Missing child"));
    free(noruns);

    /* the schema error early, a value refused later: the schema's */
    char *both = replace_after(bad, "<runs>", "<verification ", "<verification bogus=\"1\" ");
    spit(tpath("both.xml"), both);
    assert_int_equal(dh_results_load(tpath("both.xml"), &f, &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, "schema"));

    /* a schema error early, the file cut short at its end: not well-formed,
     * in the whole-file parser's words and line */
    size_t cut = strlen(both) - 40;
    both[cut] = 0;
    spit(tpath("cut.xml"), both);
    assert_int_equal(dh_results_load(tpath("cut.xml"), &f, &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, "is not well-formed XML (line "));
    assert_null(strstr(e.msg, "Extra content"));
    assert_int_equal(dh_xml_validate(tpath("cut.xml"), &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, "well-formed"));

    /* a foreign root with a broken end: not well-formed comes first */
    spit(tpath("foreign.xml"), "<other><runs></other>");
    assert_int_equal(dh_xml_validate(tpath("foreign.xml"), &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, "well-formed"));
    spit(tpath("foreign.xml"), "<other><runs/></other>");
    assert_int_equal(dh_xml_validate(tpath("foreign.xml"), &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, "root element is not <divharness>"));
    spit(tpath("empty.xml"), "");
    assert_int_equal(dh_xml_validate(tpath("empty.xml"), &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, "Document is empty"));

    free(both);
    free(attr);
    free(bad);
    free(text);
    for (int i = 0; i < N; i++)
        dh_run_release(&runs[i]);
}

/* a speedup is against the first usable baseline of its workload in the
 * file's order (a failed one is passed over), found among many workloads */
static void first_baseline(void **st)
{
    (void)st;
    enum { W = 50 };
    static struct dh_run runs[3 * W + 3];
    int n = 0;
    for (int w = 0; w < W; w++) {
        make_run(&runs[n++], "baseline", 10 + w, 3.0, 12);
        make_run(&runs[n++], "gpu_tdr", 10 + w, 1.0, 12);
        make_run(&runs[n++], "melded", 10 + w, 1.5, 12);
    }
    make_run(&runs[n++], "gpu_tdr", 2, 1.0, 12);
    make_run(&runs[n], "baseline", 2, 8.0, 12);       /* failed: passed over */
    runs[n++].r.status = DH_E_WRONG;
    make_run(&runs[n++], "baseline", 2, 2.0, 12);     /* the first usable */
    dh_run_derive(runs, n);
    for (int w = 0; w < W; w++) {
        assert_true(runs[3 * w + 1].has_speedup);
        assert_true(fabs(runs[3 * w + 1].sp_kernel - 3.0) < 1e-9);
        assert_true(fabs(runs[3 * w + 2].sp_kernel - 2.0) < 1e-9);
        assert_false(runs[3 * w].has_speedup);
    }
    assert_true(runs[3 * W].has_speedup);
    assert_true(fabs(runs[3 * W].sp_kernel - 2.0) < 1e-9);
    for (int i = 0; i < n; i++)
        dh_run_release(&runs[i]);
}

/* written a section at a time: every section present once, in order, and
 * an empty file's runs as <runs/> */
static void sections(void **st)
{
    (void)st;
    struct dh_env env;
    dh_env_fill(&env, 0, NULL);
    struct dh_err e = {0};
    assert_int_equal(dh_xml_write(tpath("none.xml"), &env, NULL, NULL, 0, &e), 0);
    char *t = dh_test_slurp(tpath("none.xml"), NULL);
    assert_int_equal(strncmp(t, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<divharness "
                                "version=\"1\">\n  <environment>\n", 75), 0);
    assert_non_null(strstr(t, "  <devices/>\n  <runs/>\n</divharness>\n"));
    free(t);
    struct dh_resultfile f;
    assert_int_equal(dh_results_load(tpath("none.xml"), &f, &e), 0);
    assert_int_equal(f.n_runs, 0);
    dh_resultfile_free(&f);
    static struct dh_run runs[3];
    for (int i = 0; i < 3; i++)
        make_run(&runs[i], "baseline", 2 + i, 1.0, 12);
    runs[1].r.status = -1;                           /* pending: left out */
    write_file(tpath("three.xml"), runs, 3);
    t = dh_test_slurp(tpath("three.xml"), NULL);
    const char *r0 = strstr(t, "  <runs>\n    <run ");
    assert_non_null(r0);
    assert_non_null(strstr(r0, "    </run>\n  </runs>\n</divharness>\n"));
    free(t);
    assert_int_equal(dh_results_load(tpath("three.xml"), &f, &e), 0);
    assert_int_equal(f.n_runs, 2);
    assert_string_equal(f.runs[1].c.id, runs[2].c.id);
    dh_resultfile_free(&f);
    for (int i = 0; i < 3; i++)
        dh_run_release(&runs[i]);
}

int main(void)
{
    assert_non_null(mkdtemp(dir));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(long_series),
        cmocka_unit_test(huge_texts),
        cmocka_unit_test(blocks),
        cmocka_unit_test(deep_errors),
        cmocka_unit_test(first_baseline),
        cmocka_unit_test(sections),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        rc = rc ? rc : 1;
    return rc;
}
