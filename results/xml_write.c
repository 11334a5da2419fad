/* xml_write.c — results to XML through libxml2, written atomically. */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "xml.h"
#include "../harness/support/fs.h"

/* made by the build (Makefile: $(BUILD)/version.c) */
extern const char dh_version[], dh_git_rev[];

void dh_now_iso(char *out, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void dh_env_fill(struct dh_env *e, int argc, char **argv)
{
    memset(e, 0, sizeof *e);
    struct utsname u;
    if (!uname(&u)) {
        snprintf(e->host, sizeof e->host, "%s", u.nodename);
        snprintf(e->kernel, sizeof e->kernel, "%s %s %s", u.sysname, u.release, u.machine);
    }
    FILE *f = fopen("/etc/os-release", "r");
    char line[512];
    snprintf(e->os, sizeof e->os, "unknown");
    while (f && fgets(line, sizeof line, f)) {
        if (!strncmp(line, "PRETTY_NAME=", 12)) {
            char *v = line + 12;
            v[strcspn(v, "\n")] = 0;
            if (*v == '"') {
                v++;
                v[strcspn(v, "\"")] = 0;
            }
            snprintf(e->os, sizeof e->os, "%s", v);
        }
    }
    if (f)
        fclose(f);
    snprintf(e->compiler, sizeof e->compiler, "gcc %s", __VERSION__);
    snprintf(e->harness, sizeof e->harness, "divharness %s", dh_version);
    snprintf(e->git_revision, sizeof e->git_revision, "%s", dh_git_rev);
    dh_now_iso(e->started, sizeof e->started);
    size_t o = 0;
    for (int i = 0; i < argc && o < sizeof e->command - 1; i++)
        o += (size_t)snprintf(e->command + o, sizeof e->command - o, "%s%s", i ? " " : "",
                              argv[i]);
}

void dh_conditions_host(struct dh_conditions *c)
{
    memset(c, 0, sizeof *c);
    c->valid = c->live = 1;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    c->cpus = n > 0 ? (int)n : 0;
    double l[3];
    int k = getloadavg(l, 3);
    for (int i = 0; i < 3; i++)
        c->load_before[i] = c->load_after[i] = i < k ? l[i] : -1;
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "r");
    if (f) {
        if (fgets(c->governor, sizeof c->governor, f))
            c->governor[strcspn(c->governor, "\n")] = 0;
        fclose(f);
    }
    f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "r");
    long khz = 0;
    if (f) {
        if (fscanf(f, "%ld", &khz) != 1)
            khz = 0;
        fclose(f);
    }
    c->cpu_mhz = (int)(khz / 1000);
    snprintf(c->gpu, sizeof c->gpu, "not recorded: no backend reports GPU clocks or "
             "throttling yet");
}

int dh_conditions_unreliable(const struct dh_conditions *c, double max_load, char *why,
                             size_t len)
{
    if (!c->valid || c->load_before[0] < 0)
        return 0;
    double lim = max_load > 0 ? max_load : 0.5 * (c->cpus > 0 ? c->cpus : 1);
    if (c->load_before[0] <= lim)
        return 0;
    snprintf(why, len, "host load %.2f on %d CPU%s before the run (over %.2f)",
             c->load_before[0], c->cpus, c->cpus == 1 ? "" : "s", lim);
    return 1;
}

static void invocation_of(struct dh_invocation *v, int n, const struct dh_env *e)
{
    v->n = n;
    snprintf(v->started, sizeof v->started, "%s", e->started);
    snprintf(v->harness, sizeof v->harness, "%s", e->harness);
    snprintf(v->git_revision, sizeof v->git_revision, "%s", e->git_revision);
    snprintf(v->host, sizeof v->host, "%s", e->host);
}

int dh_env_resume(struct dh_env *now, const struct dh_env *was)
{
    struct dh_invocation self;
    invocation_of(&self, 0, now);
    if (was->n_inv > 0) {
        now->n_inv = was->n_inv;
        memcpy(now->inv, was->inv, (size_t)was->n_inv * sizeof *was->inv);
    } else {
        now->n_inv = 1;
        invocation_of(&now->inv[0], 1, was);
    }
    self.n = now->inv[now->n_inv - 1].n + 1;
    if (now->n_inv == DH_ENV_INVOCATIONS) {   /* the first stays, the second goes */
        memmove(&now->inv[1], &now->inv[2], (size_t)(now->n_inv - 2) * sizeof *now->inv);
        now->n_inv--;
    }
    now->inv[now->n_inv++] = self;
    snprintf(now->started, sizeof now->started, "%s", now->inv[0].started);
    return self.n;
}

