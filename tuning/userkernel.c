/* userkernel.c — a user's kernel from a descriptor, as a benchmark. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlschemas.h>

#include "../results/case.h"
#include "../harness/run/source.h"
#include "userkernel.h"

extern const char dh_xsd_descriptor[];

#define UK_MAXBUF 16
#define UK_MAXARG 32
#define UK_MAXTUN 8

struct uk_buf {
    char name[32];
    int is_float, role;          /* role: 0 in, 1 out, 2 inout */
    long count;
    int init;                    /* 0 zero, 1 index, 2 random */
    double min, max;
    unsigned seed;
};

static struct {
    char name[64], entry[64], reference[64];
    long items;
    char *source;
    struct uk_buf buf[UK_MAXBUF];
    int n_buf;
    struct { int buffer; int kind; int i; float f; } arg[UK_MAXARG];   /* kind 0 buf 1 int 2 float */
    int n_arg;
    char tun_domain[UK_MAXTUN][200], tun_default[UK_MAXTUN][16], tun_name[UK_MAXTUN][32];
    struct dh_param_def params[UK_MAXTUN + 1];
    int n_tun;
    char constraint[16][200];
    int n_con;
    double tolerance;
    struct dh_bench bench;
} uk;

struct uk_state {
    void *host[UK_MAXBUF];
    void *ref[UK_MAXBUF];        /* expected contents of out/inout buffers */
    void *got;
    struct dh_buffer *dev[UK_MAXBUF];
};

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
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s && fread(s, 1, (size_t)n, f) == (size_t)n)
        s[n] = 0;
    else {
        free(s);
        s = NULL;
    }
    fclose(f);
    return s;
}

static int find_buf(const char *name)
{
    for (int i = 0; i < uk.n_buf; i++)
        if (!strcmp(uk.buf[i].name, name))
            return i;
    return -1;
}

static int uk_check(const struct dh_case *c, const struct dh_device_info *dev, char *why,
                    size_t len);
static uint64_t uk_bytes(const struct dh_case *c, int rotate);
static int uk_defines(const struct dh_case *c, const struct dh_device_info *dev, char *buf,
                      size_t len);
static int uk_setup(const struct dh_case *c, void **state, struct dh_err *err);
static int uk_upload(void *st, struct dh_exec *x, struct dh_err *err);
static int uk_run(void *st, struct dh_exec *x, int rep, struct dh_sample *s, struct dh_err *err);
static int uk_poison(void *st, struct dh_exec *x, struct dh_err *err);
static int uk_verify(void *st, struct dh_exec *x, struct dh_verify *v, struct dh_err *err);
static void uk_teardown(void *st, struct dh_exec *x);
static void uk_release(void *st);

