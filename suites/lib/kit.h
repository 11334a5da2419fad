/* kit.h — a benchmark declared, not glued.
 *
 * A benchmark declares its buffers (element type, count as an expression
 * of the size's names and the workload parameters, role, per item or
 * whole, tolerance), its kernel entry point per variant with the
 * arguments it takes, and its sizes. By hand it writes only what no
 * harness can know: a seeded generator, a plain-C reference and, where
 * its branches depend on the data, the key of an item at each divergent
 * layer (for the remap ceiling) and the key cpu_tdr sorts by.
 *
 * From the declaration the kit does the rest (DH_KIT(kit) fills a struct
 * dh_bench with it): allocation, upload, input rotation, poisoning,
 * download, verification with the first mismatches, teardown, the device
 * memory estimate, the generic constraints (wg divides the items, BBV
 * groups fill warps, warp votes where the backend has them, the remap's
 * local memory), the -D defines of the variant (TDR_ALG, TDR_NF,
 * DH_MELDED), cpu_tdr's regrouping by key or by BBV with both mechanisms
 * (dlt moves the per-item buffers into the regrouped order and puts the
 * outputs back; rr passes the permutation as an index buffer) and the remap
 * ceiling from the branch keys. A benchmark that needs more (several
 * kernels in sequence, iterations) declares a launch hook and keeps the
 * rest (dh_kit_launch runs one entry with its declared arguments).
 *
 * docs/guide/writing-a-benchmark.md walks through one; micro/branch is the
 * smallest real one.
 */
#ifndef DH_KIT_H
#define DH_KIT_H

#include <stdint.h>

#include "../suite.h"

#define DH_KIT_MAXBUF 16
#define DH_KIT_MAXROT 4
#define DH_KIT_MAXARG 32

enum dh_ktype { DH_T_U8 = 1, DH_T_U16, DH_T_I32, DH_T_U32, DH_T_F32, DH_T_I64, DH_T_F64 };
/* DH_SCRATCH: the kernels' own working memory on the device (ping-pong
 * grids, counters a final kernel clears): zeroed once at upload, never
 * uploaded again, downloaded or verified */
enum dh_krole { DH_IN = 1, DH_OUT, DH_INOUT, DH_SCRATCH };

/* buffer flags */
#define DH_KB_ITEM   1  /* per item, in columns: element k of item i at k * items + i
                           (count a multiple of items); cpu_tdr's dlt moves it */
#define DH_KB_ROTATE 2  /* an input with one device copy per rotation (the
                           repetitions cycle through them: no cache carries
                           one repetition's input into the next) */
#define DH_KB_OWN    4  /* an output judged by verify_more alone: downloaded,
                           not compared element by element (a check no
                           per-element tolerance says: a mixed tolerance,
                           a residual such as L U against A); its elements
                           take no mismatch indices */

struct dh_khost;

struct dh_kbuf {
    const char *name;
    enum dh_ktype type;
    enum dh_krole role;
    const char *count;      /* elements: an expression (harness/support/expr.h)
                               of `items`, the size's names and the workload
                               parameters, e.g. "items", "days * items" */
    int flags;              /* DH_KB_* */
    const char *variants;   /* comma list of the variants that use it; NULL: all */
    double tol;             /* outputs: |got - want| <= tol * max(1, |want|); 0 = exact */
    int64_t poison;         /* integer outputs: a value no correct run writes;
                               0 = the type's minimum + 1. Floats: NaN. */
    /* (optional) contents made from the host data in the order `perm`
     * (slot j <- item perm[j]; NULL = natural order) instead of moved from a
     * host copy: e.g. cvp's per-pixel patches. Its upload counts as extra
     * transfer time (bytes no other variant moves). */
    void (*gather)(const struct dh_khost *h, const int *perm, void *dst);
};

/* A kernel entry point of a variant. variant: "baseline", "cpu_tdr" (dlt;
 * without one, the baseline's entry on the regrouped data), "cpu_tdr/rr"
 * (rr: the permutation as an index buffer), "gpu_tdr", "gpu_tdr/rr" (the
 * gpu_tdr kernel through the index array: only the remap overhead of a
 * benchmark whose cpu_tdr has mech=rr alone runs it), "melded"; a
 * variant with no entry is absent. args: space-separated
 * tokens, each a buffer's name, `perm` (rr's index buffer), a float
 * literal with a point (0.5) or an integer expression (a 32-bit argument),
 * e.g. "x key y perm" or "in items pol". */
