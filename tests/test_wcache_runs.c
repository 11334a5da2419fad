/* test_wcache_runs.c — the workload cache seen from the harness:
 * `harness cache` show/clear/verify, and runs: a warm cache gives the
 * same verified results as a cold one, the entries are really what a
 * warm run uses, corrupt entries are made anew, and a cache that cannot
 * be written does not fail the run. The store itself is test_wcache.c's. */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>

#include "testutil.h"
#include "../harness/run/plan.h"
#include "../harness/run/runner.h"
#include "../harness/run/wcache.h"
#include "../harness/run/worker_state.h"
#include "../suites/lib/kit.h"
#include "wcache_test.h"

/* ---- harness cache ---- */

static void cache_command(void **st)
{
    (void)st;
    need_harness();
    struct dh_store s;
    store_in(&s, "cmd", 0);
    struct dh_store_key a = key_of("a"), b = key_of("b");
    char data[3000] = {1};
    put(&s, &a, 1, "micro/branch small paths=2,seed=1 host", data, sizeof data);
    put(&s, &b, 2, "frontier/gdt medium seed=1 BBVs opencl dev wg=256", data, sizeof data);
    const char *show[] = {"cache", "--cache", s.dir, NULL};
    assert_int_equal(run(show), 0);
    assert_non_null(strstr(out, "micro/branch"));
    assert_non_null(strstr(out, "paths=2,seed=1"));
    assert_non_null(strstr(out, "frontier/gdt"));
    assert_non_null(strstr(out, "BBVs opencl dev wg=256"));
    assert_non_null(strstr(out, "2 entries"));
    assert_non_null(strstr(out, "limit"));
    const char *verify[] = {"cache", "verify", "--cache", s.dir, NULL};
    assert_int_equal(run(verify), 0);
    assert_non_null(strstr(out, "2 good, 0 bad"));
    /* a flipped payload byte: show reads headers only, verify finds it */
    char path[4300];
    entry_file(&s, &b, path, sizeof path);
    FILE *f = fopen(path, "r+b");
    fseek(f, -10, SEEK_END);
    fputc(0x77, f);
    fclose(f);
    assert_int_equal(run(verify), 3);
    assert_non_null(strstr(out, "payload checksum mismatch"));
    assert_non_null(strstr(out, "1 good, 1 bad (removed)"));
    assert_false(exists(path));
    const char *clear[] = {"cache", "clear", "--cache", s.dir, NULL};
    assert_int_equal(run(clear), 0);
    assert_non_null(strstr(out, "removed 1 entry"));
    assert_int_equal(run(show), 0);
    assert_non_null(strstr(out, "0 entries"));
    const char *bad[] = {"cache", "purge", NULL};
    assert_int_equal(run(bad), 64);
    assert_non_null(strstr(out, "choose show, clear or verify"));
    const char *badlim[] = {"cache", "--cache-limit", "8Q", NULL};
    assert_int_equal(run(badlim), 64);
    assert_non_null(strstr(out, "unknown unit"));
    uint64_t v;
    char why[256];
    assert_int_equal(dh_wcache_parse_limit("8G", &v, why, sizeof why), 0);
    assert_true(v == 8ULL << 30);
    assert_int_equal(dh_wcache_parse_limit("1.5MiB", &v, why, sizeof why), 0);
    assert_true(v == 3ULL << 19);
    assert_int_equal(dh_wcache_parse_limit("4096", &v, why, sizeof why), 0);
    assert_true(v == 4096);
    assert_int_equal(dh_wcache_parse_limit("-1G", &v, why, sizeof why), -1);
}

/* ---- runs ---- */

/* what a run's verified results are: per run its status, verification
 * and the model's figures; with acquire, the time the BBVs took too (a
 * cached BBV keeps the cost of the run that made it; BBVs made anew
 * take a new time) */
static void signature(const char *results, char *sig, size_t len, int acquire)
{
    FILE *f = fopen(results, "r");
    assert_non_null(f);
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    size_t o = 0;
    sig[0] = 0;
    static const char *const marks[] = {"<run ", "<verification ", "<model "};
    for (char *p = text; *p; p++)
        for (int m = 0; m < 3; m++)
            if (!strncmp(p, marks[m], strlen(marks[m]))) {
                char *end = strchr(p, '>');
                assert_non_null(end);
                /* the model's errors against the measured times are left
                 * out: timings differ from run to run */
                for (char *q = p; q < end && o < len - 2;) {
                    size_t w = strcspn(q, " >");
                    if (q + w > end)
                        w = (size_t)(end - q);
                    if (!memmem(q, w, "error", 5) && (acquire || !memmem(q, w, "acquire_ms", 10)))
                        o += (size_t)snprintf(sig + o, len - o, "%.*s ", (int)w, q);
                    q += w + (q[w] == ' ');
                    if (q[0] == '>' || (q[0] == '/' && q[1] == '>'))
                        break;
                }
                o += (size_t)snprintf(sig + o, len - o, "\n");
            }
    assert_true(o > 0 && o < len - 1);
}

