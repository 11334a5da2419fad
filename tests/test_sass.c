/* test_sass.c — block costs from compiled code: the nvdisasm parser on a
 * committed listing (tests/data/sass/tiny.sass of tiny.cu: a predicated
 * block, a block split over two line ranges, inlined functions, a line
 * that marks two blocks, a loop), the marker scan and line -> block
 * mapping, the sm_90 cost table, and (needs NVRTC and an nvdisasm that
 * reads its CUBINs, else SKIPPED) the compile path and its listing cache.
 * `harness blocks` on the benchmarks: test_blocks_cmd.c. What the model
 * records of the costs: test_costs.c. Run from the repository root (the
 * fixtures' paths). */
#include <math.h>

#include "testutil.h"
#include "../harness/model/sass.h"
#include "../harness/model/sasscost.h"
#include "../backends/offline.h"
#include "../harness/model/price.h"
#include "../harness/model/bbv.h"
#include "../suites/suite.h"

static const struct dh_sass_inst *at(const struct dh_sass *s, unsigned addr)
{
    for (int i = 0; i < s->n; i++)
        if (s->v[i].addr == addr)
            return &s->v[i];
    fail_msg("no instruction at %#x", addr);
    return NULL;
}

static void parse_listing(void **st)
{
    (void)st;
    char *text = dh_test_slurp("tests/data/sass/tiny.sass", NULL);
    struct dh_sass s;
    struct dh_err e = {0};
    assert_int_equal(dh_sass_parse(text, &s, &e), 0);
    assert_int_equal(s.n_funcs, 1);
    assert_string_equal(s.funcs[0], "tiny_baseline");
    assert_int_equal(s.n, 0x980 / 16);                 /* 0x0000 .. 0x0970 */
    /* a guarded store: predicated, its line 31 */
    const struct dh_sass_inst *in = at(&s, 0x130);
    assert_string_equal(in->op, "STG.E");
    assert_true(in->pred);
    assert_int_equal(in->n_frames, 1);
    assert_int_equal(in->fr[0].line, 31);
    assert_string_equal(s.files[in->fr[0].file], "/tmp/dh_kernel.cu");
    /* helper() inlined at line 33: innermost line 15, then 33 */
    in = at(&s, 0xf0);
    assert_string_equal(in->op, "FFMA");
    assert_false(in->pred);
    assert_int_equal(in->n_frames, 2);
    assert_int_equal(in->fr[0].line, 15);
    assert_int_equal(in->fr[1].line, 33);
    /* the location carries over to instructions without a comment */
    in = at(&s, 0x40);
    assert_string_equal(in->op, "S2R");
    assert_int_equal(in->fr[0].line, 26);
    /* a back branch resolves its label; @!P0 counts as a guard */
    in = at(&s, 0x4b0);
    assert_string_equal(in->op, "BRA");
    assert_int_equal(in->target, 0x260);
    in = at(&s, 0x890);
    assert_true(in->pred);
    assert_string_equal(in->op, "FFMA");
    dh_sass_free(&s);
    /* bad input names the line */
    assert_int_equal(dh_sass_parse("        /*0000*/  ;\n", &s, &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, "line 1"));
    dh_sass_free(&s);
    assert_int_equal(dh_sass_parse("nothing here\n", &s, &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, "no instructions"));
    dh_sass_free(&s);
    free(text);
}