int dh_ukernel_load(const char *path, const char *kernel_override,
                    const struct dh_bench **bench, struct dh_err *err)
{
    struct first_error fe = {{0}};
    xmlSetStructuredErrorFunc(&fe, (xmlStructuredErrorFunc)on_error);
    xmlDocPtr doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
    int rc = 0;
    if (!doc) {
        FILE *f = fopen(path, "r");
        rc = f ? dh_err_set(err, DH_E_DATA, "%s: not well-formed XML (%s)", path, fe.msg)
               : dh_err_set(err, DH_E_IO, "cannot read descriptor %s: %s", path, strerror(errno));
        if (f)
            fclose(f);
        xmlSetStructuredErrorFunc(NULL, NULL);
        return rc;
    }
    xmlSchemaParserCtxtPtr pc = xmlSchemaNewMemParserCtxt(dh_xsd_descriptor,
                                                          (int)strlen(dh_xsd_descriptor));
    xmlSchemaPtr sc = pc ? xmlSchemaParse(pc) : NULL;
    xmlSchemaValidCtxtPtr vc = sc ? xmlSchemaNewValidCtxt(sc) : NULL;
    if (vc) {
        xmlSchemaSetValidStructuredErrors(vc, (xmlStructuredErrorFunc)on_error, &fe);
        if (xmlSchemaValidateDoc(vc, doc))
            rc = dh_err_set(err, DH_E_DATA, "%s does not match the kernel descriptor schema "
                            "(tuning/descriptor-1.xsd): %s", path, fe.msg);
    } else {
        rc = dh_err_set(err, DH_E_INTERNAL, "the embedded descriptor schema does not parse");
    }
    if (vc) xmlSchemaFreeValidCtxt(vc);
    if (sc) xmlSchemaFree(sc);
    if (pc) xmlSchemaFreeParserCtxt(pc);
    xmlSetStructuredErrorFunc(NULL, NULL);
    if (rc) {
        xmlFreeDoc(doc);
        return rc;
    }
    memset(&uk, 0, sizeof uk);
    char file[1024] = "", t[256];
    for (xmlNodePtr n = xmlDocGetRootElement(doc)->children; n && !rc; n = n->next) {
        int line = (int)xmlGetLineNo(n);
        if (is(n, "kernel")) {
            prop(n, "name", uk.name, sizeof uk.name);
            prop(n, "file", file, sizeof file);
            prop(n, "entry", uk.entry, sizeof uk.entry);
            prop(n, "reference", uk.reference, sizeof uk.reference);
            prop(n, "items", t, sizeof t);
            uk.items = atol(t);
        } else if (is(n, "buffer")) {
            struct uk_buf *b = &uk.buf[uk.n_buf++];
            prop(n, "name", b->name, sizeof b->name);
            prop(n, "type", t, sizeof t);
            b->is_float = !strcmp(t, "float");
            prop(n, "count", t, sizeof t);
            b->count = atol(t);
            prop(n, "role", t, sizeof t);
            b->role = !strcmp(t, "in") ? 0 : !strcmp(t, "out") ? 1 : 2;
            prop(n, "init", t, sizeof t);
            b->init = !strcmp(t, "index") ? 1 : !strcmp(t, "random") ? 2 : 0;
            prop(n, "min", t, sizeof t);
            b->min = t[0] ? atof(t) : 0;
            prop(n, "max", t, sizeof t);
            b->max = t[0] ? atof(t) : 1;
            prop(n, "seed", t, sizeof t);
            b->seed = t[0] ? (unsigned)atol(t) : 1;
            if (find_buf(b->name) != uk.n_buf - 1)
                rc = dh_err_set(err, DH_E_DATA, "%s line %d: buffer '%s' is declared twice",
                                path, line, b->name);
        } else if (is(n, "args")) {
            for (xmlNodePtr a = n->children; a && !rc; a = a->next) {
                if (!is(a, "arg"))
                    continue;
                int k = uk.n_arg++;
                char bname[64], iv[32], fv[32];
                prop(a, "buffer", bname, sizeof bname);
                prop(a, "int", iv, sizeof iv);
                prop(a, "float", fv, sizeof fv);
                if (bname[0]) {
                    uk.arg[k].kind = 0;
                    uk.arg[k].buffer = find_buf(bname);
                    if (uk.arg[k].buffer < 0)
                        rc = dh_err_set(err, DH_E_DATA, "%s line %d: <arg buffer=\"%s\">: no such "
                                        "buffer (declare it with <buffer name=...>)", path,
                                        (int)xmlGetLineNo(a), bname);
                } else if (iv[0]) {
                    uk.arg[k].kind = 1;
                    uk.arg[k].i = atoi(iv);
                } else if (fv[0]) {
                    uk.arg[k].kind = 2;
                    uk.arg[k].f = (float)atof(fv);
                } else {
                    rc = dh_err_set(err, DH_E_DATA, "%s line %d: <arg> needs one of buffer=, "
                                    "int= or float=", path, (int)xmlGetLineNo(a));
                }
            }
        } else if (is(n, "tunable")) {
            int k = uk.n_tun++;
            char vals[180];
            prop(n, "name", uk.tun_name[k], sizeof uk.tun_name[k]);
            prop(n, "values", vals, sizeof vals);
            prop(n, "default", uk.tun_default[k], sizeof uk.tun_default[k]);
            snprintf(uk.tun_domain[k], sizeof uk.tun_domain[k], "int:%s", vals);
            double num;
            char why[256];
            if (dh_domain_check(uk.tun_domain[k], uk.tun_default[k], &num, why, sizeof why))
                rc = dh_err_set(err, DH_E_DATA, "%s line %d: tunable %s: default %s", path, line,
                                uk.tun_name[k], why);
            uk.params[k] = (struct dh_param_def){uk.tun_name[k], DH_P_TUNABLE, uk.tun_domain[k],
                                                 uk.tun_default[k], NULL, "user tunable", NULL};
        } else if (is(n, "constraint")) {
            prop(n, "expr", uk.constraint[uk.n_con], sizeof uk.constraint[0]);
            struct dh_pset p = {0};
            for (int k = 0; k < uk.n_tun; k++)
                dh_pset_put(&p, uk.tun_name[k], uk.tun_default[k], atof(uk.tun_default[k]),
                            DH_P_TUNABLE);
            long v;
            char why[256];
            if (dh_expr_eval(uk.constraint[uk.n_con], &p, 32, 1024, (double)uk.items, &v, why,
                             sizeof why))
                rc = dh_err_set(err, DH_E_DATA, "%s line %d: constraint \"%s\": %s", path, line,
                                uk.constraint[uk.n_con], why);
            uk.n_con++;
        } else if (is(n, "verify")) {
            prop(n, "tolerance", t, sizeof t);
            uk.tolerance = atof(t);
        }
    }
    xmlFreeDoc(doc);
    if (rc)
        return rc;
    if (!dh_param_find(uk.params, "wg"))
        return dh_err_set(err, DH_E_DATA, "%s: declare the work-group size as <tunable name=\"wg\" "
                          "values=\"...\" default=\"...\"/>", path);
    /* the kernel file: next to the descriptor unless given */
    char kpath[2048];
    if (kernel_override)
        snprintf(kpath, sizeof kpath, "%s", kernel_override);
    else if (file[0] == '/' || !strchr(path, '/'))
        snprintf(kpath, sizeof kpath, "%s", file);
    else
        snprintf(kpath, sizeof kpath, "%.*s/%s", (int)(strrchr(path, '/') - path), path, file);
    uk.source = read_text(kpath);
    if (!uk.source)
        return dh_err_set(err, DH_E_IO, "cannot read kernel %s: %s", kpath, strerror(errno));
    uk.bench = (struct dh_bench){
        .suite = "user", .name = uk.name, .summary = "a user's kernel (harness tune)",
        .source = uk.source, .params = uk.params, .variants = "baseline", .sweep = NULL,
        .check = uk_check, .device_bytes = uk_bytes, .defines = uk_defines, .setup = uk_setup,
        .upload = uk_upload, .run = uk_run, .poison = uk_poison, .verify = uk_verify,
        .teardown = uk_teardown, .release = uk_release,
    };
    *bench = &uk.bench;
    return 0;
}

