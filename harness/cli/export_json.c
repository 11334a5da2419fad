/* export_json.c — a results file as JSON (`harness export --json`) and its
 * tuning records as T4 (`--t4`), both built with jansson: every string
 * quoted and escaped by the library, numbers as numbers.
 *
 * The JSON document (schema: results/divharness-results.schema.json):
 * {"format": "divharness-results", "version": 1, "source", "environment",
 *  "devices": [...], "runs": [...]}; a run carries its identity, its
 * parameters as fields ("choices", "workload", "tunables": name -> value,
 * a number where the value is one), every sample ("samples": kernel_ms,
 * host_ms, xfer_ms, e2e_ms), the statistics, the speedups with the
 * baseline they are against, CFE, the remap figures and its tuning record
 * with every evaluation's runtimes.
 *
 * T4 (Kernel Tuner's results schema 1.0.0): one file per tuned case,
 * {"schema_version": "1.0.0", "metadata": {"timeunit": "milliseconds",
 * ...}, "results": [...]}, each evaluation with its configuration (the
 * variant's own tunables), "times": {"runtimes": [every repetition]},
 * invalidity, correctness and the time measurement. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "export.h"
#include "../stats/stats.h"
#include "../support/fs.h"

/* a parameter's value: a JSON number when its text is one, else a string */
static json_t *value_of(const char *text)
{
    char *end;
    double d = strtod(text, &end);
    if (*text && !*end && isfinite(d) && !strpbrk(text, "xX")) {
        long long i = fabs(d) < 9e15 ? (long long)d : 0;
        if (fabs(d) < 9e15 && (double)i == d && !strpbrk(text, ".eE"))
            return json_integer(i);
        return json_real(d);
    }
    return json_string(text);
}

/* the parameters of one kind, as an object */
static json_t *params_of(const struct dh_pset *p, enum dh_pkind kind)
{
    json_t *o = json_object();
    for (int i = 0; i < p->n; i++)
        if (p->v[i].kind == kind)
            json_object_set_new(o, p->v[i].name, value_of(p->v[i].text));
    return o;
}

/* "k=v,k=v" as an object */
static json_t *kv_object(const char *s)
{
    json_t *o = json_object();
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq)
            continue;
        *eq = 0;
        json_object_set_new(o, tok, value_of(eq + 1));
    }
    return o;
}

/* a number, or null where it is unknown */
static json_t *num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *series(const double *x, int n)
{
    json_t *a = json_array();
    for (int i = 0; x && i < n; i++)
        json_array_append_new(a, json_real(x[i]));
    return a;
}

static json_t *stats_of(const struct dh_stats *s)
{
    return json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o}", "n", s->n, "median_ms",
                     num(s->n ? s->median : NAN), "mad_ms", num(s->n ? s->mad : NAN), "min_ms",
                     num(s->n ? s->min : NAN), "max_ms", num(s->n ? s->max : NAN), "ci_lo_ms",
                     num(s->n ? s->ci_lo : NAN), "ci_hi_ms", num(s->n ? s->ci_hi : NAN));
}

static json_t *environment_of(const struct dh_env *e)
{
    json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "host", e->host, "os",
                          e->os, "kernel", e->kernel, "compiler", e->compiler, "harness",
                          e->harness, "git_revision", e->git_revision, "started", e->started,
                          "updated", e->updated, "command", e->command);
    json_t *inv = json_array();
    for (int i = 0; i < e->n_inv; i++)
        json_array_append_new(inv, json_pack("{s:i, s:s, s:s, s:s, s:s}", "n", e->inv[i].n,
                                             "started", e->inv[i].started, "harness",
                                             e->inv[i].harness, "git_revision",
                                             e->inv[i].git_revision, "host", e->inv[i].host));
    json_object_set_new(o, "invocations", inv);
    if (e->cond.valid) {
        const struct dh_conditions *c = &e->cond;
        json_object_set_new(
            o, "conditions",
            json_pack("{s:i, s:[o,o,o], s:[o,o,o], s:s, s:o, s:s}", "cpus", c->cpus,
                      "load_before", num(c->load_before[0] >= 0 ? c->load_before[0] : NAN),
                      num(c->load_before[1] >= 0 ? c->load_before[1] : NAN),
                      num(c->load_before[2] >= 0 ? c->load_before[2] : NAN), "load_after",
                      num(c->load_after[0] >= 0 ? c->load_after[0] : NAN),
                      num(c->load_after[1] >= 0 ? c->load_after[1] : NAN),
                      num(c->load_after[2] >= 0 ? c->load_after[2] : NAN), "governor",
                      c->governor, "cpu_mhz", c->cpu_mhz > 0 ? json_integer(c->cpu_mhz)
                                                             : json_null(),
                      "gpu", c->gpu));
    }
    return o;
}

