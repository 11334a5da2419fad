/* frontier/gdt — a declared benchmark (suites/lib/kit.h): parameters,
 * buffers, entries, the gdt-specific constraints and defines, the keys of
 * cpu_tdr and of the remap ceiling, and the basic blocks gdt.k marks (for
 * the BBV model). Data, tree and CPU reference: gdt_model.c; the rules:
 * gdt_model.h; the kernels: gdt.k (read its header first). Variants:
 *   baseline            gdt_baseline on the data as generated
 *   cpu_tdr[mech=dlt,   gdt_baseline on every day of every instrument moved
 *     regroup=key|sort| into the host's order: by gdt_sort_key (volatility
 *     greedy|greedymax] regime on the first trading day, then sector) or
 *                       by basic-block vectors (suites/lib/regroup.h)
 *   gpu_tdr[alg=...]    gdt_gpu_tdr: a remap before each of the three
 *                       layers of every day (hot_dgi, dgi, dgi_scan,
 *                       hot_warp_scan); or none per layer: buy's risk
 *                       model pooled over the work-group each day
 *                       (buy_pool), the items regrouped by a stable key
 *                       once or every `rekey` days with their state in
 *                       the lane (key_regroup), both (key_buy_pool),
 *                       buy_pool with layer 2's tasks sorted by kind each
 *                       day (kind_buy_pool); key_regroup with the series
 *                       copied to the lanes' columns (key_dlt,
 *                       key_dlt_buy_pool, key_dlt_kind_buy_pool); buy_pool
 *                       with layers 1-2, fill and sell melded (meld_buy_pool);
 *                       key_dlt with every layer melded (meld_key_dlt)
 *   melded              gdt_melded
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/kit.h"
#include "../../suite.h"
#include "gdt_model.h"

extern const char dh_src_frontier_gdt[];   /* gdt.k, embedded by make */

static const struct dh_param_def params[] = {
    {"seed", DH_P_WORKLOAD, "int:0..2147483647", "1", NULL, "generator seed (market data and GP tree)"},
    {"days", DH_P_WORKLOAD, "int:128..2520", "504", NULL, "trading days of data per instrument (the first 64 fill the windows)"},
    {"sectors", DH_P_WORKLOAD, "int:1..256", "24", NULL, "sectors (each with its own index)"},
    {"alg", DH_P_CHOICE,
     "enum:hot_dgi,dgi,dgi_scan,hot_warp_scan,buy_pool,key_regroup,key_buy_pool,"
     "kind_buy_pool,key_dlt,key_dlt_buy_pool,key_dlt_kind_buy_pool,meld_buy_pool,"
     "meld_key_dlt",
     "dgi", "gpu_tdr",
     "remap: hot_dgi = HoT for the 2-path layer, DGI for the others; dgi; dgi_scan; "
     "hot_warp_scan = hot_warp for the 2-path layer, dgi_scan for the others (these four "
     "before every layer of every day; dgi_scan and hot_warp_scan need warp votes: CUDA, "
     "HIP); buy_pool = no remap of the layers, buy's risk model run for the work-group's "
     "buyers by its first lanes each day (two barriers a day); key_regroup = the items "
     "regrouped in the work-group by cpu_tdr's key (regime on the first trading day, "
     "sector) once, each lane keeping its item's state (no barrier in the day loop), "
     "again every `rekey` days by that day's regime; key_buy_pool = both; "
     "kind_buy_pool = buy_pool, and layer 2's tasks sorted by indicator kind over the "
     "work-group each day (a counting sort, three barriers a day); key_dlt = "
     "key_regroup once, each lane first copying its instrument's series to its own column "
     "of a device copy (coalesced reads after that); key_dlt_buy_pool = that and "
     "buy_pool; key_dlt_kind_buy_pool = that and kind_buy_pool; meld_buy_pool = buy_pool, "
     "and layers 1 and 2 and the fill and sell melded as the melded variant melds them; "
     "meld_key_dlt = key_dlt with every layer melded (no barrier in the day loop)"},
    DH_KIT_MECH("enum:dlt", "apply the host regrouping by moving the data (dlt)"),
    DH_KIT_REGROUP("host regrouping: by volatility regime on the first trading day, then "
                   "sector (key), or by basic-block vectors (sort, greedy, greedymax)"),
    DH_KIT_GROUP,
    DH_KIT_WG,
    DH_KIT_NF("alg=hot_dgi,dgi"),
    {"rekey", DH_P_TUNABLE, "int:0,16,64,128", "0", "gpu_tdr",
     "days between regroupings of key_regroup (0: once, before the warm-up; else also every "
     "rekey trading days by that day's regime and sector, the state moved along)",
     "alg=key_regroup,key_buy_pool"},
    DH_CODEGEN_KNOBS,
    {0},
};

