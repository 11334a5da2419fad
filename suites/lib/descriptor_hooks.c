/* descriptor_hooks.c — a loaded descriptor (descriptor_uk.h) as a
 * declared benchmark: its inputs, its reference (compiled for the host, on
 * the OpenCL CPU device, or the user's C function), its defines and branch
 * keys. descriptor.c reads the descriptor. */
#include "descriptor_uk.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness/support/expr.h"
#include "../../harness/support/fs.h"
#include "hostref.h"

extern const char dh_src_lib_dialect[], dh_src_lib_tdr[];

/* compilers name the user's file */
static void line_directive(char *out, size_t len)
{
    dh_line_directive(out, len, dh_uk.kpath);
}

/* ---- the benchmark's hooks ---- */

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void put(enum dh_ktype t, void *p, long i, double v)
{
    switch (t) {
    case DH_T_U8: ((uint8_t *)p)[i] = (uint8_t)v; break;
    case DH_T_U16: ((uint16_t *)p)[i] = (uint16_t)v; break;
    case DH_T_I32: ((int32_t *)p)[i] = (int32_t)floor(v); break;
    case DH_T_U32: ((uint32_t *)p)[i] = (uint32_t)floor(v); break;
    case DH_T_F32: ((float *)p)[i] = (float)v; break;
    case DH_T_I64: ((int64_t *)p)[i] = (int64_t)floor(v); break;
    case DH_T_F64: ((double *)p)[i] = v; break;
    }
}

int dh_uk_generate(struct dh_khost *h, struct dh_err *err)
{
    (void)err;
    for (int b = 0; b < dh_uk.n_buf; b++) {
        if (!h->data[b])
            continue;
        const struct uk_init *in = &dh_uk.init[b];
        uint64_t st = in->seed * 0x2545f4914f6cdd1dULL;
        for (long i = 0; i < h->count[b]; i++) {
            double u = (double)(mix(&st) >> 11) / 9007199254740992.0;
            put(dh_uk.bufs[b].type, h->data[b], i,
                in->how == 1 ? (double)i : in->how == 2 ? in->min + u * (in->max - in->min) : 0);
        }
    }
    return 0;
}

/* the tunables at their defaults, as -D words (wg is DH_WG) */
static void default_defines(char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = 0;
    for (int k = 0; k < dh_uk.n_tun && o < len; k++)
        if (strcmp(dh_uk.tun_name[k], "wg"))
            o += (size_t)snprintf(buf + o, len - o, "%s-D%s=%s", o ? " " : "", dh_uk.tun_name[k],
                                  dh_uk.tun_default[k]);
}

static int default_wg(void)
{
    for (int k = 0; k < dh_uk.n_tun; k++)
        if (!strcmp(dh_uk.tun_name[k], "wg"))
            return atoi(dh_uk.tun_default[k]);
    return 256;
}

/* the reference entry's arguments: its own, else the baseline entry's */
static const char *ref_args(void)
{
    if (dh_uk.ref_args[0])
        return dh_uk.ref_args;
    for (int e = 0; e < dh_uk.n_entry; e++)
        if (!strcmp(dh_uk.ev[e], "baseline"))
            return dh_uk.eargs[e];
    return dh_uk.eargs[0];
}

static int parse_ref_args(const struct dh_khost *h, struct dh_hostref_arg *a, int *n,
                          struct dh_err *err)
{
    char tok[1040];
    *n = 0;
    for (const char *p = ref_args(); *n < DH_KIT_MAXARG && (p = dh_kit_word(p, tok, sizeof tok, NULL));) {
        struct dh_hostref_arg *x = &a[(*n)++];
        memset(x, 0, sizeof *x);
        int b = dh_kit_buf_index(&dh_uk.kit, tok);
        char *end;
        long v;
        char why[256];
        if (b >= 0) {
            x->is_buf = 1;
            x->buf = b;
            x->type = dh_uk.bufs[b].type;
        } else if (strchr(tok, '.') && (x->value = strtod(tok, &end), !*end)) {
            x->is_float = 1;
        } else if (!dh_expr_eval(tok, &h->vars, 32, 1024, (double)h->items, &v, why, sizeof why)) {
            x->value = (double)v;
        } else {
            return dh_err_set(err, DH_E_DATA, "%s: reference argument \"%s\": neither a buffer "
                              "nor an expression (%s)", dh_uk.path, tok, why);
        }
    }
    return 0;
}

