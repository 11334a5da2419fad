/* cmd_study.c — `harness study`: a vendor-comparison study as one job.
 *
 *   harness study --suite S[,S..] --backend B[,B..]|all [--device N[,N..]|all]
 *                 [run options] [--out DIR] [--slurm [slurm options]]
 *   harness study --from RESULTS.xml [MORE.xml...] [--out DIR]
 *
 * The same cases on every chosen backend and device: for each suite and
 * device index, `harness run --suite S --backend <those with that device>
 * --device K --out DIR/runs/S-dK` with the other options as given (run
 * parses and checks them; a second study in the same DIR resumes each run
 * as run does). Each run goes in a child process of its own, as a fresh
 * `harness run` would. The results join with `harness merge` into
 * DIR/study.xml, and DIR/report/ gets the study report (report.h,
 * harness/stats/study.h). With --slurm, each suite and target is a
 * `harness slurm` submission of its own (its own partition: one node type
 * per target), and the study report is made from their merged.xml files
 * once they end (--wait), or later with --from.
 */
#include <errno.h>
#include <signal.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "../support/suggest.h"
#include "../report/report.h"
#include "../run/runner.h"
#include "../stats/load.h"
#include "../stats/study.h"
#include "../support/fs.h"
#include "../../suites/suite.h"

#define MAX_ARGS 256
#define MAX_FILES 256

static void study_usage(FILE *f)
{
    fprintf(f,
        "usage: harness study --suite S[,S...] [--backend B[,B...]|all] [--device N[,N...]|all]\n"
        "                     [run options] [--out DIR] [--slurm [slurm options]]\n"
        "       harness study --from RESULTS.xml [MORE.xml...] [--out DIR]\n"
        "  The same cases on every chosen backend and device, one report of which\n"
        "  technique pays where: per workload and target each technique's tuned speedup\n"
        "  over the tuned baseline with its 95%% interval, the best marked, geometric\n"
        "  means per suite and target, baseline CFE and remap ceiling, heat maps and\n"
        "  bar charts (docs/guide/studies.md).\n"
        "  --suite S[,S...]     suites (one `harness run` each)\n"
        "  --backend B[,B...]   backends (default opencl); all: every backend with a device\n"
        "  --device N[,N...]    device indices within each backend (default 0); all: every\n"
        "                       device of each chosen backend\n"
        "  --out DIR            the study folder (default results/runs/<time>): runs/ (one\n"
        "                       run folder per suite and device index; run again to resume),\n"
        "                       study.xml (merged) and report/ (index.md, study.csv,\n"
        "                       study-geomean.csv, charts). With --from: report/ only,\n"
        "                       plus study.xml when several files are joined; default: the\n"
        "                       folder 'study' beside the first file\n"
        "  --from FILE...       no runs: the report from results files (merged, or several,\n"
        "                       e.g. a nightly's from several machines: joined by merge)\n"
        "  run options          every other option goes to `harness run` as it is: --bench,\n"
        "                       --variant, --size, --param, --reps, --tune..., --fresh\n"
        "                       (see harness run --help)\n"
        "  --slurm              submit each suite x backend x device to Slurm through\n"
        "                       `harness slurm` (results in DIR/slurm-<suite>-<backend>-d<N>)\n"
        "                       instead of running here; --device takes indices (the nodes'\n"
        "                       devices are not visible here). Slurm options:\n"
        "    --partition [B=]P  sbatch --partition, for every target or for backend B\n"
        "                       (repeatable: --partition cuda=a100 --partition hip=mi250)\n"
        "    --shards N         shards per target (default 1)\n"
        "    --time T, --gpus-per-task G, --sbatch-arg ARG, --poll S   as harness slurm\n"
        "    --wait             follow the jobs, then make the report from what came back\n");
}

/* A child runs fn(argc, argv) as the command would: its own process, so
 * that each run's static state and folder lock are its own. While children
 * run, the study ignores Ctrl-C: it reaches them too, and they stop as
 * their commands do (a run keeps its finished results, exit 130); the
 * study stops after them. The child's pid, or -1. */