/* ---- the benchmark ---- */
static int uk_check(const struct dh_case *c, const struct dh_device_info *dev, char *why,
                    size_t len)
{
    long wg = (long)dh_pset_num(&c->params, "wg", 256), v;
    if (uk.items % wg) {
        snprintf(why, len, "wg=%ld does not divide items=%ld", wg, uk.items);
        return -DH_E_CONSTRAINT;
    }
    for (int k = 0; k < uk.n_con; k++) {
        char w[256];
        if (dh_expr_eval(uk.constraint[k], &c->params, dev ? dev->warp_width : 32,
                         dev ? dev->max_wg : 1024, (double)uk.items, &v, w, sizeof w) || !v) {
            snprintf(why, len, "constraint \"%s\" does not hold", uk.constraint[k]);
            return -DH_E_CONSTRAINT;
        }
    }
    return 0;
}

static uint64_t uk_bytes(const struct dh_case *c, int rotate)
{
    (void)c;
    (void)rotate;
    uint64_t b = 0;
    for (int i = 0; i < uk.n_buf; i++)
        b += (uint64_t)uk.buf[i].count * 4;
    return b;
}

static int defs_for(const struct dh_pset *p, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = 0;
    for (int k = 0; k < uk.n_tun; k++) {
        if (!strcmp(uk.tun_name[k], "wg"))
            continue;                        /* the harness defines DH_WG */
        o += (size_t)snprintf(buf + o, len - o, "%s-D %s=%s", o ? " " : "", uk.tun_name[k],
                              dh_pset_text(p, uk.tun_name[k], uk.tun_default[k]));
        if (o >= len)
            return -DH_E_INTERNAL;
    }
    return 0;
}

