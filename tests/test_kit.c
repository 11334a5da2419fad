/* test_kit.c — the declared-benchmark model (suites/lib/kit.h): derived
 * buffers, dlt and rr, poison, the remap overhead, the execution's
 * profiling and upload reuse. Users' descriptors are test_descriptor.c's. */
#include <math.h>
#include <omp.h>
#include <unistd.h>

#include "kitcase.h"
#include "testcase.h"
#include "testutil.h"
#include "../harness/run/runner.h"
#include "../suites/lib/kit.h"
#include "../tuning/tuning.h"

/* ---- a small declared benchmark: y[i] = a[i] * 2 + b[k*n+i] (two columns) ---- */
static const char test_src[] =
    "DH_KERNEL void t_base(DH_CONST float *a, DH_CONST int *b, DH_GLOBAL float *y, int n)\n"
    "{ int i = dh_gid(); y[i] = a[i] * 2.0f + (float)(b[i] - b[n + i]); }\n"
    "DH_KERNEL void t_rr(DH_CONST float *a, DH_CONST int *b, DH_GLOBAL float *y, int n,\n"
    "                    DH_CONST int *perm)\n"
    "{ int i = perm[dh_gid()]; y[i] = a[i] * 2.0f + (float)(b[i] - b[n + i]); }\n"
    "DH_KERNEL void t_lazy(DH_CONST float *a, DH_CONST int *b, DH_GLOBAL float *y, int n)\n"
    "{ int i = dh_gid(); if (i % 7 != 3) y[i] = a[i] * 2.0f + (float)(b[i] - b[n + i]); }\n";

enum { A, B, Y };
static const struct dh_kbuf tbufs[] = {
    [A] = {"a", DH_T_F32, DH_IN, "n", DH_KB_ITEM | DH_KB_ROTATE},
    [B] = {"b", DH_T_I32, DH_IN, "2 * n", DH_KB_ITEM},
    [Y] = {"y", DH_T_F32, DH_OUT, "n", DH_KB_ITEM},
};
static const struct dh_kentry tentries[] = {
    {"baseline", "t_base", "a b y n"},        /* cpu_tdr (dlt) runs it too */
    {"cpu_tdr/rr", "t_rr", "a b y n perm"},
    {"melded", "t_lazy", "a b y n"},        /* wrong on purpose: leaves outputs */
    {0},
};

static int t_generate(struct dh_khost *h, struct dh_err *err)
{
    (void)err;
    float *a = h->data[A];
    int *b = h->data[B];
    for (long i = 0; i < h->items; i++) {
        a[i] = (float)(i % 13) * 0.25f;
        b[i] = (int)((i * 7919) % 5);
        b[h->items + i] = (int)(i % 3);
    }
    return 0;
}

static int t_reference(struct dh_khost *h, struct dh_err *err)
{
    (void)err;
    const float *a = h->data[A];
    const int *b = h->data[B];
    float *y = h->want[Y];
    for (long i = 0; i < h->items; i++)
        y[i] = a[i] * 2.0f + (float)(b[i] - b[h->items + i]);
    return 0;
}

static int t_sort_key(const struct dh_khost *h, int *key)
{
    const int *b = h->data[B];
    for (long i = 0; i < h->items; i++)
        key[i] = b[i];
    return 5;
}

static const struct dh_param_def tparams[] = {
    DH_KIT_MECH("enum:dlt,rr", "mechanism"),
    {"regroup", DH_P_CHOICE, "enum:key", "key", "cpu_tdr", "by key"},
    DH_KIT_WG,
    {0},
};

static const struct dh_kit tkit = {
    .sizes = {"n=4096", "n=4096", "n=4096"},
    .items = "n",
    .bufs = tbufs,
    .n_bufs = 3,
    .entries = tentries,
    .generate = t_generate,
    .reference = t_reference,
    .sort_key = t_sort_key,
};

static const struct dh_bench tbench = {
    .suite = "test", .name = "kit", .summary = "test", .source = test_src, .params = tparams,
    .variants = "baseline,cpu_tdr,melded", DH_KIT(tkit),
};

/* the same, its key declared as buffer b's first column (read in place) */
static const struct dh_kit skit = {
    .sizes = {"n=4096", "n=4096", "n=4096"}, .items = "n", DH_KIT_TABLES(tbufs, tentries),
    .generate = t_generate, .reference = t_reference, .sort_by = "b", .sort_keys = "5",
};
static const struct dh_bench sbench = {
    .suite = "test", .name = "kit_sort_by", .summary = "test", .source = test_src,
    .params = tparams, .variants = "baseline,cpu_tdr", DH_KIT(skit),
};

/* the same at 262144 items: enough for the host work's threads */
static const struct dh_kit bigkit = {
    .sizes = {"n=262144", "n=262144", "n=262144"}, .items = "n", DH_KIT_TABLES(tbufs, tentries),
    .generate = t_generate, .reference = t_reference, .sort_key = t_sort_key,
};
static const struct dh_bench bigbench = {
    .suite = "test", .name = "kit_big", .summary = "test", .source = test_src,
    .params = tparams, .variants = "baseline,cpu_tdr", DH_KIT(bigkit),
};

