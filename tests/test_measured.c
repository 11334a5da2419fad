/* test_measured.c — block costs from per-instruction counts
 * (harness/model/measured.h): counts made up for the committed listing
 * tests/data/sass/tiny.sass (of tiny.cu) and for a small listing with a
 * subroutine two blocks call, checked against what the listing's own
 * mapping says (harness/model/sasscost.h) and against hand sums. The
 * counts a device gives (CUPTI's SASS metrics) need a CUDA GPU: the
 * H100 runs of docs/model.md. Run from the repository root. */
#include <math.h>

#include "testutil.h"
#include "../harness/model/measured.h"
#include "../harness/model/sass.h"
#include "../harness/model/sasscost.h"

#define NB 6

/* Every issued instruction of tiny_baseline counted once a warp of 32
 * lanes, a predicated one with half its lanes on: padding and the
 * self-branch after EXIT never run. */
static struct dh_pc_count *tiny_counts(const char *lst, long *n)
{
    struct dh_sass s;
    struct dh_err e = {0};
    assert_int_equal(dh_sass_parse(lst, &s, &e), 0);
    struct dh_pc_count *pc = calloc((size_t)s.n, sizeof *pc);
    assert_non_null(pc);
    *n = 0;
    for (int i = 0; i < s.n; i++) {
        const struct dh_sass_inst *in = &s.v[i];
        if (!strcmp(in->op, "NOP") || (!strcmp(in->op, "BRA") && in->target == (long)in->addr))
            continue;
        struct dh_pc_count *p = &pc[(*n)++];
        snprintf(p->func, sizeof p->func, "%s", s.funcs[in->func]);
        p->pc = in->addr;
        p->inst = 1;
        p->thread = 32;
        p->pred_on = in->pred && !dh_sass_op_is_branch(in->op) ? 16 : 32;
    }
    dh_sass_free(&s);
    return pc;
}

/* With each block run by 32 lanes and each instruction by one warp, a
 * block's measured instructions an execution are the listing's static
 * ones, and its useful ones lose half of each guarded instruction. */
