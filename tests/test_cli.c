/* test_cli.c — the `harness` command as a user meets it: exit codes and
 * messages as the docs state them, numbers parsed whole, outputs only where
 * asked. Runs the built binary (beside tests/) in a private folder. */
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

static char harness[PATH_MAX], tmpdir[64], out[1 << 16];

/* Run prog (a path, or a name on PATH) with args (NULL-terminated) in
 * cwd; stdout+stderr in out. */
static int run_prog(const char *prog, const char *cwd, const char *const *args)
{
    char log[128];
    const char *argv[64];
    int n = 0;
    snprintf(log, sizeof log, "%s/.log", tmpdir);
    argv[n++] = prog;
    for (; args[n - 1] && n < 63; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    return dh_test_exec(cwd, argv, log, out, sizeof out);
}

static int run(const char *cwd, const char *const *args)
{
    return run_prog(harness, cwd, args);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* lines in a file (0 when it is missing) */
static int count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    int n = 0, ch;
    while (f && (ch = fgetc(f)) != EOF)
        n += ch == '\n';
    if (f)
        fclose(f);
    return n;
}

/* harness with args (args[0] is the binary), its output discarded, killed
 * with SIGKILL after usec */
static void kill_after(const char *const *args, useconds_t usec)
{
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        dup2(fd, 1);
        dup2(fd, 2);
        execv(harness, (char *const *)args);
        _exit(121);
    }
    usleep(usec);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

/* tmpdir/NAME.k (y = 3x) and tmpdir/NAME.xml describing it with `items`
 * and the wg values; the descriptor's path into desc */
static void write_triple(const char *name, int items, const char *wgs, char *desc, size_t len)
{
    char p[256], text[1024];
    snprintf(p, sizeof p, "%s/%s.k", tmpdir, name);
    write_text(p, "DH_KERNEL void k(DH_CONST float *x, DH_GLOBAL float *y)\n"
                  "{ int i = dh_gid(); y[i] = x[i] * 3.0f; }\n");
    snprintf(text, sizeof text,
             "<divharness-kernel version=\"2\">\n"
             "<kernel name=\"%s\" file=\"%s.k\" items=\"%d\"/>\n"
             "<buffer name=\"x\" type=\"float\" count=\"items\" role=\"in\"/>\n"
             "<buffer name=\"y\" type=\"float\" count=\"items\" role=\"out\"/>\n"
             "<entry variant=\"baseline\" name=\"k\" args=\"x y\"/>\n"
             "<reference entry=\"k\"/>\n"
             "<tunable name=\"wg\" values=\"%s\" default=\"64\"/>\n"
             "</divharness-kernel>\n", name, name, items, wgs);
    snprintf(desc, len, "%s/%s.xml", tmpdir, name);
    write_text(desc, text);
}

/* numbers are whole numbers in range: `--device abc` is a usage error, not
 * device 0 */
static void numbers(void **st)
{
    (void)st;
    const char *a[] = {"tune", "--descriptor", "x.xml", "--device", "abc", NULL};
    assert_int_equal(run(tmpdir, a), 64);
    assert_non_null(strstr(out, "--device abc: want an integer"));
    const char *b[] = {"tune", "--descriptor", "x.xml", "--reps", "5x", NULL};
    assert_int_equal(run(tmpdir, b), 64);
    const char *c[] = {"run", "--suite", "micro", "--reps", "99999999999999999999", NULL};
    assert_int_equal(run(tmpdir, c), 64);
    const char *d[] = {"rerun", "x.xml", "--case", "k", "--reps", "ten", NULL};
    assert_int_equal(run(tmpdir, d), 64);
    const char *f[] = {"emit", "--wave", "32x", NULL};
    assert_int_equal(run(tmpdir, f), 64);
    const char *g[] = {"tune-study", "x.xml", "--seeds", "-3", NULL};
    assert_int_equal(run(tmpdir, g), 64);
}

/* emit takes --bench and --variant as run does: a form that one benchmark
 * writes can be emitted (the planner's error names --bench, which emit
 * did not accept), and only the selected benchmark's builds are written */
static void emit_bench(void **st)
{
    (void)st;
    char dir[128], tsv[160];
    snprintf(dir, sizeof dir, "%s/emit", tmpdir);
    const char *a[] = {"emit", "--out", dir, "--suite", "frontier", "--bench", "gdt",
                       "--variant", "gpu_tdr", "--backend", "cuda", "--wave", "32",
                       "--size", "small", "--param", "alg=meld_key_dlt", "--ext", "cu", NULL};
    int rc = run(tmpdir, a);
    if (rc)
        fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 0);
    snprintf(tsv, sizeof tsv, "%s/builds.tsv", dir);
    assert_int_equal(count_lines(tsv), 1);
    char text[4096] = "";
    FILE *f = fopen(tsv, "r");
    assert_non_null(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    assert_non_null(strstr(text, "frontier/gdt gpu_tdr[alg=meld_key_dlt]"));
    assert_non_null(strstr(text, "TDR_ALG=27"));
    const char *b[] = {"emit", "--out", dir, "--suite", "frontier", "--bench", "nosuch", NULL};
    assert_int_equal(run(tmpdir, b), 64);
    assert_non_null(strstr(out, "nosuch"));
}

/* A descriptor whose entry never matches its reference: every
 * configuration is wrong, and tune says so with exit 1 (docs/reference/commands.md), after one
 * evaluation when the budget is one (it ran two), writing nothing under
 * ./results when --out names the folder. */
static void tune_wrong_kernel(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    char p[256], d[256];
    snprintf(p, sizeof p, "%s/off.k", tmpdir);
    write_text(p, "DH_KERNEL void off(DH_CONST float *x, DH_GLOBAL float *y)\n"
                  "{ int i = dh_gid(); y[i] = x[i] + 1.0f; }\n"
                  "DH_KERNEL void ref(DH_CONST float *x, DH_GLOBAL float *y)\n"
                  "{ int i = dh_gid(); y[i] = x[i]; }\n");
    snprintf(d, sizeof d, "%s/off.xml", tmpdir);
    write_text(d, "<divharness-kernel version=\"2\">\n"
                  "<kernel name=\"off\" file=\"off.k\" items=\"4096\"/>\n"
                  "<buffer name=\"x\" type=\"float\" count=\"items\" role=\"in\" init=\"index\"/>\n"
                  "<buffer name=\"y\" type=\"float\" count=\"items\" role=\"out\"/>\n"
                  "<entry variant=\"baseline\" name=\"off\" args=\"x y\"/>\n"
                  "<reference entry=\"ref\"/>\n"
                  "<tunable name=\"wg\" values=\"64,128,256\" default=\"256\"/>\n"
                  "</divharness-kernel>\n");
    char j[256], o[256];
    snprintf(j, sizeof j, "%s/journal.tsv", tmpdir);
    setenv("DH_JOURNAL", j, 1);
    snprintf(o, sizeof o, "%s/tuned", tmpdir);
    const char *a[] = {"tune", "--descriptor", d, "--tune-budget", "1", "--out", o, NULL};
    int rc = run(tmpdir, a);
    if (rc != 1)
        fprintf(stderr, "%s\n", out);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(out, "no configuration ran correctly"));
    /* one evaluation: one journal line */
    int lines = count_lines(j);
    assert_int_equal(lines, 1);
    snprintf(p, sizeof p, "%s/results", tmpdir);
    assert_int_not_equal(access(p, F_OK), 0);
    /* the same again: the journal answers, and says so */
    rc = run(tmpdir, a);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(out, "(journal)"));
    unsetenv("DH_JOURNAL");
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[2][1 << 20];
    static int k;
    k ^= 1;
    *len = fread(buf[k], 1, sizeof buf[k] - 1, f);
    buf[k][*len] = 0;
    fclose(f);
    return buf[k];
}

