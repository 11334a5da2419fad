/* xml_read.c — validating and reading results files back. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlschemas.h>

#include "xml.h"

extern const char dh_xsd_results[];

struct first_error {
    char msg[512];
};

static void on_error(void *ctx, const xmlError *e)
{
    struct first_error *f = ctx;
    if (!f->msg[0] && e && e->message) {
        snprintf(f->msg, sizeof f->msg, "line %d: %s", e->line, e->message);
        f->msg[strcspn(f->msg, "\n")] = 0;
    }
}

/* the embedded schema, compiled once per process (most of a small file's
 * reading time went into compiling it again); NULL if it does not parse */
static xmlSchemaPtr results_schema(void)
{
    static xmlSchemaPtr schema;
    if (!schema) {
        xmlSchemaParserCtxtPtr pc = xmlSchemaNewMemParserCtxt(dh_xsd_results,
                                                              (int)strlen(dh_xsd_results));
        schema = pc ? xmlSchemaParse(pc) : NULL;
        if (pc)
            xmlSchemaFreeParserCtxt(pc);
    }
    return schema;
}

/* ---- reading ---- */
static void sprop(xmlNodePtr n, const char *k, char *out, size_t len)
{
    xmlChar *v = xmlGetProp(n, BAD_CAST k);
    snprintf(out, len, "%s", v ? (const char *)v : "");
    xmlFree(v);
}

/* the first value the reader refuses (the schema lets it through, the
 * harness cannot hold it): set by iprop/samples, reported by dh_xml_read */
static char bad[400];

static void refuse(xmlNodePtr n, const char *what, const char *v, const char *want)
{
    if (!bad[0])
        snprintf(bad, sizeof bad, "line %d: %s is %s: want %s", (int)xmlGetLineNo(n), what, v,
                 want);
}

static double dprop(xmlNodePtr n, const char *k, double dflt)
{
    xmlChar *v = xmlGetProp(n, BAD_CAST k);
    double d = v ? strtod((const char *)v, NULL) : dflt;
    xmlFree(v);
    return d;
}

/* an integer attribute in lo..hi (no float-to-int overflow) */
static long long iprop_in(xmlNodePtr n, const char *k, long long dflt, double lo, double hi)
{
    xmlChar *v = xmlGetProp(n, BAD_CAST k);
    if (!v)
        return dflt;
    double d = strtod((const char *)v, NULL);
    if (!(d >= lo && d <= hi) || d != floor(d)) {
        refuse(n, k, (const char *)v, "a whole number the harness can hold");
        xmlFree(v);
        return dflt;
    }
    xmlFree(v);
    return (long long)d;
}
#define iprop(n, k, dflt) ((int)iprop_in(n, k, dflt, (double)INT_MIN, (double)INT_MAX))
#define lprop(n, k, dflt) ((long)iprop_in(n, k, dflt, -9.0e18, 9.0e18))
#define uprop(n, k, dflt) ((uint64_t)iprop_in(n, k, dflt, 0.0, 9.0e18))

static void text_of(xmlNodePtr n, char *out, size_t len)
{
    xmlChar *t = xmlNodeGetContent(n);
    snprintf(out, len, "%s", t ? (const char *)t : "");
    xmlFree(t);
}

static int is(xmlNodePtr n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && !xmlStrcmp(n->name, BAD_CAST name);
}

/* a list of times in ms (text) into out, at most max: finite, > 0
 * (positive) or >= 0; another value refuses the file, naming what */
static int times_of(xmlNodePtr n, const char *text, double *out, int max, int positive,
                    const char *what)
{
    int k = 0;
    const char *p = text;
    char *end;
    while (p && k < max) {
        double d = strtod(p, &end);
        if (end == p)
            break;
        if (!isfinite(d) || d < 0 || (positive && d == 0)) {
            char v[40];
            snprintf(v, sizeof v, "%g", d);
            refuse(n, what, v, positive ? "a positive, finite number of ms"
                                        : "a finite number of ms, 0 or more");
        }
        out[k++] = d;
        p = end;
    }
    return k;
}

/* time samples in ms: finite, > 0 (kernel) or >= 0 (host, transfer) */
static int samples(xmlNodePtr n, double *out, int max, int positive)
{
    xmlChar *t = xmlNodeGetContent(n);
    char what[64];
    snprintf(what, sizeof what, "a %s time sample", (const char *)n->name);
    int k = times_of(n, (const char *)t, out, max, positive, what);
    xmlFree(t);
    return k;
}