static void markers_and_mapping(void **st)
{
    (void)st;
    char *src = dh_test_slurp("tests/data/sass/tiny.cu", NULL);
    struct dh_bb_markers m;
    struct dh_err e = {0};
    assert_int_equal(dh_bb_markers_scan(src, "-D UNUSED=3", &m, &e), 0);
    /* ENTRY (27), SIDE (30), LOOP (35), HELP (19), and the macro's two on 42 */
    assert_int_equal(m.n, 6);
    assert_int_equal(m.unresolved, 0);
    int seen[6] = {0};
    for (int i = 0; i < m.n; i++) {
        const struct dh_bb_marker *k = &m.v[i];
        assert_true(k->id >= 0 && k->id < 6);
        seen[k->id]++;
        switch (k->id) {
        case 0: assert_int_equal(k->line, 27); assert_int_equal(k->last, 45);
                assert_int_equal(k->first, 24); break;     /* the kernel from its header */
        case 1: assert_int_equal(k->line, 30); assert_int_equal(k->last, 32); break;
        case 2: assert_int_equal(k->line, 35); assert_int_equal(k->n_form, 1);
                assert_int_equal(k->last, 37); break;     /* the loop statement */
        case 3: assert_int_equal(k->line, 20); assert_int_equal(k->last, 22); break;
        default: assert_int_equal(k->line, 42); break;
        }
    }
    for (int i = 0; i < 6; i++)
        assert_int_equal(seen[i], 1);

    char *text = dh_test_slurp("tests/data/sass/tiny.sass", NULL);
    struct dh_sass s;
    assert_int_equal(dh_sass_parse(text, &s, &e), 0);
    int pair[2] = {-1, -1};
    assert_int_equal(dh_sass_block_of(&s, at(&s, 0x130), &m, NULL), 1);    /* if's body */
    assert_int_equal(dh_sass_block_of(&s, at(&s, 0x0f0), &m, NULL), 0);    /* inlined helper */
    assert_int_equal(dh_sass_block_of(&s, at(&s, 0x830), &m, NULL), 0);    /* entry again, line 39 */
    assert_int_equal(dh_sass_block_of(&s, at(&s, 0x890), &m, NULL), 3);    /* marked() inlined */
    assert_int_equal(dh_sass_block_of(&s, at(&s, 0x380), &m, NULL), 2);    /* the loop */
    assert_int_equal(dh_sass_block_of(&s, at(&s, 0x8b0), &m, pair), -2);   /* two on line 42 */
    assert_true((pair[0] == 4 && pair[1] == 5) || (pair[0] == 5 && pair[1] == 4));

    struct dh_sass_block b[6];
    int unmarked = 0, shared = 0;
    dh_sass_blocks(&s, 0, &m, 6, b, &unmarked, &shared);
    /* lines 24-26, before DH_BB(T_ENTRY) at the top of the kernel's body:
     * the entry's (every lane runs them), not unmarked */
    assert_int_equal(unmarked, 0);
    assert_int_equal(shared, 1);
    assert_int_equal(b[4].shared, 1);
    assert_int_equal(b[5].shared, 1);
    /* line 31: n's LDC hoisted to the top, then LDC IADD3 IMAD.WIDE STG
     * under @P0 */
    assert_int_equal(b[1].insts, 5);
    assert_int_equal(b[1].predicated, 4);
    assert_true(fabs(b[1].cost - (1 + 1 + 2 + 4 + 1)) < 1e-12);
    assert_int_equal(b[3].insts, 2);
    assert_int_equal(b[3].predicated, 1);
    /* the blocks around: the if's body, the loop and marked() sit in the
     * entry block; the entry in none. Guarded per execution: the store's 4 */
    assert_int_equal(b[0].parent, -1);
    assert_int_equal(b[1].parent, 0);
    assert_int_equal(b[2].parent, 0);
    assert_int_equal(b[3].parent, 0);
    assert_true(fabs(b[1].pred_per_exec - 4) < 1e-12);
    assert_true(fabs(b[1].pred_cost_per_exec - (1 + 2 + 4 + 1)) < 1e-12);
    assert_true(fabs(b[3].pred_per_exec - 1) < 1e-12);
    assert_int_equal(b[0].loop_insts, 0);       /* the trap after EXIT is not a loop */
    /* three loops of the block, 38 + 16 + 8 instructions, their counters
     * stepping 16, 4 and 1 (the pointer's 64-bit add is no counter); n
     * is not constant: the loops' instructions over the largest step */
    assert_int_equal(b[2].loop_insts, 62);
    assert_int_equal(b[2].loops, 3);
    assert_int_equal(b[2].loops_unknown, 3);
    assert_int_equal(b[2].unroll, 16);
    assert_true(b[2].n_form);
    assert_int_equal(b[2].count, -1);
    assert_true(fabs(b[2].inst_per_exec - 62.0 / 16) < 1e-12);
    /* the counter steps themselves */
    assert_int_equal(dh_sass_counter_step(at(&s, 0x380)), 16);   /* IADD3 R12, R12, -0x10 */
    assert_int_equal(dh_sass_counter_step(at(&s, 0x3a0)), 16);   /* VIADD R11, R11, 0x10 */
    assert_int_equal(dh_sass_counter_step(at(&s, 0x3e0)), 0);    /* IADD3 R6, P2, R6, 0x40 */
    assert_int_equal(dh_sass_counter_step(at(&s, 0x0f0)), 0);    /* FFMA */
    assert_true(fabs(b[0].inst_per_exec - b[0].insts) < 1e-12);
    /* every non-padding instruction is somewhere */
    int sum = unmarked + shared;
    for (int i = 0; i < 6; i++)
        sum += b[i].insts;
    assert_int_equal(sum, 0x8e0 / 16);          /* up to EXIT; the trap and NOPs out */
    dh_sass_free(&s);
    dh_bb_markers_free(&m);
    free(text);
    free(src);
}

