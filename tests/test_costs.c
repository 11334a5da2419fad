/* test_costs.c — what the BBV model's blocks cost: the hand tables'
 * guarded blocks, divisions with a zero operand (fdivz: bbv/mc's divz
 * blocks, priced by device and platform), and a benchmark's preferred
 * costs (compiled where they can be read), what the model records of
 * them through a results file, and a bad DH_BLOCK_COSTS refused. The
 * profiling runs need an OpenCL device, else SKIPPED. The model's pricing itself is
 * test_bbv_model.c's, the regroupings test_bbv.c's. */
#include <math.h>
#include <unistd.h>

#include "testutil.h"
#include "../harness/model/bbv.h"
#include "../harness/stats/derive.h"
#include "../harness/stats/load.h"
#include "../results/xml.h"
#include "../harness/model/price.h"
#include "../harness/run/plan.h"
#include "../harness/run/worker.h"
#include "../suites/bbv/mc/mc_vol.h"
#include "../suites/suite.h"

/* One profiling run of suite/bench's baseline at size small on the
 * OpenCL device (param one "k=v" or NULL), with DH_BLOCK_COSTS and
 * DH_SASS_ARCH as given (NULL: unset; both unset again after), verified.
 * The worker stays open for its BBVs: the caller closes it and frees the
 * runs. */
/* the child's output file, this process's own (tests run side by side
 * must not share it) */
static const char *log_costs(void)
{
    static char p[64];
    if (!p[0])
        snprintf(p, sizeof p, "/tmp/dh-test-costs-%d.log", (int)getpid());
    return p;
}

static struct dh_run *profile_small(const char *suite, const char *bench, const char *param,
                                    const char *costs, const char *sass_arch,
                                    struct dh_worker *w)
{
    static struct dh_devlist devs;      /* the runs' cases refer to it */
    struct dh_err e = {0};
    assert_int_equal(dh_devices_gather(&devs, 0, &e), 0);
    struct dh_selection sel = {.suite = suite, .benches = bench, .size = "small", .reps = 1,
                               .warmup = 0, .timeout_s = 300, .device = -1,
                               .backends = "opencl", .variants = "baseline", .model = 1};
    if (param) {
        sel.params[0] = param;
        sel.n_params = 1;
    }
    struct dh_run *runs;
    int n;
    assert_int_equal(dh_plan(&sel, &devs, &runs, &n, &e), 0);
    assert_int_equal(n, 1);
    if (costs)
        setenv("DH_BLOCK_COSTS", costs, 1);
    else
        unsetenv("DH_BLOCK_COSTS");
    if (sass_arch)
        setenv("DH_SASS_ARCH", sass_arch, 1);
    else
        unsetenv("DH_SASS_ARCH");
    assert_int_equal(dh_worker_open(w, dh_backend_find("opencl"), 0, &e), 0);
    dh_worker_run(w, &runs[0].c, &runs[0].r);
    unsetenv("DH_BLOCK_COSTS");
    unsetenv("DH_SASS_ARCH");
    if (runs[0].r.status)
        fprintf(stderr, "%s\n", runs[0].r.message);
    assert_int_equal(runs[0].r.status, 0);
    return runs;
}

/* Hand costs' guarded blocks (dh_bb_def.guarded_in): the table's names
 * resolve to parents, a bad name is refused naming the block; pol's
 * table names 7. Priced: a guarded block is issued whenever its parent
 * runs in the warp, lanes that skip it doing nothing useful, and the
 * floor's issue counts its instructions (one cycle each), not its
 * latency cycles. */
