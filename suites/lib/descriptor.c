/* descriptor.c — a user's kernel from a descriptor, as a declared
 * benchmark (descriptor.h): reading and checking the descriptor;
 * descriptor_hooks.c runs what it declares. */
#include "descriptor.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlschemas.h>

#include "descriptor_uk.h"
#include "../../harness/support/fs.h"

extern const char dh_xsd_descriptor1[], dh_xsd_descriptor2[];

struct uk_decl dh_uk;

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

/* why (may be NULL) gets the reason when NULL is returned for a file
 * that is not a readable regular file of at most DH_DATA_MAX_TEXT */
static char *read_text_why(const char *path, char *why, size_t why_len)
{
    char w[4400];
    FILE *f = dh_fopen_data(path, DH_DATA_MAX_TEXT, why ? why : w, why ? why_len : sizeof w);
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
    int b = dh_uk.n_buf++;
    char t[64];
    struct dh_kbuf *d = &dh_uk.bufs[b];
    prop(n, "name", dh_uk.bname[b], sizeof dh_uk.bname[b]);
    prop(n, "count", dh_uk.bcount[b], sizeof dh_uk.bcount[b]);
    prop(n, "type", t, sizeof t);
    d->name = dh_uk.bname[b];
    d->count = dh_uk.bcount[b];
    d->type = type_of(t);
    prop(n, "role", t, sizeof t);
    d->role = !strcmp(t, "in") ? DH_IN : !strcmp(t, "out") ? DH_OUT : DH_INOUT;
    prop(n, "per_item", t, sizeof t);
    d->flags = !strcmp(t, "true") || !strcmp(t, "1") ? DH_KB_ITEM : 0;
    prop(n, "rotate", t, sizeof t);
    d->flags |= !strcmp(t, "true") || !strcmp(t, "1") ? DH_KB_ROTATE : 0;
    prop(n, "tolerance", t, sizeof t);
    d->tol = -1;                              /* -1: <verify>'s */
    if (t[0]) {
        char *end;
        d->tol = strtod(t, &end);
        if (end == t || *end || !(d->tol >= 0) || !isfinite(d->tol))
            return dh_err_set(err, DH_E_DATA, "%s line %d: buffer '%s': tolerance \"%s\": a "
                              "finite number, 0 or more (0: exact)", path, (int)xmlGetLineNo(n),
                              dh_uk.bname[b], t);
    }
    prop(n, "init", t, sizeof t);
    dh_uk.init[b].how = !strcmp(t, "index") ? 1 : !strcmp(t, "random") ? 2 : 0;
    prop(n, "min", t, sizeof t);
    dh_uk.init[b].min = t[0] ? atof(t) : 0;
    prop(n, "max", t, sizeof t);
    dh_uk.init[b].max = t[0] ? atof(t) : 1;
    prop(n, "seed", t, sizeof t);
    {
        char *end;
        errno = 0;
        unsigned long long sv = t[0] ? strtoull(t, &end, 10) : 1;
        if (t[0] && (end == t || *end || t[0] == '-' || errno || sv > 0xffffffffULL))
            return dh_err_set(err, DH_E_DATA, "%s line %d: buffer '%s': seed \"%s\" is not an "
                              "integer in 0..4294967295", path, (int)xmlGetLineNo(n),
                              dh_uk.bname[b], t);
        dh_uk.init[b].seed = (unsigned)sv;
    }
    (void)version;
    dh_uk.kit.n_bufs = dh_uk.n_buf;
    if (dh_kit_buf_index(&dh_uk.kit, d->name) != b || !strcmp(d->name, "perm"))
        return dh_err_set(err, DH_E_DATA, "%s line %d: buffer '%s' is declared twice or uses "
                          "the reserved name perm", path, (int)xmlGetLineNo(n), d->name);
    return 0;
}