static void tiny_blocks(void **st)
{
    (void)st;
    char *lst = dh_test_slurp("tests/data/sass/tiny.sass", NULL);
    char *src = dh_test_slurp("tests/data/sass/tiny.cu", NULL);
    long n = 0;
    struct dh_pc_count *pc = tiny_counts(lst, &n);
    struct dh_sass_costs c;
    struct dh_err e = {0};
    assert_int_equal(dh_sass_costs_listing(lst, src, "", NULL, NB, &c, &e), 0);
    double lanes[NB];
    for (int k = 0; k < NB; k++)
        lanes[k] = 32;
    struct dh_measured m;
    int rc = dh_measured_costs(lst, src, "", pc, n, lanes, NULL, NULL, NB, &m, &e);
    if (rc)
        fprintf(stderr, "%s\n", e.msg);
    assert_int_equal(rc, 0);
    assert_int_equal(m.funcs, 1);
    assert_int_equal(m.unmatched, 0);
    int some_pred = 0;
    for (int k = 0; k < NB; k++) {
        assert_true(m.priced[k]);
        assert_true(fabs(m.inst[k] - c.b[k].insts) < 1e-9);
        assert_true(fabs(m.useful[k] - (c.b[k].insts - 0.5 * c.b[k].predicated)) < 1e-9);
        assert_true(fabs(m.cycles[k] - c.b[k].cost) < 1e-9);
        assert_true(m.thread_moved == 0);
        some_pred |= c.b[k].predicated > 0;
    }
    assert_true(some_pred);                   /* the fixture's guarded store */
    /* every counted instruction is somewhere: in blocks or outside them */
    assert_true(m.thread_total == 32.0 * n);
    assert_true(m.thread_blocks <= m.thread_total && m.thread_blocks > 0);
    dh_measured_free(&m);

    /* T_SIDE (1) declared guarded in T_ENTRY (0): without the model's
     * warp counts, its code is the entry's */
    int parent[NB] = {-1, 0, -1, -1, -1, -1};
    assert_int_equal(dh_measured_costs(lst, src, "", pc, n, lanes, NULL, parent, NB, &m, &e), 0);
    assert_true(fabs(m.inst[0] - (c.b[0].insts + c.b[1].insts)) < 1e-9);
    assert_true(m.inst[1] == 0 && m.priced[1]);
    assert_true(fabs(m.thread_moved - 32.0 * c.b[1].insts) < 1e-9);
    dh_measured_free(&m);

    /* With them, the counts decide. T_SIDE run by 8 lanes a warp
     * execution, the entry by 32: its instructions issued with 32 lanes
     * active ran as the entry's (if-converted), ... */
    double warps[NB];
    for (int k = 0; k < NB; k++)
        warps[k] = 1;
    lanes[1] = 8;
    assert_int_equal(dh_measured_costs(lst, src, "", pc, n, lanes, warps, NULL, NB, &m, &e), 0);
    assert_true(fabs(m.inst[0] - (c.b[0].insts + c.b[1].insts)) < 1e-9);
    assert_true(m.inst[1] == 0);
    dh_measured_free(&m);
    /* ... and with 8 active, as its own (a branch around it) */
    for (long i = 0; i < n; i++)
        pc[i].thread = 8, pc[i].pred_on = 8;
    for (int k = 0; k < NB; k++)
        lanes[k] = 8;
    warps[0] = 0.25;
    assert_int_equal(dh_measured_costs(lst, src, "", pc, n, lanes, warps, NULL, NB, &m, &e), 0);
    assert_true(fabs(m.inst[1] - c.b[1].insts) < 1e-9);
    assert_true(m.thread_moved == 0);
    dh_measured_free(&m);
    free(pc);
    pc = tiny_counts(lst, &n);
    for (int k = 0; k < NB; k++)
        lanes[k] = 32;

    /* an entry instruction run by exactly T_HELP's 8 lanes, and issued
     * as often as the model counts T_HELP's warp executions, stays the
     * entry's: T_HELP has code of its own (only a block without moves so:
     * slow_path_call) */
    {
        struct dh_sass s;
        struct dh_bb_markers mk;
        assert_int_equal(dh_sass_parse(lst, &s, &e), 0);
        assert_int_equal(dh_bb_markers_scan(src, "", &mk, &e), 0);
        long at = -1;
        for (long i = 0; i < n; i++)
            for (int j = 0; j < s.n; j++) {
                if (s.v[j].addr != pc[i].pc)
                    continue;
                int b = dh_sass_block_of(&s, &s.v[j], &mk, NULL);
                if (b == 3)
                    pc[i].thread = pc[i].pred_on = 8, pc[i].inst = 2;
                else if (b == 0 && at < 0 && !s.v[j].pred)
                    at = i;
            }
        assert_true(at >= 0);
        dh_sass_free(&s);
        dh_bb_markers_free(&mk);
        for (int k = 0; k < NB; k++)
            lanes[k] = 32, warps[k] = 1;
        lanes[3] = 8;
        warps[3] = 2;
        pc[at].thread = pc[at].pred_on = 8;
        pc[at].inst = 2;
        assert_int_equal(dh_measured_costs(lst, src, "", pc, n, lanes, warps, NULL, NB, &m, &e), 0);
        assert_true(fabs(m.inst[3] - c.b[3].insts) < 1e-9);
        assert_true(fabs(m.inst[0] - (c.b[0].insts - 1 + 8.0 / 32)) < 1e-9);
        dh_measured_free(&m);
        free(pc);
        pc = tiny_counts(lst, &n);
        for (int k = 0; k < NB; k++)
            lanes[k] = 32;
    }

    /* a block no lane ran is not priced; code of it that ran did so as
     * the block around's (T_LOOP's, in the entry); with no lane of that
     * either, the counts are said unpriced */
    lanes[2] = 0;
    assert_int_equal(dh_measured_costs(lst, src, "", pc, n, lanes, NULL, NULL, NB, &m, &e), 0);
    assert_false(m.priced[2]);
    assert_true(fabs(m.thread_moved - 32.0 * c.b[2].insts) < 1e-9);
    assert_true(fabs(m.inst[0] - (c.b[0].insts + c.b[2].insts)) < 1e-9);
    assert_true(m.thread_unpriced == 0);
    dh_measured_free(&m);
    lanes[0] = 0;
    assert_int_equal(dh_measured_costs(lst, src, "", pc, n, lanes, NULL, NULL, NB, &m, &e), 0);
    assert_false(m.priced[0] || m.priced[2]);
    assert_true(fabs(m.thread_unpriced - 32.0 * (c.b[0].insts + c.b[2].insts)) < 1e-9);
    dh_measured_free(&m);
    dh_sass_costs_free(&c);
    free(pc);
    free(lst);
    free(src);
}