struct dh_kentry {
    const char *variant;
    const char *entry;
    const char *args;
};

/* The host data of one workload (shared by its variants) and, between
 * upload and teardown, the case on the device. Generators and references
 * read and fill it; the kit owns it. */
/* The names a generator or reference adds to vars (histo's rlo and nr:
 * the bins' range its prescan finds), kept with the buffers by the
 * workload cache: a fixed-size part, so a loaded workload has them too. */
#define DH_KIT_MAXMADE 8
struct dh_kmade {
    uint32_t n, pad;
    struct {
        char name[24];
        double num;
    } v[DH_KIT_MAXMADE];
};

struct dh_khost {
    const struct dh_kit *kit;
    const struct dh_case *c;            /* the workload's first case */
    long items;
    struct dh_pset vars;                /* the size's names, items, the workload parameters */
    long count[DH_KIT_MAXBUF];          /* elements of each buffer */
    void *data[DH_KIT_MAXBUF];          /* inputs as generated (in, inout; NULL for gather buffers) */
    void *want[DH_KIT_MAXBUF];          /* the reference's outputs (out, inout) */
    void *priv;                         /* the benchmark's own host data (generate sets it) */
    int sort_nk;                        /* sort_by's number of keys */
    struct dh_kmade made;               /* what generate and reference added to vars */
    /* the case on the device (dh_kit.c) */
    struct dh_kcase *kc;
    /* the remap ceiling of the last (wg, warp) asked */
    int ceil_wg, ceil_warp;
    double ceil;
};

/* A benchmark's own launch sequence (several kernels, iterations): */
struct dh_krun {
    struct dh_khost *h;
    struct dh_exec *x;
    int rot;                            /* the rotation copy of this repetition */
};

/* A constraint: where `when` holds (space-separated name=v1,v2 over the
 * variant and the case's parameters; NULL: always), `holds` must be
 * non-zero, else the case is refused with `why`. */
struct dh_krule {
    const char *when;
    const char *holds;
    const char *why;
};

/* A remap an item goes through, for the tuning model's price: where
 * `when` holds (as for rules), one of suites/lib/tdr.h's forms (`form`:
 * hot, dgi, hot_warp, dgi_scan) over `keys` paths, `times` times (both
 * expressions that see what rules see; times NULL: 1, and 0 leaves the
 * entry out). A configuration's remap is the sum of the entries that
 * hold; pol's round 3 remaps its 8 credit keys, the first two rounds
 * two paths each. */
struct dh_kremap {
    const char *when;
    const char *form;
    const char *keys;
    const char *times;
};

/* Expressions (harness/support/expr.h) see the size's names, the workload
 * parameters, items and the derived names; rules, local and define also
 * the tunables and choices (at their defaults where a case has none; alg
 * as its code, against the constants HOT, DGI, HOT_WARP, DGI_SCAN,
 * HOT_DGI, HOT_WARP_SCAN, SCAN_MULTI, COUNT_MULTI, ADAPT_SCAN), warp and
 * max_wg. Lists are "name = expr; ..."
 * evaluated in order, each name known to the next. */
struct dh_kit {
    const char *sizes[3];               /* small, medium, large: "name=value ..." */
    const char *items;                  /* expression: work-items of a launch */
    const char *derive;                 /* (optional) named counts, a list */
    const char *define;                 /* (optional) -D NAME=value of each, a list */
    const struct dh_krule *rules;       /* (optional) constraints, {0}-terminated */
    const char *local;                  /* (optional) gpu_tdr: a list whose last value is
                                           the bytes of local memory the remap needs */
    const char *noun;                   /* what an item is ("pixels"), for messages */
    const char *remaps;                 /* (optional) the remap rounds an item goes through
                                           under the per-layer gpu_tdr forms (hot, dgi,
                                           hot_warp, dgi_scan, hot_dgi, hot_warp_scan): an
                                           expression that sees what rules see. NULL: 1.
                                           The tuning model prices the remap that often */
    const struct dh_kremap *remap_plan; /* (optional) which remaps each gpu_tdr form runs,
                                           {0}-terminated; where declared it replaces
                                           `remaps` for the tuning model, and a form
                                           no entry names is not priced */
    const struct dh_kbuf *bufs;
    int n_bufs;
    const struct dh_kentry *entries;    /* {0}-terminated */