/* an evaluation's runtimes attribute: up to max positive, finite ms */
static int runtimes(xmlNodePtr n, double *out, int max)
{
    xmlChar *t = xmlGetProp(n, BAD_CAST "runtimes");
    int k = times_of(n, (const char *)t, out, max, 1, "an evaluation's runtime");
    xmlFree(t);
    return k;
}

static void read_params(xmlNodePtr n, struct dh_pset *ps)
{
    for (xmlNodePtr p = n->children; p; p = p->next) {
        if (!is(p, "param"))
            continue;
        char name[32], kind[16], val[64];
        sprop(p, "name", name, sizeof name);
        sprop(p, "kind", kind, sizeof kind);
        sprop(p, "value", val, sizeof val);
        enum dh_pkind k = !strcmp(kind, "workload") ? DH_P_WORKLOAD
                          : !strcmp(kind, "choice") ? DH_P_CHOICE : DH_P_TUNABLE;
        dh_pset_put(ps, name, val, strtod(val, NULL), k);
    }
}

/* 0, or -1 out of memory (u's blocks are its own either way) */
static int read_run(xmlNodePtr n, struct dh_run *u)
{
    memset(u, 0, sizeof *u);
    int nomem = 0;
    struct dh_case *c = &u->c;
    struct dh_result *r = &u->r;
    char st[32];
    sprop(n, "key", c->key, sizeof c->key);
    sprop(n, "id", c->id, sizeof c->id);
    sprop(n, "status", st, sizeof st);
    r->status = dh_err_from_name(st);
    if (r->status < 0)
        r->status = DH_E_DATA;
    r->invocation = iprop(n, "invocation", 0);
    for (xmlNodePtr e = n->children; e; e = e->next) {
        if (is(e, "case")) {
            sprop(e, "suite", c->suite, sizeof c->suite);
            sprop(e, "bench", c->bench_name, sizeof c->bench_name);
            sprop(e, "variant", c->variant, sizeof c->variant);
            sprop(e, "backend", c->backend, sizeof c->backend);
            c->device = iprop(e, "device", 0);
            sprop(e, "device_name", c->device_name, sizeof c->device_name);
            sprop(e, "size", c->size, sizeof c->size);
            char ins[8];
            sprop(e, "instrumented", ins, sizeof ins);
            c->instrumented = !strcmp(ins, "true");
            read_params(e, &c->params);
        } else if (is(e, "tunables")) {
            read_params(e, &c->params);
        } else if (is(e, "message")) {
            text_of(e, r->message, sizeof r->message);
        } else if (is(e, "build")) {
            char opts[DH_OPTIONS_MAX];
            sprop(e, "options", opts, sizeof opts);
            nomem |= dh_result_text(&r->options, opts, sizeof opts);
            char b[8];
            sprop(e, "cached", b, sizeof b);
            r->build_cached = !strcmp(b, "true");
            r->build_ms = dprop(e, "ms", 0);
            for (xmlNodePtr l = e->children; l; l = l->next)
                if (is(l, "log")) {
                    static char log[DH_BUILD_LOG_MAX];
                    text_of(l, log, sizeof log);
                    nomem |= dh_result_text(&r->build_log, log, sizeof log);
                }
        } else if (is(e, "timing")) {
            c->reps = iprop(e, "reps", 0);
            char rule[64];
            sprop(e, "reps_rule", rule, sizeof rule);
            if (rule[0]) {                  /* --reps auto: "auto:TARGET:MAX" */
                double tg = 0;
                int mx = 0;
                if (sscanf(rule, "auto:%lf:%d", &tg, &mx) != 2 || !(tg > 0 && tg < 1) ||
                    mx < DH_REPS_AUTO_MIN || mx > DH_MAX_SAMPLES)
                    refuse(e, "reps_rule", rule, "auto:SHARE:MAX, 0 < SHARE < 1, 10 <= MAX <= 256");
                c->reps = DH_REPS_AUTO;
                c->reps_target = tg;
                c->reps_max = mx;
            }
            c->warmup = iprop(e, "warmup", 0);
            r->rotate = iprop(e, "rotate", 1);
            r->setup_ms = dprop(e, "setup_ms", 0);
            r->setup_bg_ms = dprop(e, "setup_bg_ms", 0);
            r->setup_bg_wall_ms = dprop(e, "setup_bg_wall_ms", 0);
            r->setup_wait_ms = dprop(e, "setup_wait_ms", 0);
            r->case_ms = dprop(e, "case_ms", 0);
            r->bbv_ms = dprop(e, "bbv_ms", 0);
            r->measure_ms = dprop(e, "measure_ms", 0);
            r->model_ms = dprop(e, "model_ms", 0);
            r->counters_ms = dprop(e, "counters_ms", 0);
            r->remap_ms = dprop(e, "remap_ms", 0);
            /* at most DH_MAX_SAMPLES of each series, kept as many as the
             * kernel's (a shorter host or transfer series ends in zeros) */
            double kern[DH_MAX_SAMPLES], host[DH_MAX_SAMPLES], xfer[DH_MAX_SAMPLES];
            int nh = 0, nx = 0;
            r->n = 0;
            for (xmlNodePtr s = e->children; s; s = s->next) {
                if (is(s, "kernel"))
                    r->n = samples(s, kern, DH_MAX_SAMPLES, 1);
                else if (is(s, "host"))
                    nh = samples(s, host, DH_MAX_SAMPLES, 0);
                else if (is(s, "transfer"))
                    nx = samples(s, xfer, DH_MAX_SAMPLES, 0);
            }
            if (dh_result_samples(r, r->n)) {
                nomem = 1;
                r->n = 0;
            }
            if (r->n) {
                memcpy(r->kernel_ms, kern, (size_t)r->n * sizeof *kern);
                memcpy(r->host_ms, host, (size_t)(nh < r->n ? nh : r->n) * sizeof *host);
                memcpy(r->xfer_ms, xfer, (size_t)(nx < r->n ? nx : r->n) * sizeof *xfer);
            }
            /* host work timed on the first nh repetitions only (host_reps);
             * no more host samples than repetitions */
            if (nh > r->n)
                refuse(e, "a host series", "longer than the kernel series",
                       "at most one host sample per repetition");
            r->n_host = nh > 0 && nh < r->n ? nh : 0;
        } else if (is(e, "verification")) {
            char vs[16];
            sprop(e, "status", vs, sizeof vs);
            r->verified = strcmp(vs, "not-run") != 0;
            r->verify.checked = lprop(e, "checked", 0);
            r->verify.mismatches = lprop(e, "mismatches", 0);
            r->verify.max_abs_err = dprop(e, "max_abs_err", 0);
            for (xmlNodePtr m = e->children; m; m = m->next)
                if (is(m, "mismatch") && r->verify.n_first < DH_MAX_MISMATCH) {
                    int k = r->verify.n_first++;
                    r->verify.first[k].index = lprop(m, "index", 0);
                    r->verify.first[k].got = dprop(m, "got", NAN);
                    r->verify.first[k].want = dprop(m, "want", NAN);
                }
        } else if (is(e, "cfe")) {
            char src[16];
            sprop(e, "source", src, sizeof src);
            double w = dprop(e, "warp_inst", 0);
            if (!strcmp(src, "counters") && w > 0) {
                r->has_counters = 1;
                r->ctr.warp_inst_executed = w;
                r->ctr.thread_inst_pred_on = dprop(e, "thread_inst", 0);
                r->ctr.warp_width = iprop(e, "warp_width", 32);
                r->ctr.cfe = dprop(e, "value", NAN);
            }
        } else if (is(e, "tuning")) {
            struct dh_tuning *tu = &u->tune;
            sprop(e, "strategy", tu->strategy, sizeof tu->strategy);
            tu->space = iprop(e, "space", 0);
            tu->space_total = iprop(e, "space_total", 0);
            tu->default_ms = dprop(e, "default_ms", 0);
            tu->flat_share = dprop(e, "flat_share", 0);
            tu->evals_to_95 = iprop(e, "evals_to_95", 0);
            tu->best = -1;
            for (xmlNodePtr v = e->children; v; v = v->next) {
                if (!is(v, "eval") || tu->n_eval >= DH_TUNE_MAX_EVALS)
                    continue;
                struct dh_tune_eval *ev = dh_tuning_add(tu);
                if (!ev) {
                    nomem = 1;
                    break;
                }
                char st[24], b[8];
                sprop(v, "tunables", ev->tunables, sizeof ev->tunables);
                sprop(v, "status", st, sizeof st);
                ev->status = dh_err_from_name(st) < 0 ? DH_E_DATA : dh_err_from_name(st);
                ev->ms = dprop(v, "ms", -1);
                ev->n_runtimes = runtimes(v, ev->runtimes, DH_TUNE_EVAL_RUNTIMES);
                sprop(v, "journal", b, sizeof b);
                ev->from_journal = !strcmp(b, "true");
                ev->wall_ms = dprop(v, "wall_ms", 0);
                ev->overhead_ms = dprop(v, "overhead_ms", 0);
                sprop(v, "best", b, sizeof b);
                if (!strcmp(b, "true"))
                    tu->best = tu->n_eval - 1;
            }
        } else if (is(e, "model")) {
            struct dh_model_result *m = &r->model;
            m->valid = 1;
            sprop(e, "table", m->table, sizeof m->table);
            sprop(e, "costs", m->costs, sizeof m->costs);
            sprop(e, "bbv", m->bbv_source, sizeof m->bbv_source);
            m->n_blocks = iprop(e, "blocks", 0);
            m->n_items = lprop(e, "items", 0);
            m->n_classes = lprop(e, "classes", 0);
            m->acquire_ms = dprop(e, "acquire_ms", NAN);
            m->window = iprop(e, "window", 0);
            m->windows = iprop(e, "windows", 1);
            m->warp_width = iprop(e, "warp_width", 32);
            m->wg = iprop(e, "wg", 0);
            m->cus = iprop(e, "cus", 1);
            m->slots = iprop(e, "slots", 1);
            m->schedulers = iprop(e, "schedulers", 0);
            m->launch_items = lprop(e, "launch_items", 0);
            m->own.cfe = dprop(e, "cfe", NAN);
            m->cfe32 = dprop(e, "cfe32", NAN);
            m->cfe64 = dprop(e, "cfe64", NAN);
            m->own.dwr = dprop(e, "dwr", NAN);
            m->own.t_weighted = dprop(e, "t_weighted", NAN);
            m->own.t_sched = dprop(e, "t_sched", NAN);
            m->own.t_floor = dprop(e, "t_floor", NAN);
            m->base.cfe = dprop(e, "base_cfe", NAN);
            m->base.dwr = dprop(e, "base_dwr", NAN);
            m->base.t_weighted = dprop(e, "base_t_weighted", NAN);
            m->base.t_sched = dprop(e, "base_t_sched", NAN);
            m->base.t_floor = dprop(e, "base_t_floor", NAN);
            m->waste_total = dprop(e, "waste_lane_cycles", NAN);
            m->issued_total = dprop(e, "issued_lane_cycles", NAN);
            m->n_waste = 0;
            for (xmlNodePtr w = e->children; w; w = w->next) {
                if (w->type != XML_ELEMENT_NODE || !is(w, "waste"))
                    continue;
                _Static_assert(DH_MODEL_WASTE == 12, "the message below says 12");
                if (m->n_waste == DH_MODEL_WASTE) {
                    refuse(w, "the model's <waste> entries", "more than 12", "at most 12");
                    break;
                }
                struct dh_model_waste *x = &m->waste[m->n_waste++];
                sprop(w, "block", x->block, sizeof x->block);
                x->lane_cycles = dprop(w, "lane_cycles", NAN);
                x->share = dprop(w, "share", NAN);
                x->eff = dprop(w, "eff", NAN);
            }
        } else if (is(e, "ceiling")) {
            r->ceiling = dprop(e, "remap", 0);
            r->warp_width = iprop(e, "warp_width", 32);
        } else if (is(e, "remap_overhead")) {
            struct dh_remap_overhead *ro = &r->remap;
            char st[24];
            sprop(e, "state", st, sizeof st);
            ro->state = dh_remap_state_parse(st);
            if (ro->state < 0) {
                refuse(e, "remap_overhead state", st, "measured, n/a or failed");
                ro->state = DH_REMAP_NONE;
            }
            sprop(e, "mech", ro->mech, sizeof ro->mech);
            sprop(e, "reason", ro->reason, sizeof ro->reason);
            sprop(e, "status", st, sizeof st);
            ro->status = ro->state != DH_REMAP_FAILED ? 0
                         : dh_err_from_name(st) > 0 ? dh_err_from_name(st) : DH_E_DATA;
            ro->ratio = dprop(e, "ratio", NAN);
            ro->ratio_lo = dprop(e, "ratio_lo", NAN);
            ro->ratio_hi = dprop(e, "ratio_hi", NAN);
            ro->tdr_ms = dprop(e, "tdr_ms", NAN);
            ro->tdr_lo = dprop(e, "tdr_lo", NAN);
            ro->tdr_hi = dprop(e, "tdr_hi", NAN);
            ro->n_tdr = (int)iprop_in(e, "tdr_reps", 0, 0, DH_MAX_SAMPLES);
            ro->base_ms = dprop(e, "base_ms", NAN);
            ro->base_lo = dprop(e, "base_lo", NAN);
            ro->base_hi = dprop(e, "base_hi", NAN);
            ro->n_base = (int)iprop_in(e, "base_reps", 0, 0, DH_MAX_SAMPLES);
            if (ro->state == DH_REMAP_MEASURED && !(ro->ratio > 0 && isfinite(ro->ratio)))
                refuse(e, "a measured remap_overhead's ratio", "missing or not positive",
                       "a positive, finite ratio");
        }
    }
    return nomem ? -1 : 0;
}

