/* test_hostile.c — planted links and special files at the names the
 * harness creates (docs/development/reliability.md, threat model): a link at a
 * results file's temporary, at a folder's lock or at a program-cache
 * temporary never lets a write reach the file it points to; a FIFO where
 * a results or JUnit file is to go is refused, never renamed over; a
 * results folder in use by another harness, or holding another command's
 * results, stops `tune` (which ignored the lock and overwrote them);
 * temporaries of dead processes are removed when a folder is claimed. */
#include <signal.h>
#include <sys/file.h>

#include "testutil.h"
#include "../backends/cache.h"
#include "../harness/support/fs.h"
#include "../results/xml.h"
#include "../suites/suite.h"

static char tmpdir[64], harness[PATH_MAX], ci[PATH_MAX];
static char out[65536];

static const char *tpath(const char *name)
{
    static char buf[8][512];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

/* a file that must not change: its text */
static void make_victim(const char *path)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("victim\n", f);
    fclose(f);
}

static void victim_intact(const char *path)
{
    size_t len = 0;
    char *t = dh_test_slurp(path, &len);
    assert_non_null(t);
    assert_string_equal(t, "victim\n");
    free(t);
}

static const char *g_iters;     /* an iters value for the run, or NULL */
static char g_key[64];          /* the last written run's key */
static const char *g_dev = "Test GPU";

/* one made-up run of micro/branch */
static int write_results(const char *path, struct dh_err *e)
{
    static struct dh_run run;
    memset(&run, 0, sizeof run);
    struct dh_case *c = &run.c;
    c->bench = dh_bench_find("micro", "branch");
    assert_non_null(c->bench);
    snprintf(c->suite, sizeof c->suite, "micro");
    snprintf(c->bench_name, sizeof c->bench_name, "branch");
    snprintf(c->variant, sizeof c->variant, "baseline");
    snprintf(c->backend, sizeof c->backend, "opencl");
    snprintf(c->device_name, sizeof c->device_name, "%s", g_dev);
    snprintf(c->size, sizeof c->size, "small");
    c->reps = 1;
    if (g_iters)
        dh_pset_put(&c->params, "iters", g_iters, atof(g_iters), DH_P_WORKLOAD);
    dh_case_identity(c);
    snprintf(g_key, sizeof g_key, "%s", c->key);
    struct dh_env env;
    char *argv[] = {"harness", "run"};
    dh_env_fill(&env, 2, argv);
    static struct dh_devlist devs;
    memset(&devs, 0, sizeof devs);
    devs.n = 1;
    snprintf(devs.d[0].backend, sizeof devs.d[0].backend, "opencl");
    snprintf(devs.d[0].info.name, sizeof devs.d[0].info.name, "%s", g_dev);
    devs.d[0].info.warp_width = 32;
    return dh_xml_write(path, &env, &devs, &run, 1, e);
}

/* a link at the results file's temporary (the name it had: PATH.tmp.PID) */
static void results_tmp_link(void **st)
{
    (void)st;
    make_victim(tpath("victim1"));
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", tpath("r1.xml"), (long)getpid());
    assert_int_equal(symlink(tpath("victim1"), tmp), 0);
    struct dh_err e = {0};
    assert_int_equal(write_results(tpath("r1.xml"), &e), 0);
    victim_intact(tpath("victim1"));
    struct stat sb;
    assert_int_equal(lstat(tpath("r1.xml"), &sb), 0);
    assert_true(S_ISREG(sb.st_mode));
}

/* a link at the program cache's temporary (KEY.bin.tmp.PID) */
static void cache_tmp_link(void **st)
{
    (void)st;
    make_victim(tpath("victim2"));
    char key[33], tmp[4400];
    dh_cache_key(key, "opencl", "dev", "drv", "kernel source", "-D X=1");
    assert_int_equal(dh_mkdir_p(dh_cache_dir()), 0);
    snprintf(tmp, sizeof tmp, "%s/%s.bin.tmp.%ld", dh_cache_dir(), key, (long)getpid());
    assert_int_equal(symlink(tpath("victim2"), tmp), 0);
    dh_cache_store(key, "binary", 6);
    victim_intact(tpath("victim2"));
    void *bin = NULL;
    size_t len = 0;
    assert_int_equal(dh_cache_load(key, &bin, &len), 0);
    assert_int_equal(len, 6);
    assert_memory_equal(bin, "binary", 6);
    free(bin);
}

