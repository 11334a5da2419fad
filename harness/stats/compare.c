/* compare.c — Mann-Whitney U, per-case verdicts and case matching
 * (compare.h). The table, JUnit and exit codes are cmd_compare.c's.
 *
 * The Mann-Whitney U test is written here: no Debian C library has it
 * (GSL has no rank tests; R's nmath is not packaged for C; Boost.Math is
 * C++). It is a few dozen lines and is checked against scipy's values in
 * tests/test_compare.c.
 */
#include "compare.h"
#include "stats.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Mann-Whitney U ---- */

struct ranked {
    double v;
    int from_x;
};

static int cmp_ranked(const void *a, const void *b)
{
    double x = ((const struct ranked *)a)->v, y = ((const struct ranked *)b)->v;
    return (x > y) - (x < y);
}

/* log C(n, k) */
static double log_choose(int n, int k)
{
    return lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0);
}

/* Exact null distribution of U for sample sizes m, n without ties: the
 * counts are the coefficients of the Gaussian binomial [m+n choose m]_q =
 * prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i). Computed with uint64_t
 * arithmetic, which is exact modulo 2^64 through the subtractions; every
 * final count is below C(m+n, m) < 2^63 (the caller checks), so the
 * results are exact. Returns P(U >= u), or -1 when out of memory. */
static double exact_sf(int m, int n, long u)
{
    if (m > n) {
        int t = m;
        m = n;
        n = t;
    }
    long deg = (long)m * n;
    if (u <= 0)
        return 1.0;
    if (u > deg)
        return 0.0;
    uint64_t *f = calloc((size_t)deg + 1, sizeof *f);
    if (!f)
        return -1;
    f[0] = 1;
    for (int i = 1; i <= m; i++) {
        long a = (long)n + i;
        for (long k = deg; k >= a; k--)
            f[k] -= f[k - a];
        for (long k = i; k <= deg; k++)
            f[k] += f[k - i];
    }
    long double total = 0, tail = 0;
    for (long k = 0; k <= deg; k++) {
        total += (long double)f[k];
        if (k >= u)
            tail += (long double)f[k];
    }
    free(f);
    return (double)(tail / total);
}

int dh_mann_whitney(const double *x, int nx, const double *y, int ny, enum dh_alt alt,
                    struct dh_mwu *out)
{
    memset(out, 0, sizeof *out);
    out->p = NAN;
    if (nx < 1 || ny < 1)
        return -1;
    int n = nx + ny;
    struct ranked *a = malloc((size_t)n * sizeof *a);
    if (!a)
        return -1;
    for (int i = 0; i < nx; i++)
        a[i] = (struct ranked){x[i], 1};
    for (int i = 0; i < ny; i++)
        a[nx + i] = (struct ranked){y[i], 0};
    qsort(a, (size_t)n, sizeof *a, cmp_ranked);
    double rank_x = 0, tie_term = 0;
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && a[j + 1].v == a[i].v)
            j++;
        double rank = 0.5 * (i + j) + 1.0;   /* average of ranks i+1..j+1 */
        double t = j - i + 1;
        tie_term += t * t * t - t;
        for (int k = i; k <= j; k++)
            if (a[k].from_x)
                rank_x += rank;
        i = j + 1;
    }
    free(a);
    double u1 = rank_x - 0.5 * nx * (nx + 1.0);
    double u2 = (double)nx * ny - u1;
    out->u = u1;
    double u = alt == DH_ALT_GREATER ? u1 : alt == DH_ALT_LESS ? u2 : fmax(u1, u2);
    double p;
    if (tie_term == 0 && log_choose(n, nx) < 62.0 * M_LN2) {
        p = exact_sf(nx, ny, lround(u));
        if (p < 0)
            return -1;
        out->exact = 1;
    } else {
        double mu = 0.5 * nx * ny;
        double s = sqrt(nx * (double)ny / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0))));
        if (!(s > 0)) {
            p = 1.0;         /* every value tied: no evidence either way */
        } else {
            double z = (u - mu - 0.5) / s;   /* continuity correction */
            p = 0.5 * erfc(z / M_SQRT2);
        }
    }
    if (alt == DH_ALT_TWO_SIDED)
        p *= 2;
    out->p = fmin(1.0, fmax(0.0, p));
    return 0;
}

