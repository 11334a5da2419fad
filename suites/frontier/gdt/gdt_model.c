/* frontier/gdt — the host model: synthetic market data, the GP tree, the
 * CPU reference and cpu_tdr's sorting key. The rules are in gdt.h; this
 * reference is plain C written apart from the kernel: it computes every
 * window sum directly (the kernel keeps rolling sums), and it records each
 * item-day's paths for the remap ceiling.
 *
 * Data (seeded, deterministic, integer only so every machine generates
 * the same bytes):
 *   sectors  an index per sector: a market factor (drift regimes bull /
 *            flat / bear that switch about every 120 days) plus the
 *            sector's own drift regime (switching about every 90 days)
 *            and noise; sectors are correlated through the market;
 *   stocks   a sector, a beta, a volatility class (4 levels, switching to
 *            a neighbour about once in 8 years), a drift, a starting price
 *            of $5-$500 (kept within $1-$5000) and a base volume; daily
 *            return = beta * sector return + drift + class noise with rare
 *            jumps; range and volume follow the class and the size of the
 *            move, volume with spikes.
 * The GP tree (grow_tree) is generated from the seed, not evolved; its
 * shape is what evolved trading trees tend to have: regime split at the
 * root, context tests near the top, indicator building blocks below.
 */
#include <stdlib.h>

#include "gdt_model.h"

#define GDT_DOMINANT 85    /* percent of a level-2 subtree's indicator nodes
                              that use its favourite kind */
#define GDT_VSWITCH 2000   /* a volatility class changes once in this many days */
#define GDT_PTRADE 22      /* percent of leaves that buy, and that sell */

/* Instructions per path, counted in the SASS of gdt.k for sm_90 (nvcc
 * 13.0, every path in a kernel of its own; loops are unrolled, a 64-bit
 * division that needs more than 32 bits calls a ~80-instruction routine).
 * The remap ceiling's path weights, and what the CFE estimate used. */
const double gdt_cost_l1[2] = {215, 190};
const double gdt_cost_l2[GDT_NKIND] = {635, 180, 170, 280, 300, 100};
const double gdt_cost_l3[2] = {1750, 370};
const double gdt_cost_day = 280;

/* splitmix64 */
static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int urange(uint64_t *s, int k)
{
    return (int)(mix(s) % (uint64_t)k);
}

