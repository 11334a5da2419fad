/* test_overlap.c — `run --overlap` (harness/run/overlap.h): the rule that
 * turns it on; on PoCL, a run with the next workload made in the
 * background gives the results of a run without (statuses, verification,
 * the model's figures) and the same workload cache entries byte for byte;
 * a helper whose generator fails, crashes or hangs leaves the workload to
 * the worker and the run's results unchanged; an interrupted run and a
 * killed harness leave no helper behind and no temporary file. */
#define _GNU_SOURCE
#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>

#include "testutil.h"
#include "../harness/run/overlap.h"
#include "../harness/run/plan.h"
#include "../harness/run/runner.h"
#include "../harness/run/wcache.h"
#include "../suites/lib/kit.h"

static char tmpdir[64], harness[PATH_MAX], out[1 << 16];

/* ---- the rule ---- */

static void rule(void **st)
{
    (void)st;
    char why[300];
    enum dh_overlap_mode m;
    assert_int_equal(dh_overlap_parse("yes", &m), 0);
    assert_int_equal(m, DH_OVERLAP_YES);
    assert_int_equal(dh_overlap_parse("auto", &m), 0);
    assert_int_equal(m, DH_OVERLAP_AUTO);
    assert_int_equal(dh_overlap_parse("no", &m), 0);
    assert_int_equal(m, DH_OVERLAP_NO);
    assert_int_equal(dh_overlap_parse("on", &m), -1);
    /* no: off, whatever the host */
    assert_int_equal(dh_overlap_decide(DH_OVERLAP_NO, 1, 1, 64, 0, why, sizeof why), 0);
    assert_string_equal(why, "");
    /* yes: on, even where it competes; a usage error without workers or
     * with --no-cache, off (not an error) when the cache folder failed */
    assert_int_equal(dh_overlap_decide(DH_OVERLAP_YES, 1, 1, 2, 1, why, sizeof why), 1);
    assert_int_equal(dh_overlap_decide(DH_OVERLAP_YES, 0, 1, 16, 0, why, sizeof why), -1);
    assert_non_null(strstr(why, "--isolate no"));
    assert_int_equal(dh_overlap_decide(DH_OVERLAP_YES, 1, 0, 16, 0, why, sizeof why), -1);
    assert_non_null(strstr(why, "--no-cache"));
    assert_int_equal(dh_overlap_decide(DH_OVERLAP_YES, 1, -1, 16, 0, why, sizeof why), 0);
    /* auto: 4 CPUs or more and no CPU device */
    assert_int_equal(dh_overlap_decide(DH_OVERLAP_AUTO, 1, 1, 16, 0, why, sizeof why), 1);
    assert_int_equal(dh_overlap_decide(DH_OVERLAP_AUTO, 1, 1, DH_OVERLAP_MIN_CPUS, 0, why,
                                       sizeof why), 1);
    assert_int_equal(dh_overlap_decide(DH_OVERLAP_AUTO, 1, 1, DH_OVERLAP_MIN_CPUS - 1, 0, why,
                                       sizeof why), 0);
    assert_non_null(strstr(why, "CPUs"));
    assert_int_equal(dh_overlap_decide(DH_OVERLAP_AUTO, 1, 1, 16, 1, why, sizeof why), 0);
    assert_non_null(strstr(why, "CPU device"));
    assert_int_equal(dh_overlap_decide(DH_OVERLAP_AUTO, 1, 0, 16, 0, why, sizeof why), 0);
    assert_int_equal(dh_overlap_decide(DH_OVERLAP_AUTO, 0, 1, 16, 0, why, sizeof why), 0);
    assert_true(dh_overlap_cpus() >= 1);
}

