/* params.c — parsing and checking parameter values against domains. */
#include "params.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../backends/errors.h"

const char *dh_pkind_name(enum dh_pkind k)
{
    switch (k) {
    case DH_P_WORKLOAD: return "workload";
    case DH_P_CHOICE: return "choice";
    case DH_P_TUNABLE: return "tunable";
    }
    return "?";
}

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
    size_t i = 0;
    while (s[i] && isspace((unsigned char)s[i]))
        i++;
    memmove(s, s + i, n - i + 1);
}

int dh_param_split(const char *kv, char *name, size_t nlen, char *val, size_t vlen,
                   char *why, size_t why_len)
{
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv) {
        snprintf(why, why_len, "parameter '%s' is not of the form NAME=VALUE "
                 "(e.g. --param paths=4)", kv);
        return -DH_E_USAGE;
    }
    size_t n = (size_t)(eq - kv);
    if (n >= nlen || strlen(eq + 1) >= vlen) {
        snprintf(why, why_len, "parameter '%s' is too long", kv);
        return -DH_E_USAGE;
    }
    memcpy(name, kv, n);
    name[n] = 0;
    snprintf(val, vlen, "%s", eq + 1);
    trim(name);
    trim(val);
    if (!*name || !*val) {
        snprintf(why, why_len, "parameter '%s' has an empty name or value", kv);
        return -DH_E_USAGE;
    }
    return 0;
}

static int parse_int(const char *s, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end)
        return -1;
    *out = v;
    return 0;
}

static int parse_real(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

/* Is `word` in the comma list `list`? Returns its index or -1. */
static int list_index(const char *list, const char *word)
{
    size_t wl = strlen(word);
    int idx = 0;
    for (const char *p = list; *p;) {
        const char *c = strchr(p, ',');
        size_t l = c ? (size_t)(c - p) : strlen(p);
        if (l == wl && !strncmp(p, word, l))
            return idx;
        idx++;
        if (!c)
            break;
        p = c + 1;
    }
    return -1;
}

int dh_domain_check(const char *domain, const char *val, double *num,
                    char *why, size_t why_len)
{
    const char *colon = strchr(domain, ':');
    if (!colon) {
        snprintf(why, why_len, "bad domain '%s'", domain);
        return -DH_E_INTERNAL;
    }
    const char *spec = colon + 1;
    const char *dots = strstr(spec, "..");
    if (!strncmp(domain, "enum:", 5)) {
        int i = list_index(spec, val);
        if (i < 0) {
            snprintf(why, why_len, "'%s' is not one of: %s", val, spec);
            return -DH_E_USAGE;
        }
        *num = i;
        return 0;
    }
    if (!strncmp(domain, "int:", 4)) {
        long v;
        if (parse_int(val, &v)) {
            snprintf(why, why_len, "'%s' is not an integer (valid: %s)", val, spec);
            return -DH_E_USAGE;
        }
        if (dots) {
            long lo = atol(spec), hi = atol(dots + 2);
            if (v < lo || v > hi) {
                snprintf(why, why_len, "%ld is outside %ld..%ld", v, lo, hi);
                return -DH_E_USAGE;
            }
        } else {
            /* by value: "04" is 4, which the list may hold */
            int found = 0;
            for (const char *p = spec; *p && !found;) {
                char *end;
                long w = strtol(p, &end, 10);
                found = end != p && w == v;
                const char *c = strchr(p, ',');
                if (!c)
                    break;
                p = c + 1;
            }
            if (!found) {
                snprintf(why, why_len, "%s is not one of: %s", val, spec);
                return -DH_E_USAGE;
            }
        }
        *num = (double)v;
        return 0;
    }
    if (!strncmp(domain, "real:", 5)) {
        double v;
        if (parse_real(val, &v)) {
            snprintf(why, why_len, "'%s' is not a number (valid: %s)", val, spec);
            return -DH_E_USAGE;
        }
        if (dots) {
            double lo = atof(spec), hi = atof(dots + 2);
            if (v < lo || v > hi) {
                snprintf(why, why_len, "%g is outside %g..%g", v, lo, hi);
                return -DH_E_USAGE;
            }
        }
        *num = v;
        return 0;
    }
    snprintf(why, why_len, "bad domain '%s'", domain);
    return -DH_E_INTERNAL;
}

const struct dh_param_def *dh_param_find(const struct dh_param_def *defs,
                                         const char *name)
{
    for (; defs && defs->name; defs++)
        if (!strcmp(defs->name, name))
            return defs;
    return NULL;
}

int dh_param_used_by(const struct dh_param_def *d, const char *variant)
{
    return !d->variants || list_index(d->variants, variant) >= 0;
}

const struct dh_pval *dh_pset_find(const struct dh_pset *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->v[i].name, name))
            return &s->v[i];
    return NULL;
}

int dh_pset_put(struct dh_pset *s, const char *name, const char *text, double num,
                enum dh_pkind kind)
{
    struct dh_pval *v = (struct dh_pval *)dh_pset_find(s, name);
    if (!v) {
        if (s->n >= DH_MAX_PARAMS)
            return -DH_E_INTERNAL;
        v = &s->v[s->n++];
    }
    snprintf(v->name, sizeof v->name, "%s", name);
    snprintf(v->text, sizeof v->text, "%s", text);
    v->num = num;
    v->kind = kind;
    return 0;
}

const char *dh_pset_text(const struct dh_pset *s, const char *name, const char *dflt)
{
    const struct dh_pval *v = dh_pset_find(s, name);
    return v ? v->text : dflt;
}

double dh_pset_num(const struct dh_pset *s, const char *name, double dflt)
{
    const struct dh_pval *v = dh_pset_find(s, name);
    return v ? v->num : dflt;
}

void dh_pset_del(struct dh_pset *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->v[i].name, name)) {
            memmove(&s->v[i], &s->v[i + 1], (size_t)(s->n - i - 1) * sizeof s->v[0]);
            s->n--;
            return;
        }
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct dh_pval *)a)->name, ((const struct dh_pval *)b)->name);
}

void dh_pset_sort(struct dh_pset *s)
{
    qsort(s->v, (size_t)s->n, sizeof s->v[0], by_name);
}

void dh_pset_format(const struct dh_pset *s, enum dh_pkind kind, char *out, size_t len)
{
    struct dh_pset t = *s;
    dh_pset_sort(&t);
    size_t o = 0;
    out[0] = 0;
    for (int i = 0; i < t.n && o < len; i++) {
        if (kind && t.v[i].kind != kind)
            continue;
        o += (size_t)snprintf(out + o, len - o, "%s%s=%s", o ? "," : "", t.v[i].name,
                              t.v[i].text);
    }
}

int dh_param_applies(const struct dh_param_def *d, const struct dh_pset *s)
{
    if (!d->when)
        return 1;
    char name[32];
    const char *eq = strchr(d->when, '=');
    if (!eq || (size_t)(eq - d->when) >= sizeof name)
        return 1;
    memcpy(name, d->when, (size_t)(eq - d->when));
    name[eq - d->when] = 0;
    const char *v = dh_pset_text(s, name, NULL);
    return v && list_index(eq + 1, v) >= 0;
}