static void guarded_hand_blocks(void **st)
{
    (void)st;
    struct dh_bb_def ok[3] = {{"a", {.fp = 1}}, {"g", {.fp = 2}, "a"}, {"c", {.fp = 1}}};
    int parent[3];
    struct dh_err e = {0};
    assert_int_equal(dh_bbv_guard_parents(ok, 3, parent, &e), 1);
    assert_int_equal(parent[0], -1);
    assert_int_equal(parent[1], 0);
    assert_int_equal(parent[2], -1);
    struct dh_bb_def bad[2] = {{"a", {.fp = 1}}, {"g", {.fp = 2}, "b"}};
    assert_int_equal(dh_bbv_guard_parents(bad, 2, parent, &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, "block 1 (g)"));
    assert_non_null(strstr(e.msg, "no block of the table"));
    struct dh_bb_def self[1] = {{"g", {.fp = 2}, "g"}};
    assert_int_equal(dh_bbv_guard_parents(self, 1, parent, &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, "itself"));
    const struct dh_bench *pb = dh_bench_find("frontier", "pol");
    assert_non_null(pb);
    int pp[256];
    assert_true(pb->n_blocks <= 256);
    assert_int_equal(dh_bbv_guard_parents(pb->blocks, pb->n_blocks, pp, &e), 7);
    for (int k = 0; k < pb->n_blocks; k++)
        if (pp[k] >= 0) {
            assert_true(k >= 34);                        /* the marked guards */
            assert_string_equal(pb->blocks[pp[k]].name, pb->blocks[k].guarded_in);
        }

    /* 16 items, warps of 2, one group of 16 (8 warps, 2 a scheduler):
     * every item runs a 10 times and never g. nvidia-sm90: a 4 cycles
     * 1 instruction, g 8 cycles 2 instructions */
    uint32_t c[32];
    for (int i = 0; i < 16; i++) {
        c[2 * i] = 10;
        c[2 * i + 1] = 0;
    }
    struct dh_bbv b = {.n_items = 16, .n_blocks = 2, .counts = c};
    struct dh_device_info info = {.warp_width = 2, .compute_units = 1};
    struct dh_latency_table t;
    setenv("DH_LATENCY_TABLE", "nvidia-sm90", 1);
    assert_int_equal(dh_latency_table_for(&info, &t, &e), 0);
    unsetenv("DH_LATENCY_TABLE");
    struct dh_model_result m = {0};
    dh_model_price(&b, ok, &t, &info, 16, 0, NULL, 1, &m);
    assert_true(fabs(m.own.cfe - 1) < 1e-12);              /* g as a branch: never issued */
    assert_true(fabs(m.own.t_floor - 40) < 1e-9);          /* a warp's chain, 10 x 4 */
    /* as the worker sets them for a table with guarded blocks: the
     * table's instructions and cycles of g */
    double pinst[2] = {0, 2}, pcyc[2] = {0, 8};
    int par[2] = {-1, 0};
    b.pred_inst = pinst;
    b.pred_cost = pcyc;
    b.parent = par;
    dh_model_price(&b, ok, &t, &info, 16, 0, NULL, 1, &m);
    assert_true(fabs(m.own.cfe - 10.0 / 30) < 1e-12);      /* 10 / (10 + 2 x 10) */
    /* a scheduler's 2 warps issue 10 + 20 each: 60 (its latency cycles
     * would have made it 180) */
    assert_true(fabs(m.own.t_floor - 60) < 1e-9);
    assert_true(fabs(m.own.t_weighted - 8 * (40 + 80)) < 1e-9);
}

/* A profiling run of pol (small) on the OpenCL device: its guarded
 * blocks counted as the kernel runs them (a guard never more often
 * than the block around it; a bracket's top read from the policy in
 * every bracket but the last) and, under hand costs, priced as guarded
 * code (the worker hands the table's parents to the model). SKIPPED
 * without an OpenCL device. */
