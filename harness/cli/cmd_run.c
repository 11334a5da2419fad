/* cmd_run.c — `harness run`: options, plan, resume, run, results; what
 * it shows while and after it runs is run_progress.c's. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../results/xml.h"
#include "cli.h"
#include "../support/suggest.h"
#include "run_progress.h"
#include "../support/fs.h"
#include "../run/overlap.h"
#include "../run/plan.h"
#include "../run/shard.h"
#include "../../tuning/tuning.h"
#include "../stats/derive.h"
#include "../stats/load.h"
#include "../report/report.h"
#include "../../suites/lib/descriptor.h"
#include "../../suites/suite.h"
#include "../stats/stats.h"

static void run_usage(FILE *f)
{
    fprintf(f,
        "usage: harness run --suite S [options]\n"
        "       harness run --descriptor FILE.xml [options]\n"
        "  --suite S              suite to run (%s), or all: every suite\n"
        "  --descriptor FILE.xml  your own kernel, declared (docs/guide/your-own-kernel.md;\n"
        "                         example: tuning/examples/branch_sum.xml)\n"
        "  --bench B[,B...]       benchmarks of the suite (default: all)\n"
        "  --variant V[,V...]|all baseline, cpu_tdr, gpu_tdr, melded (default: all)\n"
        "  --backend B[,B...]|all %s (default: opencl)\n"
        "  --device N             device index within each backend (default: 0)\n"
        "  --size small|medium|large   input size class (default: small)\n"
        "  --reps N|auto          timed repetitions (default 10, at most %d); auto: at\n"
        "                         least 10, then until the kernel median's 95%% interval\n"
        "                         is within --reps-target of it (default 1%%), at most\n"
        "                         --reps-max (default 100)\n"
        "  --warmup N             warm-up runs (default 2)\n"
        "  --param k=v            set a workload, choice or tunable (repeatable);\n"
        "                         `harness list` shows each one's domain\n"
        "  --out DIR              results folder (default: results/runs/<time>); a folder\n"
        "                         with results of this command resumes: finished cases\n"
        "                         are kept and skipped\n"
        "  --fresh                start over in --out, replacing its results.xml\n"
        "  --check                check the options and make the plan, run nothing (exit 0\n"
        "                         with the count of cases; harness slurm asks it before sbatch)\n"
        "  --shard I/N            run shard I of N of the plan (1 <= I <= N): the same\n"
        "                         plan on every shard, a workload's cases together; the\n"
        "                         N results files join with `harness merge`\n"
        "  --shard-costs FILE     balance the shards by each case's wall time in an\n"
        "                         earlier results file (give every shard the same one)\n"
        "  --timeout S            watchdog per case in seconds (default 300)\n"
        "  --dump-source DIR      write the exact source and options of each build\n"
        "  --counters yes|no|auto hardware-counter pass for CFE (default auto)\n"
        "  --remap-overhead yes|no  gpu_tdr cases also time the gpu_tdr and baseline\n"
        "                         kernels on the input already in path order (cpu_tdr's\n"
        "                         key regrouping): the remap's cost (default yes)\n"
        "  --no-model             skip the BBV profiling run and the model (modeled\n"
        "                         CFE, speedups; regroup=sort|greedy|greedymax need it)\n"
        "  --instrumented         time the profiling (BBV-counting) build itself;\n"
        "                         such runs are never compared with plain ones\n"
        "  --isolate yes|no       run cases in worker processes (default yes)\n"
        "  --max-load L           refuse to start (exit 3) when the host's 1-minute load\n"
        "                         average is over L: a busy host times nothing worth\n"
        "                         comparing (the load is recorded in every results file)\n"
        "  --cache DIR            workload cache folder: inputs, CPU references and\n"
        "                         BBVs kept between runs (default $DH_CACHE, else\n"
        "                         ${XDG_CACHE_HOME:-~/.cache}/divharness/workloads)\n"
        "  --cache-limit SIZE     its size limit, least recently used out first\n"
        "                         (default $DH_CACHE_LIMIT, else 8G)\n"
        "  --no-cache             make every workload anew, store nothing\n"
        "  --overlap yes|no|auto  make the next workload's input and CPU reference in\n"
        "                         a background process (nice 19) while this one is\n"
        "                         timed, through the workload cache (default auto:\n"
        "                         on with 4 or more CPUs and no CPU device)\n"
        "  --tune MODE            none, journal (default: the journal's best, else\n"
        "                         defaults), exhaustive, random, anneal, model (search\n"
        "                         again; model: ranked by the BBV model, from the top)\n"
        "  --tune-budget N        evaluations per case (default: the whole space)\n"
        "  --tune-seconds S       time per case's search (default: no limit)\n"
        "  --tune-reps N          timed runs per evaluation (default 3)\n"
        "  --tune-seed N          seed of random and anneal (default 1)\n"
        "  --save-tuned FILE      with --tune MODE: each case's best configuration into\n"
        "                         FILE (its other cases kept), for --tuned\n"
        "  --tuned FILE           each case at FILE's configuration for this build,\n"
        "                         device, driver and compiler, never the journal; a\n"
        "                         case FILE lacks runs at its defaults, said\n",
        dh_suite_names(), dh_backend_names(), DH_MAX_SAMPLES);
}

/* --save-tuned: the best configuration of each case this run searched */
static int save_tuned_file(const char *path, const struct dh_run *runs, int n,
                            const struct dh_devlist *devs, const struct dh_tune_opts *o,
                            const char *command)
{
    struct dh_journal_entry *e = calloc((size_t)n + 1, sizeof *e);
    const char **ids = calloc((size_t)n + 1, sizeof *ids);
    int k = 0;
    for (int i = 0; e && ids && i < n; i++) {
        const struct dh_tuning *t = &runs[i].tune;
        if (t->best < 0 || runs[i].r.status || !strcmp(t->strategy, "journal"))
            continue;
        const struct dh_device_info *dev = dh_devlist_find(devs, runs[i].c.backend,
                                                           runs[i].c.device);
        dh_tune_eval_key(&runs[i].c, dev, e[k].eval_key);
        memcpy(e[k].case_key, runs[i].c.key, sizeof e[k].case_key);
        dh_pset_format(&runs[i].c.params, DH_P_TUNABLE, e[k].tunables, sizeof e[k].tunables);
        e[k].ms = t->eval[t->best].ms;
        ids[k++] = runs[i].c.id;
    }
    char head[2600], budget[64] = "the whole space of each case";
    if (o->budget)
        snprintf(budget, sizeof budget, "at most %d evaluations a case", o->budget);
    snprintf(head, sizeof head, "made by `%s` (--tune %s, %s)", command,
             dh_tune_mode_name(o->mode), budget);
    struct dh_err err = {0};
    int kept = 0;
    fflush(stdout);
    if (!e || !ids)
        fprintf(stderr, "harness run: --save-tuned %s: out of memory\n", path);
    else if (dh_tuned_save(path, e, ids, k, head, &kept, &err))
        fprintf(stderr, "harness run: %s (the results are kept)\n", err.msg);
    else
        fprintf(stderr, "harness: %d tuned configuration%s -> %s (%d other case%s kept)\n", k,
                k == 1 ? "" : "s", path, kept, kept == 1 ? "" : "s");
    int failed = !e || !ids || err.msg[0];
    free(e);
    free(ids);
    return failed;
}

