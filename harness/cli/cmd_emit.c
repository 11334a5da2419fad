/* cmd_emit.c — `harness emit`: the exact source and build options of every
 * build a run would make, written to a folder without any device.
 *
 * The cases are planned as `run` plans them (harness/run/plan.c), against one
 * made-up device of the backend named by --backend with the warp width of
 * --wave; each distinct (source, options) pair is written once as
 * DIR/NNNN.<ext> (source) + DIR/NNNN.options, and DIR/builds.tsv lists
 * number, case label and options. CI compiles them with a vendor compiler
 * on a machine without a GPU (ci/hip-amd-check.sh: hipcc for AMD).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../backends/cache.h"
#include "../../suites/suite.h"
#include "cli.h"
#include "../run/plan.h"
#include "../run/runner.h"
#include "../run/source.h"

static void emit_usage(FILE *f)
{
    fprintf(f,
        "usage: harness emit --out DIR [options]\n"
        "  --out DIR          folder for NNNN.<ext> + NNNN.options and builds.tsv\n"
        "  --suite S,...      suites (default: all)\n"
        "  --bench B,...      benchmarks of the suite (default: all), as for run\n"
        "  --variant V,...    variants (default: all), as for run\n"
        "  --backend B        backend whose cases are planned (default hip): the\n"
        "                     warp-vote forms apply on cuda and hip only\n"
        "  --wave N           the device's warp/wavefront width (default 64)\n"
        "  --local BYTES      its local memory per work-group (default 65536)\n"
        "  --size S,...       sizes (default small,medium,large)\n"
        "  --param k=v        as for run (repeatable; lists expand)\n"
        "  --ext EXT          source file extension (default hip)\n"
        "exit codes: 0 ok, 3 a file could not be written, 64 usage error\n");
}

struct emitted {
    uint64_t *h;
    int n, cap;
};

/* 1 when (src, opts) was written before; else remembers it. */
static int seen(struct emitted *e, const char *src, const char *opts)
{
    uint64_t h = dh_fnv1a64(src, strlen(src), DH_FNV_OFFSET);
    h = dh_fnv1a64("\n", 1, h);
    h = dh_fnv1a64(opts, strlen(opts), h);
    for (int i = 0; i < e->n; i++)
        if (e->h[i] == h)
            return 1;
    if (e->n == e->cap) {
        int cap = e->cap ? 2 * e->cap : 256;
        uint64_t *v = realloc(e->h, (size_t)cap * sizeof *v);
        if (!v)
            return 0;            /* written twice at worst */
        e->h = v;
        e->cap = cap;
    }
    e->h[e->n++] = h;
    return 0;
}

static int write_text(const char *path, const char *a, const char *b)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(a, f);
    if (b)
        fputs(b, f);
    return fclose(f) ? -1 : 0;
}

