/* test_study.c — `harness study`'s matrix from hand-made results (two
 * targets of warp 32 and 64, a technique absent on one, a failed and a
 * wrong case, a row without a baseline, intervals), the geometric means,
 * and "absent is not zero" in every output (index.md, study.csv, the heat
 * map's data). The command itself is test_study_cmd.c's. */
#include <limits.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "study_test.h"
#include "../harness/cli/cli.h"
#include "../harness/report/report.h"
#include "../harness/stats/derive.h"
#include "../harness/stats/load.h"
#include "../harness/stats/study.h"
#include "../results/xml.h"
#include "../suites/suite.h"

static int col_of(const struct dh_study *s, const char *dev)
{
    for (int k = 0; k < s->n_cols; k++)
        if (!strcmp(s->cols[k].device, dev))
            return k;
    return -1;
}

static int row_of(const struct dh_study *s, int paths)
{
    char want[16];
    snprintf(want, sizeof want, "paths=%d", paths);
    for (int k = 0; k < s->n_rows; k++)
        if (strstr(s->rows[k].workload, want))
            return k;
    return -1;
}

static int tech_of(const struct dh_study *s, const char *t)
{
    for (int k = 0; k < s->n_tech; k++)
        if (!strcmp(s->tech[k], t))
            return k;
    return -1;
}

/* load the sample back, as the command does (statistics recomputed) */
static void load_sample(struct dh_resultfile *rf, struct dh_study *s)
{
    write_sample(tpath("sample.xml"));
    struct dh_err e = {0};
    assert_int_equal(dh_results_load(tpath("sample.xml"), rf, &e), 0);
    assert_int_equal(dh_study_build(rf->runs, rf->n_runs, &rf->devs, s, &e), 0);
}