/* Counts of code the listing does not hold (another build ran) are an
 * error naming the first, never costs: an address off the listing, or a
 * function it lacks. Zero counts there are ignored (a patched function
 * that did not run). */
static void other_build_refused(void **st)
{
    (void)st;
    char *lst = dh_test_slurp("tests/data/sass/tiny.sass", NULL);
    char *src = dh_test_slurp("tests/data/sass/tiny.cu", NULL);
    long n = 0;
    struct dh_pc_count *pc = tiny_counts(lst, &n);
    double lanes[NB] = {32, 32, 32, 32, 32, 32};
    struct dh_measured m;
    struct dh_err e = {0};
    pc[3].pc += 4;                            /* between two instructions */
    assert_int_equal(dh_measured_costs(lst, src, "", pc, n, lanes, NULL, NULL, NB, &m, &e),
                     -DH_E_DATA);
    assert_non_null(strstr(e.msg, "another build"));
    assert_non_null(strstr(e.msg, "tiny_baseline+0x"));
    assert_null(m.inst);
    pc[3].pc -= 4;
    snprintf(pc[0].func, sizeof pc[0].func, "other_kernel");
    memset(&e, 0, sizeof e);
    assert_int_equal(dh_measured_costs(lst, src, "", pc, n, lanes, NULL, NULL, NB, &m, &e),
                     -DH_E_DATA);
    assert_non_null(strstr(e.msg, "other_kernel"));
    pc[0].inst = pc[0].thread = pc[0].pred_on = 0;
    assert_int_equal(dh_measured_costs(lst, src, "", pc, n, lanes, NULL, NULL, NB, &m, &e), 0);
    dh_measured_free(&m);
    free(pc);
    free(lst);
    free(src);
}

/* A subroutine two blocks call (a 64-bit division): its counts go to the
 * callers in proportion to the lanes of each call. */
