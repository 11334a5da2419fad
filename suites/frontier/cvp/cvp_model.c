/* frontier/cvp — image generator, trained model (tree and tables), and the
 * independent CPU reference of the prediction. Plain C, integers only; the
 * kernel (cvp.k) is written separately in the dialect and must agree to
 * the last bit. The algorithms, per model (W = west, N = north, ... the
 * causal neighbours of the pixel; "case" = the layer-2 refinement):
 *   FLAT     contrast of 6 neighbours <= T_RUN: RUN (W) | SMOOTH (mean of
 *            W, N, NW, NE: the feature f3)
 *   MED      JPEG-LS: gradients quantized to a context, its trained bias;
 *            median edge detector EDGE_MIN | EDGE_MAX | PLANAR
 *   GAP      CALIC-like, gradients dh, dv over 24 pixel pairs: SHARP_H |
 *            SHARP_V (4-tap extrapolation along the edge, corrected by the
 *            parallel line) | WEAK_H | WEAK_V | SMOOTH (gradient-adjusted)
 *   FILTER   range/space weighted mean of the 40 causal pixels, two
 *            mean-shift steps (the second centred on the first): HIGH (total
 *            weight) | LOW (blend with MED) | VLOW (one more pass, wider)
 *   PLANE    robust plane over the 40 causal pixels (least squares, one
 *            reweighted pass): ON | OFF (plane at W misses) | CURVED
 *            (spatially weighted mean residual)
 *   TEXTURE  template matching over 24 candidates of the larger window:
 *            COPY | BLEND (two best) | NLM (non-local mean of all 24)
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cvp_model.h"

/* Instruction counts of the paths: SASS of each path compiled alone
 * (nvcc 13, sm_90, cuobjdump; loops unrolled, the window already in
 * registers); FILTER's two passes are a loop of two; MED's quantizer and
 * PLANE's 64-bit divisions counted on the branches a pixel takes. */
const double cvp_cost_model[CVP_NMODEL] = {4, 45, 75, 890, 850, 442};
const double cvp_cost_key[CVP_NKEY] = {
    1, 1,                 /* FLAT: RUN, SMOOTH */
    2, 2, 2,              /* MED: EDGE_MIN, EDGE_MAX, PLANAR */
    8, 8, 8, 8, 6,        /* GAP: SHARP_H, SHARP_V, WEAK_H, WEAK_V, SMOOTH */
    27, 35, 462,          /* FILTER: HIGH, LOW, VLOW */
    4, 6, 235,            /* PLANE: ON, OFF, CURVED */
    1, 43, 447,           /* TEXTURE: COPY, BLEND, NLM */
};
const int cvp_key_base[CVP_NMODEL + 1] = {
    CVP_BASE_FLAT, CVP_BASE_MED, CVP_BASE_GAP, CVP_BASE_FILTER, CVP_BASE_PLANE,
    CVP_BASE_TEXTURE, CVP_NKEY,
};

#define PX(dy, dx) ((int)p[(dy) * st + (dx)])

static int iabs(int v) { return v < 0 ? -v : v; }
static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }

/* ---- features and the tree ---- */

void cvp_features(const uint16_t *p, int st, int f[CVP_NFEAT])
{
    int W = PX(0, -1), WW = PX(0, -2), N = PX(-1, 0), NW = PX(-1, -1), NE = PX(-1, 1);
    int NN = PX(-2, 0), NNE = PX(-2, 1), NNW = PX(-2, -1), NWW = PX(-1, -2);
    f[0] = iabs(W - WW) + iabs(N - NW) + iabs(NE - N);
    f[1] = iabs(W - NW) + iabs(N - NN) + iabs(NE - NNE);
    int mx = imax(imax(imax(W, WW), imax(N, NW)), imax(NE, NN));
    int mn = imin(imin(imin(W, WW), imin(N, NW)), imin(NE, NN));
    f[2] = mx - mn;
    f[3] = (W + N + NW + NE + 2) >> 2;
    f[4] = f[0] - f[1];
    f[5] = iabs(NW + NE - 2 * N) + iabs(NNW + NNE - 2 * NN) + iabs(NWW + N - 2 * NW);
    /* wide contrast: the window's corners and edges against W and N */
    int a = PX(-4, -4), b = PX(-4, 0), c = PX(-4, 4), d = PX(0, -4);
    mx = imax(imax(imax(a, b), imax(c, d)), imax(W, N));
    mn = imin(imin(imin(a, b), imin(c, d)), imin(W, N));
    f[6] = mx - mn;
}

