/* cmd_report.c — `harness report RESULTS.xml [--out DIR]`: one folder with
 * index.md (environment, devices, a table per benchmark and target, the
 * charts) and the charts drawn by gnuplot from the scripts that
 * report_charts.c writes (report.h). Without gnuplot the tables are
 * written, the scripts stay for later, and the report says how to
 * install it (exit 0).
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>

#include "../report/report.h"
#include "../stats/baseline.h"
#include "../stats/load.h"
#include "cli.h"

int dh_cmd_report(int argc, char **argv)
{
    const char *file = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: harness report RESULTS.xml [--out DIR]\n"
                   "  writes DIR/index.md (environment, devices, a table per benchmark,\n"
                   "  links to the charts) and the charts (PNG and SVG, drawn by gnuplot from\n"
                   "  the .gp scripts and .dat files kept beside them). DIR defaults to the\n"
                   "  folder 'report' beside RESULTS.xml. $DH_GNUPLOT names another gnuplot.\n");
            return 0;
        } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strncmp(argv[i], "--out=", 6)) {
            out = argv[i] + 6;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "harness report: unknown option '%s' (usage: harness report "
                    "RESULTS.xml [--out DIR])\n", argv[i]);
            return DH_EXIT_USAGE;
        } else if (!file) {
            file = argv[i];
        } else {
            fprintf(stderr, "harness report: one results file at a time (merge several with "
                    "harness merge)\n");
            return DH_EXIT_USAGE;
        }
    }
    if (!file) {
        fprintf(stderr, "usage: harness report RESULTS.xml [--out DIR]\n");
        return DH_EXIT_USAGE;
    }
    char dir[4096];
    if (out) {
        snprintf(dir, sizeof dir, "%s", out);
    } else {
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s", file);
        snprintf(dir, sizeof dir, "%s/report", dirname(tmp));
    }
    static struct dh_resultfile rf;
    static struct dh_report r;
    struct dh_err e = {0};
    if (dh_results_load(file, &rf, &e)) {
        fprintf(stderr, "harness report: %s\n", e.msg);
        return DH_EXIT_INFRA;
    }
    int code = DH_EXIT_OK;
    memset(&r, 0, sizeof r);
    r.dir = dir;
    r.source = file;
    r.f = &rf;
    if (dh_mkdir_p(dir)) {
        fprintf(stderr, "harness report: cannot create %s: %s (choose another with --out)\n",
                dir, strerror(errno));
        code = DH_EXIT_INFRA;
        goto done;
    }
    if (dh_report_charts(&r, &e)) {
        fprintf(stderr, "harness report: %s\n", e.msg);
        code = DH_EXIT_INFRA;
        goto done;
    }
    char gnuplot[4096];
    int have = !dh_gnuplot_find(gnuplot, sizeof gnuplot), failed = 0, drawn = 0;
    for (int i = 0; have && i < r.n_charts; i++) {
        r.charts[i].drawn = !dh_gnuplot_draw(gnuplot, dir, r.charts[i].name);
        if (r.charts[i].drawn)
            drawn++;
        else {
            failed++;
            fprintf(stderr, "harness report: chart %s failed: see %s/%s.log\n",
                    r.charts[i].name, dir, r.charts[i].name);
        }
    }
    if (dh_report_write_index(&r, have, failed, &e)) {
        fprintf(stderr, "harness report: %s\n", e.msg);
        code = DH_EXIT_INFRA;
        goto done;
    }
    printf("report: %s/index.md (%d chart%s drawn", dir, drawn, drawn == 1 ? "" : "s");
    if (!have)
        printf("; charts skipped: gnuplot is not installed — `sudo apt-get install "
               "gnuplot-nox`, then rerun, or run the .gp scripts in %s", dir);
    printf(")\n");
    if (!have)
        fprintf(stderr, "harness report: gnuplot not found: charts skipped (tables written; "
                "install gnuplot-nox to draw them)\n");
    if (failed)
        code = DH_EXIT_INFRA;
done:
    dh_resultfile_free(&rf);
    return code;
}
