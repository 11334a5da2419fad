/* frontier/pol — a declared benchmark (suites/lib/kit.h): parameters,
 * buffers, entries, the aggregation check, branch keys. Kernel: pol.k (its
 * header gives the rules and the layers); generator, policies and CPU
 * reference: pol_ref.c. Variants:
 *   baseline              the layers as written: status (one filer or
 *                         joint) -> special cases -> credits, with the
 *                         phase-outs and smaller special cases inside
 *   cpu_tdr[mech=dlt,     host regrouping by filing status and income
 *     regroup=key|sort|   band (key, the natural key) or by basic-block
 *     greedy|greedymax]   vectors (suites/lib/regroup.h); the kit moves
 *                         the input columns and puts the outputs back
 *   gpu_tdr[alg=...]      a remap before each layer (tunable rounds: how
 *                         many, from the outermost), or natkey_*: one
 *                         remap up front on status x income band, the
 *                         status layer melded or not (tunable meld)
 *   melded                the status layer melded (pol.k)
 * Verification: every unit's two taxes and their difference, exactly
 * (integer cents), and the host aggregation the study reports (per filing
 * status and income decile: units, sums of both taxes and of the change,
 * winners, losers) against the same aggregation of the reference.
 * BBV model: pol.k marks its basic blocks (DH_BB), the table below gives
 * their operations; the harness profiles the baseline once per workload.
 * DH_POL_MODEL=1 in the environment prints the baseline CFE that the
 * older estimate of pol_ref.c expects (a developer's aid with its own
 * block costs; the H100 counters read lower, see pol_ref.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/kit.h"
#include "../../suite.h"
#include "pol_ref.h"

extern const char dh_src_frontier_pol[];   /* pol.k, embedded by make */

static const struct dh_param_def params[] = {
    {"seed", DH_P_WORKLOAD, "int:0..2147483647", "1", NULL, "generator seed (the synthetic tax units)"},
    {"alg", DH_P_CHOICE, "enum:hot_dgi,dgi,dgi_scan,hot_warp_scan,natkey_dgi,natkey_scan",
     "hot_dgi", "gpu_tdr",
     "on-GPU remap: a remap before each layer (tunable rounds) by hot_dgi = HoT for the "
     "two-path layers (status, special cases), DGI for the credit layer; dgi; dgi_scan; "
     "hot_warp_scan = hot_warp + dgi_scan; or one remap up front on the natural key (filing "
     "status x income band, read from the input: only the index moves), the layers then "
     "unremapped (tunable meld: the status layer melded), by natkey_dgi = DGI, natkey_scan "
     "= dgi_scan (the _scan/_warp forms: warp votes, CUDA/HIP)"},
    DH_KIT_MECH("enum:dlt", "apply the host regrouping by moving the input (data layout transformation)"),
    DH_KIT_REGROUP("host regrouping: by filing status and income band (key), or by basic-block "
                   "vectors (sort, greedy, greedymax)"),
    DH_KIT_GROUP,
    DH_KIT_WG,
    DH_KIT_NF("alg=hot_dgi,dgi,natkey_dgi"),
    {"rounds", DH_P_TUNABLE, "int:1..3", "3", "gpu_tdr",
     "layers with a remap before them, from the outermost: 1 status; 2 status, special "
     "cases; 3 status, special cases, credits", "alg=hot_dgi,dgi,dgi_scan,hot_warp_scan"},
    {"meld", DH_P_TUNABLE, "int:0..1", "1", "gpu_tdr",
     "after the natural-key remap: 1 the status layer melded (as the melded variant), 0 its "
     "two paths as the baseline's", "alg=natkey_dgi,natkey_scan"},
    {"kstat", DH_P_TUNABLE, "int:0..2", "0", "gpu_tdr",
     "the natural key's share of the filing status: 0 the income band alone (6 keys), 1 "
     "joint or not x band (12), 2 status x band (24)", "alg=natkey_dgi,natkey_scan"},
    DH_CODEGEN_KNOBS,
    {0},
};

static const char *const sweep[] = {"seed=1", NULL};

/* the counts below write PL_NCOLS and 2 * PL_WORDS out */
#define PL_STR_(x) #x
#define PL_STR(x) PL_STR_(x)
_Static_assert(PL_NCOLS == 14 && PL_WORDS == 168, "pol.c: update the buffer counts");