/* One harness per folder; a folder with this command's results resumes
 * (nothing finished runs again), another command's results are never
 * overwritten (a second run emptied them), --fresh starts over. */
static void out_folder(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    char o[256], x[300], lk[300];
    snprintf(o, sizeof o, "%s/out", tmpdir);
    snprintf(x, sizeof x, "%s/results.xml", o);
    snprintf(lk, sizeof lk, "%s/.harness.lock", o);
    const char *a[] = {"run", "--suite", "micro", "--variant", "baseline", "--param", "paths=2",
                       "--reps", "3", "--out", o, NULL};
    assert_int_equal(run(tmpdir, a), 0);
    size_t l1, l2;
    char *first = slurp(x, &l1);
    assert_non_null(first);
    assert_non_null(strstr(first, "status=\"ok\""));
    /* the same command: resumed, every case kept as it was measured */
    assert_int_equal(run(tmpdir, a), 0);
    assert_non_null(strstr(out, "resuming: 2 of 2 cases"));
    char *again = slurp(x, &l2);
    char *s1 = strstr(first, "<runs>"), *s2 = strstr(again, "<runs>");
    assert_true(s1 && s2);
    char *kept = strdup(again);     /* the file as the resume left it */
    /* each kept case now says the first invocation measured it; that
     * mark aside, byte for byte as it was */
    int marks = 0;
    for (char *m; (m = strstr(s2, " invocation=\"1\"")); marks++)
        memmove(m, m + 15, strlen(m + 15) + 1);
    assert_int_equal(marks, 2);
    assert_string_equal(s1, s2);
    /* another command: refused, the file untouched */
    const char *b[] = {"run", "--suite", "micro", "--variant", "melded", "--param", "paths=2",
                       "--reps", "3", "--out", o, NULL};
    assert_int_equal(run(tmpdir, b), 3);
    assert_non_null(strstr(out, "holds results of another command"));
    assert_non_null(strstr(out, "--fresh"));
    char *after = slurp(x, &l2);
    assert_true(l2 == strlen(kept));
    assert_string_equal(after, kept);
    free(kept);
    /* a folder in use: refused while another process holds it */
    int fd = open(lk, O_RDWR);
    assert_true(fd >= 0);
    assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
    assert_int_equal(run(tmpdir, a), 3);
    assert_non_null(strstr(out, "is in use by another harness"));
    close(fd);
    /* --fresh: replaced */
    const char *c[] = {"run", "--suite", "micro", "--variant", "melded", "--param", "paths=2",
                       "--reps", "3", "--out", o, "--fresh", NULL};
    assert_int_equal(run(tmpdir, c), 0);
    after = slurp(x, &l2);
    assert_non_null(strstr(after, "variant=\"melded\""));
    assert_null(strstr(after, "variant=\"baseline\""));
}

