/* cmd_slurm.c — `harness slurm`: a run as a Slurm job array of N shards
 * (`harness run ... --shard K/N --out DIR/shard-K`) and a merge job after
 * it (`harness merge`, whatever the shards' ends), with --wait to follow
 * them and exit with the merge's verdict.
 *
 * User text is data, never code: the run's options are stored in
 * DIR/slurm/run.args (NUL-separated) and read back by the job itself
 * (`harness slurm --task DIR`); the batch scripts hold only this binary's
 * path and DIR, single-quoted. sbatch and scontrol run by fork/exec with
 * argument vectors, never through a shell.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "../support/fs.h"
#include "../stats/load.h"
#include "../../results/plan.h"

#define MAX_ARGS 256

static void slurm_usage(FILE *f)
{
    fprintf(f,
        "usage: harness slurm --shards N --results DIR [options] -- RUN-OPTIONS...\n"
        "  submits `harness run RUN-OPTIONS --shard K/N --out DIR/shard-K` as a Slurm job\n"
        "  array of N tasks and a merge job after it (--dependency=afterany) that joins\n"
        "  the shards into DIR/merged.xml with `harness merge`, naming every shard that\n"
        "  did not come back. Prints the job ids and how to follow them.\n"
        "  --shards N          tasks of the array (1..%d)\n"
        "  --results DIR       results folder on storage every node sees (made if absent);\n"
        "                      this harness binary must be there for the nodes too\n"
        "  --partition P       sbatch --partition\n"
        "  --time T            sbatch --time (each shard, and the merge)\n"
        "  --gpus-per-task G   sbatch --gpus-per-task (the shards)\n"
        "  --sbatch-arg ARG    one more sbatch argument for both jobs (repeatable),\n"
        "                      e.g. --sbatch-arg=--account=perf\n"
        "  --wait              follow the jobs (scontrol) until the merge ends, name the\n"
        "                      shards that failed, and exit with the merge's verdict:\n"
        "                      0 every case ran and verified, 1 a wrong result, 3 a\n"
        "                      shard or case missing or failed\n"
        "  --poll S            seconds between looks with --wait (default 2)\n"
        "  RUN-OPTIONS         `harness run` options (--suite, --size, --backend, ...);\n"
        "                      --out and --shard are set per task\n", DH_MAX_SHARDS);
}

/* ---- running programs: fork/exec, an argument vector, no shell ---- */

/* Run argv; its stdout into out (cut to len), stderr passed on. The exit
 * status (0..255), or -1 when it could not start or died by a signal. */