static json_t *devices_of(const struct dh_devlist *d)
{
    json_t *a = json_array();
    for (int i = 0; i < d->n; i++) {
        const struct dh_device_info *x = &d->d[i].info;
        json_array_append_new(
            a, json_pack("{s:s, s:i, s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:i, s:i, s:I}",
                         "backend", d->d[i].backend, "index", d->d[i].index, "name", x->name,
                         "vendor", x->vendor, "platform", x->platform, "driver", x->driver,
                         "runtime", x->runtime, "arch", x->arch, "warp_width", x->warp_width,
                         "compute_units", x->compute_units, "max_wg", x->max_wg, "clock_mhz",
                         x->clock_mhz, "memory_bytes", (json_int_t)x->global_mem_bytes));
    }
    return a;
}

static json_t *tuning_of(const struct dh_tuning *t)
{
    json_t *ev = json_array();
    for (int k = 0; k < t->n_eval; k++) {
        const struct dh_tune_eval *e = &t->eval[k];
        json_array_append_new(
            ev, json_pack("{s:o, s:s, s:o, s:o, s:b, s:o, s:o}", "configuration",
                          kv_object(e->tunables), "status", dh_err_name(e->status), "ms",
                          num(e->ms > 0 ? e->ms : NAN), "runtimes_ms",
                          series(e->runtimes, e->n_runtimes), "from_journal", e->from_journal,
                          "wall_ms", num(e->wall_ms > 0 ? e->wall_ms : NAN), "overhead_ms",
                          num(e->wall_ms > 0 ? e->overhead_ms : NAN)));
    }
    return json_pack("{s:s, s:i, s:i, s:o, s:o, s:o}", "strategy", t->strategy, "space", t->space,
                     "space_total", t->space_total, "best",
                     t->best >= 0 && t->best < t->n_eval ? json_integer(t->best) : json_null(),
                     "default_ms", num(t->default_ms > 0 ? t->default_ms : NAN), "evaluations",
                     ev);
}

static json_t *run_of(const struct dh_run *u)
{
    const struct dh_result *r = &u->r;
    int ok = r->status == 0 && r->n > 0;
    json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:s, s:s, s:s, s:i}", "key",
                          u->c.key, "id", u->c.id, "suite", u->c.suite, "bench", u->c.bench_name,
                          "variant", u->c.variant, "backend", u->c.backend, "device_index",
                          u->c.device, "device", u->c.device_name, "size", u->c.size, "status",
                          dh_err_name(r->status), "invocation", r->invocation);
    if (!o)
        return NULL;
    if (r->status)
        json_object_set_new(o, "message", json_string(r->message));
    json_object_set_new(o, "choices", params_of(&u->c.params, DH_P_CHOICE));
    json_object_set_new(o, "workload", params_of(&u->c.params, DH_P_WORKLOAD));
    json_object_set_new(o, "tunables", params_of(&u->c.params, DH_P_TUNABLE));
    /* every sample: host and transfer where timed, e2e per repetition */
    int nh = dh_host_count(r);
    double *e2e = ok ? malloc((size_t)r->n * sizeof *e2e) : NULL;
    for (int i = 0; e2e && i < r->n; i++)
        e2e[i] = dh_e2e_sample(r, i);
    json_object_set_new(o, "samples",
                        json_pack("{s:o, s:o, s:o, s:o}", "kernel_ms",
                                  series(r->kernel_ms, ok ? r->n : 0), "host_ms",
                                  series(r->host_ms, ok ? nh : 0), "xfer_ms",
                                  series(r->xfer_ms, ok ? r->n : 0), "e2e_ms",
                                  series(e2e, e2e ? r->n : 0)));
    free(e2e);
    json_object_set_new(o, "kernel", stats_of(&u->kernel));
    json_object_set_new(o, "host", stats_of(&u->host));
    json_object_set_new(o, "e2e", stats_of(&u->e2e));
    if (u->has_speedup)
        json_object_set_new(
            o, "speedup",
            json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:s, s:o, s:b}", "kernel",
                      num(u->sp_kernel), "kernel_lo", num(u->sp_kernel_lo), "kernel_hi",
                      num(u->sp_kernel_hi), "e2e", num(u->sp_e2e), "e2e_lo", num(u->sp_e2e_lo),
                      "e2e_hi", num(u->sp_e2e_hi), "baseline_key", u->baseline_key,
                      "baseline_tunables", kv_object(u->baseline_tunables), "baseline_tuned",
                      u->baseline_tuned));
    else
        json_object_set_new(o, "speedup", json_null());
    json_object_set_new(o, "cfe", num(u->cfe));
    json_object_set_new(o, "cfe_source", json_string(u->cfe_source));
    json_object_set_new(o, "remap_ceiling", num(r->ceiling > 0 ? r->ceiling : NAN));
    const struct dh_remap_overhead *ro = &r->remap;
    json_object_set_new(
        o, "remap_overhead",
        json_pack("{s:s, s:o, s:s}", "state", dh_remap_state_name(ro->state), "ratio",
                  num(ro->state == DH_REMAP_MEASURED ? ro->ratio : NAN), "reason",
                  ro->state == DH_REMAP_MEASURED ? "" : ro->reason));
    json_object_set_new(o, "build_options", json_string(dh_text(r->options)));
    json_object_set_new(o, "tuning", u->tune.n_eval || u->tune.strategy[0]
                                         ? tuning_of(&u->tune) : json_null());
    return o;
}