    /* required, by hand: the input (fill h->data[], may set h->priv) and the
     * expected outputs (fill h->want[]); 0 or an error */
    int (*generate)(struct dh_khost *h, struct dh_err *err);
    int (*reference)(struct dh_khost *h, struct dh_err *err);
    void (*free_priv)(void *priv);
    /* (optional) h->priv made anew from h->vars and the buffers alone, as
     * generate and reference left it: declared where priv holds nothing
     * else, so the workload cache (harness/run/wcache.c) may keep the
     * buffers and skip the generator and reference. Without it, host data
     * with a priv part are made every time. 0 or an error */
    int (*restore)(struct dh_khost *h, struct dh_err *err);

    /* (optional) cpu_tdr regroup=key: a per-item int buffer whose first
     * column is the key, read in place, and the number of keys (an
     * expression); or, for keys computed on the host, sort_key */
    const char *sort_by, *sort_keys;
    /* (optional) cpu_tdr regroup=key: fill key[i] for every item (host time
     * of the variant), return the number of keys (> 0) */
    int (*sort_key)(const struct dh_khost *h, int *key);
    /* (optional) the remap ceiling: the key of every item at divergent
     * layer `layer` (0, 1, ...; -1: the item skips it), *cost the paths'
     * costs (NULL: 1 each); returns the layer's paths, 0 past the last */
    int (*branch)(const struct dh_khost *h, long layer, int *key, const double **cost);

    /* (optional) constraints beyond the derived and declared ones; the
     * contract of dh_bench.check; vars as for rules */
    int (*check)(const struct dh_case *c, const struct dh_pset *vars,
                 const struct dh_device_info *dev, char *why, size_t len);
    /* (optional) -D defines no list can say (floats, the device), after
     * the declared ones and before the kit's */
    int (*defines)(const struct dh_case *c, const struct dh_pset *vars,
                   const struct dh_device_info *dev, char *buf, size_t len);
    /* (optional) verification beyond the buffers (derived results such as
     * an aggregation of the outputs) and of DH_KB_OWN buffers: got[b]
     * holds buffer b's contents in item order; mismatch indices continue
     * after the compared buffers' */
    void (*verify_more)(const struct dh_khost *h, void *const *got, long base,
                        struct dh_verify *v);
    /* (optional) a launch sequence of its own, timed as one repetition
     * (the sum of the timed launches' kernel_ms) */
    int (*launch)(struct dh_krun *r, const struct dh_kentry *e, double *kernel_ms,
                  struct dh_err *err);
};

/* The generic operations; a declared benchmark's struct dh_bench names
 * its declaration and them with DH_KIT(kit). */
int dh_kit_check(const struct dh_case *c, const struct dh_device_info *dev, char *why,
                 size_t len);
uint64_t dh_kit_bytes(const struct dh_case *c, int rotate);
int dh_kit_defines(const struct dh_case *c, const struct dh_device_info *dev, char *buf,
                   size_t len);
int dh_kit_setup(const struct dh_case *c, void **state, struct dh_err *err);
int dh_kit_upload(void *state, struct dh_exec *x, struct dh_err *err);
int dh_kit_run(void *state, struct dh_exec *x, int rep, struct dh_sample *s,
               struct dh_err *err);
int dh_kit_poison(void *state, struct dh_exec *x, struct dh_err *err);
int dh_kit_verify(void *state, struct dh_exec *x, struct dh_verify *v, struct dh_err *err);
double dh_kit_ceiling(void *state, const struct dh_case *c, int warp);
int dh_kit_presort(const struct dh_case *c, char *mech, size_t mech_len, char *why,
                   size_t why_len);
void dh_kit_teardown(void *state, struct dh_exec *x);
void dh_kit_release(void *state);
long dh_kit_items(void *state);

