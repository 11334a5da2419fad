/* frontier/pol — generator, the two policies and the CPU reference.
 *
 * Generator: synthetic tax units, seeded and counter-based (item i draws
 * from its own stream, so the file is the same for any thread count).
 * Ages first, then filing status by age, dependants by status and age,
 * then incomes by source, log-normal with medians that follow age, status
 * and the unit's earnings, a Pareto-like top (top-coded at $20M a
 * source, as public-use files are), and itemisable expenses that follow
 * income. Records come in no particular order, like a survey file.
 *
 * Reference: the tax of each unit under each policy, in plain C from the
 * rules (pol.k's header lists them), integer cents and basis points. It
 * also records the layer keys of every item and, for the ceiling and the
 * CFE model, a basic-block vector per item: how often each block of the
 * baseline kernel runs, with an estimated instruction count per block
 * (int64 multiply ~4, division by a constant ~12, pl_rate ~20). The model
 * CFE of a warp = sum over lanes of their block costs / (sum over blocks
 * of the largest count in the warp x cost x warp width). It reads high:
 * on the H100 (CUPTI) the counters gave 0.83-0.92 of the model's figure
 * for the forms of this kernel tried, e.g. 0.355 against 0.430; short
 * rare blocks the compiler predicates are issued whether a lane needs
 * them or not, which the model does not count.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pol_ref.h"

typedef int64_t i64;

/* ---- basic blocks of the baseline kernel (pl_baseline in pol.k) ---- */
/* the status paths' sub-blocks (each path has its own copy) */
enum {
    SB_BODY, SB_SE_A, SB_SE_B, SB_SE2_A, SB_SE2_B, SB_SS_P, SB_SS_R2, SB_SS_R3, SB_PEASE, SB_BRK,
    SB_N
};
enum {
    B_ENTRY = 0,            /* load, decode, payroll, keys, credit sum, store */
    B_DONUT,                /* payroll: wages above the donut */
    B_STATUS,               /* + path * SB_N + sub-block */
    B_KEY2 = B_STATUS + PL_STATUS_PATHS * SB_N,
    B_SP_BODY, B_SP_CG, B_SP_NIIT, B_SP_AMED,
    B_AMT,
    B_CTC, B_CTC_DEP, B_CTC_PO,
    B_EITC_KIDS, B_EITC_TEST, B_EITC, B_EITC_IN, B_EITC_PO,
    B_ELD, B_ELD_CR,
    B_N
};
/* estimated instructions per execution of each block */
static const unsigned char sb_cost[SB_N] = {96, 26, 52, 26, 52, 14, 50, 96, 52, 58};
static const unsigned char b_cost[B_N - B_KEY2] = {
    24,                         /* special key (per policy) */
    40, 72, 36, 30,             /* special: body, zones, NIIT, Medicare */
    196,                        /* AMT */
    64, 9, 96,                  /* child credit: body, per dependant, phase-out */
    9, 34, 30, 30, 34,          /* EITC: per dependant, test, body, phase-in, phase-out */
    34, 26,                     /* elderly: base amount, credit */
};
enum { COST_ENTRY = 150, COST_DONUT = 24 };

static unsigned block_cost(int b)
{
    if (b == B_ENTRY) return COST_ENTRY;
    if (b == B_DONUT) return COST_DONUT;
    if (b < B_KEY2) return sb_cost[(b - B_STATUS) % SB_N];
    return b_cost[b - B_KEY2];
}

/* the divergent branch a block belongs to, -1 for code every lane runs */
static int block_branch(int b)
{
    if (b >= B_STATUS && b < B_KEY2) return PL_B_STATUS;
    if (b > B_KEY2 && b < B_AMT) return PL_B_SPECIAL;
    if (b >= B_CTC && b <= B_CTC_PO) return PL_B_CTC;
    if (b >= B_EITC && b <= B_EITC_PO) return PL_B_EITC;
    if (b >= B_ELD) return PL_B_ELD;
    return -1;
}

#define BB(b) ((void)(bb ? bb[(b)]++ : 0))

/* ---- integer helpers ---- */
static i64 mn(i64 a, i64 b) { return a < b ? a : b; }
static i64 mx(i64 a, i64 b) { return a > b ? a : b; }
/* x * bp / 10000 rounded half up; nothing of a non-positive amount */
static i64 rate(i64 x, int32_t bp) { return x > 0 ? (x * bp + 5000) / 10000 : 0; }

struct hh {
    int st, age1, age2, ndep, dep[6];
    i64 w1, w2, se1, se2, in, dv, cg, pen, ss, mort, salt, chr;
};

