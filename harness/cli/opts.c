/* opts.c — the option tables of every command and their parsing (opts.h). */
#include "opts.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/suggest.h"

/* "name" is a flag, "name=" takes a value */
static const char *const run_opts[] = {
    "suite=", "descriptor=", "bench=", "variant=", "backend=", "device=", "size=", "reps=",
    "reps-max=", "reps-target=", "warmup=", "timeout=", "param=", "check", "fresh", "shard=",
    "shard-costs=", "out=", "dump-source=", "no-model", "cache=", "cache-limit=", "no-cache",
    "overlap=", "instrumented", "remap-overhead=", "counters=", "tune=", "tuned=",
    "save-tuned=", "tune-budget=", "tune-seconds=", "tune-reps=", "tune-seed=", "isolate=",
    "max-load=", NULL};
static const char *const slurm_opts[] = {
    "shards=", "results=", "partition=", "time=", "gpus-per-task=", "sbatch-arg=", "poll=",
    "wait", "task=", "merge-task=", NULL};
/* study: its own, harness slurm's (after --slurm) and harness run's */
static const char *const study_opts[] = {
    "from", "suite=", "backend=", "device=", "out=", "slurm", "wait", "partition=", "shards=",
    "time=", "gpus-per-task=", "sbatch-arg=", "poll=", NULL};
static const char *const compare_opts[] = {
    "junit=", "dir=", "threshold=", "alpha=", "max-spread=", "min-samples=",
    "host-threshold=", "host-min-samples=", "cfe-drop=", "allow-device-change", "baseline",
    "junit-strict", "strict", "max-load=", NULL};
static const char *const emit_opts[] = {
    "out=", "suite=", "bench=", "variant=", "backend=", "size=", "ext=", "wave=", "local=",
    "param=", NULL};
static const char *const blocks_opts[] = {
    "costs", "bench=", "size=", "kernel=", "sass=", "arch=", "param=", NULL};
static const char *const cache_opts[] = {"cache=", "cache-limit=", NULL};
static const char *const merge_opts[] = {"mixed-plans", "allow-missing", NULL};
static const char *const baseline_opts[] = {"dir=", "force", NULL};
static const char *const tune_opts[] = {
    "descriptor=", "kernel=", "backend=", "device=", "out=", "reps=", "timeout=", "tune=",
    "tune-budget=", "tune-reps=", NULL};
static const char *const tunestudy_opts[] = {
    "seeds=", "no-model", "model-picks=", "bbv-backend=", "bbv-device=", NULL};
static const char *const rerun_opts[] = {"case=", "reps=", "out=", NULL};
static const char *const history_opts[] = {"case=", "out=", NULL};
static const char *const report_opts[] = {"out=", NULL};
static const char *const export_opts[] = {"csv=", "samples=", "json=", "t4=", NULL};
static const char *const devices_opts[] = {"isolate=", NULL};
static const char *const list_opts[] = {"suite=", "bench=", NULL};
static const char *const none[] = {NULL};

static const struct {
    const char *cmd;
    const char *const *own, *const *more, *const *more2;
} tables[] = {
    {"run", run_opts, NULL, NULL},
    {"study", study_opts, run_opts, NULL},
    {"slurm", slurm_opts, NULL, NULL},
    {"compare", compare_opts, NULL, NULL},
    {"emit", emit_opts, NULL, NULL},
    {"blocks", blocks_opts, NULL, NULL},
    {"cache", cache_opts, NULL, NULL},
    {"merge", merge_opts, NULL, NULL},
    {"baseline", baseline_opts, NULL, NULL},
    {"tune", tune_opts, NULL, NULL},
    {"tune-study", tunestudy_opts, NULL, NULL},
    {"rerun", rerun_opts, NULL, NULL},
    {"history", history_opts, NULL, NULL},
    {"report", report_opts, NULL, NULL},
    {"export", export_opts, NULL, NULL},
    {"devices", devices_opts, NULL, NULL},
    {"list", list_opts, NULL, NULL},
    {"validate", none, NULL, NULL},
    {"db", none, NULL, NULL},
    {"publish", report_opts, NULL, NULL},
};

#define MAX_OPTS 96

/* the command's table: names into names[] ("--x" / "--x="), n returned */
static int table_of(const char *cmd, const char **names, int max)
{
    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++) {
        if (strcmp(tables[t].cmd, cmd))
            continue;
        int n = 0;
        const char *const *parts[] = {tables[t].own, tables[t].more, tables[t].more2};
        for (int p = 0; p < 3; p++)
            for (int i = 0; parts[p] && parts[p][i] && n < max - 1; i++) {
                int dup = 0;
                for (int k = 0; k < n && !dup; k++)
                    dup = !strcmp(names[k], parts[p][i]);
                if (!dup)
                    names[n++] = parts[p][i];
            }
        names[n++] = "help";
        return n;
    }
    return -1;
}

