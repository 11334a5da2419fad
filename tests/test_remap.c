/* test_remap.c — the on-GPU remap library (suites/lib/tdr.h) on real
 * devices, with checks an identity remap cannot pass: for random paths,
 * every remap is a permutation of the work-group's items, each lane's new
 * path is its item's path, each work-group holds at most P-1 path
 * boundaries (so at most P-1 mixed warps, checked for warp widths 8 and
 * 32), DGI forms are stable within a path, and a uniform group is left as
 * it is. Runs on every backend with a device: OpenCL (hot, dgi) and, where
 * present, CUDA and HIP (also hot_warp, dgi_scan; on AMD only with
 * DH_HIP_WARP_VOTES=1). The multi-item forms likewise (count_multi
 * everywhere, scan_multi and adapt_scan where votes are), with adapt_scan's
 * decision recounted on the host. SKIPPED where none. */
#include "testutil.h"

extern const char dh_src_lib_dialect[];
extern const char dh_src_lib_tdr[];

static const char *kernel =
    "#if ALG == 1 || ALG == 3\n#define SHM DH_TDR_HOT_INTS\n"
    "#elif ALG == 4\n#define SHM DH_TDR_SCAN_INTS(TP)\n#else\n#define SHM DH_TDR_DGI_INTS(TP, TNF)\n#endif\n"
    "DH_KERNEL void remap_test(DH_CONST int *path, DH_GLOBAL int *src_out, DH_GLOBAL int *np_out)\n"
    "{\n"
    "    DH_LOCAL int shm[SHM];\n"
    "    int lid = dh_lid(), base = dh_grp() * DH_WG, np = -1, src;\n"
    "    int p = path[base + lid];\n"
    "#if ALG == 1\n    src = dh_tdr_hot(lid, p, shm, &np);\n"
    "#elif ALG == 2\n    src = dh_tdr_dgi(lid, p, TP, TNF, shm, &np);\n"
    "#elif ALG == 3\n    src = dh_tdr_hot_warp(lid, p, shm, &np);\n"
    "#else\n    src = dh_tdr_dgi_scan(lid, p, TP, shm, &np);\n#endif\n"
    "    src_out[base + lid] = src;\n"
    "    np_out[base + lid] = np;\n"
    "}\n";

/* the multi-item forms: lane lid's k-th slot is item base + k * DH_WG + lid;
 * out[base + j] = map[j], flag[group] = the form's return */
static const char *kernel_multi =
    "#define S (DH_WG * IPL)\n"
    "DH_KERNEL void remap_multi(DH_CONST int *path, DH_GLOBAL int *out, DH_GLOBAL int *flag)\n"
    "{\n"
    "    DH_LOCAL int shm[DH_TDR_MULTI_INTS(TP)];\n"
    "    DH_LOCAL int map[S];\n"
    "    int lid = dh_lid(), base = dh_grp() * S, r;\n"
    "    for (int k = 0; k < IPL; k++)\n"
    "        map[k * DH_WG + lid] = path[base + k * DH_WG + lid];\n"
    "#if ALG == 9\n    r = dh_tdr_scan_multi(lid, IPL, TP, map, shm);\n"
    "#elif ALG == 10\n    r = dh_tdr_count_multi(lid, IPL, TP, map, shm);\n"
    "#else\n    r = dh_tdr_adapt_scan(lid, IPL, TP, MINSAVE, map, shm);\n#endif\n"
    "    for (int k = 0; k < IPL; k++)\n"
    "        out[base + k * DH_WG + lid] = map[k * DH_WG + lid];\n"
    "    if (lid == 0)\n        flag[dh_grp()] = r;\n"
    "}\n";

static uint64_t rng_state = 12345;
static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(rng_state >> 33);
}

struct bk {
    const struct dh_backend_ops *be;
    struct dh_device *dev;
    struct dh_device_info info;
};

static int open_backend(const char *name, struct bk *b)
{
    memset(b, 0, sizeof *b);
    b->be = dh_backend_find(name);
    int n = 0;
    struct dh_err e = {0};
    if (!b->be || getenv("DH_TEST_QUICK") || b->be->probe(&n, NULL, 0, &e) || n == 0)
        return 0;
    return b->be->describe(0, &b->info, &e) == 0 && b->be->open(0, &b->dev, &e) == 0;
}

