/* test_xml.c — results XML: round trip, schema, corrupt and foreign files. */
#include <math.h>
#include <unistd.h>

#include "testutil.h"
#include "../harness/stats/derive.h"
#include "../suites/suite.h"
#include "../results/xml.h"
#include "../harness/stats/load.h"

static void make_run(struct dh_run *u, const char *variant, double ms, int status)
{
    memset(u, 0, sizeof *u);
    struct dh_case *c = &u->c;
    c->bench = dh_bench_find("micro", "branch");
    snprintf(c->suite, sizeof c->suite, "micro");
    snprintf(c->bench_name, sizeof c->bench_name, "branch");
    snprintf(c->variant, sizeof c->variant, "%s", variant);
    snprintf(c->backend, sizeof c->backend, "opencl");
    snprintf(c->device_name, sizeof c->device_name, "Dev <&> \"x\"");
    snprintf(c->size, sizeof c->size, "small");
    c->reps = 12;
    c->warmup = 2;
    dh_pset_put(&c->params, "paths", "2", 2, DH_P_WORKLOAD);
    dh_pset_put(&c->params, "wg", "256", 256, DH_P_TUNABLE);
    if (!strcmp(variant, "gpu_tdr"))
        dh_pset_put(&c->params, "alg", "hot", 0, DH_P_CHOICE);
    dh_case_identity(c);
    u->r.status = status;
    u->r.verified = 1;
    u->r.verify.checked = 100;
    assert_int_equal(dh_result_text(&u->r.options, "-D DH_WG=256 -D X=0x1.8p-1f",
                                     DH_OPTIONS_MAX), 0);
    if (status == 0) {
        u->r.n = 12;
        assert_int_equal(dh_result_samples(&u->r, 12), 0);
        for (int i = 0; i < 12; i++) {
            u->r.kernel_ms[i] = ms * (1 + 0.01 * i);
            u->r.host_ms[i] = 0.125;
            u->r.xfer_ms[i] = 0;
        }
        u->r.ceiling = strcmp(variant, "gpu_tdr") ? 0 : 1.78;
    } else {
        snprintf(u->r.message, sizeof u->r.message, "kernel build failed: error <here>");
        assert_int_equal(dh_result_text(&u->r.build_log, "line 3: error: x & y\n",
                                         DH_BUILD_LOG_MAX), 0);
    }
}

