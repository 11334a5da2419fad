/* test_blocks_cmd.c — `harness blocks`, the built binary: its cost table
 * and usage errors, and on the benchmarks (NVRTC and an nvdisasm that
 * reads its CUBINs, else SKIPPED) each marker's own instructions and the
 * guarded blocks the tables declare found where the compiled code has
 * them. The parser and mapping themselves: test_sass.c. Run from the
 * repository root (the fixtures' paths). */
#include "testutil.h"
#include "../harness/model/bbv.h"
#include "../suites/suite.h"

/* the build's own harness, beside BUILD/tests; SKIPPED without it */
/* the child's output file, this process's own (tests run side by side
 * must not share it) */
static const char *log_blocks(void)
{
    static char p[64];
    if (!p[0])
        snprintf(p, sizeof p, "/tmp/dh-test-blocks-%d.log", (int)getpid());
    return p;
}

static void harness_exe(char *exe, size_t len)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    assert_true(n > 0);
    self[n] = 0;
    char *slash = strrchr(self, '/');
    assert_non_null(slash);
    *slash = 0;
    snprintf(exe, len, "%s/../harness", self);
    if (access(exe, X_OK)) {
        fprintf(stderr, "  (no %s: build the harness first)\n", exe);
        skip();
    }
}

/* `harness blocks ARGS...` (NULL-terminated) into out; SKIPPED where it
 * says NVRTC or nvdisasm is missing (exit 3); its exit status otherwise */
static int blocks(char *out, size_t len, const char *const *args)
{
    char exe[4200];
    harness_exe(exe, sizeof exe);
    const char *argv[24] = {exe, "blocks"};
    int n = 2;
    for (; args[n - 2] && n < 23; n++)
        argv[n] = args[n - 2];
    argv[n] = NULL;
    int rc = dh_test_exec(NULL, argv, log_blocks(), out, len);
    unlink(log_blocks());
    if (rc == 3) {
        fprintf(stderr, "  (NVRTC or nvdisasm unavailable)\n");
        skip();
    }
    return rc;
}

/* A block's row: hand_in hand_cy | sass_in sass_cy static pred loop loops
 * unroll shared pred_in parent; got: the fields read (12 with a parent,
 * 11 where it is "-"). */
struct row {
    double hi, hc, si, sc, pin;
    int stat, pred, loop, unroll, shr, par, got;
    char loops[8];
};

static void block_row(const char *out, const char *name, struct row *r)
{
    char key[64];
    snprintf(key, sizeof key, " %s ", name);
    const char *l = strstr(out, key);
    assert_non_null(l);
    memset(r, 0, sizeof *r);
    r->par = -1;
    r->got = sscanf(l + strlen(key), " %lf %lf | %lf %lf %d %d %d %7s %d %d %lf %d", &r->hi,
                    &r->hc, &r->si, &r->sc, &r->stat, &r->pred, &r->loop, r->loops, &r->unroll,
                    &r->shr, &r->pin, &r->par);
}

/* the command: its cost table, its usage errors, and a listing that is
 * not of the benchmark named */
static void blocks_command(void **st)
{
    (void)st;
    char out[8192], exe[4200];
    harness_exe(exe, sizeof exe);
    const char *costs[] = {exe, "blocks", "--costs", NULL};
    assert_int_equal(dh_test_exec(NULL, costs, log_blocks(), out, sizeof out), 0);
    assert_non_null(strstr(out, "MUFU 8\n"));
    const char *none[] = {exe, "blocks", NULL};
    assert_int_equal(dh_test_exec(NULL, none, log_blocks(), out, sizeof out), 64);
    assert_non_null(strstr(out, "--bench SUITE/BENCH is required"));
    const char *bad[] = {exe, "blocks", "--bench", "micro", NULL};
    assert_int_equal(dh_test_exec(NULL, bad, log_blocks(), out, sizeof out), 64);
    const char *other[] = {exe, "blocks", "--bench", "micro/branch", "--sass",
                           "tests/data/sass/tiny.sass", NULL};
    assert_int_equal(dh_test_exec(NULL, other, log_blocks(), out, sizeof out), 3);
    assert_non_null(strstr(out, "is the listing of this benchmark"));
    unlink(log_blocks());
}

/* micro/branch through NVRTC and nvdisasm: every path's loop and epilogue
 * gets instructions of its own (each marker on its own source line; when
 * one macro marked both on one line, 271 of 312 instructions went to
 * neither). */
static void micro_blocks_own_lines(void **st)
{
    (void)st;
    char out[16384];
    const char *a[] = {"--bench", "micro/branch", "--size", "small", "--param", "paths=2", NULL};
    assert_int_equal(blocks(out, sizeof out, a), 0);
    assert_non_null(strstr(out, " 0 on lines of several blocks"));
    const char *names[] = {"l1_loop0", "l1_loop1", "l1_epi0", "l1_epi1"};
    for (int i = 0; i < 4; i++) {
        struct row r;
        block_row(out, names[i], &r);
        assert_true(r.got >= 5);
        assert_true(r.stat > 0);
        assert_true(r.si > 0);
    }
}

/* frontier/pol: each marker on its own line (no instruction on a line of
 * two blocks), every guarded conditional and marked rate with
 * instructions of its own, the guarded ones (guarded_in in pol.c's table)
 * found by the compiled code inside the block the table names, and the
 * bracket loop's guards priced per iteration (fewer per execution than
 * their static copies). */
