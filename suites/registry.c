/* registry.c — every benchmark, by suite. Adding a benchmark: its folder
 * plus one line here (and its kernel in the Makefile's EMBED list). */
#include <stdio.h>
#include <string.h>

#include "suite.h"

extern const struct dh_bench dh_bench_micro_branch;
extern const struct dh_bench dh_bench_frontier_gdt;
extern const struct dh_bench dh_bench_frontier_cvp;
extern const struct dh_bench dh_bench_frontier_pol;
extern const struct dh_bench dh_bench_parboil_lbm;
extern const struct dh_bench dh_bench_parboil_pb;
extern const struct dh_bench dh_bench_parboil_histo;
extern const struct dh_bench dh_bench_rodinia_srad;
extern const struct dh_bench dh_bench_rodinia_bfs;
extern const struct dh_bench dh_bench_rodinia_lud;
extern const struct dh_bench dh_bench_darm_bit;
extern const struct dh_bench dh_bench_darm_dct;
extern const struct dh_bench dh_bench_darm_nqu;
extern const struct dh_bench dh_bench_darm_ms;
extern const struct dh_bench dh_bench_darm_pcm;
extern const struct dh_bench dh_bench_bbv_mc;
extern const struct dh_bench dh_bench_bbv_sw;

static const struct dh_bench *const table[] = {
    &dh_bench_micro_branch,
    &dh_bench_frontier_gdt,
    &dh_bench_frontier_cvp,
    &dh_bench_frontier_pol,
    &dh_bench_parboil_lbm,
    &dh_bench_parboil_pb,
    &dh_bench_parboil_histo,
    &dh_bench_rodinia_srad,
    &dh_bench_rodinia_bfs,
    &dh_bench_rodinia_lud,
    &dh_bench_darm_bit,
    &dh_bench_darm_dct,
    &dh_bench_darm_nqu,
    &dh_bench_darm_ms,
    &dh_bench_darm_pcm,
    &dh_bench_bbv_mc,
    &dh_bench_bbv_sw,
};

#define N_BENCH ((int)(sizeof table / sizeof table[0]))

int dh_bench_count(void) { return N_BENCH; }

const struct dh_bench *dh_bench_at(int i)
{
    return i >= 0 && i < N_BENCH ? table[i] : NULL;
}

int dh_suite_has(const char *suite, const struct dh_bench *b)
{
    return !suite || !strcmp(suite, "all") || !strcmp(b->suite, suite);
}

const struct dh_bench *dh_bench_find(const char *suite, const char *name)
{
    for (int i = 0; i < N_BENCH; i++)
        if (dh_suite_has(suite, table[i]) && !strcmp(table[i]->name, name))
            return table[i];
    return NULL;
}

int dh_suite_exists(const char *suite)
{
    if (!strcmp(suite, "all"))
        return 1;
    for (int i = 0; i < N_BENCH; i++)
        if (!strcmp(table[i]->suite, suite))
            return 1;
    return 0;
}

const char *dh_suite_names(void)
{
    static char buf[256];
    buf[0] = 0;
    for (int i = 0; i < N_BENCH; i++) {
        int dup = 0;
        for (int j = 0; j < i; j++)
            dup |= !strcmp(table[i]->suite, table[j]->suite);
        if (!dup)
            snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s",
                     buf[0] ? ", " : "", table[i]->suite);
    }
    return buf;
}

int dh_bench_has_variant(const struct dh_bench *b, const char *variant)
{
    size_t vl = strlen(variant);
    for (const char *p = b->variants; *p;) {
        const char *c = strchr(p, ',');
        size_t l = c ? (size_t)(c - p) : strlen(p);
        if (l == vl && !strncmp(p, variant, l))
            return 1;
        if (!c)
            break;
        p = c + 1;
    }
    return 0;
}