/* ---- verdicts ---- */

static const char *const verdict_names[DH_V__COUNT] = {
    [DH_V_SAME] = "same",       [DH_V_FASTER] = "faster",       [DH_V_SLOWER] = "slower",
    [DH_V_AMBIGUOUS] = "ambiguous", [DH_V_WRONG] = "wrong",     [DH_V_FAILED] = "failed",
    [DH_V_UNTIMED] = "untimed", [DH_V_ONLY_BASE] = "only-base", [DH_V_ONLY_NEW] = "only-new",
};

const char *dh_verdict_name(enum dh_verdict v)
{
    return (unsigned)v < DH_V__COUNT ? verdict_names[v] : "?";
}

void dh_cmp_opts_default(struct dh_cmp_opts *o)
{
    memset(o, 0, sizeof *o);
    o->threshold = 0.05;
    o->alpha = 0.05;
    o->max_spread = 0.10;
    o->min_samples = 10;
    o->host_threshold = DH_CMP_HOST_THRESHOLD;
    o->host_min_samples = DH_CMP_HOST_MIN_SAMPLES;
    o->cfe_drop = 0.02;
}

static double rel_spread(const struct dh_stats *s)
{
    return s->median > 0 ? s->mad / s->median : INFINITY;
}

void dh_cmp_metric_eval(const char *name, const double *base, int nb, const double *cur,
                        int nn, const struct dh_cmp_opts *o, struct dh_cmp_metric *m)
{
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "%s", name);
    m->n_base = nb;
    m->n_new = nn;
    m->p_slower = m->p_faster = NAN;
    m->verdict = DH_V_AMBIGUOUS;
    struct dh_stats sb, sn;
    dh_stats_center(base, nb, &sb);
    dh_stats_center(cur, nn, &sn);
    m->med_base = sb.median;
    m->med_new = sn.median;
    m->ratio = nb > 0 && nn > 0 && sb.median > 0 ? sn.median / sb.median : NAN;
    m->spread = nb > 0 && nn > 0 ? fmax(rel_spread(&sb), rel_spread(&sn)) : NAN;
    m->threshold = fmax(o->threshold, 2 * m->spread);
    if (nb < o->min_samples || nn < o->min_samples) {
        snprintf(m->why, sizeof m->why, "too few samples: %d base, %d new (want %d each)", nb,
                 nn, o->min_samples);
        return;
    }
    if (!isfinite(m->ratio) || !isfinite(m->spread)) {
        snprintf(m->why, sizeof m->why, "zero median: no ratio");
        return;
    }
    struct dh_mwu s, f;
    if (dh_mann_whitney(cur, nn, base, nb, DH_ALT_GREATER, &s)
            || dh_mann_whitney(cur, nn, base, nb, DH_ALT_LESS, &f)) {
        snprintf(m->why, sizeof m->why, "out of memory in the rank test");
        return;
    }
    m->p_slower = s.p;
    m->p_faster = f.p;
    m->exact = s.exact;
    int up = m->ratio >= 1 + m->threshold, down = m->ratio <= 1 / (1 + m->threshold);
    if (up && s.p < o->alpha) {
        m->verdict = DH_V_SLOWER;
    } else if (down && f.p < o->alpha) {
        m->verdict = DH_V_FASTER;
    } else if (up || down) {
        snprintf(m->why, sizeof m->why, "median %+.1f%% but the rank test does not back it "
                 "(p=%.3g)", 100 * (m->ratio - 1), up ? s.p : f.p);
    } else if ((s.p < o->alpha && m->ratio >= 1 + m->threshold / 2)
               || (f.p < o->alpha && m->ratio <= 1 / (1 + m->threshold / 2))) {
        /* the grey zone: a significant change of more than half the threshold may be a
         * real regression that this case's noise hides; "same" would claim too much */
        snprintf(m->why, sizeof m->why, "significant %+.1f%% (p=%.3g) but below the %.1f%% "
                 "threshold", 100 * (m->ratio - 1), fmin(s.p, f.p), 100 * m->threshold);
    } else if (m->spread > o->max_spread) {
        /* the threshold grew with the noise: "same" would claim too much */
        snprintf(m->why, sizeof m->why, "too noisy: spread %.1f%% > %.0f%%", 100 * m->spread,
                 100 * o->max_spread);
    } else {
        m->verdict = DH_V_SAME;
        if (s.p < o->alpha || f.p < o->alpha)
            snprintf(m->why, sizeof m->why, "significant (p=%.3g) but below the %.1f%% "
                     "threshold", fmin(s.p, f.p), 100 * m->threshold);
    }
}