/* the same, y judged by verify_more alone (DH_KB_OWN): the reference's y
 * is off by 0.25 on purpose, which the kit's element check would reject;
 * verify_more takes the offset back and checks within 1e-6 */
static const struct dh_kbuf obufs[] = {
    [A] = {"a", DH_T_F32, DH_IN, "n", DH_KB_ITEM | DH_KB_ROTATE},
    [B] = {"b", DH_T_I32, DH_IN, "2 * n", DH_KB_ITEM},
    [Y] = {"y", DH_T_F32, DH_OUT, "n", DH_KB_ITEM | DH_KB_OWN},
};

static int o_reference(struct dh_khost *h, struct dh_err *err)
{
    int rc = t_reference(h, err);
    float *y = h->want[Y];
    for (long i = 0; i < h->items; i++)
        y[i] += 0.25f;
    return rc;
}

static void o_verify_more(const struct dh_khost *h, void *const *got, long base,
                          struct dh_verify *v)
{
    const float *g = got[Y], *w = h->want[Y];
    for (long i = 0; i < h->items; i++) {
        double want = (double)w[i] - 0.25;
        dh_verify_add(v, base + i, g[i], want, !(fabs(g[i] - want) <= 1e-6));
    }
}

static const struct dh_kit okit = {
    .sizes = {"n=4096", "n=4096", "n=4096"}, .items = "n", DH_KIT_TABLES(obufs, tentries),
    .generate = t_generate, .reference = o_reference, .verify_more = o_verify_more,
};
static const struct dh_bench obench = {
    .suite = "test", .name = "kit_own", .summary = "test", .source = test_src,
    .params = tparams, .variants = "baseline,melded", DH_KIT(okit),
};

/* derived parts without a device: counts, memory, constraints, defines */
static void derived(void **st)
{
    (void)st;
    struct dh_case c;
    kcase(&c, &tbench, "cpu_tdr", "rr");
    /* a: 3 rotated copies; b, y once; rr's index array */
    assert_int_equal(dh_kit_bytes(&c, 3), 3 * 4096 * 4 + 2 * 4096 * 4 + 4096 * 4 + 4096 * 4);
    kcase(&c, &tbench, "baseline", NULL);
    assert_int_equal(dh_kit_bytes(&c, 1), 4096 * 4 + 2 * 4096 * 4 + 4096 * 4);
    char why[256];
    assert_int_equal(dh_kit_check(&c, NULL, why, sizeof why), 0);
    dh_pset_put(&c.params, "wg", "96", 96, DH_P_TUNABLE);
    assert_int_equal(dh_kit_check(&c, NULL, why, sizeof why), -DH_E_CONSTRAINT);
    assert_non_null(strstr(why, "does not divide"));
    /* a DH_KB_OWN buffer with no verify_more to judge it: refused */
    struct dh_kit nokit = okit;
    struct dh_bench nob = obench;
    nokit.verify_more = NULL;
    nob.kit = &nokit;
    kcase(&c, &nob, "baseline", NULL);
    assert_int_equal(dh_kit_check(&c, NULL, why, sizeof why), -DH_E_DATA);
    assert_non_null(strstr(why, "judged by verify_more"));
    kcase(&c, &obench, "baseline", NULL);
    assert_int_equal(dh_kit_check(&c, NULL, why, sizeof why), 0);
    kcase(&c, &tbench, "gpu_tdr", NULL);       /* no entry: absent, said so */
    assert_int_equal(dh_kit_check(&c, NULL, why, sizeof why), -DH_E_CONSTRAINT);
    assert_non_null(strstr(why, "no kernel entry for gpu_tdr"));
    assert_int_equal(dh_kit_alg_code("dgi_scan"), 4);
    assert_int_equal(dh_kit_alg_code("hot_warp_scan"), 6);
    assert_int_equal(dh_kit_alg_code("static"), 7);
    assert_int_equal(dh_kit_alg_code("refill"), 8);
    assert_int_equal(dh_kit_alg_code("natkey_dgi"), 9);
    assert_int_equal(dh_kit_alg_code("lean_scan"), 14);
    assert_int_equal(dh_kit_alg_code("buy_pool"), 18);
    assert_int_equal(dh_kit_alg_code("key_regroup"), 19);
    assert_int_equal(dh_kit_alg_code("key_buy_pool"), 20);
    assert_int_equal(dh_kit_alg_code("kind_buy_pool"), 21);
    assert_int_equal(dh_kit_alg_code("key_dlt"), 22);
    assert_int_equal(dh_kit_alg_code("key_dlt_buy_pool"), 23);
    assert_int_equal(dh_kit_alg_code("key_dlt_kind_buy_pool"), 24);
    assert_int_equal(dh_kit_alg_code("meld_buy_pool"), 26);
    assert_int_equal(dh_kit_alg_code("meld_key_dlt"), 27);
    assert_int_equal(dh_kit_alg_code("static_trips"), 25);
    assert_int_equal(dh_kit_alg_code("nonsense"), 0);
    /* host data: generated and referenced per declared count */
    void *state = NULL;
    struct dh_err e = {0};
    kcase(&c, &tbench, "baseline", NULL);
    assert_int_equal(dh_kit_setup(&c, &state, &e), 0);
    struct dh_khost *h = state;
    assert_int_equal(h->items, 4096);
    assert_int_equal(h->count[B], 8192);
    assert_null(h->data[Y]);
    assert_non_null(h->want[Y]);
    dh_kit_release(state);
}