/* the command's usage errors, before any device is probed */
static void cli_usage(void **st)
{
    (void)st;
    if (access(harness, X_OK)) {
        fprintf(stderr, "  (no %s: this build has tests only)\n", harness);
        skip();
        return;
    }
    const char *bad[] = {"run", "--suite", "micro", "--overlap", "maybe", NULL};
    assert_int_equal(dh_test_harness(harness, tmpdir, bad, out, sizeof out), 64);
    assert_non_null(strstr(out, "--overlap maybe: choose yes, no or auto"));
    const char *nocache[] = {"run", "--suite", "micro", "--overlap", "yes", "--no-cache", NULL};
    assert_int_equal(dh_test_harness(harness, tmpdir, nocache, out, sizeof out), 64);
    assert_non_null(strstr(out, "leave out --no-cache"));
    const char *inproc[] = {"run", "--suite", "micro", "--overlap=yes", "--isolate", "no", NULL};
    assert_int_equal(dh_test_harness(harness, tmpdir, inproc, out, sizeof out), 64);
    assert_non_null(strstr(out, "leave out --isolate no"));
}

/* ---- runs ---- */

static int has_device(void);

/* The overlap's summary line (stderr) comes after the run's tables
 * (stdout) where both go to one file: it was written inside them, stdout
 * being buffered there */
static void summary_line_after_tables(void **st)
{
    (void)st;
    if (access(harness, X_OK) || !has_device()) {
        skip();
        return;
    }
    char dir[PATH_MAX + 8];
    snprintf(dir, sizeof dir, "%s/order", tmpdir);
    assert_int_equal(mkdir(dir, 0755), 0);
    const char *args[] = {"run", "--suite", "micro", "--bench", "branch", "--size", "small",
                          "--variant", "baseline", "--reps", "2", "--overlap", "yes",
                          "--out", dir, NULL};
    assert_int_equal(dh_test_harness(harness, dir, args, out, sizeof out), 0);
    const char *end = strstr(out, "(the cpu_tdr regroupings' modeled speedups");
    const char *line = strstr(out, "harness: overlap: ");
    assert_non_null(end);                       /* the last table's last line */
    assert_non_null(line);
    if (line < end || line[-1] != '\n')
        fail_msg("the overlap's line came inside the tables:\n%s", out);
}

/* The default is auto, quiet where it stays off: a run that did not ask
 * for the overlap says nothing of it (here: in-process, where it cannot
 * run), one that asked for auto says why it is off */
static void default_quiet(void **st)
{
    (void)st;
    if (access(harness, X_OK) || !has_device()) {
        skip();
        return;
    }
    char dir[PATH_MAX + 8], dir2[PATH_MAX + 8];     /* a log of each run's own */
    snprintf(dir, sizeof dir, "%s/quiet", tmpdir);
    snprintf(dir2, sizeof dir2, "%s/asked", tmpdir);
    assert_int_equal(mkdir(dir, 0755), 0);
    assert_int_equal(mkdir(dir2, 0755), 0);
    const char *plain[] = {"run", "--suite", "micro", "--bench", "branch", "--size", "small",
                           "--variant", "baseline", "--reps", "2", "--isolate", "no",
                           "--out", dir, NULL};
    assert_int_equal(dh_test_harness(harness, dir, plain, out, sizeof out), 0);
    if (strstr(out, "harness: overlap") || strstr(out, "--overlap"))
        fail_msg("a run that did not ask for the overlap spoke of it:\n%s", out);
    const char *asked[] = {"run", "--suite", "micro", "--bench", "branch", "--size", "small",
                           "--variant", "baseline", "--reps", "2", "--isolate", "no",
                           "--overlap", "auto", "--out", dir2, NULL};
    assert_int_equal(dh_test_harness(harness, dir2, asked, out, sizeof out), 0);
    assert_non_null(strstr(out, "--overlap auto needs worker processes"));
}

/* An OpenCL device, asked in a child: the workers are forked from this
 * process, which must not have loaded a runtime (PoCL's threads do not
 * survive fork). SKIPPED where there is none. */