static void marker_scan_forms(void **st)
{
    (void)st;
    /* #line names the file; ids through -D and nested defines; a runtime
     * id is counted as unresolved, never guessed */
    const char *src =
        "#define A_BASE (B_OFF * 2)\n"
        "#define EMPTY\n"
        "#line 10 \"suites/x/y.k\"\n"
        "DH_DEVICE void f(int t)\n"
        "{\n"
        "    DH_BB(A_BASE + 1); /* DH_BB(99) in a comment */\n"
        "    // DH_BB(98)\n"
        "    DH_BB(t);\n"
        "    int z = t * 2;\n"
        "    DH_BB(z);\n"
        "}\n"
        "DH_KERNEL void k(int q)\n"
        "{\n"
        "    f(B_OFF EMPTY);\n"
        "    f(\n"
        "      A_BASE + 4);\n"
        "}\n"
        "DH_DEVICE void g(int u)\n"
        "{\n"
        "    f(u + 1);\n"
        "}\n"
        "DH_KERNEL void k2(void)\n"
        "{\n"
        "    g(5);\n"
        "}\n";
    struct dh_bb_markers m;
    struct dh_err e = {0};
    assert_int_equal(dh_bb_markers_scan(src, "-D DH_WG=256 -D B_OFF=3", &m, &e), 0);
    assert_int_equal(m.n, 3);
    assert_int_equal(m.v[0].id, 7);
    assert_int_equal(m.v[0].line, 12);
    assert_string_equal(m.v[0].file, "suites/x/y.k");
    assert_int_equal(m.v[0].last, 13);
    /* DH_BB(t): f's parameter 0, bound at each call */
    assert_int_equal(m.v[1].id, -1);
    assert_string_equal(m.v[1].func, "f");
    assert_int_equal(m.v[1].param, 0);
    assert_int_equal(m.v[1].last, 15);
    /* DH_BB(z): a runtime value, unresolved; it still ends t's region */
    assert_int_equal(m.v[2].id, -1);
    assert_string_equal(m.v[2].func, "");
    assert_int_equal(m.unresolved, 1);
    assert_non_null(strstr(m.first_unresolved, "suites/x/y.k:16"));
    /* the calls: f's two in k (the second over two lines), f's in g
     * (g's parameter + 1), g's in k2 */
    assert_int_equal(m.n_calls, 4);
    assert_int_equal(m.calls[0].line, 20);
    assert_int_equal(m.calls[0].args[0], 3);
    assert_int_equal(m.calls[1].line, 21);
    assert_int_equal(m.calls[1].args[0], 10);
    assert_int_equal(m.calls[2].arg_param[0], 0);
    assert_int_equal(m.calls[2].arg_off[0], 1);
    assert_string_equal(m.calls[2].caller, "g");
    /* instructions of DH_BB(t) inlined at each call: 3, 10, and through
     * g(5): 6; from a line that calls nothing: unknown */
    const char *listing =
        "\t.section\t.text.k,\"ax\",@progbits\n"
        "\t//## File \"/src/suites/x/y.k\", line 14 inlined at \"/src/suites/x/y.k\", line 20\n"
        "\t//## File \"/src/suites/x/y.k\", line 20\n"
        "        /*0000*/                   FFMA R1, R1, R1, R1 ;\n"
        "\t//## File \"/src/suites/x/y.k\", line 14 inlined at \"/src/suites/x/y.k\", line 21\n"
        "\t//## File \"/src/suites/x/y.k\", line 21\n"
        "        /*0010*/                   FFMA R1, R1, R1, R1 ;\n"
        "\t//## File \"/src/suites/x/y.k\", line 14 inlined at \"/src/suites/x/y.k\", line 26\n"
        "\t//## File \"/src/suites/x/y.k\", line 26 inlined at \"/src/suites/x/y.k\", line 30\n"
        "\t//## File \"/src/suites/x/y.k\", line 30\n"
        "        /*0020*/                   FFMA R1, R1, R1, R1 ;\n"
        "\t//## File \"/src/suites/x/y.k\", line 14 inlined at \"/src/suites/x/y.k\", line 19\n"
        "\t//## File \"/src/suites/x/y.k\", line 19\n"
        "        /*0030*/                   FFMA R1, R1, R1, R1 ;\n";
    struct dh_sass s;
    assert_int_equal(dh_sass_parse(listing, &s, &e), 0);
    assert_int_equal(s.n, 4);
    assert_int_equal(dh_sass_block_of(&s, &s.v[0], &m, NULL), 3);
    assert_int_equal(dh_sass_block_of(&s, &s.v[1], &m, NULL), 10);
    assert_int_equal(dh_sass_block_of(&s, &s.v[2], &m, NULL), 6);
    assert_int_equal(dh_sass_block_of(&s, &s.v[3], &m, NULL), -1);
    dh_sass_free(&s);
    dh_bb_markers_free(&m);
}