static const struct dh_krule rules[] = {
    {0},
};

static const char *const sweep[] = {"", NULL};

/* GDT_STR(GDT_NODES * GDT_NI): the tree's ints as an expression */
#define GDT_STR_(x) #x
#define GDT_STR(x) GDT_STR_(x)

/* px, rg, vl day-major: element d of instrument i at d * n + i */
enum { PX, RG, VL, SEC, SIX, TREE, RES, SPX, SRG, SVL };
static const struct dh_kbuf bufs[] = {
    [PX] = {"px", DH_T_I32, DH_IN, "days * n", DH_KB_ITEM | DH_KB_ROTATE},
    [RG] = {"rg", DH_T_I32, DH_IN, "days * n", DH_KB_ITEM | DH_KB_ROTATE},
    [VL] = {"vl", DH_T_I32, DH_IN, "days * n", DH_KB_ITEM | DH_KB_ROTATE},
    [SEC] = {"sec", DH_T_I32, DH_IN, "n", DH_KB_ITEM},
    [SIX] = {"six", DH_T_I32, DH_IN, "days * sectors", 0},
    [TREE] = {"tree", DH_T_I32, DH_IN, GDT_STR(GDT_NODES * GDT_NI), 0},
    /* P&L, trades, max drawdown; the poison (trades < 0) no correct run writes */
    [RES] = {"res", DH_T_I32, DH_OUT, "3 * n", DH_KB_ITEM},
    /* gpu_tdr's dlt forms: px, rg, vl copied in the regrouped order */
    [SPX] = {"spx", DH_T_I32, DH_SCRATCH, "days * n"},
    [SRG] = {"srg", DH_T_I32, DH_SCRATCH, "days * n"},
    [SVL] = {"svl", DH_T_I32, DH_SCRATCH, "days * n"},
};

static const struct dh_kentry entries[] = {
    {"baseline", "gdt_baseline", "px rg vl six sec tree res"},
    {"gpu_tdr", "gdt_gpu_tdr", "px rg vl six sec tree res spx srg svl"},
    {"melded", "gdt_melded", "px rg vl six sec tree res"},
    {0},
};

static int gdt_defines(const struct dh_case *c, const struct dh_pset *vars,
                       const struct dh_device_info *dev, char *buf, size_t len)
{
    (void)c, (void)dev;
    int o = snprintf(buf, len,
        "-D GDT_N=%ld -D GDT_DAYS=%d -D GDT_S=%d -D GDT_WARM=%d -D GDT_W1=%d -D GDT_W2=%d "
        "-D GDT_W3=%d -D GDT_NFEAT=%d -D GDT_NKIND=%d -D GDT_LEVELS=%d -D GDT_SUBN=%d "
        "-D GDT_NI=%d -D GDT_CAP0=%d -D GDT_BUY=%d -D GDT_SELL=%d -D GDT_HOLD=%d "
        "-D GDT_K_VOLA=%d -D GDT_K_RSI=%d -D GDT_K_BRK=%d -D GDT_K_OBV=%d -D GDT_K_BETA=%d "
        "-D GDT_K_DD=%d",
        (long)dh_pset_num(vars, "n", 0), (int)dh_pset_num(vars, "days", 0),
        (int)dh_pset_num(vars, "sectors", 0), GDT_WARM,
        GDT_W1, GDT_W2, GDT_W3, GDT_NFEAT, GDT_NKIND, GDT_LEVELS, GDT_SUBN, GDT_NI, GDT_CAP0,
        GDT_BUY, GDT_SELL, GDT_HOLD, GDT_K_VOLA, GDT_K_RSI, GDT_K_BRK, GDT_K_OBV, GDT_K_BETA,
        GDT_K_DD);
    return o >= 0 && (size_t)o < len ? 0 : -DH_E_INTERNAL;
}