/* a link where a folder's lock belongs, and a lock that is no file */
static void lock_link(void **st)
{
    (void)st;
    char why[4600];
    make_victim(tpath("victim3"));
    assert_int_equal(mkdir(tpath("out3"), 0755), 0);
    assert_int_equal(symlink(tpath("victim3"), tpath("out3/.harness.lock")), 0);
    assert_true(dh_dir_lock(tpath("out3"), why, sizeof why) < 0);
    fprintf(stderr, "  %s\n", why);
    assert_non_null(strstr(why, "symbolic link"));
    victim_intact(tpath("victim3"));
    assert_int_equal(mkdir(tpath("out4"), 0755), 0);
    assert_int_equal(mkfifo(tpath("out4/.harness.lock"), 0644), 0);
    assert_true(dh_dir_lock(tpath("out4"), why, sizeof why) < 0);
    assert_non_null(strstr(why, "not a regular file"));
    /* the folder itself: a file is no folder */
    make_victim(tpath("out5"));
    assert_true(dh_dir_lock(tpath("out5"), why, sizeof why) < 0);
    assert_non_null(strstr(why, "not a folder"));
}

/* a FIFO where the results go (merge OUT, compare --junit OUT) is refused
 * and stays a FIFO: never renamed over */
static void special_targets(void **st)
{
    (void)st;
    struct dh_err e = {0};
    assert_int_equal(mkfifo(tpath("fifo.xml"), 0644), 0);
    assert_int_not_equal(write_results(tpath("fifo.xml"), &e), 0);
    fprintf(stderr, "  %s\n", e.msg);
    assert_non_null(strstr(e.msg, "FIFO"));
    struct stat sb;
    assert_int_equal(lstat(tpath("fifo.xml"), &sb), 0);
    assert_true(S_ISFIFO(sb.st_mode));
    /* compare --junit FIFO, with two readable results files */
    assert_int_equal(write_results(tpath("a.xml"), &e), 0);
    assert_int_equal(mkfifo(tpath("junit.xml"), 0644), 0);
    const char *args[] = {"compare", tpath("a.xml"), tpath("a.xml"), "--junit",
                          tpath("junit.xml"), NULL};
    int rc = dh_test_harness(harness, tmpdir, args, out, sizeof out);
    fprintf(stderr, "%s", out);
    assert_int_equal(rc, 3);
    assert_non_null(strstr(out, "FIFO"));
    assert_int_equal(lstat(tpath("junit.xml"), &sb), 0);
    assert_true(S_ISFIFO(sb.st_mode));
}

/* tune --out: a folder in use by another harness stops it (its lock held
 * here), and another command's results there are kept */
static void tune_claims_folder(void **st)
{
    (void)st;
    char desc[PATH_MAX];
    snprintf(desc, sizeof desc, "%s/../tuning/examples/branch_sum.xml", ci);
    assert_int_equal(mkdir(tpath("busy"), 0755), 0);
    char why[4600];
    int fd = dh_dir_lock(tpath("busy"), why, sizeof why);
    assert_true(fd >= 0);
    const char *args[] = {"tune", "--descriptor", desc, "--out", tpath("busy"), NULL};
    int rc = dh_test_harness(harness, tmpdir, args, out, sizeof out);
    fprintf(stderr, "%s", out);
    assert_int_equal(rc, 3);
    assert_non_null(strstr(out, "in use by another harness"));
    assert_true(access(tpath("busy/results.xml"), F_OK) != 0);
    close(fd);
    /* another command's results */
    struct dh_err e = {0};
    assert_int_equal(mkdir(tpath("other"), 0755), 0);
    assert_int_equal(write_results(tpath("other/results.xml"), &e), 0);
    size_t before_len = 0;
    char *before = dh_test_slurp(tpath("other/results.xml"), &before_len);
    const char *args2[] = {"tune", "--descriptor", desc, "--out", tpath("other"), NULL};
    rc = dh_test_harness(harness, tmpdir, args2, out, sizeof out);
    fprintf(stderr, "%s", out);
    assert_int_equal(rc, 3);
    assert_non_null(strstr(out, "results of another command"));
    size_t after_len = 0;
    char *after = dh_test_slurp(tpath("other/results.xml"), &after_len);
    assert_int_equal(before_len, after_len);
    assert_memory_equal(before, after, before_len);
    free(before);
    free(after);
}