/* gpu_tdr's remap overhead through `harness run` (worker processes) and
 * `harness report`: the summary's column, the XML element, index.md's
 * cell; n/a with its reason where a benchmark has no cpu_tdr; a bad
 * --remap-overhead value is a usage error naming the choices */
static void remap_overhead_cli(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    char o[256], x[300], rep[300], md[320];
    snprintf(o, sizeof o, "%s/remap", tmpdir);
    snprintf(x, sizeof x, "%s/results.xml", o);
    snprintf(rep, sizeof rep, "%s/report", o);
    snprintf(md, sizeof md, "%s/index.md", rep);
    const char *a[] = {"run", "--suite", "micro", "--variant", "gpu_tdr", "--param", "paths=2",
                       "--param", "layers=1", "--param", "alg=hot", "--reps", "3",
                       "--no-model", "--out", o, NULL};
    assert_int_equal(run(tmpdir, a), 0);
    assert_non_null(strstr(out, "remap ovh"));
    size_t l;
    char *xml = slurp(x, &l);
    assert_non_null(xml);
    assert_non_null(strstr(xml, "<remap_overhead state=\"measured\" mech=\"dlt\" "
                                "verified=\"pass\" ratio=\""));
    assert_non_null(strstr(xml, "remap_ms=\""));
    const char *b[] = {"report", x, "--out", rep, NULL};
    assert_int_equal(run(tmpdir, b), 0);
    char *text = slurp(md, &l);
    assert_non_null(text);
    assert_non_null(strstr(text, "| remap overhead [95%] |"));
    assert_non_null(strstr(text, "(dlt) |"));
    /* no cpu_tdr: n/a and why, never a number */
    const char *c[] = {"run", "--suite", "darm", "--bench", "dct", "--variant", "gpu_tdr",
                       "--param", "bs=8", "--reps", "2", "--no-model", "--out", o, "--fresh",
                       NULL};
    assert_int_equal(run(tmpdir, c), 0);
    assert_non_null(strstr(out, "remap overhead n/a for dct: no host regrouping: dct has no "
                                "cpu_tdr ("));
    xml = slurp(x, &l);
    assert_non_null(strstr(xml, "<remap_overhead state=\"n/a\" reason=\"no host regrouping"));
    assert_null(strstr(xml, "ratio=\""));
    const char *d[] = {"run", "--suite", "micro", "--remap-overhead", "maybe", NULL};
    assert_int_equal(run(tmpdir, d), 64);
    assert_non_null(strstr(out, "--remap-overhead maybe: choose yes or no"));
}

