/* opts.h — the one command-line layer: every command's options in a table
 * (name, and whether it takes a value), parsed by getopt_long before the
 * command sees them. `--opt=value` and `--opt value` are the same
 * everywhere; an unknown option is refused with the closest known one
 * ("did you mean"); an option without its value names what it needs. The
 * command receives its arguments in one form: `--opt value`, flags alone,
 * other arguments in their order, everything after `--` as given. */
#ifndef DH_OPTS_H
#define DH_OPTS_H

/* The whole command line (argv[0] the program, argv[1] the command) into
 * out_argc and out_argv, the same shape (a malloc'd array pointing into
 * argv; the caller may leak it). Returns 0, or 64 after a message on
 * stderr. A command with no table (help, --version) passes as it is. */
int dh_opts_normalize(int argc, char **argv, int *out_argc, char ***out_argv);

/* The long options of command cmd, NULL-terminated, "--name" strings and
 * whether each takes a value ('=' after the name: "--out="); NULL for a
 * command without a table. For tests (every option in --help) and for
 * bash completion. */
const char *const *dh_opts_of(const char *cmd);

#endif