static int has_device(void)
{
    static int known = -1;
    if (known < 0) {
        static struct dh_devlist devs;
        struct dh_err e = {0};
        known = !getenv("DH_TEST_NO_DEVICE") && !getenv("DH_TEST_QUICK") && !dh_devices_gather(&devs, 1, &e)
                && dh_devlist_find(&devs, "opencl", 0) != NULL;
        if (!known)
            fprintf(stderr, "  (no opencl device)\n");
    }
    return known;
}

#define need_device()       \
    do {                    \
        if (!has_device()) { \
            skip();         \
            return;         \
        }                   \
    } while (0)

/* the generator of micro/branch, failing in the helper ("dh-prep") the
 * way `fault` says; the worker's generator is the real one */
enum { FAULT_NONE, FAULT_ERROR, FAULT_CRASH, FAULT_HANG };
static int fault;
static struct dh_kit faulty_kit;
static struct dh_bench faulty_bench;
static int (*real_generate)(struct dh_khost *h, struct dh_err *err);

static int in_helper(void)
{
    char name[17] = "";
    prctl(PR_GET_NAME, name);
    return !strcmp(name, "dh-prep");
}

static int faulty_generate(struct dh_khost *h, struct dh_err *err)
{
    if (in_helper()) {
        if (fault == FAULT_ERROR)
            return dh_err_set(err, DH_E_DATA, "planted generator failure");
        if (fault == FAULT_CRASH)
            raise(SIGSEGV);
        if (fault == FAULT_HANG)
            for (;;)
                pause();
    }
    return real_generate(h, err);
}

static void use_faulty(struct dh_run *runs, int n)
{
    for (int i = 0; i < n; i++) {
        if (!faulty_bench.kit) {
            faulty_bench = *runs[i].c.bench;
            faulty_kit = *runs[i].c.bench->kit;
            real_generate = faulty_kit.generate;
            faulty_kit.generate = faulty_generate;
            faulty_bench.kit = &faulty_kit;
        }
        runs[i].c.bench = &faulty_bench;
    }
}

/* micro/branch small, baseline and cpu_tdr (key, dlt) on three workloads:
 * 6 cases. 0, or -1 (no asserts: the children of the process tests call
 * it too) */
static int plan(int model, double timeout, struct dh_run **runs, int *n)
{
    static struct dh_devlist devs;
    struct dh_err e = {0};
    if (dh_devices_gather(&devs, 1, &e))
        return -1;
    struct dh_selection sel = {.suite = "micro", .size = "small", .reps = 2, .warmup = 1,
                               .timeout_s = timeout, .device = -1, .profile = 0,
                               .variants = "baseline,cpu_tdr", .model = model};
    sel.params[sel.n_params++] = "paths=2,4,8";
    sel.params[sel.n_params++] = "layers=1";
    sel.params[sel.n_params++] = "iters=16";
    sel.params[sel.n_params++] = "regroup=key";
    sel.params[sel.n_params++] = "mech=dlt";
    if (dh_plan(&sel, &devs, runs, n, &e) || *n != 6) {
        fprintf(stderr, "plan: %s (%d cases)\n", e.msg, *n);
        return -1;
    }
    return 0;
}

static void free_runs(struct dh_run *runs, int n)
{
    for (int i = 0; i < n; i++)
        dh_result_release(&runs[i].r);
    free(runs);
}

static int cache_in(struct dh_wcache *wc, const char *name)
{
    char d[256];
    snprintf(d, sizeof d, "%s/%s", tmpdir, name);
    struct dh_err e = {0};
    if (dh_wcache_open(wc, d, 0, &e))
        return -1;
    wc->quiet = 1;
    return 0;
}

static int execute(struct dh_run *runs, int n, struct dh_wcache *wc, int overlap,
                   int (*finished)(void *, int))
{
    struct dh_runner_opts o = {.isolate = 1, .wcache = wc, .overlap = overlap,
                               .finished = finished};
    return dh_runner_execute(runs, n, &o);
}