/* declared names, defines, rules and local memory; the kit's own refusals */
static const struct dh_param_def dparams[] = {
    {"paths", DH_P_WORKLOAD, "int:1..64", "4", NULL, "paths"},
    {"alg", DH_P_CHOICE, "enum:hot,dgi,dgi_scan,bogus", "dgi", "gpu_tdr", "remap"},
    DH_KIT_WG,
    DH_KIT_NF("alg=dgi"),
    {0},
};
static const struct dh_kentry dentries[] = {
    {"baseline", "t_base", "a b y n"},
    {"gpu_tdr", "t_base", "a b y n"},
    {0},
};
static const struct dh_krule drules[] = {
    {NULL, "paths <= 16", "paths above 16 are not supported"},
    {"alg=hot", "paths == 2", "alg=hot remaps two paths only"},
    {0},
};
static const struct dh_kbuf dbufs[] = {
    [A] = {"a", DH_T_F32, DH_IN, "n", DH_KB_ITEM},
    [B] = {"b", DH_T_I32, DH_IN, "keys * n", DH_KB_ITEM},
    [Y] = {"y", DH_T_F32, DH_OUT, "n", DH_KB_ITEM},
};
static const struct dh_kit dkit = {
    .sizes = {"n=4096", "n=1073741824", "n=4096"}, .items = "n",
    .derive = "keys = paths * paths; half = keys / 2",
    .define = "T_KEYS = keys; T_HALF = half; T_WGX = wg * 2",
    .rules = drules,
    .local = "per = alg == DGI ? wg / nf : wg / warp; bytes = 4 * (keys * per + wg)",
    DH_KIT_TABLES(dbufs, dentries),
    .generate = t_generate, .reference = t_reference,
};
static const struct dh_bench dbench = {
    .suite = "test", .name = "declared", .summary = "test", .source = test_src,
    .params = dparams, .variants = "baseline,gpu_tdr", DH_KIT(dkit),
};

/* a choice a case leaves unset reads as its declared default's index in
 * the enum (pb's gkey: "enum:hits,trips", default trips = 1), never as 0
 * (which would be the first value, hits) */
static void unset_choice_default(void **st)
{
    (void)st;
    const struct dh_bench *pb = dh_bench_find("parboil", "pb");
    assert_non_null(pb);
    struct dh_case c;
    kcase(&c, pb, "gpu_tdr", NULL);
    dh_pset_put(&c.params, "alg", "hot", 0, DH_P_CHOICE);
    assert_null(dh_pset_find(&c.params, "gkey"));
    struct dh_pset vars;
    char why[512];
    assert_int_equal(dh_kit_vars(&c, &vars, why, sizeof why), 0);
    assert_int_equal((long)dh_pset_num(&vars, "gkey", -1), 1);
    dh_pset_put(&c.params, "gkey", "hits", 0, DH_P_CHOICE);
    assert_int_equal(dh_kit_vars(&c, &vars, why, sizeof why), 0);
    assert_int_equal((long)dh_pset_num(&vars, "gkey", -1), 0);
}

