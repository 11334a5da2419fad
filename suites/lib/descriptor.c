/* descriptor.c — a user's kernel from a descriptor, as a declared
 * benchmark (descriptor.h). */
#include "descriptor.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlschemas.h>

#include "hostref.h"
#include "kit.h"

extern const char dh_xsd_descriptor1[], dh_xsd_descriptor2[];
extern const char dh_src_lib_dialect[], dh_src_lib_tdr[];

#define UK_MAXTUN 8
#define UK_MAXBR 8

struct uk_init {
    int how;                     /* 0 zero, 1 index, 2 random */
    double min, max;
    unsigned seed;
};

/* everything a loaded descriptor declares; one at a time */
static struct {
    char name[48], path[1024], kpath[2048];
    char items[1040], sizes[3][256];
    char *source;
    char *fingerprint;           /* the descriptor's text + its C reference's */
    char bname[DH_KIT_MAXBUF][32], bcount[DH_KIT_MAXBUF][1040];
    struct dh_kbuf bufs[DH_KIT_MAXBUF];
    struct uk_init init[DH_KIT_MAXBUF];
    int n_buf;
    char ev[5][16], ename[5][32], eargs[5][1040];
    struct dh_kentry entries[6];
    int n_entry;
    char variants[64];
    /* reference */
    int ref_mode;                /* 0 host entry, 1 device entry, 2 C file */
    char ref_entry[32], ref_args[1040], ref_c[1024], ref_fn[32];
    /* branches */
    char br_key[UK_MAXBR][1040];
    int br_paths[UK_MAXBR], n_br;
    /* tunables, constraints */
    char tun_name[UK_MAXTUN][32], tun_domain[UK_MAXTUN][720], tun_default[UK_MAXTUN][16];
    struct dh_param_def params[UK_MAXTUN + 4];
    int n_tun;
    char constraint[16][1040], con_why[16][1100];
    struct dh_krule rules[17];
    int n_con;
    struct dh_kit kit;
    struct dh_bench bench;
} uk;

/* "#line 1 "<the kernel's path>"\n": compilers name the user's file; the
 * path is data, kept inside the C string (quote, backslash escaped, a
 * newline cannot end the directive) */