static void decode(const struct pl_input *d, long i, struct hh *h)
{
    const int32_t *c = d->col;
    long n = d->n;
    int32_t demo = c[PL_DEMO * n + i], deps = c[PL_DEPS * n + i];
    h->st = demo & 3;
    h->age1 = (demo >> 2) & 127;
    h->age2 = (demo >> 9) & 127;
    h->ndep = (demo >> 16) & 7;
    for (int k = 0; k < 6; k++)
        h->dep[k] = (deps >> (5 * k)) & 31;
    h->w1 = c[PL_W1 * n + i];
    h->w2 = c[PL_W2 * n + i];
    h->se1 = c[PL_SE1 * n + i];
    h->se2 = c[PL_SE2 * n + i];
    h->in = c[PL_INT * n + i];
    h->dv = c[PL_DIV * n + i];
    h->cg = c[PL_CG * n + i];
    h->pen = c[PL_PEN * n + i];
    h->ss = c[PL_SS * n + i];
    h->mort = c[PL_MORT * n + i];
    h->salt = c[PL_SALT * n + i];
    h->chr = c[PL_CHAR * n + i];
}

static i64 earned_of(const struct hh *h) { return h->w1 + h->w2 + h->se1 + h->se2; }
static i64 pref_of(const struct hh *h, i64 ti) { return mn(ti, h->dv + mx(h->cg, 0)); }

/* What the status layer hands on, per policy: taxable income, the
 * regular tax of its ordinary part, the regular tax of all of it, AGI,
 * what AMT income adds back, the other taxes. */
struct mid {
    i64 ti, itax, tall, agi, amtadd, otax;
};

/* ---- status layer ---- */
static i64 se_tax(const int32_t *P, i64 se, i64 wages, uint16_t *bb, int ba, int bb2)
{
    BB(ba);
    i64 ne = rate(se, P[PL_SE_NE]);
    if (ne < P[PL_SE_FLOOR])
        return 0;
    BB(bb2);
    i64 room = mx(0, (i64)P[PL_SE_WB] - wages);
    return rate(mn(ne, room), P[PL_SE_SS]) + rate(ne, P[PL_SE_MED]);
}

/* taxable social security: 0 / 50% / 85% regions of provisional income */
static i64 ss_taxable(i64 ss, i64 other, i64 b1, i64 b2, uint16_t *bb, int s0)
{
    if (ss <= 0)
        return 0;
    BB(s0 + SB_SS_P);
    i64 prov = other + ss / 2;
    if (prov <= b1)
        return 0;
    if (prov <= b2) {
        BB(s0 + SB_SS_R2);
        return mn(rate(ss, 5000), rate(prov - b1, 5000));
    }
    BB(s0 + SB_SS_R3);
    return mn(rate(ss, 8500), rate(prov - b2, 8500) + mn(rate(ss, 5000), rate(b2 - b1, 5000)));
}

/* the status's brackets, each taking its part of x (*tx) and of y (*ty)
 * at its rate: one pass for ordinary and for all taxable income */
static void brackets(const int32_t *P, int st, i64 x, i64 y, i64 *tx, i64 *ty, uint16_t *bb,
                     int bit)
{
    i64 lo = 0;
    int nb = P[PL_NBRK + st];
    *tx = *ty = 0;
    for (int b = 0; b < nb; b++) {
        BB(bit);
        i64 hi = b == nb - 1 ? mx(x, y) : P[PL_BRK + st * PL_NBRK_MAX + b];
        *tx += rate(mn(x, hi) - lo, P[PL_RATE + b]);
        *ty += rate(mn(y, hi) - lo, P[PL_RATE + b]);
        lo = hi;
    }
}

static int status_path(int st) { return st == PL_JOINT; }

/* The status layer, one path per kind of return: one filer (single, head
 * of household, married filing separately) or two (joint). */
static void status_layer(const int32_t *pol, const struct hh *h, struct mid *m, uint16_t *bb)
{
    int st = h->st, s0 = B_STATUS + status_path(st) * SB_N;
    int naged = (h->age1 >= 65) + (st == PL_JOINT && h->age2 >= 65);
    for (int p = 0; p < 2; p++) {
        const int32_t *P = pol + p * PL_WORDS;
        BB(s0 + SB_BODY);
        i64 se = se_tax(P, h->se1, h->w1, bb, s0 + SB_SE_A, s0 + SB_SE_B);
        if (st == PL_JOINT)
            se += se_tax(P, h->se2, h->w2, bb, s0 + SB_SE2_A, s0 + SB_SE2_B);
        i64 cg = mx(h->cg, -(i64)P[PL_LOSS_LIM + st]);
        i64 other = h->w1 + h->w2 + h->se1 + h->se2 + h->in + h->dv + cg + h->pen - se / 2;
        i64 agi = other + ss_taxable(h->ss, other, P[PL_SS_B1 + st], P[PL_SS_B2 + st], bb, s0);
        i64 stdd = P[PL_STD + st] + (i64)naged * P[PL_AGED + st];
        i64 salt = mn(h->salt, P[PL_SALT_CAP + st]);
        i64 item = h->mort + salt + mn(h->chr, rate(agi, 6000));
        if (agi > P[PL_PEASE_THR + st] && P[PL_PEASE_RATE] > 0) {
            BB(s0 + SB_PEASE);
            item -= mn(rate(agi - P[PL_PEASE_THR + st], P[PL_PEASE_RATE]), rate(item, 8000));
        }
        i64 ded = item > stdd ? item : stdd;
        i64 ti = mx(0, agi - ded);
        m[p].ti = ti;
        brackets(P, st, ti - pref_of(h, ti), ti, &m[p].itax, &m[p].tall, bb, s0 + SB_BRK);
        m[p].agi = agi;
        m[p].amtadd = item > stdd ? salt : stdd;
        m[p].otax = se;
    }
}