static void subroutine_split(void **st)
{
    (void)st;
    const char *src = "#line 1 \"a.k\"\n"
                      "DH_KERNEL void k(void)\n"
                      "{\n"
                      "    DH_BB(0); y = a / b;\n"
                      "    if (c) {\n"
                      "        DH_BB(1); z = a / c;\n"
                      "    }\n"
                      "}\n";
    const char *lst =
        "\t.section\t.text.k,\"ax\",@progbits\n"
        "\t//## File \"/src/a.k\", line 4\n"
        "        /*0000*/                   FFMA R1, R1, R1, R1 ;\n"
        "        /*0010*/                   CALL.REL.NOINC `($__internal_0_$__cuda_sm20_div_s64) ;\n"
        "\t//## File \"/src/a.k\", line 6\n"
        "        /*0020*/                   CALL.REL.NOINC `($__internal_0_$__cuda_sm20_div_s64) ;\n"
        "        /*0030*/                   EXIT ;\n"
        "$__internal_0_$__cuda_sm20_div_s64:\n"
        "        /*0040*/                   I2F.U64.RP R2, R4 ;\n"
        "        /*0050*/                   MUFU.RCP R2, R2 ;\n"
        "        /*0060*/                   RET.REL.NODEC R16 `(k) ;\n";
    struct dh_pc_count pc[] = {
        {"k", 0x00, 3, 96, 96},  {"k", 0x10, 3, 96, 96},  {"k", 0x20, 1, 32, 32},
        {"k", 0x30, 0, 0, 0},     {"k", 0x40, 4, 128, 64}, {"k", 0x50, 4, 128, 128},
        {"k", 0x60, 4, 128, 128},
    };
    double lanes[2] = {96, 32};
    struct dh_measured m;
    struct dh_err e = {0};
    int rc = dh_measured_costs(lst, src, "", pc, 7, lanes, NULL, NULL, 2, &m, &e);
    if (rc)
        fprintf(stderr, "%s\n", e.msg);
    assert_int_equal(rc, 0);
    /* block 0: FFMA + CALL (96 each) + 3/4 of the subroutine's 384 */
    assert_true(fabs(m.inst[0] - (96 + 96 + 288) / 96.0) < 1e-9);
    /* block 1: CALL (32) + 1/4 of 384 */
    assert_true(fabs(m.inst[1] - (32 + 96) / 32.0) < 1e-9);
    /* the I2F's predicated-off half is not useful: 1/4 of its 64 off in
     * block 1, 3/4 in block 0 */
    assert_true(fabs(m.useful[1] - (32 + 96 - 16) / 32.0) < 1e-9);
    assert_true(fabs(m.useful[0] - (96 + 96 + 288 - 48) / 96.0) < 1e-9);
    /* cycles: I2F 8, MUFU 8, the rest 1 (sass.c's table) */
    assert_true(fabs(m.cycles[1] - (32 + 96.0 / 3 * (8 + 8 + 1)) / 32.0) < 1e-9);
    assert_true(m.thread_blocks == m.thread_total);
    dh_measured_free(&m);
}

/* A slow path under a test the profiling build marks as a block with no
 * code (bbv/mc's divz): code run by exactly that block's lanes and
 * issued as often as the model counts its warp executions is that
 * block's, a call with its subroutine; with other issues it stays. */
static void slow_path_call(void **st)
{
    (void)st;
    const char *src = "#line 1 \"a.k\"\n"
                      "DH_KERNEL void k(void)\n"
                      "{\n"
                      "    DH_BB(0); y = a / b;\n"
                      "    if (slow(a, b)) {\n"
                      "        DH_BB(1);\n"
                      "    }\n"
                      "}\n";
    const char *lst =
        "\t.section\t.text.k,\"ax\",@progbits\n"
        "\t//## File \"/src/a.k\", line 4\n"
        "        /*0000*/                   FFMA R1, R1, R1, R1 ;\n"
        "        /*0010*/                   MOV R4, R5 ;\n"
        "        /*0020*/                   CALL.REL.NOINC `($__internal_0_$__cuda_sm3x_div_rn_noftz_f32_slowpath) ;\n"
        "        /*0030*/                   EXIT ;\n"
        "$__internal_0_$__cuda_sm3x_div_rn_noftz_f32_slowpath:\n"
        "        /*0040*/                   MUFU.RCP R2, R2 ;\n"
        "        /*0050*/                   RET.REL.NODEC R16 `(k) ;\n";
    struct dh_pc_count pc[] = {
        {"k", 0x00, 4, 128, 128}, {"k", 0x10, 3, 20, 20}, {"k", 0x20, 3, 20, 20},
        {"k", 0x30, 0, 0, 0},     {"k", 0x40, 3, 20, 20}, {"k", 0x50, 3, 20, 20},
    };
    double lanes[2] = {128, 20}, warps[2] = {4, 3};
    struct dh_measured m;
    struct dh_err e = {0};
    int rc = dh_measured_costs(lst, src, "", pc, 6, lanes, warps, NULL, 2, &m, &e);
    if (rc)
        fprintf(stderr, "%s\n", e.msg);
    assert_int_equal(rc, 0);
    assert_true(fabs(m.inst[1] - 4) < 1e-9);             /* MOV, the call, MUFU, RET */
    assert_true(fabs(m.inst[0] - 1) < 1e-9);
    assert_true(fabs(m.cycles[1] - (1 + 1 + 8 + 1)) < 1e-9);
    dh_measured_free(&m);
    warps[1] = 2;                                         /* the issues disagree */
    assert_int_equal(dh_measured_costs(lst, src, "", pc, 6, lanes, warps, NULL, 2, &m, &e), 0);
    assert_true(fabs(m.inst[1]) < 1e-9);
    assert_true(fabs(m.inst[0] - (128 + 80) / 128.0) < 1e-9);
    dh_measured_free(&m);
}