static void pol_blocks_own_lines(void **st)
{
    (void)st;
    static char out[65536];
    const char *a[] = {"--bench", "frontier/pol", "--size", "small", NULL};
    assert_int_equal(blocks(out, sizeof out, a), 0);
    assert_non_null(strstr(out, " 0 on lines of several blocks"));
    const struct dh_bench *pb = dh_bench_find("frontier", "pol");
    assert_non_null(pb);
    int parent[256];
    struct dh_err e = {0};
    assert_int_equal(dh_bbv_guard_parents(pb->blocks, pb->n_blocks, parent, &e), 7);
    int checked = 0;
    for (int k = 34; k < pb->n_blocks; k++) {
        struct row r;
        block_row(out, pb->blocks[k].name, &r);
        assert_int_equal(r.got, 12);
        assert_true(r.stat > 0);
        assert_true(r.si > 0);
        if (parent[k] >= 0) {
            assert_int_equal(r.par, parent[k]);
            assert_true(r.pred > 0);
            checked++;
        }
        if (strstr(pb->blocks[k].name, "_brk_"))
            assert_true(r.si < r.stat);
    }
    assert_int_equal(checked, 7);
}

/* A benchmark's guarded_in declarations against its compiled code: for
 * each parameter and kernel given, every declared guarded block's
 * instructions predicated inside the block it names (its parent). The
 * blocks checked. */
static int guarded_as_declared(const char *suite, const char *bench, int want_guarded,
                               const char *const *params, int n_params,
                               const char *const *kernels, int n_kernels)
{
    static char out[65536];
    char name[96];
    const struct dh_bench *sb = dh_bench_find(suite, bench);
    assert_non_null(sb);
    int parent[256];
    struct dh_err e = {0};
    assert_int_equal(dh_bbv_guard_parents(sb->blocks, sb->n_blocks, parent, &e), want_guarded);
    snprintf(name, sizeof name, "%s/%s", suite, bench);
    int checked = 0;
    for (int i = 0; i < n_params; i++)
        for (int j = 0; j < n_kernels; j++) {
            const char *a[] = {"--bench", name, "--size", "small", "--param", params[i],
                               "--kernel", kernels[j], NULL};
            assert_int_equal(blocks(out, sizeof out, a), 0);
            for (int k = 0; k < sb->n_blocks; k++) {
                if (parent[k] < 0)
                    continue;
                struct row r;
                block_row(out, sb->blocks[k].name, &r);
                if (r.stat == 0)        /* the other kernel's block */
                    continue;
                assert_int_equal(r.got, 12);
                assert_int_equal(r.par, parent[k]);
                assert_true(r.pred > 0 && 2 * r.pred >= r.stat);
                checked++;
            }
        }
    return checked;
}

/* rodinia/srad: its six halo loads are guarded in their kernel's common
 * block at both tile sizes (ncu: every warp issues them, about one lane
 * on); darm/bit: the ascending side's swap is if-converted inside it at
 * every segment size (the descending side's is branched around); pcm's
 * lo and hi runs inside their sides. */
static void guarded_blocks_as_compiled(void **st)
{
    (void)st;
    const char *sbs[] = {"bs=16", "bs=32"}, *sk[] = {"sr_k1_base", "sr_k2_base"};
    assert_int_equal(guarded_as_declared("rodinia", "srad", 6, sbs, 2, sk, 2), 12);
    const char *bbs[] = {"bs=32", "bs=256"}, *bk[] = {"bt_base"};
    assert_int_equal(guarded_as_declared("darm", "bit", 1, bbs, 2, bk, 1), 2);
    /* darm/pcm: each side's lo and hi runs if-converted inside the side
     * (ncu: @P / @!P pairs, about half the side's lanes on each) */
    const char *pk[] = {"pc_base"};
    assert_int_equal(guarded_as_declared("darm", "pcm", 4, bbs, 2, pk, 1), 8);
}

/* token k (0: the id) of block `name`'s row, into tok */
static void row_token(const char *out, const char *name, int k, char *tok, size_t len)
{
    char key[64];
    snprintf(key, sizeof key, " %s ", name);
    const char *l = strstr(out, key);
    assert_non_null(l);
    while (l > out && l[-1] != '\n')
        l--;
    tok[0] = 0;
    for (int i = 0; i <= k; i++) {
        while (*l == ' ')
            l++;
        assert_true(*l && *l != '\n');
        size_t n = strcspn(l, " \n");
        if (i == k)
            snprintf(tok, len, "%.*s", (int)n, l);
        l += n;
    }
}

/* rodinia/bfs: the expansion's code is its own (its marker opens the
 * branch; when the mask store and the loads stood before it, the listing
 * gave `expand` no instruction and the compiled costs were 20 points
 * off), and the table's `each` shows: discover is decided in each trip
 * of edge (block 2) */
static void bfs_blocks_expand_and_each(void **st)
{
    (void)st;
    char out[16384], tok[32];
    const char *a[] = {"--bench", "rodinia/bfs", NULL};
    assert_int_equal(blocks(out, sizeof out, a), 0);
    struct row r;
    block_row(out, "expand", &r);
    assert_true(r.got >= 5);
    assert_true(r.stat > 0);
    assert_non_null(strstr(out, "pred_in parent each N\n"));
    row_token(out, "discover", 15, tok, sizeof tok);
    assert_string_equal(tok, "2");
    row_token(out, "expand", 15, tok, sizeof tok);
    assert_string_equal(tok, "-");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(blocks_command),
        cmocka_unit_test(micro_blocks_own_lines),
        cmocka_unit_test(pol_blocks_own_lines),
        cmocka_unit_test(guarded_blocks_as_compiled),
        cmocka_unit_test(bfs_blocks_expand_and_each),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