/* <plan>: every value in range, the case list as long as it says and
 * hashing to its hash; refusals go to `bad` */
static struct dh_plan_rec *read_plan(xmlNodePtr s)
{
    struct dh_plan_rec *p = calloc(1, sizeof *p);
    if (!p) {
        refuse(s, "plan", "too large", "memory to read it");
        return NULL;
    }
    sprop(s, "hash", p->hash, sizeof p->hash);
    p->cases = (int)iprop_in(s, "cases", 0, 0, 1e7);
    p->shards = (int)iprop_in(s, "shards", 1, 1, DH_MAX_SHARDS);
    p->shard = (int)iprop_in(s, "shard", 0, 1, p->shards);
    int nc = 0, nn = 0;
    for (xmlNodePtr e = s->children; e; e = e->next) {
        nc += is(e, "case");
        nn += is(e, "shard");
    }
    if (nc && nc != p->cases) {
        char v[32];
        snprintf(v, sizeof v, "%d", nc);
        refuse(s, "the number of plan cases", v, "as many as its cases attribute says");
    }
    if (nc)
        p->ids = calloc((size_t)nc, sizeof *p->ids);
    if (nn)
        p->notes = calloc((size_t)nn, sizeof *p->notes);
    if ((nc && !p->ids) || (nn && !p->notes)) {
        refuse(s, "plan", "too large", "memory to read it");
        return p;
    }
    int ic = 0;
    for (xmlNodePtr e = s->children; e; e = e->next) {
        if (is(e, "case") && ic < nc) {
            sprop(e, "id", p->ids[ic].id, sizeof p->ids[ic].id);
            p->ids[ic++].shard = (int)iprop_in(e, "shard", 1, 1, p->shards);
        } else if (is(e, "shard") && p->n_notes < nn) {
            struct dh_shard_note *nt = &p->notes[p->n_notes++];
            char st[32];
            nt->index = (int)iprop_in(e, "index", 1, 1, p->shards);
            sprop(e, "state", st, sizeof st);
            if (dh_shard_state_parse(st, &nt->state))
                refuse(e, "state", st, "ok, incomplete or missing");
            nt->planned = (int)iprop_in(e, "planned", 0, 0, 1e7);
            nt->ran = (int)iprop_in(e, "ran", 0, 0, 1e7);
            nt->claims = (int)iprop_in(e, "claims", 0, 0, 1e7);
            sprop(e, "files", nt->files, sizeof nt->files);
            sprop(e, "message", nt->message, sizeof nt->message);
        }
    }
    if (nc) {
        char h[17];
        dh_plan_hash(p->ids, nc, h);
        if (strcmp(h, p->hash))
            refuse(s, "the plan hash", p->hash, "the hash of its case ids (the file was edited)");
    }
    return p;
}

