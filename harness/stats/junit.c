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

#include "../support/fs.h"

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
    if (m->held) {                  /* NEW's samples moved by held_ms */
        P("acquire_base_ms", m->acq_base);
        P("acquire_new_ms", m->acq_new);
    }
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

/* The start tag of n (no children yet) as a whole-file dump writes it. */
static void start_tag(xmlOutputBufferPtr out, xmlDocPtr doc, xmlNodePtr n)
{
    xmlBufferPtr b = xmlBufferCreate();
    if (!b)
        return;
    xmlNodeDump(b, doc, n, 0, 1);
    const char *t = (const char *)xmlBufferContent(b);
    size_t len = strlen(t);
    if (len >= 2 && !strcmp(t + len - 2, "/>")) {
        xmlOutputBufferWrite(out, (int)len - 2, t);
        xmlOutputBufferWriteString(out, ">\n");
    }
    xmlBufferFree(b);
}

/* Dump n at level (its indentation before it), then free it. */
static void dump_free(xmlOutputBufferPtr out, xmlDocPtr doc, xmlNodePtr n, int level)
{
    for (int i = 0; i < level; i++)
        xmlOutputBufferWriteString(out, "  ");
    xmlNodeDumpOutput(out, doc, n, level, 1, "UTF-8");
    xmlOutputBufferWriteString(out, "\n");
    xmlUnlinkNode(n);
    xmlFreeNode(n);
}

struct suite_sum {
    int first;                  /* its first case */
    int tests, fail, errs, skips;
    double secs;
};

int dh_junit_write(const char *path, const struct dh_cmp *c, const struct dh_cmp_opts *o,
                   const char *base_path, const char *new_path, int strict,
                   struct dh_err *err)
{
    /* Written a testcase at a time, never the whole tree (a comparison of
     * thousands of cases): the counts the suites' and the root's attributes
     * carry are taken in a first pass over the cases, each testcase's tree
     * made and freed; the second pass writes the same bytes a dump of the
     * whole tree gives. */
    xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0");
    xmlNodePtr root = xmlNewNode(NULL, BAD_CAST "testsuites");
    xmlDocSetRootElement(doc, root);
    doc->encoding = xmlStrdup(BAD_CAST "UTF-8");
    xmlNewProp(root, BAD_CAST "name", BAD_CAST "divharness compare");
    struct suite_sum *sum = malloc((size_t)(c->n ? c->n : 1) * sizeof *sum);
    if (!sum) {
        xmlFreeDoc(doc);
        return dh_err_set(err, DH_E_RESOURCES, "out of memory writing %s", path);
    }
    int t_tests = 0, t_fail = 0, t_err = 0, ns = 0;
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
        struct suite_sum *m = &sum[ns++];
        memset(m, 0, sizeof *m);
        m->first = i;
        xmlNodePtr s = xmlNewChild(root, NULL, BAD_CAST "testsuite", NULL);
        for (int j = i; j < c->n; j++) {
            if (strcmp(any_run(&c->cases[j])->c.suite, suite))
                continue;
            testcase(s, &c->cases[j], strict, &m->fail, &m->errs, &m->skips);
            m->tests++;
            xmlChar *tm = xmlGetProp(s->last, BAD_CAST "time");
            m->secs += tm ? strtod((const char *)tm, NULL) : 0;
            xmlFree(tm);
            xmlNodePtr tc = s->last;
            xmlUnlinkNode(tc);
            xmlFreeNode(tc);
        }
        xmlUnlinkNode(s);
        xmlFreeNode(s);
        t_tests += m->tests;
        t_fail += m->fail;
        t_err += m->errs;
    }
    attrf(root, "tests", "%d", t_tests);
    attrf(root, "failures", "%d", t_fail);
    attrf(root, "errors", "%d", t_err);   /* <testsuites> has no "skipped" in junit-10.xsd */

    char tmp[4300], why[4400] = "";
    int fd = -1;
    if (dh_replace_ok(path, why, sizeof why) || (fd = dh_tmp_create(path, tmp, sizeof tmp)) < 0) {
        if (fd < 0 && !why[0])
            snprintf(why, sizeof why, "%s.tmp.*: %s", path, strerror(errno));
        free(sum);
        xmlFreeDoc(doc);
        return dh_err_set(err, DH_E_IO, "cannot write JUnit file: %s", why);
    }
    xmlOutputBufferPtr out = xmlOutputBufferCreateFd(fd, xmlFindCharEncodingHandler("UTF-8"));
    if (!out) {
        free(sum);
        xmlFreeDoc(doc);
        close(fd);
        unlink(tmp);
        return dh_err_set(err, DH_E_IO, "cannot write JUnit file %s: out of memory", tmp);
    }
    xmlOutputBufferWriteString(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    if (ns)
        start_tag(out, doc, root);
    for (int k = 0; k < ns; k++) {
        const struct suite_sum *m = &sum[k];
        const char *suite = any_run(&c->cases[m->first])->c.suite;
        xmlNodePtr s = xmlNewChild(root, NULL, BAD_CAST "testsuite", NULL);
        xmlNewProp(s, BAD_CAST "name", BAD_CAST suite);
        attrf(s, "tests", "%d", m->tests);
        attrf(s, "failures", "%d", m->fail);
        attrf(s, "errors", "%d", m->errs);
        attrf(s, "skipped", "%d", m->skips);
        attrf(s, "time", "%.6f", m->secs);
        attrf(s, "timestamp", "%s", ts);
        xmlOutputBufferWriteString(out, "  ");
        start_tag(out, doc, s);
        xmlNodePtr props = xmlNewChild(s, NULL, BAD_CAST "properties", NULL);
        prop(props, "base", "%s", base_path);
        prop(props, "new", "%s", new_path);
        prop(props, "threshold_min_pct", "%g", 100 * o->threshold);
        prop(props, "alpha", "%g", o->alpha);
        prop(props, "max_spread_pct", "%g", 100 * o->max_spread);
        prop(props, "min_samples", "%d", o->min_samples);
        prop(props, "host_threshold_min_pct", "%g", 100 * o->host_threshold);
        prop(props, "host_min_samples", "%d", o->host_min_samples);
        prop(props, "cfe_drop", "%g", o->cfe_drop);
        dump_free(out, doc, props, 2);
        int fail = 0, errs = 0, skips = 0;
        for (int j = m->first; j < c->n; j++) {
            if (strcmp(any_run(&c->cases[j])->c.suite, suite))
                continue;
            testcase(s, &c->cases[j], strict, &fail, &errs, &skips);
            dump_free(out, doc, s->last, 2);
        }
        xmlOutputBufferWriteString(out, "  </testsuite>\n");
        xmlUnlinkNode(s);
        xmlFreeNode(s);
    }
    if (ns)
        xmlOutputBufferWriteString(out, "</testsuites>\n");
    else                        /* no cases: the root alone */
        dump_free(out, doc, root, 0);
    free(sum);
    int rc = 0;
    int closed = xmlOutputBufferClose(out);
    if (close(fd))
        closed = -1;
    if (closed < 0) {
        rc = dh_err_set(err, DH_E_IO, "cannot write JUnit file %s: %s", tmp, strerror(errno));
        unlink(tmp);
    } else if (rename(tmp, path)) {
        rc = dh_err_set(err, DH_E_IO, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
        unlink(tmp);
    }
    xmlFreeDoc(doc);
    return rc;
}