static pid_t spawn(int (*fn)(int, char **, int, char **), int (*fn2)(int, char **), int argc,
                   char **argv, int full_argc, char **full_argv)
{
    fflush(NULL);
    signal(SIGINT, SIG_IGN);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "harness study: cannot start a process: %s\n", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        int rc = fn ? fn(argc, argv, full_argc, full_argv) : fn2(argc, argv);
        fflush(NULL);
        _exit(rc);
    }
    return pid;
}

/* The exit code of a spawned child (Ctrl-C handled again by default
 * once last is set: no child left). */
static int reap(pid_t pid, int last)
{
    int st = 0, w = -1;
    if (pid > 0)
        while ((w = waitpid(pid, &st, 0)) < 0 && errno == EINTR) {
        }
    if (last)
        signal(SIGINT, SIG_DFL);
    if (w < 0)
        return DH_EXIT_INFRA;
    if (WIFSIGNALED(st))
        return WTERMSIG(st) == SIGINT ? DH_EXIT_INTERRUPTED : DH_EXIT_INFRA;
    return WEXITSTATUS(st);
}

static int in_child(int (*fn)(int, char **, int, char **), int (*fn2)(int, char **), int argc,
                    char **argv, int full_argc, char **full_argv)
{
    return reap(spawn(fn, fn2, argc, argv, full_argc, full_argv), 1);
}

/* the worse of two exit codes: usage and interruption stop a study */
static int worse(int a, int b)
{
    static const int rank[] = {DH_EXIT_OK, DH_EXIT_WRONG, DH_EXIT_REGRESSION, DH_EXIT_INFRA,
                               DH_EXIT_INTERRUPTED, DH_EXIT_USAGE};
    int ra = 0, rb = 0;
    for (int i = 0; i < 6; i++) {
        ra = rank[i] == a ? i : ra;
        rb = rank[i] == b ? i : rb;
    }
    return ra >= rb ? a : b;
}

/* next item of a comma list into item; NULL at the end */
static const char *next_item(const char *p, char *item, size_t len)
{
    if (!p || !*p)
        return NULL;
    size_t l = strcspn(p, ",");
    snprintf(item, len, "%.*s", (int)l, p);
    return p[l] ? p + l + 1 : p + l;
}

/* ---- the report ---- */

static int make_report(const char *results, const char *sources, const char *dir)
{
    static struct dh_resultfile rf;
    static struct dh_report r;
    struct dh_err e = {0};
    struct dh_study s;
    if (dh_results_load(results, &rf, &e)) {
        fprintf(stderr, "harness study: %s\n", e.msg);
        return DH_EXIT_INFRA;
    }
    int code = DH_EXIT_OK;
    memset(&r, 0, sizeof r);
    r.dir = dir;
    r.source = sources;
    r.f = &rf;
    if (dh_study_build(rf.runs, rf.n_runs, &rf.devs, &s, &e)) {
        fprintf(stderr, "harness study: %s\n", e.msg);
        dh_resultfile_free(&rf);
        return DH_EXIT_INFRA;
    }
    if (!s.n_rows) {
        fprintf(stderr, "harness study: %s holds no runs: nothing to compare (run the study "
                "first, or give the results files of one)\n", results);
        code = DH_EXIT_INFRA;
        goto done;
    }
    if (dh_mkdir_p(dir)) {
        fprintf(stderr, "harness study: cannot create %s: %s (choose another with --out)\n",
                dir, strerror(errno));
        code = DH_EXIT_INFRA;
        goto done;
    }
    if (dh_study_charts(&r, &s, &e) || dh_study_write_csv(dir, &s, &e)) {
        fprintf(stderr, "harness study: %s\n", e.msg);
        code = DH_EXIT_INFRA;
        goto done;
    }
    char gnuplot[4096];
    int have = !dh_gnuplot_find(gnuplot, sizeof gnuplot), failed = 0, drawn = 0;
    for (int i = 0; have && i < r.n_charts; i++) {
        r.charts[i].drawn = !dh_gnuplot_draw(gnuplot, dir, r.charts[i].name);
        if (r.charts[i].drawn) {
            drawn++;
        } else {
            failed++;
            fprintf(stderr, "harness study: chart %s failed: see %s/%s.log\n", r.charts[i].name,
                    dir, r.charts[i].name);
        }
    }
    if (dh_study_write_index(&r, &s, sources, have, failed, &e) ||
        dh_report_write_html(dir, "divharness study", &e)) {
        fprintf(stderr, "harness study: %s\n", e.msg);
        code = DH_EXIT_INFRA;
        goto done;
    }
    /* the answer on the terminal too: the geometric means over every suite */
    printf("study: %d workload%s on %d target%s\n", s.n_rows, s.n_rows == 1 ? "" : "s",
           s.n_cols, s.n_cols == 1 ? "" : "s");
    for (int col = 0; col < s.n_cols; col++) {
        printf("  %s: %s (warp %d)\n", s.cols[col].backend, s.cols[col].device,
               s.cols[col].warp_width);
        for (int t = 0; t < s.n_tech; t++) {
            struct dh_study_gm g;
            dh_study_geomean(&s, NULL, col, t, &g);
            if (g.n && isfinite(g.lo))
                printf("    %-10s geomean %.2fx [%.2f, %.2f] over %d of %d, best in %d\n",
                       s.tech[t], g.gm, g.lo, g.hi, g.n, g.of, g.wins);
            else if (g.n)
                printf("    %-10s geomean %.2fx over %d of %d, best in %d\n", s.tech[t], g.gm,
                       g.n, g.of, g.wins);
            else
                printf("    %-10s no figure (0 of %d)\n", s.tech[t], g.of);
        }
    }
    printf("report: %s/index.md, %s/study.csv (%d chart%s drawn", dir, dir, drawn,
           drawn == 1 ? "" : "s");
    if (!have)
        printf("; charts skipped: gnuplot is not installed — `sudo apt-get install "
               "gnuplot-nox`, then run the .gp scripts in %s", dir);
    printf(")\n");
    if (failed)
        code = DH_EXIT_INFRA;
done:
    dh_study_free(&s);
    dh_resultfile_free(&rf);
    return code;
}