static int uk_defines(const struct dh_case *c, const struct dh_device_info *dev, char *buf,
                      size_t len)
{
    (void)dev;
    return defs_for(&c->params, buf, len);
}

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void fill(const struct uk_buf *b, void *p)
{
    uint64_t st = b->seed * 0x2545f4914f6cdd1dULL;
    for (long i = 0; i < b->count; i++) {
        double u = (double)(mix(&st) >> 11) / 9007199254740992.0;
        double v = b->init == 1 ? (double)i : b->init == 2 ? b->min + u * (b->max - b->min) : 0;
        if (b->is_float)
            ((float *)p)[i] = (float)v;
        else
            ((int *)p)[i] = (int)floor(v);
    }
}

static int launch_entry(const struct dh_backend_ops *be, struct dh_program *prog,
                        struct dh_buffer **dev, const char *entry, int wg, struct dh_exec *x,
                        double *ms, struct dh_err *err)
{
    struct dh_arg args[UK_MAXARG];
    for (int k = 0; k < uk.n_arg; k++) {
        if (uk.arg[k].kind == 0) {
            args[k].kind = DH_ARG_BUFFER;
            args[k].v.buf = dev[uk.arg[k].buffer];
        } else if (uk.arg[k].kind == 1) {
            args[k].kind = DH_ARG_I32;
            args[k].v.i32 = uk.arg[k].i;
        } else {
            args[k].kind = DH_ARG_F32;
            args[k].v.f32 = uk.arg[k].f;
        }
    }
    struct dh_launch l = {.kernel = entry, .global = (size_t)uk.items, .local = (size_t)wg,
                          .n_args = uk.n_arg, .args = args};
    return x ? dh_exec_launch(x, &l, ms, err) : be->launch(prog, &l, ms, err);
}

/* The expected outputs: the reference entry (or the entry at its
 * defaults) on the CPU device, in this process. */
static int reference(struct uk_state *s, const struct dh_case *c, struct dh_err *err)
{
    const struct dh_backend_ops *be = dh_backend_find("opencl");
    int n = 0, idx = -1, rc;
    struct dh_device_info info;
    if (!be || be->probe(&n, NULL, 0, err))
        return dh_err_set(err, DH_E_UNAVAILABLE, "the reference runs on the CPU device, and "
                          "OpenCL is not available");
    for (int i = 0; i < n && idx < 0; i++)
        if (!be->describe(i, &info, err) && !strcmp(info.kind, "cpu"))
            idx = i;
    if (idx < 0)
        return dh_err_set(err, DH_E_UNAVAILABLE, "no CPU device for the reference run: install "
                          "pocl-opencl-icd");
    struct dh_device *dev = NULL;
    struct dh_program *prog = NULL;
    struct dh_buffer *bufs[UK_MAXBUF] = {0};
    if ((rc = be->open(idx, &dev, err)))
        return rc;
    char *src = dh_source_assemble(c), opts[2048], defs[1500];
    struct dh_pset def = {0};
    int wg = atoi(dh_param_find(uk.params, "wg")->def);
    defs_for(&def, defs, sizeof defs);
    snprintf(opts, sizeof opts, "-D DH_WG=%d -D DH_WAVE=%d %s", wg, info.warp_width, defs);
    char *log = NULL;
    rc = src ? be->build(dev, src, opts, &prog, &log, NULL, err)
             : dh_err_set(err, DH_E_RESOURCES, "out of memory");
    if (rc && log)
        fprintf(stderr, "%s\n", log);
    free(log);
    free(src);
    for (int i = 0; !rc && i < uk.n_buf; i++) {
        rc = be->alloc(dev, (size_t)uk.buf[i].count * 4, &bufs[i], err);
        if (!rc)
            rc = be->copy(bufs[i], s->host[i], (size_t)uk.buf[i].count * 4, DH_TO_DEVICE, err);
    }
    if (!rc)
        rc = launch_entry(be, prog, bufs, uk.reference[0] ? uk.reference : uk.entry, wg, NULL,
                          NULL, err);
    for (int i = 0; !rc && i < uk.n_buf; i++)
        if (uk.buf[i].role)
            rc = be->copy(bufs[i], s->ref[i], (size_t)uk.buf[i].count * 4, DH_TO_HOST, err);
    for (int i = 0; i < uk.n_buf; i++)
        if (bufs[i])
            be->free_buffer(bufs[i]);
    if (prog)
        be->free_program(prog);
    be->close(dev);
    return rc;
}