/* payroll tax of one earner's wages, employee and employer shares */
static i64 payroll(const int32_t *P, i64 w, uint16_t *bb)
{
    i64 base = mn(w, P[PL_SE_WB]);
    if (w > P[PL_PAY_DONUT]) {
        BB(B_DONUT);
        base += w - P[PL_PAY_DONUT];
    }
    return rate(base, P[PL_PAY_SS]) + rate(w, P[PL_PAY_MED]);
}

/* ---- special cases: capital-gains rates, NIIT, additional Medicare ---- */
/* tax of the capital-gains zones for income ord..top */
static i64 cg_stack(const int32_t *P, int st, i64 ord, i64 top)
{
    i64 t1 = P[PL_CG_T1 + st], t2 = P[PL_CG_T2 + st];
    i64 z1 = mx(0, mn(top, t2) - mx(ord, t1));
    i64 z2 = mx(0, top - mx(ord, t2));
    return rate(z1, P[PL_CG_R1]) + rate(z2, P[PL_CG_R2]);
}

static int special_key(const int32_t *pol, const struct hh *h, const struct mid *m)
{
    int key = 0;
    for (int p = 0; p < 2; p++) {
        const int32_t *P = pol + p * PL_WORDS;
        key |= pref_of(h, m[p].ti) > 0 || m[p].agi > P[PL_NIIT_THR + h->st]
               || earned_of(h) > P[PL_AMED_THR + h->st];
    }
    return key;
}

static void special_layer(const int32_t *pol, const struct hh *h, struct mid *m, uint16_t *bb)
{
    int st = h->st;
    for (int p = 0; p < 2; p++) {
        const int32_t *P = pol + p * PL_WORDS;
        BB(B_SP_BODY);
        i64 ti = m[p].ti, pref = pref_of(h, ti);
        if (pref > 0) {
            BB(B_SP_CG);
            i64 alt = m[p].itax + cg_stack(P, st, ti - pref, ti);
            m[p].itax = mn(alt, m[p].tall);
        }
        if (m[p].agi > P[PL_NIIT_THR + st]) {
            BB(B_SP_NIIT);
            i64 nii = h->in + h->dv + mx(h->cg, 0);
            m[p].otax += rate(mn(nii, m[p].agi - P[PL_NIIT_THR + st]), P[PL_NIIT_RATE]);
        }
        i64 earned = earned_of(h);
        if (earned > P[PL_AMED_THR + st]) {
            BB(B_SP_AMED);
            m[p].otax += rate(earned - P[PL_AMED_THR + st], P[PL_AMED_RATE]);
        }
    }
}

/* alternative minimum tax, every unit: exemption phased out, 26/28% on
 * the ordinary part and the capital-gains zones on the rest (at most
 * 26/28% on all); the larger of it and the regular tax */
static void amt(const int32_t *pol, const struct hh *h, struct mid *m, uint16_t *bb)
{
    int st = h->st;
    for (int p = 0; p < 2; p++) {
        const int32_t *P = pol + p * PL_WORDS;
        BB(B_AMT);
        i64 amti = m[p].ti + m[p].amtadd;
        i64 ex = mx(0, P[PL_AMT_EX + st] - rate(amti - P[PL_AMT_PO + st], P[PL_AMT_PORATE]));
        i64 base = mx(0, amti - ex), pp = mn(pref_of(h, m[p].ti), base), o = base - pp;
        i64 brk = P[PL_AMT_BRK + st];
        i64 tmt = rate(mn(o, brk), P[PL_AMT_R1]) + rate(o - brk, P[PL_AMT_R2]);
        tmt += cg_stack(P, st, o, base);
        tmt = mn(tmt, rate(mn(base, brk), P[PL_AMT_R1]) + rate(base - brk, P[PL_AMT_R2]));
        m[p].itax = mx(m[p].itax, tmt);
    }
}

/* ---- credits: child tax credit, earned income credit, elderly credit ---- */
static int aged_of(const int32_t *P, const struct hh *h)
{
    return (h->age1 >= P[PL_ELD_AGE]) + (h->st == PL_JOINT && h->age2 >= P[PL_ELD_AGE]);
}

static int eitc_kids(const int32_t *P, const struct hh *h, uint16_t *bb)
{
    int k = 0;
    for (int d = 0; d < h->ndep; d++) {
        BB(B_EITC_KIDS);
        k += h->dep[d] < P[PL_EITC_KIDAGE];
    }
    return k < 3 ? k : 3;
}

/* eligibility: status, earnings, investment income, age, income below
 * the end of the phase-out */
