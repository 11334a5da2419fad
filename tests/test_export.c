/* test_export.c — CSV and T4 exports of a results file. */
#include <unistd.h>

#include "testutil.h"
#include <jansson.h>
#include "../harness/stats/derive.h"
#include "../suites/suite.h"
#include "../harness/cli/cli.h"
#include "../results/xml.h"

static int count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int n = 0, c;
    while ((c = fgetc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

static void csv_and_t4(void **st)
{
    (void)st;
    struct dh_run runs[2];
    memset(runs, 0, sizeof runs);
    for (int i = 0; i < 2; i++) {
        struct dh_case *c = &runs[i].c;
        c->bench = dh_bench_find("micro", "branch");
        snprintf(c->suite, sizeof c->suite, "micro");
        snprintf(c->bench_name, sizeof c->bench_name, "branch");
        snprintf(c->variant, sizeof c->variant, i ? "gpu_tdr" : "baseline");
        snprintf(c->backend, sizeof c->backend, "opencl");
        snprintf(c->device_name, sizeof c->device_name, "dev, \"quoted\"");
        snprintf(c->size, sizeof c->size, "small");
        c->reps = 3;
        dh_pset_put(&c->params, "paths", "2", 2, DH_P_WORKLOAD);
        dh_pset_put(&c->params, "wg", "64", 64, DH_P_TUNABLE);
        dh_case_identity(c);
        runs[i].r.n = 3;
        assert_int_equal(dh_result_samples(&runs[i].r, 3), 0);
        for (int k = 0; k < 3; k++)
            runs[i].r.kernel_ms[k] = 1.0 + i + 0.01 * k;
    }
    struct dh_tuning *t = &runs[1].tune;
    snprintf(t->strategy, sizeof t->strategy, "exhaustive");
    assert_non_null(dh_tuning_add(t));
    assert_non_null(dh_tuning_add(t));
    snprintf(t->eval[0].tunables, sizeof t->eval[0].tunables, "wg=64");
    t->eval[0].ms = 2.0;
    snprintf(t->eval[1].tunables, sizeof t->eval[1].tunables, "wg=128,mode=rr");
    t->eval[0].n_runtimes = 3;
    t->eval[0].runtimes[0] = 2.1, t->eval[0].runtimes[1] = 2.0, t->eval[0].runtimes[2] = 1.9;
    t->eval[1].status = DH_E_BUILD;
    t->best = 0;
    runs[1].r.remap = (struct dh_remap_overhead){.state = DH_REMAP_MEASURED, .mech = "dlt",
                                                 .ratio = 1.125, .ratio_lo = 1, .ratio_hi = 1.25};
    dh_run_derive(runs, 2);
    struct dh_env env;
    dh_env_fill(&env, 0, NULL);
    struct dh_err e = {0};
    assert_int_equal(dh_xml_write("/tmp/dh-export.xml", &env, NULL, runs, 2, &e), 0);
    char *argv[] = {"export", "/tmp/dh-export.xml", "--csv", "/tmp/dh-export.csv", "--t4",
                    "/tmp/dh-export-t4", NULL};
    assert_int_equal(dh_cmd_export(6, argv), 0);
    assert_int_equal(count_lines("/tmp/dh-export.csv"), 3);     /* header + 2 runs */
    /* the remap overhead: the gpu_tdr row's ratio and state, blank beside the baseline */
    FILE *cf = fopen("/tmp/dh-export.csv", "r");
    assert_non_null(cf);
    char csv[8192] = {0};
    assert_true(fread(csv, 1, sizeof csv - 1, cf) > 0);
    fclose(cf);
    assert_non_null(strstr(csv, ",remap_ceiling,remap_overhead,remap_overhead_state,"
                                "remap_overhead_reason,baseline_tunables,baseline_tuned,"));
    /* the speedup's baseline: its tunables, and that nothing tuned them */
    assert_non_null(strstr(csv, ",1.125,measured,,wg=64,no,2,64\n"));
    assert_non_null(strstr(csv, ",,,,,2,64\n"));
    char path[256];
    snprintf(path, sizeof path, "/tmp/dh-export-t4/%s.json", runs[1].c.key);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char buf[4096] = {0};
    assert_true(fread(buf, 1, sizeof buf - 1, f) > 0);
    fclose(f);
    assert_non_null(strstr(buf, "\"schema_version\": \"1.0.0\""));
    assert_non_null(strstr(buf, "\"invalidity\": \"correct\""));
    assert_non_null(strstr(buf, "\"invalidity\": \"compile\""));
    assert_non_null(strstr(buf, "\"wg\": 128"));
    /* JSON a parser reads (a string value quoted: it was written bare),
     * with Kernel Tuner's time unit and every repetition's runtime */
    json_error_t je;
    json_t *doc = json_load_file(path, 0, &je);
    if (!doc)
        fprintf(stderr, "T4 is not JSON: %s at line %d\n", je.text, je.line);
    assert_non_null(doc);
    assert_string_equal(json_string_value(json_object_get(json_object_get(doc, "metadata"),
                                                          "timeunit")), "milliseconds");
    json_t *res = json_object_get(doc, "results");
    assert_int_equal(json_array_size(res), 2);
    json_t *rt = json_object_get(json_object_get(json_array_get(res, 0), "times"), "runtimes");
    assert_int_equal(json_array_size(rt), 3);
    assert_true(json_real_value(json_array_get(rt, 2)) == 1.9);
    assert_string_equal(json_string_value(json_object_get(
                            json_object_get(json_array_get(res, 1), "configuration"), "mode")),
                        "rr");
    json_decref(doc);
    /* the runs CSV: one column per parameter after the fixed ones */
    assert_non_null(strstr(csv, ",baseline_tunables,baseline_tuned,paths,wg\n"));
    char *bad[] = {"export", "/tmp/dh-export.xml", NULL};
    assert_int_equal(dh_cmd_export(2, bad), DH_EXIT_USAGE);
    char *missing[] = {"export", "/nonexistent.xml", "--csv", "/tmp/x.csv", NULL};
    assert_int_equal(dh_cmd_export(4, missing), DH_EXIT_INFRA);
    dh_run_release(&runs[0]);
    dh_run_release(&runs[1]);
}

static void history(void **st)
{
    (void)st;
    /* two "nights" of the same case, a day apart */
    struct dh_run run;
    memset(&run, 0, sizeof run);
    struct dh_case *c = &run.c;
    c->bench = dh_bench_find("micro", "branch");
    snprintf(c->suite, sizeof c->suite, "micro");
    snprintf(c->bench_name, sizeof c->bench_name, "branch");
    snprintf(c->variant, sizeof c->variant, "baseline");
    snprintf(c->backend, sizeof c->backend, "opencl");
    snprintf(c->device_name, sizeof c->device_name, "dev");
    snprintf(c->size, sizeof c->size, "small");
    c->reps = 3;
    dh_pset_put(&c->params, "paths", "2", 2, DH_P_WORKLOAD);
    dh_case_identity(c);
    run.r.n = 3;
    assert_int_equal(dh_result_samples(&run.r, 3), 0);
    struct dh_env env;
    struct dh_err e = {0};
    dh_env_fill(&env, 0, NULL);
    for (int night = 0; night < 2; night++) {
        for (int k = 0; k < 3; k++)
            run.r.kernel_ms[k] = 1.0 + 0.5 * night + 0.01 * k;
        dh_run_derive(&run, 1);
        snprintf(env.started, sizeof env.started, "2026-11-2%dT02:00:00Z", night + 1);
        char path[64];
        snprintf(path, sizeof path, "/tmp/dh-night%d.xml", night);
        assert_int_equal(dh_xml_write(path, &env, NULL, &run, 1, &e), 0);
    }
    char *argv[] = {"history", "/tmp/dh-night1.xml", "/tmp/dh-night0.xml", "--out",
                    "/tmp/dh-history", NULL};
    assert_int_equal(dh_cmd_history(5, argv), 0);
    FILE *f = fopen("/tmp/dh-history/history.md", "r");
    assert_non_null(f);
    char buf[8192] = {0};
    assert_true(fread(buf, 1, sizeof buf - 1, f) > 0);
    fclose(f);
    assert_non_null(strstr(buf, run.c.key));
    /* nights in time order, whatever the argument order */
    char *a = strstr(buf, "2026-11-21"), *b = strstr(buf, "2026-11-22");
    assert_true(a && b && a < b);
    assert_non_null(strstr(buf, "1.5100"));
    char *one[] = {"history", "/tmp/dh-night0.xml", NULL};
    assert_int_equal(dh_cmd_history(2, one), DH_EXIT_USAGE);
    dh_run_release(&run);
}

int main(void)
{
    const struct CMUnitTest t[] = {cmocka_unit_test(csv_and_t4), cmocka_unit_test(history)};
    return cmocka_run_group_tests_name("export", t, NULL, NULL);
}