/* A guarded conditional inside its parent's unrolled loop (pol's bracket
 * rates): a block whose id is a function parameter finds its parent in
 * its own function first (the loop's block, not the caller's), and runs
 * once a source iteration: its copies in the loop unrolled twice count
 * half each, its peeled copy after the loop nothing. */
static void guard_in_unrolled_loop(void **st)
{
    (void)st;
    const char *src =
        "#line 1 \"suites/x/g.k\"\n"
        "DH_DEVICE int rate(int x, int bb)\n"          /* 1 */
        "{\n"
        "    if (x > 0) {\n"
        "        DH_BB(bb);\n"                          /* 4 */
        "        return x * 3;\n"                       /* 5 */
        "    }\n"
        "    return 0;\n"
        "}\n"
        "DH_DEVICE int loop(int n, int bb, int gb)\n"  /* 9 */
        "{\n"
        "    int a = 0;\n"
        "    DH_BB_N(bb, n);\n"                         /* 12 */
        "    for (int b = 0; b < n; b++) {\n"           /* 13 */
        "        if (b < n - 1) {\n"
        "            DH_BB(gb);\n"                      /* 15 */
        "            a += 2;\n"                         /* 16 */
        "        }\n"
        "        a += rate(a, gb + 1);\n"               /* 18 */
        "    }\n"
        "    return a;\n"
        "}\n"
        "DH_KERNEL void k(int n)\n"                     /* 22 */
        "{\n"
        "    DH_BB(0);\n"                               /* 24 */
        "    int r = loop(n, 1, 2);\n"                  /* 25 */
        "}\n";
#define F "\t//## File \"/src/suites/x/g.k\", line "
#define IN " inlined at \"/src/suites/x/g.k\", line "
    const char *listing =
        "\t.section\t.text.k,\"ax\",@progbits\n"
        F "24\n"
        "        /*0000*/                   S2R R0, SR_TID.X ;\n"
        ".L_x_0:\n"
        F "13" IN "25\n" F "25\n"
        "        /*0010*/                   IADD3 R5, R5, 0x2, RZ ;\n"
        F "16" IN "25\n" F "25\n"
        "        /*0020*/               @P0 IADD3 R1, R1, 0x2, RZ ;\n"
        F "5" IN "18\n" F "18" IN "25\n" F "25\n"
        "        /*0030*/               @P1 IMAD R2, R2, 0x3, RZ ;\n"
        F "16" IN "25\n" F "25\n"
        "        /*0040*/               @P0 IADD3 R1, R1, 0x2, RZ ;\n"
        F "5" IN "18\n" F "18" IN "25\n" F "25\n"
        "        /*0050*/               @P1 IMAD R2, R2, 0x3, RZ ;\n"
        F "13" IN "25\n" F "25\n"
        "        /*0060*/                   ISETP.GE.AND P2, PT, R5, R6, PT ;\n"
        "        /*0070*/              @!P2 BRA `(.L_x_0) ;\n"
        F "5" IN "18\n" F "18" IN "25\n" F "25\n"
        "        /*0080*/                   IMAD R2, R2, 0x3, RZ ;\n"
        F "26\n"
        "        /*0090*/                   EXIT ;\n";
#undef F
#undef IN
    struct dh_bb_markers m;
    struct dh_err e = {0};
    assert_int_equal(dh_bb_markers_scan(src, "", &m, &e), 0);
    assert_int_equal(m.unresolved, 0);
    struct dh_sass s;
    assert_int_equal(dh_sass_parse(listing, &s, &e), 0);
    assert_int_equal(s.n, 10);
    assert_int_equal(dh_sass_block_of(&s, at(&s, 0x20), &m, NULL), 2);
    assert_int_equal(dh_sass_block_of(&s, at(&s, 0x30), &m, NULL), 3);
    assert_int_equal(dh_sass_block_of(&s, at(&s, 0x80), &m, NULL), 3);
    assert_int_equal(dh_sass_block_of(&s, at(&s, 0x60), &m, NULL), 1);
    struct dh_sass_block b[4];
    int unmarked = 0, shared = 0;
    dh_sass_blocks(&s, 0, &m, 4, b, &unmarked, &shared);
    assert_int_equal(unmarked, 0);
    assert_int_equal(shared, 0);
    /* the loop: 3 instructions, its counter stepping 2 */
    assert_int_equal(b[1].loop_insts, 3);
    assert_int_equal(b[1].unroll, 2);
    assert_true(fabs(b[1].inst_per_exec - 1.5) < 1e-12);
    /* the guards: in the loop's block (not the kernel's entry block,
     * where the call of loop() is) */
    assert_int_equal(b[2].parent, 1);
    assert_int_equal(b[3].parent, 1);
    assert_int_equal(b[2].insts, 2);
    assert_int_equal(b[2].predicated, 2);
    assert_true(fabs(b[2].inst_per_exec - 1) < 1e-12);
    assert_true(fabs(b[2].pred_per_exec - 1) < 1e-12);
    assert_int_equal(b[3].insts, 3);
    assert_true(fabs(b[3].inst_per_exec - 1) < 1e-12);
    assert_true(fabs(b[3].pred_per_exec - 1) < 1e-12);
    assert_true(fabs(b[0].inst_per_exec - 2) < 1e-12);     /* S2R, EXIT */
    dh_sass_free(&s);
    dh_bb_markers_free(&m);
}
/* a subroutine the kernel calls (64-bit division): its instructions are
 * priced at the CALL, in the caller's block, not by the stale line
 * before them */