static int by_id(const void *a, const void *b)
{
    const struct dh_run *const *x = a, *const *y = b;
    return strcmp((*x)->c.id, (*y)->c.id);
}

/* ---- the stream ----
 * A file is read once, front to back, by libxml2's xmlTextReader with the
 * schema plugged into the parse: each top-level section and each <run> is
 * expanded into a small tree of its own, read by the functions above and
 * freed before the next one, so memory holds one run's tree at a time,
 * never the file's. What is refused, and in which order, is what a whole
 * tree gave: a file that is not well-formed XML (anywhere in it), then a
 * foreign root, then another version, then the first schema error, then
 * the first value the harness cannot hold, then a case twice. */
struct stream {
    struct first_error parse;       /* the parser's first error */
    struct first_error schema;      /* the schema's first complaint */
    xmlNodePtr root;                /* the reader's root element, once read */
};

/* A schema complaint at the line of the element it names, as validating
 * a whole tree gave: an element missing a child is complained of at its
 * end tag, but named at its start. The element is on the chain of last
 * children the reader is building (open elements and the one just
 * started); the deepest of that name is it (no element of the results
 * schema holds one of its own name). Before the root is known: the line
 * the parser is at. */
static void on_schema_error(void *ctx, xmlErrorPtr e)
{
    struct stream *st = ctx;
    if (st->schema.msg[0] || !e || !e->message)
        return;
    long line = e->line;
    const char *q = strstr(e->message, "Element '");
    if (q && st->root) {
        char name[64];
        q += strlen("Element '");
        size_t len = strcspn(q, "'");
        if (len < sizeof name) {
            memcpy(name, q, len);
            name[len] = 0;
            xmlNodePtr found = NULL;
            for (xmlNodePtr n = st->root; n; n = n->last)
                if (is(n, name))
                    found = n;
            if (found)
                line = xmlGetLineNo(found);
        }
    }
    snprintf(st->schema.msg, sizeof st->schema.msg, "line %ld: %s", line, e->message);
    st->schema.msg[strcspn(st->schema.msg, "\n")] = 0;
}