static void attr(xmlNodePtr n, const char *k, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void attr(xmlNodePtr n, const char *k, const char *fmt, ...)
{
    char buf[8300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    xmlNewProp(n, BAD_CAST k, BAD_CAST buf);
}

static void attr_d(xmlNodePtr n, const char *k, double v)
{
    if (isfinite(v))
        attr(n, k, "%.9g", v);
}

static xmlNodePtr child(xmlNodePtr p, const char *name, const char *text)
{
    return xmlNewTextChild(p, NULL, BAD_CAST name, BAD_CAST text);
}

static void series(xmlNodePtr p, const char *name, const double *x, int n,
                   const struct dh_stats *s)
{
    size_t cap = (size_t)n * 20 + 1, o = 0;
    char *buf = malloc(cap);
    if (!buf)
        return;
    buf[0] = 0;
    for (int i = 0; i < n; i++)
        o += (size_t)snprintf(buf + o, cap - o, "%s%.9g", i ? " " : "", x ? x[i] : 0.0);
    xmlNodePtr e = child(p, name, buf);
    free(buf);
    attr(e, "n", "%d", n);
    attr(e, "unit", "ms");
    if (n > 0 && s) {
        attr_d(e, "median", s->median);
        attr_d(e, "mad", s->mad);
        attr_d(e, "ci_lo", s->ci_lo);
        attr_d(e, "ci_hi", s->ci_hi);
        attr_d(e, "min", s->min);
        attr_d(e, "max", s->max);
    }
}

static void params(xmlNodePtr p, const struct dh_pset *ps, int tunables)
{
    struct dh_pset s = *ps;
    dh_pset_sort(&s);
    for (int i = 0; i < s.n; i++) {
        if ((s.v[i].kind == DH_P_TUNABLE) != tunables)
            continue;
        xmlNodePtr e = xmlNewChild(p, NULL, BAD_CAST "param", NULL);
        attr(e, "name", "%s", s.v[i].name);
        attr(e, "kind", "%s", dh_pkind_name(s.v[i].kind));
        attr(e, "value", "%s", s.v[i].text);
    }
}

static xmlNodePtr run_node(xmlNodePtr runs, const struct dh_run *u)
{
    const struct dh_case *c = &u->c;
    const struct dh_result *r = &u->r;
    xmlNodePtr n = xmlNewChild(runs, NULL, BAD_CAST "run", NULL);
    attr(n, "key", "%s", c->key);
    attr(n, "id", "%s", c->id);
    attr(n, "status", "%s", dh_err_name(r->status));
    if (r->invocation > 0)
        attr(n, "invocation", "%d", r->invocation);
    xmlNodePtr cs = xmlNewChild(n, NULL, BAD_CAST "case", NULL);
    attr(cs, "suite", "%s", c->suite);
    attr(cs, "bench", "%s", c->bench_name);
    attr(cs, "variant", "%s", c->variant);
    attr(cs, "backend", "%s", c->backend);
    attr(cs, "device", "%d", c->device);
    attr(cs, "device_name", "%s", c->device_name);
    if (c->instrumented)
        attr(cs, "instrumented", "true");
    attr(cs, "size", "%s", c->size);
    params(cs, &c->params, 0);
    params(xmlNewChild(n, NULL, BAD_CAST "tunables", NULL), &c->params, 1);
    if (r->message[0])
        child(n, "message", r->message);
    if (r->options && r->options[0]) {
        xmlNodePtr b = xmlNewChild(n, NULL, BAD_CAST "build", NULL);
        attr(b, "options", "%s", r->options);
        attr(b, "cached", "%s", r->build_cached ? "true" : "false");
        attr_d(b, "ms", r->build_ms);
        if (r->build_log && r->build_log[0])
            child(b, "log", r->build_log);
    }
    if (r->n > 0 && r->status == 0) {
        xmlNodePtr t = xmlNewChild(n, NULL, BAD_CAST "timing", NULL);
        attr(t, "reps", "%d", c->reps == DH_REPS_AUTO ? r->n : c->reps);
        if (c->reps == DH_REPS_AUTO)
            attr(t, "reps_rule", "auto:%g:%d", c->reps_target, c->reps_max);
        attr(t, "warmup", "%d", c->warmup);
        attr(t, "rotate", "%d", r->rotate);
        attr_d(t, "setup_ms", r->setup_ms);
        if (r->setup_bg_ms > 0) {
            attr_d(t, "setup_bg_ms", r->setup_bg_ms);
            attr_d(t, "setup_bg_wall_ms", r->setup_bg_wall_ms);
            attr_d(t, "setup_wait_ms", r->setup_wait_ms);
        }
        if (r->case_ms > 0) {
            attr_d(t, "case_ms", r->case_ms);
            attr_d(t, "bbv_ms", r->bbv_ms);
            attr_d(t, "measure_ms", r->measure_ms);
            attr_d(t, "model_ms", r->model_ms);
            attr_d(t, "counters_ms", r->counters_ms);
            if (r->remap_ms > 0)
                attr_d(t, "remap_ms", r->remap_ms);
        }
        double e[DH_MAX_SAMPLES];
        for (int i = 0; i < r->n; i++)
            e[i] = dh_e2e_sample(r, i);
        if (dh_host_count(r) < r->n)
            attr(t, "host_reps", "%d", dh_host_count(r));
        series(t, "kernel", r->kernel_ms, r->n, &u->kernel);
        series(t, "host", r->host_ms, dh_host_count(r), &u->host);
        series(t, "transfer", r->xfer_ms, r->n, &u->xfer);
        series(t, "end_to_end", e, r->n, &u->e2e);
    }
    if (u->has_speedup) {
        xmlNodePtr s = xmlNewChild(n, NULL, BAD_CAST "speedup", NULL);
        attr(s, "baseline", "%s", u->baseline_key);
        attr(s, "baseline_tunables", "%s", u->baseline_tunables);
        attr(s, "baseline_tuned", "%s", u->baseline_tuned ? "true" : "false");
        attr_d(s, "kernel", u->sp_kernel);
        attr_d(s, "kernel_lo", u->sp_kernel_lo);
        attr_d(s, "kernel_hi", u->sp_kernel_hi);
        attr_d(s, "e2e", u->sp_e2e);
        attr_d(s, "e2e_lo", u->sp_e2e_lo);
        attr_d(s, "e2e_hi", u->sp_e2e_hi);
    }
    xmlNodePtr v = xmlNewChild(n, NULL, BAD_CAST "verification", NULL);
    attr(v, "status", "%s", !r->verified ? "not-run" : r->verify.mismatches ? "fail" : "pass");
    if (r->verified) {
        attr(v, "checked", "%ld", r->verify.checked);
        attr(v, "mismatches", "%ld", r->verify.mismatches);
        attr(v, "max_abs_err", "%.9g", r->verify.max_abs_err);
        for (int i = 0; i < r->verify.n_first; i++) {
            xmlNodePtr m = xmlNewChild(v, NULL, BAD_CAST "mismatch", NULL);
            attr(m, "index", "%ld", r->verify.first[i].index);
            attr(m, "got", "%.9g", r->verify.first[i].got);
            attr(m, "want", "%.9g", r->verify.first[i].want);
        }
    }
    xmlNodePtr f = xmlNewChild(n, NULL, BAD_CAST "cfe", NULL);
    attr(f, "source", "%s", u->cfe_source);
    attr_d(f, "value", u->cfe);
    if (r->has_counters) {
        attr(f, "thread_inst", "%.0f", r->ctr.thread_inst_pred_on);   /* exact counts */
        attr(f, "warp_inst", "%.0f", r->ctr.warp_inst_executed);
        if (r->ctr.warp_width > 0)
            attr(f, "warp_width", "%d", r->ctr.warp_width);
    }
    attr_d(f, "inv_cfe_baseline", u->inv_cfe_baseline);
    attr_d(f, "potential_share", u->potential_share);
    const struct dh_tuning *tu = &u->tune;
    if (tu->strategy[0]) {
        xmlNodePtr tn = xmlNewChild(n, NULL, BAD_CAST "tuning", NULL);
        attr(tn, "strategy", "%s", tu->strategy);
        attr(tn, "space", "%d", tu->space);
        attr(tn, "space_total", "%d", tu->space_total);
        if (tu->default_ms > 0)
            attr_d(tn, "default_ms", tu->default_ms);
        if (tu->best >= 0) {
            attr_d(tn, "flat_share", tu->flat_share);
            attr(tn, "evals_to_95", "%d", tu->evals_to_95);
        }
        for (int k = 0; k < tu->n_eval; k++) {
            xmlNodePtr ev = xmlNewChild(tn, NULL, BAD_CAST "eval", NULL);
            attr(ev, "tunables", "%s", tu->eval[k].tunables);
            attr(ev, "status", "%s", dh_err_name(tu->eval[k].status));
            if (tu->eval[k].ms > 0)
                attr_d(ev, "ms", tu->eval[k].ms);
            if (tu->eval[k].n_runtimes > 0) {
                char rts[DH_TUNE_EVAL_RUNTIMES * 20] = "";
                size_t at = 0;
                for (int q = 0; q < tu->eval[k].n_runtimes && at < sizeof rts; q++)
                    at += (size_t)snprintf(rts + at, sizeof rts - at, "%s%.9g", q ? " " : "",
                                           tu->eval[k].runtimes[q]);
                attr(ev, "runtimes", "%s", rts);
            }
            if (tu->eval[k].from_journal)
                attr(ev, "journal", "true");
            else if (tu->eval[k].wall_ms > 0) {
                attr_d(ev, "wall_ms", tu->eval[k].wall_ms);
                attr_d(ev, "overhead_ms", tu->eval[k].overhead_ms);
            }
            if (k == tu->best)
                attr(ev, "best", "true");
        }
    }
    const struct dh_model_result *m = &r->model;
    if (m->valid) {
        xmlNodePtr mn = xmlNewChild(n, NULL, BAD_CAST "model", NULL);
        attr(mn, "table", "%s", m->table);
        if (m->costs[0])
            attr(mn, "costs", "%s", m->costs);
        attr(mn, "bbv", "%s", m->bbv_source);
        attr(mn, "blocks", "%d", m->n_blocks);
        attr(mn, "items", "%ld", m->n_items);
        attr(mn, "classes", "%ld", m->n_classes);
        attr_d(mn, "acquire_ms", m->acquire_ms);
        if (m->window > 0) {
            attr(mn, "window", "%d", m->window);
            attr(mn, "windows", "%d", m->windows);
        }
        attr(mn, "warp_width", "%d", m->warp_width);
        attr(mn, "wg", "%d", m->wg);
        attr(mn, "cus", "%d", m->cus);
        attr(mn, "slots", "%d", m->slots);
        if (m->schedulers > 0)
            attr(mn, "schedulers", "%d", m->schedulers);
        if (m->launch_items > 0)
            attr(mn, "launch_items", "%ld", m->launch_items);
        attr_d(mn, "cfe", m->own.cfe);
        attr_d(mn, "cfe32", m->cfe32);
        attr_d(mn, "cfe64", m->cfe64);
        attr_d(mn, "dwr", m->own.dwr);
        attr_d(mn, "t_weighted", m->own.t_weighted);
        attr_d(mn, "t_sched", m->own.t_sched);
        if (m->own.t_floor > 0)
            attr_d(mn, "t_floor", m->own.t_floor);
        attr_d(mn, "base_cfe", m->base.cfe);
        attr_d(mn, "base_dwr", m->base.dwr);
        attr_d(mn, "base_t_weighted", m->base.t_weighted);
        attr_d(mn, "base_t_sched", m->base.t_sched);
        if (m->base.t_floor > 0)
            attr_d(mn, "base_t_floor", m->base.t_floor);
        attr_d(mn, "speedup_weighted", u->model_sp_weighted);
        attr_d(mn, "speedup_sched", u->model_sp_sched);
        if (!isnan(u->model_sp_floor))
            attr_d(mn, "speedup_floor", u->model_sp_floor);
        attr_d(mn, "improvement_dwr", u->model_dwr_improvement);
        attr_d(mn, "cfe_error", u->model_cfe_error);
        attr_d(mn, "speedup_error_weighted", u->model_err_weighted);
        attr_d(mn, "speedup_error_sched", u->model_err_sched);
        if (!isnan(u->model_err_floor))
            attr_d(mn, "speedup_error_floor", u->model_err_floor);
        attr_d(mn, "speedup_error_dwr", u->model_err_dwr);
        if (m->n_waste > 0) {              /* where the divergence is */
            attr_d(mn, "waste_lane_cycles", m->waste_total);
            attr_d(mn, "issued_lane_cycles", m->issued_total);
            for (int k = 0; k < m->n_waste && k < DH_MODEL_WASTE; k++) {
                xmlNodePtr wn = xmlNewChild(mn, NULL, BAD_CAST "waste", NULL);
                attr(wn, "block", "%s", m->waste[k].block);
                attr_d(wn, "lane_cycles", m->waste[k].lane_cycles);
                attr_d(wn, "share", m->waste[k].share);
                attr_d(wn, "eff", m->waste[k].eff);
            }
        }
    }
    if (r->ceiling > 0) {
        xmlNodePtr cl = xmlNewChild(n, NULL, BAD_CAST "ceiling", NULL);
        attr_d(cl, "remap", r->ceiling);
        attr(cl, "warp_width", "%d", r->warp_width > 0 ? r->warp_width : 32);
        attr_d(cl, "share", u->ceiling_share);
    }
    const struct dh_remap_overhead *ro = &r->remap;
    if (ro->state > DH_REMAP_NONE && ro->state <= DH_REMAP_FAILED) {
        xmlNodePtr o = xmlNewChild(n, NULL, BAD_CAST "remap_overhead", NULL);
        attr(o, "state", "%s", dh_remap_state_name(ro->state));
        if (ro->mech[0])
            attr(o, "mech", "%s", ro->mech);
        if (ro->state == DH_REMAP_MEASURED) {
            attr(o, "verified", "pass");
            attr_d(o, "ratio", ro->ratio);
            attr_d(o, "ratio_lo", ro->ratio_lo);
            attr_d(o, "ratio_hi", ro->ratio_hi);
            attr_d(o, "tdr_ms", ro->tdr_ms);
            attr_d(o, "tdr_lo", ro->tdr_lo);
            attr_d(o, "tdr_hi", ro->tdr_hi);
            attr(o, "tdr_reps", "%d", ro->n_tdr);
            attr_d(o, "base_ms", ro->base_ms);
            attr_d(o, "base_lo", ro->base_lo);
            attr_d(o, "base_hi", ro->base_hi);
            attr(o, "base_reps", "%d", ro->n_base);
        }
        if (ro->state == DH_REMAP_FAILED)
            attr(o, "status", "%s", dh_err_name(ro->status));
        if (ro->reason[0])
            attr(o, "reason", "%s", ro->reason);
    }
    return n;
}

static const char *warp_src(enum dh_warp_source s)
{
    return s == DH_WARP_DEVICE ? "device" : s == DH_WARP_OVERRIDE ? "override" : "default";
}

/* fsync a file or folder by name: 0, or -1 with errno */
static int sync_path(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    int saved = errno;
    close(fd);
    errno = saved;
    return rc;
}

static xmlNodePtr plan_node(xmlNodePtr root, const struct dh_plan_rec *p)
{
    xmlNodePtr e = xmlNewChild(root, NULL, BAD_CAST "plan", NULL);
    attr(e, "hash", "%s", p->hash);
    attr(e, "cases", "%d", p->cases);
    attr(e, "shards", "%d", p->shards);
    if (p->shard > 0)
        attr(e, "shard", "%d", p->shard);
    for (int i = 0; p->ids && i < p->cases; i++) {
        xmlNodePtr c = xmlNewChild(e, NULL, BAD_CAST "case", NULL);
        attr(c, "id", "%s", p->ids[i].id);
        attr(c, "shard", "%d", p->ids[i].shard);
    }
    for (int i = 0; i < p->n_notes; i++) {
        const struct dh_shard_note *nt = &p->notes[i];
        xmlNodePtr c = xmlNewChild(e, NULL, BAD_CAST "shard", NULL);
        attr(c, "index", "%d", nt->index);
        attr(c, "state", "%s", dh_shard_state_name(nt->state));
        attr(c, "planned", "%d", nt->planned);
        attr(c, "ran", "%d", nt->ran);
        attr(c, "claims", "%d", nt->claims);
        if (nt->files[0])
            attr(c, "files", "%s", nt->files);
        if (nt->message[0])
            attr(c, "message", "%s", nt->message);
    }
    return e;
}

/* Dump n (a child of the root, or of <runs> at level 2) as it stands in
 * an indented whole-file dump, then free it. */
static void section(xmlOutputBufferPtr out, xmlDocPtr doc, xmlNodePtr n, int level)
{
    xmlOutputBufferWriteString(out, level == 1 ? "  " : "    ");
    xmlNodeDumpOutput(out, doc, n, level, 1, "UTF-8");
    xmlOutputBufferWriteString(out, "\n");
    xmlUnlinkNode(n);
    xmlFreeNode(n);
}

int dh_xml_write(const char *path, const struct dh_env *env, const struct dh_devlist *devs,
                 const struct dh_run *runs, int n, struct dh_err *err)
{
    return dh_xml_write_plan(path, env, devs, runs, n, NULL, err);
}

int dh_xml_write_plan(const char *path, const struct dh_env *env,
                      const struct dh_devlist *devs, const struct dh_run *runs, int n,
                      const struct dh_plan_rec *plan, struct dh_err *err)
{
    char tmp[4300], why[4400];
    if (dh_replace_ok(path, why, sizeof why))
        return dh_err_set(err, DH_E_IO, "cannot write results: %s", why);
    /* a new name (O_EXCL): never a planted link's target, never a file
     * another process is writing */
    int fd = dh_tmp_create(path, tmp, sizeof tmp);
    if (fd < 0)
        return dh_err_set(err, DH_E_IO, "cannot write %s.tmp.*: %s (is the folder writable? "
                          "choose another with --out)", path, strerror(errno));
    /* The file is written a section at a time, each a small tree dumped
     * and freed (a run at a time under <runs>), never the whole file's
     * tree: the bytes are those a dump of the whole tree would give. */
    xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0");
    xmlNodePtr root = xmlNewNode(NULL, BAD_CAST "divharness");
    xmlDocSetRootElement(doc, root);
    doc->encoding = xmlStrdup(BAD_CAST "UTF-8");     /* as a whole-file save sets it */
    xmlCharEncodingHandlerPtr enc = xmlFindCharEncodingHandler("UTF-8");
    xmlOutputBufferPtr out = xmlOutputBufferCreateFd(fd, enc);    /* fd stays ours */
    if (!out) {
        xmlFreeDoc(doc);
        close(fd);
        unlink(tmp);
        return dh_err_set(err, DH_E_IO, "cannot write %s: out of memory", tmp);
    }
    char head[64];
    snprintf(head, sizeof head, "<divharness version=\"%d\">\n", DH_RESULTS_VERSION);
    xmlOutputBufferWriteString(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xmlOutputBufferWriteString(out, head);
    xmlNodePtr en = xmlNewChild(root, NULL, BAD_CAST "environment", NULL);
    char upd[40];
    dh_now_iso(upd, sizeof upd);
    child(en, "host", env->host);
    child(en, "os", env->os);
    child(en, "kernel", env->kernel);
    child(en, "compiler", env->compiler);
    child(en, "harness", env->harness);
    child(en, "git_revision", env->git_revision);
    child(en, "started", env->started);
    child(en, "updated", env->updated[0] ? env->updated : upd);
    child(en, "command", env->command);
    if (env->n_inv > 1) {
        xmlNodePtr iv = xmlNewChild(en, NULL, BAD_CAST "invocations", NULL);
        for (int i = 0; i < env->n_inv; i++) {
            const struct dh_invocation *v = &env->inv[i];
            xmlNodePtr e = xmlNewChild(iv, NULL, BAD_CAST "invocation", NULL);
            attr(e, "n", "%d", v->n);
            attr(e, "started", "%s", v->started);
            attr(e, "harness", "%s", v->harness);
            attr(e, "git_revision", "%s", v->git_revision);
            attr(e, "host", "%s", v->host);
        }
    }
    if (env->cond.valid) {
        const struct dh_conditions *c = &env->cond;
        double after[3];
        memcpy(after, c->load_after, sizeof after);
        if (c->live) {                  /* this run's latest write: the load now */
            int k = getloadavg(after, 3);
            for (int i = k < 0 ? 0 : k; i < 3; i++)
                after[i] = -1;
        }
        xmlNodePtr cn = xmlNewChild(en, NULL, BAD_CAST "conditions", NULL);
        attr(cn, "cpus", "%d", c->cpus);
        if (c->load_before[0] >= 0)
            attr(cn, "load_before", "%.2f %.2f %.2f", c->load_before[0], c->load_before[1],
                 c->load_before[2]);
        if (after[0] >= 0)
            attr(cn, "load_after", "%.2f %.2f %.2f", after[0], after[1], after[2]);
        if (c->governor[0])
            attr(cn, "governor", "%s", c->governor);
        if (c->cpu_mhz > 0)
            attr(cn, "cpu_mhz", "%d", c->cpu_mhz);
        attr(cn, "gpu", "%s", c->gpu);
    }
    section(out, doc, en, 1);
    xmlNodePtr dv = xmlNewChild(root, NULL, BAD_CAST "devices", NULL);
    for (int i = 0; devs && i < devs->n; i++) {
        int used = 0;
        for (int j = 0; j < n && !used; j++)
            used = !strcmp(runs[j].c.backend, devs->d[i].backend)
                   && runs[j].c.device == devs->d[i].index;
        if (!used)
            continue;
        const struct dh_device_info *d = &devs->d[i].info;
        xmlNodePtr e = xmlNewChild(dv, NULL, BAD_CAST "device", NULL);
        attr(e, "backend", "%s", devs->d[i].backend);
        attr(e, "index", "%d", devs->d[i].index);
        attr(e, "name", "%s", d->name);
        attr(e, "vendor", "%s", d->vendor);
        attr(e, "platform", "%s", d->platform);
        attr(e, "driver", "%s", d->driver);
        attr(e, "runtime", "%s", d->runtime);
        attr(e, "arch", "%s", d->arch);
        attr(e, "kind", "%s", d->kind);
        attr(e, "warp_width", "%d", d->warp_width);
        attr(e, "warp_source", "%s", warp_src(d->warp_source));
        attr(e, "compute_units", "%d", d->compute_units);
        attr(e, "max_wg", "%d", d->max_wg);
        attr(e, "clock_mhz", "%d", d->clock_mhz);
        attr(e, "global_mem_bytes", "%llu", (unsigned long long)d->global_mem_bytes);
        attr(e, "local_mem_bytes", "%llu", (unsigned long long)d->local_mem_bytes);
        attr(e, "counters", "%s", d->has_counters ? "true" : "false");
    }
    section(out, doc, dv, 1);
    if (plan)
        section(out, doc, plan_node(root, plan), 1);
    xmlNodePtr rs = xmlNewChild(root, NULL, BAD_CAST "runs", NULL);
    int any = 0;
    for (int i = 0; i < n; i++) {
        if (runs[i].r.status < 0)
            continue;
        if (!any++)
            xmlOutputBufferWriteString(out, "  <runs>\n");
        section(out, doc, run_node(rs, &runs[i]), 2);
    }
    xmlOutputBufferWriteString(out, any ? "  </runs>\n</divharness>\n" : "  <runs/>\n</divharness>\n");
    xmlFreeDoc(doc);

    int rc = 0;
    int closed = xmlOutputBufferClose(out);
    int synced = closed < 0 ? -1 : fsync(fd);
    int saved = errno;
    if (close(fd) && synced == 0) {
        synced = -1;
        saved = errno;
    }
    errno = saved;
    if (closed < 0) {
        rc = dh_err_set(err, DH_E_IO, "cannot write %s: %s (is the folder writable? "
                        "choose another with --out)", tmp, strerror(errno));
        unlink(tmp);
    } else if (synced) {
        rc = dh_err_set(err, DH_E_IO, "cannot write %s to disk: %s (is the disk full? "
                        "choose another folder with --out)", tmp, strerror(errno));
        unlink(tmp);
    } else if (rename(tmp, path)) {
        rc = dh_err_set(err, DH_E_IO, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
        unlink(tmp);
    } else {
        /* the rename itself durable: the folder's entry on disk */
        char dir[4200];
        snprintf(dir, sizeof dir, "%s", path);
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = 0;
        (void)sync_path(slash ? (*dir ? dir : "/") : ".");
    }
    return rc;
}