/* the model's arrays are the kit's host buffers */
static int gdt_gen(struct dh_khost *h, struct dh_err *err)
{
    struct gdt_data *g = calloc(1, sizeof *g);
    if (!g)
        return dh_err_set(err, DH_E_RESOURCES, "frontier/gdt: out of host memory");
    h->priv = g;
    *g = (struct gdt_data){
        .n = h->items, .days = (int)dh_pset_num(&h->vars, "days", 0),
        .sectors = (int)dh_pset_num(&h->vars, "sectors", 0),
        .seed = (unsigned)dh_pset_num(&h->vars, "seed", 0),
        .px = h->data[PX], .rg = h->data[RG], .vl = h->data[VL], .sec = h->data[SEC],
        .six = h->data[SIX], .tree = h->data[TREE], .ref = h->want[RES],
    };
    return gdt_generate(g) ? dh_err_set(err, DH_E_RESOURCES, "frontier/gdt: out of host memory")
                           : 0;
}

static int gdt_ref(struct dh_khost *h, struct dh_err *err)
{
    return gdt_reference(h->priv) ? dh_err_set(err, DH_E_RESOURCES, "frontier/gdt: out of "
                                               "host memory for the reference's paths") : 0;
}

static void gdt_release(void *priv)
{
    gdt_free(priv);
    free(priv);
}

/* cpu_tdr regroup=key */
static int gdt_key(const struct dh_khost *h, int *key)
{
    const struct gdt_data *g = h->priv;
    for (long i = 0; i < g->n; i++)
        key[i] = gdt_sort_key(g, i);
    return 2 * g->sectors;
}

/* The ceiling: per trading day, each layer with its paths' costs
 * (gdt_cost_*): layer 1 by regime, layer 2 by kind, layer 3 buy and sell
 * (hold skips). */
static int gdt_branch(const struct dh_khost *h, long layer, int *key, const double **cost)
{
    static const double *const costs[3] = {gdt_cost_l1, gdt_cost_l2, gdt_cost_l3};
    const struct gdt_data *g = h->priv;
    long d = GDT_WARM + layer / 3;
    int sub = (int)(layer % 3);
    if (d >= g->days)
        return 0;
    const unsigned char *kd = g->keys + (size_t)d * (size_t)g->n;
    for (long i = 0; i < g->n; i++) {
        int a = GDT_KEY_A(kd[i]);
        key[i] = sub == 0 ? GDT_KEY_R(kd[i]) : sub == 1 ? GDT_KEY_K(kd[i])
                 : a == GDT_HOLD ? -1 : a;
    }
    *cost = costs[sub];
    return sub == 1 ? GDT_NKIND : 2;
}

/* Blocks marked in gdt.k, in id order (GDT_BB_*): operations of one
 * execution, counted in the source as follows.
 *   ldg/stg  each global load and store; within a block each address
 *            once, and a value that roll, the drops or day loaded earlier
 *            the same day (closes 0/5/10/20/50, sector index 0/10/20/50,
 *            ranges 0/50, volumes 0/20) is kept in a register and not
 *            counted again. num/den are indexed by the tree's feature: a
 *            private array in (off-chip) local memory, its stores and
 *            loads count as stg/ldg. Address arithmetic is in the access.
 *   alu      32-bit add, sub, logic, shift, compare, select, min, max,
 *            abs: 1 each; on 64-bit values 2 each; a clamp is a min and a
 *            max; casts are free; short ifs that only set values (action,
 *            settle) are selects
 *   mul      32-bit multiply or multiply-add, also by a constant (by a
 *            power of two it is a shift: alu); a 32-bit division by a
 *            constant (its multiply-high)
 *   div      a 32-bit division by a variable 1; a 64-bit one 3 (suite.h's
 *            class). A 64-bit multiply (32x32->64 products included) or a
 *            64-bit division by a constant is 3 mul (by a power of two: a
 *            shift, alu). (First counted with every 64-bit multiply or
 *            division as one div, then converted by this rule: buy 180
 *            products + 6 divisions, beta 43 + 1, vola 21 products and
 *            constant divisions + 20 32-bit divisions, a ratio x * 1000 / y
 *            one product + one division, fee/impact 16 + 3.)
 *   br       a branch condition tested, a switch, one day-loop iteration
 *            (in roll: the warm-up and the trading-day loops call it once
 *            per iteration)
 * Constant-trip loops (21 and 20 closes, 60 days, 5 levels, isqrt's 16
 * steps, fee's 6 tiers) are unrolled: all their iterations are counted in
 * the enclosing block, without br. isqrt = 16 x 7 alu (b is a constant
 * per step); fee = 44 alu + 12 div; impact = 116 alu (isqrt included) +
 * 1 mul + 6 div. Hold is the empty path: no block. */
