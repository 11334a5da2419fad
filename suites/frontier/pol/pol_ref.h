/* frontier/pol — internals shared by pol.c (the benchmark: parameters,
 * buffers, variants, verification) and pol_ref.c (generator, the two
 * policies, CPU reference). Nothing outside this folder includes it.
 *
 * Everything is integer: money in cents (int32 in the input, 64-bit in the
 * computation), rates in basis points, every rounding explicit
 * (pl_rate: half up, of non-negative amounts), so every backend matches the
 * CPU reference bit for bit and every branch decision is the same.
 */
#ifndef DH_FRONTIER_POL_H
#define DH_FRONTIER_POL_H

#include <stdint.h>

/* Filing status (the status layer's paths). */
enum { PL_SINGLE = 0, PL_JOINT = 1, PL_SEPARATE = 2, PL_HOH = 3, PL_NSTATUS = 4 };
#define PL_NBRK_MAX 8

/* Policy layout: int32 words, one block of PL_WORDS per policy (baseline,
 * reform). [4] = one word per filing status. pol.k repeats these offsets
 * as #defines: keep the two in sync (the build checks PL_WORDS). */
enum {
    PL_NBRK = 0,          /* [4] brackets in use per status (<= 8) */
    PL_BRK = 4,           /* [4][8] upper bound of bracket b (last: none) */
    PL_RATE = 36,         /* [8] bracket rates */
    PL_STD = 44,          /* [4] standard deduction */
    PL_AGED = 48,         /* [4] extra standard deduction per person 65+ */
    PL_SALT_CAP = 52,     /* [4] cap on deductible state and local tax */
    PL_PEASE_THR = 56,    /* [4] itemised-deduction limitation threshold */
    PL_PEASE_RATE = 60,   /* limitation rate (0 = no limitation) */
    PL_LOSS_LIM = 61,     /* [4] deductible capital loss */
    PL_SS_B1 = 65,        /* [4] social security base amount 1 */
    PL_SS_B2 = 69,        /* [4] base amount 2 */
    PL_SE_WB = 73,        /* social security wage base */
    PL_SE_SS = 74,        /* SE tax: social security part */
    PL_SE_MED = 75,       /* SE tax: Medicare part */
    PL_SE_NE = 76,        /* net earnings factor */
    PL_SE_FLOOR = 77,     /* no SE tax below these net earnings */
    PL_CG_T1 = 78,        /* [4] top of the 0% capital-gains zone */
    PL_CG_T2 = 82,        /* [4] top of the middle zone */
    PL_CG_R1 = 86,        /* middle capital-gains rate */
    PL_CG_R2 = 87,        /* top capital-gains rate */
    PL_NIIT_THR = 88,     /* [4] net investment income tax threshold */
    PL_NIIT_RATE = 92,
    PL_AMED_THR = 93,     /* [4] additional Medicare tax threshold */
    PL_AMED_RATE = 97,
    PL_AMT_EX = 98,       /* [4] AMT exemption */
    PL_AMT_PO = 102,      /* [4] exemption phase-out start */
    PL_AMT_PORATE = 106,
    PL_AMT_BRK = 107,     /* [4] top of the lower AMT rate */
    PL_AMT_R1 = 111,
    PL_AMT_R2 = 112,
    PL_CTC_AMT = 113,     /* per qualifying child */
    PL_CTC_AGE = 114,     /* children younger than this qualify */
    PL_ODC_AMT = 115,     /* per other dependant */
    PL_CTC_THR = 116,     /* [4] phase-out threshold */
    PL_CTC_STEP = 120,    /* phase-out: PERSTEP per STEP (or part of it) */
    PL_CTC_PERSTEP = 121,
    PL_CTC_REFMAX = 122,  /* refundable part per child */
    PL_CTC_FLOOR = 123,   /* refundable: rate of earnings above this */
    PL_CTC_REFRATE = 124,
    PL_CTC_FULLREF = 125, /* 1: the child part is fully refundable */
    PL_EITC_IN = 126,     /* [4] by qualifying children 0..3: phase-in rate */
    PL_EITC_EARN = 130,   /* [4] earned amount (end of phase-in) */
    PL_EITC_MAX = 134,    /* [4] maximum credit */
    PL_EITC_PO = 138,     /* [4] phase-out start */
    PL_EITC_PORATE = 142, /* [4] phase-out rate */
    PL_EITC_JADD = 146,   /* phase-out start added for joint returns */
    PL_EITC_INVLIM = 147, /* investment income limit */
    PL_EITC_AGEMIN = 148, /* childless: age range of the taxpayer */
    PL_EITC_AGEMAX = 149,
    PL_EITC_KIDAGE = 150, /* qualifying children younger than this */
    PL_ELD_BASE = 151,    /* [4] elderly credit base amount */
    PL_ELD_THR = 155,     /* [4] AGI threshold of its reduction */
    PL_ELD_RATE = 159,
    PL_ELD_AGE = 160,
    PL_PAY_SS = 161,      /* payroll tax on wages, employee + employer: */
    PL_PAY_MED = 162,     /*   social security part (up to the wage base), Medicare */
    PL_PAY_DONUT = 163,   /* social security part again on wages above this */
    PL_EITC_END = 164,    /* [4] by children: end of the EITC phase-out (unmarried) */
    PL_WORDS = 168
};