static void note_add(struct dh_cmp_case *cc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void note_add(struct dh_cmp_case *cc, const char *fmt, ...)
{
    size_t o = strlen(cc->note);
    if (o && o + 2 < sizeof cc->note) {
        strcpy(cc->note + o, "; ");
        o += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cc->note + o, sizeof cc->note - o, fmt, ap);
    va_end(ap);
}

int dh_cmp_e2e_samples(const struct dh_result *r, double *out)
{
    /* dh_e2e_sample pairs repetition i with host sample i mod n_host: past
     * n_host that repeats host samples, which the rank test would count as
     * independent ones */
    int h = r->n > 0 ? dh_host_count(r) : 0;
    for (int i = 0; i < h; i++)
        out[i] = r->kernel_ms[i] + r->host_ms[i] + r->xfer_ms[i];
    return h;
}

/* The part of every host sample that was measured once: a BBV regrouping
 * (regroup=sort|greedy|greedymax; suites/lib/regroup.c, dh_regroup_exec)
 * adds to each sample the acquisition of the workload's BBVs (the
 * profiling run and the download: <model acquire_ms>), timed once when the
 * workload's BBVs were made, or read with them from the workload cache.
 * One measurement is no sample of the case's spread: on an H200 it ranged
 * 48-94 ms between runs of one workload, and the rank test, seeing it in
 * every sample, called whole workloads "slower" in A/A pairs. 0: none. */
double dh_cmp_once_ms(const struct dh_run *u)
{
    if (strcmp(u->c.variant, "cpu_tdr") || !u->r.model.valid
        || !isfinite(u->r.model.acquire_ms) || u->r.model.acquire_ms <= 0)
        return 0;
    const char *g = dh_pset_text(&u->c.params, "regroup", "");
    if (strcmp(g, "sort") && strcmp(g, "greedy") && strcmp(g, "greedymax"))
        return 0;
    return u->r.model.acquire_ms;
}

static int has_host_work(const struct dh_run *u)
{
    for (int i = 0; i < u->r.n; i++)
        if (u->r.xfer_ms[i] > 0)
            return 1;
    for (int i = 0; i < (u->r.n > 0 ? dh_host_count(&u->r) : 0); i++)
        if (u->r.host_ms[i] > 0)
            return 1;
    return 0;
}

/* Statuses that mean the NEW run broke (a regression), as opposed to a
 * case that did not apply or was not reached (unsupported, constraint,
 * unavailable, interrupted). */
static int is_failure_status(int s)
{
    return s == DH_E_BUILD || s == DH_E_LAUNCH || s == DH_E_TIMEOUT || s == DH_E_CRASH
        || s == DH_E_RESOURCES || s == DH_E_INTERNAL || s == DH_E_DATA || s == DH_E_IO
        || s == DH_E_OVERFLOW;
}

static void judge(struct dh_cmp_case *cc, const struct dh_cmp_opts *o)
{
    const struct dh_run *b = cc->base, *n = cc->cur;
    cc->cfe_base = b ? b->cfe : NAN;
    cc->cfe_new = n ? n->cfe : NAN;
    if (n && n->r.status == DH_E_WRONG) {
        cc->verdict = DH_V_WRONG;
        note_add(cc, "status wrong: %ld of %ld outputs differ from the CPU reference%s",
                 n->r.verify.mismatches, n->r.verify.checked,
                 b ? "" : " (case not in BASE)");
        return;
    }
    if (!n) {
        cc->verdict = DH_V_ONLY_BASE;
        note_add(cc, "in BASE only: not run in NEW%s", b->c.instrumented
                 ? " (an instrumented, BBV-counting build: never compared with a plain one)"
                 : "");
        return;
    }
    if (!b) {
        cc->verdict = DH_V_ONLY_NEW;
        note_add(cc, "in NEW only: not in BASE%s", n->c.instrumented
                 ? " (an instrumented, BBV-counting build: never compared with a plain one)"
                 : "");
        return;
    }
    char tb[256], tn[256];
    dh_pset_format(&b->c.params, DH_P_TUNABLE, tb, sizeof tb);
    dh_pset_format(&n->c.params, DH_P_TUNABLE, tn, sizeof tn);
    if (strcmp(tb, tn))
        note_add(cc, "tunables moved: %s -> %s", tb[0] ? tb : "(none)", tn[0] ? tn : "(none)");
    if (n->r.status != 0) {
        int timed_before = b->r.status == 0 && b->r.n > 0;
        cc->verdict = timed_before && is_failure_status(n->r.status) ? DH_V_FAILED
                                                                      : DH_V_UNTIMED;
        note_add(cc, "NEW status %s (BASE %s)%s%s", dh_err_name(n->r.status),
                 dh_err_name(b->r.status), n->r.message[0] ? ": " : "", n->r.message);
        return;
    }
    if (b->r.status != 0 || b->r.n < 1) {
        cc->verdict = DH_V_UNTIMED;
        note_add(cc, "no BASE timings (BASE status %s)", dh_err_name(b->r.status));
        return;
    }
    dh_cmp_metric_eval("kernel", b->r.kernel_ms, b->r.n, n->r.kernel_ms, n->r.n, o, &cc->m[0]);
    cc->n_metrics = 1;
    if (has_host_work(b) || has_host_work(n)) {
        double eb[DH_MAX_SAMPLES], en[DH_MAX_SAMPLES];
        int kb = dh_cmp_e2e_samples(&b->r, eb), kn = dh_cmp_e2e_samples(&n->r, en);
        struct dh_cmp_opts oh = *o;
        oh.threshold = o->host_threshold;
        oh.min_samples = o->host_min_samples;
        /* the once-measured part held at BASE's on both sides (the change
         * judged at e2e's scale), NEW's said apart, unjudged */
        double ob = dh_cmp_once_ms(b), on = dh_cmp_once_ms(n);
        int hold = ob > 0 && on > 0;
        for (int i = 0; hold && i < kn; i++)
            en[i] += ob - on;
        dh_cmp_metric_eval("e2e", eb, kb, en, kn, &oh, &cc->m[1]);
        cc->m[1].held = hold;
        cc->m[1].held_ms = hold ? ob - on : 0;
        cc->m[1].acq_base = hold ? ob : NAN;
        cc->m[1].acq_new = hold ? on : NAN;
        if (hold && on != ob)
            note_add(cc, "e2e* holds the BBVs' acquisition, measured once per workload, at "
                     "BASE's %.3f ms on both sides; NEW's was %.3f ms (%+.1f%%, one "
                     "measurement a side: not judged)", ob, on, 100.0 * (on - ob) / ob);
        else if ((ob > 0) != (on > 0))
            note_add(cc, "e2e includes the BBVs' acquisition, measured once per workload, "
                     "known on one side only (%s): judged with it", ob > 0 ? "BASE" : "NEW");
        cc->n_metrics = 2;
    }
    /* slower beats ambiguous beats faster beats same */
    static const int rank[] = {[DH_V_SAME] = 0, [DH_V_FASTER] = 1, [DH_V_AMBIGUOUS] = 2,
                               [DH_V_SLOWER] = 3};
    cc->verdict = DH_V_SAME;
    for (int k = 0; k < cc->n_metrics; k++)
        if (rank[cc->m[k].verdict] > rank[cc->verdict])
            cc->verdict = cc->m[k].verdict;
    if (isfinite(cc->cfe_base) && isfinite(cc->cfe_new)) {
        if (strcmp(b->cfe_source, n->cfe_source))
            note_add(cc, "CFE source changed (%s -> %s): not compared", b->cfe_source,
                     n->cfe_source);
        else if (cc->cfe_new < cc->cfe_base - o->cfe_drop)
            cc->cfe_drop = 1;
    }
}

static void match_key(const struct dh_case *c, int nodev, char *out, size_t len)
{
    if (!nodev) {
        snprintf(out, len, "%s", c->id);
        return;
    }
    static struct dh_case t;     /* large; not reentrant, like the rest of compare */
    t = *c;
    t.device_name[0] = 0;
    dh_case_identity(&t);
    snprintf(out, len, "%s", t.id);
}

int dh_compare(const struct dh_resultfile *base, const struct dh_resultfile *cur,
               const struct dh_cmp_opts *o, struct dh_cmp *out, struct dh_err *err)
{
    memset(out, 0, sizeof *out);
    int nb = base->n_runs, nn = cur->n_runs;
    char (*kb)[768] = malloc((size_t)(nb ? nb : 1) * sizeof *kb);
    char (*kn)[768] = malloc((size_t)(nn ? nn : 1) * sizeof *kn);
    char *used = calloc((size_t)(nb ? nb : 1), 1);
    out->cases = calloc((size_t)(nb + nn ? nb + nn : 1), sizeof *out->cases);
    if (!kb || !kn || !used || !out->cases) {
        free(kb);
        free(kn);
        free(used);
        dh_cmp_free(out);
        return dh_err_set(err, DH_E_RESOURCES, "out of memory comparing results");
    }
    for (int i = 0; i < nb; i++)
        match_key(&base->runs[i].c, o->allow_device_change, kb[i], sizeof kb[i]);
    for (int i = 0; i < nn; i++)
        match_key(&cur->runs[i].c, o->allow_device_change, kn[i], sizeof kn[i]);
    for (int i = 0; i < nn; i++) {
        int dup = 0;     /* a later run of the same identity wins (as in merge) */
        for (int j = i + 1; j < nn && !dup; j++)
            dup = !strcmp(kn[i], kn[j]);
        if (dup)
            continue;
        struct dh_cmp_case *cc = &out->cases[out->n++];
        cc->cur = &cur->runs[i];
        for (int j = nb - 1; j >= 0; j--)
            if (!strcmp(kn[i], kb[j])) {
                if (!cc->base)
                    cc->base = &base->runs[j];
                used[j] = 1;     /* earlier duplicates in BASE are consumed too */
            }
    }
    for (int j = nb - 1; j >= 0; j--) {
        if (used[j])
            continue;
        for (int k = 0; k < nb; k++)
            if (!strcmp(kb[j], kb[k]))
                used[k] = 1;
        out->cases[out->n++].base = &base->runs[j];
    }
    /* BASE-only cases were collected backwards: restore file order */
    int first_only = 0;
    while (first_only < out->n && out->cases[first_only].cur)
        first_only++;
    for (int a = first_only, z = out->n - 1; a < z; a++, z--) {
        struct dh_cmp_case t = out->cases[a];
        out->cases[a] = out->cases[z];
        out->cases[z] = t;
    }
    free(kb);
    free(kn);
    free(used);
    for (int i = 0; i < out->n; i++) {
        struct dh_cmp_case *cc = &out->cases[i];
        judge(cc, o);
        cc->failure = cc->verdict == DH_V_SLOWER || cc->verdict == DH_V_WRONG
                      || cc->verdict == DH_V_FAILED || cc->cfe_drop;
        out->count[cc->verdict]++;
        out->n_cfe_drop += cc->cfe_drop;
        out->n_failures += cc->failure;
        if (cc->base && cc->cur)
            out->n_matched++;
        if (cc->verdict <= DH_V_AMBIGUOUS)
            out->n_judged++;
    }
    return 0;
}

void dh_cmp_free(struct dh_cmp *c)
{
    free(c->cases);
    c->cases = NULL;
    c->n = 0;
}

/* ---- devices and labels ---- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted, distinct "backend:device name" of the runs, joined by ", ". */
static void device_set(const struct dh_resultfile *f, char *out, size_t len)
{
    char **v = malloc((size_t)(f->n_runs ? f->n_runs : 1) * sizeof *v);
    out[0] = 0;
    if (!v)
        return;
    int k = 0;
    for (int i = 0; i < f->n_runs; i++) {
        char buf[300];
        snprintf(buf, sizeof buf, "%s:%s", f->runs[i].c.backend, f->runs[i].c.device_name);
        int seen = 0;
        for (int j = 0; j < k && !seen; j++)
            seen = !strcmp(v[j], buf);
        if (!seen && (v[k] = strdup(buf)))
            k++;
    }
    qsort(v, (size_t)k, sizeof *v, cmp_str);
    size_t o = 0;
    for (int i = 0; i < k; i++) {
        if (o < len)
            o += (size_t)snprintf(out + o, len - o, "%s%s", i ? ", " : "", v[i]);
        free(v[i]);
    }
    free(v);
}

int dh_cmp_devices_differ(const struct dh_resultfile *base, const struct dh_resultfile *cur,
                          char *why, size_t len)
{
    char a[2048], b[2048];
    device_set(base, a, sizeof a);
    device_set(cur, b, sizeof b);
    if (!strcmp(a, b))
        return 0;
    snprintf(why, len, "BASE ran on [%s], NEW on [%s]", a[0] ? a : "no runs",
             b[0] ? b : "no runs");
    return 1;
}

int dh_varying_workload(const struct dh_case *const *cases, int n, char (*names)[24], int max)
{
    int k = 0;
    /* every name looked at once, varying or not (a name the same in every
     * case would otherwise be looked at again for each case: n x n) */
    const char **done = NULL;
    int n_done = 0, cap = 0;
    for (int i = 0; i < n; i++) {
        const struct dh_pset *ps = &cases[i]->params;
        for (int p = 0; p < ps->n; p++) {
            if (ps->v[p].kind != DH_P_WORKLOAD)
                continue;
            const char *nm = ps->v[p].name;
            int seen = 0;
            for (int j = 0; j < n_done && !seen; j++)
                seen = !strcmp(done[j], nm);
            if (seen || k >= max)
                continue;
            const char *first = dh_pset_text(&cases[0]->params, nm, "");
            int varies = 0;
            for (int j = 1; j < n && !varies; j++)
                varies = strcmp(first, dh_pset_text(&cases[j]->params, nm, "")) != 0;
            if (varies)
                snprintf(names[k++], 24, "%s", nm);
            if (n_done == cap) {
                int c2 = cap ? 2 * cap : 16;
                const char **v = realloc(done, (size_t)c2 * sizeof *v);
                if (!v)
                    continue;   /* looked at again next time: the same answer */
                done = v;
                cap = c2;
            }
            done[n_done++] = nm;
        }
    }
    free(done);
    /* a stable order: by name */
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char t[24];
            memcpy(t, names[j], 24);
            memcpy(names[j], names[j - 1], 24);
            memcpy(names[j - 1], t, 24);
        }
    return k;
}

void dh_workload_short(const struct dh_case *c, char (*names)[24], int n_names, char *out,
                       size_t len)
{
    size_t o = 0;
    out[0] = 0;
    for (int i = 0; i < n_names && o < len; i++) {
        const char *v = dh_pset_text(&c->params, names[i], NULL);
        if (v)
            o += (size_t)snprintf(out + o, len - o, "%s%s=%s", o ? " " : "", names[i], v);
    }
}