static void declared(void **st)
{
    (void)st;
    struct dh_case c;
    struct dh_device_info dev = {.warp_width = 32, .max_wg = 1024, .local_mem_bytes = 65536};
    char why[512], defs[512];
    kcase(&c, &dbench, "gpu_tdr", NULL);
    dh_pset_put(&c.params, "alg", "dgi", 1, DH_P_CHOICE);
    dh_pset_put(&c.params, "nf", "8", 8, DH_P_TUNABLE);
    /* derived names in counts: b holds paths^2 (default paths=4) columns */
    struct dh_pset vars;
    assert_int_equal(dh_kit_vars(&c, &vars, why, sizeof why), 0);
    assert_int_equal((long)dh_pset_num(&vars, "keys", 0), 16);
    assert_int_equal((long)dh_pset_num(&vars, "alg", 0), 2);
    assert_int_equal(dh_kit_bytes(&c, 1), 4096 * 4 + 16 * 4096 * 4 + 4096 * 4);
    /* the declared defines, then the kit's */
    assert_int_equal(dh_kit_defines(&c, &dev, defs, sizeof defs), 0);
    assert_string_equal(defs, "-D T_KEYS=16 -D T_HALF=8 -D T_WGX=128 -D TDR_ALG=2 -D TDR_NF=8");
    /* local memory: 4 * (16 * 64 / 8 + 64) = 768 bytes */
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), 0);
    dev.local_mem_bytes = 767;
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    assert_non_null(strstr(why, "needs 768 bytes of local memory"));
    dev.local_mem_bytes = 768;
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), 0);
    /* rules: always, and only where `when` holds */
    dh_pset_put(&c.params, "paths", "17", 17, DH_P_WORKLOAD);
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    assert_string_equal(why, "paths above 16 are not supported");
    dh_pset_put(&c.params, "paths", "2", 2, DH_P_WORKLOAD);
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), 0);
    dh_pset_put(&c.params, "paths", "3", 3, DH_P_WORKLOAD);
    dh_pset_put(&c.params, "alg", "hot", 0, DH_P_CHOICE);
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    assert_string_equal(why, "alg=hot remaps two paths only");
    /* an alg the kit has no code for is refused, not built as TDR_ALG=0 */
    dh_pset_put(&c.params, "alg", "bogus", 3, DH_P_CHOICE);
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), -DH_E_DATA);
    assert_non_null(strstr(why, "alg=bogus"));
    /* a form the kit knows but this benchmark does not declare (another
     * benchmark's, passed by a selection of several) is refused, not
     * built */
    dh_pset_put(&c.params, "paths", "2", 2, DH_P_WORKLOAD);
    dh_pset_put(&c.params, "alg", "natkey_dgi", 9, DH_P_CHOICE);
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    assert_non_null(strstr(why, "alg=natkey_dgi is not one of declared's remap forms"));
    /* a buffer over the device's largest allocation */
    kcase(&c, &dbench, "baseline", NULL);
    dev.max_alloc_bytes = 4096 * 4 * 16 - 1;
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    assert_non_null(strstr(why, "buffer b needs 262144 bytes"));
    /* a sort_by that is not a per-item int input */
    struct dh_kit bad = dkit;
    struct dh_bench bb = dbench;
    bad.sort_by = "y";
    bad.sort_keys = "4";
    bb.kit = &bad;
    kcase(&c, &bb, "baseline", NULL);
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    assert_non_null(strstr(why, "sort_by \"y\""));
    bad.sort_by = "b";
    bad.sort_keys = "paths - 4";
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    assert_non_null(strstr(why, "at least 1"));
    /* a generated key beyond sort_keys: refused at setup, before any
     * timed sort reads it (b holds 0 .. 4, four keys declared) */
    struct dh_kit few = skit;
    struct dh_bench fb = sbench;
    few.sort_keys = "4";
    fb.kit = &few;
    kcase(&c, &fb, "cpu_tdr", "dlt");
    void *state = NULL;
    struct dh_err e = {0};
    assert_int_equal(dh_kit_setup(&c, &state, &e), -DH_E_INTERNAL);
    assert_null(state);
    assert_non_null(strstr(e.msg, "sort key b["));
    assert_non_null(strstr(e.msg, "outside 0 .. 3"));
    kcase(&c, &dbench, "baseline", NULL);
    /* a buffer over 2^31-1 elements (medium: 16 * 2^30) */
    dev.max_alloc_bytes = 0;
    snprintf(c.size, sizeof c.size, "medium");
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    assert_non_null(strstr(why, "32-bit"));
}

/* micro/branch's multi-item remaps: their codes, the warp-vote refusal on
 * OpenCL, the local memory the kit counts (scratch + map[] of wg * ipl;
 * nested, the slots' values and items too), and on OpenCL the nested form's
 * second round buffers, which micro's own check adds */
static void micro_multi(void **st)
{
    (void)st;
    assert_int_equal(dh_kit_alg_code("scan_multi"), 15);
    assert_int_equal(dh_kit_alg_code("count_multi"), 16);
    assert_int_equal(dh_kit_alg_code("adapt_scan"), 17);
    const struct dh_bench *mb = dh_bench_find("micro", "branch");
    assert_non_null(mb);
    struct dh_case c;
    struct dh_device_info dev = {.warp_width = 32, .max_wg = 1024, .local_mem_bytes = 65536};
    char why[512];
    kcase(&c, mb, "gpu_tdr", NULL);
    dh_pset_put(&c.params, "wg", "256", 256, DH_P_TUNABLE);
    dh_pset_put(&c.params, "ipl", "8", 8, DH_P_TUNABLE);
    dh_pset_put(&c.params, "alg", "scan_multi", 4, DH_P_CHOICE);
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    assert_non_null(strstr(why, "count_multi"));        /* the portable form named */
    dh_pset_put(&c.params, "alg", "count_multi", 5, DH_P_CHOICE);
    /* paths=2 flat: 4 * (2 * 2 * 8 + 2 + 8 + 2048) = 8360 bytes */
    dev.local_mem_bytes = 8360;
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), 0);
    dev.local_mem_bytes = 8359;
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    assert_non_null(strstr(why, "needs 8360 bytes"));
    /* nested (4 leaves): the kit counts 4 * (2124 + 2 * 2048) = 24880; on
     * OpenCL the second round's map[] and scratch: 4 * (2 * 2124 + 4096) */
    dh_pset_put(&c.params, "layers", "2", 2, DH_P_WORKLOAD);
    dev.local_mem_bytes = 33376;
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), 0);
    dev.local_mem_bytes = 33375;
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    assert_non_null(strstr(why, "needs 33376 bytes of local memory on OpenCL"));
    snprintf(c.backend, sizeof c.backend, "cuda");
    dev.local_mem_bytes = 24880;
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), 0);
    dev.local_mem_bytes = 24879;
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    /* once: one remap by the leaf, no values or items kept: 4 * 2124, and
     * OpenCL adds nothing */
    dh_pset_put(&c.params, "once", "1", 1, DH_P_TUNABLE);
    dev.local_mem_bytes = 8496;
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), 0);
    snprintf(c.backend, sizeof c.backend, "opencl");
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), 0);
    dev.local_mem_bytes = 8495;
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    dh_pset_put(&c.params, "once", "0", 0, DH_P_TUNABLE);
    /* wg a multiple of the warp width (the remap counts per warp) */
    dev.local_mem_bytes = 0;
    dh_pset_put(&c.params, "layers", "1", 1, DH_P_WORKLOAD);
    dh_pset_put(&c.params, "wg", "16", 16, DH_P_TUNABLE);
    assert_int_equal(dh_kit_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    assert_non_null(strstr(why, "multiple of the warp width"));
}

