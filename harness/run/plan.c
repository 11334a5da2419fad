/* plan.c — expanding a selection into cases (plan.h). */
#include "plan.h"
#include "../support/suggest.h"
#include "worker.h"
#include "../../suites/suite.h"
#include "../../suites/lib/regroup.h"

#define DH_MAX_COMBOS 256

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Next item of a comma list into buf; returns the rest or NULL at end. */
static const char *next_item(const char *list, char *buf, size_t len)
{
    if (!list || !*list)
        return NULL;
    const char *c = strchr(list, ',');
    size_t l = c ? (size_t)(c - list) : strlen(list);
    if (l >= len)
        l = len - 1;
    memcpy(buf, list, l);
    buf[l] = 0;
    return c ? c + 1 : list + strlen(list);
}

struct growing {
    struct dh_run *v;
    int n, cap;
};

static struct dh_run *push(struct growing *g)
{
    if (g->n == g->cap) {
        int cap = g->cap ? g->cap * 2 : 64;
        struct dh_run *v = realloc(g->v, (size_t)cap * sizeof *v);
        if (!v)
            return NULL;
        g->v = v;
        g->cap = cap;
    }
    struct dh_run *r = &g->v[g->n++];
    memset(r, 0, sizeof *r);
    return r;
}

/* Apply "k=v k=v" to the case (workload values of a sweep point). */
static int apply_point(struct dh_case *c, const char *point, struct dh_err *err)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", point);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        char name[32], val[64], why[256];
        if (dh_param_split(tok, name, sizeof name, val, sizeof val, why, sizeof why))
            return dh_err_set(err, DH_E_INTERNAL, "bad sweep point: %s", why);
        const struct dh_param_def *d = dh_param_find(c->bench->params, name);
        double num;
        if (!d || dh_domain_check(d->domain, val, &num, why, sizeof why))
            return dh_err_set(err, DH_E_INTERNAL, "bad sweep point %s", tok);
        dh_pset_put(&c->params, name, val, num, d->kind);
    }
    return 0;
}

static int user_sets(const struct dh_selection *s, const char *name)
{
    size_t l = strlen(name);
    for (int i = 0; i < s->n_params; i++)
        if (!strncmp(s->params[i], name, l) && s->params[i][l] == '=')
            return 1;
    return 0;
}

/* Choice parameters the user left open, and their domains. */
struct open_choice {
    const struct dh_param_def *d;
};

static char last_why[512];

static int add_case(struct growing *g, struct dh_case *base, const struct dh_device_info *dev,
                    const struct dh_selection *sel, int explicit_choices, struct dh_err *err)
{
    char why[512];
    /* parameters that apply only under a choice (nf for alg=dgi) */
    for (const struct dh_param_def *d = base->bench->params; d && d->name; d++)
        if (!dh_param_applies(d, &base->params))
            dh_pset_del(&base->params, d->name);
    int rc = dh_space_check(base, dev, why, sizeof why);
    if (rc && explicit_choices)      /* a tunable the user set breaks a rule */
        return dh_err_set(err, DH_E_USAGE, "%s %s: %s", base->bench_name, base->variant, why);
    if (!rc && base->bench->check)
        rc = base->bench->check(base, dev, why, sizeof why);
    if (rc) {
        /* a combination that does not apply; if nothing of this benchmark
         * and variant remains, dh_plan reports the reason */
        snprintf(last_why, sizeof last_why, "%s %s: %s", base->bench_name, base->variant, why);
        return 0;
    }
    dh_case_identity(base);
    for (int i = 0; i < g->n; i++)
        if (!strcmp(g->v[i].c.id, base->id))
            return 0;
    (void)sel;
    struct dh_run *r = push(g);
    if (!r)
        return dh_err_set(err, DH_E_RESOURCES, "out of memory");
    r->c = *base;
    r->r.status = -1;
    /* inputs that would not fit are refused before anything is allocated */
    if (base->bench->device_bytes && dev) {
        uint64_t per = base->bench->device_bytes(base, 1);
        int rot = dh_rotate_for(per);
        uint64_t need = base->bench->device_bytes(base, rot);
        if (dev->global_mem_bytes && need > dev->global_mem_bytes) {
            r->r.status = DH_E_RESOURCES;
            snprintf(r->r.message, sizeof r->r.message,
                     "needs %llu bytes of device memory, %s has %llu: choose a smaller --size",
                     (unsigned long long)need, dev->name,
                     (unsigned long long)dev->global_mem_bytes);
        }
    }
    return 0;
}