static int need_arg(int i, int argc, char **argv)
{
    if (i + 1 >= argc) {
        fprintf(stderr, "harness run: %s needs a value (see harness run --help)\n", argv[i]);
        return 0;
    }
    return 1;
}

/* Restore the finished runs of path into the planned runs (same case id,
 * same repetitions); interrupted ones run again. The number kept, or -1
 * with why: the file cannot be read, or holds a case this command does
 * not plan (another command's results: kept, never overwritten). */
/* a command line without its program path (build/harness and
 * ./build/harness are one command) */
static const char *args_of(const char *command)
{
    const char *sp = strchr(command, ' ');
    return sp ? sp + 1 : "";
}

static int resume(const char *path, struct dh_run *runs, int n, const struct dh_plan_rec *plan,
                  struct dh_env *env, char *why, size_t why_len)
{
    struct stat sb;
    if (stat(path, &sb))
        return 0;
    struct dh_resultfile old;
    struct dh_err e = {0};
    if (dh_xml_read(path, &old, &e)) {
        snprintf(why, why_len, "%s is there and cannot be resumed (%s): it is kept; choose "
                 "another --out, or --fresh to replace it", path, e.msg);
        return -1;
    }
    /* a shard resumes only its own shard of the same plan */
    if ((plan != NULL) != (old.plan != NULL)
        || (plan && (strcmp(plan->hash, old.plan->hash) || plan->shards != old.plan->shards
                     || plan->shard != old.plan->shard))) {
        char was[80] = "no shard", now[80] = "no shard";
        if (old.plan)
            snprintf(was, sizeof was, "shard %d/%d of plan %s", old.plan->shard,
                     old.plan->shards, old.plan->hash);
        if (plan)
            snprintf(now, sizeof now, "shard %d/%d of plan %s", plan->shard, plan->shards,
                     plan->hash);
        snprintf(why, why_len, "%s holds results of another command (%s; this is %s): it is "
                 "kept; choose another --out, or --fresh to replace it", path, was, now);
        dh_resultfile_free(&old);
        return -1;
    }
    /* the same settings: a case measured with other --warmup, --tune,
     * --counters, --isolate, model or remap settings is never kept beside
     * this command's without a word (the recorded command is the record) */
    const char *command = env->command;
    if (old.env.command[0] && strcmp(args_of(old.env.command), args_of(command))) {
        snprintf(why, why_len, "%s holds results of another command (made by `%s`; this "
                 "is `%s`): it is kept; run that command again to resume it, choose another "
                 "--out, or --fresh to replace it", path, args_of(old.env.command),
                 args_of(command));
        dh_resultfile_free(&old);
        return -1;
    }
    int kept = 0;
    for (int k = 0; k < old.n_runs; k++) {
        struct dh_run *o = &old.runs[k];
        if (o->r.status == DH_E_INTERRUPTED)
            continue;
        int at = -1;
        for (int i = 0; i < n && at < 0; i++)
            if (runs[i].r.status == -1 && !strcmp(runs[i].c.id, o->c.id)
                && runs[i].c.reps == o->c.reps)
                at = i;
        if (at < 0) {
            snprintf(why, why_len, "%s holds results of another command (case %s, %d "
                     "repetitions, is not in this one): it is kept; choose another --out, or "
                     "--fresh to replace it", path, o->c.id, o->c.reps);
            dh_resultfile_free(&old);
            return -1;
        }
        const struct dh_bench *b = runs[at].c.bench;
        dh_run_release(&runs[at]);
        dh_run_move(&runs[at], o);      /* the old file's blocks are the run's now */
        runs[at].c.bench = b;
        if (runs[at].r.invocation <= 0)
            runs[at].r.invocation = old.env.n_inv > 0 ? old.env.inv[0].n : 1;
        kept++;
    }
    /* the file goes on: its first start and every command that wrote it
     * are kept, this one added (each case says which one measured it) */
    dh_env_resume(env, &old.env);
    dh_resultfile_free(&old);
    return kept;
}

