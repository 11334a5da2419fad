/* test_descriptor.c — users' descriptors (suites/lib/descriptor.h) as
 * the kit runs them: a host-compiled reference without OpenCL, the tuning
 * journal's key over the whole descriptor, bad descriptors. */
#include <sys/wait.h>
#include <unistd.h>

#include "kitcase.h"
#include "testutil.h"
#include "../suites/lib/descriptor.h"
#include "../suites/lib/kit.h"
#include "../tuning/tuning.h"

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* a branch_sum descriptor at path: reference attributes `ref`, more
 * elements `tail` (after the tunables); 0, or -1 without the cwd */
static int write_branch_sum(const char *path, const char *ref, const char *tail)
{
    char cwd[1024], text[4096];
    if (!getcwd(cwd, sizeof cwd))
        return -1;
    snprintf(text, sizeof text,
             "<divharness-kernel version=\"2\">\n"
             "<kernel name=\"k\" file=\"%s/tuning/examples/branch_sum.k\" items=\"1024\"/>\n"
             "<buffer name=\"x\" type=\"float\" count=\"items\" role=\"in\"/>\n"
             "<buffer name=\"mode\" type=\"int\" count=\"items\" role=\"in\"/>\n"
             "<buffer name=\"y\" type=\"float\" count=\"items\" role=\"out\"/>\n"
             "<entry variant=\"baseline\" name=\"branch_sum\" args=\"x mode y items\"/>\n"
             "<reference entry=\"branch_sum_ref\"%s/>\n"
             "<tunable name=\"wg\" values=\"64\" default=\"64\"/>\n"
             "<tunable name=\"UNROLL\" values=\"1\" default=\"1\"/>\n"
             "%s</divharness-kernel>\n", cwd, ref, tail);
    write_text(path, text);
    return 0;
}

/* a descriptor's reference compiled for the host: no OpenCL at all */
static void host_reference(void **st)
{
    (void)st;
    const struct dh_bench *b;
    struct dh_err e = {0};
    assert_int_equal(dh_ukernel_load("tuning/examples/branch_sum.xml", NULL, &b, &e), 0);
    assert_string_equal(b->variants, "baseline,cpu_tdr,melded");
    struct dh_case c;
    kcase(&c, b, "baseline", NULL);
    void *state = NULL;
    int rc = dh_kit_setup(&c, &state, &e);
    if (rc)
        fprintf(stderr, "%s\n", e.msg);
    assert_int_equal(rc, 0);
    struct dh_khost *h = state;
    const float *x = h->data[0], *y = h->want[2];
    const int *mode = h->data[1];
    long n = h->items;
    for (long i = 0; i < n; i += 997) {          /* the plain-C rule, independently */
        float s = 0.0f;
        int m = mode[i] % 3;
        if (m == 0)
            for (int k = 0; k < 64; k++) s = s + x[(i + k) % n];
        else if (m == 1)
            for (int k = 0; k < 32; k++) s = s - x[(i + k) % n];
        else
            s = x[i] * 2.0f;
        assert_float_equal(y[i], s, 1e-6);
    }
    /* the branch keys: mode % 3, three paths */
    int *key = malloc((size_t)n * sizeof *key);
    const double *cost = NULL;
    assert_int_equal(h->kit->branch(h, 0, key, &cost), 3);
    for (long i = 0; i < n; i += 101)
        assert_int_equal(key[i], mode[i] % 3);
    assert_int_equal(h->kit->branch(h, 1, key, &cost), 0);
    free(key);
    dh_kit_release(state);
    /* the version-1 example is still read, its reference now on the host too */
    assert_int_equal(dh_ukernel_load("tuning/examples/branch_sum-v1.xml", NULL, &b, &e), 0);
    assert_string_equal(b->variants, "baseline");
    kcase(&c, b, "baseline", NULL);
    assert_int_equal(dh_kit_setup(&c, &state, &e), 0);
    dh_kit_release(state);
}