static int eitc_elig(const int32_t *P, const struct hh *h, int nk, i64 agi)
{
    if (h->st == PL_SEPARATE)
        return 0;
    i64 earned = earned_of(h);
    if (earned <= 0 || h->in + h->dv + mx(h->cg, 0) > P[PL_EITC_INVLIM])
        return 0;
    if (nk == 0 && !(h->age1 >= P[PL_EITC_AGEMIN] && h->age1 <= P[PL_EITC_AGEMAX])
        && !(h->st == PL_JOINT && h->age2 >= P[PL_EITC_AGEMIN] && h->age2 <= P[PL_EITC_AGEMAX]))
        return 0;
    return mx(earned, agi) < (i64)P[PL_EITC_END + nk] + (h->st == PL_JOINT ? P[PL_EITC_JADD] : 0);
}

static void ctc_credit(const int32_t *P, const struct hh *h, i64 agi, i64 *ctc, i64 *reflim,
                       uint16_t *bb)
{
    BB(B_CTC);
    int nq = 0;
    for (int d = 0; d < h->ndep; d++) {
        BB(B_CTC_DEP);
        nq += h->dep[d] < P[PL_CTC_AGE];
    }
    i64 cr = (i64)nq * P[PL_CTC_AMT] + (i64)(h->ndep - nq) * P[PL_ODC_AMT];
    i64 excess = agi - P[PL_CTC_THR + h->st];
    if (excess > 0) {
        BB(B_CTC_PO);
        i64 steps = (excess + P[PL_CTC_STEP] - 1) / P[PL_CTC_STEP];
        cr = mx(0, cr - steps * P[PL_CTC_PERSTEP]);
    }
    *ctc = cr;
    *reflim = P[PL_CTC_FULLREF] ? (i64)nq * P[PL_CTC_AMT]
              : mn((i64)nq * P[PL_CTC_REFMAX],
                   rate(earned_of(h) - P[PL_CTC_FLOOR], P[PL_CTC_REFRATE]));
}

static i64 eitc_credit(const int32_t *P, const struct hh *h, i64 agi, uint16_t *bb)
{
    int nk = eitc_kids(P, h, bb);
    BB(B_EITC_TEST);
    if (!eitc_elig(P, h, nk, agi))
        return 0;
    BB(B_EITC);
    i64 earned = earned_of(h), cr;
    if (earned < P[PL_EITC_EARN + nk]) {
        BB(B_EITC_IN);
        cr = mn(rate(earned, P[PL_EITC_IN + nk]), P[PL_EITC_MAX + nk]);
    } else {
        cr = P[PL_EITC_MAX + nk];
    }
    i64 inc = mx(earned, agi);
    i64 start = P[PL_EITC_PO + nk] + (h->st == PL_JOINT ? P[PL_EITC_JADD] : 0);
    if (inc > start) {
        BB(B_EITC_PO);
        cr = mx(0, cr - rate(inc - start, P[PL_EITC_PORATE + nk]));
    }
    return cr;
}

/* the elderly credit of na persons 65+: base amount less half the social
 * security and half the AGI above a threshold; none when that is nothing */
static i64 eld_credit(const int32_t *P, const struct hh *h, int na, i64 agi, uint16_t *bb)
{
    BB(B_ELD);
    i64 base = h->st == PL_JOINT && na == 1 ? P[PL_ELD_BASE + PL_SINGLE] : P[PL_ELD_BASE + h->st];
    base -= h->ss / 2 + mx(0, agi - P[PL_ELD_THR + h->st]) / 2;
    if (base <= 0)
        return 0;
    BB(B_ELD_CR);
    return rate(base, P[PL_ELD_RATE]);
}

/* which credits a unit computes under either policy (PL_C_* bits) */
static int credit_set(const int32_t *pol, const struct hh *h, const struct mid *m)
{
    int set = h->ndep > 0 ? PL_C_CTC : 0;
    for (int p = 0; p < 2; p++) {
        const int32_t *P = pol + p * PL_WORDS;
        if (eitc_elig(P, h, eitc_kids(P, h, NULL), m[p].agi))
            set |= PL_C_EITC;
        if (aged_of(P, h))
            set |= PL_C_ELD;
    }
    return set;
}

static void credit_layer(const int32_t *pol, const struct hh *h, const struct mid *m,
                         int64_t out[2], uint16_t *bb)
{
    for (int p = 0; p < 2; p++) {
        const int32_t *P = pol + p * PL_WORDS;
        i64 ctc = 0, reflim = 0, eld = 0;
        if (h->ndep > 0)
            ctc_credit(P, h, m[p].agi, &ctc, &reflim, bb);
        i64 eitc = eitc_credit(P, h, m[p].agi, bb);
        int na = aged_of(P, h);
        if (na)
            eld = eld_credit(P, h, na, m[p].agi, bb);
        /* elderly and child credits up to the income tax, the rest refundable */
        i64 itax = m[p].itax;
        itax -= mn(eld, itax);
        i64 nonref = mn(ctc, itax);
        itax -= nonref;
        i64 actc = mn(ctc - nonref, reflim);
        out[p] = itax + m[p].otax - actc - eitc;
    }
}