/* the reference entry on the OpenCL CPU device */
static int device_reference(struct dh_khost *h, void *const *bufs, struct dh_err *err)
{
    const struct dh_backend_ops *be = dh_backend_find("opencl");
    int n = 0, idx = -1, rc;
    struct dh_device_info info;
    char why[256] = "";
    if (!be || be->probe(&n, why, sizeof why, err))
        return dh_err_set(err, DH_E_UNAVAILABLE, "the reference runs on the OpenCL CPU device "
                          "(<reference on=\"device\">), and OpenCL is not available%s%s: install "
                          "pocl-opencl-icd, or use <reference on=\"host\"> (the entry compiled "
                          "as plain C)", why[0] ? ": " : "", why);
    for (int i = 0; i < n && idx < 0; i++)
        if (!be->describe(i, &info, err) && !strcmp(info.kind, "cpu"))
            idx = i;
    if (idx < 0)
        return dh_err_set(err, DH_E_UNAVAILABLE, "no OpenCL CPU device for the reference run "
                          "(<reference on=\"device\">): install pocl-opencl-icd, or use "
                          "<reference on=\"host\"> (the entry compiled as plain C)");
    struct dh_device *dev = NULL;
    struct dh_program *prog = NULL;
    struct dh_buffer *db[DH_KIT_MAXBUF] = {0};
    if ((rc = be->open(idx, &dev, err)))
        return rc;
    char line[2200];
    line_directive(line, sizeof line);
    size_t len = strlen(dh_src_lib_dialect) + strlen(dh_src_lib_tdr) + strlen(line)
                 + strlen(dh_uk.source) + 8;
    char *src = malloc(len), opts[2200], defs[2048], *log = NULL;
    default_defines(defs, sizeof defs);
    snprintf(opts, sizeof opts, "-D DH_WG=%d -D DH_WAVE=%d %s", default_wg(), info.warp_width,
             defs);
    if (src)
        snprintf(src, len, "%s\n%s\n%s%s", dh_src_lib_dialect, dh_src_lib_tdr, line, dh_uk.source);
    rc = src ? be->build(dev, src, opts, &prog, &log, NULL, err)
             : dh_err_set(err, DH_E_RESOURCES, "out of memory");
    free(log);
    free(src);
    struct dh_hostref_arg a[DH_KIT_MAXARG];
    struct dh_arg args[DH_KIT_MAXARG];
    int na = 0;
    if (!rc)
        rc = parse_ref_args(h, a, &na, err);
    for (int b = 0; !rc && b < dh_uk.n_buf; b++) {
        size_t bytes = (size_t)h->count[b] * dh_ktype_size(dh_uk.bufs[b].type);
        rc = be->alloc(dev, bytes, &db[b], err);
        if (!rc)
            rc = be->copy(db[b], bufs[b], bytes, DH_TO_DEVICE, err);
    }
    for (int k = 0; !rc && k < na; k++) {
        args[k].kind = a[k].is_buf ? DH_ARG_BUFFER : a[k].is_float ? DH_ARG_F32 : DH_ARG_I32;
        if (a[k].is_buf)
            args[k].v.buf = db[a[k].buf];
        else if (a[k].is_float)
            args[k].v.f32 = (float)a[k].value;
        else
            args[k].v.i32 = (int32_t)a[k].value;
    }
    struct dh_launch l = {.kernel = dh_uk.ref_entry, .global = (size_t)h->items,
                          .local = (size_t)default_wg(), .n_args = na, .args = args};
    if (!rc)
        rc = be->launch(prog, &l, NULL, err);
    for (int b = 0; !rc && b < dh_uk.n_buf; b++)
        if (dh_uk.bufs[b].role != DH_IN)
            rc = be->copy(db[b], bufs[b],
                          (size_t)h->count[b] * dh_ktype_size(dh_uk.bufs[b].type), DH_TO_HOST, err);
    for (int b = 0; b < dh_uk.n_buf; b++)
        if (db[b])
            be->free_buffer(db[b]);
    if (prog)
        be->free_program(prog);
    be->close(dev);
    return rc;
}