static int uk_setup(const struct dh_case *c, void **state, struct dh_err *err)
{
    struct uk_state *s = calloc(1, sizeof *s);
    if (!s)
        return dh_err_set(err, DH_E_RESOURCES, "out of memory");
    long most = 0;
    for (int i = 0; i < uk.n_buf; i++) {
        s->host[i] = malloc((size_t)uk.buf[i].count * 4);
        s->ref[i] = uk.buf[i].role ? malloc((size_t)uk.buf[i].count * 4) : NULL;
        if (!s->host[i] || (uk.buf[i].role && !s->ref[i])) {
            uk_release(s);
            return dh_err_set(err, DH_E_RESOURCES, "out of memory for buffer %s", uk.buf[i].name);
        }
        fill(&uk.buf[i], s->host[i]);
        if (uk.buf[i].count > most)
            most = uk.buf[i].count;
    }
    s->got = malloc((size_t)most * 4);
    int rc = s->got ? reference(s, c, err) : dh_err_set(err, DH_E_RESOURCES, "out of memory");
    if (rc) {
        uk_release(s);
        return rc;
    }
    *state = s;
    return 0;
}

static int uk_upload(void *st, struct dh_exec *x, struct dh_err *err)
{
    struct uk_state *s = st;
    for (int i = 0; i < uk.n_buf; i++) {
        int rc = x->be->alloc(x->dev, (size_t)uk.buf[i].count * 4, &s->dev[i], err);
        if (!rc)
            rc = x->be->copy(s->dev[i], s->host[i], (size_t)uk.buf[i].count * 4, DH_TO_DEVICE, err);
        if (rc)
            return rc;
    }
    return 0;
}

static int uk_run(void *st, struct dh_exec *x, int rep, struct dh_sample *smp, struct dh_err *err)
{
    struct uk_state *s = st;
    (void)rep;
    memset(smp, 0, sizeof *smp);
    /* inout buffers start from their initial contents every run */
    for (int i = 0; i < uk.n_buf; i++)
        if (uk.buf[i].role == 2) {
            int rc = x->be->copy(s->dev[i], s->host[i], (size_t)uk.buf[i].count * 4,
                                 DH_TO_DEVICE, err);
            if (rc)
                return rc;
        }
    return launch_entry(x->be, x->prog, s->dev, uk.entry,
                        (int)dh_pset_num(&x->c->params, "wg", 256), x, &smp->kernel_ms, err);
}

static int uk_poison(void *st, struct dh_exec *x, struct dh_err *err)
{
    struct uk_state *s = st;
    for (int i = 0; i < uk.n_buf; i++) {
        if (uk.buf[i].role != 1)
            continue;
        memset(s->got, 0xff, (size_t)uk.buf[i].count * 4);     /* NaN / -1 */
        int rc = x->be->copy(s->dev[i], s->got, (size_t)uk.buf[i].count * 4, DH_TO_DEVICE, err);
        if (rc)
            return rc;
    }
    return 0;
}

static int uk_verify(void *st, struct dh_exec *x, struct dh_verify *v, struct dh_err *err)
{
    struct uk_state *s = st;
    memset(v, 0, sizeof *v);
    for (int i = 0; i < uk.n_buf; i++) {
        const struct uk_buf *b = &uk.buf[i];
        if (!b->role)
            continue;
        int rc = x->be->copy(s->dev[i], s->got, (size_t)b->count * 4, DH_TO_HOST, err);
        if (rc)
            return rc;
        for (long k = 0; k < b->count; k++) {
            double g = b->is_float ? ((float *)s->got)[k] : ((int *)s->got)[k];
            double w = b->is_float ? ((float *)s->ref[i])[k] : ((int *)s->ref[i])[k];
            dh_verify_add(v, k, g, w, !(fabs(g - w) <= uk.tolerance * fmax(1.0, fabs(w))));
        }
    }
    return 0;
}

static void uk_teardown(void *st, struct dh_exec *x)
{
    struct uk_state *s = st;
    for (int i = 0; i < uk.n_buf; i++) {
        if (s->dev[i] && x)
            x->be->free_buffer(s->dev[i]);
        s->dev[i] = NULL;
    }
}

static void uk_release(void *st)
{
    struct uk_state *s = st;
    if (!s)
        return;
    for (int i = 0; i < UK_MAXBUF; i++) {
        free(s->host[i]);
        free(s->ref[i]);
    }
    free(s->got);
    free(s);
}
