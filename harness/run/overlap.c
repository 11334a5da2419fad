/* overlap.c — the next workload's host data made in a helper process
 * while the current one is timed (overlap.h). */
#define _GNU_SOURCE
#include "overlap.h"

#include <errno.h>
#include <omp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../suites/lib/kit.h"
#include "runner.h"
#include "../support/fs.h"
#include "wcache.h"
#include "worker_state.h"

int dh_overlap_parse(const char *text, enum dh_overlap_mode *mode)
{
    if (!strcmp(text, "yes"))
        *mode = DH_OVERLAP_YES;
    else if (!strcmp(text, "no"))
        *mode = DH_OVERLAP_NO;
    else if (!strcmp(text, "auto"))
        *mode = DH_OVERLAP_AUTO;
    else
        return -1;
    return 0;
}

int dh_overlap_cpus(void)
{
    cpu_set_t s;
    if (sched_getaffinity(0, sizeof s, &s))
        return (int)sysconf(_SC_NPROCESSORS_ONLN);
    return CPU_COUNT(&s);
}

int dh_overlap_decide(enum dh_overlap_mode mode, int isolate, int cache, int cpus,
                      int cpu_device, char *why, size_t len)
{
    why[0] = 0;
    if (mode == DH_OVERLAP_NO)
        return 0;
    const char *m = mode == DH_OVERLAP_YES ? "yes" : "auto";
    if (!isolate || !cache) {
        snprintf(why, len, "--overlap %s needs %s", m,
                 !isolate ? "worker processes: leave out --isolate no"
                          : "the workload cache, where the background setup leaves the "
                            "host data: leave out --no-cache");
        return mode == DH_OVERLAP_YES ? -1 : 0;
    }
    if (cache < 0) {
        snprintf(why, len, "overlap off: the workload cache is off (see above)");
        return 0;
    }
    if (mode == DH_OVERLAP_YES)
        return 1;
    if (cpus < DH_OVERLAP_MIN_CPUS) {
        snprintf(why, len, "overlap off (auto): %d CPUs, %d needed so that the background "
                 "setup does not share the timing's cores", cpus, DH_OVERLAP_MIN_CPUS);
        return 0;
    }
    if (cpu_device) {
        snprintf(why, len, "overlap off (auto): a CPU device times on the host's cores, "
                 "which the background setup would share");
        return 0;
    }
    return 1;
}

/* ---- the helper ---- */

/* what a helper tells the runner */
enum { MADE_STORED = 1, MADE_NOSTORE, MADE_SETUP_FAILED, MADE_WRITE_FAILED };
struct report {
    int status;
    double ms;                   /* setup and store: wall time */
    double cpu_ms;               /* the same, CPU time of every thread */
    int threads;                 /* OpenMP threads it had */
    char msg[512];
};

#define MAX_NOSTORE 64

struct dh_overlap {
    struct dh_wcache *wc;
    cpu_set_t all;               /* the runner's CPUs */
    int ncpu;
    /* the busy helper (pid 0: none) */
    pid_t pid;
    int fd;                      /* its report */
    int slot;                    /* the first run of its workload */
    struct dh_store_key key;
    char hex[33], label[400];
    double t0;
    /* a finished helper's figure, for its workload's first case */
    int ready;
    struct dh_store_key ready_key;
    int ready_slot;
    double ready_ms, ready_wall_ms;
    /* benchmarks whose host data the cache cannot hold */
    const struct dh_bench *nostore[MAX_NOSTORE];
    int n_nostore;
    int off;                     /* a store failed: no more helpers */
    /* the workloads a helper was started for: never a second time */
    struct dh_store_key *tried;
    int n_tried, cap_tried;
};

static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* In the child: make c's host data, store them under k, report, exit. */
static void helper_main(const struct dh_overlap *ov, const struct dh_case *c,
                        const struct dh_store_key *k, int fd, pid_t parent)
{
    /* never outlives the harness; the harness decides about SIGINT */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(3);
    prctl(PR_SET_NAME, "dh-prep");
    signal(SIGINT, SIG_IGN);
    int fatal[] = {SIGTERM, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGPIPE};
    for (size_t i = 0; i < sizeof fatal / sizeof *fatal; i++)
        signal(fatal[i], SIG_DFL);
    /* the workers' pipes and the results' files are not ours */
    for (int f = 3; f < 1024; f++)
        if (f != fd)
            close(f);
    setpriority(PRIO_PROCESS, 0, 19);
    int threads = 1;
    if (ov->ncpu >= DH_OVERLAP_MIN_CPUS) {
        /* the last quarter of the CPUs, away from where the scheduler
         * starts the runner's and the worker's threads */
        int q = ov->ncpu / 4, seen = 0;
        cpu_set_t pin;
        CPU_ZERO(&pin);
        for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
            if (CPU_ISSET(cpu, &ov->all) && seen++ >= ov->ncpu - q)
                CPU_SET(cpu, &pin);
        if (!sched_setaffinity(0, sizeof pin, &pin))
            threads = q;
    }
    omp_set_num_threads(threads);
    struct dh_wcache wc = *ov->wc;
    wc.quiet = 1;                        /* the runner says what went wrong */
    static struct dh_worker w;
    w.wcache = &wc;
    struct report rep = {0};
    struct dh_err e = {0};
    double t0 = dh_now_ms(), c0 = cpu_ms();
    void *state = NULL;
    int rc = c->bench->setup(c, &state, &e);
    if (rc) {
        rep.status = MADE_SETUP_FAILED;
        snprintf(rep.msg, sizeof rep.msg, "%s", e.msg[0] ? e.msg : dh_err_name(-rc));
    } else {
        int s = dh__wcache_host_save(&w, c, k, state);
        rep.status = s == 0 ? MADE_STORED : s > 0 ? MADE_NOSTORE : MADE_WRITE_FAILED;
    }
    rep.ms = dh_now_ms() - t0;
    rep.cpu_ms = cpu_ms() - c0;
    rep.threads = threads;
    _exit(dh_write_all(fd, &rep, sizeof rep) ? 4 : 0);
}

