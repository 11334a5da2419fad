/* cmd_info.c — `harness list`, `harness devices`, `harness validate`. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../backends/cache.h"
#include "../../results/xml.h"
#include "cli.h"
#include "../run/runner.h"
#include "../../suites/suite.h"
#include "../stats/load.h"

int dh_cli_int(const char *cmd, const char *opt, const char *v, long lo, long hi, int *out)
{
    char *end;
    errno = 0;
    long x = v ? strtol(v, &end, 10) : 0;
    if (!v || end == v || *end || errno || x < lo || x > hi) {
        fprintf(stderr, "harness %s: %s %s: want an integer in %ld..%ld\n", cmd, opt,
                v ? v : "(missing)", lo, hi);
        return 0;
    }
    *out = (int)x;
    return 1;
}

int dh_exit_for(int code)
{
    if (code < 0)
        code = -code;
    switch (code) {
    case DH_OK: return DH_EXIT_OK;
    case DH_E_USAGE: case DH_E_CONSTRAINT: return DH_EXIT_USAGE;
    case DH_E_WRONG: return DH_EXIT_WRONG;
    case DH_E_INTERRUPTED: return DH_EXIT_INTERRUPTED;
    default: return DH_EXIT_INFRA;
    }
}

int dh_cmd_list(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "harness list: takes no arguments\n");
        return DH_EXIT_USAGE;
    }
    const char *last = "";
    for (int i = 0; i < dh_bench_count(); i++) {
        const struct dh_bench *b = dh_bench_at(i);
        if (strcmp(last, b->suite))
            printf("suite %s\n", b->suite);
        last = b->suite;
        printf("  %s/%s — %s\n    variants: %s\n", b->suite, b->name, b->summary, b->variants);
        if (b->absent)
            printf("    absent:   %s\n", b->absent);
        if (b->blocks)
            printf("    basic blocks: %d marked (BBV model; docs/model.md), %s-bound\n",
                   b->n_blocks, b->bound ? b->bound : "?");
        for (const struct dh_param_def *d = b->params; d && d->name; d++)
            printf("    %-8s %-8s %-22s default %-5s %s%s%s\n", d->name, dh_pkind_name(d->kind),
                   d->domain, d->def ? d->def : "-", d->doc, d->variants ? " — for " : "",
                   d->variants ? d->variants : "");
        if (b->sweep && b->sweep[0]) {
            printf("    default workloads:");
            for (int k = 0; b->sweep[k]; k++)
                printf(" [%s]", b->sweep[k]);
            printf("\n");
        }
    }
    return 0;
}

int dh_cmd_devices(int argc, char **argv)
{
    int isolate = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--isolate=no"))
            isolate = 0;
        else {
            fprintf(stderr, "harness devices: unknown option '%s' (valid: --isolate=no)\n",
                    argv[i]);
            return DH_EXIT_USAGE;
        }
    }
    struct dh_devlist l;
    struct dh_err e = {0};
    int rc = dh_devices_gather(&l, isolate, &e);
    if (rc) {
        fprintf(stderr, "harness devices: %s\n", e.msg);
        return dh_exit_for(rc);
    }
    for (int b = 0; b < l.n_backends; b++) {
        if (!l.b[b].n_devices) {
            printf("%-7s absent: %s\n", l.b[b].name, l.b[b].why);
            continue;
        }
        printf("%-7s available: %d device%s\n", l.b[b].name, l.b[b].n_devices,
               l.b[b].n_devices == 1 ? "" : "s");
        for (int i = 0; i < l.n; i++) {
            if (strcmp(l.d[i].backend, l.b[b].name))
                continue;
            const struct dh_device_info *d = &l.d[i].info;
            printf("  [%d] %s (%s, %s)\n      %s; %s %s; warp %d (%s); %d CUs; max wg %d; "
                   "%.1f GiB; local %llu KiB; %d MHz; counters %s\n",
                   l.d[i].index, d->name, d->kind, d->vendor, d->platform, d->runtime,
                   d->driver, d->warp_width,
                   d->warp_source == DH_WARP_DEVICE ? "from device"
                   : d->warp_source == DH_WARP_OVERRIDE ? "DH_WARP_WIDTH" : "default",
                   d->compute_units, d->max_wg, (double)d->global_mem_bytes / (1u << 30),
                   (unsigned long long)(d->local_mem_bytes >> 10), d->clock_mhz,
                   d->has_counters ? "yes" : "no (CFE from the model)");
        }
    }
    printf("program cache: %s\n", dh_cache_dir());
    for (int b = 0; b < l.n_backends; b++)
        if (l.b[b].n_devices)
            return 0;
    return DH_EXIT_INFRA;
}

int dh_cmd_validate(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: harness validate FILE.xml...\n");
        return DH_EXIT_USAGE;
    }
    int worst = 0;
    for (int i = 1; i < argc; i++) {
        struct dh_err e = {0};
        int rc = dh_xml_validate(argv[i], &e);
        /* the schema, then the rules every other command applies when it
         * reads the file (finite, positive samples; integers in range; one
         * run per case): what validate calls valid, every command reads */
        struct dh_resultfile f;
        if (!rc && !(rc = dh_results_load(argv[i], &f, &e)))
            dh_resultfile_free(&f);
        if (rc) {
            fprintf(stderr, "harness validate: %s\n", e.msg);
            worst = DH_EXIT_INFRA;
        } else {
            printf("%s: valid (results version %d)\n", argv[i], DH_RESULTS_VERSION);
        }
    }
    return worst;
}