int cvp_walk(const int32_t *prm, const int f[CVP_NFEAT], int *depth)
{
    int n = 0, d = 0;
    while (prm[4 * n] >= 0) {
        n = f[prm[4 * n]] <= prm[4 * n + 1] ? prm[4 * n + 2] : prm[4 * n + 3];
        d++;
    }
    if (depth)
        *depth = d;
    return prm[4 * n + 1];
}

/* ---- the models: layer 1 (pre: returns the case, fills s) and layer 2
 * (fin: the case's prediction, unclamped) ---- */

static int med_q(int g)
{
    if (g <= -CVP_C_Q3) return -4;
    if (g <= -CVP_C_Q2) return -3;
    if (g <= -CVP_C_Q1) return -2;
    if (g < 0) return -1;
    if (g == 0) return 0;
    if (g < CVP_C_Q1) return 1;
    if (g < CVP_C_Q2) return 2;
    if (g < CVP_C_Q3) return 3;
    return 4;
}

/* MED context (0..364) and whether its sign was folded */
static int med_ctx(const uint16_t *p, int st, int *neg)
{
    int W = PX(0, -1), N = PX(-1, 0), NW = PX(-1, -1), NE = PX(-1, 1);
    int ctx = 81 * med_q(NE - N) + 9 * med_q(N - NW) + med_q(NW - W);
    *neg = ctx < 0;
    return ctx < 0 ? -ctx : ctx;
}

static int med_pred(int W, int N, int NW)
{
    int mx = imax(W, N), mn = imin(W, N);
    return NW >= mx ? mn : NW <= mn ? mx : W + N - NW;
}

/* the 40 causal pixels of the window, in order: rows -4..-1 (dx -4..4),
 * then row 0 (dx -4..-1) */
static int win_dy(int k) { return k < 36 ? k / 9 - 4 : 0; }
static int win_dx(int k) { return k < 36 ? k % 9 - 4 : k - 40; }

static void filter_pass(const int32_t *prm, const uint16_t *p, int st, int ref, int sh,
                        int *sw, int *swv)
{
    int a = 0, b = 0;
    for (int k = 0; k < 40; k++) {
        int v = PX(win_dy(k), win_dx(k));
        int w = prm[CVP_OFF_SW + k] * prm[CVP_OFF_RL + imin(iabs(v - ref) >> sh, 15)];
        a += w;
        b += w * v;
    }
    *sw = a;
    *swv = b;
}

/* template SAD of the candidate at (cy, cx) against (W, NW, N, NE) */
static int tex_sad(const uint16_t *p, int st, int cy, int cx)
{
    return iabs(PX(cy, cx - 1) - PX(0, -1)) + iabs(PX(cy - 1, cx - 1) - PX(-1, -1))
           + iabs(PX(cy - 1, cx) - PX(-1, 0)) + iabs(PX(cy - 1, cx + 1) - PX(-1, 1));
}

/* the 24 candidates: rows -3..-1 (dx -3..3), row 0 (dx -3..-1) */
#define TEX_CAND(k, cy, cx)                                                   \
    int cy = (k) < 21 ? (k) / 7 - 3 : 0;                                      \
    int cx = (k) < 21 ? (k) % 7 - 3 : (k) - 24