static void round_trip(void **st)
{
    (void)st;
    struct dh_run runs[3];
    make_run(&runs[0], "baseline", 2.0, 0);
    make_run(&runs[1], "gpu_tdr", 1.0, 0);
    make_run(&runs[2], "melded", 0, DH_E_BUILD);
    /* --reps auto, host work timed on the first 4 repetitions only */
    runs[0].c.reps = DH_REPS_AUTO;
    runs[0].c.reps_target = 0.02;
    runs[0].c.reps_max = 50;
    runs[0].r.n_host = 4;
    for (int i = 0; i < 4; i++)
        runs[0].r.host_ms[i] = 1.0 + i;
    /* where the case's time went */
    runs[0].r.case_ms = 2400.5;
    runs[0].r.bbv_ms = 500.25;
    runs[0].r.measure_ms = 1200.125;
    runs[0].r.model_ms = 3.5;
    runs[0].r.counters_ms = 310.75;
    /* the model: ordered BBVs on the baseline, the totals on gpu_tdr */
    for (int i = 0; i < 2; i++) {
        struct dh_model_result *m = &runs[i].r.model;
        *m = (struct dh_model_result){.valid = 1, .table = "nvidia-sm90", .bbv_source = "profile",
                                      .n_blocks = 18, .n_items = 1024, .n_classes = 1022,
                                      .acquire_ms = 54.5, .warp_width = 32, .wg = 256, .cus = 2,
                                      .slots = 8, .cfe32 = 0.25, .cfe64 = 0.125,
                                      .window = i ? 0 : 16, .windows = i ? 1 : 28};
        m->own = m->base = (struct dh_model_point){0.25, 1, 1000, 500};
    }
    /* the scheduled-floor metric on the baseline only: the other's
     * <model> has no floor attributes and reads back NAN */
    runs[0].r.model.own.t_floor = 400;
    runs[0].r.model.base.t_floor = 600;
    runs[0].r.model.schedulers = 4;
    runs[0].r.model.launch_items = 512;
    /* where the divergence is: two blocks on the baseline, none on gpu_tdr */
    runs[0].r.model.waste_total = 1500;
    runs[0].r.model.issued_total = 2000;
    runs[0].r.model.n_waste = 2;
    runs[0].r.model.waste[0] = (struct dh_model_waste){"l2 <&> \"x\"", 1000, 2.0 / 3, 0.25};
    runs[0].r.model.waste[1] = (struct dh_model_waste){"l1", 500, 1.0 / 3, 0.5};
    dh_run_derive(runs, 3);
    assert_true(runs[0].host.median == 2.5);                   /* of the 4, not 12 */
    assert_true(dh_e2e_sample(&runs[0].r, 5) == runs[0].r.kernel_ms[5] + 2.0);
    assert_true(runs[1].has_speedup);
    struct dh_env env;
    char *argv[] = {"harness", "run", "--suite", "micro"};
    dh_env_fill(&env, 4, argv);
    struct dh_devlist devs = {0};
    devs.n = 1;
    snprintf(devs.d[0].backend, 16, "opencl");
    snprintf(devs.d[0].info.name, sizeof devs.d[0].info.name, "Dev <&> \"x\"");
    devs.d[0].info.warp_width = 32;
    char path[] = "/tmp/dh-test-xml-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    struct dh_err e = {0};
    assert_int_equal(dh_xml_write(path, &env, &devs, runs, 3, &e), 0);
    assert_int_equal(dh_xml_validate(path, &e), 0);
    struct dh_resultfile f;
    assert_int_equal(dh_results_load(path, &f, &e), 0);
    assert_int_equal(f.n_runs, 3);
    assert_string_equal(f.env.command, "harness run --suite micro");
    assert_int_equal(f.devs.n, 1);
    assert_string_equal(f.devs.d[0].info.name, "Dev <&> \"x\"");
    for (int i = 0; i < 3; i++) {
        assert_string_equal(f.runs[i].c.id, runs[i].c.id);
        assert_string_equal(f.runs[i].c.key, runs[i].c.key);
        assert_int_equal(f.runs[i].r.status, runs[i].r.status);
        assert_int_equal(f.runs[i].r.n, runs[i].r.n);
        for (int k = 0; k < runs[i].r.n; k++)
            assert_true(f.runs[i].r.kernel_ms[k] == runs[i].r.kernel_ms[k]);
        /* identity recomputed from the file's fields matches the stored one */
        struct dh_case c = f.runs[i].c;
        dh_case_identity(&c);
        assert_string_equal(c.id, runs[i].c.id);
        assert_string_equal(dh_pset_text(&f.runs[i].c.params, "wg", "?"), "256");
    }
    assert_string_equal(f.runs[2].r.build_log, "line 3: error: x & y\n");
    assert_int_equal(f.runs[0].c.reps, DH_REPS_AUTO);
    assert_true(f.runs[0].c.reps_target == 0.02 && f.runs[0].c.reps_max == 50);
    assert_int_equal(f.runs[0].r.n_host, 4);
    assert_true(f.runs[0].r.host_ms[3] == 4.0 && f.runs[0].host.median == 2.5);
    assert_int_equal(f.runs[1].r.n_host, 0);                  /* every repetition's */
    assert_true(f.runs[0].r.case_ms == 2400.5 && f.runs[0].r.bbv_ms == 500.25);
    assert_true(f.runs[0].r.measure_ms == 1200.125 && f.runs[0].r.model_ms == 3.5);
    assert_true(f.runs[0].r.counters_ms == 310.75);
    assert_true(f.runs[1].r.case_ms == 0);                     /* none recorded: none written */
    assert_true(fabs(f.runs[0].e2e.median - runs[0].e2e.median) < 1e-9);
    assert_true(f.runs[1].has_speedup);
    assert_true(fabs(f.runs[1].sp_kernel - runs[1].sp_kernel) < 1e-9);
    assert_true(fabs(f.runs[1].r.ceiling - 1.78) < 1e-12);
    assert_true(f.runs[0].r.model.valid && f.runs[1].r.model.valid);
    assert_int_equal(f.runs[0].r.model.window, 16);
    assert_int_equal(f.runs[0].r.model.windows, 28);
    assert_int_equal(f.runs[1].r.model.window, 0);            /* no attributes: the totals */
    assert_int_equal(f.runs[1].r.model.windows, 1);
    assert_true(f.runs[0].r.model.cfe32 == 0.25);
    assert_true(f.runs[0].r.model.own.t_floor == 400 && f.runs[0].r.model.base.t_floor == 600);
    assert_int_equal(f.runs[0].r.model.schedulers, 4);
    assert_int_equal(f.runs[0].r.model.launch_items, 512);
    assert_int_equal(f.runs[0].r.model.n_waste, 2);
    assert_string_equal(f.runs[0].r.model.waste[0].block, "l2 <&> \"x\"");
    assert_true(f.runs[0].r.model.waste[0].lane_cycles == 1000);
    assert_true(fabs(f.runs[0].r.model.waste[0].share - 2.0 / 3) < 1e-8);
    assert_true(f.runs[0].r.model.waste[1].eff == 0.5);
    assert_true(f.runs[0].r.model.waste_total == 1500 && f.runs[0].r.model.issued_total == 2000);
    assert_int_equal(f.runs[1].r.model.n_waste, 0);
    assert_true(isnan(f.runs[1].r.model.own.t_floor) && isnan(f.runs[1].r.model.base.t_floor));
    assert_int_equal(f.runs[1].r.model.launch_items, 0);
    dh_resultfile_free(&f);
    /* the totals' <model> carries no window attributes */
    FILE *fp = fopen(path, "r");
    static char text[1 << 17];
    size_t got = fread(text, 1, sizeof text - 1, fp);
    fclose(fp);
    text[got] = 0;
    assert_int_equal(strstr(text, " windows=\"28\"") != NULL, 1);
    char *second = strstr(strstr(text, "<model ") + 1, "<model ");
    assert_non_null(second);
    *strchr(second, '>') = 0;
    assert_null(strstr(second, "window"));
    for (int i = 0; i < 3; i++)
        dh_run_release(&runs[i]);
    unlink(path);
}