static void matrix(void **st)
{
    (void)st;
    static struct dh_resultfile rf;
    struct dh_study s;
    load_sample(&rf, &s);
    assert_int_equal(s.n_rows, 3);
    assert_int_equal(s.n_cols, 2);
    assert_int_equal(s.n_tech, 3);
    assert_string_equal(s.tech[0], "cpu_tdr");
    assert_string_equal(s.tech[1], "gpu_tdr");
    assert_string_equal(s.tech[2], "melded");
    int a = col_of(&s, GA), b = col_of(&s, GB), r2 = row_of(&s, 2), r4 = row_of(&s, 4),
        r8 = row_of(&s, 8);
    int cpu = tech_of(&s, "cpu_tdr"), gpu = tech_of(&s, "gpu_tdr"), mel = tech_of(&s, "melded");
    assert_true(a >= 0 && b >= 0 && r2 >= 0 && r4 >= 0 && r8 >= 0);
    assert_int_equal(s.cols[a].warp_width, 32);
    assert_int_equal(s.cols[b].warp_width, 64);
    assert_string_equal(s.rows[r2].label, "paths=2");

    /* gpu_tdr on A: the better of dgi (1.5x) and hot (1.2x), with its interval */
    const struct dh_study_cell *c = dh_study_cell(&s, r2, a, gpu);
    assert_int_equal(c->state, DH_STUDY_OK);
    assert_string_equal(c->label, "gpu_tdr[alg=dgi]");
    assert_true(fabs(c->sp - 1.5) < 0.01);
    assert_true(c->lo <= c->sp && c->sp <= c->hi && c->lo > 1.4 && c->hi < 1.6);
    /* cpu_tdr: end to end (host 0.25 of the baseline's... of its own kernel time) */
    c = dh_study_cell(&s, r2, a, cpu);
    assert_int_equal(c->state, DH_STUDY_OK);
    assert_true(c->end_to_end);
    assert_true(fabs(c->sp_kernel - 2.0) < 0.01);
    assert_true(fabs(c->sp - 2.0 / 1.25) < 0.01);
    assert_true(fabs(c->sp - c->sp_e2e) < 1e-12);
    /* the best of A's paths=2: cpu_tdr 1.6x e2e over gpu_tdr 1.5x: the
     * intervals are tight (0.2% noise), so it is clear */
    size_t at = (size_t)r2 * (size_t)s.n_cols + (size_t)a;
    assert_int_equal(s.best[at], cpu);
    assert_int_equal(s.best_clear[at], 1);

    /* GPU B: hot_warp unsupported, but dgi ran: ok, the other one not counted as failed */
    c = dh_study_cell(&s, r2, b, gpu);
    assert_int_equal(c->state, DH_STUDY_OK);
    assert_int_equal(c->n_bad, 0);
    assert_true(fabs(c->sp - 0.8) < 0.01);
    /* melded is not in B's results: not run, with the reason, no figure */
    c = dh_study_cell(&s, r2, b, mel);
    assert_int_equal(c->state, DH_STUDY_NOT_RUN);
    assert_true(isnan(c->sp));
    assert_non_null(strstr(c->reason, "no run of it on this target"));
    /* cpu_tdr wrong on B's paths=4 */
    c = dh_study_cell(&s, r4, b, cpu);
    assert_int_equal(c->state, DH_STUDY_WRONG);
    assert_non_null(strstr(c->reason, "reference 4.0"));
    assert_true(isnan(c->sp));
    /* melded failed to build on A's paths=4 */
    c = dh_study_cell(&s, r4, a, mel);
    assert_int_equal(c->state, DH_STUDY_FAILED);
    assert_non_null(strstr(c->reason, "build"));
    assert_non_null(strstr(c->reason, "identifier undefined"));
    /* B paths=4: cpu_tdr wrong, gpu_tdr 0.8x (interval below 1): the baseline wins */
    at = (size_t)r4 * (size_t)s.n_cols + (size_t)b;
    assert_int_equal(s.best[at], DH_STUDY_BEST_BASELINE);
    /* paths=8 on A: the baseline timed out; gpu_tdr ran: no baseline, said why */
    c = dh_study_cell(&s, r8, a, gpu);
    assert_int_equal(c->state, DH_STUDY_NO_BASELINE);
    assert_non_null(strstr(c->reason, "timeout"));
    assert_int_equal(dh_study_base(&s, r8, a)->state, DH_STUDY_FAILED);
    /* paths=8 was not run on B at all */
    assert_int_equal(dh_study_base(&s, r8, b)->runs, 0);
    assert_int_equal(dh_study_cell(&s, r8, b, gpu)->state, DH_STUDY_NOT_RUN);
    /* baseline CFE from counters, the ceiling per warp width */
    const struct dh_study_base *ba = dh_study_base(&s, r2, a), *bb = dh_study_base(&s, r2, b);
    assert_int_equal(ba->state, DH_STUDY_OK);
    assert_true(fabs(ba->cfe - 0.50) < 1e-9 && fabs(bb->cfe - 0.40) < 1e-9);
    assert_string_equal(ba->cfe_source, "counters");
    assert_true(fabs(ba->ceiling - 1.98) < 1e-9 && fabs(bb->ceiling - 1.65) < 1e-9);
    dh_study_free(&s);
    dh_resultfile_free(&rf);
}