static int pre(int m, const int32_t *prm, const uint16_t *p, int st, const int f[CVP_NFEAT],
               int s[4])
{
    int W = PX(0, -1), N = PX(-1, 0), NW = PX(-1, -1);
    s[0] = s[1] = s[2] = s[3] = 0;
    switch (m) {
    case CVP_FLAT:
        s[0] = W;
        s[1] = f[3];
        return f[2] <= CVP_C_T_RUN ? 0 : 1;
    case CVP_MED: {
        int neg, ctx = med_ctx(p, st, &neg);
        int b = prm[CVP_OFF_BIAS + ctx];
        s[0] = neg ? -b : b;
        s[1] = W;
        s[2] = N;
        s[3] = NW;
        int mx = imax(W, N), mn = imin(W, N);
        return NW >= mx ? 0 : NW <= mn ? 1 : 2;
    }
    case CVP_GAP: {
        int dh = iabs(W - PX(0, -2)) + iabs(PX(0, -2) - PX(0, -3));
        int dv = iabs(W - NW) + iabs(PX(0, -2) - PX(-1, -2));
        for (int dy = -2; dy <= -1; dy++)
            for (int dx = -2; dx <= 2; dx++) {
                dh += iabs(PX(dy, dx) - PX(dy, dx - 1));
                dv += iabs(PX(dy, dx) - PX(dy - 1, dx));
            }
        s[0] = dh;
        s[1] = dv;
        int d = dv - dh;
        return d > CVP_C_G_SHARP ? 0 : d < -CVP_C_G_SHARP ? 1 : d > CVP_C_G_WEAK ? 2
               : d < -CVP_C_G_WEAK ? 3 : 4;
    }
    case CVP_FILTER: {
        int sw, swv;            /* two mean-shift steps from (W + N) / 2 */
        filter_pass(prm, p, st, (W + N + 1) >> 1, CVP_C_F_RS, &sw, &swv);
        filter_pass(prm, p, st, (swv + sw / 2) / sw, CVP_C_F_RS, &sw, &swv);
        s[0] = sw;
        s[1] = swv;
        return sw >= CVP_C_F_HI ? 0 : sw >= CVP_C_F_LO ? 1 : 2;
    }
    case CVP_PLANE: {
        /* least squares over the 40 causal pixels (the normal matrix is a
         * constant: M^-1 = adj / 702000), then one reweighted pass solved
         * by Cramer's rule in 64 bits */
        int s0 = 0, sx = 0, sy = 0;
        for (int k = 0; k < 40; k++) {
            int dy = win_dy(k), dx = win_dx(k), v = PX(dy, dx);
            s0 += v;
            sx += dx * v;
            sy += dy * v;
        }
        int c16 = (27 * s0 + sx + 9 * sy) * 16 / 260;
        int gx16 = (3 * s0 + 3 * sx + sy) * 16 / 780;
        int gy16 = (243 * s0 + 9 * sx + 107 * sy) * 16 / 7020;
        int64_t a00 = 0, a01 = 0, a02 = 0, a11 = 0, a12 = 0, a22 = 0, b0 = 0, b1 = 0, b2 = 0;
        for (int k = 0; k < 40; k++) {
            int dy = win_dy(k), dx = win_dx(k), v = PX(dy, dx);
            int e = iabs(16 * v - (c16 + gx16 * dx + gy16 * dy)) >> 4;
            int wt = imax(1, 16 - (e >> CVP_C_P_RSH));
            a00 += wt;
            a01 += wt * dx;
            a02 += wt * dy;
            a11 += wt * dx * dx;
            a12 += wt * dx * dy;
            a22 += wt * dy * dy;
            b0 += wt * v;
            b1 += wt * dx * v;
            b2 += wt * dy * v;
        }
        /* the inverse's first column (cofactors) and the three solutions */
        int64_t m00 = a11 * a22 - a12 * a12, m01 = a01 * a22 - a12 * a02;
        int64_t m02 = a01 * a12 - a11 * a02;
        int64_t det = a00 * m00 - a01 * m01 + a02 * m02;
        int64_t nc = b0 * m00 - a01 * (b1 * a22 - a12 * b2) + a02 * (b1 * a12 - a11 * b2);
        int64_t nx = a00 * (b1 * a22 - b2 * a12) - b0 * m01 + a02 * (a01 * b2 - b1 * a02);
        int64_t ny = a00 * (a11 * b2 - a12 * b1) - a01 * (a01 * b2 - a02 * b1) + b0 * m02;
        c16 = (int)(16 * nc / det);
        gx16 = (int)(16 * nx / det);
        gy16 = (int)(16 * ny / det);
        int r = 16 * W - (c16 - gx16);
        s[0] = c16;
        s[1] = gx16;
        s[2] = gy16;
        s[3] = r;
        return iabs(r) <= CVP_C_P_ON ? 0 : iabs(r) <= CVP_C_P_OFF ? 1 : 2;
    }
    default: { /* TEXTURE */
        int s1 = INT_MAX, v1 = W, s2 = INT_MAX, v2 = W;
        for (int k = 0; k < 24; k++) {
            TEX_CAND(k, cy, cx);
            int sad = tex_sad(p, st, cy, cx), v = PX(cy, cx);
            if (sad < s1) {
                s2 = s1;
                v2 = v1;
                s1 = sad;
                v1 = v;
            } else if (sad < s2) {
                s2 = sad;
                v2 = v;
            }
        }
        s[0] = s1;
        s[1] = v1;
        s[2] = s2;
        s[3] = v2;
        return s1 <= CVP_C_X_COPY ? 0 : s1 <= CVP_C_X_BLEND ? 1 : 2;
    }
    }
}