static void line_directive(char *out, size_t len)
{
    size_t o = (size_t)snprintf(out, len, "#line 1 \"");
    for (const char *q = uk.kpath; *q && o + 8 < len; q++) {
        if (*q == '"' || *q == '\\')
            out[o++] = '\\';
        out[o++] = (*q == '\n' || *q == '\r') ? '?' : *q;
    }
    snprintf(out + o, len - o, "\"\n");
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

static int uk_generate(struct dh_khost *h, struct dh_err *err)
{
    (void)err;
    for (int b = 0; b < uk.n_buf; b++) {
        if (!h->data[b])
            continue;
        const struct uk_init *in = &uk.init[b];
        uint64_t st = in->seed * 0x2545f4914f6cdd1dULL;
        for (long i = 0; i < h->count[b]; i++) {
            double u = (double)(mix(&st) >> 11) / 9007199254740992.0;
            put(uk.bufs[b].type, h->data[b], i,
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
    for (int k = 0; k < uk.n_tun && o < len; k++)
        if (strcmp(uk.tun_name[k], "wg"))
            o += (size_t)snprintf(buf + o, len - o, "%s-D%s=%s", o ? " " : "", uk.tun_name[k],
                                  uk.tun_default[k]);
}

static int default_wg(void)
{
    for (int k = 0; k < uk.n_tun; k++)
        if (!strcmp(uk.tun_name[k], "wg"))
            return atoi(uk.tun_default[k]);
    return 256;
}

/* the reference entry's arguments: its own, else the baseline entry's */
static const char *ref_args(void)
{
    if (uk.ref_args[0])
        return uk.ref_args;
    for (int e = 0; e < uk.n_entry; e++)
        if (!strcmp(uk.ev[e], "baseline"))
            return uk.eargs[e];
    return uk.eargs[0];
}

static int parse_ref_args(const struct dh_khost *h, struct dh_hostref_arg *a, int *n,
                          struct dh_err *err)
{
    char tok[1040];
    *n = 0;
    for (const char *p = ref_args(); *n < DH_KIT_MAXARG && (p = dh_kit_word(p, tok, sizeof tok, NULL));) {
        struct dh_hostref_arg *x = &a[(*n)++];
        memset(x, 0, sizeof *x);
        int b = dh_kit_buf_index(&uk.kit, tok);
        char *end;
        long v;
        char why[256];
        if (b >= 0) {
            x->is_buf = 1;
            x->buf = b;
            x->type = uk.bufs[b].type;
        } else if (strchr(tok, '.') && (x->value = strtod(tok, &end), !*end)) {
            x->is_float = 1;
        } else if (!dh_expr_eval(tok, &h->vars, 32, 1024, (double)h->items, &v, why, sizeof why)) {
            x->value = (double)v;
        } else {
            return dh_err_set(err, DH_E_DATA, "%s: reference argument \"%s\": neither a buffer "
                              "nor an expression (%s)", uk.path, tok, why);
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
                 + strlen(uk.source) + 8;
    char *src = malloc(len), opts[2200], defs[2048], *log = NULL;
    default_defines(defs, sizeof defs);
    snprintf(opts, sizeof opts, "-D DH_WG=%d -D DH_WAVE=%d %s", default_wg(), info.warp_width,
             defs);
    if (src)
        snprintf(src, len, "%s\n%s\n%s%s", dh_src_lib_dialect, dh_src_lib_tdr, line, uk.source);
    rc = src ? be->build(dev, src, opts, &prog, &log, NULL, err)
             : dh_err_set(err, DH_E_RESOURCES, "out of memory");
    free(log);
    free(src);
    struct dh_hostref_arg a[DH_KIT_MAXARG];
    struct dh_arg args[DH_KIT_MAXARG];
    int na = 0;
    if (!rc)
        rc = parse_ref_args(h, a, &na, err);
    for (int b = 0; !rc && b < uk.n_buf; b++) {
        size_t bytes = (size_t)h->count[b] * dh_ktype_size(uk.bufs[b].type);
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
    struct dh_launch l = {.kernel = uk.ref_entry, .global = (size_t)h->items,
                          .local = (size_t)default_wg(), .n_args = na, .args = args};
    if (!rc)
        rc = be->launch(prog, &l, NULL, err);
    for (int b = 0; !rc && b < uk.n_buf; b++)
        if (uk.bufs[b].role != DH_IN)
            rc = be->copy(db[b], bufs[b],
                          (size_t)h->count[b] * dh_ktype_size(uk.bufs[b].type), DH_TO_HOST, err);
    for (int b = 0; b < uk.n_buf; b++)
        if (db[b])
            be->free_buffer(db[b]);
    if (prog)
        be->free_program(prog);
    be->close(dev);
    return rc;
}

static int uk_reference(struct dh_khost *h, struct dh_err *err)
{
    /* inputs as generated, outputs into want (inout: starting from the input) */
    void *bufs[DH_KIT_MAXBUF];
    for (int b = 0; b < uk.n_buf; b++) {
        if (uk.bufs[b].role == DH_INOUT)
            memcpy(h->want[b], h->data[b], (size_t)h->count[b] * dh_ktype_size(uk.bufs[b].type));
        bufs[b] = uk.bufs[b].role == DH_IN ? h->data[b] : h->want[b];
    }
    int rc;
    if (uk.ref_mode == 2) {
        rc = dh_hostref_cfile(uk.ref_c, uk.ref_fn, bufs, h->count, h->items, err);
    } else if (uk.ref_mode == 1) {
        rc = device_reference(h, bufs, err);
    } else {
        struct dh_hostref_arg a[DH_KIT_MAXARG];
        int na;
        char defs[2048];
        default_defines(defs, sizeof defs);
        char line[2200];
        line_directive(line, sizeof line);
        size_t len = strlen(dh_src_lib_tdr) + strlen(line) + strlen(uk.source) + 32;
        char *src = malloc(len);
        if (!src)
            return dh_err_set(err, DH_E_RESOURCES, "out of memory");
        snprintf(src, len, "%s\n%s%s", dh_src_lib_tdr, line, uk.source);
        rc = parse_ref_args(h, a, &na, err);
        if (!rc)
            rc = dh_hostref_entry(src, defs, uk.ref_entry, a, na, h->items, default_wg(), bufs,
                                  err);
        free(src);
    }
    if (rc) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        return dh_err_set(err, -rc, "%s: reference: %s", uk.name, msg);
    }
    return 0;
}

static int uk_defines(const struct dh_case *c, const struct dh_pset *vars,
                      const struct dh_device_info *dev, char *buf, size_t len)
{
    (void)dev;
    (void)vars;
    size_t o = 0;
    buf[0] = 0;
    for (int k = 0; k < uk.n_tun; k++) {
        if (!strcmp(uk.tun_name[k], "wg"))
            continue;                        /* the harness defines DH_WG */
        o += (size_t)snprintf(buf + o, len - o, "%s-D %s=%s", o ? " " : "", uk.tun_name[k],
                              dh_pset_text(&c->params, uk.tun_name[k], uk.tun_default[k]));
        if (o >= len)
            return -DH_E_INTERNAL;
    }
    return 0;
}

/* The key of every item at layer `layer`: the branch's expression over
 * the item's values of the per-item buffers (their first column). */
static int uk_branch(const struct dh_khost *h, long layer, int *key, const double **cost)
{
    (void)cost;
    if (layer >= uk.n_br)
        return 0;
    struct dh_pset vars = h->vars;
    int slot[DH_KIT_MAXBUF];
    for (int b = 0; b < uk.n_buf; b++) {
        slot[b] = -1;
        if ((uk.bufs[b].flags & DH_KB_ITEM) && h->data[b]) {
            dh_pset_put(&vars, uk.bufs[b].name, "0", 0, DH_P_WORKLOAD);
            for (int k = 0; k < vars.n; k++)
                if (!strcmp(vars.v[k].name, uk.bufs[b].name))
                    slot[b] = k;
        }
    }
    int paths = uk.br_paths[layer];
    for (long i = 0; i < h->items; i++) {
        for (int b = 0; b < uk.n_buf; b++) {
            if (slot[b] < 0)
                continue;
            const char *p = h->data[b];
            size_t es = dh_ktype_size(uk.bufs[b].type);
            double v = 0;
            switch (uk.bufs[b].type) {
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
        char why[256];
        if (dh_expr_eval(uk.br_key[layer], &vars, 32, 1024, (double)h->items, &k, why,
                         sizeof why) || k < -1 || k >= paths)
            k = -1;                         /* out of range: the item skips the layer */
        key[i] = (int)k;
    }
    return paths;
}

/* cpu_tdr regroup=key: by the first branch (items that skip it last).
 * The keys are declared data, evaluated once per workload (generate): the
 * timed host work is the regrouping, not this harness's interpreter. */
static int uk_sort_key(const struct dh_khost *h, int *key)
{
    memcpy(key, h->priv, (size_t)h->items * sizeof *key);
    return uk.br_paths[0] + 1;
}

static int uk_generate_keyed(struct dh_khost *h, struct dh_err *err)
{
    int rc = uk_generate(h, err);
    int *key = rc ? NULL : malloc((size_t)h->items * sizeof *key);
    if (rc)
        return rc;
    if (!key)
        return dh_err_set(err, DH_E_RESOURCES, "out of host memory");
    uk_branch(h, 0, key, NULL);
    for (long i = 0; i < h->items; i++)
        if (key[i] < 0)
            key[i] = uk.br_paths[0];
    h->priv = key;
    return 0;
}

/* ---- loading ---- */
struct first_error { char msg[512]; };

static void on_error(void *ctx, const xmlError *e)
{
    struct first_error *f = ctx;
    if (!f->msg[0] && e && e->message) {
        snprintf(f->msg, sizeof f->msg, "line %d: %s", e->line, e->message);
        f->msg[strcspn(f->msg, "\n")] = 0;
    }
}

static void prop(xmlNodePtr n, const char *k, char *out, size_t len)
{
    xmlChar *v = xmlGetProp(n, BAD_CAST k);
    snprintf(out, len, "%s", v ? (const char *)v : "");
    xmlFree(v);
}

static int is(xmlNodePtr n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && !xmlStrcmp(n->name, BAD_CAST name);
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *s = NULL;
    if (!fseek(f, 0, SEEK_END)) {
        long n = ftell(f);
        if (n >= 0 && n < (64L << 20) && !fseek(f, 0, SEEK_SET) && (s = malloc((size_t)n + 1))) {
            if (fread(s, 1, (size_t)n, f) == (size_t)n)
                s[n] = 0;
            else {
                free(s);
                s = NULL;
            }
        }
    }
    fclose(f);
    return s;
}

/* a path relative to the descriptor's folder */
static void beside(const char *desc, const char *file, char *out, size_t len)
{
    if (file[0] == '/' || !strchr(desc, '/'))
        snprintf(out, len, "%s", file);
    else
        snprintf(out, len, "%.*s/%s", (int)(strrchr(desc, '/') - desc), desc, file);
}

static enum dh_ktype type_of(const char *t)
{
    return !strcmp(t, "float") ? DH_T_F32 : !strcmp(t, "double") ? DH_T_F64
         : !strcmp(t, "int") ? DH_T_I32 : !strcmp(t, "uint") ? DH_T_U32
         : !strcmp(t, "long") ? DH_T_I64 : !strcmp(t, "ushort") ? DH_T_U16 : DH_T_U8;
}

static int validate(xmlDocPtr doc, const char *path, int *version, struct dh_err *err)
{
    char v[16] = "";
    xmlNodePtr root = xmlDocGetRootElement(doc);
    if (root && !xmlStrcmp(root->name, BAD_CAST "divharness-kernel"))
        prop(root, "version", v, sizeof v);
    *version = atoi(v);
    if (*version != 1 && *version != 2)
        return dh_err_set(err, DH_E_DATA, "%s: not a divharness kernel descriptor of version 1 "
                          "or 2 (root <divharness-kernel version=\"2\">; see "
                          "suites/lib/descriptor-2.xsd and tuning/examples/branch_sum.xml)", path);
    const char *xsd = *version == 1 ? dh_xsd_descriptor1 : dh_xsd_descriptor2;
    struct first_error fe = {{0}};
    static xmlSchemaPtr compiled[3];          /* per version, once per process */
    if (!compiled[*version]) {
        xmlSchemaParserCtxtPtr pc = xmlSchemaNewMemParserCtxt(xsd, (int)strlen(xsd));
        compiled[*version] = pc ? xmlSchemaParse(pc) : NULL;
        if (pc)
            xmlSchemaFreeParserCtxt(pc);
    }
    xmlSchemaPtr sc = compiled[*version];
    xmlSchemaValidCtxtPtr vc = sc ? xmlSchemaNewValidCtxt(sc) : NULL;
    int rc = 0;
    if (vc) {
        xmlSchemaSetValidStructuredErrors(vc, (xmlStructuredErrorFunc)on_error, &fe);
        if (xmlSchemaValidateDoc(vc, doc))
            rc = dh_err_set(err, DH_E_DATA, "%s does not match the kernel descriptor schema "
                            "(suites/lib/descriptor-%d.xsd): %s", path, *version, fe.msg);
    } else {
        rc = dh_err_set(err, DH_E_INTERNAL, "the embedded descriptor schema does not parse");
    }
    if (vc)
        xmlSchemaFreeValidCtxt(vc);
    return rc;
}

/* <buffer>: both versions */
static int load_buffer(xmlNodePtr n, int version, const char *path, struct dh_err *err)
{
    int b = uk.n_buf++;
    char t[64];
    struct dh_kbuf *d = &uk.bufs[b];
    prop(n, "name", uk.bname[b], sizeof uk.bname[b]);
    prop(n, "count", uk.bcount[b], sizeof uk.bcount[b]);
    prop(n, "type", t, sizeof t);
    d->name = uk.bname[b];
    d->count = uk.bcount[b];
    d->type = type_of(t);
    prop(n, "role", t, sizeof t);
    d->role = !strcmp(t, "in") ? DH_IN : !strcmp(t, "out") ? DH_OUT : DH_INOUT;
    prop(n, "per_item", t, sizeof t);
    d->flags = !strcmp(t, "true") || !strcmp(t, "1") ? DH_KB_ITEM : 0;
    prop(n, "rotate", t, sizeof t);
    d->flags |= !strcmp(t, "true") || !strcmp(t, "1") ? DH_KB_ROTATE : 0;
    prop(n, "tolerance", t, sizeof t);
    d->tol = t[0] ? atof(t) : -1;             /* -1: <verify>'s */
    prop(n, "init", t, sizeof t);
    uk.init[b].how = !strcmp(t, "index") ? 1 : !strcmp(t, "random") ? 2 : 0;
    prop(n, "min", t, sizeof t);
    uk.init[b].min = t[0] ? atof(t) : 0;
    prop(n, "max", t, sizeof t);
    uk.init[b].max = t[0] ? atof(t) : 1;
    prop(n, "seed", t, sizeof t);
    uk.init[b].seed = t[0] ? (unsigned)strtoul(t, NULL, 10) : 1;
    (void)version;
    uk.kit.n_bufs = uk.n_buf;
    if (dh_kit_buf_index(&uk.kit, d->name) != b || !strcmp(d->name, "perm"))
        return dh_err_set(err, DH_E_DATA, "%s line %d: buffer '%s' is declared twice or uses "
                          "the reserved name perm", path, (int)xmlGetLineNo(n), d->name);
    return 0;
}

static int load_tunable(xmlNodePtr n, const char *path, struct dh_err *err)
{
    int k = uk.n_tun++;
    char vals[700];
    prop(n, "name", uk.tun_name[k], sizeof uk.tun_name[k]);
    prop(n, "values", vals, sizeof vals);
    prop(n, "default", uk.tun_default[k], sizeof uk.tun_default[k]);
    snprintf(uk.tun_domain[k], sizeof uk.tun_domain[k], "int:%s", vals);
    double num;
    char why[256];
    if (dh_domain_check(uk.tun_domain[k], uk.tun_default[k], &num, why, sizeof why))
        return dh_err_set(err, DH_E_DATA, "%s line %d: tunable %s: default %s", path,
                          (int)xmlGetLineNo(n), uk.tun_name[k], why);
    if (!strcmp(uk.tun_name[k], "wg"))
        for (const char *p = vals; *p; p += strspn(p, ","))
            if (strtol(p, (char **)&p, 10) < 1)
                return dh_err_set(err, DH_E_DATA, "%s line %d: tunable wg: every work-group "
                                  "size must be at least 1", path, (int)xmlGetLineNo(n));
    uk.params[k] = (struct dh_param_def){uk.tun_name[k], DH_P_TUNABLE, uk.tun_domain[k],
                                         uk.tun_default[k], NULL, "user tunable", NULL};
    return 0;
}

/* version 1: <kernel entry reference items>, <args><arg .../></args> */
static int load_v1_args(xmlNodePtr n, const char *path, struct dh_err *err)
{
    char *a = uk.eargs[0];
    size_t o = 0;
    for (xmlNodePtr x = n->children; x; x = x->next) {
        if (!is(x, "arg"))
            continue;
        char bname[64], iv[32], fv[32];
        prop(x, "buffer", bname, sizeof bname);
        prop(x, "int", iv, sizeof iv);
        prop(x, "float", fv, sizeof fv);
        if (bname[0] && dh_kit_buf_index(&uk.kit, bname) < 0)
            return dh_err_set(err, DH_E_DATA, "%s line %d: <arg buffer=\"%s\">: no such buffer "
                              "(declare it with <buffer name=...>)", path, (int)xmlGetLineNo(x),
                              bname);
        if (!bname[0] && !iv[0] && !fv[0])
            return dh_err_set(err, DH_E_DATA, "%s line %d: <arg> needs one of buffer=, int= or "
                              "float=", path, (int)xmlGetLineNo(x));
        const char *t = bname[0] ? bname : iv[0] ? iv : fv;
        o += (size_t)snprintf(a + o, sizeof uk.eargs[0] - o, "%s%s%s", o ? " " : "",
                              t[0] == '-' ? "0" : "", t);
        if (fv[0] && !strchr(fv, '.') && o + 2 < sizeof uk.eargs[0])
            o += (size_t)snprintf(a + o, sizeof uk.eargs[0] - o, ".0");
    }
    return 0;
}

/* every name an entry's arguments use must be a buffer or an expression */
static int check_args(const char *args, const char *entry, const char *path, struct dh_err *err)
{
    char tok[1040];
    for (const char *p = args; (p = dh_kit_word(p, tok, sizeof tok, NULL));) {
        if (dh_kit_buf_index(&uk.kit, tok) >= 0 || !strcmp(tok, "perm"))
            continue;
        char *end;
        if (strchr(tok, '.') && (strtod(tok, &end), !*end))
            continue;
        struct dh_pset vars = {0};
        char kv[96];
        for (int s = 0; s < 3; s++)
            for (const char *q = uk.sizes[s]; (q = dh_kit_word(q, kv, sizeof kv, NULL));) {
                char name[32], val[48], why[256];
                if (!dh_param_split(kv, name, sizeof name, val, sizeof val, why, sizeof why))
                    dh_pset_put(&vars, name, val, atof(val), DH_P_WORKLOAD);
            }
        long v;
        char why[256];
        if (dh_expr_eval(tok, &vars, 32, 1024, 1, &v, why, sizeof why))
            return dh_err_set(err, DH_E_DATA, "%s: entry %s: argument \"%s\" is not a declared "
                              "buffer, perm or an integer expression (%s)", path, entry, tok, why);
    }
    return 0;
}

int dh_ukernel_load(const char *path, const char *kernel_override,
                    const struct dh_bench **bench, struct dh_err *err)
{
    struct first_error fe = {{0}};
    xmlSetStructuredErrorFunc(&fe, (xmlStructuredErrorFunc)on_error);
    xmlDocPtr doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
    xmlSetStructuredErrorFunc(NULL, NULL);
    if (!doc) {
        FILE *f = fopen(path, "r");
        int rc = f ? dh_err_set(err, DH_E_DATA, "%s: not well-formed XML (%s)", path, fe.msg)
                   : dh_err_set(err, DH_E_IO, "cannot read descriptor %s: %s", path,
                                strerror(errno));
        if (f)
            fclose(f);
        return rc;
    }
    int version, rc = validate(doc, path, &version, err);
    if (rc) {
        xmlFreeDoc(doc);
        return rc;
    }
    free(uk.source);
    free(uk.fingerprint);
    memset(&uk, 0, sizeof uk);
    snprintf(uk.path, sizeof uk.path, "%s", path);
    uk.kit.bufs = uk.bufs;
    char file[1024] = "", t[1040];
    double tolerance = 0;
    for (xmlNodePtr n = xmlDocGetRootElement(doc)->children; n && !rc; n = n->next) {
        int line = (int)xmlGetLineNo(n);
        if (is(n, "kernel")) {
            prop(n, "name", uk.name, sizeof uk.name);
            prop(n, "file", file, sizeof file);
            prop(n, "items", uk.items, sizeof uk.items);
            if (version == 1) {                /* one entry, the reference on the host */
                snprintf(uk.ev[0], sizeof uk.ev[0], "baseline");
                prop(n, "entry", uk.ename[0], sizeof uk.ename[0]);
                prop(n, "reference", uk.ref_entry, sizeof uk.ref_entry);
                if (!uk.ref_entry[0])
                    snprintf(uk.ref_entry, sizeof uk.ref_entry, "%s", uk.ename[0]);
                uk.n_entry = 1;
            }
        } else if (is(n, "size")) {
            prop(n, "name", t, sizeof t);
            int s = !strcmp(t, "small") ? 0 : !strcmp(t, "medium") ? 1 : 2;
            prop(n, "set", uk.sizes[s], sizeof uk.sizes[s]);
        } else if (is(n, "buffer")) {
            rc = load_buffer(n, version, path, err);
            uk.kit.n_bufs = uk.n_buf;
        } else if (is(n, "args")) {
            rc = load_v1_args(n, path, err);
        } else if (is(n, "entry")) {
            int e = uk.n_entry++;
            prop(n, "variant", uk.ev[e], sizeof uk.ev[e]);
            prop(n, "name", uk.ename[e], sizeof uk.ename[e]);
            prop(n, "args", uk.eargs[e], sizeof uk.eargs[e]);
            for (int f = 0; f < e && !rc; f++)
                if (!strcmp(uk.ev[f], uk.ev[e]))
                    rc = dh_err_set(err, DH_E_DATA, "%s line %d: a second entry for %s", path,
                                    line, uk.ev[e]);
        } else if (is(n, "reference")) {
            prop(n, "entry", uk.ref_entry, sizeof uk.ref_entry);
            prop(n, "args", uk.ref_args, sizeof uk.ref_args);
            prop(n, "on", t, sizeof t);
            uk.ref_mode = !strcmp(t, "device") ? 1 : 0;
            prop(n, "c", t, sizeof t);
            if (t[0]) {
                uk.ref_mode = 2;
                beside(path, t, uk.ref_c, sizeof uk.ref_c);
                prop(n, "function", uk.ref_fn, sizeof uk.ref_fn);
                if (!uk.ref_fn[0])
                    rc = dh_err_set(err, DH_E_DATA, "%s line %d: <reference c=\"%s\"> needs "
                                    "function=\"...\" (void f(void *const *buffers, const long "
                                    "*counts, long items))", path, line, t);
            } else if (!uk.ref_entry[0]) {
                rc = dh_err_set(err, DH_E_DATA, "%s line %d: <reference> needs entry=\"...\" "
                                "(a plain per-item entry of the kernel file) or c=\"file.c\" "
                                "function=\"...\"", path, line);
            }
        } else if (is(n, "branch")) {
            int k = uk.n_br++;
            prop(n, "key", uk.br_key[k], sizeof uk.br_key[k]);
            prop(n, "paths", t, sizeof t);
            uk.br_paths[k] = atoi(t);
            if (uk.br_paths[k] < 1 || uk.br_paths[k] > 4096)
                rc = dh_err_set(err, DH_E_DATA, "%s line %d: <branch paths=\"%s\">: 1 .. 4096",
                                path, line, t);
        } else if (is(n, "tunable")) {
            rc = load_tunable(n, path, err);
        } else if (is(n, "constraint")) {
            prop(n, "expr", uk.constraint[uk.n_con], sizeof uk.constraint[0]);
            struct dh_pset p = {0};
            for (int k = 0; k < uk.n_tun; k++)
                dh_pset_put(&p, uk.tun_name[k], uk.tun_default[k], atof(uk.tun_default[k]),
                            DH_P_TUNABLE);
            long v;
            char why[256];
            if (dh_expr_eval(uk.constraint[uk.n_con], &p, 32, 1024, 1, &v, why, sizeof why))
                rc = dh_err_set(err, DH_E_DATA, "%s line %d: constraint \"%s\": %s", path, line,
                                uk.constraint[uk.n_con], why);
            uk.n_con++;
        } else if (is(n, "verify")) {
            prop(n, "tolerance", t, sizeof t);
            tolerance = atof(t);
        }
    }
    xmlFreeDoc(doc);
    if (rc)
        return rc;
    if (!dh_param_find(uk.params, "wg"))
        return dh_err_set(err, DH_E_DATA, "%s: declare the work-group size as <tunable name=\"wg\" "
                          "values=\"...\" default=\"...\"/>", path);
    /* sizes: one given serves the others */
    int first = !uk.sizes[0][0] ? (!uk.sizes[1][0] ? 2 : 1) : 0;
    for (int s = 0; s < 3; s++) {
        if (!uk.sizes[s][0])
            memcpy(uk.sizes[s], uk.sizes[first], sizeof uk.sizes[s]);
        uk.kit.sizes[s] = uk.sizes[s];
    }
    /* items and every count, at every size: an error now, not per case */
    for (int s = 0; s < 3; s++) {
        static const char *const sz[] = {"small", "medium", "large"};
        struct dh_case c = {.bench = &uk.bench};
        snprintf(c.size, sizeof c.size, "%s", sz[s]);
        uk.bench.kit = &uk.kit;
        uk.kit.items = uk.items;
        struct dh_pset vars;
        long items, count[DH_KIT_MAXBUF];
        char why[512];
        if (dh_kit_dims(&uk.kit, &c, &vars, &items, count, why, sizeof why))
            return dh_err_set(err, DH_E_DATA, "%s (size %s): %s", path, sz[s], why);
    }
    for (int b = 0; b < uk.n_buf; b++) {
        if (uk.bufs[b].tol < 0)
            uk.bufs[b].tol = tolerance;
        if (version == 1)                     /* v1 compared every element by value */
            uk.bufs[b].tol = tolerance > 0 ? tolerance : 0;
    }
    /* entries, their arguments; the variants and the parameters they bring */
    size_t vo = 0;
    for (int e = 0; e < uk.n_entry; e++) {
        if ((rc = check_args(uk.eargs[e], uk.ename[e], path, err)))
            return rc;
        uk.entries[e] = (struct dh_kentry){uk.ev[e], uk.ename[e], uk.eargs[e]};
        char fam[16];
        snprintf(fam, sizeof fam, "%.*s", (int)strcspn(uk.ev[e], "/"), uk.ev[e]);
        if (!strstr(uk.variants, fam))
            vo += (size_t)snprintf(uk.variants + vo, sizeof uk.variants - vo, "%s%s",
                                   vo ? "," : "", fam);
    }
    int has_dlt = 0, has_rr = 0;
    for (int e = 0; e < uk.n_entry; e++) {
        has_dlt |= !strcmp(uk.ev[e], "cpu_tdr");
        has_rr |= !strcmp(uk.ev[e], "cpu_tdr/rr");
    }
    if ((has_dlt || has_rr) && !uk.n_br)
        return dh_err_set(err, DH_E_DATA, "%s: a cpu_tdr entry regroups items by a branch key: "
                          "declare one with <branch key=\"...\" paths=\"...\"/>", path);
    int np = uk.n_tun;
    if (has_dlt || has_rr) {
        uk.params[np++] = (struct dh_param_def){"mech", DH_P_CHOICE,
            has_dlt && has_rr ? "enum:dlt,rr" : has_dlt ? "enum:dlt" : "enum:rr",
            has_dlt ? "dlt" : "rr", "cpu_tdr", "apply the host regrouping by data layout "
            "(dlt: per-item buffers moved) or index array (rr: the perm argument)", NULL};
        uk.params[np++] = (struct dh_param_def){"regroup", DH_P_CHOICE, "enum:key", "key",
            "cpu_tdr", "host regrouping by the first <branch> key", NULL};
    }
    uk.params[np] = (struct dh_param_def){0};
    /* the reference */
    if (!uk.ref_entry[0] && uk.ref_mode != 2)
        return dh_err_set(err, DH_E_DATA, "%s: declare the expected outputs' source: "
                          "<reference entry=\"...\"/> or <reference c=\"ref.c\" "
                          "function=\"...\"/>", path);
    /* the kernel file: next to the descriptor unless given */
    char kpath[2048];
    if (kernel_override)
        snprintf(kpath, sizeof kpath, "%s", kernel_override);
    else
        beside(path, file, kpath, sizeof kpath);
    snprintf(uk.kpath, sizeof uk.kpath, "%s", kpath);
    uk.source = read_text(kpath);
    if (!uk.source)
        return dh_err_set(err, DH_E_IO, "cannot read kernel %s: %s", kpath,
                          errno ? strerror(errno) : "empty or over 64 MiB");
    uk.kit.items = uk.items;
    uk.kit.entries = uk.entries;
    uk.kit.generate = uk_generate;
    uk.kit.reference = uk_reference;
    for (int k = 0; k < uk.n_con; k++) {
        snprintf(uk.con_why[k], sizeof uk.con_why[k], "constraint \"%s\" does not hold",
                 uk.constraint[k]);
        uk.rules[k] = (struct dh_krule){NULL, uk.constraint[k], uk.con_why[k]};
    }
    uk.kit.rules = uk.rules;
    uk.kit.defines = uk_defines;
    if (uk.n_br) {
        uk.kit.generate = uk_generate_keyed;
        uk.kit.free_priv = free;
        uk.kit.branch = uk_branch;
        uk.kit.sort_key = uk_sort_key;
    }
    /* the journal must not replay another descriptor's results: its key
     * covers everything the descriptor and its C reference say */
    char *dtext = read_text(path), *ctext = uk.ref_mode == 2 ? read_text(uk.ref_c) : NULL;
    size_t dl = dtext ? strlen(dtext) : 0, cl = ctext ? strlen(ctext) : 0;
    uk.fingerprint = malloc(dl + cl + 2);
    if (uk.fingerprint) {
        memcpy(uk.fingerprint, dtext ? dtext : "", dl);
        uk.fingerprint[dl] = '\x1f';
        memcpy(uk.fingerprint + dl + 1, ctext ? ctext : "", cl);
        uk.fingerprint[dl + cl + 1] = 0;
    }
    free(dtext);
    free(ctext);
    uk.bench = (struct dh_bench){
        .suite = "user", .name = uk.name, .summary = "a user's kernel (descriptor)",
        .fingerprint = uk.fingerprint, .source_path = uk.kpath,
        .source = uk.source, .params = uk.params, .variants = uk.variants, .sweep = NULL,
        DH_KIT(uk.kit),
    };
    *bench = &uk.bench;
    return 0;
}