/* A machine without OpenCL (the loader finds no platform): the host
 * reference still runs; a device reference says which and how to fix it.
 * In a child process: the OpenCL loader reads OCL_ICD_VENDORS once. */
static int without_opencl(void)
{
    setenv("OCL_ICD_VENDORS", "/nonexistent-dh-test", 1);
    const struct dh_bench *b;
    struct dh_err e = {0};
    struct dh_case c;
    void *state = NULL;
    if (dh_ukernel_load("tuning/examples/branch_sum.xml", NULL, &b, &e))
        return 1;
    kcase(&c, b, "baseline", NULL);
    if (dh_kit_setup(&c, &state, &e)) {
        fprintf(stderr, "host reference without OpenCL: %s\n", e.msg);
        return 2;
    }
    dh_kit_release(state);
    if (write_branch_sum("/tmp/dh-kit-dev.xml", " on=\"device\"", ""))
        return 3;
    if (dh_ukernel_load("/tmp/dh-kit-dev.xml", NULL, &b, &e))
        return 4;
    kcase(&c, b, "baseline", NULL);
    int rc = dh_kit_setup(&c, &state, &e);
    if (rc != -DH_E_UNAVAILABLE || !strstr(e.msg, "pocl-opencl-icd") || !strstr(e.msg, "on=\"host\"")) {
        fprintf(stderr, "device reference without OpenCL: %d %s\n", rc, e.msg);
        return 5;
    }
    return 0;
}