static int fin(int m, int c, const int32_t *prm, const uint16_t *p, int st, const int s[4])
{
    int W = PX(0, -1), N = PX(-1, 0), NW = PX(-1, -1), NE = PX(-1, 1);
    switch (m) {
    case CVP_FLAT:
        return c == 0 ? s[0] : s[1];
    case CVP_MED:
        if (c == 0) return imin(s[1], s[2]) + s[0];
        if (c == 1) return imax(s[1], s[2]) + s[0];
        return s[1] + s[2] - s[3] + s[0];
    case CVP_GAP:
        if (c <= 1) {
            /* 4-tap least-squares extrapolation along the edge (weights
             * 2, 1, 0, -1 over 2), corrected by the parallel line's miss */
            int e0 = 0, e1 = 0;
            for (int t = 1; t <= 4; t++) {
                e0 += (3 - t) * (c == 0 ? PX(0, -t) : PX(-t, 0));
                e1 += (3 - t) * (c == 0 ? PX(-1, -t) : PX(-t, -1));
            }
            return (2 * e0 + 2 * (c == 0 ? N : W) - e1) / 4;
        } else {
            int base4 = 2 * (W + N) + NE - NW;
            if (c == 2) return (3 * base4 + 4 * W) / 16;
            if (c == 3) return (3 * base4 + 4 * N) / 16;
            return base4 / 4;
        }
    case CVP_FILTER:
        if (c == 0)
            return (s[1] + s[0] / 2) / s[0];
        if (c == 1)
            return ((s[1] + s[0] / 2) / s[0] + med_pred(W, N, NW)) / 2;
        else {
            int sw, swv;
            filter_pass(prm, p, st, (W + N + NW + NE + 2) >> 2, CVP_C_F_RS + 2, &sw, &swv);
            return (swv + sw / 2) / sw;
        }
    case CVP_PLANE:
        if (c == 0)
            return (s[0] + 8) / 16;
        if (c == 1)
            return (s[0] + s[3] / 2 + 8) / 16;
        else {
            int se = 0, sw = 0;
            for (int k = 0; k < 40; k++) {
                int dy = win_dy(k), dx = win_dx(k);
                int e = 16 * PX(dy, dx) - (s[0] + s[1] * dx + s[2] * dy);
                se += prm[CVP_OFF_SW + k] * e;
                sw += prm[CVP_OFF_SW + k];
            }
            return (s[0] + se / sw + 8) / 16;
        }
    default: /* TEXTURE */
        if (c == 0)
            return s[1];
        if (c == 1) {
            int w1 = prm[CVP_OFF_TL + imin(s[0] >> CVP_C_X_SH, 15)];
            int w2 = prm[CVP_OFF_TL + imin(s[2] >> CVP_C_X_SH, 15)];
            return (w1 * s[1] + w2 * s[3] + (w1 + w2) / 2) / (w1 + w2);
        } else {
            int sw = 0, swv = 0;
            for (int k = 0; k < 24; k++) {
                TEX_CAND(k, cy, cx);
                int w = prm[CVP_OFF_TL + imin(tex_sad(p, st, cy, cx) >> (CVP_C_X_SH + 1), 15)];
                sw += w;
                swv += w * PX(cy, cx);
            }
            return (swv + sw / 2) / sw;
        }
    }
}

static int clampv(int v) { return v < 0 ? 0 : v > CVP_MAXV ? CVP_MAXV : v; }