static void profile_pol_guards(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    struct dh_err e = {0};
    struct dh_worker w;
    struct dh_run *runs = profile_small("frontier", "pol", NULL, NULL, NULL, &w);
    const struct dh_bbv *b = &w.bbv;
    const struct dh_bench *pb = runs[0].c.bench;
    int nb = pb->n_blocks;
    assert_int_equal(b->n_blocks, nb);
    int pp[256];
    assert_int_equal(dh_bbv_guard_parents(pb->blocks, nb, pp, &e), 7);
    assert_non_null(b->parent);
    assert_non_null(b->pred_inst);
    for (int k = 0; k < nb; k++)
        assert_int_equal(b->parent[k], pp[k]);
    assert_string_equal(b->costs, "hand");
    int id_one_brk = -1, id_mid = -1, id_x = -1, id_one = -1, id_chr = -1;
    for (int k = 0; k < nb; k++) {
        const char *nm = pb->blocks[k].name;
        id_one_brk = !strcmp(nm, "one_brk") ? k : id_one_brk;
        id_mid = !strcmp(nm, "one_brk_mid") ? k : id_mid;
        id_x = !strcmp(nm, "one_brk_x") ? k : id_x;
        id_one = !strcmp(nm, "one") ? k : id_one;
        id_chr = !strcmp(nm, "one_chr") ? k : id_chr;
    }
    assert_true(id_one_brk >= 0 && id_mid >= 0 && id_x >= 0 && id_one >= 0 && id_chr >= 0);
    long ran = 0, took = 0;
    for (long i = 0; i < b->n_items; i++) {
        const uint32_t *v = b->counts + i * nb;
        /* a guard counts a policy; "one" and "jnt" count both at once */
        for (int k = 0; k < nb; k++)
            if (pp[k] >= 0)
                assert_true(v[k] <= v[pp[k]] * (pb->blocks[pp[k]].name[3] ? 1u : 2u));
        if (v[id_one]) {
            /* two policies, each its bracket loop */
            assert_int_equal(v[id_mid], v[id_one_brk] - 2);
            assert_true(v[id_chr] <= 2);
            ran++;
            took += v[id_x];
        }
    }
    assert_true(ran > 0);
    assert_true(took > 0);                               /* some lanes take the guard */
    const struct dh_model_result *m = &runs[0].r.model;
    assert_true(m->valid);
    assert_string_equal(m->costs, "hand");
    dh_worker_close(&w);
    free(runs);
}

/* bbv/mc's divz blocks: edge e's division (iso - fa) / (fb - fa) with a
 * zero operand, counted per slot exactly as the host finds it in the same
 * volume (mc_vol.c, small: n 64, 64 blobs, seed 1); priced by the
 * latency table's fdivz (NVIDIA's slow path: 38 instructions, nothing on
 * the generic table), they take the modeled CFE at warp 32 from the
 * triangle loop's alone (0.78) to about what CUPTI measures (0.53 at
 * medium on the H100). */
