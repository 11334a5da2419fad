/* test_install.c — `make install` as a user runs it: into a temporary
 * DESTDIR, the installed harness runs `make run`'s job (a suite, then its
 * report) from a folder outside the source tree, answers --version, has
 * a man page per command made from that command's --help, and bash
 * completion; `make uninstall` then leaves no file behind. The build is
 * not touched: the test installs what `make` built (install-files) with
 * man pages made into its own folder. Needs help2man (ci/deps.sh run):
 * SKIPPED without it. */
#include "testutil.h"

#include <dirent.h>

static char harness[PATH_MAX], ci[PATH_MAX], tmpdir[64], out[1 << 16];

static int have(const char *prog)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", prog);
    return !system(cmd);
}

/* run argv in cwd; output in out */
static int run_in(const char *cwd, const char *const *argv)
{
    char log[PATH_MAX];
    snprintf(log, sizeof log, "%s/.log", tmpdir);
    return dh_test_exec(cwd, argv, log, out, sizeof out);
}

/* files (not folders) under dir, recursively */
static int count_files(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char p[PATH_MAX];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(p, &st))
            continue;
        n += S_ISDIR(st.st_mode) ? count_files(p) : 1;
    }
    closedir(d);
    return n;
}

static void install_run_uninstall(void **st)
{
    (void)st;
    dh_test_need_full_tier("make install");
    if (!have("help2man")) {
        fprintf(stderr, "  (help2man is not installed: apt-get install help2man)\n");
        skip();
    }
    char build[PATH_MAX], man[PATH_MAX], dest[PATH_MAX], bin[PATH_MAX], away[PATH_MAX];
    snprintf(build, sizeof build, "%s", harness);
    *strrchr(build, '/') = 0;                                  /* BUILD */
    snprintf(man, sizeof man, "%s/man", tmpdir);
    snprintf(dest, sizeof dest, "%s/dest", tmpdir);
    snprintf(bin, sizeof bin, "%s/usr/local/bin/harness", dest);
    snprintf(away, sizeof away, "%s/elsewhere", tmpdir);
    assert_int_equal(mkdir(away, 0755), 0);

    /* the man pages, as `make man` makes them */
    const char *m[] = {"bash", "tools/man.sh", harness, man, NULL};
    assert_int_equal(run_in(NULL, m), 0);
    char b_arg[PATH_MAX + 8], m_arg[PATH_MAX + 8], d_arg[PATH_MAX + 8];
    snprintf(b_arg, sizeof b_arg, "BUILD=%s", build);
    snprintf(m_arg, sizeof m_arg, "MAN_DIR=%s", man);
    snprintf(d_arg, sizeof d_arg, "DESTDIR=%s", dest);
    const char *in[] = {"make", "-s", "--no-print-directory", "install-files", b_arg, m_arg,
                        d_arg, "PREFIX=/usr/local", NULL};
    if (run_in(NULL, in))
        fprintf(stderr, "%s\n", out);
    assert_int_equal(run_in(NULL, in), 0);

    /* what a user finds */
    const char *expect[] = {"usr/local/bin/harness", "usr/local/share/man/man1/harness.1",
                            "usr/local/share/man/man1/harness-run.1",
                            "usr/local/share/man/man1/harness-compare.1",
                            "usr/local/share/bash-completion/completions/harness",
                            "usr/local/share/doc/divharness/descriptor-2.xsd",
                            "usr/local/share/doc/divharness/branch_sum.xml"};
    for (size_t k = 0; k < sizeof expect / sizeof *expect; k++) {
        char p[PATH_MAX];
        snprintf(p, sizeof p, "%s/%s", dest, expect[k]);
        if (access(p, R_OK))
            fprintf(stderr, "not installed: %s\n", expect[k]);
        assert_int_equal(access(p, R_OK), 0);
    }
    /* the man page of run says what run --help says */
    char runman[PATH_MAX];
    snprintf(runman, sizeof runman, "%s/usr/local/share/man/man1/harness-run.1", dest);
    char *page = dh_test_slurp(runman, NULL);
    assert_non_null(strstr(page, "HARNESS-RUN"));
    assert_non_null(strstr(page, "save\\-tuned"));
    free(page);

    /* --version, from outside the tree */
    const char *v[] = {bin, "--version", NULL};
    assert_int_equal(run_in(away, v), 0);
    assert_non_null(strstr(out, "harness (divharness) "));
    assert_non_null(strstr(out, "backends built in: "));
    assert_non_null(strstr(out, "opencl"));

    /* make run's job with the installed binary, from another folder */
    if (dh_test_has_device("opencl")) {
        const char *r[] = {bin, "run", "--suite", "micro", "--variant", "baseline", "--param",
                           "paths=2", "--reps", "3", "--out", "runs/one", NULL};
        if (run_in(away, r))
            fprintf(stderr, "%s\n", out);
        assert_int_equal(run_in(away, r), 0);
        const char *rp[] = {bin, "report", "runs/one/results.xml", NULL};
        assert_int_equal(run_in(away, rp), 0);
        char idx[PATH_MAX];
        snprintf(idx, sizeof idx, "%s/runs/one/report/index.md", away);
        assert_int_equal(access(idx, R_OK), 0);
        const char *va[] = {bin, "validate", "runs/one/results.xml", NULL};
        assert_int_equal(run_in(away, va), 0);
    }

    /* uninstall leaves nothing */
    const char *un[] = {"make", "-s", "--no-print-directory", "uninstall", b_arg, d_arg,
                        "PREFIX=/usr/local", NULL};
    assert_int_equal(run_in(NULL, un), 0);
    int left = count_files(dest);
    if (left)
        fprintf(stderr, "%d files left after make uninstall\n", left);
    assert_int_equal(left, 0);
}