static void read_environment(xmlNodePtr s, struct dh_env *env)
{
    struct { const char *k; char *v; size_t l; } f[] = {
        {"host", env->host, sizeof env->host},
        {"os", env->os, sizeof env->os},
        {"kernel", env->kernel, sizeof env->kernel},
        {"compiler", env->compiler, sizeof env->compiler},
        {"harness", env->harness, sizeof env->harness},
        {"git_revision", env->git_revision, sizeof env->git_revision},
        {"started", env->started, sizeof env->started},
        {"updated", env->updated, sizeof env->updated},
        {"command", env->command, sizeof env->command},
    };
    for (xmlNodePtr e = s->children; e; e = e->next) {
        for (size_t i = 0; i < sizeof f / sizeof *f; i++)
            if (is(e, f[i].k))
                text_of(e, f[i].v, f[i].l);
        if (is(e, "conditions")) {
            struct dh_conditions *c = &env->cond;
            c->valid = 1;
            c->cpus = iprop(e, "cpus", 0);
            char b[96];
            const char *names[2] = {"load_before", "load_after"};
            double *dst[2] = {c->load_before, c->load_after};
            for (int q = 0; q < 2; q++) {
                dst[q][0] = dst[q][1] = dst[q][2] = -1;
                sprop(e, names[q], b, sizeof b);
                if (b[0] && sscanf(b, "%lf %lf %lf", &dst[q][0], &dst[q][1], &dst[q][2]) != 3)
                    dst[q][0] = dst[q][1] = dst[q][2] = -1;
            }
            sprop(e, "governor", c->governor, sizeof c->governor);
            c->cpu_mhz = iprop(e, "cpu_mhz", 0);
            sprop(e, "gpu", c->gpu, sizeof c->gpu);
            continue;
        }
        if (!is(e, "invocations"))
            continue;
        /* more than a file written here holds: the first and the latest */
        long total = 0, at = 0;
        for (xmlNodePtr v = e->children; v; v = v->next)
            total += is(v, "invocation");
        for (xmlNodePtr v = e->children; v; v = v->next) {
            if (!is(v, "invocation") || (at++ > 0 && total - at >= DH_ENV_INVOCATIONS - 1))
                continue;
            struct dh_invocation *iv = &env->inv[env->n_inv++];
            iv->n = iprop(v, "n", env->n_inv);
            sprop(v, "started", iv->started, sizeof iv->started);
            sprop(v, "harness", iv->harness, sizeof iv->harness);
            sprop(v, "git_revision", iv->git_revision, sizeof iv->git_revision);
            sprop(v, "host", iv->host, sizeof iv->host);
        }
    }
}