/* a function-like #define cut off inside its parameters (found by
 * fuzz_sass: the scan read past the end of the line) */
static void define_cut_short(void **st)
{
    (void)st;
    const char *srcs[] = {"#define F(a, ", "#define F(", "#define F(a,\\\n", "#define F(a b"};
    for (size_t i = 0; i < sizeof srcs / sizeof srcs[0]; i++) {
        struct dh_bb_markers m;
        struct dh_err e = {0};
        assert_int_equal(dh_bb_markers_scan(srcs[i], "", &m, &e), 0);
        assert_int_equal(m.n, 0);
        dh_bb_markers_free(&m);
    }
}

/* a kernel of one block around a division (a.k line 3) with `listing`
 * as its code: parsed into *s (the caller frees it) and its block priced */
static void one_division_block(const char *listing, struct dh_sass *s, struct dh_sass_block *b,
                               int *unmarked)
{
    const char *src = "#line 1 \"a.k\"\n"
                      "DH_KERNEL void k(void)\n"
                      "{\n"
                      "    DH_BB(0); y = a / b;\n"
                      "}\n";
    struct dh_bb_markers m;
    struct dh_err e = {0};
    int shared;
    assert_int_equal(dh_bb_markers_scan(src, "", &m, &e), 0);
    assert_int_equal(dh_sass_parse(listing, s, &e), 0);
    dh_sass_blocks(s, 0, &m, 1, b, unmarked, &shared);
    dh_bb_markers_free(&m);
}