/* One configuration; returns number of groups checked. */
static int check_config(struct bk *b, int alg, int wg, int P, int nf, int warp)
{
    const int groups = 24;
    int n = wg * groups;
    char opts[256];
    snprintf(opts, sizeof opts, "-D DH_WG=%d -D DH_WAVE=%d -D ALG=%d -D TP=%d -D TNF=%d", wg,
             b->info.warp_width, alg, P, nf);
    size_t len = strlen(dh_src_lib_dialect) + strlen(dh_src_lib_tdr) + strlen(kernel) + 4;
    char *src = malloc(len);
    snprintf(src, len, "%s\n%s\n%s", dh_src_lib_dialect, dh_src_lib_tdr, kernel);
    struct dh_program *prog = NULL;
    struct dh_err e = {0};
    char *log = NULL;
    int rc = b->be->build(b->dev, src, opts, &prog, &log, NULL, &e);
    if (rc)
        fprintf(stderr, "build %s: %s\n%s\n", opts, e.msg, log ? log : "");
    free(log);
    free(src);
    assert_int_equal(rc, 0);
    int *path = malloc((size_t)n * 4), *so = malloc((size_t)n * 4), *po = malloc((size_t)n * 4);
    for (int g = 0; g < groups; g++) {
        int mode = g % 4;       /* random, uniform, few of one path, runs */
        int u = (int)(rnd() % (unsigned)P);
        for (int i = 0; i < wg; i++) {
            int v = (int)(rnd() % (unsigned)P);
            path[g * wg + i] = mode == 1 ? u : mode == 2 ? (rnd() % 16 ? u : v)
                               : mode == 3 ? (i / 8) % P : v;
        }
    }
    struct dh_buffer *bp, *bs, *bn;
    assert_int_equal(b->be->alloc(b->dev, (size_t)n * 4, &bp, &e), 0);
    assert_int_equal(b->be->alloc(b->dev, (size_t)n * 4, &bs, &e), 0);
    assert_int_equal(b->be->alloc(b->dev, (size_t)n * 4, &bn, &e), 0);
    assert_int_equal(b->be->copy(bp, path, (size_t)n * 4, DH_TO_DEVICE, &e), 0);
    struct dh_arg args[3] = {{.kind = DH_ARG_BUFFER, .v.buf = bp},
                             {.kind = DH_ARG_BUFFER, .v.buf = bs},
                             {.kind = DH_ARG_BUFFER, .v.buf = bn}};
    struct dh_launch l = {.kernel = "remap_test", .global = (size_t)n, .local = (size_t)wg,
                          .n_args = 3, .args = args};
    rc = b->be->launch(prog, &l, NULL, &e);
    if (rc)
        fprintf(stderr, "launch: %s\n", e.msg);
    assert_int_equal(rc, 0);
    assert_int_equal(b->be->copy(bs, so, (size_t)n * 4, DH_TO_HOST, &e), 0);
    assert_int_equal(b->be->copy(bn, po, (size_t)n * 4, DH_TO_HOST, &e), 0);
    int stable = alg == 2 || alg == 4;
    for (int g = 0; g < groups; g++) {
        const int *p = path + g * wg, *s = so + g * wg, *np = po + g * wg;
        char seen[1024] = {0};
        int counts[16] = {0};
        for (int i = 0; i < wg; i++)
            counts[p[i]]++;
        int uniform = 0;
        for (int q = 0; q < P; q++)
            uniform |= counts[q] == wg;
        int boundaries = 0, mixed = 0, last_src[16];
        for (int q = 0; q < 16; q++)
            last_src[q] = -1;
        for (int i = 0; i < wg; i++) {
            assert_true(s[i] >= 0 && s[i] < wg);
            assert_false(seen[s[i]]);                 /* a permutation */
            seen[s[i]] = 1;
            assert_int_equal(np[i], p[s[i]]);         /* the item's own path */
            if (i && np[i] != np[i - 1])
                boundaries++;
            if (stable) {
                assert_true(s[i] > last_src[np[i]]);  /* order kept within a path */
                last_src[np[i]] = s[i];
            }
            if (uniform)
                assert_int_equal(s[i], i);            /* skip: identity */
        }
        assert_true(boundaries <= P - 1);
        for (int w = 0; w < wg; w += warp) {
            int m = 0;
            for (int i = w + 1; i < w + warp && i < wg; i++)
                m |= np[i] != np[w];
            mixed += m;
        }
        assert_true(mixed <= P - 1);
    }
    b->be->free_buffer(bp);
    b->be->free_buffer(bs);
    b->be->free_buffer(bn);
    b->be->free_program(prog);
    free(path);
    free(so);
    free(po);
    return groups;
}

/* The multi-item forms (alg 9 scan_multi, 10 count_multi, 11 adapt_scan
 * with min_save): a permutation of the group's S = wg * ipl items, each
 * with its own path, at most P-1 path boundaries in the sorted order (so
 * at most P-1 mixed warp-items for any warp width dividing wg), uniform
 * groups kept as they are; adapt_scan remaps exactly where the saving
 * counted on the host (mixed warp-items' extra paths before, boundaries
 * inside a warp-item after) is positive and reaches min_save. */