static void read_devices(xmlNodePtr s, struct dh_devlist *devs)
{
    for (xmlNodePtr e = s->children; e; e = e->next) {
        if (!is(e, "device") || devs->n >= DH_MAX_DEVICES)
            continue;
        int k = devs->n++;
        struct dh_device_info *d = &devs->d[k].info;
        sprop(e, "backend", devs->d[k].backend, sizeof devs->d[k].backend);
        devs->d[k].index = iprop(e, "index", 0);
        sprop(e, "name", d->name, sizeof d->name);
        sprop(e, "vendor", d->vendor, sizeof d->vendor);
        sprop(e, "platform", d->platform, sizeof d->platform);
        sprop(e, "driver", d->driver, sizeof d->driver);
        sprop(e, "runtime", d->runtime, sizeof d->runtime);
        sprop(e, "arch", d->arch, sizeof d->arch);
        sprop(e, "kind", d->kind, sizeof d->kind);
        d->warp_width = iprop(e, "warp_width", 32);
        d->compute_units = iprop(e, "compute_units", 0);
        d->max_wg = iprop(e, "max_wg", 0);
        d->clock_mhz = iprop(e, "clock_mhz", 0);
        d->global_mem_bytes = uprop(e, "global_mem_bytes", 0);
        d->local_mem_bytes = uprop(e, "local_mem_bytes", 0);
    }
}