enum { IN, POL, BASE, REFORM, CHANGE };
static const struct dh_kbuf bufs[] = {
    [IN] = {"in", DH_T_I32, DH_IN, "14 * n", DH_KB_ITEM | DH_KB_ROTATE},   /* PL_NCOLS columns */
    [POL] = {"pol", DH_T_I32, DH_IN, "2 * 168", 0},                       /* the two policies */
    [BASE] = {"base", DH_T_I64, DH_OUT, "n", DH_KB_ITEM, .poison = INT64_MIN},
    [REFORM] = {"reform", DH_T_I64, DH_OUT, "n", DH_KB_ITEM, .poison = INT64_MIN},
    [CHANGE] = {"change", DH_T_I64, DH_OUT, "n", DH_KB_ITEM, .poison = INT64_MIN},
};

static const struct dh_kentry entries[] = {
    {"baseline", "pl_baseline", "in n pol base reform change"},
    {"gpu_tdr", "pl_gpu_tdr", "in n pol base reform change"},
    {"melded", "pl_melded", "in n pol base reform change"},
    {0},
};

/* host data beyond the buffers */
struct pl_priv {
    struct pl_refinfo info;               /* layer keys and path costs (the ceiling) */
    uint8_t *decile;                      /* per unit */
    struct pl_agg agg_ref[PL_CELLS];      /* the aggregation of the reference */
};

static struct pl_input input_of(const struct dh_khost *h)
{
    return (struct pl_input){.n = h->items, .col = h->data[IN]};
}

/* ---- host data: input, policies, reference ---- */
static void pl_free(void *priv)
{
    struct pl_priv *p = priv;
    free(p->info.keys);
    free(p->decile);
    free(p);
}

static int pl_make(struct dh_khost *h, struct dh_err *err)
{
    struct pl_input in = input_of(h);
    pl_generate(&in, (unsigned)dh_pset_num(&h->c->params, "seed", 1));
    pl_policies(h->data[POL]);
    struct pl_priv *p = h->priv = calloc(1, sizeof *p);
    if (!p || !(p->info.keys = malloc((size_t)h->items * PL_NLAYERS))
        || !(p->decile = malloc((size_t)h->items)) || pl_deciles(&in, p->decile))
        return dh_err_set(err, DH_E_RESOURCES, "frontier/pol: out of host memory for %ld "
                          "households", h->items);
    return 0;
}

static int pl_expect(struct dh_khost *h, struct dh_err *err)
{
    (void)err;
    struct pl_priv *p = h->priv;
    struct pl_input in = input_of(h);
    int64_t *tb = h->want[BASE], *tr = h->want[REFORM], *td = h->want[CHANGE];
    pl_reference(&in, h->data[POL], tb, tr, &p->info);
    for (long i = 0; i < h->items; i++)
        td[i] = tr[i] - tb[i];
    pl_aggregate(&in, p->decile, tb, tr, td, p->agg_ref);
    if (getenv("DH_POL_MODEL"))
        fprintf(stderr, "frontier/pol: %ld households, baseline CFE (BBV model, warp 32) %.3f\n",
                h->items, p->info.cfe_model);
    return 0;
}

/* cpu_tdr regroup=key: the natural key, filing status and income band */
static int pl_key(const struct dh_khost *h, int *key)
{
    struct pl_input in = input_of(h);
    for (long i = 0; i < h->items; i++)
        key[i] = pl_sort_key(&in, i);
    return PL_NSORTKEYS;
}

/* The aggregation the study reports, against that of the reference
 * (index base + cell * 6 + field). */
static void pl_verify_more(const struct dh_khost *h, void *const *got, long base,
                           struct dh_verify *v)
{
    const struct pl_priv *p = h->priv;
    struct pl_input in = input_of(h);
    struct pl_agg agg[PL_CELLS];
    pl_aggregate(&in, p->decile, got[BASE], got[REFORM], got[CHANGE], agg);
    for (int cell = 0; cell < PL_CELLS; cell++) {
        const int64_t *g = &agg[cell].units, *w = &p->agg_ref[cell].units;
        for (int f = 0; f < 6; f++)
            dh_verify_add(v, base + cell * 6 + f, (double)g[f], (double)w[f], g[f] != w[f]);
    }
}