/* One household: both taxes, its layer keys, its block counts (bb may be NULL). */
static void household(const struct pl_input *d, const int32_t *pol, long i, int64_t out[2],
                      int keys[PL_NLAYERS], uint16_t *bb)
{
    struct hh h;
    struct mid m[2];
    decode(d, i, &h);
    BB(B_ENTRY);
    keys[PL_L_STATUS] = status_path(h.st);
    status_layer(pol, &h, m, bb);
    for (int p = 0; p < 2; p++) {
        const int32_t *P = pol + p * PL_WORDS;
        m[p].otax += payroll(P, h.w1, bb) + payroll(P, h.w2, bb);
    }
    BB(B_KEY2);
    BB(B_KEY2);
    int k2 = special_key(pol, &h, m);
    keys[PL_L_SPECIAL] = k2;
    if (k2)
        special_layer(pol, &h, m, bb);
    amt(pol, &h, m, bb);
    keys[PL_L_CREDIT] = PL_CREDIT_KEY(credit_set(pol, &h, m));
    credit_layer(pol, &h, m, out, bb);
}

#define PL_WARP 32

void pl_reference(const struct pl_input *in, const int32_t *pol, int64_t *tax_base,
                  int64_t *tax_reform, struct pl_refinfo *info)
{
    long n = in->n;
    double sum[PL_NBRANCH][PL_MAXPATHS] = {{0}}, cnt[PL_NBRANCH][PL_MAXPATHS] = {{0}};
    double useful = 0, issued = 0;
#pragma omp parallel for schedule(static) \
    reduction(+ : sum[:PL_NBRANCH][:PL_MAXPATHS], cnt[:PL_NBRANCH][:PL_MAXPATHS], useful, issued)
    for (long w = 0; w < (n + PL_WARP - 1) / PL_WARP; w++) {
        uint16_t bb[PL_WARP][B_N], mxc[B_N];
        memset(bb, 0, sizeof bb);
        memset(mxc, 0, sizeof mxc);
        for (int l = 0; l < PL_WARP && w * PL_WARP + l < n; l++) {
            long i = w * PL_WARP + l;
            int64_t out[2];
            int keys[PL_NLAYERS];
            household(in, pol, i, out, keys, bb[l]);
            tax_base[i] = out[0];
            tax_reform[i] = out[1];
            double bc[PL_NBRANCH] = {0};
            for (int b = 0; b < B_N; b++) {
                double c = (double)bb[l][b] * block_cost(b);
                useful += c;
                if (block_branch(b) >= 0)
                    bc[block_branch(b)] += c;
                if (bb[l][b] > mxc[b])
                    mxc[b] = bb[l][b];
            }
            for (int L = 0; L < PL_NLAYERS; L++)
                info->keys[(long)L * n + i] = (int8_t)keys[L];
            /* mean cost of each status path, of taking each other branch */
            for (int B = 0; B < PL_NBRANCH; B++)
                if (bc[B] > 0 || B == PL_B_STATUS) {
                    int k = B == PL_B_STATUS ? keys[PL_L_STATUS] : 0;
                    sum[B][k] += bc[B];
                    cnt[B][k] += 1;
                }
        }
        for (int b = 0; b < B_N; b++)
            issued += (double)mxc[b] * block_cost(b) * PL_WARP;
    }
    for (int B = 0; B < PL_NBRANCH; B++)
        for (int k = 0; k < PL_MAXPATHS; k++)
            info->path_cost[B][k] = cnt[B][k] > 0 ? sum[B][k] / cnt[B][k] : 0;
    info->cfe_model = issued > 0 ? useful / issued : 0;
}

/* ---- the two policies (cents, basis points) ---- */
#define D(x) ((int32_t)((x) * 100))

/* one word per filing status */
static void set4(int32_t *P, int at, int32_t a, int32_t b, int32_t c, int32_t d)
{
    P[at] = a, P[at + 1] = b, P[at + 2] = c, P[at + 3] = d;
}

/* Baseline: the 2023 federal rules (much simplified in what is taxed,
 * faithful in the amounts). */
