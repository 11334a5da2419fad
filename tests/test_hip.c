/* test_hip.c — the HIP backend (backends/hip/).
 *
 * Everywhere: probe never fails, and without the plugin (or its runtime)
 * `harness devices` names the reason and the make target. With a HIP
 * device (the NVIDIA plugin on the GPU machine): describe reads the warp
 * width and compute units from device attributes, a kernel in the dialect
 * builds with -D options, runs, is timed and gives the right answer, a
 * second build comes from the program cache, a compile error returns
 * hipRTC's log, a build for the wrong wavefront width and a warp-vote
 * form while the votes are off are refused with a clear message, an
 * unknown kernel name is a usage error, and close() leaves live handles
 * orphaned but freeable. Without a device those are SKIPPED.
 * The AMD compile check (ci/hip-amd-check.sh: every build, hipcc,
 * gfx90a + gfx1030) is `make hip-check` (SKIPPED in make test, run
 * here with DH_TEST_AMD=1) and is SKIPPED where hipcc is not installed. */
#include "testutil.h"

#include <sys/wait.h>
#include <unistd.h>

/* Built with NO_HIP=1: nothing here applies. */
#define NEED_HIP_BACKEND()                                              \
    do {                                                                \
        if (!dh_backend_find("hip")) {                                  \
            fprintf(stderr, "  (built without the HIP backend)\n");    \
            skip();                                                     \
            return;                                                     \
        }                                                               \
    } while (0)

extern const char dh_src_lib_dialect[];
extern const char dh_src_lib_tdr[];

static const char *kernel =
    "DH_KERNEL void axpb(DH_CONST float *x, DH_GLOBAL float *y, float a)\n"
    "{\n"
    "    int i = dh_gid();\n"
    "    y[i] = dh_fma(a, x[i], (float)(B_OFFSET));\n"
    "}\n"
    "#ifdef WITH_VOTES\n"
    "DH_KERNEL void votes(DH_CONST int *path, DH_GLOBAL int *src)\n"
    "{\n"
    "    DH_LOCAL int shm[DH_TDR_HOT_INTS];\n"
    "    int np;\n"
    "    src[dh_gid()] = dh_tdr_hot_warp(dh_lid(), path[dh_gid()], shm, &np);\n"
    "}\n"
    "#endif\n";

static char *source(const char *body)
{
    size_t len = strlen(dh_src_lib_dialect) + strlen(dh_src_lib_tdr) + strlen(body) + 4;
    char *s = malloc(len);
    assert_non_null(s);
    snprintf(s, len, "%s\n%s\n%s", dh_src_lib_dialect, dh_src_lib_tdr, body);
    return s;
}

/* The folder of this test binary (build/tests). */
static void self_dir(char *out, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", out, len - 1);
    assert_true(n > 0);
    out[n] = 0;
    char *slash = strrchr(out, '/');
    assert_non_null(slash);
    *slash = 0;
}

static void probe_never_fails(void **st)
{
    (void)st;
    NEED_HIP_BACKEND();
    const struct dh_backend_ops *be = dh_backend_find("hip");
    assert_non_null(be);
    assert_null(be->counters);          /* no counters on HIP: CFE from the model */
    int n = -1;
    char why[512] = "";
    struct dh_err e = {0};
    assert_int_equal(be->probe(&n, why, sizeof why, &e), 0);
    assert_true(n >= 0);
    if (n == 0) {
        fprintf(stderr, "  (hip: %s)\n", why);
        assert_true(why[0] != 0);
        struct dh_device *dev = (struct dh_device *)1;
        assert_true(be->open(0, &dev, &e) < 0);  /* refused, with the reason */
        assert_null(dev);
        assert_true(e.msg[0] != 0);
    }
}

