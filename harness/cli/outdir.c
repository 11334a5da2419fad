/* outdir.c — the results folder of a one-case command (tune, rerun): the
 * same lock and the same never-overwrite rule as `harness run`.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "../../results/xml.h"
#include "../support/fs.h"

int dh_cli_claim_dir(const char *cmd, const char *out, const char *name, const char *case_id,
                     char *path, size_t len)
{
    char dir[4096], why[4600];
    if (out) {
        snprintf(dir, sizeof dir, "%s", out);
        if (dh_mkdir_p(dir)) {
            fprintf(stderr, "harness %s: cannot make %s: %s (choose another --out)\n", cmd, dir,
                    strerror(errno));
            return DH_EXIT_INFRA;
        }
    } else {
        /* a folder of its own each time: results/runs/NAME-STAMP[-k] */
        char stamp[32];
        time_t t = time(NULL);
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", localtime(&t));
        if (dh_mkdir_p("results/runs")) {
            fprintf(stderr, "harness %s: cannot make results/runs: %s (give --out DIR)\n", cmd,
                    strerror(errno));
            return DH_EXIT_INFRA;
        }
        for (int k = 1;; k++) {
            if (k == 1)
                snprintf(dir, sizeof dir, "results/runs/%s-%s", name, stamp);
            else
                snprintf(dir, sizeof dir, "results/runs/%s-%s-%d", name, stamp, k);
            if (!mkdir(dir, 0755))
                break;
            if (errno != EEXIST || k == 1000) {
                fprintf(stderr, "harness %s: cannot make %s: %s (give --out DIR)\n", cmd, dir,
                        strerror(errno));
                return DH_EXIT_INFRA;
            }
        }
    }
    /* one harness per folder; held until exit */
    if (dh_dir_lock(dir, why, sizeof why) < 0) {
        fprintf(stderr, "harness %s: %s\n", cmd, why);
        return DH_EXIT_INFRA;
    }
    snprintf(path, len, "%s/results.xml", dir);
    if (dh_replace_ok(path, why, sizeof why)) {
        fprintf(stderr, "harness %s: %s\n", cmd, why);
        return DH_EXIT_INFRA;
    }
    struct stat sb;
    if (lstat(path, &sb))
        return 0;
    /* results there: replaced only when they are this same case's (the
     * same command again); another command's are never overwritten */
    struct dh_resultfile old;
    struct dh_err e = {0};
    int same = 0;
    if (!dh_xml_read(path, &old, &e)) {
        same = old.n_runs == 1 && !strcmp(old.runs[0].c.id, case_id);
        dh_resultfile_free(&old);
    }
    if (!same) {
        fprintf(stderr, "harness %s: %s holds results of another command: it is kept; choose "
                "another --out\n", cmd, path);
        return DH_EXIT_INFRA;
    }
    return 0;
}
