/* test_report.c — `harness report`: index.md with the tables, gnuplot
 * scripts and data beside the charts, PNG/SVG when gnuplot is installed
 * (SKIPPED, never passed, when it is not), the note when it is missing,
 * and bad input. */
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "../harness/stats/derive.h"
#include "../suites/suite.h"
#include "../harness/cli/cli.h"
#include "../harness/report/report.h"
#include "../results/xml.h"
#include "../harness/support/texttable.h"

static char tmpdir[64];
static const char *dev_name = "Test GPU";   /* the sample's device */

static const char *tpath(const char *name)
{
    static char buf[8][300];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

static int exists(const char *path)
{
    struct stat sb;
    return !stat(path, &sb) && sb.st_size > 0;
}

static int is_png(const char *path)
{
    unsigned char h[8] = {0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(h, 1, 8, f);
    fclose(f);
    return n == 8 && !memcmp(h, "\x89PNG\r\n\x1a\n", 8);
}

static char *slurp(const char *path)
{
    static char buf[1 << 20];
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static void make_run(struct dh_run *u, const char *backend, const char *variant,
                     const char *alg, int iters, double ms, double cfe)
{
    memset(u, 0, sizeof *u);
    struct dh_case *c = &u->c;
    c->bench = dh_bench_find("micro", "branch");
    snprintf(c->suite, sizeof c->suite, "micro");
    snprintf(c->bench_name, sizeof c->bench_name, "branch");
    snprintf(c->variant, sizeof c->variant, "%s", variant);
    snprintf(c->backend, sizeof c->backend, "%s", backend);
    snprintf(c->device_name, sizeof c->device_name, "%s", dev_name);
    snprintf(c->size, sizeof c->size, "small");
    c->reps = 12;
    char it[16];
    snprintf(it, sizeof it, "%d", iters);
    dh_pset_put(&c->params, "paths", "2", 2, DH_P_WORKLOAD);
    dh_pset_put(&c->params, "iters", it, iters, DH_P_WORKLOAD);
    dh_pset_put(&c->params, "wg", "256", 256, DH_P_TUNABLE);
    if (alg)
        dh_pset_put(&c->params, "alg", alg, 0, DH_P_CHOICE);
    dh_case_identity(c);
    u->r.verified = 1;
    u->r.n = 12;
    assert_int_equal(dh_result_samples(&u->r, 12), 0);
    for (int i = 0; i < 12; i++)
        u->r.kernel_ms[i] = ms * (1 + 0.002 * (i % 5));
    if (!strcmp(variant, "gpu_tdr"))
        u->r.ceiling = 1.78;
    if (cfe > 0) {
        u->r.has_counters = 1;
        u->r.ctr.warp_inst_executed = 1000;
        u->r.ctr.thread_inst_pred_on = cfe * 32000;
        u->r.ctr.warp_width = 32;
        u->r.ctr.cfe = cfe;
    }
}

/* An iters sweep (break-even), CFE on cuda, the same cases on opencl. */
/* the sample's environment and devices: cuda, and opencl when nb is 2 */
static void sample_env(struct dh_env *env, struct dh_devlist *devs, int nb)
{
    char *argv[] = {"harness", "run", "--suite", "micro"};
    dh_env_fill(env, 4, argv);
    memset(devs, 0, sizeof *devs);
    devs->n = nb;
    for (int b = 0; b < nb; b++) {
        snprintf(devs->d[b].backend, sizeof devs->d[b].backend, "%s", b ? "opencl" : "cuda");
        snprintf(devs->d[b].info.name, sizeof devs->d[b].info.name, "%s", dev_name);
        snprintf(devs->d[b].info.driver, sizeof devs->d[b].info.driver, "1.0");
        devs->d[b].info.warp_width = 32;
    }
}

static void write_sample(const char *path)
{
    static struct dh_run runs[24];
    int n = 0;
    const int iters[] = {16, 256, 4096};
    for (int b = 0; b < 2; b++) {
        const char *be = b ? "opencl" : "cuda";
        for (int k = 0; k < 3; k++) {
            double base = 1.0 + k;
            make_run(&runs[n++], be, "baseline", NULL, iters[k], base, b ? 0 : 0.5);
            make_run(&runs[n++], be, "gpu_tdr", "dgi", iters[k], base / (0.6 + 0.5 * k),
                     b ? 0 : 0.85);
            /* the remap overhead: measured on cuda, n/a on opencl */
            struct dh_remap_overhead *ro = &runs[n - 1].r.remap;
            if (!b)
                *ro = (struct dh_remap_overhead){
                    .state = DH_REMAP_MEASURED, .mech = "dlt", .n_tdr = 12, .n_base = 12,
                    .tdr_ms = 1.12, .tdr_lo = 1.1, .tdr_hi = 1.2, .base_ms = 1, .base_lo = 0.95,
                    .base_hi = 1.05, .ratio = 1.125 + k, .ratio_lo = 1.0625 + k,
                    .ratio_hi = 1.25 + k};
            else
                *ro = (struct dh_remap_overhead){.state = DH_REMAP_NA,
                                                 .reason = "no key regrouping: planted"};
            make_run(&runs[n++], be, "melded", NULL, iters[k], base / 1.05, b ? 0 : 0.98);
        }
    }
    dh_run_derive(runs, n);
    struct dh_env env;
    static struct dh_devlist devs;
    sample_env(&env, &devs, 2);
    struct dh_err e = {0};
    assert_int_equal(dh_xml_write(path, &env, &devs, runs, n, &e), 0);
    for (int i = 0; i < n; i++)
        dh_run_release(&runs[i]);
}

static int report(const char *in, const char *out)
{
    char *argv[] = {"report", (char *)in, "--out", (char *)out};
    fflush(stdout);
    return dh_cmd_report(4, argv);
}

static const char *const charts[] = {
    "speedup-micro-branch-cuda-Test_GPU", "cfe-micro-branch-cuda-Test_GPU",
    "breakeven-micro-branch-cuda-Test_GPU-iters", "speedup-micro-branch-opencl-Test_GPU",
    "backends-micro-branch", NULL,
};

static void tables_and_scripts(void **st)
{
    (void)st;
    write_sample(tpath("r.xml"));
    const char *out = tpath("rep-nognuplot");
    setenv("DH_GNUPLOT", "/nonexistent/gnuplot", 1);
    assert_int_equal(report(tpath("r.xml"), out), DH_EXIT_OK);
    unsetenv("DH_GNUPLOT");
    char p[600];
    snprintf(p, sizeof p, "%s/index.md", out);
    const char *md = slurp(p);
    assert_non_null(md);
    assert_non_null(strstr(md, "Charts were skipped: gnuplot is not installed"));
    assert_non_null(strstr(md, "apt-get install gnuplot-nox"));
    assert_non_null(strstr(md, "## Environment"));
    assert_non_null(strstr(md, "## micro/branch"));
    assert_non_null(strstr(md, "### cuda: Test GPU"));
    assert_non_null(strstr(md, "### opencl: Test GPU"));
    /* the gpu_tdr row at iters=4096: speedup 1.60x, CFE and ceiling */
    assert_non_null(strstr(md, "| iters=4096 | gpu_tdr[alg=dgi] | ok |"));
    assert_non_null(strstr(md, "1.60x"));
    assert_non_null(strstr(md, "0.850 (counters)"));
    assert_non_null(strstr(md, "1.78x"));
    /* the remap overhead next to the speedup: its interval and mechanism;
     * n/a with its reason once under the table, never a number */
    assert_non_null(strstr(md, "| remap overhead [95%] |"));
    assert_non_null(strstr(md, "| 1.12x [1.06, 1.25] (dlt) |"));
    assert_non_null(strstr(md, "| 3.12x [3.06, 3.25] (dlt) |"));
    const char *op = strstr(md, "### opencl: Test GPU");
    assert_non_null(op);
    assert_non_null(strstr(op, "| n/a |"));
    const char *why = strstr(op, "- remap overhead n/a for branch: no key regrouping: planted");
    assert_non_null(why);
    assert_null(strstr(why + strlen("- remap"), "remap overhead n/a for branch: no key"));  /* once */
    assert_non_null(strstr(md, "*remap overhead* (gpu_tdr)"));
    /* no CFE on opencl: said, not silently left out */
    assert_non_null(strstr(md, "opencl: no CFE chart"));
    for (int i = 0; charts[i]; i++) {
        snprintf(p, sizeof p, "%s/%s.gp", out, charts[i]);
        assert_true(exists(p));
        snprintf(p, sizeof p, "%s/%s.dat", out, charts[i]);
        assert_true(exists(p));
        snprintf(p, sizeof p, "%s/%s.png", out, charts[i]);
        assert_false(exists(p));
        assert_non_null(strstr(md, charts[i]));
    }
}

static void charts_drawn(void **st)
{
    (void)st;
    if (access("/usr/bin/gnuplot", X_OK) && system("command -v gnuplot >/dev/null 2>&1")) {
        fprintf(stderr, "  (gnuplot not installed: apt-get install gnuplot-nox)\n");
        skip();
        return;
    }
    write_sample(tpath("r2.xml"));
    const char *out = tpath("rep");
    assert_int_equal(report(tpath("r2.xml"), out), DH_EXIT_OK);
    char p[600];
    for (int i = 0; charts[i]; i++) {
        snprintf(p, sizeof p, "%s/%s.png", out, charts[i]);
        assert_true(is_png(p));
        snprintf(p, sizeof p, "%s/%s.svg", out, charts[i]);
        const char *svg = slurp(p);
        assert_non_null(svg);
        assert_non_null(strstr(svg, "<svg"));
        snprintf(p, sizeof p, "%s/%s.log", out, charts[i]);
        assert_false(exists(p));          /* gnuplot said nothing: no warnings */
    }
    snprintf(p, sizeof p, "%s/index.md", out);
    const char *md = slurp(p);
    assert_non_null(strstr(md, "![Kernel speedup"));
    assert_null(strstr(md, "Charts were skipped"));
    /* the same report as one HTML page */
    snprintf(p, sizeof p, "%s/index.html", out);
    const char *html = slurp(p);
    assert_non_null(html);
    assert_non_null(strstr(html, "<table>"));
    assert_non_null(strstr(html, "<img src=\"speedup-"));
    /* CFE and what there is to win on panels of their own */
    snprintf(p, sizeof p, "%s/cfe-micro-branch-cuda-Test_GPU.gp", out);
    const char *cgp = slurp(p);
    assert_non_null(cgp);
    assert_non_null(strstr(cgp, "set multiplot\n"));
    assert_null(strstr(cgp, "y2range"));
    /* one workload: horizontal bars named on the axis, figures at their ends */
    const char *one = "results/reference/h100/tuned-frontier/pol-tuned-file.xml";
    if (!access(one, R_OK)) {
        out = tpath("rep-one");
        assert_int_equal(report(one, out), DH_EXIT_OK);
        snprintf(p, sizeof p, "%s/speedup-frontier-pol-cuda.gp", out);
        const char *sgp = slurp(p);
        assert_non_null(strstr(sgp, "with boxxyerror"));
        assert_non_null(strstr(sgp, "with labels"));
        assert_non_null(strstr(sgp, "unset key"));
        snprintf(p, sizeof p, "%s/speedup-frontier-pol-cuda.png", out);
        assert_true(is_png(p));
        snprintf(p, sizeof p, "%s/speedup-frontier-pol-cuda.log", out);
        assert_false(exists(p));
        /* the workload's values in the table, not "-" */
        snprintf(p, sizeof p, "%s/index.md", out);
        assert_non_null(strstr(slurp(p), "| days=504,sectors=24,seed=1 |") ||
                        strstr(slurp(p), "| seed=1 |"));
    }
    /* the committed path-length sweep gives its break-even chart */
    const char *ref = "results/reference/h100/sweep-iters.xml";
    if (!access(ref, R_OK)) {
        out = tpath("rep-sweep");
        assert_int_equal(report(ref, out), DH_EXIT_OK);
        snprintf(p, sizeof p, "%s/breakeven-micro-branch-cuda-iters.png", out);
        assert_true(is_png(p));
    }
}

/* one hue per variant family, a shade per label: no two of gdt's sixteen
 * series alike (a 12-colour cycle gave melded cpu_tdr greedymax's green) */
static void colours(void **st)
{
    (void)st;
    static const char *const labels[][2] = {
        {"baseline", NULL}, {"cpu_tdr", "key"}, {"cpu_tdr", "sort"}, {"cpu_tdr", "greedy"},
        {"cpu_tdr", "greedymax"}, {"gpu_tdr", "hot_dgi"}, {"gpu_tdr", "dgi"},
        {"gpu_tdr", "dgi_scan"}, {"gpu_tdr", "hot_warp_scan"}, {"gpu_tdr", "buy_pool"},
        {"gpu_tdr", "key_regroup"}, {"gpu_tdr", "key_buy_pool"}, {"gpu_tdr", "kind_buy_pool"},
        {"gpu_tdr", "key_dlt"}, {"gpu_tdr", "key_dlt_buy_pool"}, {"melded", NULL}};
    enum { N = sizeof labels / sizeof *labels };
    static struct dh_run runs[N];
    struct dh_resultfile f = {.runs = runs, .n_runs = N};
    char col[N][8], lab[N][300];
    for (int i = 0; i < N; i++) {
        memset(&runs[i], 0, sizeof runs[i]);
        snprintf(runs[i].c.variant, sizeof runs[i].c.variant, "%s", labels[i][0]);
        if (labels[i][1])
            dh_pset_put(&runs[i].c.params, !strcmp(labels[i][0], "cpu_tdr") ? "regroup" : "alg",
                        labels[i][1], 0, DH_P_CHOICE);
        dh_case_variant_label(&runs[i].c, lab[i], sizeof lab[i]);
    }
    for (int i = 0; i < N; i++)          /* every label in the file first */
        dh__variant_colour(&f, lab[i], col[i]);
    for (int i = 0; i < N; i++)
        for (int j = i + 1; j < N; j++) {
            if (!strcmp(col[i], col[j]))
                fprintf(stderr, "%s and %s share %s\n", lab[i], lab[j], col[i]);
            assert_string_not_equal(col[i], col[j]);
        }
    /* the family in the hue: baseline grey; gpu_tdr's red above its blue,
     * cpu_tdr's blue above its red */
    unsigned r, g, b;
    assert_int_equal(sscanf(col[0], "#%2x%2x%2x", &r, &g, &b), 3);
    assert_true(r == g && g == b);
    for (int i = 1; i < N; i++) {
        assert_int_equal(sscanf(col[i], "#%2x%2x%2x", &r, &g, &b), 3);
        if (!strcmp(labels[i][0], "gpu_tdr"))
            assert_true(r > b);
        if (!strcmp(labels[i][0], "cpu_tdr"))
            assert_true(b > r);
        if (!strcmp(labels[i][0], "melded"))
            assert_true(g > r && g > b);
    }
}

static int have_gnuplot(void)
{
    return !access("/usr/bin/gnuplot", X_OK) || !system("command -v gnuplot >/dev/null 2>&1");
}

/* Results files are data: a device name with backquotes, quotes and a
 * newline draws as text in report's and history's charts, never runs. */
static void hostile_labels(void **st)
{
    (void)st;
    if (!have_gnuplot()) {
        fprintf(stderr, "  (gnuplot not installed: apt-get install gnuplot-nox)\n");
        skip();
        return;
    }
    static char evil[300];
    snprintf(evil, sizeof evil, "Evil `touch %s/pwned1` $(touch %s/pwned2) 'q\" \\ @x "
             "![t](http://evil.example/t.png) [x](javascript:alert(1)) <b>b</b>\nGPU",
             tmpdir, tmpdir);
    dev_name = evil;
    write_sample(tpath("evil.xml"));
    dev_name = "Test GPU";
    const char *out = tpath("rep-evil");
    assert_int_equal(report(tpath("evil.xml"), out), DH_EXIT_OK);
    assert_false(access(tpath("pwned1"), F_OK) == 0);
    assert_false(access(tpath("pwned2"), F_OK) == 0);
    /* the HTML page: no image fetched, no link, no markup from the name */
    char hp[400];
    snprintf(hp, sizeof hp, "%s/index.html", out);
    const char *html = slurp(hp);
    assert_non_null(html);
    assert_null(strstr(html, "<img src=\"http"));
    assert_null(strstr(html, "href=\"javascript"));
    assert_null(strstr(html, "<b>b</b>"));
    /* drawn, with the name as written */
    int drawn = 0, found = 0;
    char cmd[900];
    snprintf(cmd, sizeof cmd, "grep -l 'Evil `touch' '%s'/*.svg 2>/dev/null | wc -l", out);
    FILE *g = popen(cmd, "r");
    assert_non_null(g);
    assert_int_equal(fscanf(g, "%d", &found), 1);
    pclose(g);
    snprintf(cmd, sizeof cmd, "ls '%s'/*.png 2>/dev/null | wc -l", out);
    g = popen(cmd, "r");
    assert_int_equal(fscanf(g, "%d", &drawn), 1);
    pclose(g);
    assert_int_equal(drawn, 6);
    assert_true(found >= 3);
    /* history: two nights of the same file */
    char *argv[] = {"history", (char *)tpath("evil.xml"), (char *)tpath("evil.xml"), "--out",
                    (char *)tpath("hist-evil"), NULL};
    (void)dh_cmd_history(5, argv);
    assert_false(access(tpath("pwned1"), F_OK) == 0);
    assert_false(access(tpath("pwned2"), F_OK) == 0);
}

/* every generated script holds nothing of the results path but quoted
 * strings: a newline in the path (a folder named so by `run --out`) used
 * to end the script's first comment, and the next line ran; a trailing
 * backslash would have continued it. report and study --from. */
static int scripts_clean(const char *dir, const char *marker)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *de;
    int n = 0;
    while ((de = readdir(d))) {
        size_t nl_ = strlen(de->d_name);
        if (nl_ < 4 || strcmp(de->d_name + nl_ - 3, ".gp"))
            continue;
        char gp[1200];
        snprintf(gp, sizeof gp, "%s/%s", dir, de->d_name);
        size_t len;
        char *text = dh_test_slurp(gp, &len);
        assert_non_null(text);
        for (char *line = text; line; ) {
            char *nl = strchr(line, '\n');
            if (nl)
                *nl = 0;
            /* the marker only ever inside a single-quoted string, never at
             * the start of a line or after a comment */
            char *m = strstr(line, marker);
            if (m) {
                int quotes = 0;
                for (char *p = line; p < m; p++)
                    quotes += *p == '\'';
                if (line[0] == '#' || quotes % 2 == 0)
                    fail_msg("%s: the path reached the script unquoted: %s", gp, line);
            }
            assert_true(strncmp(line, "system", 6) != 0);
            size_t ll = strlen(line);
            if (line[0] == '#')
                assert_true(ll == 0 || line[ll - 1] != '\\');
            line = nl ? nl + 1 : NULL;
        }
        free(text);
        n++;
    }
    closedir(d);
    return n;
}

static void hostile_path(void **st)
{
    (void)st;
    static char dir[400], file[500], out[500], sout[500], pwned[600];
    /* gnuplot runs in the chart's folder: the planted command would touch
     * pwned3 there */
    snprintf(dir, sizeof dir, "%s/x\nsystem \"touch pwned3\"\n#\\", tmpdir);
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(file, sizeof file, "%s/results.xml", dir);
    write_sample(file);
    snprintf(out, sizeof out, "%s/rep", dir);
    assert_int_equal(report(file, out), DH_EXIT_OK);
    assert_true(scripts_clean(out, "system \"touch") >= 5);
    snprintf(sout, sizeof sout, "%s/study", dir);
    char *argv[] = {"study", "--from", file, "--out", sout, NULL};
    fflush(stdout);
    (void)dh_cmd_study(5, argv);
    char rep[600];
    snprintf(rep, sizeof rep, "%s/report", sout);
    assert_true(scripts_clean(rep, "system \"touch") >= 1);
    const char *where[] = {out, rep, dir, tmpdir, "."};
    for (int k = 0; k < 5; k++) {
        snprintf(pwned, sizeof pwned, "%s/pwned3", where[k]);
        assert_false(access(pwned, F_OK) == 0);
    }
}

/* history keeps every file and every case: it dropped files after the
 * 64th and cases after the 48th without a word (micro small has 49) */
static void history_no_caps(void **st)
{
    (void)st;
    static struct dh_run runs[50];
    int n = 0;
    for (int k = 0; k < 25; k++) {
        make_run(&runs[n++], "cuda", "baseline", NULL, 16 + k, 1.0 + k, 0);
        make_run(&runs[n++], "cuda", "melded", NULL, 16 + k, 0.9 + k, 0);
    }
    dh_run_derive(runs, n);
    struct dh_env env;
    static struct dh_devlist devs;
    sample_env(&env, &devs, 1);
    enum { FILES = 66 };
    static char names[FILES][300];
    char *hargv[FILES + 4];
    int h = 0;
    hargv[h++] = "history";
    for (int f = 0; f < FILES; f++) {
        snprintf(names[f], sizeof names[f], "%s/night-%02d.xml", tmpdir, f);
        snprintf(env.started, sizeof env.started, "2026-11-%02dT02:00:00Z", 1 + f % 28);
        if (f >= 28)
            snprintf(env.started, sizeof env.started, "2026-12-%02dT02:%02d:00Z", 1 + f % 28, f);
        struct dh_err e = {0};
        assert_int_equal(dh_xml_write(names[f], &env, &devs, runs, n, &e), 0);
        hargv[h++] = names[f];
    }
    for (int i = 0; i < n; i++)
        dh_run_release(&runs[i]);
    hargv[h++] = "--out";
    hargv[h++] = (char *)tpath("hist-many");
    fflush(stdout);
    assert_int_equal(dh_cmd_history(h, hargv), 0);
    size_t len;
    char *md = dh_test_slurp(tpath("hist-many/history.md"), &len);
    assert_non_null(md);
    assert_non_null(strstr(md, "66 results files"));
    int charts = 0;
    for (const char *q = strstr(md, "## "); q; q = strstr(q + 1, "\n## "))
        charts++;
    free(md);
    fprintf(stderr, "  %d case sections\n", charts);
    assert_int_equal(charts, 50);
    /* a --case that matches nothing is named */
    char *bad[] = {"history", names[0], names[1], "--case", "zzzz", "--out",
                   (char *)tpath("hist-none")};
    assert_int_equal(dh_cmd_history(7, bad), DH_EXIT_USAGE);
}

static void bad_input(void **st)
{
    (void)st;
    FILE *f = fopen(tpath("bad.xml"), "w");
    fputs("<divharness version=\"1\"><environment>", f);
    fclose(f);
    assert_int_equal(report(tpath("bad.xml"), tpath("rep-bad")), DH_EXIT_INFRA);
    assert_int_equal(report(tpath("missing.xml"), tpath("rep-bad")), DH_EXIT_INFRA);
    char *argv[] = {"report", "--bogus"};
    assert_int_equal(dh_cmd_report(2, argv), DH_EXIT_USAGE);
    char *argv2[] = {"report"};
    assert_int_equal(dh_cmd_report(1, argv2), DH_EXIT_USAGE);
    char safe[64];
    dh_report_safe_name("micro/branch: NVIDIA H100 (x)", safe, sizeof safe);
    assert_string_equal(safe, "micro_branch_NVIDIA_H100_x");
}

static int setup(void **st)
{
    (void)st;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/dh-test-report-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **st)
{
    (void)st;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return getenv("DH_KEEP") || system(cmd) == 0 ? 0 : -1;
}


/* the run summary's columns fit their widest cell: a long variant label
 * (cpu_tdr[mech=rr,regroup=greedymax]) no longer pushes its row's later
 * columns out of line */
static void text_table(void **st)
{
    (void)st;
    static const char *const heads[] = {"bench", "variant", ">kernel ms", "status"};
    struct dh_texttable t;
    dh_tt_init(&t, 4, heads);
    const char *a[] = {"lbm", "baseline", "1.368", "ok"};
    const char *b[] = {"histo", "cpu_tdr[mech=rr,regroup=greedymax,group=64]", "0.125", "ok"};
    const char *c[] = {"pb", NULL, "12.5", "wrong"};
    assert_int_equal(dh_tt_row(&t, a, NULL), 0);
    assert_int_equal(dh_tt_row(&t, b, NULL), 0);
    assert_int_equal(dh_tt_row(&t, c, "2 of 4096 differ"), 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    dh_tt_print(&t, f);
    fclose(f);
    dh_tt_free(&t);
    /* every row's number ends, and its status starts, at the same column */
    char *line[5];
    int nl = 0;
    for (char *p = strtok(buf, "\n"); p && nl < 5; p = strtok(NULL, "\n"))
        line[nl++] = p;
    assert_int_equal(nl, 5);
    assert_string_equal(line[4], "    2 of 4096 differ");
    const char *ms[] = {"kernel ms", "1.368", "0.125", "12.5"}, *stt[] = {"status", "ok", "ok", "wrong"};
    long end = -1, at = -1;
    for (int r = 0; r < 4; r++) {
        char *m = strstr(line[r], ms[r]), *s2 = strstr(line[r], stt[r]);
        assert_non_null(m);
        assert_non_null(s2);
        long e = (long)(m - line[r]) + (long)strlen(ms[r]), s3 = (long)(s2 - line[r]);
        if (r) {
            assert_int_equal(e, end);
            assert_int_equal(s3, at);
        }
        end = e;
        at = s3;
    }
    assert_non_null(strstr(line[3], "pb  "));
    assert_non_null(strstr(line[3], " - "));
    free(buf);
}

/* the run summary's cell and n/a lines (cmd_run.c prints them) */
static void remap_cells(void **st)
{
    (void)st;
    static struct dh_run runs[4];
    memset(runs, 0, sizeof runs);
    for (int i = 0; i < 4; i++)
        snprintf(runs[i].c.bench_name, sizeof runs[i].c.bench_name, "%s", i < 3 ? "pb" : "gdt");
    runs[0].r.remap = (struct dh_remap_overhead){.state = DH_REMAP_MEASURED, .ratio = 1.125};
    runs[1].r.remap = (struct dh_remap_overhead){.state = DH_REMAP_NA, .reason = "rr only"};
    runs[2].r.remap = runs[1].r.remap;
    runs[3].r.remap = (struct dh_remap_overhead){.state = DH_REMAP_FAILED,
                                                 .status = DH_E_WRONG};
    char c[32];
    assert_string_equal(dh_remap_cell(&runs[0], c, sizeof c), "1.12x");
    assert_string_equal(dh_remap_cell(&runs[1], c, sizeof c), "n/a");
    assert_string_equal(dh_remap_cell(&runs[3], c, sizeof c), "failed");
    struct dh_run none;
    memset(&none, 0, sizeof none);
    assert_string_equal(dh_remap_cell(&none, c, sizeof c), "-");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(dh_remap_na_lines(f, runs, 4, NULL, NULL, NULL, ""), 1);
    fclose(f);
    assert_string_equal(buf, "remap overhead n/a for pb: rr only\n");
    free(buf);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(tables_and_scripts),
        cmocka_unit_test(text_table),
        cmocka_unit_test(remap_cells),
        cmocka_unit_test(charts_drawn),
        cmocka_unit_test(colours),
        cmocka_unit_test(hostile_labels),
        cmocka_unit_test(hostile_path),
        cmocka_unit_test(history_no_caps),
        cmocka_unit_test(bad_input),
    };
    return cmocka_run_group_tests_name("report", t, setup, teardown);
}
