/* space.c — the search space of a case's tunables: candidate values from
 * each tunable's domain, pruned by the constraints (harness/run/
 * constraints.c and the benchmark's own check) before anything is
 * compiled. */
#include "tuning.h"

#include "../harness/run/plan.h"
#include "../suites/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Candidate values of a tunable: the listed values, or the powers of two
 * inside an int range and the declared default (def, when it lies in the
 * range: a default such as minb=0, "the compiler's choice", is no power of
 * two, and a space without it could not find that the default is best),
 * in increasing order. */
static int candidates(const char *domain, const char *def, long *out, int max)
{
    int n = 0;
    if (strncmp(domain, "int:", 4))
        return 0;
    const char *spec = domain + 4, *dots = strstr(spec, "..");
    if (dots) {
        long lo = atol(spec), hi = atol(dots + 2);
        char *end;
        long dv = def && *def ? strtol(def, &end, 10) : 0;
        int has_def = def && *def && !*end && dv >= lo && dv <= hi;
        for (long v = 1; v <= hi && n < max; v *= 2) {
            if (has_def && dv < v && n < max) {
                out[n++] = dv;
                has_def = 0;
            }
            if (v >= lo && n < max)
                out[n++] = v;
            if (v == dv)
                has_def = 0;
        }
        if (has_def && n < max)
            out[n++] = dv;
    } else {
        for (const char *p = spec; *p && n < max;) {
            out[n++] = atol(p);
            const char *c = strchr(p, ',');
            if (!c)
                break;
            p = c + 1;
        }
    }
    return n;
}

#define SPACE_TUNABLES 16
#define SPACE_VALUES 64         /* an int range's powers of two (at most 63) and its default */

int dh_space_enumerate(const struct dh_case *c, const struct dh_device_info *dev,
                       struct dh_pset *out, int max, int *n, int *n_total)
{
    const struct dh_param_def *tun[SPACE_TUNABLES];
    long vals[SPACE_TUNABLES][SPACE_VALUES];
    int nv[SPACE_TUNABLES], nt = 0;
    *n = *n_total = 0;
    for (const struct dh_param_def *d = c->bench->params; d && d->name; d++) {
        if (d->kind != DH_P_TUNABLE || !dh_pset_find(&c->params, d->name))
            continue;           /* absent: this variant/choice does not use it */
        if (nt == SPACE_TUNABLES)
            return -DH_E_RESOURCES;
        int k = candidates(d->domain, d->def, vals[nt], SPACE_VALUES);
        if (k > 0) {
            tun[nt] = d;
            nv[nt++] = k;
        }
    }
    long long total = 1;
    for (int t = 0; t < nt; t++)
        if ((total *= nv[t]) > DH_TUNE_MAX_SPACE)
            return -DH_E_RESOURCES;
    *n_total = (int)total;
    int over = 0;
    struct dh_case cc = *c;
    char why[512];
    for (int idx = 0; idx < total; idx++) {
        int r = idx;
        for (int t = 0; t < nt; t++) {
            char txt[32];
            long v = vals[t][r % nv[t]];
            r /= nv[t];
            snprintf(txt, sizeof txt, "%ld", v);
            dh_pset_put(&cc.params, tun[t]->name, txt, (double)v, DH_P_TUNABLE);
        }
        if (dh_space_check(&cc, dev, why, sizeof why))
            continue;
        if (cc.bench->check && cc.bench->check(&cc, dev, why, sizeof why))
            continue;
        if (!out)
            (*n)++;                     /* counting only */
        else if (*n < max)
            out[(*n)++] = cc.params;
        else
            over = 1;
    }
    return over ? -DH_E_RESOURCES : 0;   /* never a silent cut: the caller says so */
}

int dh_space_alloc(const struct dh_case *c, const struct dh_device_info *dev,
                   struct dh_pset **out, int *n, int *n_total, struct dh_err *err)
{
    *out = NULL;
    *n = *n_total = 0;
    int rc = dh_space_enumerate(c, dev, NULL, 0, n, n_total);    /* count */
    if (rc)
        return dh_err_set(err, DH_E_RESOURCES, "%s: its tunables span more than %d "
                          "configurations before pruning (or more than %d tunables): fix some "
                          "with --param k=v", c->id, DH_TUNE_MAX_SPACE, SPACE_TUNABLES);
    int pass = *n;
    *out = malloc((size_t)(pass > 0 ? pass : 1) * sizeof **out);
    if (!*out)
        return dh_err_set(err, DH_E_RESOURCES, "out of memory for a space of %d "
                          "configurations", pass);
    return dh_space_enumerate(c, dev, *out, pass, n, n_total)
           ? dh_err_set(err, DH_E_INTERNAL, "%s: the space changed between two passes", c->id)
           : 0;
}

static int tunables_differ(const struct dh_pset *a, const struct dh_pset *b, int *which)
{
    int diff = 0;
    for (int i = 0; i < a->n; i++) {
        if (a->v[i].kind != DH_P_TUNABLE)
            continue;
        const struct dh_pval *o = dh_pset_find(b, a->v[i].name);
        if (!o || o->num != a->v[i].num) {
            diff++;
            *which = i;
        }
    }
    return diff;
}

int dh_space_neighbors(const struct dh_pset *cfg, int n, int *nb, int max_nb)
{
    for (int i = 0; i < n * max_nb; i++)
        nb[i] = -1;
    for (int i = 0; i < n; i++) {
        int k = 0;
        for (int j = 0; j < n && k < max_nb; j++) {
            int w = -1;
            if (j == i || tunables_differ(&cfg[i], &cfg[j], &w) != 1)
                continue;
            /* one tunable differs: neighbours when it is one step apart
             * (a factor of two for power-of-two candidates) */
            double a = cfg[i].v[w].num, b = dh_pset_num(&cfg[j], cfg[i].v[w].name, 0);
            if (b == 2 * a || a == 2 * b)
                nb[i * max_nb + k++] = j;
        }
    }
    return 0;
}
