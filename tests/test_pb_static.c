/* test_pb_static.c — parboil/pb's static trip-class remap (gpu_tdr
 * alg=static_trips; suites/parboil/pb/pb_map.h and pb.k): the map is a
 * permutation of every plane's positions that lists them class by class
 * (the number of covering window rows and columns, counted here by brute
 * force over Caffe's windows), row-major within a class, for every k, s
 * and pad the benchmark takes and plane sizes from 1 up, edges included;
 * the kit's rules for it (gkey=trips only, no local memory); and the
 * kernel verified against the CPU reference at size small on an OpenCL
 * device (else SKIPPED) over the workloads, its counting build too. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "testcase.h"
#include "../harness/run/plan.h"
#include "../harness/run/worker.h"
#include "../suites/lib/kit.h"
#include "../suites/parboil/pb/pb_map.h"

/* Caffe's pooled size along one axis (pb.c's derive) */
static int pooled(int n, int k, int s, int pad)
{
    int p = (n + 2 * pad - k + s - 1) / s + 1;
    return pad > 0 && (p - 1) * s >= n + pad ? p - 1 : p;
}

/* windows i of np whose span [i s - pad, i s - pad + k) holds y */
static int brute_cover(int y, int k, int s, int pad, int np)
{
    int c = 0;
    for (int i = 0; i < np; i++)
        c += i * s - pad <= y && y < i * s - pad + k;
    return c;
}

/* one plane: map a permutation, classes ascending and contiguous,
 * row-major inside; returns the classes seen */