/* claiming a folder removes the temporaries of dead processes, and only
 * theirs */
static void stale_temporaries(void **st)
{
    (void)st;
    assert_int_equal(mkdir(tpath("stale"), 0755), 0);
    pid_t child = fork();
    if (!child)
        _exit(0);
    waitpid(child, NULL, 0);              /* a pid that is gone */
    char dead[600], live[600], keep[600];
    snprintf(dead, sizeof dead, "%s/results.xml.tmp.%ld.AbC123", tpath("stale"), (long)child);
    snprintf(live, sizeof live, "%s/results.xml.tmp.%ld", tpath("stale"), (long)getppid());
    snprintf(keep, sizeof keep, "%s/notes.txt", tpath("stale"));
    make_victim(dead);
    make_victim(live);
    make_victim(keep);
    char why[4600];
    int fd = dh_dir_lock(tpath("stale"), why, sizeof why);
    assert_true(fd >= 0);
    close(fd);
    assert_true(access(dead, F_OK) != 0);
    assert_int_equal(access(live, F_OK), 0);
    assert_int_equal(access(keep, F_OK), 0);
}

/* rerun checks a file's values against the domains, as the command line
 * is checked: iters=-5 ran under the original case's id and said "ok" */
static void rerun_checks_domains(void **st)
{
    (void)st;
    struct dh_err e = {0};
    g_iters = "-5";
    assert_int_equal(write_results(tpath("iters.xml"), &e), 0);
    g_iters = NULL;
    const char *args[] = {"rerun", tpath("iters.xml"), "--case", g_key,
                          "--out", tpath("rerun-out"), NULL};
    int rc = dh_test_harness(harness, tmpdir, args, out, sizeof out);
    fprintf(stderr, "%s", out);
    assert_int_equal(rc, 3);
    assert_non_null(strstr(out, "iters=-5 is outside its domain"));
    assert_true(access(tpath("rerun-out/results.xml"), F_OK) != 0);
}

/* a CSV cell that a spreadsheet would run as a formula is written as
 * text (a leading quote); the CSV is replaced whole or not at all */
static void csv_formula(void **st)
{
    (void)st;
    struct dh_err e = {0};
    g_dev = "=HYPERLINK(\"http://x\")";
    assert_int_equal(write_results(tpath("formula.xml"), &e), 0);
    g_dev = "Test GPU";
    const char *args[] = {"export", tpath("formula.xml"), "--csv", tpath("formula.csv"), NULL};
    int rc = dh_test_harness(harness, tmpdir, args, out, sizeof out);
    fprintf(stderr, "%s", out);
    assert_int_equal(rc, 0);
    size_t len;
    char *csv = dh_test_slurp(tpath("formula.csv"), &len);
    assert_non_null(csv);
    assert_non_null(strstr(csv, ",\"'=HYPERLINK(\"\"http://x\"\")\","));
    assert_null(strstr(csv, ",=HYPERLINK"));
    free(csv);
}

/* a resume with other settings is refused (cases measured with another
 * --warmup were kept beside this command's without a word) */