/* about N(0, 1000): a sum of four uniforms */
static int gauss(uint64_t *s)
{
    int64_t t = 0;
    for (int k = 0; k < 4; k++)
        t += (int64_t)(mix(s) >> 48) - 32768;
    return (int)(t * 1000 / 37837);
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static int iabs(int v)
{
    return v < 0 ? -v : v;
}

#define PX(d) g->px[(long)(d) * g->n + i]
#define RG(d) g->rg[(long)(d) * g->n + i]
#define VL(d) g->vl[(long)(d) * g->n + i]
#define SX(d) g->six[(long)(d) * g->sectors + g->sec[i]]

/* ---- generator ---- */

static int gen_sectors(struct gdt_data *g, int *rs)
{
    int S = g->sectors;
    uint64_t st = 0x6764745345435453ULL ^ ((uint64_t)g->seed << 32) ^ g->seed;
    int mu_m = 2;
    int *mu = malloc((size_t)S * sizeof *mu), *sig = malloc((size_t)S * sizeof *sig);
    int64_t *lev = malloc((size_t)S * sizeof *lev);
    if (!mu || !sig || !lev) {
        free(mu); free(sig); free(lev);
        return -1;
    }
    for (int s = 0; s < S; s++) {
        sig[s] = 60 + urange(&st, 60);
        mu[s] = (urange(&st, 3) - 1) * 10;
        lev[s] = 100000;
    }
    for (int d = 0; d < g->days; d++) {
        if (urange(&st, 120) == 0)
            mu_m = (urange(&st, 3) - 1) * 7;
        int rm = mu_m + 90 * gauss(&st) / 1000;
        for (int s = 0; s < S; s++) {
            if (urange(&st, 90) == 0)
                mu[s] = (urange(&st, 3) - 1) * 10;
            int r = (int)clamp64(rm * 7 / 10 + mu[s] + sig[s] * gauss(&st) / 1000, -2000, 2000);
            if (d > 0)
                lev[s] = clamp64(lev[s] + lev[s] * r / 10000, 10000, 2000000);
            else
                r = 0;
            g->six[(long)d * S + s] = (int)lev[s];
            rs[(long)d * S + s] = r;
        }
    }
    free(mu); free(sig); free(lev);
    return 0;
}

static void gen_stocks(struct gdt_data *g, const int *rs)
{
    static const int sigma[4] = {70, 130, 230, 380};      /* bp per day */
    long n = g->n;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        uint64_t st = ((uint64_t)g->seed * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)(i + 1) * 0xd1b54a32d192ed03ULL);
        mix(&st);
        int sec = urange(&st, g->sectors);
        int beta = 50 + urange(&st, 110);                  /* percent */
        int vc = urange(&st, 4);
        int mu = urange(&st, 11) - 5;
        int64_t p = 500 + urange(&st, 1000) * urange(&st, 50);
        int64_t bv = 20 + urange(&st, 200) * urange(&st, 200) / 2;
        g->sec[i] = sec;
        for (int d = 0; d < g->days; d++) {
            if (urange(&st, GDT_VSWITCH) == 0)
                vc = (int)clamp64(vc + (urange(&st, 2) ? 1 : -1), 0, 3);
            int sig = sigma[vc];
            int z = gauss(&st);
            if (urange(&st, 150) == 0)
                z *= 4;
            int r = (int)clamp64((int64_t)beta * rs[(long)d * g->sectors + sec] / 100 + mu
                                 + (int64_t)sig * z / 1000, -2500, 2500);
            if (d > 0)
                p = clamp64(p + p * r / 10000, 100, 500000);
            int64_t rg = p * ((int64_t)sig * (60 + urange(&st, 80)) / 100 + iabs(r) / 2) / 10000 + 1;
            int64_t v = bv * (60 + urange(&st, 80)) / 100 + bv * iabs(r) / (2 * sig);
            if (urange(&st, 40) == 0)
                v *= 3 + urange(&st, 4);
            g->px[(long)d * n + i] = (int)p;
            g->rg[(long)d * n + i] = (int)rg;
            g->vl[(long)d * n + i] = (int)(v < 1 ? 1 : v);
        }
    }
}

/* ---- the trading rules, computed directly ---- */

/* F0..F7 of instrument i on day d (d >= GDT_WARM); *v20 the 20-day volume */
static void base_features(const struct gdt_data *g, long i, int d, int64_t *num, int64_t *den,
                          int *v20)
{
    int64_t s5 = 0, s20 = 0, s50 = 0, a50 = 0, sv = 0, x20 = 0, x50 = 0;
    for (int t = 0; t < 50; t++) {
        int p = PX(d - t);
        s50 += p;
        a50 += RG(d - t);
        x50 += SX(d - t);
        if (t < 20) {
            s20 += p;
            sv += VL(d - t);
            x20 += SX(d - t);
        }
        if (t < 5)
            s5 += p;
    }
    int64_t c = PX(d), v = VL(d), p10 = PX(d - 10), p20 = PX(d - 20);
    int64_t sd = SX(d), s10x = SX(d - 10), s20x = SX(d - 20);
    num[0] = 4 * s5 - s20;        den[0] = s20;         /* MA5 / MA20 */
    num[1] = 5 * s20 - 2 * s50;   den[1] = 2 * s50;     /* MA20 / MA50 */
    num[2] = a50;                 den[2] = 50 * c;      /* ATR50 / close */
    num[3] = 20 * v - sv;         den[3] = sv;          /* volume spike */
    num[4] = c - p10;             den[4] = p10;         /* momentum */
    num[5] = c * s20x - p20 * sd; den[5] = p20 * sd;    /* against the sector */
    num[6] = 5 * x20 - 2 * x50;   den[6] = 2 * x50;     /* sector trend */
    num[7] = sd - s10x;           den[7] = s10x;        /* sector momentum */
    *v20 = (int)sv;
}