static void called_subroutine(void **st)
{
    (void)st;
    const char *listing =
        "\t.section\t.text.k,\"ax\",@progbits\n"
        "\t//## File \"/src/a.k\", line 3\n"
        "        /*0000*/                   FFMA R1, R1, R1, R1 ;\n"
        "        /*0010*/                   CALL.REL.NOINC `($__internal_0_$__cuda_sm20_div_s64) ;\n"
        "        /*0020*/                   EXIT ;\n"
        "$__internal_0_$__cuda_sm20_div_s64:\n"
        "        /*0030*/                   I2F.U64.RP R2, R4 ;\n"
        "        /*0040*/                   MUFU.RCP R2, R2 ;\n"
        "        /*0050*/                   RET.REL.NODEC R16 `(k) ;\n";
    struct dh_sass s;
    struct dh_sass_block b[1];
    int unmarked;
    one_division_block(listing, &s, b, &unmarked);
    assert_int_equal(s.v[1].target, 0x30);
    assert_true(s.v[3].sub && !s.v[2].sub);
    assert_int_equal(s.v[3].n_frames, 0);
    assert_int_equal(unmarked, 0);
    assert_int_equal(b[0].insts, 6);
    assert_int_equal(b[0].called, 3);
    assert_true(fabs(b[0].cost - (1 + 1 + 1 + 8 + 8 + 1)) < 1e-12);
    assert_true(fabs(b[0].inst_per_exec - 6) < 1e-12);
    dh_sass_free(&s);
}

/* an IEEE division's slow path (`..._slowpath`, called only for special
 * operands: a zero, a denormal) is not priced at its CALL: the fast path
 * is what a division costs, and a benchmark whose data takes the slow
 * path marks it as a block of its own (bbv/mc's divz); LBM's six
 * divisions by the density took 525 instructions an execution of its
 * fluid block with the slow paths, 195 without, against the H100's 196 */
static void slowpath_not_priced(void **st)
{
    (void)st;
    const char *listing =
        "\t.section\t.text.k,\"ax\",@progbits\n"
        "\t//## File \"/src/a.k\", line 3\n"
        "        /*0000*/                   FCHK P0, R1, R2 ;\n"
        "        /*0010*/              @!P0 BRA `(.L_x_1) ;\n"
        "        /*0020*/                   CALL.REL.NOINC `($__internal_0_$__cuda_sm3x_div_rn_noftz_f32_slowpath) ;\n"
        ".L_x_1:\n"
        "        /*0030*/                   EXIT ;\n"
        "$__internal_0_$__cuda_sm3x_div_rn_noftz_f32_slowpath:\n"
        "        /*0040*/                   SHF.R.U32.HI R33, RZ, 0x17, R5 ;\n"
        "        /*0050*/                   MUFU.RCP R2, R2 ;\n"
        "        /*0060*/                   RET.REL.NODEC R16 `(k) ;\n";
    struct dh_sass s;
    struct dh_sass_block b[1];
    int unmarked;
    one_division_block(listing, &s, b, &unmarked);
    assert_int_equal(b[0].called, 0);
    assert_int_equal(b[0].insts, 3);                   /* FCHK, BRA, EXIT */
    assert_true(fabs(b[0].inst_per_exec - 3) < 1e-12);
    dh_sass_free(&s);
}