static const char *run_args[] = {"run", "--suite", "micro", "--variant", "baseline,cpu_tdr",
                                 "--param", "paths=2", "--param", "layers=1", "--param", "iters=64", "--param", "mech=dlt", "--param",
                                 "regroup=key,sort", "--reps", "3", "--warmup", "1"};

static int micro_run(const char *cache, const char *outdir)
{
    const char *a[40];
    int n = 0;
    for (size_t i = 0; i < sizeof run_args / sizeof *run_args; i++)
        a[n++] = run_args[i];
    a[n++] = "--cache";
    a[n++] = cache;
    a[n++] = "--out";
    a[n++] = outdir;
    a[n] = NULL;
    return run(a);
}

struct found {
    char name[64][64];
    uint32_t kind[64];
    int n;
};

static void collect(void *ctx, const struct dh_store_info *in)
{
    struct found *f = ctx;
    if (f->n < 64) {
        snprintf(f->name[f->n], sizeof f->name[f->n], "%s", in->name);
        f->kind[f->n++] = in->kind;
    }
}

/* BBV payload: items, blocks, acquire_ms, distinct BBVs (0: none
 * listed), then the counts, or the distinct BBVs and each item's index:
 * double every count */
static void double_counts(char *p, size_t n)
{
    uint64_t head[4];
    memcpy(head, p, sizeof head);
    uint32_t *c = (uint32_t *)(p + 32);
    size_t m = head[3] ? head[3] * head[1] : (n - 32) / 4;
    for (size_t i = 0; i < m; i++)
        c[i] *= 2;
}

/* host payload: the part count and sizes, then a[], the expected y[] and
 * the generator's derived names (struct dh_kmade): change the last
 * expected value */
static void wrong_reference(char *p, size_t n)
{
    p[n - 1 - sizeof(struct dh_kmade)] ^= 0x40;
}

static void warm_equals_cold(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    need_harness();
    char cache[256], o1[256], o2[256], o3[256], x[300];
    sub(cache, sizeof cache, "runcache");
    sub(o1, sizeof o1, "cold");
    sub(o2, sizeof o2, "warm");
    sub(o3, sizeof o3, "again");
    static char s1[1 << 16], s2[1 << 16];
    assert_int_equal(micro_run(cache, o1), 0);
    snprintf(x, sizeof x, "%s/results.xml", o1);
    signature(x, s1, sizeof s1, 1);
    struct found f = {0};
    struct dh_err e = {0};
    assert_int_equal(dh_store_list(cache, 1, collect, &f, &e), 2);    /* host + BBVs */
    assert_int_equal(micro_run(cache, o2), 0);
    assert_null(strstr(out, "bad entry"));
    snprintf(x, sizeof x, "%s/results.xml", o2);
    signature(x, s2, sizeof s2, 1);
    assert_string_equal(s1, s2);
    assert_non_null(strstr(s2, "status=\"pass\""));
    assert_null(strstr(s2, "status=\"fail\""));
    /* the warm run really used the entries: BBVs planted with doubled
     * counts (a valid entry) change the model's figures... */
    int ib = f.kind[0] == DH_WCACHE_BBV ? 0 : 1, ih = 1 - ib;
    replant(cache, f.name[ib], double_counts);
    assert_int_equal(micro_run(cache, o3), 0);
    snprintf(x, sizeof x, "%s/results.xml", o3);
    signature(x, s2, sizeof s2, 1);
    assert_string_not_equal(s1, s2);
    /* ...and a planted wrong reference is caught by verification (a cache
     * never turns a wrong result into a timing) */
    replant(cache, f.name[ih], wrong_reference);
    char o4[256];
    sub(o4, sizeof o4, "planted");
    assert_int_equal(micro_run(cache, o4), 1);
    /* every entry corrupt: noted, made anew, the cold run's results */
    const char *clear[] = {"cache", "clear", "--cache", cache, NULL};
    assert_int_equal(run(clear), 0);
    char o5[256];
    sub(o5, sizeof o5, "cold2");
    assert_int_equal(micro_run(cache, o5), 0);
    f.n = 0;
    assert_int_equal(dh_store_list(cache, 0, collect, &f, &e), 2);
    for (int i = 0; i < f.n; i++) {
        char path[4300];
        snprintf(path, sizeof path, "%s/%s", cache, f.name[i]);
        FILE *g = fopen(path, "r+b");
        fseek(g, -5, SEEK_END);
        fputc(0x33, g);
        fclose(g);
    }
    char o6[256];
    sub(o6, sizeof o6, "rebuilt");
    assert_int_equal(micro_run(cache, o6), 0);
    assert_non_null(strstr(out, "entry not used (payload checksum mismatch); made anew"));
    snprintf(x, sizeof x, "%s/results.xml", o6);
    signature(x, s2, sizeof s2, 0);
    snprintf(x, sizeof x, "%s/results.xml", o1);
    signature(x, s1, sizeof s1, 0);
    assert_string_equal(s1, s2);
    const char *verify[] = {"cache", "verify", "--cache", cache, NULL};
    assert_int_equal(run(verify), 0);
    assert_non_null(strstr(out, "2 good, 0 bad"));
}