static void resume_other_settings(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    const char *a1[] = {"run", "--suite", "micro", "--variant", "baseline", "--param",
                        "paths=2", "--param", "iters=64", "--reps", "3", "--out",
                        tpath("resume"), NULL};
    int rc = dh_test_harness(harness, tmpdir, a1, out, sizeof out);
    assert_int_equal(rc, 0);
    size_t l0;
    char *before = dh_test_slurp(tpath("resume/results.xml"), &l0);
    assert_non_null(before);
    const char *a2[] = {"run", "--suite", "micro", "--variant", "baseline", "--param",
                        "paths=2", "--param", "iters=64", "--reps", "3", "--warmup", "5",
                        "--out", tpath("resume"), NULL};
    rc = dh_test_harness(harness, tmpdir, a2, out, sizeof out);
    fprintf(stderr, "%s", out);
    assert_int_equal(rc, 3);
    assert_non_null(strstr(out, "holds results of another command (made by"));
    size_t l1;
    char *after = dh_test_slurp(tpath("resume/results.xml"), &l1);
    assert_int_equal(l0, l1);
    assert_memory_equal(before, after, l0);
    free(after);
    /* the same command again resumes (every case kept); one case marked
     * interrupted is measured again. The file keeps its first start and
     * both invocations, and each case says which one measured it (a resume
     * rewrote the start, version and revision as if one command made all) */
    char *st0 = strstr(before, "<started>");
    assert_non_null(st0);
    char started[64];
    snprintf(started, sizeof started, "%.*s", (int)(strchr(st0, '/') - st0), st0);
    char *ok = strstr(before, "status=\"ok\"");
    assert_non_null(ok);
    char *cut = malloc(l0 + 16);
    snprintf(cut, l0 + 16, "%.*sstatus=\"interrupted\"%s", (int)(ok - before), before,
             ok + strlen("status=\"ok\""));
    FILE *f = fopen(tpath("resume/results.xml"), "w");
    assert_non_null(f);
    fputs(cut, f);
    fclose(f);
    free(cut);
    sleep(1);                               /* another start time */
    rc = dh_test_harness(harness, tmpdir, a1, out, sizeof out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "resuming: 1 of 2 cases"));
    size_t l2;
    char *res = dh_test_slurp(tpath("resume/results.xml"), &l2);
    assert_non_null(res);
    assert_non_null(strstr(res, started));   /* the first start stays */
    char *iv = strstr(res, "<invocations>");
    assert_non_null(iv);
    assert_non_null(strstr(iv, "<invocation n=\"1\""));
    assert_non_null(strstr(iv, "<invocation n=\"2\""));
    assert_null(strstr(iv, "<invocation n=\"3\""));
    assert_non_null(strstr(res, "invocation=\"1\""));
    assert_non_null(strstr(res, "invocation=\"2\""));
    free(res);
    free(before);
    /* read back by every reader: validate, and a third resume keeps both */
    const char *v[] = {"validate", tpath("resume/results.xml"), NULL};
    assert_int_equal(dh_test_harness(harness, tmpdir, v, out, sizeof out), 0);
    rc = dh_test_harness(harness, tmpdir, a1, out, sizeof out);
    assert_int_equal(rc, 0);
    res = dh_test_slurp(tpath("resume/results.xml"), &l2);
    assert_non_null(strstr(res, "<invocation n=\"3\""));
    assert_non_null(strstr(res, "invocation=\"2\""));    /* kept as it was */
    free(res);
}

/* usage errors named as such: an unknown backend for tune (was exit 3),
 * a --param given twice (the last one won silently) */
static void usage_named(void **st)
{
    (void)st;
    char desc[PATH_MAX];
    snprintf(desc, sizeof desc, "%s/../tuning/examples/branch_sum.xml", ci);
    const char *a[] = {"tune", "--descriptor", desc, "--backend", "openc", NULL};
    int rc = dh_test_harness(harness, tmpdir, a, out, sizeof out);
    fprintf(stderr, "%s", out);
    assert_int_equal(rc, 64);
    assert_non_null(strstr(out, "unknown backend 'openc'"));
    const char *b[] = {"run", "--suite", "micro", "--param", "paths=2", "--param", "paths=4",
                       "--out", tpath("dup"), NULL};
    rc = dh_test_harness(harness, tmpdir, b, out, sizeof out);
    fprintf(stderr, "%s", out);
    assert_int_equal(rc, 64);
    assert_non_null(strstr(out, "--param paths given twice"));
}

/* harness slurm checks the run's options before it submits anything
 * (`--suite nosuch` was submitted, exit 0): no Slurm is needed to see it */
static void slurm_checks_first(void **st)
{
    (void)st;
    const char *a[] = {"slurm", "--shards", "2", "--results", tpath("sl"), "--", "--suite",
                       "nosuch", NULL};
    int rc = dh_test_harness(harness, tmpdir, a, out, sizeof out);
    fprintf(stderr, "%s", out);
    assert_int_equal(rc, 64);
    assert_non_null(strstr(out, "unknown suite 'nosuch'"));
    assert_non_null(strstr(out, "nothing submitted"));
    assert_true(access(tpath("sl/slurm/run.args"), F_OK) != 0);
}

/* validate applies the rules every command reads a file by: a time
 * sample of INF was called valid while every other command refused it */