/* Recursively expand open choices. */
/* a BBV regrouping (suites/lib/regroup.h knows which) */
static int needs_bbv(const char *regroup)
{
    return dh_regroup_parse(regroup) != 0;
}

static int expand(struct growing *g, struct dh_case *c, const struct dh_device_info *dev,
                  const struct dh_selection *sel, const struct open_choice *open, int n_open,
                  int explicit_choices, struct dh_err *err)
{
    if (n_open == 0)
        return add_case(g, c, dev, sel, explicit_choices, err);
    const struct dh_param_def *d = open[0].d;
    const char *list = strchr(d->domain, ':') + 1;
    char item[64];
    int idx = 0;
    for (const char *p = next_item(list, item, sizeof item); p;
         p = next_item(p, item, sizeof item), idx++) {
        /* without the profiling run, the BBV regroupings cannot run */
        if (!c->model && !strcmp(d->name, "regroup") && needs_bbv(item))
            continue;
        struct dh_case cc = *c;
        dh_pset_put(&cc.params, d->name, item, idx, DH_P_CHOICE);
        int rc = expand(g, &cc, dev, sel, open + 1, n_open - 1, explicit_choices, err);
        if (rc)
            return rc;
    }
    return 0;
}

static int plan_bench(struct growing *g, const struct dh_bench *b, const struct dh_selection *sel,
                      const char *variant, const char *backend, int device,
                      const struct dh_device_info *dev, struct dh_err *err)
{
    const char *const *sweep = b->sweep;
    static const char *const none[] = {"", NULL};
    if (!sweep || !sweep[0])
        sweep = none;
    for (int si = 0; sweep[si]; si++) {
        struct dh_case c;
        memset(&c, 0, sizeof c);
        c.bench = b;
        snprintf(c.suite, sizeof c.suite, "%s", b->suite);
        snprintf(c.bench_name, sizeof c.bench_name, "%s", b->name);
        snprintf(c.variant, sizeof c.variant, "%s", variant);
        snprintf(c.backend, sizeof c.backend, "%s", backend);
        c.device = device;
        snprintf(c.device_name, sizeof c.device_name, "%s", dev ? dev->name : "?");
        snprintf(c.size, sizeof c.size, "%s", sel->size);
        c.reps = sel->reps;
        c.reps_target = sel->reps_target > 0 ? sel->reps_target : 0.01;
        c.reps_max = sel->reps_max > 0 ? sel->reps_max : 100;
        c.warmup = sel->warmup;
        c.timeout_s = sel->timeout_s;
        c.profile = sel->profile < 0 ? (dev && dev->has_counters) : sel->profile;
        c.model = sel->model;
        c.instrumented = sel->instrumented;
        c.remap_overhead = sel->remap_overhead && !strcmp(variant, "gpu_tdr");
        struct open_choice open[8];
        int n_open = 0, explicit_choices = 0;
        /* defaults of every parameter this variant uses */
        for (const struct dh_param_def *d = b->params; d && d->name; d++) {
            if (!dh_param_used_by(d, variant))
                continue;
            double num = 0;
            char why[256];
            if (d->def)
                dh_domain_check(d->domain, d->def, &num, why, sizeof why);
            if (d->kind == DH_P_CHOICE && !user_sets(sel, d->name) && n_open < 8) {
                if (!strncmp(d->domain, "enum:", 5))
                    open[n_open++].d = d;
                continue;
            }
            if (d->def)
                dh_pset_put(&c.params, d->name, d->def, num, d->kind);
        }
        int rc = apply_point(&c, sweep[si], err);
        if (rc)
            return rc;
        /* the user's values win */
        for (int i = 0; i < sel->n_params; i++) {
            char name[32], val[64], why[256];
            dh_param_split(sel->params[i], name, sizeof name, val, sizeof val, why, sizeof why);
            const struct dh_param_def *d = dh_param_find(b->params, name);
            if (!d || !dh_param_used_by(d, variant))
                continue;
            double num;
            dh_domain_check(d->domain, val, &num, why, sizeof why);
            dh_pset_put(&c.params, name, val, num, d->kind);
            if (d->kind == DH_P_TUNABLE)
                explicit_choices = 1;       /* here: the user set a tunable */
        }
        rc = expand(g, &c, dev, sel, open, n_open, explicit_choices, err);
        if (rc)
            return rc;
    }
    return 0;
}

