/* runner.c — worker processes, watchdog, SIGINT (runner.h). */
#define _GNU_SOURCE
#include "runner.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "overlap.h"
#include "../support/fs.h"
#include "worker.h"

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

void dh_runner_install_sigint(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

int dh_runner_interrupted(void) { return interrupted; }

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Read n bytes within timeout_s. 0 ok, 1 timeout, 2 EOF/error, 3 interrupted. */
static int read_timed(int fd, void *p, size_t n, double timeout_s)
{
    char *c = p;
    double end = now_s() + timeout_s;
    while (n) {
        if (interrupted)
            return 3;
        double left = end - now_s();
        if (left <= 0)
            return 1;
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        int ms = left > 0.2 ? 200 : (int)(left * 1000) + 1;
        int pr = poll(&pf, 1, ms);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr < 0)
            return 2;
        if (pr == 0)
            continue;
        ssize_t r = read(fd, c, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return 2;
        c += r;
        n -= (size_t)r;
    }
    return 0;
}

/* ---- a result through the pipe: the struct, then its blocks ----
 * (the struct's pointers are the worker's and mean nothing here) */
struct tail {
    int n;                      /* samples per series that follow */
    uint32_t options_len, log_len;
};

static int send_result(int fd, const struct dh_result *r)
{
    struct tail t = {0};
    t.n = r->kernel_ms && r->n > 0 ? (r->n < DH_MAX_SAMPLES ? r->n : DH_MAX_SAMPLES) : 0;
    t.options_len = r->options ? (uint32_t)strnlen(r->options, DH_OPTIONS_MAX - 1) : 0;
    t.log_len = r->build_log ? (uint32_t)strnlen(r->build_log, DH_BUILD_LOG_MAX - 1) : 0;
    size_t sb = (size_t)t.n * sizeof(double);
    return dh_write_all(fd, r, sizeof *r) || dh_write_all(fd, &t, sizeof t)
        || dh_write_all(fd, r->kernel_ms, sb) || dh_write_all(fd, r->host_ms, sb)
        || dh_write_all(fd, r->xfer_ms, sb) || dh_write_all(fd, r->options, t.options_len)
        || dh_write_all(fd, r->build_log, t.log_len);
}

/* A text block of len bytes from fd into *dst. */
static int recv_text(int fd, char **dst, uint32_t len, size_t max, double timeout_s)
{
    if (!len)
        return 0;
    if (len >= max)
        return 2;
    if (!(*dst = malloc(len + 1)))
        return 2;
    (*dst)[len] = 0;
    return read_timed(fd, *dst, len, timeout_s);
}

/* Like read_timed (0, 1 timeout, 2 EOF/error, 3 interrupted); r's blocks
 * are its own afterwards (freed on failure). */
static int recv_result(int fd, struct dh_result *r, double timeout_s)
{
    int rc = read_timed(fd, r, sizeof *r, timeout_s);
    r->kernel_ms = r->host_ms = r->xfer_ms = NULL;
    r->options = r->build_log = NULL;
    r->n_room = 0;
    if (rc)
        return rc;
    struct tail t;
    if ((rc = read_timed(fd, &t, sizeof t, timeout_s)))
        return rc;
    int m = r->n > 0 ? (r->n < DH_MAX_SAMPLES ? r->n : DH_MAX_SAMPLES) : 0;
    if (t.n < 0 || t.n > m || dh_result_samples(r, m))
        return 2;
    size_t sb = (size_t)t.n * sizeof(double);
    if ((rc = read_timed(fd, r->kernel_ms, sb, timeout_s)) ||
        (rc = read_timed(fd, r->host_ms, sb, timeout_s)) ||
        (rc = read_timed(fd, r->xfer_ms, sb, timeout_s)) ||
        (rc = recv_text(fd, &r->options, t.options_len, DH_OPTIONS_MAX, timeout_s)) ||
        (rc = recv_text(fd, &r->build_log, t.log_len, DH_BUILD_LOG_MAX, timeout_s))) {
        dh_result_release(r);
        return rc;
    }
    return 0;
}

/* ---- device list ---- */
static void gather_here(struct dh_devlist *l)
{
    memset(l, 0, sizeof *l);
    for (int i = 0; i < dh_backend_count() && l->n_backends < 8; i++) {
        const struct dh_backend_ops *be = dh_backend_at(i);
        struct dh_err e = {0};
        int n = 0;
        char why[256] = "";
        if (be->probe(&n, why, sizeof why, &e))
            snprintf(why, sizeof why, "%s", e.msg);
        int bi = l->n_backends++;
        snprintf(l->b[bi].name, sizeof l->b[bi].name, "%s", be->name);
        int got = 0;
        for (int d = 0; d < n && l->n < DH_MAX_DEVICES; d++) {
            if (be->describe(d, &l->d[l->n].info, &e))
                continue;
            snprintf(l->d[l->n].backend, sizeof l->d[l->n].backend, "%s", be->name);
            l->d[l->n].index = d;
            l->n++;
            got++;
        }
        l->b[bi].n_devices = got;
        snprintf(l->b[bi].why, sizeof l->b[bi].why, "%s", got ? "" : (why[0] ? why : "no device"));
    }
}

int dh_devices_gather(struct dh_devlist *l, int isolate, struct dh_err *err)
{
    if (!isolate) {
        gather_here(l);
        return 0;
    }
    int fd[2];
    if (pipe(fd))
        return dh_err_set(err, DH_E_INTERNAL, "pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return dh_err_set(err, DH_E_INTERNAL, "fork: %s", strerror(errno));
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        close(fd[0]);
        static struct dh_devlist mine;
        gather_here(&mine);
        _exit(dh_write_all(fd[1], &mine, sizeof mine) ? 3 : 0);
    }
    close(fd[1]);
    int rc = read_timed(fd[0], l, sizeof *l, 120);
    close(fd[0]);
    if (rc)
        kill(pid, SIGKILL);
    int st = 0;
    waitpid(pid, &st, 0);
    if (rc == 3)
        return dh_err_set(err, DH_E_INTERRUPTED, "interrupted while probing devices");
    if (rc)
        return dh_err_set(err, DH_E_UNAVAILABLE,
                          "probing devices failed (%s): a runtime crashed or hung while "
                          "loading; try `harness devices --isolate=no` under a debugger",
                          rc == 1 ? "no answer in 120 s" : (WIFSIGNALED(st) ? strsignal(WTERMSIG(st)) : "no data"));
    return 0;
}

const struct dh_device_info *dh_devlist_find(const struct dh_devlist *l,
                                             const char *backend, int index)
{
    for (int i = 0; i < l->n; i++)
        if (!strcmp(l->d[i].backend, backend) && l->d[i].index == index)
            return &l->d[i].info;
    return NULL;
}

/* ---- workers ---- */
struct proc {
    pid_t pid;
    int req, resp;
    char backend[16];
    int index;
};

struct hello {
    int status;
    char msg[2048];
};

static void worker_main(const char *backend, int index, int req, int resp,
                        const char *dump_dir, struct dh_wcache *wcache)
{
    signal(SIGINT, SIG_IGN);          /* the harness decides; it kills us */
    /* a fault must end this process so the harness sees it as a crash,
     * whatever handlers the parent had installed */
    int fatal[] = {SIGTERM, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t k = 0; k < sizeof fatal / sizeof *fatal; k++)
        signal(fatal[k], SIG_DFL);
    struct dh_worker w;
    struct dh_err e = {0};
    struct hello h = {0};
    const struct dh_backend_ops *be = dh_backend_find(backend);
    int rc = be ? dh_worker_open(&w, be, index, &e)
                : dh_err_set(&e, DH_E_UNAVAILABLE, "no backend %s", backend);
    h.status = rc < 0 ? -rc : 0;
    snprintf(h.msg, sizeof h.msg, "%s", e.msg);
    if (dh_write_all(resp, &h, sizeof h) || rc)
        _exit(rc ? 3 : 4);
    w.dump_dir = dump_dir;
    w.wcache = wcache;
    static struct dh_result r;
    static struct dh_case c;
    for (;;) {
        /* one case per request: flat, bench points into this same binary */
        if (read_timed(req, &c, sizeof c, 1e9) || !c.bench)
            break;
        dh_worker_run(&w, &c, &r);
        if (send_result(resp, &r))
            break;
    }
    dh_worker_close(&w);
    _exit(0);
}

static void stop(struct proc *p, int hard)
{
    if (p->pid <= 0)
        return;
    if (!hard) {
        static struct dh_case bye;         /* bench == NULL: goodbye */
        if (dh_write_all(p->req, &bye, sizeof bye))
            hard = 1;
    }
    close(p->req);
    close(p->resp);
    if (hard)
        kill(p->pid, SIGKILL);
    int st;
    /* a worker closing its device may take a moment; then insist */
    for (int i = 0; i < 100; i++) {
        if (waitpid(p->pid, &st, WNOHANG) == p->pid)
            goto done;
        usleep(50000);
    }
    kill(p->pid, SIGKILL);
    waitpid(p->pid, &st, 0);
done:
    p->pid = 0;
}

static int start(struct proc *p, const char *backend, int index, const char *dump_dir,
                 struct dh_wcache *wcache, struct dh_err *err)
{
    int a[2], b[2];
    if (pipe(a))
        return dh_err_set(err, DH_E_INTERNAL, "pipe: %s", strerror(errno));
    if (pipe(b)) {
        close(a[0]);
        close(a[1]);
        return dh_err_set(err, DH_E_INTERNAL, "pipe: %s", strerror(errno));
    }
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0)
        return dh_err_set(err, DH_E_INTERNAL, "fork: %s", strerror(errno));
    if (pid == 0) {
        /* a worker never outlives the harness, even while a kernel hangs
         * (it reads no pipe then): killed when the parent dies */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(3);
        close(a[1]);
        close(b[0]);
        worker_main(backend, index, a[0], b[1], dump_dir, wcache);
    }
    close(a[0]);
    close(b[1]);
    p->pid = pid;
    p->req = a[1];
    p->resp = b[0];
    snprintf(p->backend, sizeof p->backend, "%s", backend);
    p->index = index;
    struct hello h;
    int rc = read_timed(p->resp, &h, sizeof h, 120);
    if (rc || h.status) {
        stop(p, 1);
        if (rc == 3)
            return dh_err_set(err, DH_E_INTERRUPTED, "interrupted");
        if (rc)
            return dh_err_set(err, DH_E_UNAVAILABLE, "%s device %d: the worker died while "
                              "opening the device", backend, index);
        return dh_err_set(err, h.status, "%s", h.msg);
    }
    return 0;
}