static void no_opencl(void **st)
{
    (void)st;
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        _exit(without_opencl());
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* The tuning journal's key covers the whole descriptor: a fixed
 * descriptor is not shown the broken one's statuses (the key was the
 * kernel text and the case's name only). */
static void journal_key(void **st)
{
    (void)st;
    char keys[3][17], tail[64];
    const char *tol[] = {"1e-5", "0.5", "1e-5"};
    for (int k = 0; k < 3; k++) {
        snprintf(tail, sizeof tail, "<verify tolerance=\"%s\"/>\n", tol[k]);
        assert_int_equal(write_branch_sum("/tmp/dh-kit-key.xml", "", tail), 0);
        const struct dh_bench *b;
        struct dh_err e = {0};
        assert_int_equal(dh_ukernel_load("/tmp/dh-kit-key.xml", NULL, &b, &e), 0);
        struct dh_case c;
        kcase(&c, b, "baseline", NULL);
        dh_tune_eval_key(&c, NULL, keys[k]);
    }
    assert_string_not_equal(keys[0], keys[1]);     /* another tolerance, another key */
    assert_string_equal(keys[0], keys[2]);         /* the same descriptor, the same key */
    unlink("/tmp/dh-kit-key.xml");
}

/* each class of bad descriptor: a clear message and the right code */
static void bad_descriptors(void **st)
{
    (void)st;
    const struct dh_bench *b;
    struct dh_err e = {0};
    assert_int_equal(dh_ukernel_load("/tmp/dh-no-such.xml", NULL, &b, &e), -DH_E_IO);
    assert_non_null(strstr(e.msg, "cannot read descriptor"));
    static const struct { const char *buf, *entry, *want; } cases[] = {
        /* a bad expression */
        {"<buffer name=\"y\" type=\"float\" count=\"n +\" role=\"out\"/>", "y", "count"},
        /* zero and enormous counts */
        {"<buffer name=\"y\" type=\"float\" count=\"n - n\" role=\"out\"/>", "y", "must be 1"},
        {"<buffer name=\"y\" type=\"float\" count=\"n * 1000000000000\" role=\"out\"/>", "y",
         "must be 1"},
        {"<buffer name=\"y\" type=\"float\" count=\"9223372036854775807 * 2\" role=\"out\"/>", "y",
         "overflow"},
        /* an unknown buffer in the arguments */
        {"<buffer name=\"y\" type=\"float\" count=\"n\" role=\"out\"/>", "nosuch", "nosuch"},
        /* a seed past 32 bits was clamped, a negative tolerance meant
         * exact, a second <tunable> won: each without a word */
        {"<buffer name=\"y\" type=\"float\" count=\"n\" role=\"out\" seed=\"99999999999\"/>",
         "y", "0..4294967295"},
        {"<buffer name=\"y\" type=\"float\" count=\"n\" role=\"out\" tolerance=\"-1\"/>", "y",
         "0 or more"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char text[2048];
        snprintf(text, sizeof text,
                 "<divharness-kernel version=\"2\">\n"
                 "<kernel name=\"k\" file=\"k.k\" items=\"n\"/>\n"
                 "<size name=\"small\" set=\"n=1024\"/>\n%s\n"
                 "<entry variant=\"baseline\" name=\"k\" args=\"%s\"/>\n"
                 "<reference entry=\"k\"/>\n"
                 "<tunable name=\"wg\" values=\"64\" default=\"64\"/>\n"
                 "</divharness-kernel>\n", cases[k].buf, cases[k].entry);
        write_text("/tmp/dh-kit-bad.xml", text);
        memset(&e, 0, sizeof e);
        assert_int_equal(dh_ukernel_load("/tmp/dh-kit-bad.xml", NULL, &b, &e), -DH_E_DATA);
        if (!strstr(e.msg, cases[k].want))
            fprintf(stderr, "case %zu: %s\n", k, e.msg);
        assert_non_null(strstr(e.msg, cases[k].want));
    }
    /* a second <tunable> of one name won without a word */
    write_text("/tmp/dh-kit-bad.xml",
               "<divharness-kernel version=\"2\"><kernel name=\"k\" file=\"k.k\" items=\"64\"/>\n"
               "<buffer name=\"y\" type=\"float\" count=\"64\" role=\"out\"/>\n"
               "<entry variant=\"baseline\" name=\"k\" args=\"y\"/><reference entry=\"k\"/>\n"
               "<tunable name=\"wg\" values=\"64\" default=\"64\"/>\n"
               "<tunable name=\"wg\" values=\"32\" default=\"32\"/></divharness-kernel>\n");
    memset(&e, 0, sizeof e);
    assert_int_equal(dh_ukernel_load("/tmp/dh-kit-bad.xml", NULL, &b, &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, "a second <tunable name=\"wg\">"));
    /* a code-generation knob is every kernel's: not declared again, and
     * the kernel has it without declaring it */
    write_text("/tmp/dh-kit-bad.xml",
               "<divharness-kernel version=\"2\"><kernel name=\"k\" file=\"k.k\" items=\"64\"/>\n"
               "<buffer name=\"y\" type=\"float\" count=\"64\" role=\"out\"/>\n"
               "<entry variant=\"baseline\" name=\"k\" args=\"y\"/><reference entry=\"k\"/>\n"
               "<tunable name=\"wg\" values=\"64\" default=\"64\"/>\n"
               "<tunable name=\"minb\" values=\"0,2\" default=\"0\"/></divharness-kernel>\n");
    memset(&e, 0, sizeof e);
    assert_int_equal(dh_ukernel_load("/tmp/dh-kit-bad.xml", NULL, &b, &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, "code-generation knob"));
    memset(&e, 0, sizeof e);
    assert_int_equal(dh_ukernel_load("tuning/examples/branch_sum.xml", NULL, &b, &e), 0);
    const struct dh_param_def *mb = dh_param_find(b->params, "minb");
    assert_non_null(mb);
    assert_null(mb->variants);
    /* version 1's <verify tolerance="-1"> meant exact without a word */
    {
        size_t vl;
        char *v1 = dh_test_slurp("tuning/examples/branch_sum-v1.xml", &vl);
        assert_non_null(v1);
        char *at = strstr(v1, "tolerance=\"1e-5\"");
        assert_non_null(at);
        char text[8192];
        snprintf(text, sizeof text, "%.*stolerance=\"-1\"%s", (int)(at - v1), v1,
                 at + strlen("tolerance=\"1e-5\""));
        free(v1);
        write_text("tuning/examples/.dh-test-v1-bad.xml", text);
        memset(&e, 0, sizeof e);
        int vr = dh_ukernel_load("tuning/examples/.dh-test-v1-bad.xml", NULL, &b, &e);
        unlink("tuning/examples/.dh-test-v1-bad.xml");
        assert_int_equal(vr, -DH_E_DATA);
        assert_non_null(strstr(e.msg, "0 or more"));
    }
    /* a wrong version */
    write_text("/tmp/dh-kit-bad.xml", "<divharness-kernel version=\"3\"/>\n");
    assert_int_equal(dh_ukernel_load("/tmp/dh-kit-bad.xml", NULL, &b, &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, "version 1 or 2"));
    /* a wg of 0 */
    write_text("/tmp/dh-kit-bad.xml",
               "<divharness-kernel version=\"2\"><kernel name=\"k\" file=\"k.k\" items=\"64\"/>\n"
               "<buffer name=\"y\" type=\"float\" count=\"64\" role=\"out\"/>\n"
               "<entry variant=\"baseline\" name=\"k\" args=\"y\"/><reference entry=\"k\"/>\n"
               "<tunable name=\"wg\" values=\"0,64\" default=\"64\"/></divharness-kernel>\n");
    assert_int_equal(dh_ukernel_load("/tmp/dh-kit-bad.xml", NULL, &b, &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, "at least 1"));
    /* a reference that does not compile on the host names the compiler's complaint */
    write_text("/tmp/dh-kit-k.k", "DH_KERNEL void k(DH_GLOBAL float *y) { y[dh_gid()] = nosuch; }\n");
    write_text("/tmp/dh-kit-bad.xml",
               "<divharness-kernel version=\"2\"><kernel name=\"k\" file=\"dh-kit-k.k\" items=\"64\"/>\n"
               "<buffer name=\"y\" type=\"float\" count=\"64\" role=\"out\"/>\n"
               "<entry variant=\"baseline\" name=\"k\" args=\"y\"/><reference entry=\"k\"/>\n"
               "<tunable name=\"wg\" values=\"64\" default=\"64\"/></divharness-kernel>\n");
    assert_int_equal(dh_ukernel_load("/tmp/dh-kit-bad.xml", NULL, &b, &e), 0);
    struct dh_case c;
    kcase(&c, b, "baseline", NULL);
    void *state = NULL;
    assert_int_equal(dh_kit_setup(&c, &state, &e), -DH_E_BUILD);
    assert_non_null(strstr(e.msg, "nosuch"));
    /* a reference with a barrier: refused with the fix */
    write_text("/tmp/dh-kit-k.k", "DH_KERNEL void k(DH_GLOBAL float *y) { dh_barrier(); y[dh_gid()] = 1.0f; }\n");
    assert_int_equal(dh_ukernel_load("/tmp/dh-kit-bad.xml", NULL, &b, &e), 0);
    kcase(&c, b, "baseline", NULL);
    assert_int_equal(dh_kit_setup(&c, &state, &e), -DH_E_BUILD);
    assert_non_null(strstr(e.msg, "barriers"));
}

/* <kernel remaps="...">: the remap rounds the tuning model prices, an
 * expression checked at every size when the descriptor loads */
static void remaps(void **st)
{
    (void)st;
    const struct dh_bench *b;
    struct dh_err e = {0};
    write_text("/tmp/dh-kit-r.k", "DH_KERNEL void k(DH_GLOBAL float *y) { y[dh_gid()] = 1.0f; }\n");
    static const struct { const char *remaps; long want; const char *err; } cases[] = {
        {"", 1, NULL},                          /* not given: 1 */
        {" remaps=\"3 * n / 64\"", 3 * 1024 / 64, NULL},
        {" remaps=\"wg / 32\"", 2, NULL},      /* a tunable, at its default */
        {" remaps=\"n - n\"", 0, "at least 1"},
        {" remaps=\"nosuch + 1\"", 0, "nosuch"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char text[2048];
        snprintf(text, sizeof text,
                 "<divharness-kernel version=\"2\">\n"
                 "<kernel name=\"k\" file=\"dh-kit-r.k\" items=\"n\"%s/>\n"
                 "<size name=\"small\" set=\"n=1024\"/>\n"
                 "<buffer name=\"y\" type=\"float\" count=\"n\" role=\"out\"/>\n"
                 "<entry variant=\"baseline\" name=\"k\" args=\"y\"/>\n"
                 "<reference entry=\"k\"/>\n"
                 "<tunable name=\"wg\" values=\"64\" default=\"64\"/>\n"
                 "</divharness-kernel>\n", cases[k].remaps);
        write_text("/tmp/dh-kit-r.xml", text);
        memset(&e, 0, sizeof e);
        int rc = dh_ukernel_load("/tmp/dh-kit-r.xml", NULL, &b, &e);
        if (cases[k].err) {
            if (rc != -DH_E_DATA || !strstr(e.msg, cases[k].err))
                fail_msg("remaps case %zu: rc %d, \"%s\"", k, rc, e.msg);
            assert_non_null(strstr(e.msg, "remaps"));
            continue;
        }
        if (rc)
            fail_msg("remaps case %zu: %s", k, e.msg);
        struct dh_case c;
        kcase(&c, b, "baseline", NULL);
        char why[256];
        assert_int_equal(dh_kit_remaps(&c, NULL, why, sizeof why), cases[k].want);
        assert_string_equal(why, "");
    }
}

/* a branch key that gives no item a path is said (it skipped the branch
 * without a word): an expression that fails, and one out of range */
static void branch_key_said(void **st)
{
    (void)st;
    size_t len;
    char *ex = dh_test_slurp("tuning/examples/branch_sum.xml", &len);
    assert_non_null(ex);
    const char *keys[] = {"nosuch + 1", "mode + 5"}, *want[] = {"fails for every item",
                                                                 "outside 0..2 for every item"};
    for (int k = 0; k < 2; k++) {
        char *at = strstr(ex, "key=\"mode % 3\"");
        assert_non_null(at);
        char path[128], log[128], text[8192];
        snprintf(path, sizeof path, "tuning/examples/.dh-test-key-%d.xml", (int)getpid());
        snprintf(log, sizeof log, "/tmp/dh-test-key-%d.log", (int)getpid());
        snprintf(text, sizeof text, "%.*skey=\"%s\"%s", (int)(at - ex), ex, keys[k],
                 at + strlen("key=\"mode % 3\""));
        write_text(path, text);
        const struct dh_bench *b;
        struct dh_err e = {0};
        int lr = dh_ukernel_load(path, NULL, &b, &e);
        unlink(path);
        assert_int_equal(lr, 0);
        struct dh_case c;
        kcase(&c, b, "baseline", NULL);
        void *state = NULL;
        fflush(stderr);
        int saved = dup(2);
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 2);
        close(fd);
        int sr = dh_kit_setup(&c, &state, &e);
        struct dh_khost *h = state;
        int *key = sr ? NULL : malloc((size_t)h->items * sizeof *key);
        const double *cost = NULL;
        int paths = sr ? -1 : h->kit->branch(h, 0, key, &cost);
        fflush(stderr);
        dup2(saved, 2);
        close(saved);
        assert_int_equal(sr, 0);
        assert_int_equal(paths, 3);
        assert_int_equal(key[0], -1);
        char *said = dh_test_slurp(log, &len);
        unlink(log);
        assert_non_null(said);
        fprintf(stderr, "  %s", said);
        assert_non_null(strstr(said, want[k]));
        free(said);
        free(key);
        dh_kit_release(state);
    }
    free(ex);
}

int main(void)
{
    setenv("DH_CACHE_DIR", "/tmp/dh-test-cache", 0);
    const struct CMUnitTest t[] = {
        cmocka_unit_test(branch_key_said), cmocka_unit_test(host_reference), cmocka_unit_test(no_opencl),
        cmocka_unit_test(bad_descriptors), cmocka_unit_test(journal_key),
        cmocka_unit_test(remaps),
    };
    return cmocka_run_group_tests_name("descriptor", t, NULL, NULL);
}
