/* report_index.c — a report's index.md (environment, devices, a table per
 * benchmark and target, the model section, links to the charts) and the
 * gnuplot that draws the charts from the scripts report_charts.c writes
 * (report.h). `harness report` (harness/cli/cmd_report.c) calls both.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report.h"

#include "../../suites/suite.h"
#include "../stats/baseline.h"
#include "../stats/compare.h"
#include "../support/fs.h"

/* The gnuplot to run: $DH_GNUPLOT (a path or a name), else "gnuplot",
 * looked up on PATH. 0 and the path in out, or -1 when there is none. */
int dh_gnuplot_find(char *out, size_t len)
{
    const char *want = getenv("DH_GNUPLOT");
    if (!want)
        want = "gnuplot";
    if (!want[0])
        return -1;
    if (strchr(want, '/')) {
        snprintf(out, len, "%s", want);
        return access(out, X_OK) ? -1 : 0;
    }
    const char *path = getenv("PATH");
    char buf[8192];
    snprintf(buf, sizeof buf, "%s", path ? path : "/usr/bin:/bin");
    char *save = NULL;
    for (char *d = strtok_r(buf, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(out, len, "%s/%s", d[0] ? d : ".", want);
        if (!access(out, X_OK))
            return 0;
    }
    return -1;
}

/* Run `gnuplot NAME.gp` in dir, its output into NAME.log (removed when
 * empty). 0 when it succeeded and NAME.png exists. */
int dh_gnuplot_draw(const char *gnuplot, const char *dir, const char *name)
{
    char script[256], log[4400], png[4400];
    snprintf(script, sizeof script, "%s.gp", name);
    snprintf(log, sizeof log, "%s/%s.log", dir, name);
    snprintf(png, sizeof png, "%s/%s.png", dir, name);
    unlink(png);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        if (chdir(dir))
            _exit(127);
        execl(gnuplot, "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    struct stat sb;
    if (!stat(log, &sb) && sb.st_size == 0)
        unlink(log);
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 && !access(png, R_OK) ? 0 : -1;
}

/* ---- index.md ---- */

/* A table cell: '|' escaped, newlines flattened. */
static void cell(FILE *f, const char *s)
{
    fputc(' ', f);
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", f);
        else if (*s == '\n')
            fputc(' ', f);
        else
            fputc(*s, f);
    }
    fputs(" |", f);
}

static void cellf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void cellf(FILE *f, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    cell(f, buf);
}

static void ms_text(char *out, size_t len, double v)
{
    if (!isfinite(v))
        snprintf(out, len, "-");
    else
        snprintf(out, len, v >= 100 ? "%.1f" : v >= 1 ? "%.3f" : "%.4f", v);
}

static void chart_links(FILE *f, const struct dh_chart *c)
{
    fprintf(f, "**%s**\n\n", c->title);
    if (c->drawn)
        fprintf(f, "![%s](%s.png)\n\n[SVG](%s.svg) · [gnuplot script](%s.gp) · [data](%s.dat)"
                   "\n\n", c->title, c->name, c->name, c->name, c->name);
    else
        fprintf(f, "Not drawn: [gnuplot script](%s.gp) · [data](%s.dat) — run `gnuplot %s.gp` "
                   "in this folder.\n\n", c->name, c->name, c->name);
}

static void run_table(FILE *f, const struct dh_resultfile *rf, const char *suite,
                      const char *bench, const char *backend, const char *device)
{
    const struct dh_case *cs[1024];
    int n = 0;
    for (int i = 0; i < rf->n_runs && n < 1024; i++) {
        const struct dh_case *c = &rf->runs[i].c;
        if (!strcmp(c->suite, suite) && !strcmp(c->bench_name, bench)
                && !strcmp(c->backend, backend) && !strcmp(c->device_name, device))
            cs[n++] = c;
    }
    char names[DH_MAX_PARAMS][24];
    int nn = dh_varying_workload(cs, n, names, DH_MAX_PARAMS);
    fprintf(f, "| workload | variant | status | kernel ms [95%%] | host ms | speedup kernel "
               "[95%%] | speedup e2e [95%%] | CFE | 1/CFE of baseline | remap ceiling | "
               "share of ceiling | remap overhead [95%%] | tunables |\n"
               "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (int i = 0; i < rf->n_runs; i++) {
        const struct dh_run *u = &rf->runs[i];
        const struct dh_case *c = &u->c;
        if (strcmp(c->suite, suite) || strcmp(c->bench_name, bench)
                || strcmp(c->backend, backend) || strcmp(c->device_name, device))
            continue;
        char wl[256], var[300], tun[256], a[32], b[32], m[32];
        dh_workload_short(c, names, nn, wl, sizeof wl);
        if (!wl[0])     /* one workload: its values, as the terminal's table shows them */
            dh_pset_format(&c->params, DH_P_WORKLOAD, wl, sizeof wl);
        dh_case_variant_label(c, var, sizeof var);
        dh_pset_format(&c->params, DH_P_TUNABLE, tun, sizeof tun);
        fputc('|', f);
        cell(f, wl[0] ? wl : "-");
        cell(f, var);
        cell(f, u->r.status ? dh_err_name(u->r.status) : "ok");
        if (u->r.status == 0 && u->kernel.n > 0) {
            ms_text(m, sizeof m, u->kernel.median);
            ms_text(a, sizeof a, u->kernel.ci_lo);
            ms_text(b, sizeof b, u->kernel.ci_hi);
            cellf(f, "%s [%s, %s]", m, a, b);
            ms_text(m, sizeof m, u->host.median);
            cell(f, u->host.median > 0 ? m : "-");
        } else {
            cell(f, "-");
            cell(f, "-");
        }
        if (u->has_speedup) {
            cellf(f, "%.2fx [%.2f, %.2f]", u->sp_kernel, u->sp_kernel_lo, u->sp_kernel_hi);
            cellf(f, "%.2fx [%.2f, %.2f]", u->sp_e2e, u->sp_e2e_lo, u->sp_e2e_hi);
        } else {
            int one = !strcmp(c->variant, "baseline") && u->r.status == 0;
            cell(f, one ? "1" : "-");
            cell(f, one ? "1" : "-");
        }
        if (isfinite(u->cfe))
            cellf(f, "%.3f (%s)", u->cfe, u->cfe_source);
        else
            cell(f, "-");
        if (isfinite(u->inv_cfe_baseline))
            cellf(f, "%.2f", u->inv_cfe_baseline);
        else if (!strcmp(c->variant, "baseline") && isfinite(u->cfe) && u->cfe > 0)
            cellf(f, "%.2f", 1 / u->cfe);
        else
            cell(f, "-");
        if (u->r.ceiling > 0)
            cellf(f, "%.2fx", u->r.ceiling);
        else
            cell(f, "-");
        if (isfinite(u->ceiling_share))
            cellf(f, "%.0f%%", 100 * u->ceiling_share);
        else
            cell(f, "-");
        const struct dh_remap_overhead *ro = &u->r.remap;
        if (ro->state == DH_REMAP_MEASURED && isfinite(ro->ratio_lo))
            cellf(f, "%.2fx [%.2f, %.2f] (%s)", ro->ratio, ro->ratio_lo, ro->ratio_hi, ro->mech);
        else
            cell(f, dh_remap_cell(u, m, sizeof m));
        cell(f, tun[0] ? tun : "-");
        fputc('\n', f);
    }
    for (int i = 0; i < rf->n_runs; i++) {
        const struct dh_run *u = &rf->runs[i];
        if (u->r.status && u->r.message[0] && !strcmp(u->c.suite, suite)
                && !strcmp(u->c.bench_name, bench) && !strcmp(u->c.backend, backend)
                && !strcmp(u->c.device_name, device)) {
            char var[300];
            dh_case_variant_label(&u->c, var, sizeof var);
            fprintf(f, "\n- %s (%s): %s", var, dh_err_name(u->r.status), u->r.message);
        }
    }
    fprintf(f, "\n\n");
    /* n/a overheads: the reason once per benchmark (the rows say n/a) */
    if (dh_remap_na_lines(f, rf->runs, rf->n_runs, bench, backend, device, "- "))
        fprintf(f, "\n");
}

static void num(FILE *f, double v, const char *fmt)
{
    if (isnan(v))
        fprintf(f, " - |");
    else {
        fputc(' ', f);
        fprintf(f, fmt, v);
        fprintf(f, " |");
    }
}

/* The BBV model next to the measurement (docs/model.md). */
/* a sharded run's file, or a merge of shards: which shards came back,
 * and every one that did not, named */
static void shards_section(FILE *f, const struct dh_plan_rec *p)
{
    if (p->shard > 0) {
        fprintf(f, "> This file is **shard %d of %d** of plan `%s` (%d cases in all): join "
                   "the shards with `harness merge`.\n\n", p->shard, p->shards, p->hash,
                p->cases);
        return;
    }
    int bad = 0;
    for (int i = 0; i < p->n_notes; i++)
        bad += p->notes[i].state != DH_SHARD_OK;
    if (bad)
        fprintf(f, "> **%d of %d shards did not come back whole**: their cases are missing "
                   "from the tables below (see \"Shards\").\n\n", bad, p->shards);
    fprintf(f, "## Shards\n\nPlan `%s`: %d cases in %d shards.\n\n| shard | state | cases "
               "| with a run | files | what is missing |\n|---:|---|---:|---:|---|---|\n",
            p->hash, p->cases, p->shards);
    for (int i = 0; i < p->n_notes; i++) {
        const struct dh_shard_note *nt = &p->notes[i];
        fprintf(f, "| %d | %s%s%s | %d | %d |", nt->index, nt->state ? "**" : "",
                dh_shard_state_name(nt->state), nt->state ? "**" : "", nt->planned, nt->ran);
        cell(f, nt->files[0] ? nt->files : "-");
        cell(f, nt->message[0] ? nt->message : "-");
        fputc('\n', f);
    }
    fputc('\n', f);
}

static void model_section(FILE *f, const struct dh_resultfile *rf)
{
    int any = 0;
    for (int i = 0; i < rf->n_runs && !any; i++)
        any = rf->runs[i].r.status == 0 && rf->runs[i].r.model.valid;
    if (!any)
        return;
    fprintf(f, "\n## BBV model vs measurement\n\n"
               "Modeled from the basic-block vectors of a profiling run (docs/model.md). "
               "CFE error in points; speedup errors = |modeled - measured improvement| in "
               "points, improvement = 1 - 1/speedup.\n\n"
               "| bench | backend | workload | variant | bound | CFE | modeled CFE | error | "
               "speedup | BBV-weighted | BBV-w-scheduled | dwr improvement | error w | "
               "error s | error dwr |\n"
               "|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < rf->n_runs; i++) {
        const struct dh_run *u = &rf->runs[i];
        const struct dh_model_result *m = &u->r.model;
        if (u->r.status != 0 || !m->valid)
            continue;
        char label[300], wl[300];
        dh_case_variant_label(&u->c, label, sizeof label);
        dh_pset_format(&u->c.params, DH_P_WORKLOAD, wl, sizeof wl);
        fprintf(f, "| %s | %s | %s | %s | %s |", u->c.bench_name, u->c.backend, wl, label,
                u->c.bench && u->c.bench->bound ? u->c.bench->bound : "?");
        num(f, !strcmp(u->cfe_source, "counters") ? u->cfe : NAN, "%.3f");
        num(f, m->own.cfe, "%.3f");
        num(f, isnan(u->model_cfe_error) ? NAN : 100 * u->model_cfe_error, "%+.1f");
        num(f, u->has_speedup ? u->sp_kernel : NAN, "%.2fx");
        num(f, u->has_speedup ? u->model_sp_weighted : NAN, "%.2fx");
        num(f, u->has_speedup ? u->model_sp_sched : NAN, "%.2fx");
        num(f, u->has_speedup ? 100 * u->model_dwr_improvement : NAN, "%.0f%%");
        num(f, u->model_err_weighted, "%.1f");
        num(f, u->model_err_sched, "%.1f");
        num(f, u->model_err_dwr, "%.1f");
        fputc('\n', f);
    }
}

/* where the divergence is: each baseline's blocks by the lane-cycles
 * divergence wastes in them (the model's costs), as the run printed it */
static void waste_section(FILE *f, const struct dh_resultfile *rf)
{
    int any = 0;
    for (int i = 0; i < rf->n_runs && !any; i++)
        any = rf->runs[i].r.status == 0 && rf->runs[i].r.model.n_waste > 0 &&
              !strcmp(rf->runs[i].c.variant, "baseline");
    if (!any)
        return;
    fprintf(f, "\n## Where the divergence is\n\n"
               "Each baseline's blocks by the lane-cycles divergence wastes in them (issued "
               "for lanes that did not run the block, and its if-converted part issued "
               "beyond its own executions; the model's block costs), the most first: the "
               "branch to attack first is at the top. Share: of the run's wasted "
               "lane-cycles; efficiency: the block's lanes that ran it over the lanes it "
               "was issued for.\n\n"
               "| bench | backend | workload | block | share | efficiency | wasted lane-cycles |\n"
               "|---|---|---|---|---:|---:|---:|\n");
    for (int i = 0; i < rf->n_runs; i++) {
        const struct dh_run *u = &rf->runs[i];
        const struct dh_model_result *m = &u->r.model;
        if (u->r.status != 0 || m->n_waste <= 0 || strcmp(u->c.variant, "baseline"))
            continue;
        char wl[300];
        dh_pset_format(&u->c.params, DH_P_WORKLOAD, wl, sizeof wl);
        for (int k = 0; k < m->n_waste; k++) {
            fprintf(f, "| %s | %s | %s | %s |", u->c.bench_name, u->c.backend, wl,
                    m->waste[k].block);
            num(f, 100 * m->waste[k].share, "%.1f%%");
            num(f, m->waste[k].eff, "%.2f");
            num(f, m->waste[k].lane_cycles, "%.3g");
            fputc('\n', f);
        }
    }
}

int dh_report_write_index(const struct dh_report *r, int have_gnuplot, int failed,
                       struct dh_err *err)
{
    char path[4400], tmp[4500];
    snprintf(path, sizeof path, "%s/index.md", r->dir);
    char why[4600];
    if (dh_replace_ok(path, why, sizeof why))
        return dh_err_set(err, DH_E_IO, "cannot write the report: %s", why);
    FILE *f = dh_tmp_fopen(path, tmp, sizeof tmp);
    if (!f)
        return dh_err_set(err, DH_E_IO, "cannot write %s.tmp.*: %s", path, strerror(errno));
    const struct dh_resultfile *rf = r->f;
    const struct dh_env *e = &rf->env;
    fprintf(f, "# divharness report\n\nResults: `%s` — %d run%s. Open the charts below; "
               "every chart's gnuplot script (`.gp`) and data (`.dat`) are beside it, to "
               "restyle and redraw with `gnuplot NAME.gp`.\n\n", r->source, rf->n_runs,
            rf->n_runs == 1 ? "" : "s");
    if (!have_gnuplot)
        fprintf(f, "> **Charts were skipped: gnuplot is not installed.** Install it (Debian/"
                   "Ubuntu: `sudo apt-get install gnuplot-nox`) and run `harness report` "
                   "again, or draw them from the scripts here: `cd %s && for s in *.gp; do "
                   "gnuplot \"$s\"; done`.\n\n", r->dir);
    if (failed)
        fprintf(f, "> **%d chart%s failed to draw**: see the `.log` file beside each script."
                   "\n\n", failed, failed == 1 ? "" : "s");
    if (rf->plan)
        shards_section(f, rf->plan);
    fprintf(f, "## Environment\n\n| | |\n|---|---|\n");
    struct { const char *k, *v; } env[] = {
        {"host", e->host}, {"OS", e->os}, {"kernel", e->kernel}, {"compiler", e->compiler},
        {"harness", e->harness}, {"git revision", e->git_revision}, {"started", e->started},
        {"updated", e->updated}, {"command", e->command},
    };
    for (size_t i = 0; i < sizeof env / sizeof *env; i++) {
        fprintf(f, "| %s |", env[i].k);
        cell(f, env[i].v[0] ? env[i].v : "-");
        fputc('\n', f);
    }
    if (e->cond.valid) {            /* what the run ran on */
        const struct dh_conditions *c = &e->cond;
        char lb[64] = "-", la[64] = "-", cpu[96];
        if (c->load_before[0] >= 0)
            snprintf(lb, sizeof lb, "%.2f %.2f %.2f", c->load_before[0], c->load_before[1],
                     c->load_before[2]);
        if (c->load_after[0] >= 0)
            snprintf(la, sizeof la, "%.2f %.2f %.2f", c->load_after[0], c->load_after[1],
                     c->load_after[2]);
        char mhz[24] = "clock unknown";
        if (c->cpu_mhz > 0)
            snprintf(mhz, sizeof mhz, "%d MHz", c->cpu_mhz);
        snprintf(cpu, sizeof cpu, "%d CPUs, governor %s, %s", c->cpus,
                 c->governor[0] ? c->governor : "unknown", mhz);
        fprintf(f, "| host load (1, 5, 15 min) before the run |");
        cell(f, lb);
        fprintf(f, "\n| host load at the last case |");
        cell(f, la);
        fprintf(f, "\n| CPU |");
        cell(f, cpu);
        fprintf(f, "\n| GPU conditions |");
        cell(f, c->gpu[0] ? c->gpu : "-");
        fputc('\n', f);
        char why[200];
        if (dh_conditions_unreliable(c, 0, why, sizeof why))
            fprintf(f, "\n> **Busy host**: %s: the timings of this file are unreliable "
                       "(`harness compare` says so instead of judging them).\n\n", why);
    }
    fprintf(f, "\n## Devices\n\n| backend | # | name | vendor | driver | runtime | warp | "
               "compute units | clock MHz | memory GiB | CFE in these runs |\n"
               "|---|---:|---|---|---|---|---:|---:|---:|---:|---|\n");
    for (int i = 0; i < rf->devs.n; i++) {
        const struct dh_device_info *d = &rf->devs.d[i].info;
        fputc('|', f);
        cell(f, rf->devs.d[i].backend);
        cellf(f, "%d", rf->devs.d[i].index);
        cell(f, d->name);
        cell(f, d->vendor);
        cell(f, d->driver);
        cell(f, d->runtime);
        cellf(f, "%d", d->warp_width);
        cellf(f, "%d", d->compute_units);
        cellf(f, "%d", d->clock_mhz);
        cellf(f, "%.1f", (double)d->global_mem_bytes / (1u << 30));
        const char *src = "none";     /* what the runs on this device measured */
        for (int k = 0; k < rf->n_runs; k++)
            if (!strcmp(rf->runs[k].c.backend, rf->devs.d[i].backend)
                    && rf->runs[k].c.device == rf->devs.d[i].index
                    && !strcmp(rf->runs[k].c.device_name, d->name) && rf->runs[k].cfe_source[0])
                src = rf->runs[k].cfe_source;
        cell(f, src);
        fputc('\n', f);
    }
    char fp[17], desc[2048];
    struct dh_err fe = {0};
    if (!dh_baseline_fingerprint(rf, fp, desc, sizeof desc, &fe))
        fprintf(f, "\nBaseline fingerprint of these devices and drivers: `%s`.\n", fp);
    fprintf(f, "\n## Charts\n\n");
    for (int i = 0; i < r->n_charts; i++)
        fprintf(f, "- [%s — %s%s%s](#%s)%s\n", r->charts[i].bench, r->charts[i].title,
                r->charts[i].backend[0] ? " — " : "", r->charts[i].backend, r->charts[i].name,
                r->charts[i].drawn ? "" : " (not drawn)");
    if (!r->n_charts)
        fprintf(f, "(none)\n");
    char tb[32][16], td[32][256];
    int nt = dh_report_targets(rf, tb, td, 32);
    for (int i = 0; i < rf->n_runs; i++) {
        const struct dh_case *c = &rf->runs[i].c;
        int first = 1;
        for (int j = 0; j < i && first; j++)
            first = strcmp(rf->runs[j].c.suite, c->suite)
                    || strcmp(rf->runs[j].c.bench_name, c->bench_name);
        if (!first)
            continue;
        char bench[96];
        snprintf(bench, sizeof bench, "%s/%s", c->suite, c->bench_name);
        fprintf(f, "\n## %s\n\n", bench);
        for (int t = 0; t < nt; t++) {
            int any = 0;
            for (int k = 0; k < rf->n_runs && !any; k++)
                any = !strcmp(rf->runs[k].c.suite, c->suite)
                      && !strcmp(rf->runs[k].c.bench_name, c->bench_name)
                      && !strcmp(rf->runs[k].c.backend, tb[t])
                      && !strcmp(rf->runs[k].c.device_name, td[t]);
            if (!any)
                continue;
            fprintf(f, "### %s: %s\n\n", tb[t], td[t]);
            run_table(f, rf, c->suite, c->bench_name, tb[t], td[t]);
            for (int k = 0; k < r->n_charts; k++) {
                const struct dh_chart *ch = &r->charts[k];
                if (!strcmp(ch->bench, bench) && !strcmp(ch->backend, tb[t])
                        && !strcmp(ch->device_name, td[t])) {
                    fprintf(f, "<a id=\"%s\"></a>\n", ch->name);
                    chart_links(f, ch);
                }
            }
        }
        for (int k = 0; k < r->n_charts; k++) {
            const struct dh_chart *ch = &r->charts[k];
            if (ch->kind == DH_CHART_BACKENDS && !strcmp(ch->bench, bench)) {
                fprintf(f, "### Across backends and devices\n\n<a id=\"%s\"></a>\n", ch->name);
                chart_links(f, ch);
            }
        }
    }
    model_section(f, rf);
    waste_section(f, rf);
    if (r->n_notes) {
        fprintf(f, "## Notes\n\n");
        for (int i = 0; i < r->n_notes; i++)
            fprintf(f, "- %s\n", r->notes[i]);
        fprintf(f, "\n");
    }
    fprintf(f, "## How to read this\n\n"
               "- *kernel ms*: median of the timed runs (device events), with the 95%% "
               "bootstrap interval of the median.\n"
               "- *speedup kernel / e2e*: median baseline / median variant of the same "
               "workload, device time only / with host work and extra transfers (cpu_tdr's "
               "honest figure is e2e); [lo, hi] is the 95%% interval.\n"
               "- *CFE*: thread instructions executed / (warp instructions x warp width); "
               "1/CFE of the baseline is the potential speedup of removing all divergence.\n"
               "- *remap ceiling*: the best speedup of any regrouping inside each work-group "
               "for this input; *share* = (speedup - 1) / (ceiling - 1).\n"
               "- *remap overhead* (gpu_tdr): median gpu_tdr kernel / median baseline kernel, "
               "both on the input already in path order (cpu_tdr's key regrouping, applied by "
               "the mechanism in parentheses), each verified: what the remap costs where there "
               "is nothing to gain (1.12x: 12%% slower). speedup x overhead estimates what "
               "removing the divergence gave the baseline; where the speedup is near "
               "1 / overhead the remap's cost dominates, where the overhead is near 1 the "
               "divergence does. *n/a*: the benchmark has no key regrouping (the reason "
               "is under its table).\n");
    int bad = ferror(f) != 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path)) {
        unlink(tmp);
        return dh_err_set(err, DH_E_IO, "cannot write %s: %s", path, strerror(errno));
    }
    return dh_report_write_html(r->dir, "divharness report", err);
}