static void cost_table(void **st)
{
    (void)st;
    int known = 0;
    assert_true(dh_sass_op_cost("FFMA", &known) == 1 && known);
    assert_true(dh_sass_op_cost("IMAD.WIDE.U32", &known) == 4 && known);
    assert_true(dh_sass_op_cost("IMAD.MOV.U32", &known) == 2 && known);
    assert_true(dh_sass_op_cost("IMAD", &known) == 2 && known);
    assert_true(dh_sass_op_cost("MUFU.RCP", &known) == 8 && known);
    assert_true(dh_sass_op_cost("IADD3.X", &known) == 2 && known);
    assert_true(dh_sass_op_cost("UIADD3", &known) == 1 && known);     /* uniform datapath */
    assert_true(dh_sass_op_cost("LDG.E.64", &known) == 1 && known);
    /* a prefix must end at '.': FMNMX is not FMUL, ISETP not IS... */
    assert_true(dh_sass_op_cost("FMNMX", &known) == 2 && known);
    assert_true(dh_sass_op_cost("QQQ", &known) == 1 && !known);
    /* sm_90's fused integer forms: on the integer pipe */
    assert_true(dh_sass_op_cost("VIADD", &known) == 2 && known);
    assert_true(dh_sass_op_cost("VIADDMNMX.U32", &known) == 2 && known);
    assert_true(dh_sass_op_is_branch("BRA"));
    assert_true(dh_sass_op_is_branch("BRA.U"));
    assert_false(dh_sass_op_is_branch("BRANCHY"));
    assert_false(dh_sass_op_is_branch("FFMA"));
    char t[4096];
    dh_sass_cost_table(t, sizeof t);
    assert_non_null(strstr(t, "MUFU 8\n"));
}

/* A baseline build whose one kernel is not named *_baseline (darm's
 * bt_base, pc_base, nq_base): its costs are that kernel's. It was
 * refused ("no *_baseline kernel"), so DH_BLOCK_COSTS=sass fell back to
 * the hand costs for every darm benchmark. Two such kernels stay a usage
 * error that names them. */
static void single_kernel_any_name(void **st)
{
    (void)st;
    char *lst = dh_test_slurp("tests/data/sass/tiny.sass", NULL);
    char *src = dh_test_slurp("tests/data/sass/tiny.cu", NULL);
    char *p;
    while ((p = strstr(lst, "tiny_baseline")))
        memcpy(p, "tiny_base_ke", 12), memmove(p + 12, p + 13, strlen(p + 13) + 1);
    while ((p = strstr(src, "tiny_baseline")))
        memcpy(p, "tiny_base_ke", 12), memmove(p + 12, p + 13, strlen(p + 13) + 1);
    struct dh_sass_costs c;
    struct dh_err e = {0};
    int rc = dh_sass_costs_listing(lst, src, "", NULL, 6, &c, &e);
    if (rc)
        fprintf(stderr, "%s\n", e.msg);
    assert_int_equal(rc, 0);
    assert_string_equal(c.kernel, "tiny_base_ke");
    assert_true(c.b[1].insts > 0);
    dh_sass_costs_free(&c);
    free(lst);
    free(src);
}

/* NVRTC + nvdisasm: micro/branch's build compiled and read; SKIPPED
 * (reported) where either is missing */
static void nvrtc_path(void **st)
{
    (void)st;
    char *src = dh_test_slurp("tests/data/sass/tiny.cu", NULL);
    struct dh_sass_costs c;
    struct dh_err e = {0};
    int rc = dh_sass_costs_build(90, src, "", NULL, 6, &c, &e);
    if (rc == -DH_E_UNAVAILABLE) {
        fprintf(stderr, "  (NVRTC path unavailable: %s)\n", e.msg);
        free(src);
        skip();
    }
    assert_int_equal(rc, 0);
    assert_string_equal(c.kernel, "tiny_baseline");
    assert_int_equal(strncmp(c.compiler, "NVRTC ", 6), 0);
    fprintf(stderr, "  (%s: side %d/%d predicated)\n", c.compiler, c.b[1].predicated, c.b[1].insts);
    /* the if-converted store: most of the block runs under a guard */
    assert_true(c.b[1].predicated > 0 && 2 * c.b[1].predicated > c.b[1].insts);
    assert_true(c.b[2].loop_insts > 0);
    dh_sass_costs_free(&c);
    /* a kernel that is not there is named, with the choices */
    rc = dh_sass_costs_build(90, src, "", "nope", 6, &c, &e);
    assert_int_equal(rc, -DH_E_USAGE);
    assert_non_null(strstr(e.msg, "tiny_baseline"));
    free(src);
}

/* The listing is cached with the programs: a second build reads it
 * (same costs), a corrupted entry is not used but rebuilt, DH_NO_CACHE
 * bypasses it. SKIPPED (reported) without NVRTC and nvdisasm. */