static int run_key(const struct dh_run *u, struct dh_store_key *k)
{
    return u->c.bench && !dh__wcache_workload_key(&u->c, k);
}

static int same_key(const struct dh_store_key *a, const struct dh_store_key *b)
{
    return !memcmp(a->b, b->b, sizeof a->b);
}

/* a benchmark whose host data the cache does not hold: found so by a
 * helper, or declared so (a kit that keeps data of its own, freed by
 * free_priv, with no restore to make them anew: gdt, pol, srad, bfs, nqu,
 * sw; wcache.c stores none of their workloads, so a helper would only
 * compete with the timing) */
static int is_nostore(const struct dh_overlap *ov, const struct dh_bench *b)
{
    if (b->kit && b->kit->free_priv && !b->kit->restore)
        return 1;
    for (int i = 0; i < ov->n_nostore; i++)
        if (ov->nostore[i] == b)
            return 1;
    return 0;
}

static int was_tried(const struct dh_overlap *ov, const struct dh_store_key *k)
{
    for (int i = 0; i < ov->n_tried; i++)
        if (same_key(&ov->tried[i], k))
            return 1;
    return 0;
}

static int in_cache(const struct dh_overlap *ov, const char *hex)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.dhw", ov->wc->store.dir, hex);
    return !access(path, F_OK);
}

/* kill and reap the busy helper; its temporary file (the store's
 * ".tmp.<key>.<pid>") goes too */
static void stop(struct dh_overlap *ov)
{
    if (!ov->pid)
        return;
    kill(ov->pid, SIGKILL);
    int st;
    while (waitpid(ov->pid, &st, 0) < 0 && errno == EINTR)
        ;
    char tmp[4300];
    snprintf(tmp, sizeof tmp, "%s/.tmp.%s.%ld", ov->wc->store.dir, ov->hex, (long)ov->pid);
    unlink(tmp);
    close(ov->fd);
    ov->pid = 0;
}

static void note(const struct dh_overlap *ov, const char *why)
{
    fprintf(stderr, "harness: overlap: %s: background setup %s; made in the foreground\n",
            ov->label, why);
}

/* The busy helper's report: 1 collected (ready set when it stored the
 * entry), 0 still busy (wait_s 0: a look only). Past wait_s, or on
 * SIGINT, the helper is stopped. */
static int collect(struct dh_overlap *ov, double wait_s, const struct dh_run *runs)
{
    double end = dh_now_ms() + wait_s * 1000;
    if (wait_s > 0)          /* on the critical path now: every CPU */
        sched_setaffinity(ov->pid, sizeof ov->all, &ov->all);
    struct report rep;
    size_t got = 0;
    for (;;) {
        struct pollfd pf = {.fd = ov->fd, .events = POLLIN};
        int pr = poll(&pf, 1, wait_s > 0 ? 200 : 0);
        if (pr < 0 && errno != EINTR)
            break;
        if (pr > 0) {
            ssize_t r = read(ov->fd, (char *)&rep + got, sizeof rep - got);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0)
                break;                          /* gone without a whole report */
            if ((got += (size_t)r) == sizeof rep)
                break;
            continue;
        }
        if (wait_s <= 0)
            return 0;
        if (dh_runner_interrupted()) {
            stop(ov);
            return 1;
        }
        if (dh_now_ms() > end) {
            char why[128];
            snprintf(why, sizeof why, "still busy after %.0f s (the case's --timeout)", wait_s);
            note(ov, why);
            stop(ov);
            return 1;
        }
    }
    int st = 0;
    while (waitpid(ov->pid, &st, 0) < 0 && errno == EINTR)
        ;
    close(ov->fd);
    pid_t pid = ov->pid;
    ov->pid = 0;
    if (got != sizeof rep) {
        char why[160];
        snprintf(why, sizeof why, "died (%s)",
                 WIFSIGNALED(st) ? strsignal(WTERMSIG(st)) : "exited without a report");
        note(ov, why);
        char tmp[4300];
        snprintf(tmp, sizeof tmp, "%s/.tmp.%s.%ld", ov->wc->store.dir, ov->hex, (long)pid);
        unlink(tmp);
        return 1;
    }
    rep.msg[sizeof rep.msg - 1] = 0;
    switch (rep.status) {
    case MADE_STORED:
        ov->ready = 1;
        ov->ready_key = ov->key;
        ov->ready_slot = ov->slot;
        /* what the worker would have spent: the helper's CPU time over
         * its threads (its wall time at nice 19 counts the waits for the
         * CPU it left to the timing) */
        ov->ready_ms = rep.cpu_ms / (rep.threads > 0 ? rep.threads : 1);
        ov->ready_wall_ms = rep.ms;
        break;
    case MADE_NOSTORE:
        if (ov->n_nostore < MAX_NOSTORE)
            ov->nostore[ov->n_nostore++] = runs[ov->slot].c.bench;
        break;
    case MADE_WRITE_FAILED:
        ov->off = 1;
        break;
    default: {
        char why[600];
        snprintf(why, sizeof why, "failed (%s)", rep.msg);
        note(ov, why);
    }
    }
    return 1;
}