static void write_text(const char *path, const char *text);

/* a gpu_tdr run's remap overhead: measured (figures and mechanism), n/a
 * (its reason) and failed (status and reason) come back as written; a run
 * without one (older files, other variants) reads as none */
static void remap_overhead_round_trip(void **st)
{
    (void)st;
    struct dh_run runs[4];
    make_run(&runs[0], "baseline", 2.0, 0);
    const char *alg[] = {"hot", "dgi", "hot_warp"};
    for (int i = 1; i < 4; i++) {
        make_run(&runs[i], "gpu_tdr", 1.0, 0);
        dh_pset_put(&runs[i].c.params, "alg", alg[i - 1], i, DH_P_CHOICE);
        dh_case_identity(&runs[i].c);
    }
    runs[1].r.remap = (struct dh_remap_overhead){
        .state = DH_REMAP_MEASURED, .mech = "rr", .n_tdr = 12, .n_base = 11,
        .tdr_ms = 1.25, .tdr_lo = 1.125, .tdr_hi = 1.5, .base_ms = 1.0, .base_lo = 0.875,
        .base_hi = 1.0625, .ratio = 1.25, .ratio_lo = 1.0625, .ratio_hi = 1.5};
    runs[1].r.case_ms = 1625.0;         /* the parts are written beside the whole */
    runs[1].r.remap_ms = 812.5;
    runs[2].r.remap = (struct dh_remap_overhead){
        .state = DH_REMAP_NA, .reason = "no key regrouping: <none> & \"so\""};
    runs[3].r.remap = (struct dh_remap_overhead){
        .state = DH_REMAP_FAILED, .status = DH_E_WRONG, .mech = "dlt",
        .reason = "gpu_tdr on the regrouped input: 3 of 9 outputs differ"};
    dh_run_derive(runs, 4);
    struct dh_env env;
    dh_env_fill(&env, 0, NULL);
    struct dh_devlist devs = {0};
    devs.n = 1;
    snprintf(devs.d[0].backend, 16, "opencl");
    devs.d[0].info.warp_width = 32;
    const char *p = "/tmp/dh-test-remap-overhead.xml";
    struct dh_err e = {0};
    assert_int_equal(dh_xml_write(p, &env, &devs, runs, 4, &e), 0);
    assert_int_equal(dh_xml_validate(p, &e), 0);
    struct dh_resultfile f;
    assert_int_equal(dh_results_load(p, &f, &e), 0);
    assert_int_equal(f.n_runs, 4);
    assert_int_equal(f.runs[0].r.remap.state, DH_REMAP_NONE);
    const struct dh_remap_overhead *m = &f.runs[1].r.remap;
    assert_int_equal(m->state, DH_REMAP_MEASURED);
    assert_string_equal(m->mech, "rr");
    assert_int_equal(m->n_tdr, 12);
    assert_int_equal(m->n_base, 11);
    assert_true(m->ratio == 1.25 && m->ratio_lo == 1.0625 && m->ratio_hi == 1.5);
    assert_true(m->tdr_ms == 1.25 && m->tdr_lo == 1.125 && m->tdr_hi == 1.5);
    assert_true(m->base_ms == 1.0 && m->base_lo == 0.875 && m->base_hi == 1.0625);
    assert_true(f.runs[1].r.remap_ms == 812.5);
    assert_int_equal(f.runs[2].r.remap.state, DH_REMAP_NA);
    assert_string_equal(f.runs[2].r.remap.reason, "no key regrouping: <none> & \"so\"");
    assert_true(isnan(f.runs[2].r.remap.ratio));            /* n/a is never a number */
    assert_int_equal(f.runs[3].r.remap.state, DH_REMAP_FAILED);
    assert_int_equal(f.runs[3].r.remap.status, DH_E_WRONG);
    assert_string_equal(f.runs[3].r.remap.mech, "dlt");
    assert_non_null(strstr(f.runs[3].r.remap.reason, "3 of 9 outputs differ"));
    dh_resultfile_free(&f);
    /* a measured figure without its ratio is refused, and so is an unknown state */
    static char text[1 << 18], bad[1 << 18];
    FILE *fp = fopen(p, "r");
    size_t len = fread(text, 1, sizeof text - 1, fp);
    text[len] = 0;
    fclose(fp);
    struct { const char *from, *to, *says; } cases[] = {
        {" ratio=\"1.25\"", "", "ratio is missing or not positive"},
        {" ratio=\"1.25\"", " ratio=\"-1\"", "ratio is missing or not positive"},
        {"state=\"n/a\"", "state=\"zero\"", NULL},          /* the schema's own refusal */
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char *at = strstr(text, cases[k].from);
        assert_non_null(at);
        snprintf(bad, sizeof bad, "%.*s%s%s", (int)(at - text), text, cases[k].to,
                 at + strlen(cases[k].from));
        write_text(p, bad);
        e.msg[0] = 0;
        assert_int_equal(dh_results_load(p, &f, &e), -DH_E_DATA);
        if (cases[k].says)
            assert_non_null(strstr(e.msg, cases[k].says));
    }
    for (int i = 0; i < 4; i++)
        dh_run_release(&runs[i]);
    unlink(p);
}