/* every variant through the worker on the CPU device: dlt moves both
 * columns of b and puts y back, rr passes perm, poison catches a kernel
 * that leaves outputs unwritten */
static void on_device(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    struct dh_runner_opts ro = {.isolate = 0};
    struct dh_session *s = dh_session_open(&ro);
    static struct dh_result r;
    struct dh_case c;
    const char *const v[][2] = {{"baseline", NULL}, {"cpu_tdr", "dlt"}, {"cpu_tdr", "rr"}};
    for (int k = 0; k < 3; k++) {
        kcase(&c, &tbench, v[k][0], v[k][1]);
        assert_int_equal(dh_session_run(s, &c, &r), 0);
        if (r.status)
            fprintf(stderr, "%s %s: %s\n", v[k][0], v[k][1] ? v[k][1] : "", r.message);
        assert_int_equal(r.status, 0);
        assert_int_equal(r.verify.checked, 4096);
        assert_int_equal(r.rotate, 3);
        if (k)
            assert_true(r.host_ms[0] >= 0);
    }
    kcase(&c, &sbench, "cpu_tdr", "dlt");
    assert_int_equal(dh_session_run(s, &c, &r), 0);
    assert_int_equal(r.status, 0);
    assert_int_equal(r.verify.checked, 4096);
    /* the key sort, dlt's moves and put-backs over several threads */
    int width = omp_get_max_threads();
    omp_set_num_threads(4);
    for (int k = 1; k < 3; k++) {
        kcase(&c, &bigbench, v[k][0], v[k][1]);
        assert_int_equal(dh_session_run(s, &c, &r), 0);
        if (r.status)
            fprintf(stderr, "big %s: %s\n", v[k][1], r.message);
        assert_int_equal(r.status, 0);
        assert_int_equal(r.verify.checked, 262144);
    }
    /* deal=1 reorders the key sort's perm after it: dlt moves through the
     * dealt perm, not the sort's inverse */
    kcase(&c, &bigbench, "cpu_tdr", "dlt");
    dh_pset_put(&c.params, "deal", "1", 1, DH_P_TUNABLE);
    dh_case_identity(&c);
    assert_int_equal(dh_session_run(s, &c, &r), 0);
    if (r.status)
        fprintf(stderr, "big dlt deal=1: %s\n", r.message);
    assert_int_equal(r.status, 0);
    assert_int_equal(r.verify.checked, 262144);
    omp_set_num_threads(width);
    kcase(&c, &tbench, "melded", NULL);
    assert_int_equal(dh_session_run(s, &c, &r), 0);
    assert_int_equal(r.status, DH_E_WRONG);
    assert_int_equal(r.verify.mismatches, (4095 - 3) / 7 + 1);   /* items 3, 10, ...: NaN */
    assert_true(isnan(r.verify.first[0].got));
    /* an output judged by verify_more alone: the kit's element check is
     * skipped (it would reject every element), verify_more's catches */
    kcase(&c, &obench, "baseline", NULL);
    assert_int_equal(dh_session_run(s, &c, &r), 0);
    if (r.status)
        fprintf(stderr, "own: %s\n", r.message);
    assert_int_equal(r.status, 0);
    assert_int_equal(r.verify.checked, 4096);
    kcase(&c, &obench, "melded", NULL);
    assert_int_equal(dh_session_run(s, &c, &r), 0);
    assert_int_equal(r.status, DH_E_WRONG);
    assert_int_equal(r.verify.mismatches, (4095 - 3) / 7 + 1);
    assert_int_equal(r.verify.first[0].index, 3);
    dh_session_close(s);
}