static void policy_baseline(int32_t *P)
{
    static const int32_t brk[4][6] = {
        {D(11000), D(44725), D(95375), D(182100), D(231250), D(578125)},
        {D(22000), D(89450), D(190750), D(364200), D(462500), D(693750)},
        {D(11000), D(44725), D(95375), D(182100), D(231250), D(346875)},
        {D(15700), D(59850), D(95350), D(182100), D(231250), D(578100)},
    };
    static const int32_t rates[7] = {1000, 1200, 2200, 2400, 3200, 3500, 3700};
    memset(P, 0, PL_WORDS * sizeof *P);
    for (int s = 0; s < 4; s++) {
        P[PL_NBRK + s] = 7;
        for (int b = 0; b < 6; b++)
            P[PL_BRK + s * PL_NBRK_MAX + b] = brk[s][b];
    }
    for (int b = 0; b < 7; b++)
        P[PL_RATE + b] = rates[b];
    set4(P, PL_STD, D(13850), D(27700), D(13850), D(20800));
    set4(P, PL_AGED, D(1850), D(1500), D(1500), D(1850));
    set4(P, PL_SALT_CAP, D(10000), D(10000), D(5000), D(10000));
    set4(P, PL_PEASE_THR, INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX);
    P[PL_PEASE_RATE] = 0;
    set4(P, PL_LOSS_LIM, D(3000), D(3000), D(1500), D(3000));
    set4(P, PL_SS_B1, D(25000), D(32000), 0, D(25000));
    set4(P, PL_SS_B2, D(34000), D(44000), 0, D(34000));
    P[PL_SE_WB] = D(160200);
    P[PL_SE_SS] = 1240;
    P[PL_SE_MED] = 290;
    P[PL_SE_NE] = 9235;
    P[PL_SE_FLOOR] = D(400);
    set4(P, PL_CG_T1, D(44625), D(89250), D(44625), D(59750));
    set4(P, PL_CG_T2, D(492300), D(553850), D(276900), D(523050));
    P[PL_CG_R1] = 1500;
    P[PL_CG_R2] = 2000;
    set4(P, PL_NIIT_THR, D(200000), D(250000), D(125000), D(200000));
    P[PL_NIIT_RATE] = 380;
    set4(P, PL_AMED_THR, D(200000), D(250000), D(125000), D(200000));
    P[PL_AMED_RATE] = 90;
    set4(P, PL_AMT_EX, D(81300), D(126500), D(63250), D(81300));
    set4(P, PL_AMT_PO, D(578150), D(1156300), D(578150), D(578150));
    P[PL_AMT_PORATE] = 2500;
    set4(P, PL_AMT_BRK, D(220700), D(220700), D(110350), D(220700));
    P[PL_AMT_R1] = 2600;
    P[PL_AMT_R2] = 2800;
    P[PL_CTC_AMT] = D(2000);
    P[PL_CTC_AGE] = 17;
    P[PL_ODC_AMT] = D(500);
    set4(P, PL_CTC_THR, D(200000), D(400000), D(200000), D(200000));
    P[PL_CTC_STEP] = D(1000);
    P[PL_CTC_PERSTEP] = D(50);
    P[PL_CTC_REFMAX] = D(1600);
    P[PL_CTC_FLOOR] = D(2500);
    P[PL_CTC_REFRATE] = 1500;
    P[PL_CTC_FULLREF] = 0;
    set4(P, PL_EITC_IN, 765, 3400, 4000, 4500);
    set4(P, PL_EITC_EARN, D(7840), D(11750), D(16510), D(16510));
    set4(P, PL_EITC_MAX, D(600), D(3995), D(6604), D(7430));
    set4(P, PL_EITC_PO, D(9800), D(21560), D(21560), D(21560));
    set4(P, PL_EITC_PORATE, 765, 1598, 2106, 2106);
    P[PL_EITC_JADD] = D(6570);
    P[PL_EITC_INVLIM] = D(11000);
    P[PL_EITC_AGEMIN] = 25;
    P[PL_EITC_AGEMAX] = 64;
    P[PL_EITC_KIDAGE] = 19;
    set4(P, PL_ELD_BASE, D(5000), D(7500), D(3750), D(5000));
    set4(P, PL_ELD_THR, D(7500), D(10000), D(5000), D(7500));
    P[PL_ELD_RATE] = 1500;
    P[PL_ELD_AGE] = 65;
    P[PL_PAY_SS] = 1240;
    P[PL_PAY_MED] = 290;
    P[PL_PAY_DONUT] = INT32_MAX;
}

/* Reform: a family and top-end package. A fully refundable child credit
 * of $3,000 up to age 17 inclusive, a larger childless EITC from age 19,
 * a 39.6% bracket above $1M ($1.2M joint), the SALT cap at $40,000, the
 * itemised-deduction limitation back, 25% on the top capital-gains zone,
 * a doubled elderly credit, and social security payroll tax again on
 * wages above $400,000. */
static void policy_reform(int32_t *P)
{
    policy_baseline(P);
    static const int32_t top[4] = {D(1000000), D(1200000), D(600000), D(1000000)};
    for (int s = 0; s < 4; s++) {
        P[PL_NBRK + s] = 8;
        P[PL_BRK + s * PL_NBRK_MAX + 6] = top[s];
    }
    P[PL_RATE + 7] = 3960;
    set4(P, PL_SALT_CAP, D(40000), D(40000), D(20000), D(40000));
    set4(P, PL_PEASE_THR, D(400000), D(450000), D(225000), D(425000));
    P[PL_PEASE_RATE] = 300;
    P[PL_CG_R2] = 2500;
    P[PL_CTC_AMT] = D(3000);
    P[PL_CTC_AGE] = 18;
    P[PL_CTC_FULLREF] = 1;
    P[PL_EITC_IN + 0] = 1530;
    P[PL_EITC_EARN + 0] = D(9820);
    P[PL_EITC_MAX + 0] = D(1502);
    P[PL_EITC_PO + 0] = D(11000);
    P[PL_EITC_PORATE + 0] = 1530;
    P[PL_EITC_AGEMIN] = 19;
    P[PL_EITC_AGEMAX] = 99;
    set4(P, PL_ELD_BASE, D(10000), D(15000), D(7500), D(10000));
    P[PL_PAY_DONUT] = D(400000);
}