static void write_text(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

static void bad_files(void **st)
{
    (void)st;
    struct dh_err e = {0};
    struct dh_resultfile f;
    assert_int_equal(dh_results_load("/nonexistent/x.xml", &f, &e), -DH_E_IO);
    const char *p = "/tmp/dh-test-bad.xml";
    write_text(p, "<divharness version=\"1\"><environment>");     /* truncated */
    assert_int_equal(dh_results_load(p, &f, &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, "well-formed"));
    write_text(p, "<other/>");
    assert_int_equal(dh_xml_validate(p, &e), -DH_E_DATA);
    write_text(p, "<divharness version=\"2\"/>");
    assert_int_equal(dh_xml_validate(p, &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, "version 2"));
    write_text(p, "<divharness version=\"1\"><runs/></divharness>");   /* schema */
    assert_int_equal(dh_xml_validate(p, &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, "schema"));
    unlink(p);
}

/* Values the schema lets through but no measurement can be: refused on
 * reading with the line (compare judged INF/NaN/0/negative samples
 * "ambiguous" and exited 0; an oversized integer became INT_MIN and merge
 * wrote files validate rejects); one run per case in a file. */
static void refused_values(void **st)
{
    (void)st;
    struct dh_run runs[2];
    make_run(&runs[0], "baseline", 2.0, 0);
    make_run(&runs[1], "gpu_tdr", 1.0, 0);
    dh_run_derive(runs, 2);
    struct dh_env env;
    dh_env_fill(&env, 0, NULL);
    struct dh_devlist devs = {0};
    devs.n = 1;
    snprintf(devs.d[0].backend, 16, "opencl");
    devs.d[0].info.warp_width = 32;
    const char *p = "/tmp/dh-test-refused.xml";
    struct dh_err e = {0};
    assert_int_equal(dh_xml_write(p, &env, &devs, runs, 2, &e), 0);
    static char text[1 << 18], bad[1 << 18];
    FILE *fp = fopen(p, "r");
    size_t len = fread(text, 1, sizeof text - 1, fp);
    text[len] = 0;
    fclose(fp);
    struct { const char *from, *to, *says; } cases[] = {
        {">2 ", ">INF ", "kernel time sample is inf"},
        {">2 ", ">NaN ", "kernel time sample is nan"},
        {">2 ", ">-1 ", "kernel time sample is -1"},
        {">2 ", ">0 ", "kernel time sample is 0"},
        {"warp_width=\"32\"", "warp_width=\"99999999999\"", "warp_width is 99999999999"},
        {"reps=\"12\"", "reps=\"12.5\"", NULL},      /* the schema's own refusal */
        {"reps=\"12\"", "reps=\"12\" reps_rule=\"auto:0:5\"", "reps_rule is auto:0:5"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char *at = strstr(text, cases[k].from);
        assert_non_null(at);
        size_t head = (size_t)(at - text);
        snprintf(bad, sizeof bad, "%.*s%s%s", (int)head, text, cases[k].to,
                 at + strlen(cases[k].from));
        write_text(p, bad);
        struct dh_resultfile f;
        e.msg[0] = 0;
        assert_int_equal(dh_results_load(p, &f, &e), -DH_E_DATA);
        if (cases[k].says && !strstr(e.msg, cases[k].says))
            fprintf(stderr, "case %zu: %s\n", k, e.msg);
        if (cases[k].says)
            assert_non_null(strstr(e.msg, cases[k].says));
        assert_non_null(strstr(e.msg, "line "));
    }
    /* the same run twice */
    char *r0 = strstr(text, "<run "), *r1 = strstr(r0 + 1, "<run ");
    assert_true(r0 && r1);
    snprintf(bad, sizeof bad, "%.*s%.*s%s", (int)(r1 - text), text, (int)(r1 - r0), r0, r1);
    write_text(p, bad);
    struct dh_resultfile f;
    assert_int_equal(dh_results_load(p, &f, &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, "appears twice"));
    dh_run_release(&runs[0]);
    dh_run_release(&runs[1]);
    unlink(p);
}

static void unwritable(void **st)
{
    (void)st;
    struct dh_env env;
    dh_env_fill(&env, 0, NULL);
    struct dh_err e = {0};
    assert_int_equal(dh_xml_write("/nonexistent-dir/r.xml", &env, NULL, NULL, 0, &e), -DH_E_IO);
    assert_non_null(strstr(e.msg, "--out"));
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(round_trip), cmocka_unit_test(bad_files), cmocka_unit_test(unwritable),
        cmocka_unit_test(refused_values), cmocka_unit_test(remap_overhead_round_trip),
    };
    return cmocka_run_group_tests_name("xml", t, NULL, NULL);
}
