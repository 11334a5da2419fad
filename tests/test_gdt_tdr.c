/* test_gdt_tdr.c — frontier/gdt's gpu_tdr forms without a remap per layer
 * (suites/frontier/gdt/gdt.k: buy_pool, key_regroup, key_buy_pool,
 * kind_buy_pool, key_dlt, key_dlt_buy_pool, key_dlt_kind_buy_pool,
 * meld_buy_pool, meld_key_dlt)
 * at size small on an OpenCL device (else SKIPPED): every form, regrouped
 * once and every 16 days, in work-groups of 64 and 256, verified against
 * the CPU reference (and the per-layer dgi, whose kernel takes the dlt
 * forms' copies too); their counting builds (-D DH_BBV, the counters
 * following the item through the pool and the regroupings) verified too;
 * and the kit's local-memory constraint refusing a rekeyed regrouping
 * that does not fit the device. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "testcase.h"
#include "../harness/run/plan.h"
#include "../harness/run/worker.h"
#include "../suites/lib/kit.h"

/* the nine forms, in three lists (a parameter's value is at most 47
 * characters) */
#define ALGS_A "alg=buy_pool,key_regroup,key_buy_pool"
#define ALGS_B "alg=kind_buy_pool,key_dlt,key_dlt_buy_pool"
#define ALGS_C "alg=key_dlt_kind_buy_pool,meld_buy_pool,meld_key_dlt"
#define NEW_ALGS ALGS_A "," ALGS_B "," ALGS_C

/* plan gdt small gpu_tdr with params p[0..np), run every case on the
 * OpenCL device; returns the number of cases, each verified */
static int run_gdt(const char *const *p, int np, int instrumented)
{
    struct dh_devlist devs;
    struct dh_err e = {0};
    assert_int_equal(dh_devices_gather(&devs, 0, &e), 0);
    struct dh_selection sel = {.suite = "frontier", .benches = "gdt", .size = "small",
                               .reps = 1, .warmup = 0, .timeout_s = 300, .device = -1,
                               .backends = "opencl", .variants = "gpu_tdr",
                               .instrumented = instrumented};
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
        const char *alg = dh_pset_text(&runs[k].c.params, "alg", "");
        if (runs[k].r.status)
            fprintf(stderr, "alg=%s: %s\n", alg, runs[k].r.message);
        assert_int_equal(runs[k].r.status, 0);
        assert_true(strstr(NEW_ALGS, alg) || !strcmp(alg, "dgi"));
    }
    dh_worker_close(&w);
    free(runs);
    return n;
}

static void forms_verify(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    const char *once_a[] = {ALGS_A}, *once_b[] = {ALGS_B}, *once_c[] = {ALGS_C};
    assert_int_equal(run_gdt(once_a, 1, 0), 3);
    assert_int_equal(run_gdt(once_b, 1, 0), 3);
    assert_int_equal(run_gdt(once_c, 1, 0), 3);
    const char *dgi[] = {"alg=dgi"};
    assert_int_equal(run_gdt(dgi, 1, 0), 1);
    const char *rekey[] = {"alg=key_regroup,key_buy_pool", "rekey=16"};
    assert_int_equal(run_gdt(rekey, 2, 0), 2);
    const char *wg64_a[] = {ALGS_A, "rekey=16", "wg=64"};
    assert_int_equal(run_gdt(wg64_a, 3, 0), 3);
    const char *wg64_b[] = {ALGS_B, "wg=64"};
    assert_int_equal(run_gdt(wg64_b, 2, 0), 3);
    const char *wg64_c[] = {ALGS_C, "wg=64"};
    assert_int_equal(run_gdt(wg64_c, 2, 0), 3);
}

static void counting_builds_verify(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    const char *p[] = {"alg=key_buy_pool,kind_buy_pool,key_dlt_buy_pool", "rekey=16"};
    assert_int_equal(run_gdt(p, 2, 1), 3);
    const char *q[] = {ALGS_C};
    assert_int_equal(run_gdt(q, 1, 1), 3);
}

/* a gpu_tdr case of gdt small with alg, rekey and wg */
static void gcase(struct dh_case *c, const char *alg, const char *rekey, const char *wg)
{
    dh_test_case(c, "frontier", "gdt", "gpu_tdr");
    dh_pset_put(&c->params, "alg", alg, 0, DH_P_CHOICE);
    dh_pset_put(&c->params, "rekey", rekey, atof(rekey), DH_P_TUNABLE);
    dh_pset_put(&c->params, "wg", wg, atof(wg), DH_P_TUNABLE);
    dh_case_identity(c);
}

/* the kit's local-memory constraint from gdt.c's `local`: rekeyed
 * regrouping at wg 1024 (10 ints a lane + 2: 40,968 bytes) is refused on
 * a 32 KB device, once (2 ints a lane: 8,200 bytes) it fits; the pool
 * alone (5 a lane: 20,488 bytes) fits; kind_buy_pool at 1024 (32,824)
 * does not, at 512 it does */
static void local_memory(void **st)
{
    (void)st;
    struct dh_device_info dev = {.warp_width = 32, .max_wg = 1024, .local_mem_bytes = 32768};
    struct dh_case c;
    char why[512] = "";
    gcase(&c, "key_regroup", "16", "1024");
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    fprintf(stderr, "  refused: %s\n", why);
    assert_non_null(strstr(why, "40968"));
    gcase(&c, "key_buy_pool", "16", "1024");
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    gcase(&c, "key_regroup", "0", "1024");
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), 0);
    gcase(&c, "buy_pool", "16", "1024");
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), 0);
    /* the pool (5 a lane + 2) and the kind sort (3 a lane + 12): 32,824 */
    gcase(&c, "kind_buy_pool", "0", "1024");
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    assert_non_null(strstr(why, "32824"));
    gcase(&c, "kind_buy_pool", "0", "512");
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), 0);
    /* the dlt forms are never rekeyed: 2 ints a lane (and the pool's 5) */
    gcase(&c, "key_dlt", "16", "1024");
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), 0);
    gcase(&c, "key_dlt_buy_pool", "16", "1024");
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), 0);
    /* the melded pool: the pool's 5 a lane (20,488 bytes) */
    gcase(&c, "meld_buy_pool", "0", "1024");
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), 0);
    /* with the kind sort: as kind_buy_pool */
    gcase(&c, "key_dlt_kind_buy_pool", "16", "1024");
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    assert_non_null(strstr(why, "32824"));
    dev.local_mem_bytes = 40968;          /* exactly enough */
    gcase(&c, "key_buy_pool", "16", "1024");
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(local_memory),
        cmocka_unit_test(forms_verify),
        cmocka_unit_test(counting_builds_verify),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