/* frontier/cvp keeps a priv part that its restore makes anew: its host
 * data are cached, and a warm run (including cpu_tdr's key sort and
 * patch gather, which read priv) gives the cold run's results */
static void cvp_warm_equals_cold(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    need_harness();
    char cache[256], o1[256], o2[256], x[300];
    sub(cache, sizeof cache, "cvpcache");
    sub(o1, sizeof o1, "cvp-cold");
    sub(o2, sizeof o2, "cvp-warm");
    static char s1[1 << 16], s2[1 << 16];
    const char *a[] = {"run", "--suite", "frontier", "--bench", "cvp", "--variant",
                       "baseline,cpu_tdr", "--param", "regroup=key,sort", "--param", "mech=dlt",
                       "--reps", "3", "--warmup", "1", "--cache", cache, "--out", o1, NULL};
    assert_int_equal(run(a), 0);
    struct found f = {0};
    struct dh_err e = {0};
    assert_int_equal(dh_store_list(cache, 1, collect, &f, &e), 2);     /* host + BBVs */
    a[18] = o2;
    assert_int_equal(run(a), 0);
    snprintf(x, sizeof x, "%s/results.xml", o1);
    signature(x, s1, sizeof s1, 1);
    snprintf(x, sizeof x, "%s/results.xml", o2);
    signature(x, s2, sizeof s2, 1);
    assert_string_equal(s1, s2);
    assert_non_null(strstr(s2, "regroup=sort"));
    assert_null(strstr(s2, "status=\"fail\""));
}

/* a cache folder that cannot be made, or written: the run goes on */
static void unwritable_cache(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    need_harness();
    char file[256], cache[300], o[256];
    sub(file, sizeof file, "plainfile");
    FILE *f = fopen(file, "w");
    fclose(f);
    snprintf(cache, sizeof cache, "%s/cache", file);         /* under a file */
    sub(o, sizeof o, "nocache");
    assert_int_equal(micro_run(cache, o), 0);
    assert_non_null(strstr(out, "workload cache off"));
    /* in-process: the folder made, then gone; every write fails, warned */
    struct dh_wcache wc;
    char d[256];
    sub(d, sizeof d, "vanishing");
    struct dh_err e = {0};
    assert_int_equal(dh_wcache_open(&wc, d, 0, &e), 0);
    assert_int_equal(rmdir(d), 0);
    f = fopen(d, "w");
    fclose(f);
    struct dh_devlist devs;
    assert_int_equal(dh_devices_gather(&devs, 0, &e), 0);
    struct dh_selection sel = {.suite = "micro", .size = "small", .reps = 2, .warmup = 1,
                               .timeout_s = 120, .device = -1, .profile = 0,
                               .variants = "baseline", .model = 1};
    sel.params[sel.n_params++] = "paths=2";
    struct dh_run *runs;
    int n;
    assert_int_equal(dh_plan(&sel, &devs, &runs, &n, &e), 0);
    struct dh_runner_opts ro = {.isolate = 0, .wcache = &wc};
    assert_int_equal(dh_runner_execute(runs, n, &ro), 0);
    for (int i = 0; i < n; i++)
        assert_int_equal(runs[i].r.status, 0);
    assert_int_equal(wc.warned, 1);
    free(runs);
    unlink(d);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(cache_command),
        cmocka_unit_test(warm_equals_cold),
        cmocka_unit_test(cvp_warm_equals_cold),
        cmocka_unit_test(unwritable_cache),
    };
    return cmocka_run_group_tests_name("wcache_runs", t, setup, teardown);
}