static int same_costs(const struct dh_sass_costs *a, const struct dh_sass_costs *b)
{
    if (a->n_blocks != b->n_blocks || a->total != b->total || strcmp(a->kernel, b->kernel))
        return 0;
    for (int k = 0; k < a->n_blocks; k++)
        if (a->b[k].insts != b->b[k].insts || a->b[k].cost_per_exec != b->b[k].cost_per_exec
            || a->b[k].pred_per_exec != b->b[k].pred_per_exec)
            return 0;
    return 1;
}

static void listing_cache(void **st)
{
    (void)st;
    char dir[] = "/tmp/dh-test-sasscache-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *old_dir = getenv("DH_CACHE_DIR"), *old_no = getenv("DH_NO_CACHE");
    char *keep_dir = old_dir ? strdup(old_dir) : NULL, *keep_no = old_no ? strdup(old_no) : NULL;
    setenv("DH_CACHE_DIR", dir, 1);
    unsetenv("DH_NO_CACHE");
    char *src = dh_test_slurp("tests/data/sass/tiny.cu", NULL);
    struct dh_sass_costs a, b, c;
    struct dh_err e = {0};
    int rc = dh_sass_costs_build(90, src, "", NULL, 6, &a, &e);
    if (rc == -DH_E_UNAVAILABLE) {
        fprintf(stderr, "  (NVRTC path unavailable: %s)\n", e.msg);
        free(src);
        if (keep_dir) setenv("DH_CACHE_DIR", keep_dir, 1); else unsetenv("DH_CACHE_DIR");
        if (keep_no) setenv("DH_NO_CACHE", keep_no, 1);
        free(keep_dir);
        free(keep_no);
        rmdir(dir);
        skip();
    }
    assert_int_equal(rc, 0);
    assert_int_equal(a.cached, 0);
    assert_int_equal(dh_sass_costs_build(90, src, "", NULL, 6, &b, &e), 0);
    assert_int_equal(b.cached, 1);
    assert_true(same_costs(&a, &b));
    assert_string_equal(a.compiler, b.compiler);
    dh_sass_costs_free(&b);
    /* other options: another entry */
    assert_int_equal(dh_sass_costs_build(90, src, "-DUNUSED_BY_TINY=1", NULL, 6, &b, &e), 0);
    assert_int_equal(b.cached, 0);
    dh_sass_costs_free(&b);
    /* corrupt every entry's last byte: rebuilt, not used */
    char cmd[256];
    snprintf(cmd, sizeof cmd, "for f in %s/programs/*.bin; do printf X | dd of=$f bs=1 seek=$(($(stat -c %%s $f) - 2)) conv=notrunc 2>/dev/null; done", dir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(dh_sass_costs_build(90, src, "", NULL, 6, &b, &e), 0);
    assert_int_equal(b.cached, 0);
    assert_true(same_costs(&a, &b));
    dh_sass_costs_free(&b);
    assert_int_equal(dh_sass_costs_build(90, src, "", NULL, 6, &c, &e), 0);
    assert_int_equal(c.cached, 1);                      /* the rebuilt entry */
    dh_sass_costs_free(&c);
    setenv("DH_NO_CACHE", "1", 1);
    assert_int_equal(dh_sass_costs_build(90, src, "", NULL, 6, &c, &e), 0);
    assert_int_equal(c.cached, 0);
    assert_true(same_costs(&a, &c));
    dh_sass_costs_free(&c);
    dh_sass_costs_free(&a);
    free(src);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    if (keep_dir) setenv("DH_CACHE_DIR", keep_dir, 1); else unsetenv("DH_CACHE_DIR");
    if (keep_no) setenv("DH_NO_CACHE", keep_no, 1); else unsetenv("DH_NO_CACHE");
    free(keep_dir);
    free(keep_no);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse_listing),
        cmocka_unit_test(markers_and_mapping),
        cmocka_unit_test(marker_scan_forms),
        cmocka_unit_test(define_cut_short),
        cmocka_unit_test(called_subroutine), cmocka_unit_test(slowpath_not_priced),
        cmocka_unit_test(cost_table),
        cmocka_unit_test(guard_in_unrolled_loop),
        cmocka_unit_test(single_kernel_any_name),
        cmocka_unit_test(nvrtc_path),
        cmocka_unit_test(listing_cache),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