static void check_plane(int hh, int ww, int k, int s, int pad)
{
    int ph = pooled(hh, k, s, pad), pw = pooled(ww, k, s, pad), tw = (k + s - 1) / s;
    int n = hh * ww;
    int *map = malloc((size_t)n * sizeof *map), *seen = calloc((size_t)n, sizeof *seen);
    assert_non_null(map);
    assert_non_null(seen);
    int *a = malloc((size_t)hh * sizeof *a), *b = malloc((size_t)ww * sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    for (int y = 0; y < hh; y++) {
        a[y] = brute_cover(y, k, s, pad, ph);
        assert_int_equal(dh_pb_cover(y, k, s, pad, ph), a[y]);
        assert_true(a[y] <= tw);
    }
    for (int x = 0; x < ww; x++) {
        b[x] = brute_cover(x, k, s, pad, pw);
        assert_int_equal(dh_pb_cover(x, k, s, pad, pw), b[x]);
    }
    int classes = dh_pb_static_map(hh, ww, k, s, pad, ph, pw, map);
    int runs = 0, prev_key = -1, prev_pos = -1;
    for (int q = 0; q < n; q++) {
        int pos = map[q];
        if (pos < 0 || pos >= n || seen[pos]++)
            fail_msg("hh=%d ww=%d k=%d s=%d pad=%d: slot %d holds %d, not a new position",
                     hh, ww, k, s, pad, q, pos);
        int key = a[pos / ww] * (tw + 1) + b[pos % ww];
        if (key < prev_key)
            fail_msg("hh=%d ww=%d k=%d s=%d pad=%d: slot %d's class %d after class %d", hh,
                     ww, k, s, pad, q, key, prev_key);
        if (key != prev_key)
            runs++;
        else if (pos <= prev_pos)
            fail_msg("hh=%d ww=%d k=%d s=%d pad=%d: slot %d not row-major in its class", hh,
                     ww, k, s, pad, q);
        prev_key = key;
        prev_pos = pos;
    }
    assert_int_equal(classes, runs);
    free(map);
    free(seen);
    free(a);
    free(b);
}

/* every k, s, pad of pb's domains (pad < k, the padded plane holds a
 * window), planes 1 x 1 to 13 x 13 and the sizes' 55 and 56 */
static void map_groups_by_class(void **st)
{
    (void)st;
    static const int sides[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 55, 56};
    int nside = (int)(sizeof sides / sizeof sides[0]), planes = 0;
    for (int k = 1; k <= 5; k++)
        for (int s = 1; s <= 4; s++)
            for (int pad = 0; pad <= 2 && pad < k; pad++)
                for (int i = 0; i < nside; i++)
                    for (int j = 0; j < nside; j++) {
                        int hh = sides[i], ww = sides[j];
                        if (hh + 2 * pad < k || ww + 2 * pad < k)
                            continue;
                        check_plane(hh, ww, k, s, pad);
                        planes++;
                    }
    assert_true(planes > 5000);
}

/* k=3 s=2 on 55 x 55 (the sizes' plane): four classes, the counts known */
static void map_k3s2(void **st)
{
    (void)st;
    int map[55 * 55];
    assert_int_equal(dh_pb_static_map(55, 55, 3, 2, 0, 27, 27, map), 4);
    /* one window: rows 0, 54 and the odd rows (29); two: the even 2..52 */
    assert_int_equal(map[0], 0);
    assert_int_equal(map[1], 1);
    assert_int_equal(map[2], 3);
    assert_int_equal(map[28], 54);                /* last of row 0's 29 */
    assert_int_equal(map[29], 55);                /* row 1 */
    assert_int_equal(map[29 * 29], 2);            /* class (1, 2): row 0, x = 2 */
    assert_int_equal(map[29 * 29 + 29 * 26], 2 * 55);            /* (2, 1): row 2 */
    assert_int_equal(map[29 * 29 + 2 * 29 * 26], 2 * 55 + 2);    /* (2, 2) */
    /* a class table the map cannot hold: refused, nothing written */
    map[0] = -7;
    assert_int_equal(dh_pb_static_map(20, 20, 15, 1, 0, 6, 6, map), 0);
    assert_int_equal(map[0], -7);
}

/* a gpu_tdr case of pb small */
static void pcase(struct dh_case *c, const char *alg, const char *gkey)
{
    dh_test_case(c, "parboil", "pb", "gpu_tdr");
    dh_pset_put(&c->params, "alg", alg, 0, DH_P_CHOICE);
    dh_pset_put(&c->params, "gkey", gkey, !strcmp(gkey, "trips"), DH_P_CHOICE);  /* enum:hits,trips */
    dh_case_identity(c);
}

/* static_trips takes gkey=trips only, and no local memory: it fits a
 * device with none to spare where dgi_scan does not */
static void kit_rules(void **st)
{
    (void)st;
    struct dh_device_info dev = {.warp_width = 32, .max_wg = 1024, .local_mem_bytes = 64};
    struct dh_case c;
    char why[512] = "";
    pcase(&c, "static_trips", "trips");
    int rc = dh_kit_check(&c, &dev, why, sizeof why);
    if (rc)
        fail_msg("static_trips refused: %s", why);
    pcase(&c, "static_trips", "hits");
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    assert_non_null(strstr(why, "gkey=trips"));
    pcase(&c, "dgi_scan", "trips");
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
}

/* plan pb small gpu_tdr alg=static_trips with params p[0..np), run every
 * case on the OpenCL device; returns the number of cases, each verified */
static int run_pb(const char *const *p, int np, int instrumented)
{
    struct dh_devlist devs;
    struct dh_err e = {0};
    assert_int_equal(dh_devices_gather(&devs, 0, &e), 0);
    struct dh_selection sel = {.suite = "parboil", .benches = "pb", .size = "small",
                               .reps = 1, .warmup = 0, .timeout_s = 300, .device = -1,
                               .backends = "opencl", .variants = "gpu_tdr",
                               .instrumented = instrumented};
    sel.params[sel.n_params++] = "alg=static_trips";
    for (int k = 0; k < np; k++)
        sel.params[sel.n_params++] = p[k];
    struct dh_run *runs;
    int n;
    if (dh_plan(&sel, &devs, &runs, &n, &e))
        fail_msg("plan: %s", e.msg);
    struct dh_worker w;
    assert_int_equal(dh_worker_open(&w, dh_backend_find("opencl"), 0, &e), 0);
    for (int k = 0; k < n; k++) {
        dh_worker_run(&w, &runs[k].c, &runs[k].r);
        if (runs[k].r.status)
            fprintf(stderr, "pb: %s\n", runs[k].r.message);
        assert_int_equal(runs[k].r.status, 0);
        assert_string_equal(dh_pset_text(&runs[k].c.params, "alg", ""), "static_trips");
    }
    dh_worker_close(&w);
    free(runs);
    return n;
}

/* the default workloads (k=3 s=2, k=2 s=2), and edges: padding, strides
 * above k (positions no window covers), the largest window */
static void kernel_verifies(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    assert_int_equal(run_pb(NULL, 0, 0), 2);
    const char *pad[] = {"k=3,5", "s=2", "pad=1,2"};
    assert_int_equal(run_pb(pad, 3, 0), 4);
    const char *gaps[] = {"k=1", "s=4"};
    assert_int_equal(run_pb(gaps, 2, 0), 1);
    const char *wg[] = {"k=3", "s=1", "wg=64"};
    assert_int_equal(run_pb(wg, 3, 0), 1);
}

static void counting_build_verifies(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    const char *p[] = {"k=3", "s=2", "pad=0,1"};
    assert_int_equal(run_pb(p, 3, 1), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(map_groups_by_class),
        cmocka_unit_test(map_k3s2),
        cmocka_unit_test(kit_rules),
        cmocka_unit_test(kernel_verifies),
        cmocka_unit_test(counting_build_verifies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