static void profile_mc_divz(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    struct dh_err e = {0};
    struct dh_worker w;
    struct dh_run *runs = profile_small("bbv", "mc", NULL, NULL, NULL, &w);
    const struct dh_bbv *b = &w.bbv;
    const struct dh_bench *mb = runs[0].c.bench;
    int nb = mb->n_blocks;
    assert_int_equal(nb, 14);
    assert_string_equal(mb->blocks[2].name, "divz0");

    /* the same volume and list on the host */
    const int vn = 64;
    const long cap = 24576;
    static struct mc_table t;
    assert_int_equal(mc_table_build(&t), 0);
    unsigned char *vol = malloc((size_t)vn * vn * vn);
    int *vox = malloc(cap * sizeof *vox), *ofs = malloc(cap * sizeof *ofs);
    unsigned char *cls = malloc(cap);
    long nact, nverts;
    mc_vol_make(vol, vn, (long)vn * vn * vn / 4096, 0x3c0be5ULL ^ (1ULL << 24));
    assert_int_equal(mc_vol_compact(vol, vn, &t, cap, 7 * cap, vox, cls, ofs, &nact, &nverts), 0);
    assert_int_equal(b->n_items, cap);
    static const int ends[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                                    {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
    long pl = (long)vn * vn, zero = 0;
    for (long i = 0; i < cap; i++) {
        const uint32_t *c = b->counts + i * nb;
        if (i >= nact) {                                /* padding counts nothing */
            for (int k = 0; k < nb; k++)
                assert_int_equal(c[k], 0);
            continue;
        }
        long v = vox[i];
        int sm[8] = {vol[v], vol[v + 1], vol[v + 1 + vn], vol[v + vn], vol[v + pl],
                     vol[v + pl + 1], vol[v + pl + 1 + vn], vol[v + pl + vn]};
        assert_int_equal(c[0], 1);
        assert_int_equal(c[1], cls[i] / 3);
        for (int k = 0; k < 12; k++) {
            int fa = sm[ends[k][0]], fb = sm[ends[k][1]];
            uint32_t want = fa == fb || fa == MC_ISO;
            if (c[2 + k] != want)
                fprintf(stderr, "slot %ld edge %d: %u counted, %u expected\n", i, k, c[2 + k], want);
            assert_int_equal(c[2 + k], want);
            zero += want;
        }
    }
    assert_true(zero > nact / 10);                      /* the case is common */

    /* priced: 38 instructions on nvidia-sm90, nothing on the generic table */
    struct dh_latency_table lt;
    setenv("DH_LATENCY_TABLE", "generic", 1);
    assert_int_equal(dh_latency_table_for(&w.info, &lt, &e), 0);
    double cy[14], in[14];
    dh_bbv_block_costs(mb->blocks, nb, &lt, cy, in);
    assert_true(in[2] == 0 && cy[2] == 0);
    setenv("DH_LATENCY_TABLE", "nvidia-sm90", 1);
    assert_int_equal(dh_latency_table_for(&w.info, &lt, &e), 0);
    unsetenv("DH_LATENCY_TABLE");
    dh_bbv_block_costs(mb->blocks, nb, &lt, cy, in);
    assert_true(in[2] == 38 && cy[2] == 210);
    struct dh_bbv_metrics with, without;
    dh_bbv_metrics(b, cy, in, NULL, 32, 256, 132, 8, &with);
    for (int k = 2; k < nb; k++)
        cy[k] = in[k] = 0;
    dh_bbv_metrics(b, cy, in, NULL, 32, 256, 132, 8, &without);
    assert_true(without.cfe > 0.75 && without.cfe < 0.80);
    assert_true(with.cfe > 0.50 && with.cfe < 0.60);
    free(vol), free(vox), free(ofs), free(cls);
    dh_worker_close(&w);
    free(runs);
}

/* A division with a zero operand (fdivz) costs its slow path where the
 * division is the IEEE one: CUDA and HIP on an sm_90 device; NVIDIA's
 * OpenCL compiles `/` to div.full.f32 (no slow path), so its table
 * prices it 0; a table named by DH_LATENCY_TABLE is taken as it is. */
static void fdivz_by_platform(void **st)
{
    (void)st;
    struct dh_err e = {0};
    struct dh_latency_table t;
    unsetenv("DH_LATENCY_TABLE");
    struct dh_device_info cuda = {.name = "NVIDIA H100 80GB HBM3", .platform = "CUDA",
                                  .arch = "sm_90", .warp_width = 32};
    struct dh_device_info hip = cuda, ocl = cuda, cpu = {.name = "pthread-AMD EPYC",
                                                         .platform = "Portable Computing Language"};
    snprintf(hip.platform, sizeof hip.platform, "HIP");
    snprintf(ocl.platform, sizeof ocl.platform, "NVIDIA CUDA");
    assert_int_equal(dh_latency_table_for(&cuda, &t, &e), 0);
    assert_string_equal(t.name, "nvidia-sm90");
    assert_true(t.issue[DH_OPC_FDIVZ] == 38 && t.cycles[DH_OPC_FDIVZ] == 210);
    assert_int_equal(dh_latency_table_for(&hip, &t, &e), 0);
    assert_true(t.issue[DH_OPC_FDIVZ] == 38);
    assert_int_equal(dh_latency_table_for(&ocl, &t, &e), 0);
    assert_string_equal(t.name, "nvidia-sm90");
    assert_true(t.issue[DH_OPC_FDIVZ] == 0 && t.cycles[DH_OPC_FDIVZ] == 0);
    assert_true(t.issue[0] == 1);                       /* the rest as before */
    assert_int_equal(dh_latency_table_for(&cpu, &t, &e), 0);
    assert_true(t.issue[DH_OPC_FDIVZ] == 0);
    setenv("DH_LATENCY_TABLE", "nvidia-sm90", 1);      /* named: as it is */
    assert_int_equal(dh_latency_table_for(&ocl, &t, &e), 0);
    assert_true(t.issue[DH_OPC_FDIVZ] == 38);
    assert_int_equal(dh_latency_table_for(&cpu, &t, &e), 0);
    assert_true(t.issue[DH_OPC_FDIVZ] == 38);
    unsetenv("DH_LATENCY_TABLE");
}

/* A benchmark that prefers compiled costs (parboil/lbm) takes them only
 * where they can be had: on the OpenCL CPU device with DH_BLOCK_COSTS
 * unset and no DH_SASS_ARCH, the hand table, quietly; with
 * DH_BLOCK_COSTS=hand always the hand table; with DH_SASS_ARCH=90 the
 * compiled ones where NVRTC and nvdisasm are present. */
static void preferred_costs(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    assert_string_equal(dh_bench_find("parboil", "lbm")->costs, "sass+pred");
    const char *how[3] = {NULL, "hand", NULL};
    for (int k = 0; k < 3; k++) {
        struct dh_worker w;
        struct dh_run *runs = profile_small("parboil", "lbm", "shape=spheres", how[k],
                                            k == 2 ? "90" : NULL, &w);
        const struct dh_model_result *m = &runs[0].r.model;
        assert_true(m->valid);
        if (k < 2)
            assert_string_equal(m->costs, "hand");
        else if (strcmp(m->costs, "hand"))          /* NVRTC here: compiled */
            assert_non_null(strstr(m->costs, "sass+pred"));
        else
            fprintf(stderr, "  (NVRTC or nvdisasm unavailable: the hand table, as it should)\n");
        dh_worker_close(&w);
        free(runs);
    }
}

/* compiled costs replace the table's in the model, and the record says
 * where the costs came from, through the results file and back */
static void model_records_costs(void **st)
{
    (void)st;
    /* 2 items in one warp of 2: item 0 runs block 0, item 1 block 1 */
    uint32_t c[4] = {1, 0, 0, 1};
    double cyc[2] = {3, 30}, inst[2] = {1, 3};
    struct dh_bbv b = {.n_items = 2, .n_blocks = 2, .counts = c};
    struct dh_bb_def blocks[2] = {{"a", {.fp = 1}}, {"b", {.fp = 1}}};
    struct dh_latency_table t;
    struct dh_device_info info = {.warp_width = 2, .compute_units = 1};
    struct dh_err e = {0};
    assert_int_equal(dh_latency_table_for(&info, &t, &e), 0);
    struct dh_model_result hand = {0}, sass = {0};
    dh_model_price(&b, blocks, &t, &info, 2, 0, NULL, 2, &hand);
    assert_string_equal(hand.costs, "hand");
    assert_true(fabs(hand.own.cfe - 0.5) < 1e-12);        /* equal costs: (1+1)/(2x2) */
    b.block_cost = cyc;
    b.block_inst = inst;
    snprintf(b.costs, sizeof b.costs, "sass");
    dh_model_price(&b, blocks, &t, &info, 2, 0, NULL, 2, &sass);
    assert_string_equal(sass.costs, "sass");
    assert_true(fabs(sass.own.cfe - 4.0 / 8) < 1e-12);     /* (1+3)/(2x(1+3)) */
    assert_true(fabs(sass.own.t_weighted - 33) < 1e-9);   /* the cycles given */

    /* sass+pred: block 1 wholly if-converted inside block 0. Two lanes
     * that both skip it: the warp still issues it once per run of block
     * 0, the lanes do no useful work in it */
    uint32_t c2[4] = {1, 0, 1, 0};
    double cyc2[2] = {2, 8}, inst2[2] = {2, 4}, pinst[2] = {0, 4}, pcost[2] = {0, 8};
    int parent[2] = {-1, 0};
    struct dh_bbv bp = {.n_items = 2, .n_blocks = 2, .counts = c2, .block_cost = cyc2,
                        .block_inst = inst2};
    struct dh_model_result plain = {0}, pred = {0};
    dh_model_price(&bp, blocks, &t, &info, 2, 0, NULL, 2, &plain);
    assert_true(fabs(plain.own.cfe - 1.0) < 1e-12);        /* 4 / (2 x 2) */
    bp.pred_inst = pinst;
    bp.pred_cost = pcost;
    bp.parent = parent;
    snprintf(bp.costs, sizeof bp.costs, "sass+pred");
    dh_model_price(&bp, blocks, &t, &info, 2, 0, NULL, 2, &pred);
    assert_string_equal(pred.costs, "sass+pred");
    assert_true(fabs(pred.own.cfe - 4.0 / 12) < 1e-12);    /* 4 / (2 x (2 + 4)) */
    assert_true(fabs(pred.own.t_weighted - (2 + 8)) < 1e-9);
    assert_true(fabs(plain.own.t_weighted - 2) < 1e-9);

    struct dh_run run;
    memset(&run, 0, sizeof run);
    run.c.bench = dh_bench_find("micro", "branch");
    snprintf(run.c.suite, sizeof run.c.suite, "micro");
    snprintf(run.c.bench_name, sizeof run.c.bench_name, "branch");
    snprintf(run.c.variant, sizeof run.c.variant, "baseline");
    snprintf(run.c.backend, sizeof run.c.backend, "opencl");
    snprintf(run.c.device_name, sizeof run.c.device_name, "dev");
    snprintf(run.c.size, sizeof run.c.size, "small");
    run.c.reps = 1;
    dh_case_identity(&run.c);
    assert_int_equal(dh_result_samples(&run.r, 1), 0);   /* compact runs: room for one */
    run.r.n = 1;
    run.r.kernel_ms[0] = 1;
    run.r.verified = 1;
    run.r.model = sass;
    dh_run_derive(&run, 1);
    struct dh_env env;
    char *argv[] = {"harness", "run"};
    dh_env_fill(&env, 2, argv);
    struct dh_devlist devs = {0};
    devs.n = 1;
    snprintf(devs.d[0].backend, 16, "opencl");
    snprintf(devs.d[0].info.name, sizeof devs.d[0].info.name, "dev");
    devs.d[0].info.warp_width = 32;
    char path[] = "/tmp/dh-test-sass-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    int rc = dh_xml_write(path, &env, &devs, &run, 1, &e);
    if (rc)
        fail_msg("%s", e.msg);
    rc = dh_xml_validate(path, &e);
    if (rc)
        fail_msg("%s", e.msg);
    struct dh_resultfile f;
    assert_int_equal(dh_results_load(path, &f, &e), 0);
    assert_int_equal(f.n_runs, 1);
    assert_string_equal(f.runs[0].r.model.costs, "sass");
    dh_resultfile_free(&f);
    dh_run_release(&run);
    unlink(path);
}

/* DH_BLOCK_COSTS other than hand or sass: the case fails naming the
 * choices (needs an OpenCL device, else SKIPPED) */
static void block_costs_choice(void **st)
{
    (void)st;
    char self[4096], exe[4200], dir[] = "/tmp/dh-test-costs-XXXXXX", out[16384];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    assert_true(n > 0);
    self[n] = 0;
    *strrchr(self, '/') = 0;
    snprintf(exe, sizeof exe, "%s/../harness", self);
    if (access(exe, X_OK) || !dh_test_has_device("opencl"))
        skip();
    assert_non_null(mkdtemp(dir));
    const char *a[] = {exe, "run", "--suite", "micro", "--size", "small", "--variant",
                       "baseline", "--param", "paths=2", "--param", "layers=1", "--reps", "1",
                       "--out", dir, NULL};
    setenv("DH_BLOCK_COSTS", "SASS", 1);
    int rc = dh_test_exec(NULL, a, log_costs(), out, sizeof out);
    unsetenv("DH_BLOCK_COSTS");
    assert_int_equal(rc, 3);                    /* a case that could not run */
    assert_non_null(strstr(out, "DH_BLOCK_COSTS=SASS: choose hand"));
    unlink(log_costs());
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(guarded_hand_blocks), cmocka_unit_test(profile_pol_guards),
        cmocka_unit_test(profile_mc_divz),     cmocka_unit_test(fdivz_by_platform),
        cmocka_unit_test(preferred_costs),     cmocka_unit_test(model_records_costs),
        cmocka_unit_test(block_costs_choice),
    };
    return cmocka_run_group_tests_name("costs", t, NULL, NULL);
}