static const struct dh_bb_def blocks[] = {
    /* gid, sector, the three result stores */
    {"entry", {.alu = 2, .mul = 1, .ldg = 1, .stg = 3}},
    /* 4 loads, 7 sums; the loop iteration and the 3 drop tests */
    {"roll", {.alu = 7, .ldg = 4, .br = 4}},
    {"drop5", {.alu = 1, .ldg = 1}},
    {"drop20", {.alu = 3, .ldg = 3}},
    {"drop50", {.alu = 3, .ldg = 3}},
    /* features (alu 13, mul 3, div 3, ldg 2, stg 16), root test (ldg 1,
     * div 2, alu 2), layer 1's test, R0/R1 stores (stg 4), walk (5 levels:
     * ldg 20, div 10, alu 32, mul 1), kind and switch (ldg 1, br 1), leaf
     * (ldg 1, mul 2, alu 8), the leaf's 3 ints, action (alu 14, div 2),
     * trade's 2 tests, settle (alu 19, div 1) */
    {"day", {.alu = 88, .mul = 60, .ldg = 28, .stg = 20, .br = 4}},
    /* 17 new closes, 20 adds, 20 mads; 8 64-bit mul/div */
    {"l1_calm", {.alu = 24, .mul = 38, .div = 6, .ldg = 17}},
    /* 17 new closes, 20 x 6 alu; two ratios */
    {"l1_vol", {.alu = 128, .mul = 6, .div = 6, .ldg = 17}},
    /* 17 new closes; 20 x (sub, mul, div, clamp, square, 64-bit add); / 20 */
    {"l2_vola", {.alu = 103, .mul = 83, .div = 20, .ldg = 17}},
    /* 17 new closes; 20 x 6 alu; a ratio */
    {"l2_rsi", {.alu = 124, .mul = 3, .div = 3, .ldg = 17}},
    /* 17 new closes and 20 ranges; 20 x 5 alu; a ratio */
    {"l2_brk", {.alu = 105, .mul = 3, .div = 3, .ldg = 37}},
    /* 17 new closes, 19 new volumes; 20 x 10 alu; a ratio */
    {"l2_obv", {.alu = 202, .mul = 3, .div = 3, .ldg = 36}},
    /* 17 new closes, 18 new index levels; 20 x (6 alu, 2 products);
     * ratio, rescale, 2 clamps */
    {"l2_beta", {.alu = 130, .mul = 129, .div = 3, .ldg = 35}},
    /* 17 new closes; 21 x 3 alu; a ratio */
    {"l2_dd", {.alu = 63, .mul = 3, .div = 3, .ldg = 17}},
    /* risk model: 2 + 55 closes, 56 index levels, 58 ranges; 60 x (12 alu,
     * 3 products), two isqrt, q and qmax; the cov > 0 and q > 0 tests */
    {"l3_buy", {.alu = 961, .mul = 542, .div = 18, .ldg = 171, .br = 2}},
    {"l3_buy_cov", {.alu = 7, .div = 3}},
    /* notional, fee, impact, cash */
    {"l3_fill", {.alu = 166, .mul = 49, .div = 9}},
    {"l3_sell", {.alu = 166, .mul = 49, .div = 9}},
};