/* ---- the remap overhead (dh_kit_presort, dh_exec.presorted) ---- */
static const struct dh_param_def pparams_rr[] = {
    DH_KIT_MECH("enum:rr", "index array only"),
    {"regroup", DH_P_CHOICE, "enum:key", "key", "cpu_tdr", "by key"},
    {"alg", DH_P_CHOICE, "enum:dgi", "dgi", "gpu_tdr", "remap"},
    DH_KIT_WG,
    {0},
};
/* gpu_tdr is t_base itself (nothing to remap: the ratio is the noise's),
 * through perm where cpu_tdr redirects; pentries_bad's gpu_tdr/rr leaves
 * outputs unwritten */
static const struct dh_kentry pentries[] = {
    {"baseline", "t_base", "a b y n"},
    {"cpu_tdr/rr", "t_rr", "a b y n perm"},
    {"gpu_tdr", "t_base", "a b y n"},
    {"gpu_tdr/rr", "t_rr", "a b y n perm"},
    {0},
};
static const struct dh_kentry pentries_bad[] = {
    {"baseline", "t_base", "a b y n"},
    {"cpu_tdr/rr", "t_rr", "a b y n perm"},
    {"gpu_tdr", "t_base", "a b y n"},
    {"gpu_tdr/rr", "t_lazy", "a b y n"},
    {0},
};
static const struct dh_kit pkit = {
    .sizes = {"n=4096", "n=4096", "n=4096"}, .items = "n", DH_KIT_TABLES(tbufs, pentries),
    .generate = t_generate, .reference = t_reference, .sort_key = t_sort_key,
};
static const struct dh_bench pbench = {
    .suite = "test", .name = "kit_presort", .summary = "test", .source = test_src,
    .params = pparams_rr, .variants = "baseline,cpu_tdr,gpu_tdr", DH_KIT(pkit),
};

static void presort(void **st)
{
    (void)st;
    struct dh_case c;
    char mech[8], why[384];
    /* rr with a gpu_tdr/rr entry; dlt where cpu_tdr moves data */
    kcase(&c, &pbench, "gpu_tdr", NULL);
    assert_int_equal(pbench.presort(&c, mech, sizeof mech, why, sizeof why), 1);
    assert_string_equal(mech, "rr");
    struct dh_bench b = pbench;
    b.params = tparams;                                 /* mech dlt,rr */
    kcase(&c, &b, "gpu_tdr", NULL);
    assert_int_equal(b.presort(&c, mech, sizeof mech, why, sizeof why), 1);
    assert_string_equal(mech, "dlt");
    /* only gpu_tdr */
    kcase(&c, &pbench, "baseline", NULL);
    assert_int_equal(pbench.presort(&c, mech, sizeof mech, why, sizeof why), 0);
    /* no cpu_tdr: said, with the benchmark's own reason */
    b = pbench;
    b.variants = "baseline,gpu_tdr";
    b.absent = "cpu_tdr: the keys follow the position; melded: nothing to meld";
    kcase(&c, &b, "gpu_tdr", NULL);
    assert_int_equal(b.presort(&c, mech, sizeof mech, why, sizeof why), 0);
    assert_string_equal(why, "no host regrouping: kit_presort has no cpu_tdr (the keys follow "
                             "the position)");
    /* no key: the BBV regroupings only */
    struct dh_kit k = pkit;
    k.sort_key = NULL;
    b = pbench;
    b.kit = &k;
    kcase(&c, &b, "gpu_tdr", NULL);
    assert_int_equal(b.presort(&c, mech, sizeof mech, why, sizeof why), 0);
    assert_non_null(strstr(why, "no key regrouping"));
    /* rr only, and a gpu_tdr kernel that reads no index array */
    static const struct dh_kentry no_rr[] = {
        {"baseline", "t_base", "a b y n"}, {"cpu_tdr/rr", "t_rr", "a b y n perm"},
        {"gpu_tdr", "t_base", "a b y n"}, {0}};
    k = pkit;
    k.entries = no_rr;
    kcase(&c, &b, "gpu_tdr", NULL);
    assert_int_equal(b.presort(&c, mech, sizeof mech, why, sizeof why), 0);
    assert_non_null(strstr(why, "index array only (mech=rr)"));
    assert_non_null(strstr(why, "gpu_tdr/rr"));
    /* dlt, and a gpu_tdr kernel reading a buffer cpu_tdr's does not */
    static const struct dh_kentry other[] = {
        {"baseline", "t_base", "a b y n"}, {"cpu_tdr", "t_lazy", "b b y n"},
        {"gpu_tdr", "t_base", "a b y n"}, {0}};
    k = pkit;
    k.entries = other;
    b.params = tparams;
    kcase(&c, &b, "gpu_tdr", NULL);
    assert_int_equal(b.presort(&c, mech, sizeof mech, why, sizeof why), 0);
    assert_non_null(strstr(why, "gpu_tdr kernel reads a, which its cpu_tdr (dlt, kernel "
                                "t_lazy) does not read"));
}

/* the overhead on the CPU device: rr through gpu_tdr/rr, dlt through the
 * moved data; both kernels verified, a wrong one fails the case */