/* Remap ceiling of gpu_tdr: the divergent branches of the kernel (the
 * status switch; the special-case branch; the child credit, EITC and
 * elderly credit branches), each with its keys (path, or -1 for units
 * that skip it) and the mean cost of each path. The three credit branches
 * count as three layers (each sorted on its own), though gpu_tdr
 * regroups them by one key: the ceiling is an upper bound. */
static int pl_branch(const struct dh_khost *h, long B, int *key, const double **cost)
{
    static const int credit_bit[PL_NBRANCH] = {0, 0, PL_C_CTC, PL_C_EITC, PL_C_ELD};
    const struct pl_priv *p = h->priv;
    long n = h->items;
    if (B >= PL_NBRANCH)
        return 0;
    const int8_t *ks = p->info.keys + (long)PL_L_STATUS * n;
    const int8_t *kx = p->info.keys + (long)PL_L_SPECIAL * n;
    const int8_t *kc = p->info.keys + (long)PL_L_CREDIT * n;
    for (long i = 0; i < n; i++)
        key[i] = B == PL_B_STATUS ? ks[i]
                 : B == PL_B_SPECIAL ? (kx[i] ? 0 : -1)
                 : (PL_CREDIT_SET(kc[i]) & credit_bit[B]) ? 0 : -1;
    *cost = p->info.path_cost[B];
    return B == PL_B_STATUS ? PL_STATUS_PATHS : 1;
}

/* Blocks marked in pol.k, in id order (PL_BB_*): the operations of one
 * execution, counted in the source by class. Both policies of a block
 * that runs once per unit are in its counts (the policy loops are
 * constant, unrolled); a block inside a policy loop counts one policy.
 * How: every int64 add, sub, compare, min, max, select, shift, and,
 * negation is one alu; a condition with && / || is one br for its branch
 * and one alu for each further compare and each logic operation; a loop
 * iteration is one br; an int64 multiply is 3 mul, an int64 division by
 * a constant (a multiply-high sequence) 3 mul + 3 alu, by a variable
 * 3 div; a halving (/ 2) is 2 alu; pl_rate is 6 alu + 6 mul (compare,
 * add, select; multiply, division by 10000). (First counted with every
 * int64 multiply or division as one div; converted with the rule above,
 * the constant divisions being half of those: 3 mul + 1.5 alu each.) A
 * policy word or input column is one ldg, counted
 * once per block where the source reads it again (and an index of a
 * status or child count, word + st, is one alu); int32 multiplies of
 * the input's column offsets (f * n) are mul.
 * Guarded conditionals (guarded_in; pol.k PL_BB_ONE_G): a marked pl_rate
 * (pl_rate_bb) leaves its compare and select (2 alu) in the block around
 * it and counts its add, multiply and division (4 alu + 6 mul) as the
 * guarded block; a bracket's top other than the last is a policy word
 * and its index (1 ldg, 1 alu). The blocks around them count their rules
 * without those parts (one, jnt: 2 and 3 marked rates a policy, both
 * policies; one_brk, jnt_brk: 2 a bracket, the last one's top a max, the
 * top's compare and select). */