/* layer 1: regime features over the 21 closes d-20..d */
_Static_assert(GDT_W1 == 20, "the regression constants assume 21 closes");
static void regime_features(const struct gdt_data *g, long i, int d, int r, int *r0, int *r1)
{
    int64_t c = PX(d);
    if (r == 0) {                               /* calm: trend */
        int64_t sp = 0, sxp = 0;
        for (int x = 0; x <= GDT_W1; x++) {     /* x: 0 = oldest */
            int64_t p = PX(d - GDT_W1 + x);
            sp += p;
            sxp += x * p;
        }
        /* least-squares slope over 21 points: (21 Sxp - Sx Sp) / 16170,
         * as per mille of the mean over 20 days */
        int64_t num = (GDT_W1 + 1) * sxp - 210 * sp;
        *r0 = (int)(num * 42000 / (1617 * sp));
        *r1 = (int)(((GDT_W1 + 1) * c - sp) * 1000 / sp);
    } else {                                    /* volatile: oscillators */
        int64_t sab = 0, hi = PX(d - GDT_W1), lo = hi;
        for (int t = GDT_W1 - 1; t >= 0; t--) {
            int64_t p = PX(d - t), q = PX(d - t - 1);
            sab += p > q ? p - q : q - p;
            if (p > hi) hi = p;
            if (p < lo) lo = p;
        }
        int64_t net = c - PX(d - GDT_W1);
        *r0 = (int)((net < 0 ? -net : net) * 1000 / (sab + 1));
        *r1 = (int)((c - lo) * 1000 / (hi - lo + 1));
    }
}

/* layer 2: the indicator of `kind` on day d */
static int indicator(const struct gdt_data *g, long i, int d, int kind)
{
    int64_t c = PX(d), a = 0, b = 0;
    switch (kind) {
    case GDT_K_VOLA:                            /* variance of daily returns, bp^2 */
        for (int t = 0; t < GDT_W2; t++) {
            int64_t p = PX(d - t), q = PX(d - t - 1);
            int64_t r = clamp64((p - q) * 10000 / q, -9999, 9999);
            a += r * r;
        }
        return (int)(a / GDT_W2);
    case GDT_K_RSI:                             /* up moves / all moves, per mille */
        for (int t = 0; t < GDT_W2; t++) {
            int64_t dp = PX(d - t) - PX(d - t - 1);
            if (dp > 0) a += dp; else b -= dp;
        }
        return (int)(a * 1000 / (a + b + 1));
    case GDT_K_BRK: {                           /* place in the 20-day high-low band */
        int64_t hh = INT64_MIN, ll = INT64_MAX;
        for (int t = 1; t <= GDT_W2; t++) {
            int64_t h = PX(d - t) + RG(d - t) / 2, l = PX(d - t) - RG(d - t) / 2;
            if (h > hh) hh = h;
            if (l < ll) ll = l;
        }
        return (int)((c - ll) * 1000 / (hh - ll + 1));
    }
    case GDT_K_OBV:                             /* on-balance volume / volume */
        for (int t = 0; t < GDT_W2; t++) {
            int64_t dp = PX(d - t) - PX(d - t - 1), v = VL(d - t);
            a += dp > 0 ? v : dp < 0 ? -v : 0;
            b += v;
        }
        return (int)(a * 1000 / (b + 1));
    case GDT_K_BETA: {                          /* beta against the sector index */
        for (int t = 0; t < GDT_W2; t++) {
            int64_t dp = PX(d - t) - PX(d - t - 1), ds = SX(d - t) - SX(d - t - 1);
            a += dp * ds;
            b += ds * ds;
        }
        int64_t cb = clamp64(a * 1000 / (b + 1), -1000000000, 1000000000);
        return (int)clamp64(cb * SX(d) / c, -1000000, 1000000);
    }
    default: {                                  /* deepest drawdown in the window */
        int64_t m = 0, dd = 0;
        for (int t = GDT_W2; t >= 0; t--) {
            int64_t p = PX(d - t);
            if (p > m) m = p;
            if (m - p > dd) dd = m - p;
        }
        return (int)(dd * 1000 / m);
    }
    }
}

