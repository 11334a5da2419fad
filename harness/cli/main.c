/* main.c — the `harness` command: subcommand dispatch and usage.
 * Exit codes (all subcommands, DESIGN.md): 0 success; 1 a run failed
 * verification (results still written); 2 compare found a regression;
 * 3 infrastructure or data problem; 64 usage error; 130 interrupted. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "opts.h"
#include "../../backends/backend.h"

/* made by the build (Makefile: $(BUILD)/version.c) */
extern const char dh_version[], dh_git_rev[];

/* `harness --version` (and `harness CMD --version`): the version, the
 * revision it was built from, the backends compiled in */
static int version(void)
{
    printf("harness (divharness) %s\ngit revision %s\nbackends built in:", dh_version,
           dh_git_rev);
    for (int i = 0; i < dh_backend_count(); i++)
        printf("%s %s", i ? "," : "", dh_backend_at(i)->name);
    printf("\n");
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f,
        "usage: harness <command> [options]\n"
        "\n"
        "commands:\n"
        "  run       run a suite: build, verify against the CPU reference, time, write XML\n"
        "  list      list suites, benchmarks, variants and their parameters\n"
        "  devices   list backends and devices (available, or absent with the reason)\n"
        "  validate  check a results file against the results schema\n"
        "  tune      tune a user's own kernel described by an XML descriptor\n"
        "  history   a case's nightly history across results files (charts, table)\n"
        "  export    a results file as CSV, and its tuning records as T4 JSON\n"
        "  rerun     repeat one case of a results file exactly (--case KEY)\n"
        "  tune-study replay exhaustive tuning records: evaluations random search,\n"
        "            annealing and the model's ranking need to come within 5%% of the best\n"
        "  compare   judge NEW results against BASE (or the stored baseline), case by case\n"
        "  merge     join several results files into one\n"
        "  slurm     a run as a Slurm job array of shards and a merge job after it\n"
        "  baseline  store the accepted results of this machine (save, path, list)\n"
        "  report    tables and gnuplot charts of a results file in one folder\n"
        "  study     a vendor comparison: the same cases on every backend and device,\n"
        "            which technique pays where (or --from results files)\n"
        "  emit      the source and options of every build, without a device (CI)\n"
        "  cache     the workload cache: show, clear or verify its entries\n"
        "  db        the nights of a machine in one SQLite database (add, list, show,\n"
        "            steps)\n"
        "  publish   a history database as a static site: cases, steps, a page per case\n"
        "  blocks    a benchmark's blocks priced by hand and from its compiled sm_90 code\n"
        "  help      this text; `harness run --help` for the options of run\n"
        "  --version the version, its git revision and the backends built in\n"
        "\n"
        "exit codes: 0 ok, 1 a result was wrong, 2 compare found a regression,\n"
        "            3 infrastructure/data problem,\n"
        "            64 usage error, 130 interrupted\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return DH_EXIT_USAGE;
    }
    /* stdout line by line, so that what goes to stderr lands after the
     * lines stdout wrote before it when both go to one log (CI) */
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version") ||
        (argc == 3 && !strcmp(argv[2], "--version")))
        return version();
    /* --help of the commands without a usage text of their own: one
     * answer, on stdout, exit 0, for every command */
    static const char *const brief[][2] = {
        {"devices", "usage: harness devices [--isolate=no]\n  backends and devices, or why a "
                    "backend has none\n"},
        {"validate", "usage: harness validate RESULTS.xml...\n  checks each file against "
                     "results/divharness-1.xsd\n"},
        {"tune-study", "usage: harness tune-study RESULTS.xml [--seeds N] [--no-model] "
                       "[--model-picks K]\n                          [--bbv-backend B] "
                       "[--bbv-device N]\n"},
        {"history", "usage: harness history RESULTS.xml... [--case KEY] [--out DIR]\n"},
        {"rerun", "usage: harness rerun RESULTS.xml --case KEY [--reps N] [--out DIR]\n"},
    };
    for (size_t k = 0; k < sizeof brief / sizeof brief[0]; k++)
        if (!strcmp(cmd, brief[k][0]))
            for (int i = 2; i < argc; i++)
                if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
                    fputs(brief[k][1], stdout);
                    return 0;
                }
    /* every command's options in one form (opts.h): --opt=value and
     * --opt value alike, unknown options refused with the closest one */
    int rc = dh_opts_normalize(argc, argv, &argc, &argv);
    if (rc)
        return rc;
    if (!strcmp(cmd, "run"))
        return dh_cmd_run(argc - 1, argv + 1, argc, argv);
    if (!strcmp(cmd, "list"))
        return dh_cmd_list(argc - 1, argv + 1);
    if (!strcmp(cmd, "devices"))
        return dh_cmd_devices(argc - 1, argv + 1);
    if (!strcmp(cmd, "validate"))
        return dh_cmd_validate(argc - 1, argv + 1);
    if (!strcmp(cmd, "tune"))
        return dh_cmd_tune(argc - 1, argv + 1, argc, argv);
    if (!strcmp(cmd, "history"))
        return dh_cmd_history(argc - 1, argv + 1);
    if (!strcmp(cmd, "export"))
        return dh_cmd_export(argc - 1, argv + 1);
    if (!strcmp(cmd, "rerun"))
        return dh_cmd_rerun(argc - 1, argv + 1, argc, argv);
    if (!strcmp(cmd, "tune-study"))
        return dh_cmd_tunestudy(argc - 1, argv + 1);
    if (!strcmp(cmd, "compare"))
        return dh_cmd_compare(argc - 1, argv + 1);
    if (!strcmp(cmd, "merge"))
        return dh_cmd_merge(argc - 1, argv + 1);
    if (!strcmp(cmd, "slurm"))
        return dh_cmd_slurm(argc - 1, argv + 1);
    if (!strcmp(cmd, "baseline"))
        return dh_cmd_baseline(argc - 1, argv + 1);
    if (!strcmp(cmd, "report"))
        return dh_cmd_report(argc - 1, argv + 1);
    if (!strcmp(cmd, "study"))
        return dh_cmd_study(argc - 1, argv + 1);
    if (!strcmp(cmd, "emit"))
        return dh_cmd_emit(argc - 1, argv + 1);
    if (!strcmp(cmd, "publish"))
        return dh_cmd_publish(argc - 1, argv + 1);
    if (!strcmp(cmd, "db"))
        return dh_cmd_db(argc - 1, argv + 1);
    if (!strcmp(cmd, "cache"))
        return dh_cmd_cache(argc - 1, argv + 1);
    if (!strcmp(cmd, "blocks"))
        return dh_cmd_blocks(argc - 1, argv + 1);
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "harness: unknown command '%s': choose run, list, devices, validate, "
            "tune, tune-study, compare, merge, slurm, baseline, report, study, history, export, rerun, emit, cache, db, publish, blocks, help or --version\n", cmd);
    return DH_EXIT_USAGE;
}
