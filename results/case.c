/* case.c — case identity strings and keys. */
#include "case.h"

#include <stdio.h>
#include <string.h>

#include "../backends/cache.h"

void dh_case_variant_label(const struct dh_case *c, char *out, size_t len)
{
    char ch[256];
    dh_pset_format(&c->params, DH_P_CHOICE, ch, sizeof ch);
    if (ch[0])
        snprintf(out, len, "%s[%s]", c->variant, ch);
    else
        snprintf(out, len, "%s", c->variant);
}

void dh_case_identity(struct dh_case *c)
{
    char var[300], wl[400], dev[256];
    dh_case_variant_label(c, var, sizeof var);
    dh_pset_format(&c->params, DH_P_WORKLOAD, wl, sizeof wl);
    snprintf(dev, sizeof dev, "%s", c->device_name);
    for (char *p = dev; *p; p++)
        if (*p == '/')
            *p = '_';
    snprintf(c->id, sizeof c->id, "%s/%s/%s/%s/%s/%s/%s%s", c->suite,
             c->bench_name, var, c->backend, dev, c->size, wl,
             c->instrumented ? "/instrumented" : "");
    uint64_t h = dh_fnv1a64(c->id, strlen(c->id), DH_FNV_OFFSET);
    snprintf(c->key, sizeof c->key, "%016llx", (unsigned long long)h);
}

int dh_size_valid(const char *size)
{
    return !strcmp(size, "small") || !strcmp(size, "medium") || !strcmp(size, "large");
}

int dh_same_workload(const struct dh_case *a, const struct dh_case *b)
{
    char wa[400], wb[400];
    dh_pset_format(&a->params, DH_P_WORKLOAD, wa, sizeof wa);
    dh_pset_format(&b->params, DH_P_WORKLOAD, wb, sizeof wb);
    return !strcmp(a->suite, b->suite) && !strcmp(a->bench_name, b->bench_name)
        && !strcmp(a->backend, b->backend) && !strcmp(a->device_name, b->device_name)
        && !strcmp(a->size, b->size) && !strcmp(wa, wb);
}