int cvp_predict(const int32_t *prm, const uint16_t *p, int st, int *key, int *model,
                int *depth)
{
    int f[CVP_NFEAT], s[4];
    cvp_features(p, st, f);
    int m = cvp_walk(prm, f, depth);
    int c = pre(m, prm, p, st, f, s);
    int pred = clampv(fin(m, c, prm, p, st, s));
    *key = cvp_key_base[m] + c;
    if (model)
        *model = m;
    return PX(0, 0) - pred;
}

/* ---- generator: integers only, the same image on every machine ---- */

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int rnd(uint64_t *s, int lo, int hi)
{
    return lo + (int)(mix(s) % (uint64_t)(hi - lo + 1));
}

static uint32_t hash3(uint32_t x, uint32_t y, uint32_t s)
{
    uint32_t h = x * 0x8da6b343u ^ y * 0xd8163841u ^ s * 0xcb1ab31fu;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    return h ^ (h >> 16);
}

/* 16 directions, (cos, sin) x 256 */
static const int dir16[16][2] = {
    {256, 0}, {237, 98}, {181, 181}, {98, 237}, {0, 256}, {-98, 237}, {-181, 181},
    {-237, 98}, {-256, 0}, {-237, -98}, {-181, -181}, {-98, -237}, {0, -256},
    {98, -237}, {181, -181}, {237, -98},
};

enum { FILL_FLAT, FILL_STRIPES, FILL_GRAIN, FILL_CHECKER };

struct shape {
    int kind;            /* 0 disk, 1 rotated rectangle */
    int cx, cy, a, b;    /* centre, half sizes (disk: a = radius) */
    int dir;             /* rectangle and stripes direction */
    int level, gx, gy;   /* intensity and its gradient (per 64 px) */
    int fill, amp, period;
    uint32_t hs;
};

static int shape_value(const struct shape *sh, int x, int y, int *v)
{
    int dx = x - sh->cx, dy = y - sh->cy;
    const int *d = dir16[sh->dir];
    if (sh->kind == 0) {
        if (dx * dx + dy * dy > sh->a * sh->a)
            return 0;
    } else {
        int u = dx * d[0] + dy * d[1], w = -dx * d[1] + dy * d[0];
        if (abs(u) > sh->a * 256 || abs(w) > sh->b * 256)
            return 0;
    }
    int val = sh->level + (sh->gx * dx + sh->gy * dy) / 64;
    switch (sh->fill) {
    case FILL_STRIPES: {
        int t = ((x * d[0] + y * d[1]) >> 4) + (1 << 24);  /* 1/16 px */
        int ph = t % (sh->period * 16);
        int tri = ph < sh->period * 8 ? ph : sh->period * 16 - ph;  /* 0..8P */
        val += sh->amp * (2 * tri - sh->period * 8) / (sh->period * 8);
        break;
    }
    case FILL_GRAIN: {
        uint32_t h = hash3((uint32_t)x >> 1, (uint32_t)y >> 1, sh->hs);
        val += (int)(h % (uint32_t)(2 * sh->amp + 1)) - sh->amp;
        break;
    }
    case FILL_CHECKER:
        val += (((x / sh->period) ^ (y / sh->period)) & 1) ? sh->amp : -sh->amp;
        break;
    }
    *v = val;
    return 1;
}

/* The image; where clean is not NULL also the image before noise, and
 * where tex is not NULL which pixels a textured shape owns (the ground
 * truth the tree is trained on). -1 when out of memory. */