/* the end of the EITC phase-out (unmarried), from its other parameters */
static void eitc_end(int32_t *P)
{
    for (int k = 0; k < 4; k++)
        P[PL_EITC_END + k] = (int32_t)(P[PL_EITC_PO + k]
                                       + (int64_t)P[PL_EITC_MAX + k] * 10000 / P[PL_EITC_PORATE + k] + 1);
}

void pl_policies(int32_t *pol)
{
    policy_baseline(pol);
    policy_reform(pol + PL_WORDS);
    eitc_end(pol);
    eitc_end(pol + PL_WORDS);
}

/* ---- generator ---- */
static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double u01(uint64_t *s) { return (double)(mix(s) >> 11) * (1.0 / 9007199254740992.0); }

static double gauss(uint64_t *s)
{
    double a = u01(s), b = u01(s);
    return sqrt(-2.0 * log(a > 1e-300 ? a : 1e-300)) * cos(6.283185307179586 * b);
}

/* log-normal around a median, with a Pareto-like top for a few */
static double lognorm(uint64_t *s, double median, double sigma, double ptop)
{
    double v = median * exp(sigma * gauss(s));
    if (u01(s) < ptop)
        v *= pow(1.0 - u01(s), -0.6);
    return v;
}

static int32_t cents(double dollars)
{
    if (dollars > 2e7) dollars = 2e7;       /* top-coded at $20M */
    if (dollars < -2e7) dollars = -2e7;
    return (int32_t)llround(dollars * 100.0);
}

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

static double wage_median(int age)
{
    return age < 25 ? 24000 : age < 35 ? 48000 : age < 45 ? 60000 : age < 55 ? 64000
           : age < 65 ? 58000 : 34000;
}

static double p_work(int age, double young)
{
    return age < 65 ? young : age < 70 ? 0.35 * young : 0.08;
}