static int isqrt32(int64_t v)
{
    int64_t r = 0;
    while ((r + 1) * (r + 1) <= v)
        r++;
    return (int)r;
}

/* faster for the large values of the risk model; same result */
static int isqrt(int64_t v)
{
    if (v < 1024)
        return isqrt32(v);
    int64_t r = 1;
    while (r * r < v)
        r *= 2;
    int64_t lo = r / 2, hi = r;                 /* lo^2 < v <= hi^2 */
    while (lo < hi) {
        int64_t m = (lo + hi + 1) / 2;
        if (m * m <= v) lo = m; else hi = m - 1;
    }
    return (int)lo;
}

/* tiered commission: 100 cents a ticket, then 8.0 .. 1.5 bp a tier */
static int64_t fee(int64_t notional)
{
    int64_t f = 100;
    for (int k = 0; k < 6; k++) {
        int64_t lo = 250000LL * k * k * k, hi = k == 5 ? INT64_MAX / 4 : 250000LL * (k + 1) * (k + 1) * (k + 1);
        int64_t part = notional - lo;
        part = part < 0 ? 0 : part > hi - lo ? hi - lo : part;
        f += part * (80 - 13 * k) / 100000;
    }
    return f;
}

/* square-root market impact: 10 bp at 1% of the average daily volume */
static int64_t impact(int64_t qty, int v20, int64_t notional)
{
    int64_t adv = (int64_t)v20 * 5;             /* shares a day */
    int64_t part = clamp64(qty * 10000 / (adv + 1), 0, 1000000);
    int ibp = isqrt(part * 100) / 10;
    return notional * ibp / 10000;
}

/* buy: shares to buy with `cash` risking risk_bp of it, from the range,
 * the downside deviation and the sector co-movement over GDT_W3 days */
static int64_t buy_qty(const struct gdt_data *g, long i, int d, int64_t cash, int risk_bp)
{
    int64_t atr = 0, dn = 0, cov = 0, vs = 0;
    for (int t = 0; t < GDT_W3; t++) {
        int64_t dp = PX(d - t) - PX(d - t - 1), ds = SX(d - t) - SX(d - t - 1);
        atr += RG(d - t);
        if (dp < 0)
            dn += dp * dp;
        cov += dp * ds;
        vs += ds * ds;
    }
    int64_t unit = 2 * atr / GDT_W3 + isqrt(clamp64(dn / GDT_W3, 0, 1 << 30));
    int vsq = isqrt(clamp64(vs * GDT_W3, 0, 1 << 30));
    if (cov > 0)
        unit += clamp64(cov / (vsq + 1), 0, 1 << 20);
    if (unit < 1)
        unit = 1;
    int64_t q = cash * risk_bp / 10000 / unit;
    int64_t qmax = (cash - cash / 50) / PX(d);
    return q < qmax ? q : qmax;
}

/* the tree walk of one day: leaf node and the path keys */
static int walk(const struct gdt_data *g, long i, int d, int *r_out, int *kind_out, int *v20)
{
    int64_t num[GDT_NFEAT], den[GDT_NFEAT];
    const int *T = g->tree;
    base_features(g, i, d, num, den, v20);
    int r = num[2] * 1000 > (int64_t)T[1] * den[2];
    int r0, r1;
    regime_features(g, i, d, r, &r0, &r1);
    num[8] = r0; den[8] = 1000;
    num[9] = r1; den[9] = 1000;
    int base = 1 + r * GDT_SUBN, j = 0;
    for (int lev = 0; lev < GDT_LEVELS; lev++) {
        const int *nd = T + (base + j) * GDT_NI;
        j = 2 * j + 1 + (num[nd[0]] * 1000 > (int64_t)nd[1] * den[nd[0]]);
    }
    const int *fn = T + (base + j) * GDT_NI;
    int val = indicator(g, i, d, fn[0]);
    j = 2 * j + 1 + (val > fn[1]);
    *r_out = r;
    *kind_out = fn[0];
    return base + j;
}