static void presort_on_device(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    struct dh_runner_opts ro = {.isolate = 0};
    struct dh_session *s = dh_session_open(&ro);
    static struct dh_result r;
    struct dh_case c;
    struct dh_bench b = pbench;
    for (int k = 0; k < 2; k++) {
        if (k)
            b.params = tparams;                         /* dlt */
        kcase(&c, &b, "gpu_tdr", NULL);
        c.remap_overhead = 1;
        assert_int_equal(dh_session_run(s, &c, &r), 0);
        if (r.status)
            fprintf(stderr, "presort %d: %s\n", k, r.message);
        assert_int_equal(r.status, 0);
        const struct dh_remap_overhead *o = &r.remap;
        assert_int_equal(o->state, DH_REMAP_MEASURED);
        assert_string_equal(o->mech, k ? "dlt" : "rr");
        assert_int_equal(o->n_tdr, 3);
        assert_int_equal(o->n_base, 3);
        assert_true(o->tdr_ms > 0 && o->base_ms > 0);
        assert_true(o->ratio > 0 && isfinite(o->ratio));
        assert_true(o->ratio_lo <= o->ratio && o->ratio <= o->ratio_hi);
        assert_true(r.remap_ms > 0);
        /* the case's own timing is its own: no index array upload */
        assert_true(r.xfer_ms[0] == 0);
    }
    /* not asked: none */
    kcase(&c, &pbench, "gpu_tdr", NULL);
    assert_int_equal(dh_session_run(s, &c, &r), 0);
    assert_int_equal(r.status, 0);
    assert_int_equal(r.remap.state, DH_REMAP_NONE);
    /* a gpu_tdr kernel wrong on the regrouped input fails the case */
    struct dh_kit bad = pkit;
    bad.entries = pentries_bad;
    b = pbench;
    b.kit = &bad;
    b.name = "kit_presort_bad";         /* a workload of its own, not the last one's */
    kcase(&c, &b, "gpu_tdr", NULL);
    c.remap_overhead = 1;
    assert_int_equal(dh_session_run(s, &c, &r), 0);
    assert_int_equal(r.status, DH_E_WRONG);
    assert_int_equal(r.remap.state, DH_REMAP_FAILED);
    assert_int_equal(r.remap.status, DH_E_WRONG);
    assert_non_null(strstr(r.remap.reason, "gpu_tdr on the regrouped input"));
    assert_non_null(strstr(r.message, "remap overhead"));
    dh_session_close(s);
}

/* A profiling pass through dh_exec_launch against a backend that counts
 * its calls: launches with no ms (outside kernel_ms) run uncounted, the
 * pass counts at most profile_max launches and tallies the rest, and a
 * timing pass never touches the counters. */
static int fake_launches, fake_counted;
static int fake_launch(struct dh_program *p, const struct dh_launch *l, double *ms,
                       struct dh_err *err)
{
    (void)p, (void)l, (void)err;
    fake_launches++;
    if (ms)
        *ms = 1.5;
    return 0;
}
static int fake_counters(struct dh_program *p, const struct dh_launch *l,
                         struct dh_counters *out, struct dh_err *err)
{
    (void)p, (void)l, (void)err;
    fake_counted++;
    out->thread_inst_pred_on = 16;
    out->warp_inst_executed = 1;
    out->warp_width = 32;
    return 0;
}

static void exec_profiling(void **state)
{
    (void)state;
    struct dh_backend_ops ops = {.abi = DH_BACKEND_ABI, .name = "fake",
                                 .launch = fake_launch, .counters = fake_counters};
    struct dh_exec x = {.be = &ops};
    struct dh_launch l = {.kernel = "k", .global = 32, .local = 32};
    struct dh_err e = {0};
    double ms = -1;
    /* timing: every launch timed, none counted */
    assert_int_equal(dh_exec_launch(&x, &l, &ms, &e), 0);
    assert_true(ms == 1.5);
    assert_int_equal(fake_counted, 0);
    /* profiling, capped at 3: 5 timed launches and 2 untimed ones */
    x.profiling = 1;
    x.profile_max = 3;
    for (int i = 0; i < 5; i++) {
        ms = -1;
        assert_int_equal(dh_exec_launch(&x, &l, &ms, &e), 0);
        assert_true(ms == 0);
        assert_int_equal(dh_exec_launch(&x, &l, NULL, &e), 0);
    }
    assert_int_equal(fake_counted, 3);
    assert_int_equal(x.n_profiled, 3);
    assert_int_equal(x.n_unprofiled, 2);
    assert_true(x.ctr.thread_inst_pred_on == 48 && x.ctr.warp_inst_executed == 3);
    /* every launch ran: 1 timed, 3 counted ones outside launch, 2 past
     * the cap, 5 untimed */
    assert_int_equal(fake_launches, 1 + 2 + 5);
    /* no cap: every timed launch counted */
    x.profile_max = 0;
    assert_int_equal(dh_exec_launch(&x, &l, &ms, &e), 0);
    assert_int_equal(fake_counted, 4);
}