/* " (did you mean X?)" for a mistyped name among list's, else "" */
static const char *did_you_mean(const char *word, const char *list, char *buf, size_t len)
{
    char s[64];
    if (dh_suggest_list(word, list, s, sizeof s))
        return "";
    snprintf(buf, len, " (did you mean %s?)", s);
    return buf;
}

static void list_params(const struct dh_bench *b, char *out, size_t len)
{
    out[0] = 0;
    for (const struct dh_param_def *d = b->params; d && d->name; d++)
        snprintf(out + strlen(out), len - strlen(out), "%s%s", out[0] ? ", " : "", d->name);
}

/* Every selected benchmark with parameter `name` takes `one` (each has its
 * own domain: rodinia's srad and lud both have bs). Else a usage error that
 * names the one refusing, those taking it and --bench, or, where none
 * takes it, each one's values. */
static int value_taken(const struct dh_bench *const *benches, int nb, const char *suite,
                       const char *name, const char *one, struct dh_err *err)
{
    double num;
    char why[256], ok[256] = "", doms[512] = "";
    int refuser = -1, ndom = 0;
    for (int k = 0; k < nb; k++) {
        const struct dh_param_def *dk = dh_param_find(benches[k]->params, name);
        if (!dk)
            continue;
        const char *colon = strchr(dk->domain, ':');
        snprintf(doms + strlen(doms), sizeof doms - strlen(doms), "%s%s %s",
                 ndom++ ? "; " : "", benches[k]->name, colon ? colon + 1 : dk->domain);
        if (!dh_domain_check(dk->domain, one, &num, refuser < 0 ? why : NULL,
                             refuser < 0 ? sizeof why : 0))
            snprintf(ok + strlen(ok), sizeof ok - strlen(ok), "%s%s", ok[0] ? "," : "",
                     benches[k]->name);
        else if (refuser < 0)
            refuser = k;
    }
    if (refuser < 0)
        return 0;
    if (ok[0])
        return dh_err_set(err, DH_E_USAGE, "--param %s=%s: %s/%s: %s; %s takes it: choose "
                          "with --bench %s", name, one, suite, benches[refuser]->name, why, ok,
                          ok);
    if (ndom > 1)
        return dh_err_set(err, DH_E_USAGE, "--param %s=%s: outside %s's domain in every "
                          "selected benchmark (%s)", name, one, name, doms);
    return dh_err_set(err, DH_E_USAGE, "--param %s=%s: %s", name, one, why);
}