static void geomeans(void **st)
{
    (void)st;
    static struct dh_resultfile rf;
    struct dh_study s;
    load_sample(&rf, &s);
    int a = col_of(&s, GA), b = col_of(&s, GB), r2 = row_of(&s, 2), r4 = row_of(&s, 4);
    int cpu = tech_of(&s, "cpu_tdr"), gpu = tech_of(&s, "gpu_tdr"), mel = tech_of(&s, "melded");
    struct dh_study_gm g;
    /* gpu_tdr on A: paths 2 and 4 (1.5x each); paths=8 has no baseline: out */
    dh_study_geomean(&s, "micro", a, gpu, &g);
    assert_int_equal(g.n, 2);
    assert_int_equal(g.of, 3);
    double want = exp((log(dh_study_cell(&s, r2, a, gpu)->sp)
                       + log(dh_study_cell(&s, r4, a, gpu)->sp)) / 2);
    assert_true(fabs(g.gm - want) < 1e-12);
    assert_true(fabs(g.gm - 1.5) < 0.01);
    /* its interval: the cells' log-scale errors, combined */
    const struct dh_study_cell *c2 = dh_study_cell(&s, r2, a, gpu), *c4 = dh_study_cell(&s, r4, a, gpu);
    double z = 1.959964, e2 = (log(c2->hi) - log(c2->lo)) / (2 * z),
           e4 = (log(c4->hi) - log(c4->lo)) / (2 * z), se = sqrt(e2 * e2 + e4 * e4) / 2;
    assert_true(fabs(g.lo - want * exp(-z * se)) < 1e-12);
    assert_true(fabs(g.hi - want * exp(z * se)) < 1e-12);
    assert_true(g.lo < g.gm && g.gm < g.hi);
    assert_true(g.hi / g.lo < c2->hi / c2->lo);        /* two cells: narrower than one */
    /* melded on A: one cell (1.1x); the failed one is not a zero */
    dh_study_geomean(&s, NULL, a, mel, &g);
    assert_int_equal(g.n, 1);
    assert_true(fabs(g.gm - dh_study_cell(&s, r2, a, mel)->sp) < 1e-12);
    assert_true(g.gm > 1.05);
    /* melded on B: none */
    dh_study_geomean(&s, NULL, b, mel, &g);
    assert_int_equal(g.n, 0);
    assert_int_equal(g.of, 2);
    assert_true(isnan(g.gm));
    /* cpu_tdr on B: one ok (1.25x end to end... its kernel 1.25, host 0.25 of its own) */
    dh_study_geomean(&s, NULL, b, cpu, &g);
    assert_int_equal(g.n, 1);
    assert_true(fabs(g.gm - dh_study_cell(&s, r2, b, cpu)->sp) < 1e-12);
    /* a geometric mean differs from an arithmetic one: two cells 2 and 0.5 give 1 */
    struct dh_run runs[4];
    make_run(&runs[0], "cuda", GA, 32, "baseline", NULL, 2, 2.0, 0, "");
    make_run(&runs[1], "cuda", GA, 32, "melded", NULL, 2, 1.0, 0, "");
    make_run(&runs[2], "cuda", GA, 32, "baseline", NULL, 4, 1.0, 0, "");
    make_run(&runs[3], "cuda", GA, 32, "melded", NULL, 4, 2.0, 0, "");
    dh_run_derive(runs, 4);
    struct dh_study s2;
    struct dh_err e = {0};
    assert_int_equal(dh_study_build(runs, 4, NULL, &s2, &e), 0);
    dh_study_geomean(&s2, "micro", 0, 0, &g);
    assert_int_equal(g.n, 2);
    assert_true(fabs(g.gm - 1.0) < 0.005);
    assert_true(fabs(g.min - 0.5) < 0.005 && fabs(g.max - 2.0) < 0.01);
    assert_int_equal(g.wins, 1);
    assert_int_equal(dh_study_baseline_wins(&s2, NULL, 0), 1);
    assert_int_equal(s2.cols[0].warp_width, 32);      /* from the runs: no device list */
    dh_study_free(&s2);
    for (int i = 0; i < 4; i++)
        dh_run_release(&runs[i]);
    /* the baseline is the best only when every technique is slower beyond
     * its interval: a noisy one that may be faster keeps it open */
    static struct dh_run nr[3];
    make_run(&nr[0], "cuda", GA, 32, "baseline", NULL, 2, 1.0, 0, "");
    make_run(&nr[1], "cuda", GA, 32, "melded", NULL, 2, 1.0 / 0.9, 0, "");
    make_run(&nr[2], "cuda", GA, 32, "gpu_tdr", "dgi", 2, 1.0 / 0.8, 0, "");
    for (int i = 0; i < 12; i++)                 /* 0.4 .. 2.6 ms: a wide interval */
        nr[2].r.kernel_ms[i] = (i % 2 ? 0.4 : 2.6) + 0.01 * i;
    dh_run_derive(nr, 3);
    assert_int_equal(dh_study_build(nr, 3, NULL, &s2, &e), 0);
    int sg = tech_of(&s2, "gpu_tdr"), sm = tech_of(&s2, "melded");
    assert_true(dh_study_cell(&s2, 0, 0, sm)->hi < 1);
    assert_true(dh_study_cell(&s2, 0, 0, sg)->hi > 1);
    assert_true(dh_study_cell(&s2, 0, 0, sg)->sp < dh_study_cell(&s2, 0, 0, sm)->sp);
    assert_int_equal(s2.best[0], sm);
    assert_int_equal(s2.best_clear[0], 0);
    dh_study_free(&s2);
    for (int i = 0; i < 3; i++)
        dh_run_release(&nr[i]);
    dh_study_free(&s);
    dh_resultfile_free(&rf);
}