static int add_run(struct dh_resultfile *out, int *cap, xmlNodePtr n)
{
    if (out->n_runs == *cap) {
        int c2 = *cap ? *cap * 2 : 16;
        struct dh_run *v = realloc(out->runs, (size_t)c2 * sizeof *v);
        if (!v)
            return -1;
        out->runs = v;
        *cap = c2;
    }
    return read_run(n, &out->runs[out->n_runs++]);
}

/* Stream path through the schema; out NULL: validate only. */
static int stream(const char *path, struct dh_resultfile *out, struct dh_err *err)
{
    xmlSchemaPtr schema = results_schema();
    if (!schema)
        return dh_err_set(err, DH_E_INTERNAL, "the embedded results schema does not parse");
    struct stream st = {{{0}}, {{0}}, NULL};
    /* the parser's errors through the thread's handler for the whole
     * stream, the schema's through its own context (the reader's relay
     * would be handed the schema's plug instead of the parser) */
    xmlSetStructuredErrorFunc(&st.parse, (xmlStructuredErrorFunc)on_error);
    xmlSchemaValidCtxtPtr vc = xmlSchemaNewValidCtxt(schema);
    xmlTextReaderPtr rd = vc ? xmlReaderForFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOWARNING)
                             : NULL;
    int ret = -1;
    if (rd) {
        xmlSchemaSetValidStructuredErrors(vc, on_schema_error, &st);
        if (xmlTextReaderSchemaValidateCtxt(rd, vc, 0) != 0) {
            xmlFreeTextReader(rd);
            xmlSchemaFreeValidCtxt(vc);
            xmlSetStructuredErrorFunc(NULL, NULL);
            return dh_err_set(err, DH_E_INTERNAL, "libxml2: cannot validate while reading");
        }
    }
    bad[0] = 0;
    int foreign = 0, version = DH_RESULTS_VERSION, have_root = 0, cap = 0, oom = 0;
    if (rd)
        ret = xmlTextReaderRead(rd);
    while (ret == 1) {
        if (xmlTextReaderNodeType(rd) != XML_READER_TYPE_ELEMENT) {
            ret = xmlTextReaderRead(rd);
            continue;
        }
        int depth = xmlTextReaderDepth(rd);
        xmlNodePtr n = xmlTextReaderCurrentNode(rd);
        if (depth == 0) {
            have_root = 1;
            st.root = n;
            if (!n || xmlStrcmp(n->name, BAD_CAST "divharness")) {
                foreign = 1;
            } else {
                xmlChar *ver = xmlGetProp(n, BAD_CAST "version");
                version = ver ? atoi((const char *)ver) : 0;
                xmlFree(ver);
            }
        }
        /* past the root: only whether the rest is well-formed matters */
        int skip = foreign || version != DH_RESULTS_VERSION || !out || oom || st.schema.msg[0];
        if (depth == 1 && !skip && n && (is(n, "environment") || is(n, "devices") ||
                                          (is(n, "plan") && !out->plan))) {
            n = xmlTextReaderExpand(rd);
            if (!n)
                break;
            if (is(n, "environment"))
                read_environment(n, &out->env);
            else if (is(n, "devices"))
                read_devices(n, &out->devs);
            else
                out->plan = read_plan(n);
            ret = xmlTextReaderNext(rd);
            continue;
        }
        if (depth == 2 && !skip && n && is(n, "run") && n->parent && is(n->parent, "runs")) {
            n = xmlTextReaderExpand(rd);
            if (!n)
                break;
            oom = add_run(out, &cap, n) != 0;
            ret = xmlTextReaderNext(rd);
            continue;
        }
        /* the root and <runs> are descended into, anything else passed over
         * (still parsed and validated) */
        ret = depth == 0 || (depth == 1 && n && is(n, "runs")) ? xmlTextReaderRead(rd)
                                                             : xmlTextReaderNext(rd);
    }
    int valid = rd && ret == 0 && xmlTextReaderIsValid(rd) == 1;
    if (rd)
        xmlFreeTextReader(rd);
    if (vc)
        xmlSchemaFreeValidCtxt(vc);
    xmlSetStructuredErrorFunc(NULL, NULL);
    if (ret != 0 || !have_root) {
        FILE *f = fopen(path, "r");
        if (!f)
            return dh_err_set(err, DH_E_IO, "cannot read %s: no such file or not readable", path);
        fclose(f);
        /* the reader parses in pushed chunks and names a file cut short
         * "extra content at the end": the whole-file parser's words, as
         * before, from a parse of this broken file alone */
        struct first_error fe = {{0}};
        xmlParserCtxtPtr ctx = xmlNewParserCtxt();
        if (ctx) {
            xmlSetStructuredErrorFunc(&fe, (xmlStructuredErrorFunc)on_error);
            xmlDocPtr doc = xmlCtxtReadFile(ctx, path, NULL, XML_PARSE_NONET | XML_PARSE_NOWARNING);
            xmlSetStructuredErrorFunc(NULL, NULL);
            xmlFreeDoc(doc);
            xmlFreeParserCtxt(ctx);
        }
        const char *why = fe.msg[0] ? fe.msg : st.parse.msg[0] ? st.parse.msg : "parse error";
        return dh_err_set(err, DH_E_DATA, "%s is not well-formed XML (%s): is it a divharness "
                          "results file?", path, why);
    }
    if (foreign)
        return dh_err_set(err, DH_E_DATA, "%s is not a divharness results file (root element "
                          "is not <divharness>)", path);
    if (version != DH_RESULTS_VERSION)
        return dh_err_set(err, DH_E_DATA, "%s has results version %d; this harness reads "
                          "version %d: use the matching harness release", path, version,
                          DH_RESULTS_VERSION);
    if (!valid)
        return dh_err_set(err, DH_E_DATA, "%s does not match results schema version %d: %s",
                          path, DH_RESULTS_VERSION, st.schema.msg[0] ? st.schema.msg : "invalid");
    if (oom)
        return dh_err_set(err, DH_E_RESOURCES, "out of memory reading %s", path);
    return 0;
}