struct dh_session {
    struct dh_runner_opts o;
    struct proc p;
    struct dh_worker inproc;
    int inproc_open, inproc_dev;
    /* a device that could not be opened: later cases on it fail the same way */
    char dead_backend[16];
    int dead_dev, dead_code;
    char dead_msg[1024];
};

int dh_session_isolated(const struct dh_session *s)
{
    return s && s->o.isolate;
}

struct dh_session *dh_session_open(const struct dh_runner_opts *o)
{
    struct dh_session *s = calloc(1, sizeof *s);
    if (s) {
        s->o = *o;
        s->inproc_dev = -1;
        s->dead_dev = -1;
    }
    return s;
}

void dh_session_close(struct dh_session *s)
{
    if (!s)
        return;
    if (s->p.pid)
        stop(&s->p, interrupted);
    if (s->inproc_open)
        dh_worker_close(&s->inproc);
    free(s);
}

static void fail_case(struct dh_result *r, int code, const char *msg)
{
    dh_result_release(r);
    memset(r, 0, sizeof *r);
    r->status = code;
    snprintf(r->message, sizeof r->message, "%s", msg);
}

/* The case ran a pass of per-instruction counts (DH_BLOCK_COSTS=measured
 * on a backend that has them: a workload's baseline, measured_costs.c). */