static int gen(const struct cvp_cfg *g, unsigned seed, int wp, int hp, uint16_t *img,
               int32_t *clean, uint8_t *tex)
{
    size_t n = (size_t)wp * (size_t)hp;
    int32_t *a = malloc(n * sizeof *a), *t = malloc(n * sizeof *t);
    if (!a || !t) {
        free(a);
        free(t);
        return -1;
    }
    if (tex)
        memset(tex, 0, n);
    uint64_t s = 0xc0ffee00ULL ^ ((uint64_t)seed << 24);
    long area = (long)wp * hp;
    /* background: a tilted ramp and soft bumps */
    int base = rnd(&s, 900, 2600), ax = rnd(&s, -48, 48), ay = rnd(&s, -48, 48);
    for (int y = 0; y < hp; y++)
        for (int x = 0; x < wp; x++) {
            int r = (ax * x + ay * y) / 64 + 24000;   /* folded: a triangle wave */
            r %= 2400;
            a[(size_t)y * wp + x] = base + (r < 1200 ? r : 2400 - r) - 600;
        }
    long nb = 2 + area / 16384;
    for (long k = 0; k < nb; k++) {
        int cx = rnd(&s, 0, wp - 1), cy = rnd(&s, 0, hp - 1), r = rnd(&s, 64, 384);
        int amp = rnd(&s, -1200, 1200);
        for (int y = imax(0, cy - r); y < imin(hp, cy + r + 1); y++)
            for (int x = imax(0, cx - r); x < imin(wp, cx + r + 1); x++) {
                int d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
                if (d2 < r * r)
                    a[(size_t)y * wp + x] += (int)((long long)amp * (r * r - d2) / (r * r));
            }
    }
    /* shapes, painted in order */
    long ns = 1 + area / 1400;
    uint32_t tex_thr = (uint32_t)(g->texture * 4294967295.0);
    for (long k = 0; k < ns; k++) {
        struct shape sh;
        sh.kind = rnd(&s, 0, 1);
        sh.cx = rnd(&s, 0, wp - 1);
        sh.cy = rnd(&s, 0, hp - 1);
        sh.a = rnd(&s, 5, 44);
        sh.b = rnd(&s, 3, 30);
        sh.dir = rnd(&s, 0, 15);
        sh.level = rnd(&s, 150, 3900);
        /* shading: half the shapes are flat, the others ramps */
        int shaded = rnd(&s, 0, 1);
        sh.gx = shaded * rnd(&s, -240, 240);
        sh.gy = shaded * rnd(&s, -240, 240);
        sh.hs = (uint32_t)mix(&s);
        if ((uint32_t)mix(&s) < tex_thr) {
            sh.fill = rnd(&s, FILL_STRIPES, FILL_CHECKER);
            sh.amp = rnd(&s, 60, 600);
            sh.period = rnd(&s, 2, 9);
        } else {
            sh.fill = FILL_FLAT;
            sh.amp = 0;
            sh.period = 1;
        }
        int r = sh.kind == 0 ? sh.a : sh.a + sh.b;
        for (int y = imax(0, sh.cy - r); y < imin(hp, sh.cy + r + 1); y++)
            for (int x = imax(0, sh.cx - r); x < imin(wp, sh.cx + r + 1); x++) {
                int v;
                if (shape_value(&sh, x, y, &v)) {
                    a[(size_t)y * wp + x] = v;
                    if (tex)
                        tex[(size_t)y * wp + x] = sh.fill != FILL_FLAT;
                }
            }
    }
    /* optics: a [1 2 1] x [1 2 1] / 16 blur, edges clamped */
    for (int y = 0; y < hp; y++)
        for (int x = 0; x < wp; x++) {
            size_t i = (size_t)y * wp;
            t[i + x] = a[i + imax(x - 1, 0)] + 2 * a[i + x] + a[i + imin(x + 1, wp - 1)];
        }
    for (int y = 0; y < hp; y++)
        for (int x = 0; x < wp; x++) {
            int v = t[(size_t)imax(y - 1, 0) * wp + x] + 2 * t[(size_t)y * wp + x]
                    + t[(size_t)imin(y + 1, hp - 1) * wp + x];
            v = (v + 8) >> 4;
            if (clean)
                clean[(size_t)y * wp + x] = v;
            /* sensor noise: triangular in [-noise, noise] */
            if (g->noise > 0) {
                uint32_t h = hash3((uint32_t)x, (uint32_t)y, seed ^ 0x5bd1e995u);
                uint32_t m = (uint32_t)g->noise + 1;
                v += (int)(h % m) + (int)((h >> 16) % m) - g->noise;
            }
            img[(size_t)y * wp + x] = (uint16_t)clampv(v);
        }
    free(a);
    free(t);
    return 0;
}

int cvp_gen_image(const struct cvp_cfg *g, unsigned seed, int wp, int hp, uint16_t *img)
{
    return gen(g, seed, wp, hp, img, NULL, NULL);
}

/* ---- training: a classification tree (Gini) on ground-truth labels ----
 *
 * The training image comes with its truth: which pixels a textured shape
 * owns and the image before noise. Each pixel is labelled with the model
 * its structure calls for (in this order): TEXTURE in texture; GAP on a
 * sharp edge and MED on a weak one (the clean image's central differences);
 * FILTER where the window holds an edge but the pixel does not (smoothing
 * that keeps edges); PLANE on a ramp; FLAT elsewhere. The tree learns that
 * from the noisy features, as a supervised classifier would. */