/* the same verified results: status, verification, samples, the model */
static void same_results(const struct dh_run *a, const struct dh_run *b, int n)
{
    for (int i = 0; i < n; i++) {
        assert_int_equal(a[i].r.status, 0);
        assert_int_equal(b[i].r.status, 0);
        assert_int_equal(a[i].r.verified, 1);
        assert_int_equal(b[i].r.verified, 1);
        assert_int_equal(a[i].r.verify.mismatches, 0);
        assert_int_equal(b[i].r.verify.mismatches, 0);
        assert_int_equal(a[i].r.verify.checked, b[i].r.verify.checked);
        assert_int_equal(a[i].r.n, b[i].r.n);
        assert_int_equal(a[i].r.model.valid, b[i].r.model.valid);
        assert_true(a[i].r.model.cfe32 == b[i].r.model.cfe32);
        assert_int_equal(a[i].r.model.n_classes, b[i].r.model.n_classes);
        assert_true(a[i].r.ceiling == b[i].r.ceiling);
    }
}

/* the files of a folder: entries (*.dhw), and temporary ones counted */
struct listing {
    char name[32][64];
    int n, tmp;
};

static void list_dir(const char *dir, struct listing *l)
{
    memset(l, 0, sizeof *l);
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *de;
    while ((de = readdir(d))) {
        if (strstr(de->d_name, ".tmp."))
            l->tmp++;
        else if (strstr(de->d_name, ".dhw") && l->n < 32)
            snprintf(l->name[l->n++], 64, "%s", de->d_name);
    }
    closedir(d);
}

static char *slurp(const char *path, long *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = malloc((size_t)*len + 1);
    assert_int_equal(fread(p, 1, (size_t)*len, f), (size_t)*len);
    fclose(f);
    return p;
}

/* the same entries (keys) in a and b; the host data's with the same
 * bytes (a BBV entry keeps the time its profiling run took) */
static void same_entries(const char *a, const char *b)
{
    struct listing la, lb;
    list_dir(a, &la);
    list_dir(b, &lb);
    assert_int_equal(la.tmp, 0);
    assert_int_equal(lb.tmp, 0);
    assert_int_equal(la.n, lb.n);
    int hosts = 0;
    for (int i = 0; i < la.n; i++) {
        char pa[400], pb[400];
        snprintf(pa, sizeof pa, "%s/%s", a, la.name[i]);
        snprintf(pb, sizeof pb, "%s/%s", b, la.name[i]);
        long na, nb;
        char *x = slurp(pa, &na), *y = slurp(pb, &nb);
        assert_int_equal(na, nb);
        uint32_t kind;
        memcpy(&kind, x + 12, 4);
        if (kind == DH_WCACHE_HOST) {
            assert_memory_equal(x, y, (size_t)na);
            hosts++;
        }
        free(x);
        free(y);
    }
    assert_int_equal(hosts, 3);
}

/* the processes whose parent is `parent`, of them only those whose name
 * begins with `name` where name is not NULL */