/* the run u as one of suite/bench instead */
static void rebench(struct dh_run *u, const char *suite, const char *bench)
{
    u->c.bench = dh_bench_find(suite, bench);
    assert_non_null(u->c.bench);
    snprintf(u->c.suite, sizeof u->c.suite, "%s", suite);
    snprintf(u->c.bench_name, sizeof u->c.bench_name, "%s", bench);
    dh_case_identity(&u->c);
}

/* A family the benchmark leaves out by design is "absent", with the
 * benchmark's own reason (only its own family's part of the text); a
 * family it has but that is not in the results is "not run". */
static void absent_variant(void **st)
{
    (void)st;
    static struct dh_run runs[5];
    make_run(&runs[0], "cuda", GA, 32, "baseline", NULL, 2, 2.0, 0, "");
    make_run(&runs[1], "cuda", GA, 32, "gpu_tdr", "dgi", 2, 1.0, 0, "");
    for (int i = 0; i < 2; i++)
        rebench(&runs[i], "parboil", "histo");       /* no melded: if-thens */
    make_run(&runs[2], "cuda", GA, 32, "baseline", NULL, 2, 2.0, 0, "");
    make_run(&runs[3], "cuda", GA, 32, "melded", NULL, 2, 1.0, 0, "");
    for (int i = 2; i < 4; i++)
        rebench(&runs[i], "rodinia", "lud");         /* no gpu_tdr, no cpu_tdr */
    make_run(&runs[4], "cuda", GA, 32, "baseline", NULL, 4, 2.0, 0, "");  /* micro/branch */
    dh_run_derive(runs, 5);
    struct dh_study s;
    struct dh_err e = {0};
    assert_int_equal(dh_study_build(runs, 5, NULL, &s, &e), 0);
    assert_int_equal(s.n_rows, 3);
    int gpu = tech_of(&s, "gpu_tdr"), mel = tech_of(&s, "melded");
    int histo = -1, lud = -1, branch = -1;
    for (int r = 0; r < s.n_rows; r++) {
        histo = !strcmp(s.rows[r].bench, "histo") ? r : histo;
        lud = !strcmp(s.rows[r].bench, "lud") ? r : lud;
        branch = !strcmp(s.rows[r].bench, "branch") ? r : branch;
    }
    const struct dh_study_cell *c = dh_study_cell(&s, histo, 0, mel);
    assert_int_equal(c->state, DH_STUDY_ABSENT);
    assert_non_null(strstr(c->reason, "parboil/histo has no melded variant: the paths are "
                                      "if-thens"));
    c = dh_study_cell(&s, lud, 0, gpu);
    assert_int_equal(c->state, DH_STUDY_ABSENT);
    assert_non_null(strstr(c->reason, "rodinia/lud has no gpu_tdr variant: the roles follow"));
    assert_null(strstr(c->reason, "cpu_tdr"));          /* the next family's part left out */
    assert_true(isnan(c->sp));
    /* micro/branch has both: not in the results is "not run" */
    assert_int_equal(dh_study_cell(&s, branch, 0, gpu)->state, DH_STUDY_NOT_RUN);
    assert_int_equal(dh_study_cell(&s, branch, 0, mel)->state, DH_STUDY_NOT_RUN);
    assert_string_equal(dh_study_state_name(DH_STUDY_ABSENT), "absent");
    dh_study_free(&s);

    /* in index.md: histo's missing melded on two targets, one note */
    static struct dh_run two[6];
    /* melded is a technique of the study through micro/branch */
    make_run(&two[4], "opencl", GA, 32, "baseline", NULL, 2, 2.0, 0, "");
    make_run(&two[5], "opencl", GA, 32, "melded", NULL, 2, 1.0, 0, "");
    for (int k = 0; k < 2; k++) {
        make_run(&two[2 * k], "opencl", k ? GB : GA, 32, "baseline", NULL, 2, 2.0, 0, "");
        make_run(&two[2 * k + 1], "opencl", k ? GB : GA, 32, "gpu_tdr", "dgi", 2, 1.0, 0, "");
        rebench(&two[2 * k], "parboil", "histo");
        rebench(&two[2 * k + 1], "parboil", "histo");
    }
    dh_run_derive(two, 6);
    struct dh_env env;
    char *av[] = {"harness", "run", "--suite", "parboil"};
    dh_env_fill(&env, 4, av);
    static struct dh_devlist devs;
    memset(&devs, 0, sizeof devs);
    assert_int_equal(dh_xml_write(tpath("histo.xml"), &env, &devs, two, 6, &e), 0);
    char *argv[] = {"study", "--from", (char *)tpath("histo.xml"), "--out", (char *)tpath("hi")};
    fflush(stdout);
    dh_cmd_study(5, argv);
    char *md = slurp(tpath("hi/report/index.md"));
    assert_non_null(md);
    /* no AMD target: the report says HIP on AMD is a compile check only */
    assert_non_null(strstr(md, "Not in this study: HIP on AMD GPUs"));
    /* the baselines' CFE says where it came from (these: CUPTI's counters) */
    assert_non_null(strstr(md, ", counters) |"));
    const char *why = "parboil/histo has no melded variant";
    char *first = strstr(md, why);
    assert_non_null(first);
    assert_null(strstr(first + 1, why));
    /* both cells point at that one note */
    char *c1 = strstr(md, "melded — *absent* [");
    assert_non_null(c1);
    char ref[32];
    snprintf(ref, sizeof ref, "%.*s", (int)(strchr(c1, ']') - c1 + 1), c1);
    char *c2 = strstr(c1 + 1, ref);
    assert_non_null(c2);
    char note[16];
    snprintf(note, sizeof note, "\n%.*s. ", (int)(strchr(c1, ']') - strchr(c1, '[') - 1),
             strchr(c1, '[') + 1);
    assert_non_null(strstr(md, note));
    assert_true(strstr(strstr(md, note), why) == strstr(md, note) + strlen(note));
}