static int run_capture(char *const argv[], char *out, size_t len)
{
    int fd[2];
    if (pipe(fd))
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        execvp(argv[0], argv);
        fprintf(stderr, "harness slurm: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fd[1]);
    size_t o = 0;
    char buf[4096];
    ssize_t r;
    while ((r = read(fd[0], buf, sizeof buf)) > 0 || (r < 0 && errno == EINTR)) {
        if (r < 0)
            continue;
        size_t k = (size_t)r;
        if (out && o + 1 < len) {
            size_t c = k < len - 1 - o ? k : len - 1 - o;
            memcpy(out + o, buf, c);
            o += c;
        }
    }
    if (out && len)
        out[o] = 0;
    close(fd[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    if (!WIFEXITED(st))
        return -1;
    return WEXITSTATUS(st) == 127 ? -1 : WEXITSTATUS(st);
}

/* ---- files ---- */

static int write_file(const char *path, const char *data, size_t len, int mode)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    int fd = dh_open_excl(tmp, mode);
    if (fd < 0)
        return -1;
    size_t o = 0;
    while (o < len) {
        ssize_t w = write(fd, data + o, len - o);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            close(fd);
            unlink(tmp);
            return -1;
        }
        o += (size_t)w;
    }
    if (fsync(fd) || close(fd) || rename(tmp, path)) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* the whole file, NUL-terminated, malloc'd; NULL when unreadable */
static char *read_all(const char *path, size_t *len)
{
    char why[4400];
    FILE *f = dh_fopen_data(path, DH_DATA_MAX_TEXT, why, sizeof why);
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *b = malloc(cap);
    size_t r;
    while (b && (r = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (cap - n - 1 == 0) {
            char *nb = realloc(b, cap * 2);
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (b) {
        b[n] = 0;
        if (len)
            *len = n;
    }
    return b;
}

/* text in single quotes for sh: ' becomes '\'' */
static void sh_quote(const char *in, char *out, size_t len)
{
    size_t o = 0;
    if (o + 1 < len)
        out[o++] = '\'';
    for (; *in && o + 5 < len; in++) {
        if (*in == '\'') {
            memcpy(out + o, "'\\''", 4);
            o += 4;
        } else {
            out[o++] = *in;
        }
    }
    if (o + 1 < len)
        out[o++] = '\'';
    out[o] = 0;
}

static int self_exe(char *out, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", out, len - 1);
    if (n <= 0)
        return -1;
    out[n] = 0;
    return 0;
}

/* DIR/slurm/shards holds N */
static int read_shards(const char *dir, int *n)
{
    char p[4200];
    snprintf(p, sizeof p, "%s/slurm/shards", dir);
    char *t = read_all(p, NULL);
    if (!t)
        return -1;
    char *end;
    long v = strtol(t, &end, 10);
    int bad = end == t || (*end && *end != '\n');
    free(t);
    if (bad || v < 1 || v > DH_MAX_SHARDS)
        return -1;
    *n = (int)v;
    return 0;
}

/* ---- inside the jobs ---- */

/* `harness slurm --task DIR`: shard SLURM_ARRAY_TASK_ID+1 of N */
static int task(const char *dir)
{
    int n;
    const char *tid = getenv("SLURM_ARRAY_TASK_ID");
    char *end;
    long k = tid ? strtol(tid, &end, 10) : -1;
    if (read_shards(dir, &n)) {
        fprintf(stderr, "harness slurm --task: %s/slurm/shards is missing or bad\n", dir);
        return DH_EXIT_INFRA;
    }
    if (!tid || end == tid || *end || k < 0 || k >= n) {
        fprintf(stderr, "harness slurm --task: SLURM_ARRAY_TASK_ID is %s: want 0..%d (run "
                "inside the job array `harness slurm` submits)\n", tid ? tid : "unset", n - 1);
        return DH_EXIT_USAGE;
    }
    char p[4200];
    snprintf(p, sizeof p, "%s/slurm/run.args", dir);
    size_t len;
    char *args = read_all(p, &len);
    if (!args) {
        fprintf(stderr, "harness slurm --task: cannot read %s\n", p);
        return DH_EXIT_INFRA;
    }
    static char *argv[MAX_ARGS + 8];
    static char shard[32], out[4200];
    int argc = 0;
    argv[argc++] = "harness";
    argv[argc++] = "run";
    for (size_t o = 0; o < len && argc < MAX_ARGS; o += strlen(args + o) + 1)
        argv[argc++] = args + o;
    snprintf(shard, sizeof shard, "%ld/%d", k + 1, n);
    snprintf(out, sizeof out, "%s/shard-%ld", dir, k + 1);
    argv[argc++] = "--shard";
    argv[argc++] = shard;
    argv[argc++] = "--out";
    argv[argc++] = out;
    argv[argc] = NULL;
    fprintf(stderr, "harness slurm: shard %s on %s:", shard, getenv("SLURMD_NODENAME") ?
            getenv("SLURMD_NODENAME") : "?");
    for (int i = 0; i < argc; i++)
        fprintf(stderr, " %s", argv[i]);
    fprintf(stderr, "\n");
    fflush(stderr);
    int rc = dh_cmd_run(argc - 1, argv + 1, argc, argv);
    free(args);
    return rc;
}

/* `harness slurm --merge-task DIR`: merge whatever came back, then the
 * verdict into DIR/slurm/verdict */
static int merge_task(const char *dir)
{
    int n;
    if (read_shards(dir, &n)) {
        fprintf(stderr, "harness slurm --merge-task: %s/slurm/shards is missing or bad\n", dir);
        return DH_EXIT_INFRA;
    }
    char **argv = calloc((size_t)n + 8, sizeof *argv);
    char (*paths)[4200] = calloc((size_t)n + 1, sizeof *paths);
    if (!argv || !paths) {
        free(argv);
        free(paths);
        return DH_EXIT_INFRA;
    }
    int argc = 0;
    argv[argc++] = "merge";
    snprintf(paths[n], sizeof paths[n], "%s/merged.xml", dir);
    argv[argc++] = paths[n];
    for (int k = 0; k < n; k++) {
        snprintf(paths[k], sizeof paths[k], "%s/shard-%d/results.xml", dir, k + 1);
        argv[argc++] = paths[k];
    }
    argv[argc++] = "--allow-missing";
    argv[argc] = NULL;
    fflush(stdout);
    int rc = dh_cmd_merge(argc, argv);
    fflush(stdout);
    /* the merge is whole: each run's own status decides */
    if (rc == DH_EXIT_OK) {
        static struct dh_resultfile f;
        struct dh_err e = {0};
        if (dh_results_load(paths[n], &f, &e)) {
            fprintf(stderr, "harness slurm: %s\n", e.msg);
            rc = DH_EXIT_INFRA;
        } else {
            int wrong = 0, failed = 0;
            for (int i = 0; i < f.n_runs; i++) {
                int s = f.runs[i].r.status;
                wrong += s == DH_E_WRONG;
                failed += s && s != DH_E_WRONG && s != DH_E_UNSUPPORTED && s != DH_E_CONSTRAINT;
            }
            printf("harness slurm: %d runs, %d wrong, %d failed\n", f.n_runs, wrong, failed);
            rc = wrong ? DH_EXIT_WRONG : failed ? DH_EXIT_INFRA : DH_EXIT_OK;
            dh_resultfile_free(&f);
        }
    }
    char p[4200], v[16];
    snprintf(p, sizeof p, "%s/slurm/verdict", dir);
    snprintf(v, sizeof v, "%d\n", rc);
    if (write_file(p, v, strlen(v), 0644))
        fprintf(stderr, "harness slurm: cannot write %s: %s\n", p, strerror(errno));
    free(argv);
    free(paths);
    return rc;
}

/* ---- following the jobs ---- */

/* "KEY=value" in text: value into out (to the next blank) */
static int field(const char *text, const char *key, char *out, size_t len)
{
    size_t kl = strlen(key);
    for (const char *p = text; (p = strstr(p, key)); p += kl)
        if ((p == text || p[-1] == ' ' || p[-1] == '\n') && p[kl] == '=') {
            const char *v = p + kl + 1;
            size_t l = strcspn(v, " \n");
            if (l >= len)
                l = len - 1;
            memcpy(out, v, l);
            out[l] = 0;
            return 0;
        }
    return -1;
}

static int ended(const char *state)
{
    static const char *const ends[] = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT",
                                       "NODE_FAIL", "OUT_OF_MEMORY", "PREEMPTED", "BOOT_FAIL",
                                       "DEADLINE", NULL};
    for (int i = 0; ends[i]; i++)
        if (!strncmp(state, ends[i], strlen(ends[i])))
            return 1;
    return 0;
}

/* the end state of job id ("" while scontrol does not know it) */
static void job_state(const char *id, char *state, size_t len, char *text, size_t tlen)
{
    char *argv[] = {"scontrol", "show", "job", (char *)id, NULL};
    state[0] = 0;
    if (run_capture(argv, text, tlen) == 0)
        field(text, "JobState", state, len);
}

/* every task of the array: the ones that did not complete, named */
static int report_shards(const char *array, int n, const char *dir)
{
    static char text[1 << 20];
    char *argv[] = {"scontrol", "show", "job", (char *)array, NULL};
    if (run_capture(argv, text, sizeof text) != 0) {
        fprintf(stderr, "harness slurm: scontrol no longer knows job %s: the shards' ends are "
                "in the merged results\n", array);
        return 0;
    }
    int bad = 0;
    for (char *rec = text; rec && *rec;) {
        char *next = strstr(rec, "\n\n");
        if (next)
            *next = 0;
        char tid[16], st[32], ec[32];
        if (!field(rec, "ArrayTaskId", tid, sizeof tid) && !field(rec, "JobState", st, sizeof st)
            && !field(rec, "ExitCode", ec, sizeof ec) && strcmp(st, "COMPLETED")) {
            long k = strtol(tid, NULL, 10);
            fprintf(stderr, "harness slurm: shard %ld/%d (array task %s) ended %s, exit %s; "
                    "log %s/slurm/shard-%s.log\n", k + 1, n, tid, st, ec, dir, tid);
            bad++;
        }
        rec = next ? next + 2 : NULL;
    }
    return bad;
}

static int wait_jobs(const char *array, const char *merge, int n, const char *dir, int poll_s)
{
    static char text[1 << 16];
    char state[64], last[64] = "";
    int gone = 0;
    for (;;) {
        job_state(merge, state, sizeof state, text, sizeof text);
        if (!state[0]) {
            /* scontrol forgot it (MinJobAge): over; the verdict file says how */
            if (++gone >= 3)
                break;
        } else if (strcmp(state, last)) {
            fprintf(stderr, "harness slurm: merge job %s %s\n", merge, state);
            snprintf(last, sizeof last, "%s", state);
        }
        if (state[0] && ended(state))
            break;
        struct timespec ts = {.tv_sec = poll_s};
        nanosleep(&ts, NULL);
    }
    report_shards(array, n, dir);
    char p[4200];
    snprintf(p, sizeof p, "%s/slurm/verdict", dir);
    char *v = read_all(p, NULL);
    if (!v) {
        fprintf(stderr, "harness slurm: the merge job %s ended %s without a verdict (see "
                "%s/slurm/merge.log)\n", merge, state[0] ? state : "(forgotten by scontrol)",
                dir);
        return DH_EXIT_INFRA;
    }
    int rc = atoi(v);
    free(v);
    printf("harness slurm: merge verdict %d (%s); results %s/merged.xml\n", rc,
           rc == 0 ? "every case ran and verified" : rc == 1 ? "a result was wrong" :
           "a shard or case is missing or failed", dir);
    return rc;
}

/* the job id from sbatch --parsable ("123" or "123;cluster") */
static int job_id(const char *out, char *id, size_t len)
{
    size_t l = strspn(out, "0123456789");
    if (!l || l >= len)
        return -1;
    memcpy(id, out, l);
    id[l] = 0;
    return 0;
}

int dh_cmd_slurm(int argc, char **argv)
{
    int shards = 0, wait = 0, poll_s = 2, n_extra = 0, n_run = 0;
    const char *results = NULL, *partition = NULL, *time_limit = NULL, *gpus = NULL;
    const char *extra[32], *run[MAX_ARGS];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            slurm_usage(stdout);
            return 0;
        }
        if (!strcmp(a, "--task") || !strcmp(a, "--merge-task")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "harness slurm: %s needs the results folder\n", a);
                return DH_EXIT_USAGE;
            }
            return !strcmp(a, "--task") ? task(argv[i + 1]) : merge_task(argv[i + 1]);
        }
        if (!strcmp(a, "--")) {
            for (i++; i < argc; i++) {
                if (n_run == MAX_ARGS) {
                    fprintf(stderr, "harness slurm: more than %d run options\n", MAX_ARGS);
                    return DH_EXIT_USAGE;
                }
                if (!strcmp(argv[i], "--out") || !strncmp(argv[i], "--out=", 6)
                    || !strcmp(argv[i], "--shard") || !strncmp(argv[i], "--shard=", 8)) {
                    fprintf(stderr, "harness slurm: leave out %s: each task runs its own "
                            "shard into --results DIR/shard-K\n", argv[i]);
                    return DH_EXIT_USAGE;
                }
                run[n_run++] = argv[i];
            }
            break;
        }
        /* --opt=value as well as --opt value */
        char name[32];
        const char *val = NULL, *eq = strchr(a, '=');
        if (!strncmp(a, "--", 2) && eq && (size_t)(eq - a) < sizeof name) {
            memcpy(name, a, (size_t)(eq - a));
            name[eq - a] = 0;
            a = name;
            val = eq + 1;
        }
        int takes = !strcmp(a, "--shards") || !strcmp(a, "--results") || !strcmp(a, "--partition")
                    || !strcmp(a, "--time") || !strcmp(a, "--gpus-per-task")
                    || !strcmp(a, "--sbatch-arg") || !strcmp(a, "--poll");
        if (takes && !val) {
            if (i + 1 >= argc) {
                fprintf(stderr, "harness slurm: %s needs a value (see harness slurm --help)\n", a);
                return DH_EXIT_USAGE;
            }
            val = argv[++i];
        }
        if (!strcmp(a, "--shards")) {
            if (!dh_cli_int("slurm", "--shards", val, 1, DH_MAX_SHARDS, &shards))
                return DH_EXIT_USAGE;
        } else if (!strcmp(a, "--poll")) {
            if (!dh_cli_int("slurm", "--poll", val, 1, 3600, &poll_s))
                return DH_EXIT_USAGE;
        } else if (!strcmp(a, "--results")) {
            results = val;
        } else if (!strcmp(a, "--partition")) {
            partition = val;
        } else if (!strcmp(a, "--time")) {
            time_limit = val;
        } else if (!strcmp(a, "--gpus-per-task")) {
            gpus = val;
        } else if (!strcmp(a, "--sbatch-arg")) {
            if (n_extra == 32) {
                fprintf(stderr, "harness slurm: more than 32 --sbatch-arg\n");
                return DH_EXIT_USAGE;
            }
            extra[n_extra++] = val;
        } else if (!strcmp(a, "--wait")) {
            wait = 1;
        } else {
            fprintf(stderr, "harness slurm: unknown option '%s' (harness run's options go "
                    "after --; see harness slurm --help)\n", argv[i]);
            return DH_EXIT_USAGE;
        }
    }
    if (!shards || !results || !n_run) {
        fprintf(stderr, "harness slurm: give --shards N, --results DIR and the run's options "
                "after -- (e.g. harness slurm --shards 4 --results /shared/r -- --suite micro)\n");
        return DH_EXIT_USAGE;
    }

    /* the folder, absolute: the jobs may start elsewhere */
    char dir[PATH_MAX], sub[PATH_MAX + 16], exe[PATH_MAX], p[PATH_MAX + 64];
    if (dh_mkdir_p(results) || !realpath(results, dir)) {
        fprintf(stderr, "harness slurm: cannot make %s (%s): choose a writable folder on "
                "storage the nodes share\n", results, strerror(errno));
        return DH_EXIT_INFRA;
    }
    snprintf(sub, sizeof sub, "%s/slurm", dir);
    if (dh_mkdir_p(sub) || self_exe(exe, sizeof exe)) {
        fprintf(stderr, "harness slurm: cannot make %s (%s)\n", sub, strerror(errno));
        return DH_EXIT_INFRA;
    }
    /* a folder whose jobs are pending or running is not submitted into
     * again (the second submit rewrote the options and shard count the
     * first job's pending tasks read) */
    snprintf(p, sizeof p, "%s/jobs", sub);
    size_t jl = 0;
    char *jobs = read_all(p, &jl);
    if (jobs) {
        char a_id[32] = "", m_id[32] = "", ids[80];
        if (sscanf(jobs, "array %31s merge %31s", a_id, m_id) == 2) {
            snprintf(ids, sizeof ids, "%s,%s", a_id, m_id);
            char *qv[] = {"squeue", "-h", "-o", "%i", "-j", ids, NULL};
            char live[512] = "";
            if (run_capture(qv, live, sizeof live) == 0 && live[strspn(live, " \n")]) {
                fprintf(stderr, "harness slurm: %s has jobs pending or running (array %s, merge "
                        "%s): wait for them (squeue -j %s), cancel them (scancel %s %s), or "
                        "choose another --results\n", dir, a_id, m_id, ids, a_id, m_id);
                free(jobs);
                return DH_EXIT_INFRA;
            }
        }
        free(jobs);
    }
    /* the run's options checked here, before anything is submitted: a
     * misspelled suite or parameter is a usage error now, not a failed job */
    {
        const char *cv[MAX_ARGS + 4];
        int m = 0;
        cv[m++] = exe;
        cv[m++] = "run";
        for (int i = 0; i < n_run; i++)
            cv[m++] = run[i];
        cv[m++] = "--check";
        cv[m] = NULL;
        char reply_chk[4096] = "";
        int crc = run_capture((char **)cv, reply_chk, sizeof reply_chk);
        if (crc != 0) {
            fprintf(stderr, "harness slurm: the run's options do not hold (harness run exit %d): "
                    "nothing submitted\n", crc);
            return crc > 0 ? crc : DH_EXIT_INFRA;
        }
    }
    /* the run's options as data, the scripts with two quoted paths */
    size_t alen = 0;
    for (int i = 0; i < n_run; i++)
        alen += strlen(run[i]) + 1;
    char *args = malloc(alen ? alen : 1), qexe[3 * PATH_MAX], qdir[3 * PATH_MAX];
    if (!args)
        return DH_EXIT_INFRA;
    size_t o = 0;
    for (int i = 0; i < n_run; i++) {
        memcpy(args + o, run[i], strlen(run[i]) + 1);
        o += strlen(run[i]) + 1;
    }
    sh_quote(exe, qexe, sizeof qexe);
    sh_quote(dir, qdir, sizeof qdir);
    static char script[8 * PATH_MAX];
    char num[16];
    snprintf(num, sizeof num, "%d\n", shards);
    int werr = 0;
    snprintf(p, sizeof p, "%s/run.args", sub);
    werr |= write_file(p, args, alen, 0644);
    free(args);
    snprintf(p, sizeof p, "%s/shards", sub);
    werr |= write_file(p, num, strlen(num), 0644);
    snprintf(script, sizeof script, "#!/bin/sh\n# written by harness slurm: shard "
             "SLURM_ARRAY_TASK_ID+1 of %d; the run's options are in run.args\n"
             "exec %s slurm --task %s\n", shards, qexe, qdir);
    snprintf(p, sizeof p, "%s/shard.sh", sub);
    werr |= write_file(p, script, strlen(script), 0755);
    snprintf(script, sizeof script, "#!/bin/sh\n# written by harness slurm: join the %d "
             "shards into merged.xml, the verdict into slurm/verdict\n"
             "exec %s slurm --merge-task %s\n", shards, qexe, qdir);
    snprintf(p, sizeof p, "%s/merge.sh", sub);
    werr |= write_file(p, script, strlen(script), 0755);
    snprintf(p, sizeof p, "%s/verdict", sub);
    if (unlink(p) && errno != ENOENT)
        werr = 1;
    if (werr) {
        fprintf(stderr, "harness slurm: cannot write the job files in %s: %s\n", sub,
                strerror(errno));
        return DH_EXIT_INFRA;
    }

    /* the array */
    char *av[64 + 32];
    char array_opt[32], out_opt[PATH_MAX + 64], part_opt[300], time_opt[100], gpu_opt[100];
    char shard_sh[PATH_MAX + 32], merge_sh[PATH_MAX + 32], dep_opt[64], reply[256];
    char array_id[32], merge_id[32];
    int k = 0;
    av[k++] = "sbatch";
    av[k++] = "--parsable";
    av[k++] = "--job-name=divharness-shard";
    snprintf(array_opt, sizeof array_opt, "--array=0-%d", shards - 1);
    av[k++] = array_opt;
    snprintf(out_opt, sizeof out_opt, "--output=%s/shard-%%a.log", sub);
    av[k++] = out_opt;
    if (partition) {
        snprintf(part_opt, sizeof part_opt, "--partition=%s", partition);
        av[k++] = part_opt;
    }
    if (time_limit) {
        snprintf(time_opt, sizeof time_opt, "--time=%s", time_limit);
        av[k++] = time_opt;
    }
    if (gpus) {
        snprintf(gpu_opt, sizeof gpu_opt, "--gpus-per-task=%s", gpus);
        av[k++] = gpu_opt;
    }
    for (int i = 0; i < n_extra; i++)
        av[k++] = (char *)extra[i];
    snprintf(shard_sh, sizeof shard_sh, "%s/shard.sh", sub);
    av[k++] = shard_sh;
    av[k] = NULL;
    int rc = run_capture(av, reply, sizeof reply);
    if (rc != 0 || job_id(reply, array_id, sizeof array_id)) {
        fprintf(stderr, "harness slurm: sbatch of the shards failed (%s): is Slurm reachable "
                "(sinfo), and SLURM_CONF set where it must be?\n",
                rc < 0 ? "sbatch did not run" : "see its message above");
        return DH_EXIT_INFRA;
    }
    /* the merge: after the array, whatever its tasks' ends */
    k = 0;
    av[k++] = "sbatch";
    av[k++] = "--parsable";
    av[k++] = "--job-name=divharness-merge";
    snprintf(dep_opt, sizeof dep_opt, "--dependency=afterany:%s", array_id);
    av[k++] = dep_opt;
    av[k++] = "--kill-on-invalid-dep=yes";
    snprintf(out_opt, sizeof out_opt, "--output=%s/merge.log", sub);
    av[k++] = out_opt;
    if (partition)
        av[k++] = part_opt;
    if (time_limit)
        av[k++] = time_opt;
    for (int i = 0; i < n_extra; i++)
        av[k++] = (char *)extra[i];
    snprintf(merge_sh, sizeof merge_sh, "%s/merge.sh", sub);
    av[k++] = merge_sh;
    av[k] = NULL;
    rc = run_capture(av, reply, sizeof reply);
    if (rc != 0 || job_id(reply, merge_id, sizeof merge_id)) {
        fprintf(stderr, "harness slurm: sbatch of the merge failed; cancelling the shards "
                "(job %s)\n", array_id);
        char *cv[] = {"scancel", array_id, NULL};
        run_capture(cv, NULL, 0);
        return DH_EXIT_INFRA;
    }
    snprintf(p, sizeof p, "%s/jobs", sub);
    snprintf(script, sizeof script, "array %s\nmerge %s\n", array_id, merge_id);
    (void)write_file(p, script, strlen(script), 0644);
    printf("harness slurm: shards: job array %s (%d task%s), merge: job %s (after the array, "
           "whatever its end)\n"
           "  follow:  squeue -j %s,%s    scontrol show job %s\n"
           "  logs:    %s/shard-<task>.log, %s/merge.log\n"
           "  results: %s/shard-K/results.xml, merged into %s/merged.xml\n",
           array_id, shards, shards == 1 ? "" : "s", merge_id, array_id, merge_id, merge_id,
           sub, sub, dir, dir);
    fflush(stdout);
    if (!wait)
        return DH_EXIT_OK;
    return wait_jobs(array_id, merge_id, shards, dir, poll_s);
}