static int load_tunable(xmlNodePtr n, const char *path, struct dh_err *err)
{
    int k = dh_uk.n_tun++;
    char vals[700];
    prop(n, "name", dh_uk.tun_name[k], sizeof dh_uk.tun_name[k]);
    prop(n, "values", vals, sizeof vals);
    prop(n, "default", dh_uk.tun_default[k], sizeof dh_uk.tun_default[k]);
    for (int j = 0; j < k; j++)             /* the second would win silently */
        if (!strcmp(dh_uk.tun_name[j], dh_uk.tun_name[k]))
            return dh_err_set(err, DH_E_DATA, "%s line %d: a second <tunable name=\"%s\">: "
                              "give each tunable once, with all its values", path,
                              (int)xmlGetLineNo(n), dh_uk.tun_name[k]);
    snprintf(dh_uk.tun_domain[k], sizeof dh_uk.tun_domain[k], "int:%s", vals);
    double num;
    char why[256];
    if (dh_domain_check(dh_uk.tun_domain[k], dh_uk.tun_default[k], &num, why, sizeof why))
        return dh_err_set(err, DH_E_DATA, "%s line %d: tunable %s: default %s", path,
                          (int)xmlGetLineNo(n), dh_uk.tun_name[k], why);
    static const char *const knobs[] = DH_CODEGEN_KNOB_NAMES;
    for (size_t q = 0; q < sizeof knobs / sizeof *knobs; q++)
        if (!strcmp(dh_uk.tun_name[k], knobs[q]))
            return dh_err_set(err, DH_E_DATA, "%s line %d: <tunable name=\"%s\">: every "
                              "kernel has this code-generation knob already: remove the "
                              "tunable; `harness list` shows its values", path,
                              (int)xmlGetLineNo(n), knobs[q]);
    if (!strcmp(dh_uk.tun_name[k], "wg"))
        for (const char *p = vals; *p; p += strspn(p, ","))
            if (strtol(p, (char **)&p, 10) < 1)
                return dh_err_set(err, DH_E_DATA, "%s line %d: tunable wg: every work-group "
                                  "size must be at least 1", path, (int)xmlGetLineNo(n));
    dh_uk.params[k] = (struct dh_param_def){dh_uk.tun_name[k], DH_P_TUNABLE, dh_uk.tun_domain[k],
                                         dh_uk.tun_default[k], NULL, "user tunable", NULL};
    return 0;
}

/* version 1: <kernel entry reference items>, <args><arg .../></args> */
static int load_v1_args(xmlNodePtr n, const char *path, struct dh_err *err)
{
    char *a = dh_uk.eargs[0];
    size_t o = 0;
    for (xmlNodePtr x = n->children; x; x = x->next) {
        if (!is(x, "arg"))
            continue;
        char bname[64], iv[32], fv[32];
        prop(x, "buffer", bname, sizeof bname);
        prop(x, "int", iv, sizeof iv);
        prop(x, "float", fv, sizeof fv);
        if (bname[0] && dh_kit_buf_index(&dh_uk.kit, bname) < 0)
            return dh_err_set(err, DH_E_DATA, "%s line %d: <arg buffer=\"%s\">: no such buffer "
                              "(declare it with <buffer name=...>)", path, (int)xmlGetLineNo(x),
                              bname);
        if (!bname[0] && !iv[0] && !fv[0])
            return dh_err_set(err, DH_E_DATA, "%s line %d: <arg> needs one of buffer=, int= or "
                              "float=", path, (int)xmlGetLineNo(x));
        const char *t = bname[0] ? bname : iv[0] ? iv : fv;
        o += (size_t)snprintf(a + o, sizeof dh_uk.eargs[0] - o, "%s%s%s", o ? " " : "",
                              t[0] == '-' ? "0" : "", t);
        if (fv[0] && !strchr(fv, '.') && o + 2 < sizeof dh_uk.eargs[0])
            o += (size_t)snprintf(a + o, sizeof dh_uk.eargs[0] - o, ".0");
    }
    return 0;
}