/* the completion offers the commands, run's options and the suites */
static void completion(void **st)
{
    (void)st;
    dh_test_need_full_tier("bash completion");
    if (access("/usr/share/bash-completion/bash_completion", R_OK)) {
        fprintf(stderr, "  (bash-completion is not installed)\n");
        skip();
    }
    char build[PATH_MAX], script[PATH_MAX + 1024];
    snprintf(build, sizeof build, "%s", harness);
    *strrchr(build, '/') = 0;
    /* COMP_WORDS as bash gives them after `harness ru<TAB>` and so on */
    snprintf(script, sizeof script,
             ". /usr/share/bash-completion/bash_completion; . completions/harness.bash; "
             "PATH=%s:$PATH; "
             "t() { COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); COMP_LINE=\"$*\"; "
             "COMP_POINT=${#COMP_LINE}; COMPREPLY=(); _harness; echo \"[$*] ${COMPREPLY[*]}\"; }; "
             "t harness ru; t harness run --sa; t harness run --suite fr; "
             "t harness run --bench po; t harness run --param min; t harness db st",
             build);
    const char *a[] = {"bash", "-c", script, NULL};
    assert_int_equal(run_in(NULL, a), 0);
    assert_non_null(strstr(out, "[harness ru] run"));
    assert_non_null(strstr(out, "[harness run --sa] --save-tuned"));
    assert_non_null(strstr(out, "[harness run --suite fr] frontier"));
    assert_non_null(strstr(out, "[harness run --bench po] pol"));
    assert_non_null(strstr(out, "[harness run --param min] minb="));
    assert_non_null(strstr(out, "[harness db st] steps"));
}

static int setup(void **st)
{
    (void)st;
    return dh_test_paths(harness, sizeof harness, ci, sizeof ci, tmpdir, sizeof tmpdir,
                         "/tmp/dh-test-install-XXXXXX");
}

static int teardown(void **st)
{
    (void)st;
    if (!getenv("DH_TEST_KEEP")) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
        if (system(cmd)) {
        }
    }
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(install_run_uninstall),
        cmocka_unit_test(completion),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