static void gen_one(int32_t *c, long n, long i, uint64_t s)
{
    double r = u01(&s);
    int age1 = r < 0.13 ? 18 + (int)(7 * u01(&s))
               : r < 0.78 ? 25 + (int)(40 * u01(&s))
               : 65 + (int)(28 * u01(&s) * u01(&s) + 3 * u01(&s));
    /* filing status by age */
    double ps = u01(&s);
    int st;
    if (age1 < 25)
        st = ps < 0.85 ? PL_SINGLE : ps < 0.93 ? PL_JOINT : ps < 0.99 ? PL_HOH : PL_SEPARATE;
    else if (age1 < 65)
        st = ps < 0.36 ? PL_SINGLE : ps < 0.81 ? PL_JOINT : ps < 0.96 ? PL_HOH : PL_SEPARATE;
    else
        st = ps < 0.48 ? PL_SINGLE : ps < 0.96 ? PL_JOINT : ps < 0.98 ? PL_HOH : PL_SEPARATE;
    int age2 = 0;
    if (st == PL_JOINT || st == PL_SEPARATE)
        age2 = clampi(age1 + (int)lround(3.5 * gauss(&s)), 18, 99);
    /* dependants */
    int ndep = 0;
    double pd = u01(&s);
    if (st == PL_HOH)
        ndep = pd < 0.50 ? 1 : pd < 0.82 ? 2 : pd < 0.95 ? 3 : 4;
    else if (st == PL_JOINT && age1 >= 22 && age1 < 60)
        ndep = pd < 0.36 ? 0 : pd < 0.56 ? 1 : pd < 0.83 ? 2 : pd < 0.95 ? 3 : pd < 0.99 ? 4
               : 5 + (u01(&s) < 0.3);
    else if (st == PL_SEPARATE && age1 < 60)
        ndep = pd < 0.6 ? 0 : pd < 0.85 ? 1 : 2;
    else if (age1 >= 25 && age1 < 65)
        ndep = pd < 0.08;                      /* an adult relative, a student */
    int deps = 0;
    for (int k = 0; k < ndep; k++) {
        int a;
        if (st == PL_SINGLE)
            a = u01(&s) < 0.5 ? 31 : 18 + (int)(6 * u01(&s));
        else
            a = age1 - 22 - (int)(16 * u01(&s));
        a = clampi(a < 0 ? (int)(6 * u01(&s)) : a, 0, 31);
        if (a > 23 && a < 31)
            a = 31;
        deps |= a << (5 * k);
    }
    /* earnings */
    double w1 = u01(&s) < p_work(age1, st == PL_HOH ? 0.82 : 0.87)
                ? lognorm(&s, wage_median(age1) * (st == PL_HOH ? 0.75 : 1.0), 0.75, 0.02) : 0;
    double w2 = st == PL_JOINT && u01(&s) < p_work(age2, 0.70)
                ? lognorm(&s, wage_median(age2) * 0.8, 0.8, 0.01) : 0;
    double se1 = u01(&s) < 0.10 + 0.05 * (age1 > 50) ? lognorm(&s, 15000, 1.1, 0.03) : 0;
    double se2 = st == PL_JOINT && u01(&s) < 0.04 ? lognorm(&s, 12000, 1.1, 0.02) : 0;
    double inc = w1 + w2 + se1 + se2;
    int old = age1 >= 60;
    /* capital income follows earnings and age */
    double in = u01(&s) < 0.30 + 0.25 * old + 0.2 * (inc > 100000)
                ? lognorm(&s, 120 * (1 + inc / 60000) * (old ? 3 : 1), 1.4, 0.01) : 0;
    double dv = u01(&s) < 0.10 + 0.35 * (inc > 100000) + 0.15 * old
                ? lognorm(&s, 1200 * (1 + inc / 80000), 1.5, 0.02) : 0;
    double cg = 0;
    if (u01(&s) < 0.06 + 0.25 * (inc > 150000) + 0.10 * old) {
        if (u01(&s) < 0.25)
            cg = -fmin(100000, lognorm(&s, 3000, 1.0, 0));
        else
            cg = lognorm(&s, 4000 * (1 + inc / 70000), 1.7, 0.03);
    }
    double pen = 0, ss = 0;
    if (age1 >= 58 && u01(&s) < 0.35 + 0.15 * (age1 >= 65))
        pen += lognorm(&s, 17000, 0.7, 0.01);
    if (st == PL_JOINT && age2 >= 58 && u01(&s) < 0.3)
        pen += lognorm(&s, 14000, 0.7, 0.01);
    if (age1 >= 62 && u01(&s) < 0.55 + 0.40 * (age1 >= 67))
        ss += fmin(46000, fmax(5000, 21000 + 6000 * gauss(&s)));
    if (st == PL_JOINT && age2 >= 62 && u01(&s) < 0.55 + 0.40 * (age2 >= 67))
        ss += fmin(46000, fmax(4000, 17000 + 6000 * gauss(&s)));
    /* itemisable expenses follow income */
    double all = inc + in + dv + fmax(cg, 0) + pen;
    double mort = age1 >= 25 && age1 < 72
                  && u01(&s) < 0.10 + 0.35 * (all > 70000) + 0.15 * (st == PL_JOINT)
                  ? lognorm(&s, 6500 * sqrt(1 + all / 80000), 0.7, 0) : 0;
    double srate = u01(&s) < 0.10 ? 0 : 0.075 * u01(&s);
    double salt = srate * all + (mort > 0 ? lognorm(&s, 3800 * sqrt(1 + all / 100000), 0.6, 0) : 0);
    double chr = u01(&s) < 0.35 + 0.25 * (all > 100000)
                 ? fmin(0.5 * all, all * 0.025 * lognorm(&s, 1, 1.0, 0)) : 0;

    c[PL_DEMO * n + i] = st | age1 << 2 | age2 << 9 | ndep << 16;
    c[PL_DEPS * n + i] = deps;
    c[PL_W1 * n + i] = cents(w1);
    c[PL_W2 * n + i] = cents(w2);
    c[PL_SE1 * n + i] = cents(se1);
    c[PL_SE2 * n + i] = cents(se2);
    c[PL_INT * n + i] = cents(in);
    c[PL_DIV * n + i] = cents(dv);
    c[PL_CG * n + i] = cents(cg);
    c[PL_PEN * n + i] = cents(pen);
    c[PL_SS * n + i] = cents(ss);
    c[PL_MORT * n + i] = cents(mort);
    c[PL_SALT * n + i] = cents(salt);
    c[PL_CHAR * n + i] = cents(chr);
}

void pl_generate(const struct pl_input *in, unsigned seed)
{
    long n = in->n;
    uint64_t base = 0x706f6cULL ^ ((uint64_t)seed << 24);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        uint64_t s = base ^ ((uint64_t)i * 0xd1342543de82ef95ULL);
        mix(&s);
        gen_one(in->col, n, i, s);
    }
}

int64_t pl_gross_income(const struct pl_input *d, long i)
{
    const int32_t *c = d->col;
    long n = d->n;
    int64_t g = 0;
    static const int cols[] = {PL_W1, PL_W2, PL_SE1, PL_SE2, PL_INT, PL_DIV, PL_CG, PL_PEN, PL_SS};
    for (unsigned k = 0; k < sizeof cols / sizeof cols[0]; k++) {
        int32_t v = c[cols[k] * n + i];
        g += v > 0 ? v : 0;
    }
    return g;
}

/* The natural key of on-CPU TDR: filing status, then an income band. */
int pl_sort_key(const struct pl_input *d, long i)
{
    static const int64_t band[5] = {D(15000), D(40000), D(80000), D(150000), D(400000)};
    int64_t g = pl_gross_income(d, i);
    int b = 0;
    while (b < 5 && g >= band[b])
        b++;
    return (d->col[PL_DEMO * d->n + i] & 3) * 6 + b;
}