/* "n of m" in the geomean CSV for a target and technique over every suite */
static const char *gm_line(const char *csv, const char *dev, const char *tech)
{
    static char line[512];
    for (const char *p = csv; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        snprintf(line, sizeof line, "%.*s", (int)l, p);
        char d[64], t[32];
        snprintf(d, sizeof d, "\"%s\"", dev);
        snprintf(t, sizeof t, "\"%s\"", tech);
        if (!strncmp(line, "\"(all)\"", 7) && strstr(line, d) && strstr(line, t))
            return line;
        p = e ? e + 1 : NULL;
    }
    return "";
}

static void absent_is_not_zero(void **st)
{
    (void)st;
    write_sample(tpath("s.xml"));
    char *argv[] = {"study", "--from", (char *)tpath("s.xml"), "--out", (char *)tpath("st")};
    fflush(stdout);
    int rc = dh_cmd_study(5, argv);
    assert_true(rc == 0 || rc == DH_EXIT_INFRA);         /* INFRA: a chart failed to draw */
    /* the CSV: a line per cell; an absent one has an empty speedup and its state */
    char *csv = slurp(tpath("st/report/study.csv"));
    assert_non_null(csv);
    int lines = 0;
    for (char *p = csv; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 1 + 3 * 2 * 3);               /* header + rows x targets x techs */
    assert_non_null(strstr(csv, "\"opencl\",\"" GB "\",64,\"melded\",\"not run\",\"\",,,,"));
    assert_non_null(strstr(csv, "\"cuda\",\"" GA "\",32,\"melded\",\"failed\",\"\",,,,"));
    assert_non_null(strstr(csv, "\"opencl\",\"" GB "\",64,\"cpu_tdr\",\"wrong\",\"\",,,,"));
    assert_non_null(strstr(csv, "\"no baseline\""));
    char *gm = slurp(tpath("st/report/study-geomean.csv"));
    assert_non_null(gm);
    /* melded on B: no figure, no geomean: an empty field, not 0 */
    assert_non_null(strstr(gm_line(gm, GB, "melded"), "\"melded\",,,,,,0,2,0,"));
    assert_non_null(strstr(gm_line(gm, GA, "gpu_tdr"), ",2,3,"));
    /* the heat map: figures in block 0, the rest in block 1 with their state */
    char *hm = slurp(tpath("st/report/study-heatmap-melded.dat"));
    assert_non_null(hm);
    char *b1 = strstr(hm, "\n\n\n");
    assert_non_null(b1);
    *b1 = 0;
    assert_int_equal(strstr(hm, "\t0.00") == NULL, 1);
    assert_non_null(strstr(b1 + 1, "\tnot run"));
    assert_non_null(strstr(b1 + 1, "\tfailed"));
    /* index.md: the states in words with the message in a note */
    char *md = slurp(tpath("st/report/index.md"));
    assert_non_null(md);
    assert_non_null(strstr(md, "melded — *failed*"));
    assert_non_null(strstr(md, "cpu\\_tdr — *wrong*"));
    assert_non_null(strstr(md, "identifier undefined"));
    assert_non_null(strstr(md, "reference 4.0"));
    assert_non_null(strstr(md, "*no baseline*"));
    assert_non_null(strstr(md, "★ **baseline**"));
    assert_non_null(strstr(md, "ceiling 1.65× at warp 64"));
    assert_non_null(strstr(md, "ceiling 1.98× at warp 32"));
    assert_null(strstr(md, " 0.00×"));
    /* the bars: every technique's panel, the chart's scripts quote the device names */
    char *gp = slurp(tpath("st/report/study-bars-micro.gp"));
    assert_non_null(gp);
    assert_non_null(strstr(gp, "'cuda: " GA "'"));
}