static void validate_same_rules(void **st)
{
    (void)st;
    char src[PATH_MAX];
    snprintf(src, sizeof src, "%s/../fuzz/corpus/report/micro-baseline.xml", ci);
    size_t len;
    char *t = dh_test_slurp(src, &len);
    assert_non_null(t);
    char *at = strstr(t, ">21.16895 ");
    assert_non_null(at);
    FILE *f = fopen(tpath("inf.xml"), "w");
    assert_non_null(f);
    fwrite(t, 1, (size_t)(at - t), f);
    fputs(">INF ", f);
    fputs(at + strlen(">21.16895 "), f);
    fclose(f);
    free(t);
    const char *a[] = {"validate", tpath("inf.xml"), NULL};
    int rc = dh_test_harness(harness, tmpdir, a, out, sizeof out);
    fprintf(stderr, "%s", out);
    assert_int_equal(rc, 3);
    assert_non_null(strstr(out, "finite"));
    const char *b[] = {"validate", src, NULL};
    assert_int_equal(dh_test_harness(harness, tmpdir, b, out, sizeof out), 0);
}

/* compare with a file that holds no runs says so (it blamed "different
 * devices") */
static void compare_empty(void **st)
{
    (void)st;
    struct dh_err e = {0};
    assert_int_equal(write_results(tpath("base.xml"), &e), 0);
    struct dh_env env;
    char *argv[] = {"harness", "run"};
    dh_env_fill(&env, 2, argv);
    static struct dh_devlist devs;
    memset(&devs, 0, sizeof devs);
    assert_int_equal(dh_xml_write(tpath("empty.xml"), &env, &devs, NULL, 0, &e), 0);
    const char *a[] = {"compare", tpath("base.xml"), tpath("empty.xml"), NULL};
    int rc = dh_test_harness(harness, tmpdir, a, out, sizeof out);
    fprintf(stderr, "%s", out);
    assert_int_equal(rc, 3);
    assert_non_null(strstr(out, "holds no runs"));
    assert_null(strstr(out, "different devices"));
}

/* a program-cache entry whose bytes changed is a miss (rebuilt), never
 * handed to the driver; `cache verify`'s check names and removes it; a
 * FIFO at an entry's name is a miss at once, never a stall */
static void cache_corrupt(void **st)
{
    (void)st;
    char key[33], path[4400];
    dh_cache_key(key, "opencl", "dev", "drv", "another source", "");
    dh_cache_store(key, "0123456789", 10);
    snprintf(path, sizeof path, "%s/%s.bin", dh_cache_dir(), key);
    void *bin = NULL;
    size_t len = 0;
    assert_int_equal(dh_cache_load(key, &bin, &len), 0);
    free(bin);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, -3, SEEK_END);
    fputc('X', f);
    fclose(f);
    assert_int_equal(dh_cache_load(key, &bin, &len), -1);
    int good = -1, bad = -1;
    char first[4400];
    assert_int_equal(dh_cache_verify(1, &good, &bad, first, sizeof first), 0);
    assert_int_equal(bad, 1);
    assert_string_equal(first, path);
    assert_true(access(path, F_OK) != 0);
    /* a FIFO where an entry belongs */
    assert_int_equal(mkfifo(path, 0644), 0);
    assert_int_equal(dh_cache_load(key, &bin, &len), -1);
    unlink(path);
}

static int setup(void **st)
{
    (void)st;
    if (dh_test_paths(harness, sizeof harness, ci, sizeof ci, tmpdir, sizeof tmpdir,
                      "/tmp/dh-test-hostile-XXXXXX"))
        return -1;
    char cache[128];
    snprintf(cache, sizeof cache, "%s/cache", tmpdir);
    setenv("DH_CACHE_DIR", cache, 1);
    unsetenv("DH_NO_CACHE");
    return 0;
}

static int teardown(void **st)
{
    (void)st;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return getenv("DH_KEEP") || system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(results_tmp_link),  cmocka_unit_test(cache_tmp_link),
        cmocka_unit_test(lock_link),         cmocka_unit_test(special_targets),
        cmocka_unit_test(tune_claims_folder), cmocka_unit_test(stale_temporaries),
        cmocka_unit_test(cache_corrupt),     cmocka_unit_test(rerun_checks_domains),
        cmocka_unit_test(csv_formula),       cmocka_unit_test(resume_other_settings),
        cmocka_unit_test(usage_named),       cmocka_unit_test(slurm_checks_first),
        cmocka_unit_test(validate_same_rules), cmocka_unit_test(compare_empty),
    };
    return cmocka_run_group_tests_name("hostile", tests, setup, teardown);
}