static void launch(struct dh_overlap *ov, const struct dh_run *runs, int j,
                   const struct dh_store_key *k, const char *hex)
{
    int p[2];
    if (pipe(p))
        return;
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return;
    }
    if (pid == 0) {
        close(p[0]);
        helper_main(ov, &runs[j].c, k, p[1], parent);
    }
    close(p[1]);
    ov->pid = pid;
    ov->fd = p[0];
    ov->slot = j;
    ov->key = *k;
    snprintf(ov->hex, sizeof ov->hex, "%s", hex);
    char wl[300];
    dh_pset_format(&runs[j].c.params, DH_P_WORKLOAD, wl, sizeof wl);
    snprintf(ov->label, sizeof ov->label, "%s/%s %s %s", runs[j].c.suite, runs[j].c.bench_name,
             runs[j].c.size, wl[0] ? wl : "-");
    ov->t0 = dh_now_ms();
}

struct dh_overlap *dh_overlap_open(struct dh_wcache *wc)
{
    struct dh_overlap *ov = calloc(1, sizeof *ov);
    if (!ov)
        return NULL;
    ov->wc = wc;
    if (sched_getaffinity(0, sizeof ov->all, &ov->all)) {
        CPU_ZERO(&ov->all);
        for (int cpu = 0; cpu < sysconf(_SC_NPROCESSORS_ONLN) && cpu < CPU_SETSIZE; cpu++)
            CPU_SET(cpu, &ov->all);
    }
    ov->ncpu = CPU_COUNT(&ov->all);
    return ov;
}

void dh_overlap_step(struct dh_overlap *ov, const struct dh_run *runs, int n, int i,
                     double *bg_ms, double *bg_wall_ms, double *wait_ms)
{
    *bg_ms = *bg_wall_ms = *wait_ms = 0;
    if (!ov)
        return;
    struct dh_store_key ki;
    int has = run_key(&runs[i], &ki);
    if (ov->pid) {
        if (has && same_key(&ov->key, &ki)) {
            double t = dh_now_ms();
            collect(ov, runs[i].c.timeout_s, runs);
            *wait_ms = dh_now_ms() - t;
        } else if (!collect(ov, 0, runs) && ov->slot < i) {
            stop(ov);                          /* its workload was passed by */
        }
    }
    if (ov->ready && has && same_key(&ov->ready_key, &ki)) {
        *bg_ms = ov->ready_ms;
        *bg_wall_ms = ov->ready_wall_ms;
        ov->ready = 0;
    } else if (ov->ready && ov->ready_slot < i) {
        ov->ready = 0;
    }
    if (ov->off || ov->pid || ov->ready || dh_runner_interrupted())
        return;
    /* the next workload the cache can hold and does not hold yet */
    for (int j = i + 1; j < n; j++) {
        struct dh_store_key kj;
        if (runs[j].r.status != -1 || !run_key(&runs[j], &kj) || (has && same_key(&kj, &ki))
            || is_nostore(ov, runs[j].c.bench) || was_tried(ov, &kj))
            continue;
        char hex[33];
        dh_store_key_hex(&kj, hex);
        if (in_cache(ov, hex))
            continue;
        if (ov->n_tried == ov->cap_tried) {
            int cap = ov->cap_tried ? 2 * ov->cap_tried : 64;
            struct dh_store_key *t = realloc(ov->tried, (size_t)cap * sizeof *t);
            if (!t)
                return;                        /* out of memory: no helper */
            ov->tried = t;
            ov->cap_tried = cap;
        }
        ov->tried[ov->n_tried++] = kj;
        launch(ov, runs, j, &kj, hex);
        return;
    }
}

void dh_overlap_close(struct dh_overlap *ov)
{
    if (!ov)
        return;
    stop(ov);
    free(ov->tried);
    free(ov);
}