static int children_named(pid_t parent, const char *name)
{
    DIR *d = opendir("/proc");
    assert_non_null(d);
    struct dirent *de;
    int n = 0;
    while ((de = readdir(d))) {
        char path[300], buf[512];
        snprintf(path, sizeof path, "/proc/%s/stat", de->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t got = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[got] = 0;
        char *lp = strchr(buf, '('), *rp = strrchr(buf, ')');
        int ppid = 0;
        if (lp && rp && sscanf(rp + 2, "%*c %d", &ppid) == 1 && ppid == parent
            && (!name || !strncmp(lp + 1, name, strlen(name))))
            n++;
    }
    closedir(d);
    return n;
}

/* the processes whose parent is this one (helpers, workers) */
static int children(void)
{
    return children_named(getpid(), NULL);
}

/* the overlap helpers (dh-prep) whose parent is `parent` */
static int helpers_of(pid_t parent)
{
    return children_named(parent, "dh-prep");
}

static void cache_dir(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/%s", tmpdir, name);
}

/* overlap on and off: the same results, the same entries; the helper
 * made the second and third workloads (their first cases say so) */
static void on_equals_off(void **st)
{
    (void)st;
    need_device();
    struct dh_run *on, *off;
    int n, m;
    assert_int_equal(plan(1, 120, &on, &n), 0);
    assert_int_equal(plan(1, 120, &off, &m), 0);
    struct dh_wcache wa, wb;
    assert_int_equal(cache_in(&wa, "on"), 0);
    assert_int_equal(cache_in(&wb, "off"), 0);
    assert_int_equal(execute(on, n, &wa, 1, NULL), 0);
    assert_int_equal(execute(off, m, &wb, 0, NULL), 0);
    same_results(on, off, n);
    int made = 0;
    for (int i = 0; i < n; i++) {
        assert_true(off[i].r.setup_bg_ms == 0);
        made += on[i].r.setup_bg_ms > 0;
        if (on[i].r.setup_bg_ms > 0) {        /* a workload's first case */
            assert_true(i == 2 || i == 4);
            assert_true(on[i].r.setup_bg_wall_ms > 0);
        }
    }
    assert_int_equal(made, 2);
    char a[256], b[256];
    cache_dir(a, sizeof a, "on");
    cache_dir(b, sizeof b, "off");
    same_entries(a, b);
    assert_int_equal(children(), 0);
    free_runs(on, n);
    free_runs(off, m);
}

/* a helper that fails, crashes or hangs: the worker makes the workload,
 * the results are those of a run without overlap, nothing is left */
static void failure_falls_back(void **st)
{
    (void)st;
    need_device();
    struct dh_run *ref;
    int n;
    assert_int_equal(plan(0, 120, &ref, &n), 0);
    struct dh_wcache wr;
    assert_int_equal(cache_in(&wr, "ref"), 0);
    assert_int_equal(execute(ref, n, &wr, 0, NULL), 0);
    static const int faults[] = {FAULT_ERROR, FAULT_CRASH, FAULT_HANG};
    static const char *const names[] = {"error", "crash", "hang"};
    for (int f = 0; f < 3; f++) {
        fault = faults[f];
        struct dh_run *runs;
        int m;
        /* hang: the helper is waited for as long as the case's watchdog */
        assert_int_equal(plan(0, faults[f] == FAULT_HANG ? 5 : 120, &runs, &m), 0);
        use_faulty(runs, m);
        struct dh_wcache wc;
        assert_int_equal(cache_in(&wc, names[f]), 0);
        assert_int_equal(execute(runs, m, &wc, 1, NULL), 0);
        same_results(ref, runs, n);
        for (int i = 0; i < m; i++)
            assert_true(runs[i].r.setup_bg_ms == 0);
        if (faults[f] == FAULT_HANG)        /* waited for, then stopped */
            assert_true(runs[2].r.setup_wait_ms >= 4000);
        char a[256], b[256];
        cache_dir(a, sizeof a, "ref");
        cache_dir(b, sizeof b, names[f]);
        same_entries(a, b);                  /* made by the worker instead */
        assert_int_equal(children(), 0);
        free_runs(runs, m);
    }
    fault = FAULT_NONE;
    free_runs(ref, n);
}

/* Ctrl-C while a helper hangs: the run stops, no helper or worker is
 * left, no temporary file; in a child of its own (SIGINT's mark stays
 * for the process) */
static int interrupt_after_first(void *ctx, int i)
{
    (void)ctx;
    (void)i;
    kill(getpid(), SIGINT);
    return 0;
}

static void interrupt_leaves_nothing(void **st)
{
    (void)st;
    need_device();
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dh_runner_install_sigint();
        struct dh_run *runs;
        int n;
        struct dh_wcache wc;
        if (plan(0, 120, &runs, &n) || cache_in(&wc, "interrupted"))
            _exit(9);
        fault = FAULT_HANG;
        use_faulty(runs, n);
        int rc = execute(runs, n, &wc, 1, interrupt_after_first);
        char d[256];
        cache_dir(d, sizeof d, "interrupted");
        struct listing l;
        list_dir(d, &l);
        _exit(rc != -DH_E_INTERRUPTED ? 10 : runs[0].r.status ? 11
              : runs[n - 1].r.status != DH_E_INTERRUPTED ? 12 : children() ? 13
              : l.tmp ? 14 : 0);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* the harness killed (SIGKILL) while a helper hangs: the helper goes
 * with it (PR_SET_PDEATHSIG). This process is the subreaper of the
 * harness's children, so an orphaned helper comes here to be seen (and
 * reaped), not to init. */
static void kill_leaves_nothing(void **st)
{
    (void)st;
    need_device();
    assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        struct dh_run *runs;
        int n;
        struct dh_wcache wc;
        if (plan(0, 600, &runs, &n) || cache_in(&wc, "killed"))
            _exit(9);
        fault = FAULT_HANG;
        use_faulty(runs, n);
        execute(runs, n, &wc, 1, NULL);
        _exit(0);
    }
    /* wait for its helper to start (the first case runs meanwhile) */
    int seen = 0;
    for (int k = 0; k < 600 && !seen; k++) {
        seen = helpers_of(pid);
        if (!seen)
            usleep(100000);
    }
    assert_int_equal(seen, 1);
    /* the helper hangs in its generator; the runner waits for it at the
     * second workload: kill the harness there or before */
    kill(pid, SIGKILL);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    /* its orphans (the helper; the worker, which has the same rule) come
     * here and must end within 5 s */
    int left = 1;
    for (int k = 0; k < 100; k++) {
        while (waitpid(-1, &status, WNOHANG) > 0)
            ;
        if ((left = children()) == 0)
            break;
        usleep(50000);
    }
    int stray = helpers_of(getpid());
    if (left) {                          /* no stray process after a failure either */
        DIR *d = opendir("/proc");
        struct dirent *de;
        while ((de = readdir(d))) {
            char path[300], buf[512];
            snprintf(path, sizeof path, "/proc/%s/stat", de->d_name);
            FILE *f = fopen(path, "r");
            if (!f)
                continue;
            size_t got = fread(buf, 1, sizeof buf - 1, f);
            fclose(f);
            buf[got] = 0;
            char *rp = strrchr(buf, ')');
            int ppid = 0;
            if (rp && sscanf(rp + 2, "%*c %d", &ppid) == 1 && ppid == getpid())
                kill(atoi(de->d_name), SIGKILL);
        }
        closedir(d);
        while (waitpid(-1, &status, 0) > 0)
            ;
    }
    prctl(PR_SET_CHILD_SUBREAPER, 0);
    assert_int_equal(stray, 0);
    assert_int_equal(left, 0);
}

static int setup(void **st)
{
    (void)st;
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -1;
    self[n] = 0;
    *strrchr(self, '/') = 0;                                    /* BUILD/tests */
    snprintf(harness, sizeof harness, "%s/../harness", self);
    snprintf(tmpdir, sizeof tmpdir, "/tmp/dh-test-overlap-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **st)
{
    (void)st;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(rule),
        cmocka_unit_test(cli_usage),
        cmocka_unit_test(default_quiet),
        cmocka_unit_test(summary_line_after_tables),
        cmocka_unit_test(on_equals_off),
        cmocka_unit_test(failure_falls_back),
        cmocka_unit_test(interrupt_leaves_nothing),
        cmocka_unit_test(kill_leaves_nothing),
    };
    return cmocka_run_group_tests_name("overlap", t, setup, teardown);
}
