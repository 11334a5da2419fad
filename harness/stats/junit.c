/* junit.c — JUnit XML of a comparison, through libxml2 (junit.h). */
#include "junit.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/tree.h>

static void attrf(xmlNodePtr n, const char *k, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void attrf(xmlNodePtr n, const char *k, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    xmlNewProp(n, BAD_CAST k, BAD_CAST buf);
}

static void prop(xmlNodePtr props, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void prop(xmlNodePtr props, const char *name, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    xmlNodePtr p = xmlNewChild(props, NULL, BAD_CAST "property", NULL);
    xmlNewProp(p, BAD_CAST "name", BAD_CAST name);
    xmlNewProp(p, BAD_CAST "value", BAD_CAST buf);
}

static void prop_d(xmlNodePtr props, const char *name, double v)
{
    if (isfinite(v))
        prop(props, name, "%.6g", v);
}

static const struct dh_run *any_run(const struct dh_cmp_case *cc)
{
    return cc->cur ? cc->cur : cc->base;
}

/* "gpu_tdr[alg=dgi] divfrac=1,iters=1024,... [small opencl:pthread-AMD EPYC]" */
static void case_name(const struct dh_case *c, char *out, size_t len)
{
    char label[300], wl[400];
    dh_case_variant_label(c, label, sizeof label);
    dh_pset_format(&c->params, DH_P_WORKLOAD, wl, sizeof wl);
    snprintf(out, len, "%s %s [%s %s:%s]", label, wl[0] ? wl : "-", c->size, c->backend,
             c->device_name);
}

static void metric_props(xmlNodePtr props, const struct dh_cmp_metric *m)
{
    char k[64];
#define P(suffix, v) (snprintf(k, sizeof k, "%s_%s", m->name, suffix), prop_d(props, k, v))
    P("base_median_ms", m->med_base);
    P("new_median_ms", m->med_new);
    P("ratio", m->ratio);
    P("p_slower", m->p_slower);
    P("p_faster", m->p_faster);
    P("threshold_pct", 100 * m->threshold);
    P("spread_pct", 100 * m->spread);
    P("n_base", m->n_base);
    P("n_new", m->n_new);
#undef P
    snprintf(k, sizeof k, "%s_verdict", m->name);
    prop(props, k, "%s", dh_verdict_name(m->verdict));
}

static void metric_line(char *out, size_t len, const struct dh_cmp_metric *m)
{
    snprintf(out, len, "%s median %.6g ms -> %.6g ms (%+.1f%%, threshold %.1f%%, spread %.1f%%, "
             "p(slower)=%.3g, p(faster)=%.3g, n=%d/%d)", m->name, m->med_base, m->med_new,
             100 * (m->ratio - 1), 100 * m->threshold, 100 * m->spread, m->p_slower,
             m->p_faster, m->n_base, m->n_new);
}

static void testcase(xmlNodePtr suite, const struct dh_cmp_case *cc, int strict, int *fail,
                     int *errs, int *skips)
{
    const struct dh_run *u = any_run(cc);
    char cls[128], name[1200];
    snprintf(cls, sizeof cls, "%s.%s", u->c.suite, u->c.bench_name);
    case_name(&u->c, name, sizeof name);
    xmlNodePtr tc = xmlNewChild(suite, NULL, BAD_CAST "testcase", NULL);
    xmlNewProp(tc, BAD_CAST "classname", BAD_CAST cls);
    xmlNewProp(tc, BAD_CAST "name", BAD_CAST name);
    double secs = 0;  /* the time NEW spent in timed runs of this case */
    if (cc->cur && cc->cur->r.status == 0)
        for (int i = 0; i < cc->cur->r.n; i++)
            secs += dh_e2e_sample(&cc->cur->r, i) / 1000.0;
    attrf(tc, "time", "%.6f", secs);

    /* unlinked and freed below in strict mode */
    xmlNodePtr props = xmlNewChild(tc, NULL, BAD_CAST "properties", NULL);
    prop(props, "verdict", "%s", dh_verdict_name(cc->verdict));
    prop(props, "case_key", "%s", u->c.key);
    for (int k = 0; k < cc->n_metrics; k++)
        metric_props(props, &cc->m[k]);
    prop_d(props, "cfe_base", cc->cfe_base);
    prop_d(props, "cfe_new", cc->cfe_new);
    char tun[256];
    if (cc->cur) {
        dh_pset_format(&cc->cur->c.params, DH_P_TUNABLE, tun, sizeof tun);
        prop(props, "tunables", "%s", tun);
    }
    if (cc->note[0])
        prop(props, "note", "%s", cc->note);
    if (strict) {
        xmlUnlinkNode(props);
        xmlFreeNode(props);
    }

    char msg[1024] = "", body[2048] = "", line[512];
    for (int k = 0; k < cc->n_metrics; k++) {
        metric_line(line, sizeof line, &cc->m[k]);
        snprintf(body + strlen(body), sizeof body - strlen(body), "%s\n", line);
    }
    if (cc->verdict == DH_V_SLOWER) {
        for (int k = 0; k < cc->n_metrics; k++)
            if (cc->m[k].verdict == DH_V_SLOWER) {
                snprintf(msg, sizeof msg, "slower: %s %.6g ms -> %.6g ms (%+.1f%%, threshold "
                         "%.1f%%, p=%.3g)", cc->m[k].name, cc->m[k].med_base, cc->m[k].med_new,
                         100 * (cc->m[k].ratio - 1), 100 * cc->m[k].threshold,
                         cc->m[k].p_slower);
                break;
            }
    } else if (cc->verdict == DH_V_WRONG) {
        snprintf(msg, sizeof msg, "wrong: %s", cc->note);
    }
    if (cc->cfe_drop)
        snprintf(msg + strlen(msg), sizeof msg - strlen(msg), "%sCFE drop: %.3f -> %.3f",
                 msg[0] ? "; " : "", cc->cfe_base, cc->cfe_new);
    if (cc->verdict == DH_V_FAILED) {
        xmlNodePtr e = xmlNewTextChild(tc, NULL, BAD_CAST "error", BAD_CAST cc->note);
        xmlNewProp(e, BAD_CAST "type", BAD_CAST dh_err_name(cc->cur->r.status));
        attrf(e, "message", "run failed: %s", cc->note);
        ++*errs;
    } else if (msg[0]) {
        xmlNodePtr f = xmlNewTextChild(tc, NULL, BAD_CAST "failure", BAD_CAST body);
        xmlNewProp(f, BAD_CAST "type", BAD_CAST(cc->verdict == DH_V_SLOWER ? "slower"
                                                : cc->verdict == DH_V_WRONG ? "wrong"
                                                : "cfe-drop"));
        xmlNewProp(f, BAD_CAST "message", BAD_CAST msg);
        ++*fail;
    } else if (cc->verdict >= DH_V_AMBIGUOUS) {
        const char *why = cc->note;
        for (int k = 0; k < cc->n_metrics; k++)
            if (cc->m[k].verdict == DH_V_AMBIGUOUS && cc->m[k].why[0]) {
                why = cc->m[k].why;
                break;
            }
        xmlNodePtr s = xmlNewChild(tc, NULL, BAD_CAST "skipped", NULL);
        attrf(s, "message", "%s: %s", dh_verdict_name(cc->verdict), why);
        ++*skips;
    }
    if (body[0] || cc->note[0]) {
        snprintf(body + strlen(body), sizeof body - strlen(body), "%s%s", cc->note,
                 cc->note[0] ? "\n" : "");
        xmlNewTextChild(tc, NULL, BAD_CAST "system-out", BAD_CAST body);
    }
}

int dh_junit_write(const char *path, const struct dh_cmp *c, const struct dh_cmp_opts *o,
                   const char *base_path, const char *new_path, int strict,
                   struct dh_err *err)
{
    xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0");
    xmlNodePtr root = xmlNewNode(NULL, BAD_CAST "testsuites");
    xmlDocSetRootElement(doc, root);
    xmlNewProp(root, BAD_CAST "name", BAD_CAST "divharness compare");
    int t_tests = 0, t_fail = 0, t_err = 0;
    char ts[40];
    dh_now_iso(ts, sizeof ts);
    ts[strcspn(ts, "Z")] = 0;    /* JUnit's timestamp has no zone designator */
    /* one <testsuite> per suite, in order of first appearance */
    for (int i = 0; i < c->n; i++) {
        const char *suite = any_run(&c->cases[i])->c.suite;
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = !strcmp(any_run(&c->cases[j])->c.suite, suite);
        if (seen)
            continue;
        xmlNodePtr s = xmlNewChild(root, NULL, BAD_CAST "testsuite", NULL);
        xmlNewProp(s, BAD_CAST "name", BAD_CAST suite);
        xmlNodePtr props = xmlNewChild(s, NULL, BAD_CAST "properties", NULL);
        prop(props, "base", "%s", base_path);
        prop(props, "new", "%s", new_path);
        prop(props, "threshold_min_pct", "%g", 100 * o->threshold);
        prop(props, "alpha", "%g", o->alpha);
        prop(props, "max_spread_pct", "%g", 100 * o->max_spread);
        prop(props, "min_samples", "%d", o->min_samples);
        prop(props, "cfe_drop", "%g", o->cfe_drop);
        int tests = 0, fail = 0, errs = 0, skips = 0;
        double secs = 0;
        for (int j = i; j < c->n; j++) {
            if (strcmp(any_run(&c->cases[j])->c.suite, suite))
                continue;
            testcase(s, &c->cases[j], strict, &fail, &errs, &skips);
            tests++;
            xmlChar *tm = xmlGetProp(s->last, BAD_CAST "time");
            secs += tm ? strtod((const char *)tm, NULL) : 0;
            xmlFree(tm);
        }
        attrf(s, "tests", "%d", tests);
        attrf(s, "failures", "%d", fail);
        attrf(s, "errors", "%d", errs);
        attrf(s, "skipped", "%d", skips);
        attrf(s, "time", "%.6f", secs);
        attrf(s, "timestamp", "%s", ts);
        t_tests += tests;
        t_fail += fail;
        t_err += errs;
    }
    attrf(root, "tests", "%d", t_tests);
    attrf(root, "failures", "%d", t_fail);
    attrf(root, "errors", "%d", t_err);   /* <testsuites> has no "skipped" in junit-10.xsd */

    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    int rc = 0;
    if (xmlSaveFormatFileEnc(tmp, doc, "UTF-8", 1) < 0) {
        rc = dh_err_set(err, DH_E_IO, "cannot write JUnit file %s: %s", tmp, strerror(errno));
        unlink(tmp);
    } else if (rename(tmp, path)) {
        rc = dh_err_set(err, DH_E_IO, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
        unlink(tmp);
    }
    xmlFreeDoc(doc);
    return rc;
}