/* every name an entry's arguments use must be a buffer or an expression */
static int check_args(const char *args, const char *entry, const char *path, struct dh_err *err)
{
    char tok[1040];
    for (const char *p = args; (p = dh_kit_word(p, tok, sizeof tok, NULL));) {
        if (dh_kit_buf_index(&dh_uk.kit, tok) >= 0 || !strcmp(tok, "perm"))
            continue;
        char *end;
        if (strchr(tok, '.') && (strtod(tok, &end), !*end))
            continue;
        struct dh_pset vars = {0};
        char kv[96];
        for (int s = 0; s < 3; s++)
            for (const char *q = dh_uk.sizes[s]; (q = dh_kit_word(q, kv, sizeof kv, NULL));) {
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
    /* a regular file of bounded size (a FIFO would block the read, deaf
     * to Ctrl-C): checked before the parser opens it */
    char dwhy[4400];
    int dfd = dh_open_data(path, DH_DATA_MAX_TEXT, dwhy, sizeof dwhy);
    if (dfd < 0)
        return dh_err_set(err, DH_E_IO, "cannot read descriptor: %s", dwhy);
    close(dfd);
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
    free(dh_uk.source);
    free(dh_uk.fingerprint);
    memset(&dh_uk, 0, sizeof dh_uk);
    snprintf(dh_uk.path, sizeof dh_uk.path, "%s", path);
    dh_uk.kit.bufs = dh_uk.bufs;
    char file[1024] = "", t[1040];
    double tolerance = 0;
    for (xmlNodePtr n = xmlDocGetRootElement(doc)->children; n && !rc; n = n->next) {
        int line = (int)xmlGetLineNo(n);
        if (is(n, "kernel")) {
            prop(n, "name", dh_uk.name, sizeof dh_uk.name);
            prop(n, "file", file, sizeof file);
            prop(n, "items", dh_uk.items, sizeof dh_uk.items);
            prop(n, "remaps", dh_uk.remaps, sizeof dh_uk.remaps);
            if (version == 1) {                /* one entry, the reference on the host */
                snprintf(dh_uk.ev[0], sizeof dh_uk.ev[0], "baseline");
                prop(n, "entry", dh_uk.ename[0], sizeof dh_uk.ename[0]);
                prop(n, "reference", dh_uk.ref_entry, sizeof dh_uk.ref_entry);
                if (!dh_uk.ref_entry[0])
                    snprintf(dh_uk.ref_entry, sizeof dh_uk.ref_entry, "%s", dh_uk.ename[0]);
                dh_uk.n_entry = 1;
            }
        } else if (is(n, "size")) {
            prop(n, "name", t, sizeof t);
            int s = !strcmp(t, "small") ? 0 : !strcmp(t, "medium") ? 1 : 2;
            prop(n, "set", dh_uk.sizes[s], sizeof dh_uk.sizes[s]);
        } else if (is(n, "buffer")) {
            rc = load_buffer(n, version, path, err);
            dh_uk.kit.n_bufs = dh_uk.n_buf;
        } else if (is(n, "args")) {
            rc = load_v1_args(n, path, err);
        } else if (is(n, "entry")) {
            int e = dh_uk.n_entry++;
            prop(n, "variant", dh_uk.ev[e], sizeof dh_uk.ev[e]);
            prop(n, "name", dh_uk.ename[e], sizeof dh_uk.ename[e]);
            prop(n, "args", dh_uk.eargs[e], sizeof dh_uk.eargs[e]);
            for (int f = 0; f < e && !rc; f++)
                if (!strcmp(dh_uk.ev[f], dh_uk.ev[e]))
                    rc = dh_err_set(err, DH_E_DATA, "%s line %d: a second entry for %s", path,
                                    line, dh_uk.ev[e]);
        } else if (is(n, "reference")) {
            prop(n, "entry", dh_uk.ref_entry, sizeof dh_uk.ref_entry);
            prop(n, "args", dh_uk.ref_args, sizeof dh_uk.ref_args);
            prop(n, "on", t, sizeof t);
            dh_uk.ref_mode = !strcmp(t, "device") ? 1 : 0;
            prop(n, "c", t, sizeof t);
            if (t[0]) {
                dh_uk.ref_mode = 2;
                beside(path, t, dh_uk.ref_c, sizeof dh_uk.ref_c);
                prop(n, "function", dh_uk.ref_fn, sizeof dh_uk.ref_fn);
                if (!dh_uk.ref_fn[0])
                    rc = dh_err_set(err, DH_E_DATA, "%s line %d: <reference c=\"%s\"> needs "
                                    "function=\"...\" (void f(void *const *buffers, const long "
                                    "*counts, long items))", path, line, t);
            } else if (!dh_uk.ref_entry[0]) {
                rc = dh_err_set(err, DH_E_DATA, "%s line %d: <reference> needs entry=\"...\" "
                                "(a plain per-item entry of the kernel file) or c=\"file.c\" "
                                "function=\"...\"", path, line);
            }
        } else if (is(n, "branch")) {
            int k = dh_uk.n_br++;
            prop(n, "key", dh_uk.br_key[k], sizeof dh_uk.br_key[k]);
            prop(n, "paths", t, sizeof t);
            dh_uk.br_paths[k] = atoi(t);
            if (dh_uk.br_paths[k] < 1 || dh_uk.br_paths[k] > 4096)
                rc = dh_err_set(err, DH_E_DATA, "%s line %d: <branch paths=\"%s\">: 1 .. 4096",
                                path, line, t);
        } else if (is(n, "tunable")) {
            rc = load_tunable(n, path, err);
        } else if (is(n, "constraint")) {
            prop(n, "expr", dh_uk.constraint[dh_uk.n_con], sizeof dh_uk.constraint[0]);
            struct dh_pset p = {0};
            for (int k = 0; k < dh_uk.n_tun; k++)
                dh_pset_put(&p, dh_uk.tun_name[k], dh_uk.tun_default[k], atof(dh_uk.tun_default[k]),
                            DH_P_TUNABLE);
            long v;
            char why[256];
            if (dh_expr_eval(dh_uk.constraint[dh_uk.n_con], &p, 32, 1024, 1, &v, why, sizeof why))
                rc = dh_err_set(err, DH_E_DATA, "%s line %d: constraint \"%s\": %s", path, line,
                                dh_uk.constraint[dh_uk.n_con], why);
            dh_uk.n_con++;
        } else if (is(n, "verify")) {
            prop(n, "tolerance", t, sizeof t);
            char *end;
            tolerance = strtod(t, &end);
            /* a negative tolerance meant "exact" without a word: refused */
            if (t[0] && (end == t || *end || !(tolerance >= 0) || !isfinite(tolerance)))
                rc = dh_err_set(err, DH_E_DATA, "%s line %d: <verify tolerance=\"%s\">: a "
                                "finite number, 0 or more (0: exact)", path, line, t);
        }
    }
    xmlFreeDoc(doc);
    if (rc)
        return rc;
    if (!dh_param_find(dh_uk.params, "wg"))
        return dh_err_set(err, DH_E_DATA, "%s: declare the work-group size as <tunable name=\"wg\" "
                          "values=\"...\" default=\"...\"/>", path);
    /* sizes: one given serves the others */
    int first = !dh_uk.sizes[0][0] ? (!dh_uk.sizes[1][0] ? 2 : 1) : 0;
    for (int s = 0; s < 3; s++) {
        if (!dh_uk.sizes[s][0])
            memcpy(dh_uk.sizes[s], dh_uk.sizes[first], sizeof dh_uk.sizes[s]);
        dh_uk.kit.sizes[s] = dh_uk.sizes[s];
    }
    /* items and every count, at every size: an error now, not per case */
    for (int s = 0; s < 3; s++) {
        static const char *const sz[] = {"small", "medium", "large"};
        struct dh_case c = {.bench = &dh_uk.bench};
        snprintf(c.size, sizeof c.size, "%s", sz[s]);
        dh_uk.bench.kit = &dh_uk.kit;
        dh_uk.kit.items = dh_uk.items;
        struct dh_pset vars;
        long items, count[DH_KIT_MAXBUF];
        char why[512];
        if (dh_kit_dims(&dh_uk.kit, &c, &vars, &items, count, why, sizeof why))
            return dh_err_set(err, DH_E_DATA, "%s (size %s): %s", path, sz[s], why);
    }
    for (int b = 0; b < dh_uk.n_buf; b++) {
        if (dh_uk.bufs[b].tol < 0)
            dh_uk.bufs[b].tol = tolerance;
        if (version == 1)                     /* v1 compared every element by value */
            dh_uk.bufs[b].tol = tolerance > 0 ? tolerance : 0;
    }
    /* entries, their arguments; the variants and the parameters they bring */
    size_t vo = 0;
    for (int e = 0; e < dh_uk.n_entry; e++) {
        if ((rc = check_args(dh_uk.eargs[e], dh_uk.ename[e], path, err)))
            return rc;
        dh_uk.entries[e] = (struct dh_kentry){dh_uk.ev[e], dh_uk.ename[e], dh_uk.eargs[e]};
        char fam[16];
        snprintf(fam, sizeof fam, "%.*s", (int)strcspn(dh_uk.ev[e], "/"), dh_uk.ev[e]);
        if (!strstr(dh_uk.variants, fam))
            vo += (size_t)snprintf(dh_uk.variants + vo, sizeof dh_uk.variants - vo, "%s%s",
                                   vo ? "," : "", fam);
    }
    int has_dlt = 0, has_rr = 0;
    for (int e = 0; e < dh_uk.n_entry; e++) {
        has_dlt |= !strcmp(dh_uk.ev[e], "cpu_tdr");
        has_rr |= !strcmp(dh_uk.ev[e], "cpu_tdr/rr");
    }
    if ((has_dlt || has_rr) && !dh_uk.n_br)
        return dh_err_set(err, DH_E_DATA, "%s: a cpu_tdr entry regroups items by a branch key: "
                          "declare one with <branch key=\"...\" paths=\"...\"/>", path);
    int np = dh_uk.n_tun;
    if (has_dlt || has_rr) {
        dh_uk.params[np++] = (struct dh_param_def){"mech", DH_P_CHOICE,
            has_dlt && has_rr ? "enum:dlt,rr" : has_dlt ? "enum:dlt" : "enum:rr",
            has_dlt ? "dlt" : "rr", "cpu_tdr", "apply the host regrouping by data layout "
            "(dlt: per-item buffers moved) or index array (rr: the perm argument)", NULL};
        dh_uk.params[np++] = (struct dh_param_def){"regroup", DH_P_CHOICE, "enum:key", "key",
            "cpu_tdr", "host regrouping by the first <branch> key", NULL};
    }
    /* the code-generation knobs every benchmark has (suites/suite.h) */
    dh_uk.params[np++] = (struct dh_param_def)DH_CODEGEN_KNOBS;
    dh_uk.params[np] = (struct dh_param_def){0};
    /* the reference */
    if (!dh_uk.ref_entry[0] && dh_uk.ref_mode != 2)
        return dh_err_set(err, DH_E_DATA, "%s: declare the expected outputs' source: "
                          "<reference entry=\"...\"/> or <reference c=\"ref.c\" "
                          "function=\"...\"/>", path);
    /* the kernel file: next to the descriptor unless given */
    char kpath[2048];
    if (kernel_override)
        snprintf(kpath, sizeof kpath, "%s", kernel_override);
    else
        beside(path, file, kpath, sizeof kpath);
    snprintf(dh_uk.kpath, sizeof dh_uk.kpath, "%s", kpath);
    char kwhy[4400] = "";
    dh_uk.source = read_text_why(kpath, kwhy, sizeof kwhy);
    if (!dh_uk.source)
        return dh_err_set(err, DH_E_IO, "cannot read kernel %s: %s", kpath,
                          kwhy[0] ? kwhy : "empty");
    dh_uk.kit.items = dh_uk.items;
    dh_uk.kit.entries = dh_uk.entries;
    dh_uk.kit.generate = dh_uk_generate;
    dh_uk.kit.reference = dh_uk_reference;
    for (int k = 0; k < dh_uk.n_con; k++) {
        snprintf(dh_uk.con_why[k], sizeof dh_uk.con_why[k], "constraint \"%s\" does not hold",
                 dh_uk.constraint[k]);
        dh_uk.rules[k] = (struct dh_krule){NULL, dh_uk.constraint[k], dh_uk.con_why[k]};
    }
    dh_uk.kit.rules = dh_uk.rules;
    dh_uk.kit.defines = dh_uk_defines;
    if (dh_uk.n_br) {
        dh_uk.kit.generate = dh_uk_generate_keyed;
        dh_uk.kit.free_priv = free;
        dh_uk.kit.branch = dh_uk_branch;
        dh_uk.kit.sort_key = dh_uk_sort_key;
    }
    /* the journal must not replay another descriptor's results: its key
     * covers everything the descriptor and its C reference say */
    char *dtext = read_text_why(path, NULL, 0),
         *ctext = dh_uk.ref_mode == 2 ? read_text_why(dh_uk.ref_c, NULL, 0) : NULL;
    size_t dl = dtext ? strlen(dtext) : 0, cl = ctext ? strlen(ctext) : 0;
    dh_uk.fingerprint = malloc(dl + cl + 2);
    if (dh_uk.fingerprint) {
        memcpy(dh_uk.fingerprint, dtext ? dtext : "", dl);
        dh_uk.fingerprint[dl] = '\x1f';
        memcpy(dh_uk.fingerprint + dl + 1, ctext ? ctext : "", cl);
        dh_uk.fingerprint[dl + cl + 1] = 0;
    }
    free(dtext);
    free(ctext);
    dh_uk.kit.remaps = dh_uk.remaps[0] ? dh_uk.remaps : NULL;
    dh_uk.bench = (struct dh_bench){
        .suite = "user", .name = dh_uk.name, .summary = "a user's kernel (descriptor)",
        .fingerprint = dh_uk.fingerprint, .source_path = dh_uk.kpath,
        .source = dh_uk.source, .params = dh_uk.params, .variants = dh_uk.variants, .sweep = NULL,
        DH_KIT(dh_uk.kit),
    };
    /* remaps at every size with the declared defaults: an error now, not
     * a silent 1 in the tuning model */
    for (int s = 0; dh_uk.kit.remaps && s < 3; s++) {
        static const char *const sz[] = {"small", "medium", "large"};
        struct dh_case c = {.bench = &dh_uk.bench};
        snprintf(c.bench_name, sizeof c.bench_name, "%s", dh_uk.name);
        snprintf(c.size, sizeof c.size, "%s", sz[s]);
        char why[512];
        dh_kit_remaps(&c, NULL, why, sizeof why);
        if (why[0])
            return dh_err_set(err, DH_E_DATA, "%s (size %s): <kernel remaps=\"...\">: %s; write "
                              "the remap rounds an item goes through, an expression of the "
                              "size's names and the tunables, at least 1", path, sz[s], why);
    }
    *bench = &dh_uk.bench;
    return 0;
}