const char *const *dh_opts_of(const char *cmd)
{
    static char store[MAX_OPTS][40];
    static const char *out[MAX_OPTS + 1];
    const char *names[MAX_OPTS];
    int n = table_of(cmd, names, MAX_OPTS);
    if (n < 0)
        return NULL;
    for (int i = 0; i < n; i++) {
        snprintf(store[i], sizeof store[i], "--%s", names[i]);
        out[i] = store[i];
    }
    out[n] = NULL;
    return out;
}

int dh_opts_normalize(int full_argc, char **full_argv, int *out_argc, char ***out_argv)
{
    *out_argc = full_argc;
    *out_argv = full_argv;
    if (full_argc < 2)
        return 0;
    int argc = full_argc - 1;          /* the command's own: argv[0] its name */
    char **argv = full_argv + 1;
    const char *cmd = argv[0];
    const char *names[MAX_OPTS];
    int n = table_of(cmd, names, MAX_OPTS);
    if (n < 0)
        return 0;
    static char plain[MAX_OPTS][32];
    struct option lo[MAX_OPTS + 1];
    for (int i = 0; i < n; i++) {
        size_t l = strlen(names[i]);
        int val = l && names[i][l - 1] == '=';
        snprintf(plain[i], sizeof plain[i], "%.*s", (int)(l - (size_t)val), names[i]);
        lo[i] = (struct option){plain[i], val ? required_argument : no_argument, NULL, 1000 + i};
    }
    lo[n] = (struct option){0, 0, 0, 0};
    /* at most two entries an argument (--opt value), one --help in all */
    char **out = calloc((size_t)argc * 2 + 4, sizeof *out);
    if (!out) {
        fprintf(stderr, "harness %s: out of memory\n", cmd);
        return 64;
    }
    int m = 0, helped = 0;
    out[m++] = full_argv[0];
    out[m++] = argv[0];
    opterr = 0;
    optind = 0;                         /* a fresh scan (GNU: 0 reinitialises) */
    for (;;) {
        int li = -1;
        /* '-': other arguments come back in their order; ':' a missing
         * value is ':'; '+' is not used: options may follow arguments */
        int c = getopt_long(argc, argv, "-:h", lo, &li);
        if (c == -1)
            break;
        if (c == 1) {
            out[m++] = optarg;
        } else if (c == 'h') {
            if (!helped++)                 /* -hhh: one --help */
                out[m++] = "--help";
        } else if (c >= 1000) {
            out[m++] = (char *)"--";               /* placeholder, set below */
            static char dashed[MAX_OPTS][40];
            snprintf(dashed[c - 1000], sizeof dashed[0], "--%s", plain[c - 1000]);
            out[m - 1] = dashed[c - 1000];
            if (lo[c - 1000].has_arg == required_argument)
                out[m++] = optarg;
        } else if (c == ':') {
            const char *o = argv[optind - 1];
            fprintf(stderr, "harness %s: %s needs a value (see harness %s --help)\n", cmd, o, cmd);
            free(out);
            return 64;
        } else {
            /* unknown (or ambiguous) option: the argument as given */
            const char *o = argv[optind - 1];
            char word[64];
            snprintf(word, sizeof word, "%.*s", (int)strcspn(o, "="), o);
            const char *cands[MAX_OPTS];
            static char dn[MAX_OPTS][40];
            for (int i = 0; i < n; i++) {
                snprintf(dn[i], sizeof dn[i], "--%s", plain[i]);
                cands[i] = dn[i];
            }
            int amb = 0;
            for (int i = 0; i < n && strlen(word) > 2; i++)
                amb += !strncmp(dn[i], word, strlen(word));
            const char *s = dh_suggest(word, cands, n);
            if (amb > 1)
                fprintf(stderr, "harness %s: option '%s' is ambiguous: give it whole (see "
                        "harness %s --help)\n", cmd, word, cmd);
            else
                fprintf(stderr, "harness %s: unknown option '%s'%s%s%s (see harness %s "
                        "--help)\n", cmd, word, s ? ": did you mean " : "", s ? s : "",
                        s ? "?" : "", cmd);
            free(out);
            return 64;
        }
    }
    /* after "--": as given (harness slurm's run options) */
    if (optind < argc && !strcmp(argv[optind - 1], "--"))
        out[m++] = "--";
    for (int i = optind; i < argc; i++)
        out[m++] = argv[i];
    out[m] = NULL;
    *out_argc = m;
    *out_argv = out;
    return 0;
}