#define CVP_L_EDGE 300      /* |dx| + |dy| of the clean image: sharp edge */
#define CVP_L_WEAK 12       /* ... weak edge or steep slope */
#define CVP_L_WIDE 200      /* clean range over the window: an edge near */
#define CVP_L_RAMP 4        /* ... a ramp */

static int label_of(const int32_t *C, const uint8_t *tex, int wp, int hp, int x, int y)
{
    size_t i = (size_t)y * wp + x;
    if (tex[i])
        return CVP_TEXTURE;
    int yd = y + 1 < hp ? y + 1 : y;
    int ga = iabs(C[i + 1] - C[i - 1]) + iabs(C[(size_t)yd * wp + x] - C[i - (size_t)wp]);
    if (ga > CVP_L_EDGE)
        return CVP_GAP;
    if (ga > CVP_L_WEAK)
        return CVP_MED;
    int mx = C[i], mn = C[i];
    for (int dy = -4; dy <= 0; dy++)
        for (int dx = -4; dx <= 4; dx++) {
            int v = C[(size_t)(y + dy) * wp + x + dx];
            mx = imax(mx, v);
            mn = imin(mn, v);
        }
    if (mx - mn > CVP_L_WIDE)
        return CVP_FILTER;
    return ga > CVP_L_RAMP ? CVP_PLANE : CVP_FLAT;
}

struct tsample {
    int f[CVP_NFEAT];
    int label;
};

struct grow {
    const struct tsample *S;
    int32_t *prm;
    int nn, minleaf;
    uint64_t *keys;         /* scratch for sorting */
};

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* n * Gini impurity of a class histogram of n samples */
static double gini_n(const long *h, long n)
{
    if (n <= 0)
        return 0;
    double s = 0;
    for (int m = 0; m < CVP_NMODEL; m++)
        s += (double)h[m] * (double)h[m];
    return (double)n - s / (double)n;
}

static int grow_node(struct grow *G, int *idx, int n, int depth)
{
    long tot[CVP_NMODEL] = {0};
    for (int i = 0; i < n; i++)
        tot[G->S[idx[i]].label]++;
    int node = G->nn++, leaf_m = 0;
    for (int m = 1; m < CVP_NMODEL; m++)
        if (tot[m] > tot[leaf_m])
            leaf_m = m;
    int32_t *nd = G->prm + 4 * node;
    nd[0] = -1;
    nd[1] = leaf_m;
    nd[2] = node;
    nd[3] = node;
    double leaf_g = gini_n(tot, n);
    /* room for two children at every level below */
    if (depth >= CVP_TREE_DEPTH || n < 2 * G->minleaf || G->nn + 2 > CVP_TREE_NODES
        || tot[leaf_m] == n)
        return node;
    int bj = -1, bthr = 0;
    double bg = leaf_g - 0.002 * n;     /* a split must gain */
    for (int j = 0; j < CVP_NFEAT; j++) {
        for (int i = 0; i < n; i++)
            G->keys[i] = ((uint64_t)(uint32_t)(G->S[idx[i]].f[j] + (1 << 20)) << 32)
                         | (uint32_t)idx[i];
        qsort(G->keys, (size_t)n, sizeof *G->keys, cmp_u64);
        long L[CVP_NMODEL] = {0}, R[CVP_NMODEL];
        for (int i = 0; i < n - 1; i++) {
            L[G->S[(uint32_t)G->keys[i]].label]++;
            int v = (int)(G->keys[i] >> 32), vn = (int)(G->keys[i + 1] >> 32);
            if (v == vn || i + 1 < G->minleaf || n - i - 1 < G->minleaf)
                continue;
            for (int m = 0; m < CVP_NMODEL; m++)
                R[m] = tot[m] - L[m];
            double gsum = gini_n(L, i + 1) + gini_n(R, n - i - 1);
            if (gsum < bg) {
                bg = gsum;
                bj = j;
                bthr = v - (1 << 20);
            }
        }
    }
    if (bj < 0)
        return node;
    int nl = 0;
    for (int i = 0; i < n; i++)         /* stable partition: left first */
        if (G->S[idx[i]].f[bj] <= bthr)
            G->keys[nl++] = (uint64_t)idx[i];
    int nr = nl;
    for (int i = 0; i < n; i++)
        if (G->S[idx[i]].f[bj] > bthr)
            G->keys[nr++] = (uint64_t)idx[i];
    for (int i = 0; i < n; i++)
        idx[i] = (int)G->keys[i];
    nd[0] = bj;
    nd[1] = bthr;
    int l = grow_node(G, idx, nl, depth + 1);
    int r = grow_node(G, idx + nl, n - nl, depth + 1);
    nd = G->prm + 4 * node;
    nd[2] = l;
    nd[3] = r;
    /* two leaves of one model are one leaf */
    if (G->prm[4 * l] < 0 && G->prm[4 * r] < 0 && G->prm[4 * l + 1] == G->prm[4 * r + 1]
        && r == G->nn - 1 && l == G->nn - 2) {
        G->nn -= 2;
        nd[0] = -1;
        nd[1] = G->prm[4 * l + 1];
        nd[2] = nd[3] = node;
    }
    return node;
}

