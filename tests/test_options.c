/* test_options.c — the command line as every command reads it (one
 * option layer, harness/cli/opts.c): --help everywhere, and every path it
 * names there; each command's option table against its --help; the forms
 * of an option, "did you mean", precise messages; stdout and stderr in
 * order in one log. Runs the built binary (beside tests/) from the
 * repository root. */
#include <limits.h>
#include <unistd.h>

#include "testutil.h"
#include "../harness/cli/opts.h"

static char harness[PATH_MAX], ci[PATH_MAX], tmpdir[64], out[1 << 16];

/* the harness with args (NULL-terminated) in cwd (NULL: here); its
 * output in out; the exit code */
static int run(const char *cwd, const char *const *args)
{
    char log[128];
    const char *argv[64];
    int n = 0;
    snprintf(log, sizeof log, "%s/.log", tmpdir);
    argv[n++] = harness;
    for (; args[n - 1] && n < 63; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    return dh_test_exec(cwd, argv, log, out, sizeof out);
}

/* --help answers on stdout with 0 for every command (was 0, 64 or 3) */
static void help_everywhere(void **st)
{
    (void)st;
    const char *cmds[] = {"run", "list", "devices", "validate", "tune", "tune-study", "compare",
                          "merge", "slurm", "baseline", "report", "history", "export", "rerun",
                          "emit", "study", "cache", "blocks"};
    for (size_t k = 0; k < sizeof cmds / sizeof *cmds; k++) {
        const char *a[] = {cmds[k], "--help", NULL};
        int rc = run(tmpdir, a);
        if (rc != 0 || !strstr(out, "usage"))
            fprintf(stderr, "%s --help: exit %d\n%s\n", cmds[k], rc, out);
        assert_int_equal(rc, 0);
        assert_non_null(strstr(out, "usage"));
        /* every file of the repository a usage text names exists (tune's
         * named tuning/descriptor-1.xsd, which never did) */
        for (const char *p = out; (p = strpbrk(p, "abcdefghijklmnopqrstuvwxyz")); ) {
            size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_-./");
            char path[256];
            if (n < sizeof path && memchr(p, '/', n) && (p == out || p[-1] == ' ' || p[-1] == '(')) {
                memcpy(path, p, n);
                path[n] = 0;
                while (n && path[n - 1] == '.') path[--n] = 0;
                const char *dot = strrchr(path, '.');
                if (dot && (!strcmp(dot, ".xsd") || !strcmp(dot, ".xml") || !strcmp(dot, ".k") ||
                            !strcmp(dot, ".md") || !strcmp(dot, ".sh"))) {
                    if (access(path, F_OK))
                        fprintf(stderr, "%s --help names %s, which does not exist\n", cmds[k], path);
                    assert_int_equal(access(path, F_OK), 0);
                }
            }
            p += n ? n : 1;
        }
    }
}

/* stdout and stderr into one CI log: a note on stderr comes after what
 * stdout said before it, on a line of its own (it landed in the middle of
 * a table line: stdout was flushed only at exit) */
static void log_order(void **st)
{
    (void)st;
    const char *a[] = {"compare", "results/reference/h100/frontier-cuda-medium.xml",
                       "results/reference/h100/model-frontier.xml", NULL};
    assert_int_equal(run(NULL, a), 0);
    const char *note = strstr(out, "harness compare: 22 cases on one side only");
    assert_non_null(note);
    assert_true(note == out || note[-1] == '\n');
    const char *verdict = strstr(out, "no regression\n");
    assert_non_null(verdict);
    assert_true(verdict < note);
}

/* one option layer (harness/cli/opts.c): every command's table and its
 * --help name the same options, so neither can drift from the other; a
 * --help may also name harness run's options (study and slurm pass them
 * on, merge mentions --shard) and sbatch's own (--account, --dependency) */
static void options_match_help(void **st)
{
    (void)st;
    const char *cmds[] = {"run", "study", "slurm", "compare", "emit", "blocks", "cache", "merge",
                          "baseline", "tune", "tune-study", "rerun", "history", "report",
                          "export", "devices", "list", "validate"};
    const char *const *runs = dh_opts_of("run");
    char run_names[64][40];
    int n_run = 0;
    for (; runs[n_run] && n_run < 64; n_run++)
        snprintf(run_names[n_run], sizeof run_names[0], "%s", runs[n_run]);
    for (size_t k = 0; k < sizeof cmds / sizeof *cmds; k++) {
        const char *a[] = {cmds[k], "--help", NULL};
        assert_int_equal(run(tmpdir, a), 0);
        const char *const *t = dh_opts_of(cmds[k]);
        assert_non_null(t);
        /* the table in the help (hidden: slurm's job-script entries) */
        for (int i = 0; t[i]; i++) {
            char name[40];
            snprintf(name, sizeof name, "%.*s", (int)strcspn(t[i], "="), t[i]);
            if (!strcmp(name, "--help") || !strcmp(name, "--task") ||
                !strcmp(name, "--merge-task"))
                continue;
            int in_run = 0;
            for (int r = 0; r < n_run && strcmp(cmds[k], "run"); r++)
                in_run |= !strncmp(run_names[r], name, strlen(name)) &&
                          (run_names[r][strlen(name)] == 0 || run_names[r][strlen(name)] == '=');
            if (in_run && !strcmp(cmds[k], "study"))
                continue;                            /* "run options" in study's help */
            char word[48];
            snprintf(word, sizeof word, "%s", name);
            const char *p = out;
            int found = 0;
            while ((p = strstr(p, word))) {
                char c = p[strlen(word)];
                found |= !(c == '-' || (c >= 'a' && c <= 'z'));
                p += strlen(word);
            }
            if (!found)
                fprintf(stderr, "harness %s: option %s is not in its --help\n", cmds[k], name);
            assert_true(found);
        }
        /* the help's options in the table (or run's, or sbatch's) */
        for (const char *p = out; (p = strstr(p, "--"));) {
            size_t n = 2 + strspn(p + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
            char name[48];
            snprintf(name, sizeof name, "%.*s", (int)(n < 47 ? n : 47), p);
            p += n;
            if (n <= 2 || !strcmp(name, "--account") || !strcmp(name, "--dependency"))
                continue;
            int ok = 0;
            for (int i = 0; t[i] && !ok; i++)
                ok = !strncmp(t[i], name, strlen(name)) &&
                     (t[i][strlen(name)] == 0 || t[i][strlen(name)] == '=');
            for (int r = 0; r < n_run && !ok; r++)
                ok = !strncmp(run_names[r], name, strlen(name)) &&
                     (run_names[r][strlen(name)] == 0 || run_names[r][strlen(name)] == '=');
            if (!ok)
                fprintf(stderr, "harness %s --help names %s, which no table has\n", cmds[k],
                        name);
            assert_true(ok);
        }
    }
}

/* --opt=value and --opt value alike in every command; an unknown option
 * names the closest; a missing value says so; precise domain messages */
static void option_forms(void **st)
{
    (void)st;
    const char *x = "results/reference/h100/tuned-frontier/pol-tuned-file.xml";
    char csv[256], hist[256];
    snprintf(csv, sizeof csv, "--csv=%s/forms.csv", tmpdir);
    const char *a[] = {"export", x, csv, NULL};
    assert_int_equal(run(NULL, a), 0);
    snprintf(hist, sizeof hist, "--out=%s/forms-hist", tmpdir);
    const char *b[] = {"history", hist, x, x, NULL};
    assert_int_equal(run(NULL, b), 0);
    const char *c[] = {"tune", "--descriptor=/no/such.xml", "--tune-budget=2", NULL};
    assert_int_equal(run(NULL, c), 3);                  /* parsed; the file is missing */
    const char *d[] = {"run", "--suite", "micro", "--varaint", "baseline", NULL};
    assert_int_equal(run(NULL, d), 64);
    assert_non_null(strstr(out, "unknown option '--varaint': did you mean --variant?"));
    const char *e[] = {"compare", "--junit", NULL};
    assert_int_equal(run(NULL, e), 64);
    assert_non_null(strstr(out, "--junit needs a value"));
    const char *f[] = {"run", "--suite", "micro", "--variant", "baselin", NULL};
    assert_int_equal(run(NULL, f), 64);
    assert_non_null(strstr(out, "unknown variant 'baselin' (did you mean baseline?)"));
    const char *g[] = {"run", "--suite", "frontier", "--param", "wg=70000", NULL};
    assert_int_equal(run(NULL, g), 64);
    assert_non_null(strstr(out, "outside wg's domain in every selected benchmark"));
    const char *h[] = {"run", "--suite", "fronteir", NULL};
    assert_int_equal(run(NULL, h), 64);
    assert_non_null(strstr(out, "(did you mean frontier?)"));
    const char *i[] = {"list", "--bench=poll", NULL};
    assert_int_equal(run(NULL, i), 64);
    assert_non_null(strstr(out, "(did you mean pol?)"));
    const char *j[] = {"list", "--suite=frontier", "--bench=pol", NULL};
    assert_int_equal(run(NULL, j), 0);
    assert_non_null(strstr(out, "frontier/pol"));
    assert_null(strstr(out, "frontier/cvp"));
    /* a busy host is refused before anything runs (load 0 is never over 0) */
    double load;
    if (getloadavg(&load, 1) == 1 && load > 0.005) {
        const char *ml[] = {"run", "--suite", "micro", "--max-load", "0", NULL};
        assert_int_equal(run(NULL, ml), 3);
        assert_non_null(strstr(out, "the host is busy: load average"));
    }
    const char *ml2[] = {"run", "--suite", "micro", "--max-load", "high", NULL};
    assert_int_equal(run(NULL, ml2), 64);
    /* -hhh...: one --help (each h was one: past the array's end) */
    static char many_h[202];
    many_h[0] = '-';
    memset(many_h + 1, 'h', 200);
    const char *hh[] = {"run", many_h, NULL};
    assert_int_equal(run(NULL, hh), 0);
    assert_non_null(strstr(out, "usage: harness run"));
    /* a name longer than any: no suggestion, no crash */
    static char long_name[80];
    memset(long_name, 'x', 79);
    const char *ln[] = {"list", "--suite", long_name, NULL};
    assert_int_equal(run(NULL, ln), 64);
    assert_non_null(strstr(out, "unknown suite"));
    const char *v[] = {"--version", NULL};
    assert_int_equal(run(NULL, v), 0);
    assert_non_null(strstr(out, "harness (divharness) "));
}


static int setup(void **st)
{
    (void)st;
    return dh_test_paths(harness, sizeof harness, ci, sizeof ci, tmpdir, sizeof tmpdir,
                         "/tmp/dh-test-options-XXXXXX");
}

static int teardown(void **st)
{
    (void)st;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(help_everywhere),
        cmocka_unit_test(log_order),
        cmocka_unit_test(options_match_help),
        cmocka_unit_test(option_forms),
    };
    return cmocka_run_group_tests_name("options", t, setup, teardown);
}