static void reference_one(const struct gdt_data *g, long i)
{
    int64_t cash = GDT_CAP0, qty = 0, peak = 0, hwm = GDT_CAP0, mdd = 0, eq = GDT_CAP0;
    int stop = 0, trades = 0;
    for (int d = 0; d < GDT_WARM; d++)
        g->keys[(long)d * g->n + i] = 0xff;
    for (int d = GDT_WARM; d < g->days; d++) {
        int r, kind, v20;
        int leaf = walk(g, i, d, &r, &kind, &v20);
        const int *lf = g->tree + leaf * GDT_NI;
        int64_t c = PX(d);
        int a = GDT_HOLD;
        if (qty > 0 && c * 10000 < peak * (10000 - stop))
            a = GDT_SELL;                       /* trailing stop */
        else if (lf[0] == GDT_BUY && qty == 0)
            a = GDT_BUY;
        else if (lf[0] == GDT_SELL && qty > 0)
            a = GDT_SELL;
        g->keys[(long)d * g->n + i] = GDT_KEY(r, kind, a);
        if (a == GDT_BUY) {
            int64_t q = buy_qty(g, i, d, cash, lf[1]);
            if (q > 0) {
                int64_t nt = q * c;
                cash -= nt + fee(nt) + impact(q, v20, nt);
                qty = q;
                peak = c;
                stop = lf[2];
                trades++;
            }
        } else if (a == GDT_SELL) {
            int64_t nt = qty * c;
            cash += nt - fee(nt) - impact(qty, v20, nt);
            qty = 0;
            trades++;
        }
        if (qty > 0 && c > peak)
            peak = c;
        eq = cash + qty * c;
        if (eq > hwm)
            hwm = eq;
        if (hwm - eq > mdd)
            mdd = hwm - eq;
    }
    g->ref[i] = (int)(eq - GDT_CAP0);
    g->ref[g->n + i] = trades;
    g->ref[2 * g->n + i] = (int)mdd;
}

/* ---- the GP tree ---- */

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

#define NSAMPLE 4096
/* value distributions of every test, by regime: features, then kinds */
struct dist {
    int v[2][GDT_NFEAT + GDT_NKIND][NSAMPLE];
    int cnt[2];
};

static int quant(const struct dist *D, int r, int what, uint64_t *st)
{
    int m = D->cnt[r];
    if (m == 0)
        return 0;
    int q = 300 + urange(st, 401);                      /* 0.3 .. 0.7 */
    return D->v[r][what][(long)q * (m - 1) / 1000];
}

/* Thresholds come from the data's own distributions at the node's regime
 * (GP evolves thresholds inside the range its data reach). The first two
 * levels of each subtree test slow features (trend, volatility, sector
 * strength, R0); each level-2 subtree favours one indicator kind, as
 * evolved building blocks do. */