/* Input columns (structure of arrays: column f of item i at f * n + i). */
enum {
    PL_DEMO = 0,  /* status | age1 << 2 | age2 << 9 | ndep << 16 */
    PL_DEPS,      /* dependants' ages, 5 bits each (31 = adult) */
    PL_W1, PL_W2, /* wages: taxpayer, spouse (joint returns only) */
    PL_SE1, PL_SE2, /* self-employment net profit */
    PL_INT, PL_DIV, /* interest, qualified dividends */
    PL_CG,        /* long-term capital gain (may be negative) */
    PL_PEN, PL_SS,  /* pensions, social security benefits */
    PL_MORT, PL_SALT, PL_CHAR, /* itemisable: mortgage interest, state tax, charity */
    PL_NCOLS
};

/* Layers of the kernel and their keys (the remap keys of gpu_tdr).
 * status: 0 one filer (single, head of household, separate), 1 joint;
 * special: 0 nothing special, 1 special cases; credit: which of the child
 * credit (1), EITC (2), elderly credit (4) a unit computes, as a position
 * in Gray-code order (PL_CREDIT_KEY) so that neighbouring keys share a
 * credit. */
enum { PL_L_STATUS = 0, PL_L_SPECIAL, PL_L_CREDIT, PL_NLAYERS };
#define PL_STATUS_PATHS 2
#define PL_SPECIAL_PATHS 2
#define PL_CREDIT_PATHS 8
#define PL_C_CTC 1
#define PL_C_EITC 2
#define PL_C_ELD 4
#define PL_CREDIT_KEY(set) ((set) ^ ((set) >> 1) ^ ((set) >> 2))
#define PL_CREDIT_SET(key) ((key) ^ ((key) >> 1))
/* Divergent branches of the kernel for the remap ceiling: the status
 * switch, the special-case branch, and the three credit branches (child
 * credit, EITC, elderly credit: if-thens, regrouped together by the
 * credit key). Keys per branch: path, or -1 for units that skip it. */
enum { PL_B_STATUS = 0, PL_B_SPECIAL, PL_B_CTC, PL_B_EITC, PL_B_ELD, PL_NBRANCH };
#define PL_MAXPATHS 2

struct pl_input {
    long n;
    int32_t *col;            /* PL_NCOLS * n */
};

/* What the reference gives besides the taxes: per item the key of each
 * layer, per divergent branch and path the mean cost (estimated GPU
 * instructions of one item on that path), and the control-flow efficiency
 * the BBV model expects of the baseline in the input's own order (warps
 * of 32). */
struct pl_refinfo {
    int8_t *keys;            /* PL_NLAYERS * n, layer-major */
    double path_cost[PL_NBRANCH][PL_MAXPATHS];
    double cfe_model;
};

/* pol_ref.c */
void pl_generate(const struct pl_input *in, unsigned seed);  /* fills in->col */
void pl_policies(int32_t *pol);              /* 2 * PL_WORDS words */
void pl_reference(const struct pl_input *in, const int32_t *pol, int64_t *tax_base,
                  int64_t *tax_reform, struct pl_refinfo *info);
int64_t pl_gross_income(const struct pl_input *in, long i);
int pl_sort_key(const struct pl_input *in, long i);   /* status * 6 + band */
#define PL_NSORTKEYS (PL_NSTATUS * 6)

/* pol_agg.c: the study's aggregation, per filing status and income decile */
#define PL_DECILES 10
#define PL_CELLS (PL_NSTATUS * PL_DECILES)
struct pl_agg {
    int64_t units, base, reform, change, winners, losers;
};
/* deciles of gross income (from an evenly spaced sample); 0 or -1 (memory) */
int pl_deciles(const struct pl_input *in, uint8_t *decile);
void pl_aggregate(const struct pl_input *in, const uint8_t *decile, const int64_t *tb,
                  const int64_t *tr, const int64_t *td, struct pl_agg *agg);

#endif