static int check_multi(struct bk *b, int alg, int wg, int ipl, int P, int min_save)
{
    const int groups = 16, S = wg * ipl, W = b->info.warp_width;
    int n = S * groups;
    char opts[256];
    snprintf(opts, sizeof opts, "-D DH_WG=%d -D DH_WAVE=%d -D ALG=%d -D TP=%d -D IPL=%d "
             "-D MINSAVE=%d", wg, W, alg, P, ipl, min_save);
    size_t len = strlen(dh_src_lib_dialect) + strlen(dh_src_lib_tdr) + strlen(kernel_multi) + 4;
    char *src = malloc(len);
    snprintf(src, len, "%s\n%s\n%s", dh_src_lib_dialect, dh_src_lib_tdr, kernel_multi);
    struct dh_program *prog = NULL;
    struct dh_err e = {0};
    char *log = NULL;
    int rc = b->be->build(b->dev, src, opts, &prog, &log, NULL, &e);
    if (rc)
        fprintf(stderr, "build %s: %s\n%s\n", opts, e.msg, log ? log : "");
    free(log);
    free(src);
    assert_int_equal(rc, 0);
    int *path = malloc((size_t)n * 4), *out = malloc((size_t)n * 4), flag[16];
    for (int g = 0; g < groups; g++) {
        int mode = g % 5;       /* random, uniform, few of one path, runs, warp-aligned runs */
        int u = (int)(rnd() % (unsigned)P);
        for (int i = 0; i < S; i++) {
            int v = (int)(rnd() % (unsigned)P);
            path[g * S + i] = mode == 1 ? u : mode == 2 ? (rnd() % 16 ? u : v)
                              : mode == 3 ? (i / 8) % P : mode == 4 ? (i / W) % P : v;
        }
    }
    struct dh_buffer *bp, *bo, *bf;
    assert_int_equal(b->be->alloc(b->dev, (size_t)n * 4, &bp, &e), 0);
    assert_int_equal(b->be->alloc(b->dev, (size_t)n * 4, &bo, &e), 0);
    assert_int_equal(b->be->alloc(b->dev, sizeof flag, &bf, &e), 0);
    assert_int_equal(b->be->copy(bp, path, (size_t)n * 4, DH_TO_DEVICE, &e), 0);
    struct dh_arg args[3] = {{.kind = DH_ARG_BUFFER, .v.buf = bp},
                             {.kind = DH_ARG_BUFFER, .v.buf = bo},
                             {.kind = DH_ARG_BUFFER, .v.buf = bf}};
    struct dh_launch l = {.kernel = "remap_multi", .global = (size_t)(n / ipl),
                          .local = (size_t)wg, .n_args = 3, .args = args};
    rc = b->be->launch(prog, &l, NULL, &e);
    if (rc)
        fprintf(stderr, "launch: %s\n", e.msg);
    assert_int_equal(rc, 0);
    assert_int_equal(b->be->copy(bo, out, (size_t)n * 4, DH_TO_HOST, &e), 0);
    assert_int_equal(b->be->copy(bf, flag, sizeof flag, DH_TO_HOST, &e), 0);
    char *seen = malloc((size_t)S);
    int remapped = 0;
    for (int g = 0; g < groups; g++) {
        const int *p = path + g * S, *o = out + g * S;
        int counts[64] = {0}, uniform = 0, boundaries = 0;
        for (int i = 0; i < S; i++)
            counts[p[i]]++;
        for (int q = 0; q < P; q++)
            uniform |= counts[q] == S;
        /* the saving as the form counts it: warp-items of W lanes */
        int before = 0, inside = 0, start = 0;
        for (int k = 0; k < ipl; k++)
            for (int w = 0; w < wg; w += W) {
                int has[64] = {0}, d = 0;
                for (int l2 = 0; l2 < W; l2++)
                    d += !has[p[k * wg + w + l2]]++;
                before += d - 1;
            }
        for (int q = 0; q < P; q++) {
            inside += counts[q] && start && start % W;
            start += counts[q];
        }
        int want = !uniform && (alg != 11 || (before - inside > 0 && before - inside >= min_save));
        assert_int_equal(flag[g], want);
        remapped += want;
        memset(seen, 0, (size_t)S);
        for (int j = 0; j < S; j++) {
            int sj = o[j] & 0xffff, pj = o[j] >> 16;
            assert_true(sj >= 0 && sj < S);
            assert_false(seen[sj]);                   /* a permutation */
            seen[sj] = 1;
            assert_int_equal(pj, p[sj]);              /* the item's own path */
            if (!want)
                assert_int_equal(sj, j);              /* kept: identity */
            if (j && pj != (o[j - 1] >> 16))
                boundaries++;
        }
        if (want) {
            assert_true(boundaries <= P - 1);
            for (int warp = 8; warp <= 32; warp *= 4) {
                int mixed = 0;
                for (int j = 0; j < S; j += warp) {
                    int m = 0;
                    for (int i = j + 1; i < j + warp; i++)
                        m |= (o[i] >> 16) != (o[j] >> 16);
                    mixed += m;
                }
                assert_true(mixed <= P - 1);
            }
        }
    }
    /* a random group pays a remap once it spans two warp-items or more
     * (within one, the sorted order keeps a boundary inside: no saving) */
    if (alg != 11 || (min_save == 0 && S >= 2 * W))
        assert_true(remapped > 0);
    free(seen);
    b->be->free_buffer(bp);
    b->be->free_buffer(bo);
    b->be->free_buffer(bf);
    b->be->free_program(prog);
    free(path);
    free(out);
    return groups;
}