static int pc_counted(const struct dh_case *c)
{
    const char *sel = getenv("DH_BLOCK_COSTS");
    const struct dh_backend_ops *be = dh_backend_find(c->backend);
    return sel && !strcmp(sel, "measured") && be && be->pc_begin && c->model &&
           !strcmp(c->variant, "baseline");
}

int dh_session_run(struct dh_session *s, const struct dh_case *c, struct dh_result *r)
{
    if (interrupted)
        return -DH_E_INTERRUPTED;
    dh_result_release(r);               /* r is filled anew */
    if (s->dead_dev == c->device && !strcmp(s->dead_backend, c->backend)) {
        fail_case(r, s->dead_code, s->dead_msg);
        return 0;
    }
    struct dh_err e = {0};
    if (!s->o.isolate) {
        if (s->inproc_open && (strcmp(s->inproc.be->name, c->backend) || s->inproc_dev != c->device)) {
            dh_worker_close(&s->inproc);
            s->inproc_open = 0;
        }
        if (!s->inproc_open) {
            const struct dh_backend_ops *be = dh_backend_find(c->backend);
            int rc = be ? dh_worker_open(&s->inproc, be, c->device, &e)
                        : dh_err_set(&e, DH_E_UNAVAILABLE, "no backend %s", c->backend);
            if (rc)
                goto dead;
            s->inproc.dump_dir = s->o.dump_dir;
            s->inproc.wcache = s->o.wcache;
            s->inproc_open = 1;
            s->inproc_dev = c->device;
        }
        dh_worker_run(&s->inproc, c, r);
        dh_result_fit(r);
        return 0;
    }
    if (s->p.pid && (strcmp(s->p.backend, c->backend) || s->p.index != c->device))
        stop(&s->p, 0);
    if (!s->p.pid) {
        int rc = start(&s->p, c->backend, c->device, s->o.dump_dir, s->o.wcache, &e);
        if (rc == -DH_E_INTERRUPTED)
            return rc;
        if (rc)
            goto dead;
    }
    if (dh_write_all(s->p.req, c, sizeof *c)) {
        stop(&s->p, 1);
        fail_case(r, DH_E_CRASH, "the worker process is gone");
        return 0;
    }
    int rc = recv_result(s->p.resp, r, c->timeout_s);
    if (rc == 1) {
        stop(&s->p, 1);
        char m[256];
        snprintf(m, sizeof m, "no result within %.0f s (watchdog): the kernel hangs or is too "
                 "slow; raise --timeout or choose a smaller --size", c->timeout_s);
        fail_case(r, DH_E_TIMEOUT, m);
    } else if (rc == 2) {
        int st = 0;
        close(s->p.req);
        close(s->p.resp);
        waitpid(s->p.pid, &st, 0);
        s->p.pid = 0;
        char m[256];
        snprintf(m, sizeof m, "the worker process died (%s) while running this case; rerun "
                 "it with --isolate=no under a debugger",
                 WIFSIGNALED(st) ? strsignal(WTERMSIG(st)) : "exited");
        fail_case(r, DH_E_CRASH, m);
    } else if (rc == 3) {
        stop(&s->p, 1);
        return -DH_E_INTERRUPTED;
    } else if (r->status == DH_E_LAUNCH) {
        /* a kernel fault can leave the context unusable (CUDA's errors
         * are sticky): the next case gets a fresh worker */
        stop(&s->p, 0);
    } else if (pc_counted(c)) {
        /* per-instruction counts work once a process (CUPTI's SASS
         * metrics on CUDA 13.0: a second pass counts nothing, and a
         * second set-up fails): the next case gets a fresh worker */
        stop(&s->p, 0);
    }
    return 0;
dead:
    snprintf(s->dead_backend, sizeof s->dead_backend, "%s", c->backend);
    s->dead_dev = c->device;
    s->dead_code = e.code ? e.code : DH_E_UNAVAILABLE;
    snprintf(s->dead_msg, sizeof s->dead_msg, "%s", e.msg);
    fail_case(r, s->dead_code, s->dead_msg);
    return 0;
}