int dh_plan(const struct dh_selection *sel, const struct dh_devlist *devs,
            struct dh_run **runs, int *n_runs, struct dh_err *err)
{
    struct growing g = {0};
    const char *all_variants = "baseline,cpu_tdr,gpu_tdr,melded";
    char mean[96];
    if (!sel->bench && (!sel->suite || !dh_suite_exists(sel->suite)))
        return dh_err_set(err, DH_E_USAGE, "unknown suite '%s'%s: choose one of %s, or all",
                          sel->suite ? sel->suite : "",
                          did_you_mean(sel->suite ? sel->suite : "", dh_suite_names(), mean,
                                       sizeof mean), dh_suite_names());
    if (!dh_size_valid(sel->size))
        return dh_err_set(err, DH_E_USAGE, "unknown size '%s': choose one of %s", sel->size,
                          DH_SIZES);
    /* benchmarks */
    const struct dh_bench *benches[64];
    int nb = 0;
    char item[64];
    if (sel->bench) {
        benches[nb++] = sel->bench;
    } else if (sel->benches && *sel->benches) {
        for (const char *p = next_item(sel->benches, item, sizeof item); p;
             p = next_item(p, item, sizeof item)) {
            if (nb == 64)
                return dh_err_set(err, DH_E_USAGE, "--bench names more than 64 benchmarks");
            const struct dh_bench *b = dh_bench_find(sel->suite, item);
            if (!b) {
                char names[512] = "";
                for (int i = 0; i < dh_bench_count(); i++)
                    if (dh_suite_has(sel->suite, dh_bench_at(i)))
                        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                                 names[0] ? ", " : "", dh_bench_at(i)->name);
                return dh_err_set(err, DH_E_USAGE, "unknown benchmark '%s' in suite %s%s: "
                                  "choose one of %s", item, sel->suite,
                                  did_you_mean(item, names, mean, sizeof mean), names);
            }
            benches[nb++] = b;
        }
    } else {
        for (int i = 0; i < dh_bench_count() && nb < 64; i++)
            if (dh_suite_has(sel->suite, dh_bench_at(i)))
                benches[nb++] = dh_bench_at(i);
    }
    /* variants named must exist somewhere */
    const char *vlist = (!sel->variants || !strcmp(sel->variants, "all")) ? all_variants
                                                                          : sel->variants;
    for (const char *p = next_item(vlist, item, sizeof item); p;
         p = next_item(p, item, sizeof item)) {
        int known = 0;
        for (int i = 0; i < nb; i++)
            known |= dh_bench_has_variant(benches[i], item);
        /* a family by its exact name ("baselin" is none: it was taken
         * for one, being part of the list's text) */
        int family = 0;
        for (const char *q = all_variants; *q;) {
            size_t l = strcspn(q, ",");
            family |= strlen(item) == l && !strncmp(q, item, l);
            q += l + (q[l] == ',');
        }
        if (!known && !family)
            return dh_err_set(err, DH_E_USAGE, "unknown variant '%s'%s: choose from %s, or all",
                              item, did_you_mean(item, all_variants, mean, sizeof mean),
                              all_variants);
    }
    /* a BBV regrouping needs the profiling run --no-model leaves out */
    for (int i = 0; i < sel->n_params && !sel->model; i++)
        if (!strncmp(sel->params[i], "regroup=", 8)) {
            char one[64];
            for (const char *p = next_item(sel->params[i] + 8, one, sizeof one); p;
                 p = next_item(p, one, sizeof one))
                if (needs_bbv(one))
                    return dh_err_set(err, DH_E_USAGE, "regroup=%s needs the BBV profiling "
                                      "run that --no-model leaves out: drop --no-model, or "
                                      "choose regroup=key", one);
        }
    /* parameters: known to some benchmark, in domain */
    for (int i = 0; i < sel->n_params; i++) {
        char name[32], val[64], why[256];
        if (dh_param_split(sel->params[i], name, sizeof name, val, sizeof val, why, sizeof why))
            return dh_err_set(err, DH_E_USAGE, "%s", why);
        const struct dh_param_def *d = NULL;
        for (int j = 0; j < nb && !d; j++)
            d = dh_param_find(benches[j]->params, name);
        if (!d) {
            char names[512];
            list_params(benches[0], names, sizeof names);
            return dh_err_set(err, DH_E_USAGE, "unknown parameter '%s' for %s/%s%s: valid are %s",
                              name, sel->suite, benches[0]->name,
                              did_you_mean(name, names, mean, sizeof mean), names);
        }
        if (strchr(val, ',') && d->kind == DH_P_TUNABLE)
            return dh_err_set(err, DH_E_USAGE, "--param %s=%s: a tunable takes one value "
                              "(tunables are not part of a case; lists are for workload "
                              "parameters and choices)", name, val);
        char one[64];
        for (const char *q = next_item(val, one, sizeof one); q; q = next_item(q, one, sizeof one))
            if (value_taken(benches, nb, sel->suite, name, one, err))
                return -DH_E_USAGE;
        /* a value no selected variant reads would be dropped without a word */
        int used = 0;
        for (int j = 0; j < nb && !used; j++) {
            const struct dh_param_def *dj = dh_param_find(benches[j]->params, name);
            for (const char *q = next_item(vlist, item, sizeof item); q && dj && !used;
                 q = next_item(q, item, sizeof item))
                used = dh_bench_has_variant(benches[j], item) && dh_param_used_by(dj, item);
        }
        if (!used)
            return dh_err_set(err, DH_E_USAGE, "--param %s=%s: no selected variant uses %s "
                              "(it is for %s): add --variant %s, or leave it out", name, val,
                              name, d->variants ? d->variants : "every variant",
                              d->variants ? d->variants : "all");
    }
    /* devices */
    struct { const char *backend; int index; const struct dh_device_info *info; } dv[DH_MAX_DEVICES];
    int nd = 0;
    const char *blist = sel->backends && *sel->backends ? sel->backends : "opencl";
    int all = !strcmp(blist, "all");
    if (all) {
        for (int i = 0; i < devs->n_backends; i++) {
            if (!devs->b[i].n_devices)
                continue;
            int idx = sel->device < 0 ? 0 : sel->device;
            const struct dh_device_info *inf = dh_devlist_find(devs, devs->b[i].name, idx);
            if (inf) {
                dv[nd].backend = devs->b[i].name;
                dv[nd].index = idx;
                dv[nd++].info = inf;
            }
        }
        if (!nd)
            return dh_err_set(err, DH_E_UNAVAILABLE, "no backend has a device here "
                              "(see `harness devices`)");
    } else {
        for (const char *p = next_item(blist, item, sizeof item); p;
             p = next_item(p, item, sizeof item)) {
            const struct dh_backend_ops *be = dh_backend_find(item);
            if (!be)
                return dh_err_set(err, DH_E_USAGE, "unknown backend '%s': choose from %s, "
                                  "or all", item, dh_backend_names());
            for (int k = 0; k < nd; k++)
                if (!strcmp(dv[k].backend, be->name))
                    return dh_err_set(err, DH_E_USAGE, "--backend names %s twice: name each "
                                      "backend once", be->name);
            if (nd == DH_MAX_DEVICES)
                return dh_err_set(err, DH_E_USAGE, "--backend names more than %d backends",
                                  DH_MAX_DEVICES);
            const char *why = "";
            int count = 0;
            for (int i = 0; i < devs->n_backends; i++)
                if (!strcmp(devs->b[i].name, be->name)) {
                    why = devs->b[i].why;
                    count = devs->b[i].n_devices;
                }
            int idx = sel->device < 0 ? 0 : sel->device;
            const struct dh_device_info *inf = dh_devlist_find(devs, be->name, idx);
            if (!inf) {
                if (count)
                    return dh_err_set(err, DH_E_USAGE, "%s has no device %d (it has %d: "
                                      "--device 0..%d)", be->name, idx, count, count - 1);
                return dh_err_set(err, DH_E_UNAVAILABLE, "backend %s has no device: %s",
                                  be->name, why);
            }
            dv[nd].backend = be->name;
            dv[nd].index = idx;
            dv[nd++].info = inf;
        }
    }
    /* cases: grouped by device, then workload, then variant */
    /* list values (--param iters=16,256,1024) expand to one selection each */
    static char combo_text[DH_MAX_COMBOS][64][72];
    int n_combo = 1;
    struct dh_selection *combos = calloc(DH_MAX_COMBOS, sizeof *combos);
    if (!combos)
        return dh_err_set(err, DH_E_RESOURCES, "out of memory");
    combos[0] = *sel;
    for (int i = 0; i < sel->n_params; i++) {
        char name[32], val[64], why[256], one[64];
        dh_param_split(sel->params[i], name, sizeof name, val, sizeof val, why, sizeof why);
        int nv = 0;
        for (const char *q = next_item(val, one, sizeof one); q; q = next_item(q, one, sizeof one))
            nv++;
        if (n_combo * nv > DH_MAX_COMBOS) {
            free(combos);
            return dh_err_set(err, DH_E_USAGE, "the --param lists name more than %d "
                              "combinations: run them in parts", DH_MAX_COMBOS);
        }
        int k = 0;
        for (const char *q = next_item(val, one, sizeof one); q;
             q = next_item(q, one, sizeof one), k++)
            for (int c = 0; c < n_combo; c++) {
                int dst = k * n_combo + c;
                if (k)
                    combos[dst] = combos[c];
                snprintf(combo_text[dst][i], sizeof combo_text[dst][i], "%s=%s", name, one);
                combos[dst].params[i] = combo_text[dst][i];
            }
        /* earlier params of the copies point at their source's texts: copy */
        for (int k2 = 1; k2 < nv; k2++)
            for (int c = 0; c < n_combo; c++)
                for (int j = 0; j < i; j++) {
                    int dst = k2 * n_combo + c;
                    memcpy(combo_text[dst][j], combo_text[c][j], sizeof combo_text[c][j]);
                    combos[dst].params[j] = combo_text[dst][j];
                }
        n_combo *= nv;
    }
    for (int di = 0; di < nd; di++)
        for (int bi = 0; bi < nb; bi++)
            for (const char *p = next_item(vlist, item, sizeof item); p;
                 p = next_item(p, item, sizeof item)) {
                if (!dh_bench_has_variant(benches[bi], item))
                    continue;
                int before = g.n;
                last_why[0] = 0;
                int rc = 0;
                for (int ci = 0; ci < n_combo && !rc; ci++)
                    rc = plan_bench(&g, benches[bi], &combos[ci], item, dv[di].backend,
                                    dv[di].index, dv[di].info, err);
                if (!rc && g.n == before && last_why[0])
                    rc = dh_err_set(err, DH_E_USAGE, "%s", last_why);
                if (rc) {
                    free(g.v);
                    free(combos);
                    return rc;
                }
            }
    free(combos);
    /* order: workload-major (stable), so one input serves every variant */
    int *rank = malloc((size_t)(g.n ? g.n : 1) * sizeof *rank);
    if (!rank) {
        free(g.v);
        return dh_err_set(err, DH_E_RESOURCES, "out of memory");
    }
    for (int i = 0; i < g.n; i++) {
        rank[i] = i;
        for (int k = 0; k < i; k++)
            if (!strcmp(g.v[k].c.backend, g.v[i].c.backend) && g.v[k].c.device == g.v[i].c.device
                && dh_same_workload(&g.v[k].c, &g.v[i].c)) {
                rank[i] = rank[k];
                break;
            }
    }
    for (int i = 1; i < g.n; i++) {          /* insertion sort: stable */
        struct dh_run tmp = g.v[i];
        int tr = rank[i], j = i - 1;
        while (j >= 0 && rank[j] > tr) {
            g.v[j + 1] = g.v[j];
            rank[j + 1] = rank[j];
            j--;
        }
        g.v[j + 1] = tmp;
        rank[j + 1] = tr;
    }
    free(rank);
    if (!g.n) {
        free(g.v);
        char whyabs[512] = "";
        size_t o = 0;
        for (int bi = 0; bi < nb && o < sizeof whyabs; bi++)
            if (benches[bi]->absent)
                o += (size_t)snprintf(whyabs + o, sizeof whyabs - o, "; %s: %s",
                                      benches[bi]->name, benches[bi]->absent);
        return dh_err_set(err, DH_E_USAGE, "the selection names no case (no benchmark of "
                          "suite %s has the variants %s%s)", sel->suite, vlist, whyabs);
    }
    *runs = g.v;
    *n_runs = g.n;
    return 0;
}
