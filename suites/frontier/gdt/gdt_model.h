/* frontier/gdt — internals shared by gdt.c (the declaration on the kit,
 * suites/lib/kit.h) and gdt_model.c (generator, GP tree, CPU reference, sort key).
 * The kernel (gdt.k) does not include this file: the constants below reach
 * it as -D defines (gdt_defines in gdt.c), so there is one definition.
 *
 * The trading rules, in the order of one day (the kernel's header comment
 * says the same for the device side):
 *   - rolling sums: 5/20/50-day closes, 50-day range, 20-day volume,
 *     20/50-day sector index;
 *   - features F0..F7 as ratios num/den: MA5/MA20, MA20/MA50, ATR50/close,
 *     volume spike, 10-day momentum, 20-day strength against the sector
 *     index, the sector index's MA20/MA50 and its 10-day momentum;
 *   - root node: volatility regime r = F2 above its threshold;
 *   - layer 1 (2 paths, key r): regime features R0, R1 over 21 closes
 *     (calm: trend slope and distance to the mean; volatile: efficiency
 *     ratio and stochastic %K);
 *   - a cheap walk of GDT_LEVELS levels in regime r's subtree, testing
 *     num * 1000 > thr * den of one of F0..F7, R0, R1 (the first two
 *     levels test the sector context F6, F7);
 *   - layer 2 (GDT_NKIND paths, key = the frontier node's indicator kind):
 *     one indicator over GDT_W2 days, compared with the node's threshold,
 *     picks a leaf;
 *   - layer 3 (buy, sell; hold skips): from the leaf's action, the position
 *     and the trailing stop; buy sizes the position from a risk model over
 *     GDT_W3 days, buy and sell pay tiered fees and square-root impact;
 *   - mark to market: equity, high-water mark, max drawdown.
 * All integer arithmetic (64-bit where products grow), so every backend
 * matches the reference exactly.
 */
#ifndef DH_FRONTIER_GDT_H
#define DH_FRONTIER_GDT_H

#include <stdint.h>

#define GDT_WARM 64        /* first trading day: the windows are full */
#define GDT_W1 20          /* layer 1: 21 closes */
#define GDT_W2 20          /* layer 2: indicators over 20 days */
#define GDT_W3 60          /* layer 3: buy's risk window */
#define GDT_NFEAT 10       /* F0..F7, R0, R1 */
#define GDT_NKIND 6        /* layer 2 indicator kinds */
#define GDT_LEVELS 5       /* cheap levels per regime subtree */
#define GDT_SUBN 127       /* per subtree: 31 cheap, 32 frontier, 64 leaves */
#define GDT_NODES (1 + 2 * GDT_SUBN)
#define GDT_NI 4           /* ints per node */
#define GDT_CAP0 10000000  /* starting cash per instrument, cents */

/* node ints: root/cheap {feature, thr}, frontier {kind, thr},
 * leaf {action, risk_bp, stop_bp} */
enum { GDT_BUY = 0, GDT_SELL = 1, GDT_HOLD = 2 };
enum { GDT_K_VOLA, GDT_K_RSI, GDT_K_BRK, GDT_K_OBV, GDT_K_BETA, GDT_K_DD };

/* per item-day key byte: layer-1 path | kind << 1 | layer-3 path << 4 */
#define GDT_KEY(r, k, a) ((unsigned char)((r) | ((k) << 1) | ((a) << 4)))
#define GDT_KEY_R(b) ((b) & 1)
#define GDT_KEY_K(b) (((b) >> 1) & 7)
#define GDT_KEY_A(b) (((b) >> 4) & 3)

struct gdt_data {
    long n;                 /* instruments (work-items) */
    int days, sectors;
    unsigned seed;
    /* the caller's arrays (gdt.c: the kit's host buffers), zeroed */
    int *px, *rg, *vl;      /* [days * n], day-major: close (cents), high-low
                               range (cents), volume (lots of 100) */
    int *sec;               /* [n] sector of each instrument */
    int *six;               /* [days * sectors] sector index level */
    int *tree;              /* [GDT_NODES * GDT_NI] the GP tree */
    int *ref;               /* [3 * n] reference: P&L, trades, max drawdown */
    /* gdt_reference's own */
    unsigned char *keys;    /* [days * n] the reference's paths (GDT_KEY) */
};

/* Fill the data and the tree from n, days, sectors and seed; then the
 * reference (ref and keys). 0, or -1 when out of memory. gdt_free frees
 * what they allocated (keys), not the caller's arrays. */
int gdt_generate(struct gdt_data *g);
int gdt_reference(struct gdt_data *g);
void gdt_free(struct gdt_data *g);

/* cpu_tdr's sorting key of instrument i, from the input only: the tree's
 * first decision (the volatility regime) on the first trading day, then
 * the sector; in [0, 2 * sectors). */
int gdt_sort_key(const struct gdt_data *g, long i);

/* Instructions of each path (SASS counts, see gdt_model.c; the remap
 * ceiling's weights): layer 1 by regime, layer 2 by kind, layer 3 buy and
 * sell (hold skips), and the per-day work every item does. */
extern const double gdt_cost_l1[2], gdt_cost_l2[GDT_NKIND], gdt_cost_l3[2];
extern const double gdt_cost_day;

#endif
