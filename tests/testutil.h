/* testutil.h — shared helpers for the cmocka tests.
 * Tests that need an OpenCL device call dh_test_need_device(), which
 * reports the test as SKIPPED (never passed) when there is none. */
#ifndef DH_TESTUTIL_H
#define DH_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../backends/backend.h"

/* 1 when the named backend has at least one device here. */
static inline int dh_test_has_device(const char *backend)
{
    const struct dh_backend_ops *be = dh_backend_find(backend);
    int n = 0;
    char why[256] = "";
    struct dh_err e = {0};
    if (getenv("DH_TEST_NO_DEVICE")) {       /* the sanitizer pass */
        fprintf(stderr, "  (no %s device: DH_TEST_NO_DEVICE is set)\n", backend);
        return 0;
    }
    if (getenv("DH_TEST_QUICK")) {           /* make test-quick */
        fprintf(stderr, "  (quick tier: device runs are left to make test)\n");
        return 0;
    }
    if (!be || be->probe(&n, why, sizeof why, &e) || n == 0) {
        fprintf(stderr, "  (no %s device: %s)\n", backend, why);
        return 0;
    }
    return 1;
}

/* The quick tier (make test-quick, DH_TEST_QUICK set) runs no device, no
 * built harness and no ci/ script: a test that needs one is SKIPPED there,
 * from wherever in the test this is called (cmocka's skip() jumps out). */
#define dh_test_need_full_tier(what)                                            \
    do {                                                                        \
        if (getenv("DH_TEST_QUICK")) {                                          \
            fprintf(stderr, "  (quick tier: %s is left to make test)\n", what); \
            skip();                                                             \
        }                                                                       \
    } while (0)

/* Run argv (NULL-terminated, argv[0] a path or a name on PATH) in cwd
 * (NULL: here), its stdout and stderr into the file log and then into
 * out (at most out_len - 1 bytes). The exit status, 128 + the signal, or
 * 120 / 121 when the log could not be opened or the program not run. */
static inline int dh_test_exec(const char *cwd, const char *const *argv, const char *log,
                               char *out, size_t out_len)
{
    dh_test_need_full_tier("running a program");
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || (cwd && chdir(cwd)))
            _exit(120);
        dup2(fd, 1);
        dup2(fd, 2);
        execvp(argv[0], (char *const *)argv);
        _exit(121);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    FILE *f = fopen(log, "r");
    size_t len = f ? fread(out, 1, out_len - 1, f) : 0;
    out[len] = 0;
    if (f)
        fclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

#define dh_test_need_device(backend)          \
    do {                                      \
        if (!dh_test_has_device(backend)) {   \
            skip();                           \
            return;                           \
        }                                     \
    } while (0)

/* The built harness with args (NULL-terminated, after the program name):
 * stdout+stderr in out, the log in dir/.log; the exit code. */
static inline int dh_test_harness(const char *harness, const char *dir,
                                  const char *const *args, char *out, size_t out_len)
{
    char log[PATH_MAX];
    const char *argv[64];
    int n = 0;
    snprintf(log, sizeof log, "%s/.log", dir);
    argv[n++] = harness;
    for (; args[n - 1] && n < 63; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    return dh_test_exec(NULL, argv, log, out, out_len);
}

/* For a test that runs the built harness and ci/ scripts: BUILD/harness
 * beside BUILD/tests, ci/ of the source tree (the current folder under
 * make test, else BUILD/..), and a fresh folder from tmpl (mkdtemp,
 * 0755: Slurm jobs write there). 0, or -1. */
static inline int dh_test_paths(char *harness, size_t hlen, char *ci, size_t clen,
                                char *tmpdir, size_t tlen, const char *tmpl)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -1;
    self[n] = 0;
    *strrchr(self, '/') = 0;                                   /* BUILD/tests */
    snprintf(harness, hlen, "%s/../harness", self);
    if (!access("ci/slurm-up.sh", R_OK) && getcwd(ci, clen - 4))
        strcat(ci, "/ci");
    else
        snprintf(ci, clen, "%s/../../ci", self);
    snprintf(tmpdir, tlen, "%s", tmpl);
    if (!mkdtemp(tmpdir))
        return -1;
    chmod(tmpdir, 0755);
    return 0;
}

/* A file's whole text, NUL-terminated (malloc'd), its length in *len
 * (may be NULL); the test fails when it cannot be read. Paths are
 * relative to the repository root. */
static inline char *dh_test_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    b[n] = 0;
    fclose(f);
    if (len)
        *len = (size_t)n;
    return b;
}

#endif
