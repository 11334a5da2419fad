/* shard.c — a plan split over N shards (shard.h). */
#include "shard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dh_shard_parse(const char *text, int *index, int *count, char *why, size_t why_len)
{
    char *end;
    long i = strtol(text, &end, 10), n = 0;
    int ok = end != text && *end == '/';
    if (ok) {
        const char *q = end + 1;
        n = strtol(q, &end, 10);
        ok = end != q && !*end && text[0] != '-' && q[0] != '-' && q[0] != '+';
    }
    if (!ok || n < 1 || n > DH_MAX_SHARDS || i < 1 || i > n) {
        snprintf(why, why_len, "--shard %s: give I/N with 1 <= I <= N <= %d, e.g. --shard 2/4 "
                 "(the second of four)", text, DH_MAX_SHARDS);
        return -1;
    }
    *index = (int)i;
    *count = (int)n;
    return 0;
}

int dh_shard_assign(const struct dh_run *runs, int n, int count, const double *cost,
                    int *shard_of)
{
    /* workloads: group[i] = the first case of run i's workload */
    int *group = malloc((size_t)(n ? n : 1) * sizeof *group);
    int *order = malloc((size_t)(n ? n : 1) * sizeof *order);
    double *size = calloc((size_t)(n ? n : 1), sizeof *size);
    double *load = calloc((size_t)count, sizeof *load);
    if (!group || !order || !size || !load) {
        free(group);
        free(order);
        free(size);
        free(load);
        return -DH_E_RESOURCES;
    }
    int ng = 0;
    for (int i = 0; i < n; i++) {
        group[i] = i;
        /* dh_plan puts a workload's cases next to each other; look back
         * over all of them anyway, so that any order splits correctly */
        for (int k = 0; k < i; k++)
            if (group[k] == k && !strcmp(runs[k].c.backend, runs[i].c.backend)
                && runs[k].c.device == runs[i].c.device && dh_same_workload(&runs[k].c, &runs[i].c)) {
                group[i] = k;
                break;
            }
        if (group[i] == i)
            order[ng++] = i;
        size[group[i]] += cost ? cost[i] : 1;
    }
    /* largest workload first; equal ones in plan order (stable) */
    for (int a = 1; a < ng; a++)
        for (int b = a; b > 0 && size[order[b]] > size[order[b - 1]]; b--) {
            int t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    for (int a = 0; a < ng; a++) {
        int best = 0;
        for (int s = 1; s < count; s++)
            if (load[s] < load[best])
                best = s;
        load[best] += size[order[a]];
        shard_of[order[a]] = best + 1;
    }
    for (int i = 0; i < n; i++)
        shard_of[i] = shard_of[group[i]];
    free(group);
    free(order);
    free(size);
    free(load);
    return 0;
}

struct dh_plan_rec *dh_shard_plan(const struct dh_run *runs, int n, int index, int count,
                                  const double *cost)
{
    struct dh_plan_rec *p = calloc(1, sizeof *p);
    int *of = malloc((size_t)(n ? n : 1) * sizeof *of);
    if (p)
        p->ids = calloc((size_t)(n ? n : 1), sizeof *p->ids);
    if (!p || !of || !p->ids || dh_shard_assign(runs, n, count, cost, of)) {
        free(of);
        dh_plan_rec_free(p);
        return NULL;
    }
    p->cases = n;
    p->shards = count;
    p->shard = index;
    for (int i = 0; i < n; i++) {
        snprintf(p->ids[i].id, sizeof p->ids[i].id, "%s", runs[i].c.id);
        p->ids[i].shard = of[i];
    }
    dh_plan_hash(p->ids, n, p->hash);
    free(of);
    return p;
}

void dh_shard_keep(struct dh_run *runs, int *n, const struct dh_plan_rec *plan)
{
    int k = 0;
    for (int i = 0; i < *n; i++)
        if (plan->ids[i].shard == plan->shard) {
            if (k != i)
                runs[k] = runs[i];
            k++;
        }
    *n = k;
}

void dh_shard_costs(const struct dh_run *runs, int n, const struct dh_run *prev, int n_prev,
                    double *cost, int *known)
{
    double sum = 0;
    int k = 0;
    for (int i = 0; i < n; i++) {
        cost[i] = -1;
        for (int j = 0; j < n_prev; j++)
            if (!strcmp(prev[j].c.key, runs[i].c.key) && prev[j].r.case_ms > 0) {
                cost[i] = prev[j].r.case_ms;
                sum += cost[i];
                k++;
                break;
            }
    }
    double mean = k ? sum / k : 1;
    for (int i = 0; i < n; i++)
        if (cost[i] < 0)
            cost[i] = mean;
    *known = k;
}