/* write doc to path ("-": stdout) atomically; 0 or -1 with errno */
static int dump(json_t *doc, const char *path)
{
    size_t flags = JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10);
    if (!strcmp(path, "-")) {
        int rc = json_dumpf(doc, stdout, flags);
        fputc('\n', stdout);
        return rc || fflush(stdout) ? -1 : 0;
    }
    char tmp[4300], why[4400];
    if (dh_replace_ok(path, why, sizeof why)) {
        fprintf(stderr, "harness export: %s\n", why);
        errno = EINVAL;
        return -1;
    }
    FILE *f = dh_tmp_fopen(path, tmp, sizeof tmp);
    if (!f)
        return -1;
    int bad = json_dumpf(doc, f, flags) != 0;
    fputc('\n', f);
    bad |= fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path)) {
        int e = errno;
        unlink(tmp);
        errno = e ? e : EIO;
        return -1;
    }
    return 0;
}

int dh_export_json(const char *path, const char *source, const struct dh_resultfile *rf)
{
    json_t *runs = json_array();
    for (int i = 0; i < rf->n_runs; i++) {
        json_t *r = run_of(&rf->runs[i]);
        if (!r || json_array_append_new(runs, r)) {
            /* jansson refuses text that is not UTF-8: said, never dropped */
            fprintf(stderr, "harness export: run %d (%s) holds text that is not UTF-8: the "
                    "JSON would lose it\n", i + 1, rf->runs[i].c.key);
            json_decref(runs);
            errno = EILSEQ;
            return -1;
        }
    }
    json_t *doc = json_pack("{s:s, s:i, s:s, s:o, s:o, s:o}", "format", "divharness-results",
                            "version", 1, "source", source, "environment",
                            environment_of(&rf->env), "devices", devices_of(&rf->devs), "runs",
                            runs);
    if (!doc)
        return errno = ENOMEM, -1;
    int rc = dump(doc, path);
    json_decref(doc);
    return rc;
}

static const char *invalidity(int status)
{
    switch (status) {
    case DH_OK: return "correct";
    case DH_E_BUILD: return "compile";
    case DH_E_WRONG: return "correctness";
    case DH_E_CONSTRAINT: return "constraints";
    case DH_E_TIMEOUT: return "timeout";
    default: return "runtime";
    }
}

/* a case key as the harness makes them: 16 hex digits (a key read from a
 * file names a file: nothing else may, no "/" or "..") */
static int key_ok(const char *k)
{
    return strlen(k) == 16 && strspn(k, "0123456789abcdef") == 16;
}

int dh_export_t4(const char *dir, const struct dh_resultfile *rf, int *files)
{
    if (mkdir(dir, 0755) && errno != EEXIST)
        return -1;
    *files = 0;
    const char *stamp = rf->env.updated[0] ? rf->env.updated : rf->env.started;
    for (int i = 0; i < rf->n_runs; i++) {
        const struct dh_run *u = &rf->runs[i];
        const struct dh_tuning *t = &u->tune;
        if (!t->n_eval)
            continue;
        if (!key_ok(u->c.key)) {
            fprintf(stderr, "harness export: case %s: key '%s' is not 16 hex digits: no T4 "
                    "file for it\n", u->c.id, u->c.key);
            continue;
        }
        json_t *results = json_array();
        for (int k = 0; k < t->n_eval; k++) {
            const struct dh_tune_eval *e = &t->eval[k];
            int ok = e->status == 0 && e->ms > 0;
            json_t *times = json_object();
            /* every timed repetition; an evaluation reused from the
             * journal has its median only */
            if (ok)
                json_object_set_new(times, "runtimes",
                                    e->n_runtimes ? series(e->runtimes, e->n_runtimes)
                                                  : series(&e->ms, 1));
            if (e->wall_ms > 0)
                json_object_set_new(times, "framework", json_real(e->overhead_ms));
            json_t *meas = json_array();
            if (ok)
                json_array_append_new(meas, json_pack("{s:s, s:f, s:s}", "name", "time", "value",
                                                      e->ms, "unit", "ms"));
            json_array_append_new(
                results, json_pack("{s:s, s:o, s:[s], s:o, s:s, s:i, s:o}", "timestamp", stamp,
                                   "configuration", kv_object(e->tunables), "objectives", "time",
                                   "times", times, "invalidity", invalidity(e->status),
                                   "correctness", e->status != DH_E_WRONG, "measurements",
                                   meas));
        }
        json_t *doc = json_pack(
            "{s:s, s:{s:s, s:s, s:s, s:s, s:s, s:s}, s:o}", "schema_version", "1.0.0",
            "metadata", "timeunit", "milliseconds", "case", u->c.id, "variant", u->c.variant,
            "device", u->c.device_name, "strategy", t->strategy, "harness", rf->env.harness,
            "results", results);
        char path[4200];
        snprintf(path, sizeof path, "%s/%s.json", dir, u->c.key);
        int rc = doc ? dump(doc, path) : (errno = ENOMEM, -1);
        json_decref(doc);
        if (rc)
            return -1;
        (*files)++;
    }
    return 0;
}