/* Results are data: a device name with backquotes, quotes, a table bar
 * and HTML draws and reads as text, and runs nothing. */
static void hostile_names(void **st)
{
    (void)st;
    const char *evil = "dev `touch PWNED` 'q' | <img src=x> *b*";
    static struct dh_run runs[2];
    make_run(&runs[0], "opencl", evil, 32, "baseline", NULL, 2, 2.0, 0, "");
    make_run(&runs[1], "opencl", evil, 32, "melded", NULL, 2, 1.0, 0, "");
    dh_run_derive(runs, 2);
    struct dh_env env;
    char *av[] = {"harness", "run", "--suite", "micro"};
    dh_env_fill(&env, 4, av);
    static struct dh_devlist devs;
    memset(&devs, 0, sizeof devs);
    struct dh_err e = {0};
    assert_int_equal(dh_xml_write(tpath("evil.xml"), &env, &devs, runs, 2, &e), 0);
    char *argv[] = {"study", "--from", (char *)tpath("evil.xml"), "--out", (char *)tpath("ev")};
    fflush(stdout);
    int rc = dh_cmd_study(5, argv);
    char gnuplot[4096];
    int have = !dh_gnuplot_find(gnuplot, sizeof gnuplot);
    assert_int_equal(rc, 0);
    assert_int_equal(access(tpath("ev/report/PWNED"), F_OK), -1);
    assert_int_equal(access("PWNED", F_OK), -1);
    char *md = slurp(tpath("ev/report/index.md"));
    assert_non_null(md);
    assert_non_null(strstr(md, "dev \\`touch PWNED\\` 'q' \\| &lt;img src=x&gt; \\*b\\*"));
    assert_null(strstr(md, "<img"));
    char *gp = slurp(tpath("ev/report/study-bars-micro.gp"));
    assert_non_null(gp);
    assert_non_null(strstr(gp, "'opencl: dev `touch PWNED` ''q'' | <img src=x> *b*'"));
    if (have)
        assert_int_equal(access(tpath("ev/report/study-bars-micro.png"), R_OK), 0);
}

static int teardown(void **st)
{
    (void)st;
    return remove_tmpdir();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(matrix),
        cmocka_unit_test(geomeans),
        cmocka_unit_test(absent_is_not_zero),
        cmocka_unit_test(absent_variant),
        cmocka_unit_test(hostile_names),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