static const struct dh_bb_def blocks[] = {
    /* the global id (1 mul, 1 alu), load 14 columns (13 f * n, 13 + i),
     * decode 7, the status test and its branch */
    {"entry", {.alu = 22, .mul = 14, .ldg = 14, .br = 1}},
    /* one-filer path, both policies: SE tax up to its floor test, loss
     * limit, income, the social security test, deductions, the
     * limitation test, taxable income, the bracket loop's setup */
    {"one", {.alu = 83, .mul = 6, .ldg = 22, .br = 6}},
    {"one_se", {.alu = 12, .mul = 6, .ldg = 3}},
    {"one_ss", {.alu = 3, .br = 1}},
    {"one_ss50", {.alu = 14, .mul = 12, .br = 1}},
    {"one_ss85", {.alu = 29, .mul = 24, .br = 1}},
    {"one_pease", {.alu = 15, .mul = 12}},
    {"one_brk", {.alu = 13, .ldg = 1, .br = 1}},
    /* joint path, both policies: two earners' SE tax tests, the rest as
     * "one" (the status a constant: no index arithmetic) */
    {"jnt", {.alu = 81, .mul = 6, .ldg = 22, .br = 8}},
    {"jnt_se1", {.alu = 12, .mul = 6, .ldg = 3}},
    {"jnt_se2", {.alu = 12, .mul = 6, .ldg = 3}},
    {"jnt_ss", {.alu = 3, .br = 1}},
    {"jnt_ss50", {.alu = 14, .mul = 12, .br = 1}},
    {"jnt_ss85", {.alu = 29, .mul = 24, .br = 1}},
    {"jnt_pease", {.alu = 15, .mul = 12}},
    {"jnt_brk", {.alu = 13, .ldg = 1, .br = 1}},
    /* payroll of two earners under two policies (the donut a select) */
    {"payroll", {.alu = 44, .ldg = 8}},
    {"special_key", {.alu = 28, .ldg = 4, .br = 1}},
    {"special", {.alu = 16, .ldg = 4, .br = 6}},
    {"sp_cg", {.alu = 17, .ldg = 4}},
    {"sp_niit", {.alu = 12, .mul = 6, .ldg = 1}},
    {"sp_amed", {.alu = 8, .mul = 6, .ldg = 1}},
    {"amt", {.alu = 94, .ldg = 20}},
    /* credit layer, both policies: the tests, EITC eligibility, the
     * persons 65+, the credits against the tax; the three stores */
    {"credits", {.alu = 83, .ldg = 14, .stg = 3, .br = 12}},
    {"ctc", {.alu = 4, .mul = 6, .ldg = 5, .br = 2}},
    {"ctc_dep", {.alu = 5, .br = 1}},
    {"ctc_po", {.alu = 4, .mul = 3, .div = 3, .ldg = 2}},
    {"ctc_partref", {.alu = 11, .mul = 9, .ldg = 3}},
    {"eitc_kids", {.alu = 5, .br = 1}},
    {"eitc", {.alu = 10, .ldg = 4, .br = 2}},
    {"eitc_in", {.alu = 8, .mul = 6, .ldg = 1}},
    {"eitc_po", {.alu = 10, .mul = 6, .ldg = 1}},
    {"eld", {.alu = 14, .ldg = 3, .br = 1}},
    {"eld_cr", {.alu = 6, .mul = 6, .ldg = 1}},
    /* The status paths' conditionals and the rates below, one policy
     * each. guarded_in: the sm_90 code (NVRTC 13.0, harness blocks)
     * if-converts them, guarded instructions inside that block; the
     * others it branches around, and the BBV prices them as it prices
     * any branch. Guarded conditionals of the one-filer path: */
    {"one_se_pos", {.alu = 4, .mul = 6}},
    {"one_chr", {.alu = 4, .mul = 6}, "one"},
    {"one_brk_mid", {.alu = 1, .ldg = 1}, "one_brk"},
    {"one_brk_x", {.alu = 4, .mul = 6}, "one_brk"},
    {"one_brk_y", {.alu = 4, .mul = 6}},
    /* and of the joint path */
    {"jnt_se1_pos", {.alu = 4, .mul = 6}},
    {"jnt_chr", {.alu = 4, .mul = 6}, "jnt"},
    {"jnt_brk_mid", {.alu = 1, .ldg = 1}, "jnt_brk"},
    {"jnt_brk_x", {.alu = 4, .mul = 6}, "jnt_brk"},
    {"jnt_brk_y", {.alu = 4, .mul = 6}},
    {"jnt_se2_pos", {.alu = 4, .mul = 6}, "jnt"},
    /* marked rates of amounts that are nothing for some units (one
     * policy each) */
    {"one_se_ss", {.alu = 4, .mul = 6}},
    {"jnt_se1_ss", {.alu = 4, .mul = 6}},
    {"jnt_se2_ss", {.alu = 4, .mul = 6}},
    {"pay_w1_ss", {.alu = 4, .mul = 6}},
    {"pay_w1_med", {.alu = 4, .mul = 6}},
    {"pay_w2_ss", {.alu = 4, .mul = 6}},
    {"pay_w2_med", {.alu = 4, .mul = 6}},
    {"sp_cg_z1", {.alu = 4, .mul = 6}},
    {"sp_cg_z2", {.alu = 4, .mul = 6}},
    {"amt_po", {.alu = 4, .mul = 6}},
    {"amt_o1", {.alu = 4, .mul = 6}},
    {"amt_o2", {.alu = 4, .mul = 6}},
    {"amt_z1", {.alu = 4, .mul = 6}},
    {"amt_z2", {.alu = 4, .mul = 6}},
    {"amt_b1", {.alu = 4, .mul = 6}},
    {"amt_b2", {.alu = 4, .mul = 6}},
};