int dh_xml_validate(const char *path, struct dh_err *err)
{
    return stream(path, NULL, err);
}

int dh_xml_read(const char *path, struct dh_resultfile *out, struct dh_err *err)
{
    memset(out, 0, sizeof *out);
    int rc = stream(path, out, err);
    if (rc) {
        dh_resultfile_free(out);
        return rc;
    }
    out->version = DH_RESULTS_VERSION;
    if (bad[0]) {
        dh_resultfile_free(out);
        return dh_err_set(err, DH_E_DATA, "%s: %s", path, bad);
    }
    /* one run per case: a file the harness writes never repeats an id */
    if (out->n_runs > 1) {
        const struct dh_run **v = malloc((size_t)out->n_runs * sizeof *v);
        if (!v) {
            dh_resultfile_free(out);
            return dh_err_set(err, DH_E_RESOURCES, "out of memory reading %s", path);
        }
        for (int i = 0; i < out->n_runs; i++)
            v[i] = &out->runs[i];
        qsort(v, (size_t)out->n_runs, sizeof *v, by_id);
        for (int i = 1; i < out->n_runs; i++)
            if (!strcmp(v[i - 1]->c.id, v[i]->c.id)) {
                rc = dh_err_set(err, DH_E_DATA, "%s: the case %s appears twice (runs %d and "
                                "%d): one file holds one run per case; join files with "
                                "`harness merge`", path, v[i]->c.id,
                                (int)(v[i - 1] - out->runs) + 1, (int)(v[i] - out->runs) + 1);
                break;
            }
        free(v);
        if (rc) {
            dh_resultfile_free(out);
            return rc;
        }
    }
    return 0;
}

void dh_resultfile_free(struct dh_resultfile *f)
{
    dh_plan_rec_free(f->plan);
    f->plan = NULL;
    for (int i = 0; i < f->n_runs; i++)
        dh_run_release(&f->runs[i]);
    free(f->runs);
    f->runs = NULL;
    f->n_runs = 0;
}
