/* cvp.h — frontier/cvp host side, shared by cvp.c (the benchmark ops) and
 * cvp_model.c (image generator, trained tree and tables, CPU reference).
 *
 * CVP is the prediction stage of a context-modelling lossless image coder:
 * per pixel, cheap causal features (gradients, contrast, mean, curvature)
 * walk a trained decision tree whose leaf names one of six prediction
 * models; the model refines its prediction by a data-dependent case and
 * the pixel's residual and context (the model's case) are the output.
 * Every number here is an integer: the kernels reproduce the reference
 * bit for bit and every branch decision is the same on every backend.
 * The kernel (cvp.k) receives the constants below as -D defines, so this
 * header is the one source of truth for layout and thresholds.
 */
#ifndef DH_FRONTIER_CVP_H
#define DH_FRONTIER_CVP_H

#include <stdint.h>

/* causal window: rows -R..0, columns -R..R (row 0: columns < 0 only) */
#define CVP_R 4
#define CVP_PW (2 * CVP_R + 1)          /* patch width (cpu_tdr/dlt) */
#define CVP_PH (CVP_R + 1)              /* patch rows */
#define CVP_PS (CVP_PW * CVP_PH)        /* pixels per patch */
#define CVP_MAXV 4095                   /* 12-bit pixels */

#define CVP_NFEAT 7
enum { CVP_FLAT, CVP_MED, CVP_GAP, CVP_FILTER, CVP_PLANE, CVP_TEXTURE, CVP_NMODEL };
/* layer-2 keys: model m's cases are CVP_BASE_m + case */
#define CVP_BASE_FLAT 0                 /* RUN, SMOOTH */
#define CVP_BASE_MED 2                  /* EDGE_MIN, EDGE_MAX, PLANAR */
#define CVP_BASE_GAP 5                  /* SHARP_H, SHARP_V, WEAK_H, WEAK_V, SMOOTH */
#define CVP_BASE_FILTER 10              /* HIGH, LOW, VLOW */
#define CVP_BASE_PLANE 13               /* ON, OFF, CURVED */
#define CVP_BASE_TEXTURE 16             /* COPY, BLEND, NLM */
#define CVP_NKEY 19

/* Model buffer (int32, read by every work-item): the tree, then tables.
 * Node n = ints [4n, 4n+4): feature, threshold, left, right; a leaf has
 * feature -1 and its model in the threshold slot. Test: f <= thr -> left. */
#define CVP_TREE_NODES 512
#define CVP_OFF_BIAS (4 * CVP_TREE_NODES)   /* 365 MED context biases */
#define CVP_OFF_SW (CVP_OFF_BIAS + 368)     /* 40 spatial weights */
#define CVP_OFF_RL (CVP_OFF_SW + 40)        /* 16 range weights (FILTER) */
#define CVP_OFF_TL (CVP_OFF_RL + 16)        /* 16 match weights (TEXTURE) */
#define CVP_PRM_INTS (CVP_OFF_TL + 16)
#define CVP_TREE_DEPTH 8                    /* at most 8 tests per walk */

/* Thresholds and shifts of the models (grey levels of 12-bit pixels). */
#define CVP_CONSTANTS(X)                                                      \
    X(T_RUN, 24)     /* FLAT: contrast <= T_RUN is a run */                   \
    X(Q1, 18)        /* MED: JPEG-LS gradient quantization for 12 bits */     \
    X(Q2, 67)                                                                 \
    X(Q3, 276)                                                                \
    X(G_SHARP, 1600) /* GAP: |dv - dh| of a sharp edge (24 terms) */          \
    X(G_WEAK, 320)   /* GAP: ... of a weak one */                             \
    X(F_RS, 3)       /* FILTER: range shift */                                \
    X(F_HI, 8000)    /* FILTER: total weight of a confident estimate */       \
    X(F_LO, 6000)    /* FILTER: below: an outlier neighbourhood */            \
    X(P_ON, 160)     /* PLANE: |residual at W| (x16) on the plane */          \
    X(P_OFF, 320)    /* PLANE: beyond: curved */                              \
    X(P_RSH, 2)      /* PLANE: residual shift of the robust weights */        \
    X(X_COPY, 40)    /* TEXTURE: template SAD of a copy-able match */         \
    X(X_BLEND, 160)  /* TEXTURE: ... of a blendable pair; beyond: NLM */      \
    X(X_SH, 4)       /* TEXTURE: SAD shift of the match weights */

#define CVP_ENUM_(name, v) CVP_C_##name = v,
enum { CVP_CONSTANTS(CVP_ENUM_) CVP_C_END_ };
#undef CVP_ENUM_

/* Approximate instruction counts of the paths (the remap ceiling and the
 * CFE estimate): the common prologue, a tree level, each model's layer-1
 * work and each layer-2 case. */
#define CVP_COST_COMMON 127.0
#define CVP_COST_LEVEL 18.0
extern const double cvp_cost_model[CVP_NMODEL];
extern const double cvp_cost_key[CVP_NKEY];
extern const int cvp_key_base[CVP_NMODEL + 1];

struct cvp_cfg {
    int w, h;                /* predicted pixels: n = w * h */
    int wp, hp;              /* padded image: w + 2R columns, h + R rows */
    long n;
    unsigned seed;
    int noise;               /* noise amplitude, grey levels */
    double texture;          /* share of textured shapes */
};

/* Image of wp * hp pixels (cfg's noise and texture); -1: out of memory. */
int cvp_gen_image(const struct cvp_cfg *g, unsigned seed, int wp, int hp, uint16_t *img);
/* Train the tree and tables on a separate image of the same kind (seed
 * derived from g->seed) and its ground truth; prm gets CVP_PRM_INTS ints.
 * 0 or -1 (out of memory). */
int cvp_train(const struct cvp_cfg *g, int32_t *prm);

/* Features of the pixel at p (row stride st), and the tree walk (depth:
 * tests made, may be NULL). */
void cvp_features(const uint16_t *p, int st, int f[CVP_NFEAT]);
int cvp_walk(const int32_t *prm, const int f[CVP_NFEAT], int *depth);
/* The whole prediction: residual, layer-2 key; model and depth may be NULL. */
int cvp_predict(const int32_t *prm, const uint16_t *p, int st, int *key, int *model,
                int *depth);

#endif