static int run_multi(struct bk *b, int fast)
{
    int checked = 0;
    const int wgs[] = {32, 64, 256};
    const int Ps[] = {2, 3, 4, 8, 16};
    const int ipls[] = {1, 2, 4, 16};
    for (int wi = 0; wi < 3; wi++)
        for (int pi = 0; pi < 5; pi++)
            for (int ii = 0; ii < 4; ii++) {
                int wg = wgs[wi], P = Ps[pi], ipl = ipls[ii];
                if (wg % b->info.warp_width || P > b->info.warp_width)
                    continue;
                checked += check_multi(b, 10, wg, ipl, P, -1);
                if (!fast)
                    continue;
                checked += check_multi(b, 9, wg, ipl, P, -1);
                checked += check_multi(b, 11, wg, ipl, P, 0);
                checked += check_multi(b, 11, wg, ipl, P, 3 * ipl);
            }
    return checked;
}

static void run_backend(const char *name, int fast)
{
    struct bk b;
    if (!open_backend(name, &b)) {
        fprintf(stderr, "  (no %s device)\n", name);
        skip();
        return;
    }
    int checked = 0;
    const int wgs[] = {32, 64, 256};
    const int Ps[] = {2, 3, 4, 8};
    for (int wi = 0; wi < 3; wi++)
        for (int pi = 0; pi < 4; pi++)
            for (int alg = 1; alg <= (fast ? 4 : 2); alg++) {
                int P = Ps[pi], wg = wgs[wi];
                if ((alg == 1 || alg == 3) && P != 2)
                    continue;
                if (alg >= 3 && wg % b.info.warp_width)
                    continue;
                for (int nf = 1; nf <= 16; nf *= 4) {
                    if (alg != 2 && nf > 1)
                        break;
                    for (int warp = 8; warp <= 32; warp *= 4)
                        if (warp <= wg)
                            checked += check_config(&b, alg, wg, P, nf, warp);
                }
            }
    checked += run_multi(&b, fast);
    fprintf(stderr, "  %s: %d work-groups checked\n", name, checked);
    assert_true(checked > 0);
    b.be->close(b.dev);
}

static void remap_opencl(void **st)
{
    (void)st;
    run_backend("opencl", 0);
}

static void remap_cuda(void **st)
{
    (void)st;
    if (!dh_backend_find("cuda")) {
        fprintf(stderr, "  (built without the CUDA backend)\n");
        skip();
        return;
    }
    run_backend("cuda", 1);
}

#ifdef DH_HAVE_HIP
#include "../backends/hip/hip_plugin.h"
#endif

/* HIP: the warp-vote forms too, except on AMD where the backend leaves
 * them off unless DH_HIP_WARP_VOTES=1 (backends/hip/README.md). */
static void remap_hip(void **st)
{
    (void)st;
#ifdef DH_HAVE_HIP
    const char *votes = getenv("DH_HIP_WARP_VOTES");
    int amd = !strcmp(dh_hip_plugin_platform(), "amd");
    run_backend("hip", amd ? votes && !strcmp(votes, "1") : !(votes && !strcmp(votes, "0")));
#else
    fprintf(stderr, "  (built without the HIP backend)\n");
    skip();
#endif
}

int main(void)
{
    setenv("DH_CACHE_DIR", "/tmp/dh-test-cache", 0);
    const struct CMUnitTest t[] = {cmocka_unit_test(remap_opencl), cmocka_unit_test(remap_cuda),
                                   cmocka_unit_test(remap_hip)};
    return cmocka_run_group_tests_name("remap", t, NULL, NULL);
}
