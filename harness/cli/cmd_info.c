/* cmd_info.c — `harness list`, `harness devices`, `harness validate`. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../backends/cache.h"
#include "../../results/xml.h"
#include "cli.h"
#include "../support/suggest.h"
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

/* text wrapped at width, every line after the first indented by indent
 * (the first continues where the caller is: at column col) */
static void wrapped(const char *text, int col, int indent, int width)
{
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        size_t w = strcspn(p, " ");
        /* a word longer than a line (an enum's values) breaks after a comma */
        if ((int)w > width - indent) {
            size_t c = w;
            while (c > 1 && (p[c - 1] != ',' || indent + (int)c > width))
                c--;
            if (c > 1)
                w = c;
        }
        if (col > indent && col + 1 + (int)w > width) {
            printf("\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            putchar(' ');
            col++;
        }
        printf("%.*s", (int)w, p);
        col += (int)w;
        p += w;
    }
    putchar('\n');
}

static void list_usage(FILE *f)
{
    fprintf(f, "usage: harness list [--suite S] [--bench B]\n"
               "  suites, benchmarks, variants (and why one is absent), parameters with\n"
               "  their kind, domain, default and meaning, wrapped to the terminal\n"
               "  (COLUMNS, default 100); --suite and --bench keep one suite or benchmark\n");
}

int dh_cmd_list(int argc, char **argv)
{
    const char *suite = NULL, *bench = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) {
            list_usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--suite") && i + 1 < argc) {
            suite = argv[++i];
        } else if (!strcmp(argv[i], "--bench") && i + 1 < argc) {
            bench = argv[++i];
        } else {
            fprintf(stderr, "harness list: unexpected '%s'\n", argv[i]);
            list_usage(stderr);
            return DH_EXIT_USAGE;
        }
    }
    if (suite && !dh_suite_exists(suite)) {
        char m[64];
        int has = !dh_suggest_list(suite, dh_suite_names(), m, sizeof m);
        fprintf(stderr, "harness list: unknown suite '%s'%s%s%s: choose one of %s\n", suite,
                has ? " (did you mean " : "", has ? m : "", has ? "?)" : "", dh_suite_names());
        return DH_EXIT_USAGE;
    }
    char names[1024] = "";
    for (int i = 0; i < dh_bench_count(); i++) {
        const struct dh_bench *b = dh_bench_at(i);
        if (!suite || !strcmp(b->suite, suite))
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                     names[0] ? ", " : "", b->name);
    }
    int found = 0;
    for (int i = 0; bench && i < dh_bench_count(); i++)
        found |= !strcmp(dh_bench_at(i)->name, bench) &&
                 (!suite || !strcmp(dh_bench_at(i)->suite, suite));
    if (bench && !found) {
        char m[64];
        int has = !dh_suggest_list(bench, names, m, sizeof m);
        fprintf(stderr, "harness list: unknown benchmark '%s'%s%s%s: choose one of %s\n", bench,
                has ? " (did you mean " : "", has ? m : "", has ? "?)" : "", names);
        return DH_EXIT_USAGE;
    }
    const char *cols = getenv("COLUMNS");
    int width = cols && atoi(cols) >= 40 ? atoi(cols) : 100;
    const char *last = "";
    for (int i = 0; i < dh_bench_count(); i++) {
        const struct dh_bench *b = dh_bench_at(i);
        if ((suite && strcmp(b->suite, suite)) || (bench && strcmp(b->name, bench)))
            continue;
        if (strcmp(last, b->suite))
            printf("suite %s\n", b->suite);
        last = b->suite;
        int col = printf("  %s/%s —", b->suite, b->name);
        wrapped(b->summary, col, 4, width);
        printf("    variants: %s\n", b->variants);
        if (b->absent) {
            col = printf("    absent:  ");
            wrapped(b->absent, col, 14, width);
        }
        if (b->blocks)
            printf("    basic blocks: %d marked (BBV model; docs/model.md), %s-bound\n",
                   b->n_blocks, b->bound ? b->bound : "?");
        for (const struct dh_param_def *d = b->params; d && d->name; d++) {
            /* name, kind, default, then the domain and the meaning wrapped */
            col = printf("    %-8s %-8s default %-6s", d->name, dh_pkind_name(d->kind),
                         d->def ? d->def : "-");
            char text[1536];
            snprintf(text, sizeof text, "%s; %s%s%s", d->domain, d->doc,
                     d->variants ? " — for " : "", d->variants ? d->variants : "");
            wrapped(text, col, 13, width);
        }
        if (b->sweep && b->sweep[0]) {
            char text[2048] = "";
            for (int k = 0; b->sweep[k]; k++)
                snprintf(text + strlen(text), sizeof text - strlen(text), "%s[%s]", k ? " " : "",
                         b->sweep[k]);
            col = printf("    default workloads:");
            wrapped(text, col, 6, width);
        }
    }
    return 0;
}

int dh_cmd_devices(int argc, char **argv)
{
    int isolate = 1;
    for (int i = 1; i < argc; i++) {
        /* (opts.c has made --isolate=no into --isolate no) */
        if (!strcmp(argv[i], "--isolate") && i + 1 < argc &&
            (!strcmp(argv[i + 1], "no") || !strcmp(argv[i + 1], "yes"))) {
            isolate = !strcmp(argv[++i], "yes");
        } else {
            fprintf(stderr, "harness devices: %s%s%s: choose --isolate yes or no\n", argv[i],
                    i + 1 < argc ? " " : "", i + 1 < argc ? argv[i + 1] : "");
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