/* No plugin where it is looked for: the reason names the make targets. */
static void missing_plugin_reason(void **st)
{
    (void)st;
    NEED_HIP_BACKEND();
    char dir[4096], cmd[8400], line[1024];
    self_dir(dir, sizeof dir);
    snprintf(cmd, sizeof cmd, "DH_HIP_PLUGIN=/nonexistent/libdh-hip.so %s/../harness devices 2>&1",
             dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    int found = 0;
    while (fgets(line, sizeof line, p))
        if (!strncmp(line, "hip ", 4)) {
            fprintf(stderr, "  %s", line);
            found = strstr(line, "absent") && strstr(line, "make hip-nvidia") &&
                    strstr(line, "make hip-amd");
        }
    assert_int_equal(pclose(p), 0);
    assert_true(found);
}

struct hipdev {
    const struct dh_backend_ops *be;
    struct dh_device *dev;
    struct dh_device_info info;
};

static int open_hip(struct hipdev *h)
{
    memset(h, 0, sizeof *h);
    if (!dh_backend_find("hip") || !dh_test_has_device("hip"))
        return 0;
    struct dh_err e = {0};
    h->be = dh_backend_find("hip");
    int rc = h->be->describe(0, &h->info, &e);
    if (!rc)
        rc = h->be->open(0, &h->dev, &e);
    if (rc)
        fprintf(stderr, "hip open: %s\n", e.msg);
    assert_int_equal(rc, 0);
    return 1;
}

static int build(struct hipdev *h, const char *body, const char *opts,
                 struct dh_program **prog, char **log, int *cached, struct dh_err *e)
{
    char *src = source(body);
    int rc = h->be->build(h->dev, src, opts, prog, log, cached, e);
    free(src);
    return rc;
}

static void describe_and_run(void **st)
{
    (void)st;
    struct hipdev h;
    if (!open_hip(&h)) {
        skip();
        return;
    }
    fprintf(stderr, "  %s | %s | %s | %s | warp %d | %d CUs | max wg %d\n", h.info.name,
            h.info.platform, h.info.arch, h.info.runtime, h.info.warp_width,
            h.info.compute_units, h.info.max_wg);
    assert_true(h.info.warp_width == 32 || h.info.warp_width == 64);
    assert_int_equal(h.info.warp_source, DH_WARP_DEVICE);
    assert_true(h.info.compute_units > 0);
    assert_int_equal(h.info.has_counters, 0);

    const int wg = 256, n = wg * 64;
    char opts[256];
    snprintf(opts, sizeof opts, "-D DH_WG=%d -D DH_WAVE=%d -D B_OFFSET=3", wg,
             h.info.warp_width);
    struct dh_program *prog = NULL;
    char *log = NULL;
    int cached = -1;
    struct dh_err e = {0};
    unsetenv("DH_NO_CACHE");
    int rc = build(&h, kernel, opts, &prog, &log, &cached, &e);
    if (rc)
        fprintf(stderr, "build: %s\n%s\n", e.msg, log ? log : "");
    free(log);
    assert_int_equal(rc, 0);

    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    for (int i = 0; i < n; i++)
        x[i] = (float)(i % 1000) * 0.5f;
    struct dh_buffer *bx, *by;
    assert_int_equal(h.be->alloc(h.dev, n * sizeof *x, &bx, &e), 0);
    assert_int_equal(h.be->alloc(h.dev, n * sizeof *y, &by, &e), 0);
    assert_int_equal(h.be->copy(bx, x, n * sizeof *x, DH_TO_DEVICE, &e), 0);
    struct dh_arg args[3] = {{.kind = DH_ARG_BUFFER, .v.buf = bx},
                             {.kind = DH_ARG_BUFFER, .v.buf = by},
                             {.kind = DH_ARG_F32, .v.f32 = 2.0f}};
    struct dh_launch l = {.kernel = "axpb", .global = (size_t)n, .local = (size_t)wg,
                          .n_args = 3, .args = args};
    double ms = -1;
    rc = h.be->launch(prog, &l, &ms, &e);
    if (rc)
        fprintf(stderr, "launch: %s\n", e.msg);
    assert_int_equal(rc, 0);
    assert_true(ms > 0 && ms < 1000);
    assert_int_equal(h.be->copy(by, y, n * sizeof *y, DH_TO_HOST, &e), 0);
    for (int i = 0; i < n; i++)
        assert_true(y[i] == 2.0f * x[i] + 3.0f);
    fprintf(stderr, "  axpb: %d items right, %.4f ms\n", n, ms);

    /* unknown kernel name */
    l.kernel = "no_such_kernel";
    assert_int_equal(h.be->launch(prog, &l, NULL, &e), -DH_E_USAGE);
    fprintf(stderr, "  unknown kernel: %s\n", e.msg);

    /* the same build again: from the cache */
    struct dh_program *again = NULL;
    assert_int_equal(build(&h, kernel, opts, &again, NULL, &cached, &e), 0);
    assert_int_equal(cached, 1);
    h.be->free_program(again);

    /* close with live handles: they are orphaned, then freed as usual */
    h.be->close(h.dev);
    assert_int_equal(h.be->copy(by, y, 4, DH_TO_HOST, &e), -DH_E_USAGE);
    l.kernel = "axpb";
    assert_int_equal(h.be->launch(prog, &l, NULL, &e), -DH_E_USAGE);
    h.be->free_buffer(bx);
    h.be->free_buffer(by);
    h.be->free_program(prog);
    free(x);
    free(y);
}

static void bad_builds(void **st)
{
    (void)st;
    struct hipdev h;
    if (!open_hip(&h)) {
        skip();
        return;
    }
    struct dh_program *prog = NULL;
    char *log = NULL;
    struct dh_err e = {0};
    char opts[256];

    /* compile error: hipRTC's log comes back */
    snprintf(opts, sizeof opts, "-D DH_WG=64 -D DH_WAVE=%d -D B_OFFSET=1", h.info.warp_width);
    int rc = build(&h, "DH_KERNEL void broken(DH_GLOBAL float *y) { y[0] = undeclared_x; }\n",
                   opts, &prog, &log, NULL, &e);
    assert_int_equal(rc, -DH_E_BUILD);
    assert_null(prog);
    assert_non_null(log);
    assert_non_null(strstr(log, "undeclared_x"));
    fprintf(stderr, "  compile error: %s\n", e.msg);
    free(log);
    log = NULL;

    /* wrong wavefront width */
    snprintf(opts, sizeof opts, "-D DH_WG=128 -D DH_WAVE=%d -D B_OFFSET=1",
             h.info.warp_width == 32 ? 64 : 32);
    rc = build(&h, kernel, opts, &prog, &log, NULL, &e);
    assert_int_equal(rc, -DH_E_CONSTRAINT);
    assert_non_null(strstr(e.msg, "DH_WAVE"));
    fprintf(stderr, "  wrong width: %s\n", e.msg);
    free(log);
    log = NULL;
    h.be->close(h.dev);

    /* warp votes switched off (the default on AMD): a warp-vote form is
     * refused as unsupported, the portable kernel still builds */
    setenv("DH_HIP_WARP_VOTES", "0", 1);
    struct dh_device *dev = NULL;
    assert_int_equal(h.be->open(0, &dev, &e), 0);
    h.dev = dev;
    snprintf(opts, sizeof opts, "-D DH_WG=128 -D DH_WAVE=%d -D B_OFFSET=1 -D WITH_VOTES",
             h.info.warp_width);
    rc = build(&h, kernel, opts, &prog, &log, NULL, &e);
    assert_int_equal(rc, -DH_E_UNSUPPORTED);
    assert_non_null(strstr(e.msg, "warp-vote"));
    fprintf(stderr, "  votes off: %s\n", e.msg);
    free(log);
    log = NULL;
    snprintf(opts, sizeof opts, "-D DH_WG=128 -D DH_WAVE=%d -D B_OFFSET=1", h.info.warp_width);
    assert_int_equal(build(&h, kernel, opts, &prog, &log, NULL, &e), 0);
    free(log);
    h.be->free_program(prog);
    h.be->close(h.dev);
    unsetenv("DH_HIP_WARP_VOTES");
}

/* Every build compiled by hipcc for AMD (ci/hip-amd-check.sh). */
static void amd_compile_check(void **st)
{
    (void)st;
    NEED_HIP_BACKEND();
    /* 669 hipcc builds, about 5 minutes on two cores: its own tier,
     * `make hip-check` (which .ci/run runs after make test) */
    if (!getenv("DH_TEST_AMD")) {
        fprintf(stderr, "  (the AMD compile check is make hip-check; DH_TEST_AMD=1 runs it here)\n");
        skip();
        return;
    }
    char dir[4096], cmd[8400];
    self_dir(dir, sizeof dir);
    snprintf(cmd, sizeof cmd, "bash ci/hip-amd-check.sh %s/.. 2>&1", dir);
    if (access("ci/hip-amd-check.sh", R_OK)) {
        fprintf(stderr, "  run from the repository root (ci/hip-amd-check.sh not found)\n");
        fail();
    }
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char line[1024];
    while (fgets(line, sizeof line, p))
        fprintf(stderr, "  %s", line);
    int status = pclose(p);
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 255;
    if (rc == 77) {
        skip();
        return;
    }
    assert_int_equal(rc, 0);
}

int main(void)
{
    setenv("DH_CACHE_DIR", "/tmp/dh-test-cache", 0);
    const struct CMUnitTest t[] = {
        cmocka_unit_test(probe_never_fails),
        cmocka_unit_test(missing_plugin_reason),
        cmocka_unit_test(describe_and_run),
        cmocka_unit_test(bad_builds),
        cmocka_unit_test(amd_compile_check),
    };
    return cmocka_run_group_tests_name("hip", t, NULL, NULL);
}
