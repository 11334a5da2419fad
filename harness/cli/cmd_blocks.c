/* cmd_blocks.c — `harness blocks`: a benchmark's DH_BB blocks priced two
 * ways side by side: the hand-counted operation table of its C file
 * (under the nvidia-sm90 latency table) and its compiled machine code
 * (harness/model/sasscost.h: the build a run makes, compiled with NVRTC
 * for sm_<arch>, disassembled, instructions mapped to blocks). No device:
 * the case is planned against a made-up CUDA device, as `emit` does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../suites/suite.h"
#include "../model/bbv.h"
#include "../model/sasscost.h"
#include "../run/plan.h"
#include "../run/runner.h"
#include "../run/source.h"
#include "cli.h"
#include "../support/fs.h"

static void blocks_usage(FILE *f)
{
    fprintf(f,
        "usage: harness blocks --bench SUITE/BENCH [options]\n"
        "  per marked block: the hand table's instructions and cycles, and from the\n"
        "  compiled kernel (NVRTC -lineinfo, nvdisasm -c -gi): instructions, issue\n"
        "  cost (sm_90 table), predicated (if-converted) instructions, loops\n"
        "  --bench S/B     the benchmark (its baseline kernel)\n"
        "  --size S        small|medium|large (default medium)\n"
        "  --param k=v     workload parameters, as for run (repeatable; first value)\n"
        "  --arch CC       compute capability to compile for (default 90)\n"
        "  --kernel NAME   the kernel (default: the one named *_baseline)\n"
        "  --sass FILE     read this nvdisasm -c -gi listing instead of compiling\n"
        "  --costs         print the sm_90 issue-cost table and stop\n"
        "nvdisasm: $DH_NVDISASM, else on PATH; it must read NVRTC's CUBINs (docs/getting-started.md).\n"
        "exit codes: 0 ok, 3 no NVRTC/nvdisasm or a failed compile, 64 usage error\n");
}

static char *read_all(const char *path)
{
    char why[4400];
    FILE *f = dh_fopen_data(path, DH_DATA_MAX_LISTING, why, sizeof why);
    if (!f) {
        fprintf(stderr, "harness blocks: %s\n", why);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    size_t r;
    while (b && (r = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (n + 1 == cap) {
            char *v = realloc(b, cap *= 2);
            if (!v) {
                free(b);
                b = NULL;
            }
            b = v;
        }
    }
    fclose(f);
    if (b)
        b[n] = 0;
    return b;
}

int dh_cmd_blocks(int argc, char **argv)
{
    const char *bench = NULL, *size = "medium", *kernel = NULL, *sass = NULL;
    const char *params[64];
    int n_params = 0, arch = 90;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            blocks_usage(stdout);
            return DH_EXIT_OK;
        }
        if (!strcmp(a, "--costs")) {
            char t[4096];
            dh_sass_cost_table(t, sizeof t);
            printf("# opcode prefix, issue cycles per warp instruction (sm_90)\n%s", t);
            return DH_EXIT_OK;
        }
        if (!v) {
            fprintf(stderr, "harness blocks: %s needs a value\n", a);
            blocks_usage(stderr);
            return DH_EXIT_USAGE;
        }
        i++;
        if (!strcmp(a, "--bench"))
            bench = v;
        else if (!strcmp(a, "--size"))
            size = v;
        else if (!strcmp(a, "--kernel"))
            kernel = v;
        else if (!strcmp(a, "--sass"))
            sass = v;
        else if (!strcmp(a, "--arch")) {
            if (!dh_cli_int("blocks", a, v, 10, 999, &arch))
                return DH_EXIT_USAGE;
        } else if (!strcmp(a, "--param") && n_params < 64)
            params[n_params++] = v;
        else {
            fprintf(stderr, "harness blocks: unknown option '%s'\n", a);
            blocks_usage(stderr);
            return DH_EXIT_USAGE;
        }
    }
    const char *slash = bench ? strchr(bench, '/') : NULL;
    if (!slash || !slash[1] || slash == bench) {
        fprintf(stderr, "harness blocks: --bench SUITE/BENCH is required (e.g. micro/branch; "
                        "`harness list` names them)\n");
        return DH_EXIT_USAGE;
    }
    char suite[64], name[64];
    snprintf(suite, sizeof suite, "%.*s", (int)(slash - bench), bench);
    snprintf(name, sizeof name, "%s", slash + 1);

    /* the cases of the CUDA backend; a harness built without it plans
     * HIP's (the same dialect, warp votes and defines), enough to read a
     * listing made elsewhere (--sass) */
    const char *be = dh_backend_find("cuda") ? "cuda" : "hip";
    static struct dh_devlist devs;
    memset(&devs, 0, sizeof devs);
    devs.n = 1;
    snprintf(devs.d[0].backend, sizeof devs.d[0].backend, "%s", be);
    struct dh_device_info *info = &devs.d[0].info;
    snprintf(info->name, sizeof info->name, "blocks sm_%d", arch);
    snprintf(info->arch, sizeof info->arch, "sm_%d", arch);
    snprintf(info->kind, sizeof info->kind, "gpu");
    info->warp_width = 32;
    info->warp_source = DH_WARP_OVERRIDE;
    info->max_wg = 1024;
    info->local_mem_bytes = 49152;
    info->global_mem_bytes = info->max_alloc_bytes = 1ull << 40;
    devs.n_backends = 1;
    snprintf(devs.b[0].name, sizeof devs.b[0].name, "%s", be);
    devs.b[0].n_devices = 1;

    struct dh_selection sel;
    memset(&sel, 0, sizeof sel);
    sel.suite = suite;
    sel.benches = name;
    sel.variants = "baseline";
    sel.backends = be;
    sel.size = size;
    sel.reps = 1;
    sel.timeout_s = 60;
    sel.model = 1;
    sel.n_params = n_params;
    for (int i = 0; i < n_params; i++)
        sel.params[i] = params[i];
    struct dh_run *runs = NULL;
    int n = 0;
    struct dh_err e = {0};
    int rc = dh_plan(&sel, &devs, &runs, &n, &e);
    if (rc) {
        fprintf(stderr, "harness blocks: %s\n", e.msg);
        return dh_exit_for(-rc);
    }
    if (n < 1 || !runs[0].c.bench->blocks) {
        fprintf(stderr, "harness blocks: %s has %s\n", bench,
                n < 1 ? "no baseline case" : "no marked blocks (DH_BB)");
        free(runs);
        return DH_EXIT_USAGE;
    }
    const struct dh_case *c = &runs[0].c;
    const struct dh_bench *b = c->bench;
    if (!kernel && !sass && b->kernel)
        kernel = b->kernel(c);             /* the baseline's declared entry (a listing
                                              given with --sass: its *_baseline or only
                                              kernel, or --kernel) */
    char *src = dh_source_assemble(c);
    char opts[8192];
    if (!src || dh_source_options(c, info, opts, sizeof opts)) {
        free(src);
        free(runs);
        fprintf(stderr, "harness blocks: %s: cannot assemble the build\n", bench);
        return DH_EXIT_INFRA;
    }
    struct dh_sass_costs sc;
    if (sass) {
        char *listing = read_all(sass);
        if (!listing) {
            fprintf(stderr, "harness blocks: cannot read %s\n", sass);
            rc = -DH_E_IO;
        } else {
            rc = dh_sass_costs_listing(listing, src, opts, kernel, b->n_blocks, &sc, &e);
            snprintf(sc.disasm, sizeof sc.disasm, "%s", sass);
        }
        free(listing);
    } else {
        rc = dh_sass_costs_build(arch, src, opts, kernel, b->n_blocks, &sc, &e);
    }
    free(src);
    if (rc) {
        if (e.msg[0])
            fprintf(stderr, "harness blocks: %s\n", e.msg);
        free(runs);
        return dh_exit_for(-rc);
    }
    struct dh_latency_table t;
    struct dh_device_info h100 = {0};
    snprintf(h100.arch, sizeof h100.arch, "sm_90");
    snprintf(h100.platform, sizeof h100.platform, "CUDA");   /* the code priced is CUDA's */
    unsetenv("DH_LATENCY_TABLE");            /* the hand side: the built-in table */
    dh_latency_table_for(&h100, &t, &e);
    double *hc = calloc((size_t)b->n_blocks, sizeof *hc), *hi = calloc((size_t)b->n_blocks, sizeof *hi);
    if (!hc || !hi) {
        free(hc);
        free(hi);
        dh_sass_costs_free(&sc);
        free(runs);
        fprintf(stderr, "harness blocks: out of host memory\n");
        return DH_EXIT_INFRA;
    }
    dh_bbv_block_costs(b->blocks, b->n_blocks, &t, hc, hi);
    char label[300];
    dh_case_variant_label(c, label, sizeof label);
    printf("# %s %s size=%s, kernel %s, sm_%d, %s, %s\n", bench, label, c->size, sc.kernel,
           arch, sc.compiler[0] ? sc.compiler : "listing", sc.disasm);
    printf("# hand: the C file's table under %s (instructions, cycles per execution)\n"
           "# sass: per execution, from the code (issue cycles per `harness blocks --costs`);\n"
           "# static: instructions mapped to the block; pred: of those under a guard (if-converted);\n"
           "# loop: of those inside the block's own loops; loops: how many (?: trip count not\n"
           "# constant, its body counted once); pred_in: guarded instructions per execution;\n"
           "# parent: the block around it; each: the block counting the loop in each of whose\n"
           "# iterations the table says it is decided afresh (dh_bb_def.each);\n"
           "# N: a DH_BB_N block (count, or ? when not constant)\n",
           t.name);
    int *each = malloc((size_t)b->n_blocks * sizeof *each);
    struct dh_err ee = {0};
    if (each && dh_bbv_each_loops(b->blocks, b->n_blocks, each, &ee) < 0) {
        fprintf(stderr, "harness blocks: %s's block table: %s\n", bench, ee.msg);
        for (int k = 0; k < b->n_blocks; k++)
            each[k] = -1;
    }
    printf("%3s %-16s %8s %8s | %8s %8s %6s %5s %5s %6s %6s %6s %7s %6s %4s %s\n", "id", "block",
           "hand_in", "hand_cy", "sass_in", "sass_cy", "static", "pred", "loop", "loops", "unroll",
           "shared", "pred_in", "parent", "each", "N");
    for (int k = 0; k < b->n_blocks; k++) {
        const struct dh_sass_block *o = &sc.b[k];
        char loops[16] = "-", nf[24] = "";
        if (o->loops)
            snprintf(loops, sizeof loops, "%d%s", o->loops, o->loops_unknown ? "?" : "");
        if (o->n_form && o->count > 0)
            snprintf(nf, sizeof nf, "%ld", o->count);
        else if (o->n_form)
            snprintf(nf, sizeof nf, "?");
        char parent[16] = "-", ev[16] = "-";
        if (o->parent >= 0)
            snprintf(parent, sizeof parent, "%d", o->parent);
        if (each && each[k] >= 0)
            snprintf(ev, sizeof ev, "%d", each[k]);
        printf("%3d %-16.16s %8.1f %8.1f | %8.1f %8.1f %6d %5d %5d %6s %6d %6d %7.1f %6s %4s %s\n",
               k, b->blocks[k].name, hi[k], hc[k], o->inst_per_exec, o->cost_per_exec, o->insts,
               o->predicated, o->loop_insts, loops, o->unroll, o->shared, o->pred_per_exec,
               parent, ev, nf);
    }
    free(each);
    int unknown = 0, pred = 0, insts = 0;
    for (int k = 0; k < b->n_blocks; k++) {
        unknown += sc.b[k].unknown_ops;
        pred += sc.b[k].predicated;
        insts += sc.b[k].insts;
    }
    printf("# kernel: %d instructions, %d outside every marked region, %d on lines of several "
           "blocks (given to none); in blocks (a called subroutine at each call): %d, %d "
           "predicated, %d of opcodes outside the cost table (priced 1)\n", sc.total, sc.unmarked, sc.shared, insts, pred, unknown);
    if (sc.unresolved)
        printf("# %d markers whose id is not a constant expression (first: %s)\n",
               sc.unresolved, sc.first_unresolved);
    free(hc);
    free(hi);
    dh_sass_costs_free(&sc);
    free(runs);
    return DH_EXIT_OK;
}