int dh_runner_execute(struct dh_run *runs, int n, const struct dh_runner_opts *o)
{
    struct dh_session *s = dh_session_open(o);
    if (!s)
        return -DH_E_RESOURCES;
    struct dh_overlap *ov = o->overlap && o->isolate && o->wcache ? dh_overlap_open(o->wcache)
                                                                   : NULL;
    int rc = 0;
    for (int i = 0; i < n; i++) {
        struct dh_run *u = &runs[i];
        if (u->r.status == -1) {
            /* this workload's helper done, the next one's started, before
             * the case (and its tuning) go to the worker */
            double bg_ms = 0, bg_wall_ms = 0, wait_ms = 0;
            dh_overlap_step(ov, runs, n, i, &bg_ms, &bg_wall_ms, &wait_ms);
            if (o->before && (rc = o->before(o->ctx, i, s)) != 0)
                break;
            if (u->r.status == -1 && (rc = dh_session_run(s, &u->c, &u->r)) != 0)
                break;
            u->r.setup_bg_ms = bg_ms;
            u->r.setup_bg_wall_ms = bg_wall_ms;
            u->r.setup_wait_ms = wait_ms;
        }
        if (u->r.status != -1 && o->finished && o->finished(o->ctx, i))
            break;
    }
    dh_overlap_close(ov);
    dh_session_close(s);
    if (interrupted || rc == -DH_E_INTERRUPTED) {
        for (int j = 0; j < n; j++)
            if (runs[j].r.status == -1) {
                runs[j].r.status = DH_E_INTERRUPTED;
                snprintf(runs[j].r.message, sizeof runs[j].r.message, "not run: interrupted");
            }
        return -DH_E_INTERRUPTED;
    }
    return rc;
}