int dh_uk_reference(struct dh_khost *h, struct dh_err *err)
{
    /* inputs as generated, outputs into want (inout: starting from the input) */
    void *bufs[DH_KIT_MAXBUF];
    for (int b = 0; b < dh_uk.n_buf; b++) {
        if (dh_uk.bufs[b].role == DH_INOUT)
            memcpy(h->want[b], h->data[b], (size_t)h->count[b] * dh_ktype_size(dh_uk.bufs[b].type));
        bufs[b] = dh_uk.bufs[b].role == DH_IN ? h->data[b] : h->want[b];
    }
    int rc;
    if (dh_uk.ref_mode == 2) {
        rc = dh_hostref_cfile(dh_uk.ref_c, dh_uk.ref_fn, bufs, h->count, h->items, err);
    } else if (dh_uk.ref_mode == 1) {
        rc = device_reference(h, bufs, err);
    } else {
        struct dh_hostref_arg a[DH_KIT_MAXARG];
        int na;
        char defs[2048];
        default_defines(defs, sizeof defs);
        char line[2200];
        line_directive(line, sizeof line);
        size_t len = strlen(dh_src_lib_tdr) + strlen(line) + strlen(dh_uk.source) + 32;
        char *src = malloc(len);
        if (!src)
            return dh_err_set(err, DH_E_RESOURCES, "out of memory");
        snprintf(src, len, "%s\n%s%s", dh_src_lib_tdr, line, dh_uk.source);
        rc = parse_ref_args(h, a, &na, err);
        if (!rc)
            rc = dh_hostref_entry(src, defs, dh_uk.ref_entry, a, na, h->items, default_wg(), bufs,
                                  err);
        free(src);
    }
    if (rc) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        return dh_err_set(err, -rc, "%s: reference: %s", dh_uk.name, msg);
    }
    return 0;
}

int dh_uk_defines(const struct dh_case *c, const struct dh_pset *vars,
                  const struct dh_device_info *dev, char *buf, size_t len)
{
    (void)dev;
    (void)vars;
    size_t o = 0;
    buf[0] = 0;
    for (int k = 0; k < dh_uk.n_tun; k++) {
        if (!strcmp(dh_uk.tun_name[k], "wg"))
            continue;                        /* the harness defines DH_WG */
        o += (size_t)snprintf(buf + o, len - o, "%s-D %s=%s", o ? " " : "", dh_uk.tun_name[k],
                              dh_pset_text(&c->params, dh_uk.tun_name[k], dh_uk.tun_default[k]));
        if (o >= len)
            return -DH_E_INTERNAL;
    }
    return 0;
}

/* The key of every item at layer `layer`: the branch's expression over
 * the item's values of the per-item buffers (their first column). */
