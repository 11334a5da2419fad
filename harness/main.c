/* main.c — the `harness` command: subcommand dispatch and usage.
 * Exit codes (all subcommands, DESIGN.md): 0 success; 1 a run failed
 * verification (results still written); 2 compare found a regression;
 * 3 infrastructure or data problem; 64 usage error; 130 interrupted. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

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
        "  help      this text; `harness run --help` for the options of run\n"
        "\n"
        "exit codes: 0 ok, 1 a result was wrong, 3 infrastructure/data problem,\n"
        "            64 usage error, 130 interrupted\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return DH_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "run"))
        return dh_cmd_run(argc - 1, argv + 1, argc, argv);
    if (!strcmp(cmd, "list"))
        return dh_cmd_list(argc - 1, argv + 1);
    if (!strcmp(cmd, "devices"))
        return dh_cmd_devices(argc - 1, argv + 1);
    if (!strcmp(cmd, "validate"))
        return dh_cmd_validate(argc - 1, argv + 1);
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "harness: unknown command '%s': choose run, list, devices, validate "
            "or help\n", cmd);
    return DH_EXIT_USAGE;
}