/* Join files into out with `harness merge` (several plans allowed); 0 ok */
static int merge_into(const char *out, const char *const *files, int n, int allow_missing)
{
    char *av[MAX_FILES + 5];
    int k = 0;
    av[k++] = "merge";
    av[k++] = (char *)out;
    for (int i = 0; i < n; i++)
        av[k++] = (char *)files[i];
    av[k++] = "--mixed-plans";
    if (allow_missing)
        av[k++] = "--allow-missing";
    av[k] = NULL;
    return in_child(NULL, dh_cmd_merge, k, av, 0, NULL);
}

static int from_files(const char *const *files, int n, const char *out)
{
    char dir[4096], sources[4096];
    size_t o = 0;
    sources[0] = 0;
    for (int i = 0; i < n && o < sizeof sources; i++)
        o += (size_t)snprintf(sources + o, sizeof sources - o, "%s%s", i ? ", " : "", files[i]);
    if (out) {
        snprintf(dir, sizeof dir, "%s", out);
    } else {
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s", files[0]);
        snprintf(dir, sizeof dir, "%s/study", dirname(tmp));
    }
    for (int i = 0; i < n; i++)
        if (access(files[i], R_OK)) {
            fprintf(stderr, "harness study: --from %s: %s (give existing results files)\n",
                    files[i], strerror(errno));
            return DH_EXIT_INFRA;
        }
    if (n == 1) {
        char rd[4200];
        snprintf(rd, sizeof rd, "%s/report", dir);
        return make_report(files[0], sources, rd);
    }
    if (dh_mkdir_p(dir)) {
        fprintf(stderr, "harness study: cannot create %s: %s (choose another with --out)\n",
                dir, strerror(errno));
        return DH_EXIT_INFRA;
    }
    char merged[4200], rd[4200];
    snprintf(merged, sizeof merged, "%s/study.xml", dir);
    snprintf(rd, sizeof rd, "%s/report", dir);
    int rc = merge_into(merged, files, n, 0);
    if (rc != DH_EXIT_OK && access(merged, R_OK))
        return rc;
    return worse(rc, make_report(merged, sources, rd));
}

/* ---- the study's runs ---- */

struct target_set {
    int n_backends;
    char backend[16][16];
    int n_dev[16];          /* devices of each backend here (local) */
    int max_index;          /* highest device index to run + 1 */
    int want[64];           /* device indices chosen (1 = chosen) */
};

