/* cli.h — the subcommands of `harness`. Each returns an exit code.
 *
 * harness/cli/ is the top of the house: argument parsing, messages and
 * exit codes, one file per subcommand. It may call every room below
 * (tuning, the run engine, the report, the statistics, the suites'
 * registry, results/, support, backends/); nothing calls it but main. */
#ifndef DH_CLI_H
#define DH_CLI_H

enum {
    DH_EXIT_OK = 0,
    DH_EXIT_WRONG = 1,
    DH_EXIT_REGRESSION = 2,
    DH_EXIT_INFRA = 3,
    DH_EXIT_USAGE = 64,
    DH_EXIT_INTERRUPTED = 130,
};

int dh_cmd_run(int argc, char **argv, int full_argc, char **full_argv);
int dh_cmd_list(int argc, char **argv);
int dh_cmd_devices(int argc, char **argv);
int dh_cmd_validate(int argc, char **argv);
int dh_cmd_tunestudy(int argc, char **argv);
int dh_cmd_export(int argc, char **argv);
int dh_cmd_history(int argc, char **argv);
int dh_cmd_rerun(int argc, char **argv, int full_argc, char **full_argv);
int dh_cmd_tune(int argc, char **argv, int full_argc, char **full_argv);
int dh_cmd_compare(int argc, char **argv);   /* cmd_compare.c */
int dh_cmd_merge(int argc, char **argv);     /* cmd_merge.c */
int dh_cmd_baseline(int argc, char **argv);  /* cmd_merge.c */
int dh_cmd_report(int argc, char **argv);    /* cmd_report.c */
int dh_cmd_emit(int argc, char **argv);      /* cmd_emit.c */
int dh_cmd_slurm(int argc, char **argv);     /* cmd_slurm.c */
int dh_cmd_study(int argc, char **argv);     /* cmd_study.c */
int dh_cmd_cache(int argc, char **argv);     /* cmd_cache.c */
int dh_cmd_db(int argc, char **argv);        /* cmd_db.c */
int dh_cmd_publish(int argc, char **argv);   /* cmd_db.c */
/* cmd_cache.c: the workload cache of a run (--cache DIR or the default
 * folder, --cache-limit SIZE or the default limit), NULL when off
 * (--no-cache) or when its folder cannot be made (said on stderr: the run
 * goes on without); a bad limit is *usage_rc = 64, said on stderr. */
struct dh_wcache *dh_cli_wcache(const char *cmd, int off, const char *dir_opt,
                                const char *limit_opt, int *usage_rc);
int dh_cmd_blocks(int argc, char **argv);    /* cmd_blocks.c */
/* A whole-integer option value in lo..hi into *out: 1; else says so on
 * stderr ("harness CMD: OPT V: want an integer in lo..hi") and 0. */
int dh_cli_int(const char *cmd, const char *opt, const char *v, long lo, long hi, int *out);
/* Exit code for an error code. */
int dh_exit_for(int code);

/* The results folder of a one-case command (outdir.c): out, else a new
 * results/runs/NAME-STAMP; made, locked for this process until it exits
 * (.harness.lock, as `run` takes it), and its results.xml absent or this
 * same case's (case_id). path gets DIR/results.xml. 0, or DH_EXIT_INFRA
 * with the reason printed. */
int dh_cli_claim_dir(const char *cmd, const char *out, const char *name, const char *case_id,
                     char *path, size_t len);

#endif