int cvp_train(const struct cvp_cfg *g, int32_t *prm)
{
    const int tw = 512, th = 512, twp = tw + 2 * CVP_R, thp = th + CVP_R;
    size_t np = (size_t)twp * thp;
    uint16_t *img = malloc(np * sizeof *img);
    int32_t *clean = malloc(np * sizeof *clean);
    uint8_t *tex = malloc(np);
    struct tsample *S = malloc((size_t)tw * th / 4 * sizeof *S);
    int *idx = malloc((size_t)tw * th / 4 * sizeof *idx);
    uint64_t *keys = malloc((size_t)tw * th / 4 * sizeof *keys);
    long bsum[365] = {0}, bcnt[365] = {0};
    int rc = -1;
    memset(prm, 0, CVP_PRM_INTS * sizeof *prm);
    if (!img || !clean || !tex || !S || !idx || !keys
        || gen(g, g->seed * 0x9e3779b1u + 0x7f4a7c15u, twp, thp, img, clean, tex))
        goto out;
    /* fixed tables: spatial weights 16 >> (d^2 / 4) (at least 1), range
     * and match weights halving per bucket (integer Gaussians) */
    for (int k = 0; k < 40; k++) {
        int d2 = win_dy(k) * win_dy(k) + win_dx(k) * win_dx(k);
        prm[CVP_OFF_SW + k] = imax(1, 16 >> imin(d2 / 4, 8));
    }
    for (int b = 0; b < 16; b++) {
        prm[CVP_OFF_RL + b] = 64 >> imin(b / 2, 6);
        prm[CVP_OFF_TL + b] = 256 >> imin(b, 8);
    }
    /* MED bias per context: the mean sign-folded error (JPEG-LS's C[Q]) */
    for (int y = 0; y < th; y++)
        for (int x = 0; x < tw; x++) {
            const uint16_t *p = img + (size_t)(y + CVP_R) * twp + x + CVP_R;
            int st = twp, neg, ctx = med_ctx(p, st, &neg);
            int e = PX(0, 0) - med_pred(PX(0, -1), PX(-1, 0), PX(-1, -1));
            bsum[ctx] += neg ? -e : e;
            bcnt[ctx]++;
        }
    for (int c = 0; c < 365; c++)
        prm[CVP_OFF_BIAS + c] = bcnt[c] ? imax(-64, imin(64, (int)(bsum[c] / bcnt[c]))) : 0;
    int ns = 0;
    for (int y = 0; y < th; y++)
        for (int x = y & 3; x < tw; x += 4) {
            const uint16_t *p = img + (size_t)(y + CVP_R) * twp + x + CVP_R;
            struct tsample *t = &S[ns];
            cvp_features(p, twp, t->f);
            t->label = label_of(clean, tex, twp, thp, x + CVP_R, y + CVP_R);
            idx[ns] = ns;
            ns++;
        }
    struct grow G = {.S = S, .prm = prm, .nn = 0, .minleaf = ns / 512, .keys = keys};
    grow_node(&G, idx, ns, 0);
    rc = 0;
out:
    free(img); free(clean); free(tex); free(S); free(idx); free(keys);
    return rc;
}