/* the remaps each per-layer form runs every day (gdt.k's gpu_tdr):
 * layer 1 by its two sides, layer 2 by the 6 indicator kinds, layer 3 by
 * its 3 cases; the other forms remap no layer (not priced) */
static const struct dh_kremap remap_plan[] = {
    {"alg=hot_dgi", "hot", "2", "days"},
    {"alg=hot_warp_scan", "hot_warp", "2", "days"},
    {"alg=dgi", "dgi", "2", "days"},
    {"alg=dgi_scan", "dgi_scan", "2", "days"},
    {"alg=hot_dgi,dgi", "dgi", "6", "days"},
    {"alg=hot_dgi,dgi", "dgi", "3", "days"},
    {"alg=dgi_scan,hot_warp_scan", "dgi_scan", "6", "days"},
    {"alg=dgi_scan,hot_warp_scan", "dgi_scan", "3", "days"},
    {0},
};

static const struct dh_kit kit = {
    .sizes = {"n=1024", "n=131072", "n=524288"}, .items = "n", .noun = "instruments",
    DH_KIT_TABLES(bufs, entries), .defines = gdt_defines, .rules = rules,
    .generate = gdt_gen, .reference = gdt_ref, .free_priv = gdt_release,
    .sort_key = gdt_key, .branch = gdt_branch,
    .define = "GDT_REKEY = rekey",
    .remap_plan = remap_plan,
    /* gdt_gpu_tdr's three remap rounds (ints), as gdt.k declares them:
     * 2 paths (HoT: wg + 2), GDT_NKIND and 3; DGI P * wg / nf + wg + P
     * (dgi_scan: wg / warp); 10 ints a lane carried. The forms without a
     * remap per layer (codes 18 buy_pool, 19 key_regroup, 20 key_buy_pool,
     * 21 kind_buy_pool, 22 key_dlt, 23 key_dlt_buy_pool, 24
     * key_dlt_kind_buy_pool, 26 meld_buy_pool, 27 meld_key_dlt): one array of the larger of the buy pool's 5
     * ints a lane and the regrouping's 2 (10 with rekey; the dlt forms are
     * never rekeyed), 2 counters; with the kind sort (21, 24) also 3 ints
     * a lane and 2 counters a kind */
    .local = "per = alg == DGI_SCAN || alg == HOT_WARP_SCAN ? wg / warp : wg / nf;"
             "two = alg == HOT_DGI || alg == HOT_WARP_SCAN ? wg + 2 : 2 * per + wg + 2;"
             "k = " GDT_STR(GDT_NKIND) ";"
             "pool = alg == 18 || alg == 20 || alg == 21 || alg == 23 || alg == 24 || alg == 26"
             "     ? 5 * wg : 1;"
             "kpool = alg == 21 || alg == 24 ? 3 * wg + 2 * k : 0;"
             "key = alg == 19 || alg == 20 ? (rekey > 0 ? 10 : 2) * wg"
             "    : alg >= 22 && alg <= 24 || alg == 27 ? 2 * wg : 1;"
             "bytes = alg >= 18 ? 4 * (max(pool, key) + 2 + kpool)"
             "      : 4 * (two + (k * per + wg + k) + (3 * per + wg + 3) + 10 * wg)",
};

/* the day loop's iterations (DH_BBV_STEP at its top in every kernel) */
static long gdt_steps(void *state)
{
    const struct dh_khost *h = state;
    return (long)dh_pset_num(&h->vars, "days", 0) - GDT_WARM;
}

const struct dh_bench dh_bench_frontier_gdt = {
    .suite = "frontier", .name = "gdt", .source = dh_src_frontier_gdt,
    .summary = "GP decision tree trading one instrument per item over ~2 years of daily "
               "data, 3 layers",
    .params = params, .sweep = sweep, .variants = "baseline,cpu_tdr,gpu_tdr,melded",
    DH_BENCH_BLOCKS(blocks, "memory"), DH_KIT(kit), .bbv_steps = gdt_steps,
};