/* cpu_tdr's runs that reuse the host work upload nothing the device
 * already holds of it (dlt: the moved inputs, each rotation's copy once;
 * rr: the index array), so their kernel reads its inputs as the
 * baseline's does; redoing the host work uploads again. A fake device of
 * host memory counts the uploads. */
static int up_count;
static size_t up_bytes;
static int mem_alloc(struct dh_device *d, size_t bytes, struct dh_buffer **b, struct dh_err *e)
{
    (void)d, (void)e;
    *b = calloc(1, bytes ? bytes : 1);
    return *b ? 0 : -DH_E_RESOURCES;
}
static void mem_free(struct dh_buffer *b)
{
    free(b);
}
static int mem_copy(struct dh_buffer *b, void *host, size_t bytes, enum dh_copy_dir dir,
                    struct dh_err *e)
{
    (void)e;
    if (dir == DH_TO_DEVICE) {
        up_count++;
        up_bytes += bytes;
        memcpy(b, host, bytes);
    } else {
        memcpy(host, b, bytes);
    }
    return 0;
}
static int mem_launch(struct dh_program *p, const struct dh_launch *l, double *ms,
                      struct dh_err *e)
{
    (void)p, (void)l, (void)e;
    if (ms)
        *ms = 1;
    return 0;
}

/* dh_bench.kernel: the entry a case launches, as the kit declares it
 * (DH_BLOCK_COSTS=sass reads the baseline's by this name: mc's baseline
 * build holds mc_base and cpu_tdr's mc_rr, and a name pattern picked
 * neither) */
static void kernel_names(void **st)
{
    (void)st;
    struct dh_case c;
    dh_test_case(&c, "bbv", "mc", "baseline");
    assert_non_null(c.bench->kernel);
    assert_string_equal(c.bench->kernel(&c), "mc_base");
    dh_test_case(&c, "bbv", "mc", "cpu_tdr");
    dh_pset_put(&c.params, "mech", "rr", 0, DH_P_CHOICE);
    assert_string_equal(c.bench->kernel(&c), "mc_rr");
    dh_test_case(&c, "frontier", "gdt", "cpu_tdr");
    dh_pset_put(&c.params, "mech", "dlt", 0, DH_P_CHOICE);
    assert_string_equal(c.bench->kernel(&c), "gdt_baseline");   /* dlt: the baseline's */
    dh_test_case(&c, "darm", "bit", "gpu_tdr");
    assert_string_equal(c.bench->kernel(&c), "bt_gpu_tdr");
}

static void reuse_uploads_nothing_held(void **st)
{
    (void)st;
    struct dh_backend_ops ops = {.abi = DH_BACKEND_ABI, .name = "mem", .alloc = mem_alloc,
                                 .free_buffer = mem_free, .copy = mem_copy,
                                 .launch = mem_launch};
    const char *mech[] = {"dlt", "rr"};
    for (int m = 0; m < 2; m++) {
        struct dh_case c;
        kcase(&c, &tbench, "cpu_tdr", mech[m]);
        void *state = NULL;
        struct dh_err e = {0};
        assert_int_equal(dh_kit_setup(&c, &state, &e), 0);
        struct dh_exec x = {.c = &c, .be = &ops, .rotate = 3};
        assert_int_equal(dh_kit_upload(state, &x, &e), 0);
        struct dh_sample smp;
        /* the host work done: dlt uploads a's rotation copy 0 and b, rr the
         * index array */
        up_count = 0;
        assert_int_equal(dh_kit_run(state, &x, 0, &smp, &e), 0);
        int first = up_count;
        assert_int_equal(first, m == 0 ? 2 : 1);
        /* reused: dlt uploads a's copies 1 and 2 once each (b has one copy),
         * then nothing; rr nothing, its transfer the last measured */
        x.host_reuse = 1;
        up_count = 0;
        for (int rep = 1; rep <= 6; rep++) {
            assert_int_equal(dh_kit_run(state, &x, rep, &smp, &e), 0);
            assert_true(smp.host_ms == -1);
            assert_true(smp.xfer_ms >= 0);
        }
        assert_int_equal(up_count, m == 0 ? 2 : 0);
        /* the host work redone: uploaded again */
        x.host_reuse = 0;
        up_count = 0;
        assert_int_equal(dh_kit_run(state, &x, 0, &smp, &e), 0);
        assert_int_equal(up_count, first);
        dh_kit_teardown(state, &x);
        dh_kit_release(state);
    }
}

int main(void)
{
    setenv("DH_CACHE_DIR", "/tmp/dh-test-cache", 0);
    const struct CMUnitTest t[] = {
        cmocka_unit_test(derived), cmocka_unit_test(exec_profiling), cmocka_unit_test(declared), cmocka_unit_test(on_device),
        cmocka_unit_test(presort), cmocka_unit_test(presort_on_device), cmocka_unit_test(unset_choice_default),
        cmocka_unit_test(micro_multi), cmocka_unit_test(reuse_uploads_nothing_held),
        cmocka_unit_test(kernel_names),
    };
    return cmocka_run_group_tests_name("kit", t, NULL, NULL);
}