int dh_cmd_run(int argc, char **argv, int full_argc, char **full_argv)
{
    struct dh_selection sel = {.device = -1, .size = "small", .reps = 10, .warmup = 2,
                               .timeout_s = 300, .profile = -1, .model = 1,
                               .remap_overhead = 1};
    const char *out = NULL, *dump = NULL, *descriptor = NULL;
    int fresh = 0, check_only = 0;
    int isolate = 1;
    double max_load = -1;             /* --max-load: -1 none */
    int shard = 0, shards = 0;
    const char *shard_costs = NULL;
    const char *cache_dir = NULL, *cache_limit = NULL;
    int no_cache = 0;
    /* auto unless asked: measured not to disturb the timed runs on the
     * GPU machines (docs/guide/measurement.md, "Overlap"); it stays off on CPU devices */
    enum dh_overlap_mode overlap = DH_OVERLAP_AUTO;
    int overlap_asked = 0;
    struct dh_tune_opts tune = {.mode = DH_TUNE_JOURNAL, .reps = 3, .seed = 1,
                                .baseline_whole = 1};
    const char *tuned_path = NULL, *save_tuned = NULL;   /* --tuned, --save-tuned */
    int tune_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char buf[64];
        const char *eqv = NULL;
        /* accept --opt=value as well as --opt value */
        const char *eq = strchr(a, '=');
        if (!strncmp(a, "--", 2) && eq && (size_t)(eq - a) < sizeof buf) {
            memcpy(buf, a, (size_t)(eq - a));
            buf[eq - a] = 0;
            a = buf;
            eqv = eq + 1;
        }
#define VAL() (eqv ? eqv : (need_arg(i, argc, argv) ? argv[++i] : NULL))
        const char *v;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            run_usage(stdout);
            return 0;
        } else if (!strcmp(a, "--suite")) {
            if (!(v = VAL())) return DH_EXIT_USAGE;
            sel.suite = v;
        } else if (!strcmp(a, "--descriptor")) {
            if (!(v = VAL())) return DH_EXIT_USAGE;
            descriptor = v;
        } else if (!strcmp(a, "--bench")) {
            if (!(v = VAL())) return DH_EXIT_USAGE;
            sel.benches = v;
        } else if (!strcmp(a, "--variant")) {
            if (!(v = VAL())) return DH_EXIT_USAGE;
            sel.variants = v;
        } else if (!strcmp(a, "--backend")) {
            if (!(v = VAL())) return DH_EXIT_USAGE;
            sel.backends = v;
        } else if (!strcmp(a, "--device")) {
            if (!(v = VAL()) || !dh_cli_int("run", "--device", v, 0, 63, &sel.device))
                return DH_EXIT_USAGE;
        } else if (!strcmp(a, "--size")) {
            if (!(v = VAL())) return DH_EXIT_USAGE;
            sel.size = v;
        } else if (!strcmp(a, "--reps")) {
            if (!(v = VAL()))
                return DH_EXIT_USAGE;
            if (!strcmp(v, "auto"))
                sel.reps = DH_REPS_AUTO;
            else if (!dh_cli_int("run", "--reps", v, 1, DH_MAX_SAMPLES, &sel.reps))
                return DH_EXIT_USAGE;
        } else if (!strcmp(a, "--reps-max")) {
            if (!(v = VAL()) || !dh_cli_int("run", "--reps-max", v, DH_REPS_AUTO_MIN,
                                            DH_MAX_SAMPLES, &sel.reps_max))
                return DH_EXIT_USAGE;
        } else if (!strcmp(a, "--reps-target")) {
            char *end;
            double pct = (v = VAL()) ? strtod(v, &end) : 0;
            if (!v || end == v || *end != '%' || end[1] || !(pct >= 0.1 && pct <= 50)) {
                if (v)
                    fprintf(stderr, "harness run: --reps-target %s: give a share of the median "
                            "between 0.1%% and 50%%, e.g. --reps-target 1%%\n", v);
                return DH_EXIT_USAGE;
            }
            sel.reps_target = pct / 100;
        } else if (!strcmp(a, "--warmup")) {
            if (!(v = VAL()) || !dh_cli_int("run", "--warmup", v, 1, 1000, &sel.warmup))
                return DH_EXIT_USAGE;
        } else if (!strcmp(a, "--timeout")) {
            int t;
            if (!(v = VAL()) || !dh_cli_int("run", "--timeout", v, 1, 86400, &t))
                return DH_EXIT_USAGE;
            sel.timeout_s = t;
        } else if (!strcmp(a, "--param")) {
            if (!(v = VAL())) return DH_EXIT_USAGE;
            if (sel.n_params >= 64) {
                fprintf(stderr, "harness run: too many --param\n");
                return DH_EXIT_USAGE;
            }
            /* a name given twice is a usage error, never the last one silently */
            size_t nl = strcspn(v, "=");
            for (int k = 0; k < sel.n_params; k++)
                if (strcspn(sel.params[k], "=") == nl && !strncmp(sel.params[k], v, nl)) {
                    fprintf(stderr, "harness run: --param %.*s given twice (%s, %s): give "
                            "one, with a comma list for several values\n", (int)nl, v,
                            sel.params[k], v);
                    return DH_EXIT_USAGE;
                }
            sel.params[sel.n_params++] = v;
        } else if (!strcmp(a, "--check")) {
            check_only = 1;
        } else if (!strcmp(a, "--fresh")) {
            fresh = 1;
        } else if (!strcmp(a, "--shard")) {
            char why[200];
            if (!(v = VAL()))
                return DH_EXIT_USAGE;
            if (dh_shard_parse(v, &shard, &shards, why, sizeof why)) {
                fprintf(stderr, "harness run: %s\n", why);
                return DH_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--shard-costs")) {
            if (!(v = VAL())) return DH_EXIT_USAGE;
            shard_costs = v;
        } else if (!strcmp(a, "--out")) {
            if (!(v = VAL())) return DH_EXIT_USAGE;
            out = v;
        } else if (!strcmp(a, "--dump-source")) {
            if (!(v = VAL())) return DH_EXIT_USAGE;
            dump = v;
        } else if (!strcmp(a, "--no-model")) {
            sel.model = 0;
        } else if (!strcmp(a, "--cache")) {
            if (!(v = VAL())) return DH_EXIT_USAGE;
            cache_dir = v;
        } else if (!strcmp(a, "--cache-limit")) {
            if (!(v = VAL())) return DH_EXIT_USAGE;
            cache_limit = v;
        } else if (!strcmp(a, "--no-cache")) {
            no_cache = 1;
        } else if (!strcmp(a, "--overlap")) {
            if (!(v = VAL())) return DH_EXIT_USAGE;
            overlap_asked = 1;
            if (dh_overlap_parse(v, &overlap)) {
                fprintf(stderr, "harness run: --overlap %s: choose yes, no or auto\n", v);
                return DH_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--instrumented")) {
            sel.instrumented = 1;
        } else if (!strcmp(a, "--remap-overhead")) {
            if (!(v = VAL())) return DH_EXIT_USAGE;
            if (!strcmp(v, "yes")) sel.remap_overhead = 1;
            else if (!strcmp(v, "no")) sel.remap_overhead = 0;
            else {
                fprintf(stderr, "harness run: --remap-overhead %s: choose yes or no\n", v);
                return DH_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--counters")) {
            if (!(v = VAL())) return DH_EXIT_USAGE;
            if (!strcmp(v, "yes")) sel.profile = 1;
            else if (!strcmp(v, "no")) sel.profile = 0;
            else if (!strcmp(v, "auto")) sel.profile = -1;
            else {
                fprintf(stderr, "harness run: --counters %s: choose yes, no or auto\n", v);
                return DH_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--tune")) {
            if (!(v = VAL())) return DH_EXIT_USAGE;
            tune_given = 1;
            if (dh_tune_mode_parse(v, &tune.mode)) {
                fprintf(stderr, "harness run: --tune %s: choose none, journal, exhaustive, "
                        "random, anneal or model\n", v);
                return DH_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--tuned")) {
            if (!(v = VAL())) return DH_EXIT_USAGE;
            tuned_path = v;
        } else if (!strcmp(a, "--save-tuned")) {
            if (!(v = VAL())) return DH_EXIT_USAGE;
            save_tuned = v;
        } else if (!strcmp(a, "--tune-budget")) {
            if (!(v = VAL()) || !dh_cli_int("run", "--tune-budget", v, 1, 100000, &tune.budget))
                return DH_EXIT_USAGE;
        } else if (!strcmp(a, "--tune-seconds")) {
            int t;
            if (!(v = VAL()) || !dh_cli_int("run", "--tune-seconds", v, 1, 86400, &t))
                return DH_EXIT_USAGE;
            tune.seconds = t;
        } else if (!strcmp(a, "--tune-reps")) {
            if (!(v = VAL()) || !dh_cli_int("run", "--tune-reps", v, 1, DH_MAX_SAMPLES, &tune.reps))
                return DH_EXIT_USAGE;
        } else if (!strcmp(a, "--tune-seed")) {
            int t;
            if (!(v = VAL()) || !dh_cli_int("run", "--tune-seed", v, 0, 1 << 30, &t))
                return DH_EXIT_USAGE;
            tune.seed = (unsigned)t;
        } else if (!strcmp(a, "--max-load")) {
            char *end;
            if (!(v = VAL()))
                return DH_EXIT_USAGE;
            max_load = strtod(v, &end);
            if (end == v || *end || !(max_load >= 0 && max_load <= 4096)) {
                fprintf(stderr, "harness run: --max-load %s: want a load average, 0..4096\n", v);
                return DH_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--isolate")) {
            if (!(v = VAL())) return DH_EXIT_USAGE;
            if (strcmp(v, "yes") && strcmp(v, "no")) {
                fprintf(stderr, "harness run: --isolate %s: choose yes or no\n", v);
                return DH_EXIT_USAGE;
            }
            isolate = !strcmp(v, "yes");
        } else {
            fprintf(stderr, "harness run: unknown option '%s' (see harness run --help)\n",
                    argv[i]);
            return DH_EXIT_USAGE;
        }
#undef VAL
    }
    struct dh_err e = {0};
    char owhy[300];
    if (dh_overlap_decide(overlap, isolate, !no_cache, 64, 0, owhy, sizeof owhy) < 0) {
        fprintf(stderr, "harness run: %s\n", owhy);
        return DH_EXIT_USAGE;
    }
    int cache_rc;
    struct dh_wcache *wcache = dh_cli_wcache("run", no_cache, cache_dir, cache_limit, &cache_rc);
    if (cache_rc)
        return cache_rc;
    if (descriptor) {
        if (sel.suite || sel.benches) {
            fprintf(stderr, "harness run: --descriptor runs one kernel of yours: leave out "
                    "--suite and --bench\n");
            return DH_EXIT_USAGE;
        }
        int lr = dh_ukernel_load(descriptor, NULL, &sel.bench, &e);
        if (lr) {
            fprintf(stderr, "harness run: %s\n", e.msg);
            return DH_EXIT_USAGE;
        }
        sel.suite = "user";
    }
    if (!sel.suite) {
        fprintf(stderr, "harness run: --suite is required: choose one of %s, or all\n", dh_suite_names());
        return DH_EXIT_USAGE;
    }

    /* --tuned uses a file's configurations, --tune MODE searches: one or
     * the other; --save-tuned keeps what a search found */
    if (tuned_path && tune_given && tune.mode != DH_TUNE_JOURNAL) {
        fprintf(stderr, "harness run: --tuned %s runs each case at the file's configuration; "
                "--tune %s searches anew: choose one\n", tuned_path, dh_tune_mode_name(tune.mode));
        return DH_EXIT_USAGE;
    }
    if (save_tuned && tune.mode <= DH_TUNE_JOURNAL) {
        fprintf(stderr, "harness run: --save-tuned %s keeps what a search finds: add --tune "
                "exhaustive, random, anneal or model\n", save_tuned);
        return DH_EXIT_USAGE;
    }
    if (tuned_path) {
        char why[4400];
        int fd = dh_open_data(tuned_path, DH_DATA_MAX_TEXT, why, sizeof why);
        if (fd < 0) {
            fprintf(stderr, "harness run: --tuned: %s (make one with --tune MODE "
                    "--save-tuned FILE)\n", why);
            return DH_EXIT_USAGE;
        }
        close(fd);
    }

    /* cheap checks first: a usage error must not wait for device probing */
    if (!sel.bench && !dh_suite_exists(sel.suite)) {
        char m[64];
        int has = !dh_suggest_list(sel.suite, dh_suite_names(), m, sizeof m);
        fprintf(stderr, "harness run: unknown suite '%s'%s%s%s: choose one of %s, or all\n",
                sel.suite, has ? " (did you mean " : "", has ? m : "", has ? "?)" : "",
                dh_suite_names());
        return DH_EXIT_USAGE;
    }
    /* a busy host: refused before anything is built or timed */
    struct dh_conditions cond;
    dh_conditions_host(&cond);
    if (max_load >= 0 && cond.load_before[0] > max_load) {
        fprintf(stderr, "harness run: the host is busy: load average %.2f over the last minute "
                "(%d CPUs) is over --max-load %g; wait for it to settle, stop what runs "
                "beside it, or raise --max-load\n", cond.load_before[0], cond.cpus, max_load);
        return DH_EXIT_INFRA;
    }
    dh_runner_install_sigint();
    static struct dh_devlist devs;
    int rc = dh_devices_gather(&devs, isolate, &e);
    if (rc) {
        fprintf(stderr, "harness run: %s\n", e.msg);
        return dh_exit_for(rc);
    }
    struct dh_run *runs = NULL;
    int n = 0;
    if ((rc = dh_plan(&sel, &devs, &runs, &n, &e))) {
        if (check_only && dh_exit_for(rc) != DH_EXIT_USAGE) {
            /* a machine without the run's devices (a login node): the options
             * hold; the nodes make the plan */
            printf("harness run: options checked; no plan here (%s)\n", e.msg);
            return DH_EXIT_OK;
        }
        fprintf(stderr, "harness run: %s\n", e.msg);
        return dh_exit_for(rc);
    }
    if (check_only) {
        printf("harness run: options checked; %d case%s planned here\n", n, n == 1 ? "" : "s");
        free(runs);
        return DH_EXIT_OK;
    }
    struct dh_plan_rec *plan = NULL;
    int planned = n;
    if (shard_costs && !shards) {
        fprintf(stderr, "harness run: --shard-costs balances shards: give --shard I/N too\n");
        free(runs);
        return DH_EXIT_USAGE;
    }
    if (shards) {
        double *cost = NULL;
        if (shard_costs) {
            struct dh_resultfile prev;
            int known = 0;
            if ((rc = dh_results_load(shard_costs, &prev, &e))) {
                fprintf(stderr, "harness run: --shard-costs %s: %s\n", shard_costs, e.msg);
                free(runs);
                return dh_exit_for(rc);
            }
            if ((cost = malloc((size_t)(n ? n : 1) * sizeof *cost)))
                dh_shard_costs(runs, n, prev.runs, prev.n_runs, cost, &known);
            dh_resultfile_free(&prev);
            if (cost)
                fprintf(stderr, "harness run: shard costs from %s: %d of %d cases found (the "
                        "rest at their mean)\n", shard_costs, known, n);
        }
        plan = (!shard_costs || cost) ? dh_shard_plan(runs, n, shard, shards, cost) : NULL;
        free(cost);
        if (!plan) {
            fprintf(stderr, "harness run: out of memory\n");
            free(runs);
            return DH_EXIT_INFRA;
        }
        dh_shard_keep(runs, &n, plan);
    }

    /* the output folder must be writable before anything is measured */
    char dir[4096], path[4200];
    if (out) {
        snprintf(dir, sizeof dir, "%s", out);
    } else {
        char stamp[40];
        time_t t = time(NULL);
        struct tm tm;
        localtime_r(&t, &tm);
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
        /* a folder of its own, even for runs started in the same second */
        if (dh_mkdir_p("results/runs")) {
            fprintf(stderr, "harness run: cannot make results/runs (%s): choose a writable "
                    "folder with --out DIR\n", strerror(errno));
            free(runs);
            dh_plan_rec_free(plan);
            return DH_EXIT_INFRA;
        }
        for (int k = 1;; k++) {
            if (k == 1)
                snprintf(dir, sizeof dir, "results/runs/%s", stamp);
            else
                snprintf(dir, sizeof dir, "results/runs/%s-%d", stamp, k);
            if (!mkdir(dir, 0755) || errno != EEXIST || k == 1000)
                break;
        }
    }
    snprintf(path, sizeof path, "%s/results.xml", dir);
    struct dh__run_ctx x = {.path = path, .plan = plan, .devs = &devs, .runs = runs, .n = n,
                    .tty = isatty(2)};
    static struct dh_journal journal;
    tune.devs = &devs;
    if (tuned_path) {             /* the file's, never the user's journal */
        if (dh_journal_load(&journal, tuned_path, &e)) {
            fprintf(stderr, "harness run: --tuned: %s\n", e.msg);
            free(runs);
            dh_plan_rec_free(plan);
            return DH_EXIT_USAGE;
        }
        tune.journal = &journal;
        tune.tuned = tuned_path;
    } else if (tune.mode != DH_TUNE_NONE) {
        if (dh_journal_load(&journal, dh_journal_default_path(), &e))
            fprintf(stderr, "harness run: warning: %s; tuning goes on without it\n", e.msg);
        else
            tune.journal = &journal;
    }
    x.tune = tune;
    dh_env_fill(&x.env, full_argc, full_argv);
    x.env.cond = cond;                   /* the load before; each write adds the load after */
    if (dh_mkdir_p(dir)) {
        fprintf(stderr, "harness run: cannot make %s (%s): choose a writable folder with "
                "--out DIR\n", dir, strerror(errno));
        free(runs);
        dh_plan_rec_free(plan);
        return DH_EXIT_INFRA;
    }
    /* one harness per folder; held until exit */
    char why[4600];
    if (dh_dir_lock(dir, why, sizeof why) < 0) {
        fprintf(stderr, "harness run: %s\n", why);
        free(runs);
        dh_plan_rec_free(plan);
        return DH_EXIT_INFRA;
    }
    /* a results.xml already there: this command's finished cases are kept
     * (resume); another command's results are never overwritten */
    int kept = fresh ? 0 : resume(path, runs, n, plan, &x.env, why, sizeof why);
    if (kept < 0) {
        fprintf(stderr, "harness run: %s\n", why);
        free(runs);
        dh_plan_rec_free(plan);
        return DH_EXIT_INFRA;
    }
    if (kept)
        fprintf(stderr, "harness: resuming: %d of %d cases are finished in %s and kept "
                "(--fresh starts over)\n", kept, n, path);
    if (dh_xml_write_plan(path, &x.env, &devs, runs, n, plan, &e)) {
        fprintf(stderr, "harness run: %s\n", e.msg);
        free(runs);
        dh_plan_rec_free(plan);
        return DH_EXIT_INFRA;
    }
    if (plan)
        fprintf(stderr, "harness: shard %d/%d of plan %s (%d cases): %d case%s -> %s\n",
                shard, shards, plan->hash, planned, n, n == 1 ? "" : "s", path);
    else
        fprintf(stderr, "harness: %d case%s -> %s\n", n, n == 1 ? "" : "s", path);

    x.current = -1;
    int cpu_device = 0;
    for (int i = 0; i < n; i++) {
        x.pending += runs[i].r.status == -1;
        const struct dh_device_info *di = dh_devlist_find(&devs, runs[i].c.backend,
                                                          runs[i].c.device);
        cpu_device |= runs[i].r.status == -1 && di && !strcmp(di->kind, "cpu");
    }
    int cpus = dh_overlap_cpus();
    int overlap_on = dh_overlap_decide(overlap, isolate, no_cache ? 0 : wcache ? 1 : -1, cpus,
                                       cpu_device, owhy, sizeof owhy) > 0;
    if (owhy[0] && overlap_asked)      /* why it is off: said when asked for */
        fprintf(stderr, "harness: %s\n", owhy);
    else if (overlap_on && (cpus < DH_OVERLAP_MIN_CPUS || cpu_device))
        fprintf(stderr, "harness: overlap on (--overlap yes): the background setup shares "
                "the timing's cores here (%d CPUs%s)\n", cpus,
                cpu_device ? ", a CPU device" : "");
    x.t0 = dh_now_ms();
    struct dh_runner_opts o = {.isolate = isolate, .dump_dir = dump, .wcache = wcache,
                               .overlap = overlap_on, .before = dh__run_on_before,
                               .finished = dh__run_on_finished, .ctx = &x};
    rc = dh_runner_execute(runs, n, &o);
    if (x.tty)
        fprintf(stderr, "\r\033[K");
    dh_run_derive(runs, n);
    if (x.write_failed) {
        fprintf(stderr, "harness run: %s\n", x.err.msg);
        free(runs);
        dh_plan_rec_free(plan);
        return DH_EXIT_INFRA;
    }
    if (dh_xml_write_plan(path, &x.env, &devs, runs, n, plan, &e)) {
        fprintf(stderr, "harness run: %s\n", e.msg);
        free(runs);
        dh_plan_rec_free(plan);
        return DH_EXIT_INFRA;
    }
    dh__run_summary(runs, n);
    dh_model_summary(runs, n);
    if (overlap_on) {
        int made = 0;
        double bg = 0, wall = 0, wait = 0, read = 0;
        for (int i = 0; i < n; i++)
            if (runs[i].r.setup_bg_ms > 0) {
                made++;
                bg += runs[i].r.setup_bg_ms;
                wall += runs[i].r.setup_bg_wall_ms;
                wait += runs[i].r.setup_wait_ms;
                read += runs[i].r.setup_ms;
            }
        fflush(stdout);     /* after the summary, not inside it, where both go to one file */
        fprintf(stderr, "harness: overlap: %d workload%s made in the background (%.2f s, "
                "%.2f s there), waited %.2f s, read %.2f s\n", made, made == 1 ? "" : "s",
                bg / 1000, wall / 1000, wait / 1000, read / 1000);
    }
    int save_failed = save_tuned && save_tuned_file(save_tuned, runs, n, &devs, &x.tune,
                                                    x.env.command);
    for (int i = 0; i < n; i++) {
        const struct dh_tuning *t = &runs[i].tune;
        if (!t->strategy[0])
            continue;
        char label[300];
        dh_case_variant_label(&runs[i].c, label, sizeof label);
        char tun[200];
        dh_pset_format(&runs[i].c.params, DH_P_TUNABLE, tun, sizeof tun);
        if (!strcmp(t->strategy, "journal")) {
            printf("tuned  %-8s %-28s %s (the journal's best)\n", runs[i].c.bench_name, label, tun);
            continue;
        }
        if (!strcmp(t->strategy, "tuned")) {
            printf("tuned  %-8s %-28s %s (from %s)\n", runs[i].c.bench_name, label, tun,
                   tuned_path);
            continue;
        }
        if (!strcmp(t->strategy, "untuned")) {
            printf("UNTUNED %-7s %-28s %s: not in %s for this build, device, driver and "
                   "compiler: defaults\n", runs[i].c.bench_name, label, tun, tuned_path);
            continue;
        }
        if (t->best < 0) {
            printf("tuned  %-8s %-28s %s: no configuration ran correctly (%d tried)\n",
                   runs[i].c.bench_name, label, t->strategy, t->n_eval);
            continue;
        }
        printf("tuned  %-8s %-28s %s: %d of %d configs (%d before pruning), best %s %.4f ms",
               runs[i].c.bench_name, label, t->strategy, t->n_eval, t->space, t->space_total,
               tun, t->eval[t->best].ms);
        if (t->default_ms > 0)
            printf(", %.2fx over default", t->default_ms / t->eval[t->best].ms);
        printf(", %.0f%% within 5%% of best, best reached after %d", 100 * t->flat_share,
               t->evals_to_95);
        double ov[DH_TUNE_MAX_EVALS];
        int no = 0;
        for (int k = 0; k < t->n_eval; k++)
            if (!t->eval[k].from_journal && t->eval[k].wall_ms > 0)
                ov[no++] = t->eval[k].overhead_ms;
        if (no)
            printf(", harness overhead %.1f ms/evaluation (median)", dh_median(ov, no));
        printf("\n");
    }
    printf("CFE: c = hardware counters, m = BBV model. ceiling: best in-work-group remap "
           "speedup for this input; share = (speedup-1)/(ceiling-1).\n");
    int any_remap = 0;
    for (int i = 0; i < n && !any_remap; i++)
        any_remap = runs[i].r.remap.state != DH_REMAP_NONE;
    if (any_remap)
        printf("remap ovh: gpu_tdr / baseline kernel medians on the input already in path "
               "order (cpu_tdr's key regrouping): the remap's cost with nothing to gain; "
               "speedup x remap ovh ~ what removing the divergence gave.\n");
    int wrong = 0, infra = 0;
    for (int i = 0; i < n; i++) {
        int s = runs[i].r.status;
        if (s == DH_E_WRONG)
            wrong++;
        else if (s && s != DH_E_INTERRUPTED && s != DH_E_UNSUPPORTED && s != DH_E_CONSTRAINT)
            infra++;
    }
    printf("\nresults: %s\n", path);
    for (int i = 0; i < n; i++)
        dh_run_release(&runs[i]);
    free(runs);
    dh_plan_rec_free(plan);
    if (rc == -DH_E_INTERRUPTED) {
        fprintf(stderr, "harness run: interrupted; finished results are in %s\n", path);
        return DH_EXIT_INTERRUPTED;
    }
    if (wrong) {
        fprintf(stderr, "harness run: %d run%s gave a wrong result (status \"wrong\")\n", wrong,
                wrong == 1 ? "" : "s");
        return DH_EXIT_WRONG;
    }
    if (infra) {
        fprintf(stderr, "harness run: %d run%s failed (see the messages above)\n", infra,
                infra == 1 ? "" : "s");
        return DH_EXIT_INFRA;
    }
    return save_failed ? DH_EXIT_INFRA : 0;
}
