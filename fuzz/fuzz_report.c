/* fuzz_report.c — `harness report` on any results file the reader accepts,
 * with an oracle on every gnuplot script it writes: whatever the file's
 * strings hold (device names, labels, parameters, the path), nothing of
 * them can run. Each script is tokenised as gnuplot reads it: outside a
 * string there is no backquote (command substitution) and no line begins
 * with `system` or `!` (a shell); a double-quoted string (where gnuplot
 * substitutes backquotes) holds none; a comment never ends in a backslash
 * (it would swallow the next line). gnuplot itself is not run
 * (DH_GNUPLOT names no program): the scripts are what is checked. */
#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz.h"
#include "../harness/cli/cli.h"
#include "../harness/stats/load.h"
#include "../results/xml.h"

static void check_script(const char *path)
{
    size_t len = 0;
    char *t = fuzz_slurp(path, &len);
    FUZZ_CHECK(t != NULL, "cannot read %s", path);
    enum { CODE, SQ, DQ, COMMENT } st = CODE;
    int line_start = 1;
    size_t line = 1;
    for (size_t i = 0; i < len; i++) {
        char c = t[i];
        switch (st) {
        case CODE:
            if (line_start) {
                size_t j = i;
                while (j < len && (t[j] == ' ' || t[j] == '\t'))
                    j++;
                FUZZ_CHECK(strncmp(t + j, "system", 6) && t[j] != '!',
                           "%s:%zu: a line runs a command", path, line);
                line_start = 0;
            }
            FUZZ_CHECK(c != '`', "%s:%zu: a backquote outside a string", path, line);
            if (c == '\'')
                st = SQ;
            else if (c == '"')
                st = DQ;
            else if (c == '#')
                st = COMMENT;
            break;
        case SQ:
            if (c == '\'' && i + 1 < len && t[i + 1] == '\'')
                i++;
            else if (c == '\'')
                st = CODE;
            FUZZ_CHECK(c != '\n', "%s:%zu: a single-quoted string runs past its line", path,
                       line);
            break;
        case DQ:
            FUZZ_CHECK(c != '`', "%s:%zu: a backquote in a double-quoted string", path, line);
            FUZZ_CHECK(c != '\n', "%s:%zu: a double-quoted string runs past its line", path,
                       line);
            if (c == '\\' && i + 1 < len)
                i++;
            else if (c == '"')
                st = CODE;
            break;
        case COMMENT:
            if (c == '\n')
                FUZZ_CHECK(i == 0 || t[i - 1] != '\\', "%s:%zu: a comment continued onto the "
                           "next line", path, line);
            break;
        }
        if (c == '\n') {
            line++;
            line_start = 1;
            if (st == COMMENT)
                st = CODE;
            /* a line ending in a backslash continues: the next is not a
             * line start */
            if (st == CODE && i > 0 && t[i - 1] == '\\')
                line_start = 0;
        }
    }
    free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *in = fuzz_file("in.xml", data, size);
    struct dh_resultfile f;
    struct dh_err e = {0};
    if (dh_results_load(in, &f, &e))
        return 0;                                  /* refused, with a reason: fine */
    dh_resultfile_free(&f);
    setenv("DH_GNUPLOT", "/nonexistent/gnuplot", 1);
    char out[200], cmd[300];
    snprintf(out, sizeof out, "%s/rep", fuzz_dir());
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", out);
    if (system(cmd)) {
        /* a leftover folder only makes the next report replace files */
    }
    char *argv[] = {"report", (char *)in, "--out", out, NULL};
    FILE *null = freopen("/dev/null", "w", stdout);
    (void)null;
    (void)dh_cmd_report(4, argv);
    DIR *d = opendir(out);
    if (!d)
        return 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l > 3 && !strcmp(de->d_name + l - 3, ".gp")) {
            char p[600];
            snprintf(p, sizeof p, "%s/%s", out, de->d_name);
            check_script(p);
        }
    }
    closedir(d);
    return 0;
}