static int grow_tree(struct gdt_data *g)
{
    struct dist *D = calloc(1, sizeof *D);
    int *f2 = malloc(NSAMPLE * sizeof *f2);
    if (!D || !f2) {
        free(D); free(f2);
        return -1;
    }
    uint64_t st = 0x7472656547445400ULL ^ g->seed;
    for (int m = 0; m < NSAMPLE; m++) {
        long i = (long)(mix(&st) % (uint64_t)g->n);
        int d = GDT_WARM + urange(&st, g->days - GDT_WARM);
        int64_t num[GDT_NFEAT], den[GDT_NFEAT];
        int v20;
        base_features(g, i, d, num, den, &v20);
        f2[m] = (int)(num[2] * 1000 / den[2]);
    }
    qsort(f2, NSAMPLE, sizeof *f2, cmp_int);
    g->tree[0] = 2;
    g->tree[1] = f2[NSAMPLE / 2];
    st ^= 0x5a5a;
    for (int m = 0; m < NSAMPLE; m++) {
        long i = (long)(mix(&st) % (uint64_t)g->n);
        int d = GDT_WARM + urange(&st, g->days - GDT_WARM);
        int64_t num[GDT_NFEAT], den[GDT_NFEAT];
        int v20, r0, r1;
        base_features(g, i, d, num, den, &v20);
        int r = num[2] * 1000 > (int64_t)g->tree[1] * den[2];
        regime_features(g, i, d, r, &r0, &r1);
        int k = D->cnt[r]++;
        for (int f = 0; f < 8; f++)
            D->v[r][f][k] = (int)clamp64(num[f] * 1000 / den[f], -1000000000, 1000000000);
        D->v[r][8][k] = r0;
        D->v[r][9][k] = r1;
        for (int q = 0; q < GDT_NKIND; q++)
            D->v[r][GDT_NFEAT + q][k] = indicator(g, i, d, q);
    }
    for (int r = 0; r < 2; r++)
        for (int w = 0; w < GDT_NFEAT + GDT_NKIND; w++)
            qsort(D->v[r][w], (size_t)D->cnt[r], sizeof(int), cmp_int);
    static const int sector_ctx[2] = {6, 7};
    for (int r = 0; r < 2; r++) {
        int base = 1 + r * GDT_SUBN, dom[4];
        for (int k = 0; k < 4; k++)
            dom[k] = urange(&st, GDT_NKIND);
        for (int j = 0; j < GDT_SUBN; j++) {
            int *nd = g->tree + (base + j) * GDT_NI;
            if (j < 31) {                               /* cheap test */
                int f = j < 3 ? sector_ctx[urange(&st, 2)] : urange(&st, GDT_NFEAT);
                nd[0] = f;
                nd[1] = quant(D, r, f, &st);
            } else if (j < 63) {                        /* indicator test */
                int k = urange(&st, 100) < GDT_DOMINANT ? dom[((j + 1) >> 3) - 4] : urange(&st, GDT_NKIND);
                nd[0] = k;
                nd[1] = quant(D, r, GDT_NFEAT + k, &st);
            } else {                                    /* leaf */
                int u = urange(&st, 100);
                nd[0] = u < GDT_PTRADE ? GDT_BUY : u < 2 * GDT_PTRADE ? GDT_SELL : GDT_HOLD;
                nd[1] = 50 + urange(&st, 150);
                nd[2] = 400 + urange(&st, 1100);
            }
        }
    }
    free(D);
    free(f2);
    return 0;
}

int gdt_sort_key(const struct gdt_data *g, long i)
{
    int64_t a50 = 0, d = GDT_WARM;
    for (int t = 0; t < 50; t++)
        a50 += RG(d - t);
    int r = a50 * 1000 > (int64_t)g->tree[1] * 50 * PX(d);
    return r * g->sectors + g->sec[i];
}

void gdt_free(struct gdt_data *g)
{
    free(g->keys);
    g->keys = NULL;
}

int gdt_generate(struct gdt_data *g)
{
    int *rs = malloc((size_t)g->days * (size_t)g->sectors * sizeof *rs);
    if (!rs || gen_sectors(g, rs)) {
        free(rs);
        return -1;
    }
    gen_stocks(g, rs);
    free(rs);
    return grow_tree(g);
}

int gdt_reference(struct gdt_data *g)
{
    g->keys = malloc((size_t)g->days * (size_t)g->n);
    if (!g->keys)
        return -1;
#pragma omp parallel for schedule(dynamic, 64)
    for (long i = 0; i < g->n; i++)
        reference_one(g, i);
    return 0;
}