int dh_cmd_emit(int argc, char **argv)
{
    const char *out = NULL, *suites = NULL, *backend = "hip", *sizes = NULL,
               *ext = "hip", *benches = NULL, *variants = "all";
    int wave = 64;
    long local = 65536;
    const char *params[64];
    int n_params = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            emit_usage(stdout);
            return DH_EXIT_OK;
        }
        if (!v) {
            fprintf(stderr, "harness emit: %s needs a value\n", a);
            emit_usage(stderr);
            return DH_EXIT_USAGE;
        }
        i++;
        if (!strcmp(a, "--out"))
            out = v;
        else if (!strcmp(a, "--suite"))
            suites = v;
        else if (!strcmp(a, "--bench"))
            benches = v;
        else if (!strcmp(a, "--variant"))
            variants = v;
        else if (!strcmp(a, "--backend"))
            backend = v;
        else if (!strcmp(a, "--size"))
            sizes = v;
        else if (!strcmp(a, "--ext"))
            ext = v;
        else if (!strcmp(a, "--wave")) {
            if (!dh_cli_int("emit", a, v, 1, 1024, &wave))
                return DH_EXIT_USAGE;
        } else if (!strcmp(a, "--local")) {
            int bytes;
            if (!dh_cli_int("emit", a, v, 0, 1 << 30, &bytes))
                return DH_EXIT_USAGE;
            local = bytes;
        }
        else if (!strcmp(a, "--param") && n_params < 64)
            params[n_params++] = v;
        else {
            fprintf(stderr, "harness emit: unknown option '%s'\n", a);
            emit_usage(stderr);
            return DH_EXIT_USAGE;
        }
    }
    if (!out || wave < 1 || wave > 1024 || local < 1024) {
        fprintf(stderr, "harness emit: %s\n", !out ? "--out DIR is required"
                        : "--wave must be 1..1024 and --local at least 1024");
        emit_usage(stderr);
        return DH_EXIT_USAGE;
    }
    if (!dh_backend_find(backend)) {
        fprintf(stderr, "harness emit: unknown backend '%s': choose from %s\n",
                backend, dh_backend_names());
        return DH_EXIT_USAGE;
    }
    if (mkdir(out, 0755) && errno != EEXIST) {
        fprintf(stderr, "harness emit: cannot create %s: %s\n", out, strerror(errno));
        return DH_EXIT_INFRA;
    }

    /* the made-up device: only what planning and the defines look at */
    static struct dh_devlist devs;
    memset(&devs, 0, sizeof devs);
    devs.n = 1;
    snprintf(devs.d[0].backend, sizeof devs.d[0].backend, "%s", backend);
    struct dh_device_info *info = &devs.d[0].info;
    snprintf(info->name, sizeof info->name, "emit wave%d", wave);
    snprintf(info->kind, sizeof info->kind, "gpu");
    info->warp_width = wave;
    info->warp_source = DH_WARP_OVERRIDE;
    info->max_wg = 1024;
    info->local_mem_bytes = (uint64_t)local;
    info->global_mem_bytes = info->max_alloc_bytes = 1ull << 40;
    devs.n_backends = 1;
    snprintf(devs.b[0].name, sizeof devs.b[0].name, "%s", backend);
    devs.b[0].n_devices = 1;

    char all_suites[512];
    snprintf(all_suites, sizeof all_suites, "%s", suites ? suites : dh_suite_names());
    char size_list[128];
    snprintf(size_list, sizeof size_list, "%s", sizes ? sizes : "small,medium,large");

    char path[4096];
    snprintf(path, sizeof path, "%s/builds.tsv", out);
    FILE *tsv = fopen(path, "w");
    if (!tsv) {
        fprintf(stderr, "harness emit: cannot write %s: %s\n", path, strerror(errno));
        return DH_EXIT_INFRA;
    }
    struct emitted em = {0};
    int n_written = 0, n_cases = 0, rc = DH_EXIT_OK;
    char *save_s = NULL;
    for (char *s = strtok_r(all_suites, ", ", &save_s); s && rc == DH_EXIT_OK;
         s = strtok_r(NULL, ", ", &save_s)) {
        char sizes_copy[128];
        snprintf(sizes_copy, sizeof sizes_copy, "%s", size_list);
        char *save_z = NULL;
        for (char *z = strtok_r(sizes_copy, ",", &save_z); z && rc == DH_EXIT_OK;
             z = strtok_r(NULL, ",", &save_z)) {
            struct dh_selection sel;
            memset(&sel, 0, sizeof sel);
            sel.suite = s;
            sel.benches = benches;
            sel.variants = variants;
            sel.backends = backend;
            sel.device = 0;
            sel.size = z;
            sel.reps = 1;
            sel.timeout_s = 60;
            sel.profile = 0;
            sel.n_params = n_params;
            for (int i = 0; i < n_params; i++)
                sel.params[i] = params[i];
            struct dh_run *runs = NULL;
            int n = 0;
            struct dh_err e = {0};
            int prc = dh_plan(&sel, &devs, &runs, &n, &e);
            if (prc) {
                fprintf(stderr, "harness emit: %s (%s): %s\n", s, z, e.msg);
                rc = dh_exit_for(-prc);
                break;
            }
            for (int i = 0; i < n && rc == DH_EXIT_OK; i++) {
                const struct dh_case *c = &runs[i].c;
                n_cases++;
                char *src = dh_source_assemble(c);
                char opts[8192];
                if (!src || dh_source_options(c, info, opts, sizeof opts)) {
                    free(src);
                    fprintf(stderr, "harness emit: %s/%s: cannot assemble the build\n",
                            c->suite, c->bench_name);
                    rc = DH_EXIT_INFRA;
                    break;
                }
                if (!seen(&em, src, opts)) {
                    char label[300];
                    dh_case_variant_label(c, label, sizeof label);
                    snprintf(path, sizeof path, "%s/%04d.%s", out, n_written, ext);
                    int w = write_text(path, src, NULL);
                    snprintf(path, sizeof path, "%s/%04d.options", out, n_written);
                    w = w ? w : write_text(path, opts, "\n");
                    if (w) {
                        fprintf(stderr, "harness emit: cannot write %s: %s\n", path,
                                strerror(errno));
                        rc = DH_EXIT_INFRA;
                    } else {
                        fprintf(tsv, "%04d\t%s/%s %s size=%s\t%s\n", n_written, c->suite,
                                c->bench_name, label, c->size, opts);
                        n_written++;
                    }
                }
                free(src);
            }
            free(runs);
        }
    }
    free(em.h);
    if (fclose(tsv) && rc == DH_EXIT_OK)
        rc = DH_EXIT_INFRA;
    if (rc == DH_EXIT_OK)
        printf("emit: %d builds (of %d cases) for %s, wave %d, in %s\n", n_written, n_cases,
               backend, wave, out);
    return rc;
}