/* a compiler error in a user's kernel names the user's file and line
 * (it named an invented suites/user/... path) */
static void user_file_named(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    char p[256], d[256];
    snprintf(p, sizeof p, "%s/mine.k", tmpdir);
    write_text(p, "DH_KERNEL void k(DH_CONST float *x, DH_GLOBAL float *y)\n"
                  "{\n"
                  "    int i = dh_gid();\n"
                  "#ifndef DH_HOST_C\n"
                  "    y[i] = x[i] + device_only_mistake;\n"
                  "#else\n"
                  "    y[i] = x[i];\n"
                  "#endif\n"
                  "}\n");
    snprintf(d, sizeof d, "%s/mine.xml", tmpdir);
    write_text(d, "<divharness-kernel version=\"2\">\n"
                  "<kernel name=\"mine\" file=\"mine.k\" items=\"1024\"/>\n"
                  "<buffer name=\"x\" type=\"float\" count=\"items\" role=\"in\"/>\n"
                  "<buffer name=\"y\" type=\"float\" count=\"items\" role=\"out\"/>\n"
                  "<entry variant=\"baseline\" name=\"k\" args=\"x y\"/>\n"
                  "<reference entry=\"k\"/>\n"
                  "<tunable name=\"wg\" values=\"64\" default=\"64\"/>\n"
                  "</divharness-kernel>\n");
    char o[256];
    snprintf(o, sizeof o, "%s/mine-out", tmpdir);
    const char *a[] = {"run", "--descriptor", "mine.xml", "--reps", "2", "--out", o, NULL};
    assert_int_equal(run(tmpdir, a), 3);
    assert_non_null(strstr(out, "mine.k:5:"));
    assert_null(strstr(out, "suites/user"));
}

/* pids of pid's children */
static int children(pid_t pid, pid_t *out, int max)
{
    char p[96];
    snprintf(p, sizeof p, "/proc/%d/task/%d/children", (int)pid, (int)pid);
    FILE *f = fopen(p, "r");
    int n = 0;
    while (f && n < max && fscanf(f, "%d", &out[n]) == 1)
        n++;
    if (f)
        fclose(f);
    return n;
}

/* 1 while pid exists and is not a zombie (it is not our child: a worker
 * whose harness died is adopted by init) */