#define DH_KIT(k) .kit = &(k), DH_KIT_OPS
#define DH_KIT_OPS                                                                  \
    .check = dh_kit_check, .device_bytes = dh_kit_bytes, .defines = dh_kit_defines, \
    .setup = dh_kit_setup, .upload = dh_kit_upload, .run = dh_kit_run,              \
    .poison = dh_kit_poison, .verify = dh_kit_verify, .ceiling = dh_kit_ceiling,    \
    .teardown = dh_kit_teardown, .release = dh_kit_release, .items = dh_kit_items,  \
    .presort = dh_kit_presort, .kernel = dh_kit_kernel

/* The host data as plain buffers, for the workload cache
 * (harness/run/wcache.c): each buffer's input as generated, then its
 * expected output, in the declaration's order. */
struct dh_kpart {
    void *p;
    size_t bytes;
};
#define DH_KIT_MAXPARTS (2 * DH_KIT_MAXBUF + 1)
/* parts (room for DH_KIT_MAXPARTS: the buffers, then the names the
 * generator added, struct dh_kmade) and *n; -1 when the host data hold
 * more than that (the benchmark's own priv with no restore, more than
 * DH_KIT_MAXMADE added names), which a cache cannot store */
int dh_kit_host_parts(void *state, struct dh_kpart *parts, int *n);
/* dh_kit_setup with the buffers filled by fill(ctx, parts, n, err) (the
 * parts as dh_kit_host_parts lists them) instead of the generator and the
 * reference, then the kit's restore; the sort keys are checked as after a
 * generator. */
int dh_kit_setup_loaded(const struct dh_case *c, void **state,
                        int (*fill)(void *ctx, const struct dh_kpart *parts, int n,
                                    struct dh_err *err),
                        void *ctx, struct dh_err *err);

/* A declaration's buffer and entry tables (arrays, not pointers). */
#define DH_KIT_TABLES(b, e) .bufs = (b), .n_bufs = (int)(sizeof(b) / sizeof((b)[0])), .entries = (e)

/* The standard parameters the kit acts on, for a benchmark's table. */
#define DH_KIT_WG {"wg", DH_P_TUNABLE, "int:1..1024", "256", NULL, "work-group size"}
#define DH_KIT_NF(when) {"nf", DH_P_TUNABLE, "int:1..1024", "16", "gpu_tdr", \
                         "DGI neighboring factor", when}
#define DH_KIT_GROUP {"group", DH_P_TUNABLE, "int:1..65536", "64", "cpu_tdr",              \
                      "items per group of the BBV regroupings (a multiple of the warp width)", \
                      "regroup=greedy,greedymax"}
/* deal: the regrouped order's warps dealt over the work-groups
 * (dh_regroup_deal), for benchmarks whose launch is a wave or two: the
 * default is the benchmark's ("0" or "1") */
#define DH_KIT_DEAL(def) {"deal", DH_P_TUNABLE, "int:0..2", def, "cpu_tdr",                  \
                          "1: the regrouped warps dealt over the work-groups in turn, so "  \
                          "every SM holds a share of the costly ones (a launch of few "     \
                          "waves); 2: ordered costliest first (modeled), then dealt; 0: "   \
                          "the sorted warps in consecutive work-groups"}
#define DH_KIT_SEED {"seed", DH_P_WORKLOAD, "int:0..2147483647", "1", NULL, "generator seed"}
/* the four single-layer remap forms, with what they remap by */
#define DH_KIT_ALG4(doc) {"alg", DH_P_CHOICE, "enum:hot,dgi,hot_warp,dgi_scan", "hot", "gpu_tdr", \
                          "on-GPU remap algorithm: " doc " (the _warp/_scan forms: CUDA/HIP)"}
#define DH_KIT_MECH(domain, doc) {"mech", DH_P_CHOICE, domain, "dlt", "cpu_tdr", doc}
#define DH_KIT_REGROUP(doc) {"regroup", DH_P_CHOICE, "enum:key,sort,greedy,greedymax", "key", \
                             "cpu_tdr", doc}