int dh_uk_branch(const struct dh_khost *h, long layer, int *key, const double **cost)
{
    (void)cost;
    if (layer >= dh_uk.n_br)
        return 0;
    struct dh_pset vars = h->vars;
    int slot[DH_KIT_MAXBUF];
    for (int b = 0; b < dh_uk.n_buf; b++) {
        slot[b] = -1;
        if ((dh_uk.bufs[b].flags & DH_KB_ITEM) && h->data[b]) {
            dh_pset_put(&vars, dh_uk.bufs[b].name, "0", 0, DH_P_WORKLOAD);
            for (int k = 0; k < vars.n; k++)
                if (!strcmp(vars.v[k].name, dh_uk.bufs[b].name))
                    slot[b] = k;
        }
    }
    int paths = dh_uk.br_paths[layer];
    long valid = 0;
    char first_why[256] = "";
    long first_bad = -1, first_k = 0;
    for (long i = 0; i < h->items; i++) {
        for (int b = 0; b < dh_uk.n_buf; b++) {
            if (slot[b] < 0)
                continue;
            const char *p = h->data[b];
            size_t es = dh_ktype_size(dh_uk.bufs[b].type);
            double v = 0;
            switch (dh_uk.bufs[b].type) {
            case DH_T_U8: v = ((const uint8_t *)p)[i]; break;
            case DH_T_U16: v = ((const uint16_t *)p)[i]; break;
            case DH_T_I32: v = ((const int32_t *)p)[i]; break;
            case DH_T_U32: v = ((const uint32_t *)p)[i]; break;
            case DH_T_F32: v = ((const float *)p)[i]; break;
            case DH_T_I64: v = (double)((const int64_t *)p)[i]; break;
            case DH_T_F64: v = ((const double *)p)[i]; break;
            }
            (void)es;
            vars.v[slot[b]].num = floor(v);
        }
        long k;
        char why[256] = "";
        int bad = dh_expr_eval(dh_uk.br_key[layer], &vars, 32, 1024, (double)h->items, &k, why,
                               sizeof why);
        if (bad || k < -1 || k >= paths) {
            if (first_bad < 0) {
                first_bad = i;
                first_k = bad ? 0 : k;
                snprintf(first_why, sizeof first_why, "%s", bad ? why : "");
            }
            k = -1;                         /* out of range: the item skips the layer */
        }
        valid += k >= 0;
        key[i] = (int)k;
    }
    /* a key that gives no item a path is said once per layer (it skipped
     * the layer without a word): the descriptor is most likely wrong */
    if (h->items > 0 && !valid && first_bad >= 0 && layer < 32
        && !(dh_uk.br_said & (1u << layer))) {
        dh_uk.br_said |= 1u << layer;
        if (first_why[0])
            fprintf(stderr, "harness: warning: <branch key=\"%s\"> (branch %ld) fails for every "
                    "item (the first: %s): the branch is left out of the ceiling and the key "
                    "regrouping\n", dh_uk.br_key[layer], layer + 1, first_why);
        else
            fprintf(stderr, "harness: warning: <branch key=\"%s\"> (branch %ld) is outside "
                    "0..%d for every item (the first: %ld): the branch is left out of the "
                    "ceiling and the key regrouping\n", dh_uk.br_key[layer], layer + 1,
                    paths - 1, first_k);
    }
    return paths;
}

/* cpu_tdr regroup=key: by the first branch (items that skip it last).
 * The keys are declared data, evaluated once per workload (generate): the
 * timed host work is the regrouping, not this harness's interpreter. */
int dh_uk_sort_key(const struct dh_khost *h, int *key)
{
    memcpy(key, h->priv, (size_t)h->items * sizeof *key);
    return dh_uk.br_paths[0] + 1;
}

int dh_uk_generate_keyed(struct dh_khost *h, struct dh_err *err)
{
    int rc = dh_uk_generate(h, err);
    int *key = rc ? NULL : malloc((size_t)h->items * sizeof *key);
    if (rc)
        return rc;
    if (!key)
        return dh_err_set(err, DH_E_RESOURCES, "out of host memory");
    dh_uk_branch(h, 0, key, NULL);
    for (long i = 0; i < h->items; i++)
        if (key[i] < 0)
            key[i] = dh_uk.br_paths[0];
    h->priv = key;
    return 0;
}