static const struct dh_krule rules[] = {
    {0},
};

/* the remaps each form runs (pol.k's gpu_tdr): rounds 1 and 2 by a
 * two-path key (status, special case), round 3 by the 8 credit keys;
 * natkey_* once by the natural key */
#define PL_NKEYS_EXPR "kstat == 0 ? 6 : kstat == 1 ? 12 : 24"
static const struct dh_kremap remap_plan[] = {
    {"alg=hot_dgi", "hot", "2", "rounds >= 2 ? 2 : 1"},
    {"alg=dgi", "dgi", "2", "rounds >= 2 ? 2 : 1"},
    {"alg=dgi_scan", "dgi_scan", "2", "rounds >= 2 ? 2 : 1"},
    {"alg=hot_warp_scan", "hot_warp", "2", "rounds >= 2 ? 2 : 1"},
    {"alg=hot_dgi,dgi", "dgi", "8", "rounds >= 3"},
    {"alg=dgi_scan,hot_warp_scan", "dgi_scan", "8", "rounds >= 3"},
    {"alg=natkey_dgi", "dgi", PL_NKEYS_EXPR, "1"},
    {"alg=natkey_scan", "dgi_scan", PL_NKEYS_EXPR, "1"},
    {0},
};

static const struct dh_kit kit = {
    .sizes = {"n=16384", "n=1048576", "n=16777216"}, .items = "n", .noun = "households",
    DH_KIT_TABLES(bufs, entries), .rules = rules, .define = "PL_WORDS_HOST = 168; PL_ROUNDS = rounds; PL_MELD = meld; PL_KSTAT = kstat",
    .remap_plan = remap_plan,
    .generate = pl_make, .reference = pl_expect, .free_priv = pl_free,
    .sort_key = pl_key, .branch = pl_branch, .verify_more = pl_verify_more,
    /* pl_gpu_tdr, bytes: a remap buffer per round (ints: DGI
     * P * (wg / nf) + wg + P, dgi_scan P * (wg / warp) + wg + P, HoT and
     * hot_warp wg + 2), the values rounds 2 (13 int64 a lane) and 3 (7)
     * carry; natkey_dgi (9) and natkey_scan (10): one remap of 24 keys,
     * nothing carried */
    .local = "nk = alg == 9 || alg == 10;"
             "per = alg == HOT_DGI || alg == DGI || alg == 9 ? wg / nf : wg / warp;"
             "two = alg == HOT_DGI || alg == HOT_WARP_SCAN ? wg + 2 : 2 * per + wg + 2;"
             "cr = " PL_STR(PL_CREDIT_PATHS) ";"
             "nkeys = kstat == 0 ? 6 : kstat == 1 ? 12 : 24;"
             "bytes = nk ? 4 * (nkeys * per + wg + nkeys)"
             "        : 4 * two + (rounds >= 2 ? 4 * two + 8 * 13 * wg : 0)"
             "        + (rounds >= 3 ? 4 * (cr * per + wg + cr) + 8 * 7 * wg : 0)",
};

const struct dh_bench dh_bench_frontier_pol = {
    .suite = "frontier", .name = "pol", .source = dh_src_frontier_pol,
    .summary = "tax-policy microsimulation: two policies per household, 3 divergent layers",
    .params = params, .sweep = sweep, .variants = "baseline,cpu_tdr,gpu_tdr,melded",
    DH_BENCH_BLOCKS(blocks, "compute"), DH_KIT(kit),
    /* compiled costs: on the H100 (results/reference/h100/
     * model-frontier-2026-11-26/) modeled CFE -1.2 points off CUPTI against
     * the hand table's +2.3, the regroupings' scheduled error 10.8 points
     * against 16.1 (docs/model.md "Which costs a benchmark prefers") */
    .costs = "sass+pred",
};