/* The remap algorithms' codes, as TDR_ALG in a gpu_tdr build (kit.c):
 * hot 1, dgi 2, hot_warp 3, dgi_scan 4, hot_dgi 5 (HoT on two-path layers,
 * DGI on the others), hot_warp_scan 6 (hot_warp / dgi_scan), static 7 (a
 * remap fixed by the thread id, written by the benchmark: work moved
 * between lanes by a formula, no data read; darm/bit), refill 8 (a lane
 * whose item is done takes the next of its work-group's pool, written by
 * the benchmark; darm/nqu), and forms written by one benchmark in its
 * kernel source: natkey_dgi 9, natkey_scan 10 (frontier/pol: one remap up
 * front on the natural key), model_dgi 11, model_scan 12 (frontier/cvp: one
 * remap by model, the pixel index alone moving), lean_dgi 13, lean_scan 14
 * (frontier/cvp: both remaps, the index alone moving at the first).
 * scan_multi 15, count_multi 16, adapt_scan 17 (the multi-item forms of
 * suites/lib/tdr.h: ipl items a lane), and seven written by frontier/gdt:
 * buy_pool 18 (the costliest path's tasks pooled over the work-group each
 * day), key_regroup 19 (items regrouped by a stable key once, or every few
 * days, their state kept in the lane), key_buy_pool 20 (both),
 * kind_buy_pool 21 (buy_pool, and one layer's tasks sorted by kind),
 * key_dlt 22, key_dlt_buy_pool 23 and key_dlt_kind_buy_pool 24
 * (key_regroup once, the data copied into the regrouped order on the
 * device; with the pools); static_trips 25 (parboil/pb: a static map from
 * the global id to the position, each class of covering windows a
 * contiguous range of ids, no data read); meld_buy_pool 26 (frontier/gdt:
 * buy_pool with the other layers melded), meld_key_dlt 27 (frontier/gdt:
 * key_dlt with every layer melded). 0: unknown. */
int dh_kit_alg_code(const char *alg);

/* The entry case c launches (its variant's, cpu_tdr's rr or the
 * baseline's for dlt), NULL where the kit declares none: dh_bench.kernel. */
const char *dh_kit_kernel(const struct dh_case *c);

/* Run entry e with its declared arguments over `global` items (0: the
 * case's items) in work-groups of the case's wg: for a launch hook. */
int dh_kit_launch(struct dh_krun *r, const struct dh_kentry *e, size_t global, double *ms,
                  struct dh_err *err);

/* The size's names, the workload parameters, items and the derived names
 * (vars), items and every buffer's count for case c. 0, or -DH_E_DATA
 * with why. */
int dh_kit_dims(const struct dh_kit *k, const struct dh_case *c, struct dh_pset *vars,
                long *items, long *count, char *why, size_t len);

/* dh_kit_dims' vars and the case's tunables and choices, alg's code and
 * the remap constants: what rules, local and define see. */
int dh_kit_vars(const struct dh_case *c, struct dh_pset *vars, char *why, size_t len);
/* The kit's `remaps` for case c with the tunables of cfg (NULL: the
 * case's own): >= 1, or 1 where the kit declares none, or where the
 * expression cannot be evaluated or is below 1 (then why says so, if
 * given). */
long dh_kit_remaps(const struct dh_case *c, const struct dh_pset *cfg, char *why, size_t len);

/* The kit's remap_plan for case c with the tunables of cfg (NULL: the
 * case's own): the entries that hold, up to max, into out (form, keys,
 * times, each evaluated). Returns their number (those past max not
 * filled in), -1 where the kit declares no plan, or -DH_E_DATA where an
 * expression cannot be evaluated (why says which). */
struct dh_kremap_use {
    const char *form;
    long keys, times;
};
int dh_kit_remap_plan(const struct dh_case *c, const struct dh_pset *cfg,
                      struct dh_kremap_use *out, int max, char *why, size_t len);

/* The next space-separated word of p into tok (its full length in *wlen
 * when not NULL); returns where the rest begins, NULL when none is left
 * (p may be NULL). Sizes and argument lists are read with it. */
const char *dh_kit_word(const char *p, char *tok, size_t len, size_t *wlen);

/* The buffer named `name` of the benchmark (-1: none). */
int dh_kit_buf_index(const struct dh_kit *k, const char *name);
/* Bytes of one element. */
size_t dh_ktype_size(enum dh_ktype t);

#endif