int dh_cmd_study(int argc, char **argv)
{
    const char *suites = NULL, *backends = NULL, *devices = NULL, *out = NULL;
    const char *from[MAX_FILES], *pass[MAX_ARGS], *sl[MAX_ARGS];
    const char *partition = NULL, *part_of[16][2];
    int n_from = 0, n_pass = 0, n_sl = 0, slurm = 0, wait = 0, n_part = 0, from_mode = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char opt[64];
        const char *val = NULL;
        const char *eq = strchr(a, '=');
        if (!strncmp(a, "--", 2) && eq && (size_t)(eq - a) < sizeof opt) {
            snprintf(opt, sizeof opt, "%.*s", (int)(eq - a), a);
            val = eq + 1;
        } else {
            snprintf(opt, sizeof opt, "%s", a);
        }
        static const char *const own[] = {"--suite", "--backend", "--device", "--out",
                                          "--partition", "--shards", "--time",
                                          "--gpus-per-task", "--sbatch-arg", "--poll", NULL};
        int takes = 0;
        const char *name = opt;             /* opt is this turn's; own[] lasts */
        for (int k = 0; own[k]; k++)
            if (!strcmp(opt, own[k])) {
                takes = 1;
                name = own[k];
            }
        if (takes && !val) {
            if (i + 1 >= argc) {
                fprintf(stderr, "harness study: %s needs a value (see harness study --help)\n",
                        opt);
                return DH_EXIT_USAGE;
            }
            val = argv[++i];
        }
        if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) {
            study_usage(stdout);
            return 0;
        } else if (!strcmp(opt, "--from")) {
            from_mode = 1;
            if (val)
                from[n_from++] = val;
            while (i + 1 < argc && argv[i + 1][0] != '-' && n_from < MAX_FILES)
                from[n_from++] = argv[++i];
            if (i + 1 < argc && argv[i + 1][0] != '-') {
                fprintf(stderr, "harness study: more than %d files after --from: merge some "
                        "first (harness merge OUT.xml IN.xml...)\n", MAX_FILES);
                return DH_EXIT_USAGE;
            }
        } else if (!strcmp(opt, "--suite")) {
            suites = val;
        } else if (!strcmp(opt, "--backend")) {
            backends = val;
        } else if (!strcmp(opt, "--device")) {
            devices = val;
        } else if (!strcmp(opt, "--out")) {
            out = val;
        } else if (!strcmp(opt, "--slurm")) {
            slurm = 1;
        } else if (!strcmp(opt, "--wait")) {
            wait = 1;
        } else if (!strcmp(opt, "--partition")) {
            const char *e2 = strchr(val, '=');
            if (!e2) {
                partition = val;
            } else if (n_part == 16) {
                fprintf(stderr, "harness study: more than 16 --partition B=P\n");
                return DH_EXIT_USAGE;
            } else {
                static char names[16][16];
                snprintf(names[n_part], sizeof names[0], "%.*s", (int)(e2 - val), val);
                part_of[n_part][0] = names[n_part];
                part_of[n_part++][1] = e2 + 1;
            }
        } else if (takes) {                 /* the other slurm options, passed on */
            if (n_sl + 2 >= MAX_ARGS)
                break;
            sl[n_sl++] = name;
            sl[n_sl++] = val;
        } else if (!strcmp(opt, "--shard") || !strcmp(opt, "--shard-costs")) {
            fprintf(stderr, "harness study: %s: the study decides the shards (one run per "
                    "suite and device; --slurm --shards N splits each target)\n", opt);
            return DH_EXIT_USAGE;
        } else if (a[0] != '-' && from_mode) {
            if (n_from == MAX_FILES) {
                fprintf(stderr, "harness study: more than %d files after --from: merge some "
                        "first (harness merge OUT.xml IN.xml...)\n", MAX_FILES);
                return DH_EXIT_USAGE;
            }
            from[n_from++] = a;
        } else {
            if (n_pass >= MAX_ARGS - 16) {
                fprintf(stderr, "harness study: too many options\n");
                return DH_EXIT_USAGE;
            }
            pass[n_pass++] = a;             /* run's option (or its value), as given */
        }
    }
    if (from_mode) {
        if (!n_from) {
            fprintf(stderr, "harness study: --from needs results files (harness study --from "
                    "RESULTS.xml [MORE.xml...])\n");
            return DH_EXIT_USAGE;
        }
        if (suites || backends || devices || slurm || n_pass) {
            fprintf(stderr, "harness study: --from makes the report from files: leave out the "
                    "run options (%s)\n", suites ? "--suite" : backends ? "--backend"
                    : devices ? "--device" : slurm ? "--slurm" : pass[0]);
            return DH_EXIT_USAGE;
        }
        return from_files(from, n_from, out);
    }
    if (!suites || !*suites) {
        fprintf(stderr, "harness study: --suite is required (e.g. --suite micro,frontier), or "
                "--from RESULTS.xml to report on results you have\n");
        return DH_EXIT_USAGE;
    }
    /* every speedup is over the baseline: a study without it has no figure */
    for (int q = 0; q < n_pass; q++) {
        const char *v = !strncmp(pass[q], "--variant=", 10) ? pass[q] + 10
                        : !strcmp(pass[q], "--variant") && q + 1 < n_pass ? pass[q + 1] : NULL;
        char it[32];
        int has = 0;
        for (const char *p = next_item(v, it, sizeof it); p; p = next_item(p, it, sizeof it))
            has |= !strcmp(it, "baseline") || !strcmp(it, "all");
        if (v && !has) {
            fprintf(stderr, "harness study: --variant %s: a study measures each technique "
                    "against the baseline: add it (--variant baseline,%s)\n", v, v);
            return DH_EXIT_USAGE;
        }
    }
    char suite[64];
    for (const char *p = next_item(suites, suite, sizeof suite); p;
         p = next_item(p, suite, sizeof suite))
        if (suite[0] && !dh_suite_exists(suite)) {
            char m[64];
            int has = !dh_suggest_list(suite, dh_suite_names(), m, sizeof m);
            fprintf(stderr, "harness study: unknown suite '%s'%s%s%s: choose from %s (a comma "
                    "list)\n", suite, has ? " (did you mean " : "", has ? m : "",
                    has ? "?)" : "", dh_suite_names());
            return DH_EXIT_USAGE;
        }
    if (!slurm && (n_sl || partition || n_part || wait)) {
        fprintf(stderr, "harness study: %s is a Slurm option: add --slurm, or leave it out\n",
                n_sl ? sl[0] : partition || n_part ? "--partition" : "--wait");
        return DH_EXIT_USAGE;
    }
    /* targets: the backends and the device indices */
    struct target_set ts = {0};
    const char *blist = backends && *backends ? backends : "opencl";
    static struct dh_devlist devs;
    struct dh_err e = {0};
    if (!slurm || !strcmp(blist, "all")) {
        if (slurm) {
            fprintf(stderr, "harness study: --slurm with --backend all: name the backends (the "
                    "nodes' devices are not visible here), e.g. --backend cuda,hip\n");
            return DH_EXIT_USAGE;
        }
        int rc = dh_devices_gather(&devs, 1, &e);
        if (rc) {
            fprintf(stderr, "harness study: %s\n", e.msg);
            return dh_exit_for(rc);
        }
    }
    char item[64];
    if (!strcmp(blist, "all")) {
        for (int b = 0; b < devs.n_backends && ts.n_backends < 16; b++) {
            if (!devs.b[b].n_devices) {
                fprintf(stderr, "harness study: backend %s left out: %s\n", devs.b[b].name,
                        devs.b[b].why);
                continue;
            }
            snprintf(ts.backend[ts.n_backends], 16, "%s", devs.b[b].name);
            ts.n_dev[ts.n_backends++] = devs.b[b].n_devices;
        }
    } else {
        for (const char *p = next_item(blist, item, sizeof item); p && ts.n_backends < 16;
             p = next_item(p, item, sizeof item)) {
            if (!item[0])
                continue;
            if (!dh_backend_find(item)) {
                fprintf(stderr, "harness study: unknown backend '%s': choose from %s, or all\n",
                        item, dh_backend_names());
                return DH_EXIT_USAGE;
            }
            for (int b = 0; b < ts.n_backends; b++)
                if (!strcmp(ts.backend[b], item)) {
                    fprintf(stderr, "harness study: --backend names %s twice: name each backend "
                            "once (one backend is one target per device)\n", item);
                    return DH_EXIT_USAGE;
                }
            int nd = 64;
            if (!slurm) {
                nd = 0;
                const char *why = "";
                for (int b = 0; b < devs.n_backends; b++)
                    if (!strcmp(devs.b[b].name, item)) {
                        nd = devs.b[b].n_devices;
                        why = devs.b[b].why;
                    }
                if (!nd) {
                    fprintf(stderr, "harness study: backend %s has no device here: %s (leave it "
                            "out of --backend, or use --backend all)\n", item, why);
                    return DH_EXIT_INFRA;
                }
            }
            snprintf(ts.backend[ts.n_backends], 16, "%s", item);
            ts.n_dev[ts.n_backends++] = nd;
        }
    }
    if (!ts.n_backends) {
        fprintf(stderr, "harness study: no backend has a device here (see harness devices)\n");
        return DH_EXIT_INFRA;
    }
    if (!devices || !strcmp(devices, "all")) {
        if (devices && slurm) {
            fprintf(stderr, "harness study: --slurm with --device all: give the indices (the "
                    "nodes' devices are not visible here), e.g. --device 0,1\n");
            return DH_EXIT_USAGE;
        }
        for (int b = 0; b < ts.n_backends; b++)
            for (int k = 0; k < (devices ? ts.n_dev[b] : 1) && k < 64; k++)
                ts.want[k] = 1;
    } else {
        for (const char *p = next_item(devices, item, sizeof item); p;
             p = next_item(p, item, sizeof item)) {
            int k;
            if (!dh_cli_int("study", "--device", item, 0, 63, &k))
                return DH_EXIT_USAGE;
            ts.want[k] = 1;
        }
    }
    for (int k = 0; k < 64; k++)
        if (ts.want[k])
            ts.max_index = k + 1;
    for (int k = 0; k < ts.max_index && !slurm; k++) {
        int any = 0;
        for (int b = 0; b < ts.n_backends; b++)
            any |= ts.want[k] && k < ts.n_dev[b];
        if (ts.want[k] && !any) {
            fprintf(stderr, "harness study: no chosen backend has a device %d here (see "
                    "harness devices): choose --device from what it lists\n", k);
            return DH_EXIT_USAGE;
        }
    }

    /* the study folder */
    char dir[4096];
    if (out) {
        snprintf(dir, sizeof dir, "%s", out);
    } else {
        char stamp[40];
        time_t t = time(NULL);
        struct tm tm;
        localtime_r(&t, &tm);
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
        snprintf(dir, sizeof dir, "results/runs/%s-study", stamp);
    }
    if (dh_mkdir_p(dir)) {
        fprintf(stderr, "harness study: cannot make %s (%s): choose a writable folder with "
                "--out DIR\n", dir, strerror(errno));
        return DH_EXIT_INFRA;
    }
    static char paths[MAX_FILES][4200];
    static pid_t pids[MAX_FILES];
    const char *files[MAX_FILES];
    int n_files = 0, code = DH_EXIT_OK;
    for (const char *p = next_item(suites, suite, sizeof suite); p && code != DH_EXIT_USAGE
             && code != DH_EXIT_INTERRUPTED; p = next_item(p, suite, sizeof suite)) {
        if (!suite[0])
            continue;
        for (int k = 0; k < ts.max_index; k++) {
            if (!ts.want[k])
                continue;
            /* locally: one run per device index over the backends that have it;
             * Slurm: one submission per backend (its node type) and index */
            for (int b = 0; b < (slurm ? ts.n_backends : 1); b++) {
                char bl[300] = "", dv[8], sub[4200];
                size_t o = 0;
                for (int j = slurm ? b : 0; j < (slurm ? b + 1 : ts.n_backends); j++)
                    if (k < ts.n_dev[j])
                        o += (size_t)snprintf(bl + o, sizeof bl - o, "%s%s", o ? "," : "",
                                              ts.backend[j]);
                if (!bl[0] || n_files >= MAX_FILES)
                    continue;
                snprintf(dv, sizeof dv, "%d", k);
                char *av[MAX_ARGS * 2 + 32];
                int n = 0;
                if (slurm) {
                    snprintf(sub, sizeof sub, "%s/slurm-%s-%s-d%d", dir, suite, bl, k);
                    snprintf(paths[n_files], sizeof paths[0], "%s/merged.xml", sub);
                    const char *part = partition;
                    for (int q = 0; q < n_part; q++)
                        if (!strcmp(part_of[q][0], bl))
                            part = part_of[q][1];
                    av[n++] = "slurm";
                    int has_shards = 0;
                    for (int q = 0; q < n_sl; q += 2)
                        has_shards |= !strcmp(sl[q], "--shards");
                    if (!has_shards) {
                        av[n++] = "--shards";
                        av[n++] = "1";
                    }
                    av[n++] = "--results";
                    av[n++] = sub;
                    if (part) {
                        av[n++] = "--partition";
                        av[n++] = (char *)part;
                    }
                    for (int q = 0; q < n_sl; q++)
                        av[n++] = (char *)sl[q];
                    if (wait)
                        av[n++] = "--wait";
                    av[n++] = "--";
                } else {
                    snprintf(sub, sizeof sub, "%s/runs/%s-d%d", dir, suite, k);
                    snprintf(paths[n_files], sizeof paths[0], "%s/results.xml", sub);
                    av[n++] = "run";
                    av[n++] = "--out";
                    av[n++] = sub;
                }
                av[n++] = "--suite";
                av[n++] = suite;
                av[n++] = "--backend";
                av[n++] = bl;
                av[n++] = "--device";
                av[n++] = dv;
                for (int q = 0; q < n_pass; q++)
                    av[n++] = (char *)pass[q];
                av[n] = NULL;
                fprintf(stderr, "harness study: %s %s on %s, device %d -> %s\n",
                        slurm ? "submitting" : "running", suite, bl, k, sub);
                int rc;
                if (slurm && wait) {
                    /* every target's jobs at once: followed together below */
                    pids[n_files] = spawn(NULL, dh_cmd_slurm, n, av, 0, NULL);
                    rc = pids[n_files] < 0 ? DH_EXIT_INFRA : DH_EXIT_OK;
                } else if (slurm) {
                    rc = in_child(NULL, dh_cmd_slurm, n, av, 0, NULL);
                } else {
                    char *full[MAX_ARGS * 2 + 34];
                    full[0] = "harness";
                    for (int q = 0; q <= n; q++)
                        full[q + 1] = av[q];
                    rc = in_child(dh_cmd_run, NULL, n, av, n + 1, full);
                }
                files[n_files] = paths[n_files];
                n_files++;
                code = worse(code, rc);
                if (rc == DH_EXIT_USAGE || rc == DH_EXIT_INTERRUPTED)
                    break;
            }
        }
    }
    if (slurm && wait) {
        for (int i = 0; i < n_files; i++)
            code = worse(code, reap(pids[i], i + 1 == n_files));
    }
    if (code == DH_EXIT_USAGE)
        return code;
    if (code == DH_EXIT_INTERRUPTED) {
        fprintf(stderr, "harness study: interrupted; run the same command again to resume (the "
                "finished cases are kept in %s/runs)\n", dir);
        return code;
    }
    if (slurm && !wait) {
        printf("harness study: %d submission%s. When they end, make the report:\n  harness "
               "study --out %s --from", n_files, n_files == 1 ? "" : "s", dir);
        for (int i = 0; i < n_files; i++)
            printf(" %s", files[i]);
        printf("\n");
        return code;
    }
    /* join what came back and report */
    char merged[4200], rd[4200], sources[4400];
    snprintf(merged, sizeof merged, "%s/study.xml", dir);
    snprintf(rd, sizeof rd, "%s/report", dir);
    int present = 0;
    for (int i = 0; i < n_files; i++)
        present += !access(files[i], R_OK);
    if (!present) {
        fprintf(stderr, "harness study: no results came back: no report\n");
        return worse(code, DH_EXIT_INFRA);
    }
    int mrc = merge_into(merged, files, n_files, 1);
    if (access(merged, R_OK))
        return worse(code, mrc);
    snprintf(sources, sizeof sources, "%s (%d results file%s merged)", merged, present,
             present == 1 ? "" : "s");
    code = worse(code, mrc);
    return worse(code, make_report(merged, sources, rd));
}
