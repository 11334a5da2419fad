/* remap_text.c — a gpu_tdr run's remap overhead as the run summary and
 * index.md show it (declared in report.h): the ratio, "n/a" with its
 * reason, "failed", or "-" where it was not asked. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

const char *dh_remap_cell(const struct dh_run *u, char *buf, size_t len)
{
    const struct dh_remap_overhead *ro = &u->r.remap;
    if (ro->state == DH_REMAP_MEASURED && isfinite(ro->ratio))
        snprintf(buf, len, "%.2fx", ro->ratio);
    else if (ro->state == DH_REMAP_NA)
        snprintf(buf, len, "n/a");
    else if (ro->state == DH_REMAP_FAILED)
        snprintf(buf, len, "failed");
    else
        snprintf(buf, len, "-");
    return buf;
}

static int na_in(const struct dh_run *u, const char *bench, const char *backend,
                 const char *device)
{
    return u->r.remap.state == DH_REMAP_NA && (!bench || !strcmp(u->c.bench_name, bench))
        && (!backend || !strcmp(u->c.backend, backend))
        && (!device || !strcmp(u->c.device_name, device));
}

int dh_remap_na_lines(FILE *f, const struct dh_run *runs, int n, const char *bench,
                      const char *backend, const char *device, const char *prefix)
{
    int lines = 0;
    for (int i = 0; i < n; i++) {
        const struct dh_run *u = &runs[i];
        if (!na_in(u, bench, backend, device))
            continue;
        int seen = 0;                   /* one line per benchmark and reason */
        for (int j = 0; j < i && !seen; j++)
            seen = na_in(&runs[j], bench, backend, device)
                   && !strcmp(runs[j].c.bench_name, u->c.bench_name)
                   && !strcmp(runs[j].r.remap.reason, u->r.remap.reason);
        if (!seen) {
            fprintf(f, "%sremap overhead n/a for %s: %s\n", prefix, u->c.bench_name,
                    u->r.remap.reason);
            lines++;
        }
    }
    return lines;
}