/* Counts written and read back; a file of other counts, or not of this
 * form, is refused naming the line (data, never trusted). */
static void counts_file(void **st)
{
    (void)st;
    struct dh_pc_count pc[2] = {{"k_baseline", 0x1a0, 3, 96, 80}, {"k_baseline", 0x1b0, 1, 32, 32}};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(dh_pc_counts_write(f, "s/b/small/k=1", pc, 2), 0);
    fclose(f);
    struct dh_pc_count *back = NULL;
    long n = 0;
    struct dh_err e = {0};
    assert_int_equal(dh_pc_counts_read(buf, "s/b/small/k=1", &back, &n, &e), 0);
    assert_int_equal(n, 2);
    assert_string_equal(back[1].func, "k_baseline");
    assert_int_equal(back[0].pc, 0x1a0);
    assert_true(back[0].inst == 3 && back[0].thread == 96 && back[0].pred_on == 80);
    free(back);
    /* another workload's */
    assert_int_equal(dh_pc_counts_read(buf, "s/b/small/k=2", &back, &n, &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, "not of s/b/small/k=2"));
    assert_null(back);
    free(buf);
    const char *bad[] = {
        "k=1\nf\t10\t1\t1\t1\n",                              /* no header */
        "# divharness pc counts 1: K\nf\tzz\t1\t1\t1\n",          /* pc not hex */
        "# divharness pc counts 1: K\nf\t10\t-1\t1\t1\n",         /* negative */
        "# divharness pc counts 1: K\nf\t10\t1\t1\t2\n",          /* pred_on > thread */
        "# divharness pc counts 1: K\nf\t10\t1\t1\n",              /* a field short */
        "# divharness pc counts 1: K\nf\t10\t1\t1\t1\tx\n",       /* one more */
        "# divharness pc counts 1: K\nf\t10\t1\tnan\t1\n",        /* not a count */
        "# divharness pc counts 1: K\nf g\t10\t1\t1\t1\n",        /* a space in the name */
        "# divharness pc counts 1: K\nf\t10\t1\t1\t1\n\n",       /* an empty line */
        "# divharness pc counts 1: K\nf\t1ffffffff\t1\t1\t1\n",   /* pc over 32 bits */
        /* a count after white space (strtod skips it): an empty field,
         * and "-0" written back as a sign (found by fuzz_pcs) */
        "# divharness pc counts 1: K\nf\t10\t3\t96\t\t-0\n",
        "# divharness pc counts 1: K\nf\t10\t\v3\t96\t1\n",
        "# divharness pc counts 1: K\nf\t10\t3\t\r96\t1\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        memset(&e, 0, sizeof e);
        int rc = dh_pc_counts_read(bad[i], "K", &back, &n, &e);
        if (rc != -DH_E_DATA)
            fail_msg("bad[%zu] read as counts", i);
        assert_non_null(strstr(e.msg, "line "));
        assert_null(back);
    }
    /* the last line may lack its newline */
    assert_int_equal(dh_pc_counts_read("# divharness pc counts 1: K\nf\t10\t1\t2\t1", "K",
                                       &back, &n, &e), 0);
    assert_int_equal(n, 1);
    free(back);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tiny_blocks),
        cmocka_unit_test(other_build_refused),
        cmocka_unit_test(subroutine_split),
        cmocka_unit_test(slow_path_call),
        cmocka_unit_test(counts_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