static int running(pid_t pid)
{
    char p[64], buf[512];
    snprintf(p, sizeof p, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(p, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *paren = strrchr(buf, ')');
    return paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
}

/* Tuning a kernel that never ends: Ctrl-C exits 130 with the journal kept
 * and no "nan ms"; kill -9 of the harness takes its worker with it (it
 * ran on forever). */
static void hung_kernel(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    char p[256], d[256], j[256];
    snprintf(p, sizeof p, "%s/hang.k", tmpdir);
    write_text(p, "DH_KERNEL void k(DH_GLOBAL float *y, int n)\n"
                  "{ int i = dh_gid(); volatile int go = 1; while (go) { y[i] += 1.0f; } }\n");
    snprintf(d, sizeof d, "%s/hang.xml", tmpdir);
    write_text(d, "<divharness-kernel version=\"2\">\n"
                  "<kernel name=\"hang\" file=\"hang.k\" items=\"64\"/>\n"
                  "<buffer name=\"y\" type=\"float\" count=\"items\" role=\"out\"/>\n"
                  "<entry variant=\"baseline\" name=\"k\" args=\"y items\"/>\n"
                  "<reference on=\"device\" entry=\"k\"/>\n"
                  "<tunable name=\"wg\" values=\"64\" default=\"64\"/>\n"
                  "</divharness-kernel>\n");
    snprintf(j, sizeof j, "%s/hang-journal.tsv", tmpdir);
    for (int sig = 0; sig < 2; sig++) {
        int sigs[] = {SIGINT, SIGKILL};
        char log[128];
        snprintf(log, sizeof log, "%s/.hang.log", tmpdir);
        pid_t pid = fork();
        if (pid == 0) {
            int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd < 0 || chdir(tmpdir))
                _exit(120);
            dup2(fd, 1);
            dup2(fd, 2);
            setenv("DH_JOURNAL", j, 1);
            execl(harness, harness, "tune", "--descriptor", d, "--timeout", "60", (char *)NULL);
            _exit(121);
        }
        /* wait for the worker to be running the kernel */
        pid_t kids[8];
        int nk = 0;
        for (int t = 0; t < 200 && nk == 0; t++) {
            usleep(50000);
            nk = children(pid, kids, 8);
        }
        assert_true(nk > 0);
        sleep(2);
        nk = children(pid, kids, 8);
        assert_true(nk > 0);
        kill(pid, sigs[sig]);
        int stt = 0;
        waitpid(pid, &stt, 0);
        if (sigs[sig] == SIGINT) {
            size_t len;
            char *o = slurp(log, &len);
            assert_true(WIFEXITED(stt));
            if (WEXITSTATUS(stt) != 130)
                fprintf(stderr, "%s\n", o ? o : "");
            assert_int_equal(WEXITSTATUS(stt), 130);
            assert_null(strstr(o, "nan"));
            assert_non_null(strstr(o, "interrupted"));
        }
        /* no worker outlives the harness */
        int alive = 1;
        for (int t = 0; t < 100 && alive; t++) {
            alive = 0;
            for (int k = 0; k < nk; k++)
                alive |= running(kids[k]);
            if (alive)
                usleep(50000);
        }
        assert_false(alive);
    }
}

static int have_fiu(void)
{
    return !system("command -v fiu-run >/dev/null 2>&1");
}

/* Failing durable writes (libfiu's POSIX preload: fsync, fdatasync and
 * rename fail with EIO/ENOSPC): each write path stops with the path and
 * the reason, exit 3, and what was on disk before is untouched. */
static void write_faults(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    if (!have_fiu()) {
        fprintf(stderr, "  (libfiu's fiu-run is not installed: apt-get install fiu-utils)\n");
        skip();
        return;
    }
    char o[256], x[300];
    snprintf(o, sizeof o, "%s/faults", tmpdir);
    snprintf(x, sizeof x, "%s/results.xml", o);
    const char *a[] = {"run", "--suite", "micro", "--variant", "baseline", "--param", "paths=2",
                       "--reps", "3", "--out", o, NULL};
    assert_int_equal(run(tmpdir, a), 0);
    size_t l0, l1;
    char before[1 << 15];
    char *t = slurp(x, &l0);
    assert_true(l0 < sizeof before);
    memcpy(before, t, l0 + 1);
    /* -f "": no control fifos (by default fiu-run leaves a pair,
     * /tmp/fiu-ctrl-PID.in and .out, behind for every process) */
    const char *points[] = {"enable name=posix/io/sync/fsync,failinfo=5",
                            "enable name=posix/io/dir/rename,failinfo=28"};
    for (int k = 0; k < 2; k++) {
        const char *f[] = {"-f", "", "-x", "-c", points[k], harness, "run", "--suite", "micro",
                           "--variant", "baseline", "--param", "paths=2", "--reps", "3",
                           "--out", o, "--fresh", NULL};
        assert_int_equal(run_prog("fiu-run", tmpdir, f), 3);
        assert_non_null(strstr(out, "results.xml"));
        assert_true(strstr(out, "Input/output error") || strstr(out, "No space left"));
        t = slurp(x, &l1);
        assert_true(l0 == l1 && !memcmp(before, t, l0));       /* untouched */
    }
    /* the journal: an append that cannot reach the disk is said */
    char d[256], j[256];
    write_triple("ok", 1024, "64,128", d, sizeof d);
    snprintf(j, sizeof j, "%s/fault-journal.tsv", tmpdir);
    setenv("DH_JOURNAL", j, 1);
    char to[256];
    snprintf(to, sizeof to, "%s/tune-faults", tmpdir);
    const char *g[] = {"-f", "", "-x", "-c", "enable name=posix/io/sync/fdatasync,failinfo=28", harness,
                       "tune", "--descriptor", d, "--out", to, NULL};
    run_prog("fiu-run", tmpdir, g);
    assert_non_null(strstr(out, "cannot append to the tuning journal"));
    assert_non_null(strstr(out, "No space left"));
    unsetenv("DH_JOURNAL");
    /* a folder that cannot be made: the path and the fix */
    const char *h[] = {"run", "--suite", "micro", "--variant", "baseline", "--out",
                       "/proc/self/no/such", NULL};
    assert_int_equal(run(tmpdir, h), 3);
    assert_non_null(strstr(out, "/proc/self/no/such"));
    assert_non_null(strstr(out, "--out"));
}

/* the runs of a results file: id -> the kernel samples' text */
static int runs_of(const char *xml, char ids[][400], char samples[][4096], int max)
{
    size_t len;
    char *t = slurp(xml, &len);
    int n = 0;
    for (char *r = t ? strstr(t, "<run ") : NULL; r && n < max; r = strstr(r + 1, "<run ")) {
        char *id = strstr(r, " id=\""), *k = strstr(r, "<kernel n=");
        char *next = strstr(r + 1, "<run ");
        if (!id || (next && id > next))
            continue;
        id += 5;
        snprintf(ids[n], 400, "%.*s", (int)(strchr(id, '"') - id), id);
        samples[n][0] = 0;
        if (k && (!next || k < next)) {
            char *gt = strchr(k, '>'), *end = strstr(k, "</kernel>");
            snprintf(samples[n], 4096, "%.*s", (int)(end - gt - 1), gt + 1);
        }
        n++;
    }
    return n;
}

/* Best against best, from files: a search saves each case's best to a
 * tuned-configurations file; a run with --tuned FILE measures every case
 * at it (never the journal), names a case the file lacks, and every
 * speedup says which baseline configuration it is against. */
static void tuned_file(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    char j[300], f[300], d1[300], d2[300], d3[300], x[400];
    snprintf(j, sizeof j, "%s/tf-journal.tsv", tmpdir);
    snprintf(f, sizeof f, "%s/tuned.tsv", tmpdir);
    snprintf(d1, sizeof d1, "%s/tf1", tmpdir);
    snprintf(d2, sizeof d2, "%s/tf2", tmpdir);
    snprintf(d3, sizeof d3, "%s/tf3", tmpdir);
    size_t len;
    setenv("DH_JOURNAL", j, 1);
    const char *search[] = {"run", "--suite", "micro", "--variant", "baseline,melded",
                            "--param", "paths=2", "--param", "iters=64", "--reps", "3",
                            "--tune", "exhaustive", "--tune-budget", "2", "--save-tuned", f,
                            "--out", d1, NULL};
    assert_int_equal(run(tmpdir, search), 0);
    assert_non_null(strstr(out, "4 tuned configurations -> "));  /* 2 workloads x 2 */
    /* progress: in a log, one line per evaluation, with the best so far */
    assert_non_null(strstr(out, ": evaluation 1 of 2: "));
    assert_non_null(strstr(out, ": evaluation 2 of 2: "));
    assert_non_null(strstr(out, "; best "));
    /* the baseline is searched over its whole space whatever the budget */
    snprintf(x, sizeof x, "%s/results.xml", d1);
    char *r1 = slurp(x, &len);
    assert_non_null(r1);
    char *bt = strstr(r1, "variant=\"baseline\"");
    assert_non_null(bt);
    bt = strstr(bt, "<tuning strategy=\"exhaustive\"");
    assert_non_null(bt);
    int space = 0, evals = 0;
    assert_int_equal(sscanf(strstr(bt, "space=\"") + 7, "%d", &space), 1);
    for (char *p = strstr(bt, "<eval "); p && p < strstr(bt, "</tuning>"); p = strstr(p + 1, "<eval "))
        evals++;
    assert_true(space > 2);
    assert_int_equal(evals, space);
    /* every speedup names the baseline's configuration, tuned */
    assert_non_null(strstr(r1, "baseline_tuned=\"true\""));
    /* what it ran on: the host's load before and at the last write */
    assert_non_null(strstr(r1, "<conditions cpus=\""));
    assert_non_null(strstr(r1, "load_before=\""));
    assert_non_null(strstr(r1, "load_after=\""));
    assert_null(strstr(r1, "baseline_tuned=\"false\""));
    /* the file names each case in words beside its key */
    char *tf = slurp(f, &len);
    assert_non_null(tf);
    assert_non_null(strstr(tf, "# micro/branch/baseline/opencl/"));
    assert_non_null(strstr(tf, "--tune exhaustive, at most 2 evaluations a case"));
    /* --tuned: the file's configurations, not the journal's (emptied) */
    unlink(j);
    const char *use[] = {"run", "--suite", "micro", "--variant", "baseline,melded",
                         "--param", "paths=2,4", "--param", "iters=64", "--reps", "3",
                         "--tuned", f, "--out", d2, NULL};
    assert_int_equal(run(tmpdir, use), 0);
    assert_non_null(strstr(out, "(from "));
    /* paths=4 was never tuned: at its defaults, said, and its speedup too */
    assert_non_null(strstr(out, "UNTUNED"));
    assert_non_null(strstr(out, "(untuned)"));
    snprintf(x, sizeof x, "%s/results.xml", d2);
    char *r2 = slurp(x, &len);
    assert_non_null(strstr(r2, "<tuning strategy=\"tuned\""));
    assert_non_null(strstr(r2, "<tuning strategy=\"untuned\""));
    assert_int_equal(count_lines(j), 0);          /* the journal was not written */
    /* one or the other; --save-tuned needs a search; a missing file named */
    const char *both[] = {"run", "--suite", "micro", "--tuned", f, "--tune", "model",
                          "--out", d3, NULL};
    assert_int_equal(run(tmpdir, both), 64);
    assert_non_null(strstr(out, "choose one"));
    const char *nosearch[] = {"run", "--suite", "micro", "--save-tuned", f, "--out", d3, NULL};
    assert_int_equal(run(tmpdir, nosearch), 64);
    assert_non_null(strstr(out, "add --tune"));
    const char *missing[] = {"run", "--suite", "micro", "--tuned", "/nonexistent/t.tsv",
                             "--out", d3, NULL};
    assert_int_equal(run(tmpdir, missing), 64);
    assert_non_null(strstr(out, "--save-tuned FILE"));
    unsetenv("DH_JOURNAL");
}

/* kill -9 at random points of a run, then the same command: nothing that
 * had finished is lost or measured again, and the folder ends complete. */
static void killed_and_resumed(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    srand(20261125);
    static char ids0[64][400], s0[64][4096], ids1[64][400], s1[64][4096];
    for (int round = 0; round < 3; round++) {
        char o[256], x[300];
        snprintf(o, sizeof o, "%s/killed%d", tmpdir, round);
        snprintf(x, sizeof x, "%s/results.xml", o);
        const char *args[] = {harness, "run", "--suite", "micro", "--variant", "baseline,melded",
                              "--param", "paths=2,4", "--reps", "3", "--out", o, NULL};
        kill_after(args, 300000 + rand() % 2500000);
        int n0 = runs_of(x, ids0, s0, 64);
        assert_int_equal(run(tmpdir, args + 1), 0);
        int n1 = runs_of(x, ids1, s1, 64);
        assert_int_equal(n1, 8);                     /* 2 x 2 workloads x 2 variants */
        if (n0 > 0)
            assert_non_null(strstr(out, "resuming"));
        for (int i = 0; i < n0; i++) {              /* kept as measured */
            int found = 0;
            for (int k = 0; k < n1; k++)
                if (!strcmp(ids0[i], ids1[k])) {
                    found = 1;
                    assert_string_equal(s0[i], s1[k]);
                }
            assert_true(found);
        }
        fprintf(stderr, "  round %d: %d of 8 finished before the kill\n", round, n0);
    }
    /* the same for tune: the journal keeps every finished evaluation once */
    char d[256], j[256], to[256];
    write_triple("kt", 65536, "16,32,64,128,256,512", d, sizeof d);
    snprintf(j, sizeof j, "%s/kt-journal.tsv", tmpdir);
    setenv("DH_JOURNAL", j, 1);
    snprintf(to, sizeof to, "%s/kt-out", tmpdir);
    const char *targs[] = {harness, "tune", "--descriptor", d, "--out", to, NULL};
    kill_after(targs, 100000 + rand() % 700000);
    int before = count_lines(j);
    assert_int_equal(run(tmpdir, targs + 1), 0);
    int replayed = 0;
    for (const char *q = strstr(out, "(journal)"); q; q = strstr(q + 1, "(journal)"))
        replayed++;
    int after = count_lines(j);
    int space = 0;
    const char *sp = strstr(out, "space: ");
    assert_non_null(sp);
    assert_int_equal(sscanf(sp, "space: %d", &space), 1);
    fprintf(stderr, "  tune: %d of %d evaluations finished before the kill\n", before, space);
    assert_int_equal(replayed, before);            /* none measured again */
    assert_int_equal(after, space);                /* each once */
    unsetenv("DH_JOURNAL");
}

static int setup(void **st)
{
    (void)st;
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -1;
    self[n] = 0;
    char *slash = strrchr(self, '/');
    *slash = 0;                                    /* BUILD/tests */
    snprintf(harness, sizeof harness, "%s/../harness", self);
    snprintf(tmpdir, sizeof tmpdir, "/tmp/dh-test-cli-XXXXXX");
    return mkdtemp(tmpdir) && !access(harness, X_OK) ? 0 : -1;
}

static int teardown(void **st)
{
    (void)st;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    setenv("DH_CACHE_DIR", "/tmp/dh-test-cache", 0);
    const struct CMUnitTest t[] = {
        cmocka_unit_test(numbers),
        cmocka_unit_test(emit_bench),
        cmocka_unit_test(tune_wrong_kernel),
        cmocka_unit_test(out_folder),
        cmocka_unit_test(remap_overhead_cli),
        cmocka_unit_test(user_file_named),
        cmocka_unit_test(hung_kernel),
        cmocka_unit_test(write_faults),
        cmocka_unit_test(killed_and_resumed), cmocka_unit_test(tuned_file),
    };
    return cmocka_run_group_tests_name("cli", t, setup, teardown);
}
