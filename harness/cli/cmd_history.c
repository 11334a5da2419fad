/* cmd_history.c — `harness history FILE... [--case KEY] [--out DIR]`: a
 * case's nightly history. The results files (e.g. ci/nightly.sh's
 * results/nightly/<time>/results.xml) are read in the order of their
 * start times; per case present in two or more of them, a chart of its
 * kernel median with the 95% interval per night, and one table of it all
 * in DIR/history.md. --case limits it to one case (its key or a prefix). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../results/xml.h"
#include "cli.h"
#include "../report/report.h"
#include "../stats/load.h"
#include "../support/fs.h"


struct night {
    char started[40];
    struct dh_resultfile f;
};

static int by_time(const void *a, const void *b)
{
    return strcmp(((const struct night *)a)->started, ((const struct night *)b)->started);
}

int dh_cmd_history(int argc, char **argv)
{
    const char *out = "results/history", *only = NULL;
    /* every file and every case: no cap (each night is held in memory) */
    struct night *nights = calloc((size_t)argc, sizeof *nights);
    int n = 0;
    if (!nights) {
        fprintf(stderr, "harness history: out of host memory\n");
        return DH_EXIT_INFRA;
    }
    struct dh_err e = {0};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--case") && i + 1 < argc)
            only = argv[++i];
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: harness history RESULTS.xml... [--case KEY] [--out DIR]\n");
            return DH_EXIT_USAGE;
        } else {
            if (dh_results_load(argv[i], &nights[n].f, &e)) {
                fprintf(stderr, "harness history: %s\n", e.msg);
                for (int k = 0; k < n; k++)
                    dh_resultfile_free(&nights[k].f);
                free(nights);
                return DH_EXIT_INFRA;
            }
            memcpy(nights[n].started, nights[n].f.env.started, sizeof nights[n].started);
            n++;
        }
    }
    if (n < 2) {
        fprintf(stderr, "harness history: give two or more results files (one per night)\n");
        for (int k = 0; k < n; k++)
            dh_resultfile_free(&nights[k].f);
        free(nights);
        return DH_EXIT_USAGE;
    }
    qsort(nights, (size_t)n, sizeof *nights, by_time);
    if (dh_mkdir_p(out)) {
        fprintf(stderr, "harness history: cannot create %s: %s (choose another with --out)\n",
                out, strerror(errno));
        return DH_EXIT_INFRA;
    }
    /* the cases: keys of the latest night first, present at least twice */
    int cap = 0;
    for (int k = 0; k < n; k++)
        cap += nights[k].f.n_runs;
    char (*keys)[17] = calloc((size_t)cap + 1, sizeof *keys);
    if (!keys) {
        fprintf(stderr, "harness history: out of host memory\n");
        return DH_EXIT_INFRA;
    }
    int nk = 0, matched = 0;
    for (int k = n - 1; k >= 0; k--)
        for (int i = 0; i < nights[k].f.n_runs; i++) {
            const struct dh_run *u = &nights[k].f.runs[i];
            if (only && strncmp(u->c.key, only, strlen(only)))
                continue;
            matched = 1;
            int seen = 0, present = 0;
            for (int q = 0; q < nk; q++)
                seen |= !strcmp(keys[q], u->c.key);
            for (int m = 0; m < n; m++)
                for (int j = 0; j < nights[m].f.n_runs; j++)
                    present += !strcmp(nights[m].f.runs[j].c.key, u->c.key);
            if (!seen && present >= 2)
                snprintf(keys[nk++], sizeof keys[0], "%s", u->c.key);
        }
    char gnuplot[4096];
    int have = !dh_gnuplot_find(gnuplot, sizeof gnuplot), drawn = 0;
    char md[4200];
    snprintf(md, sizeof md, "%s/history.md", out);
    FILE *index = fopen(md, "w");
    if (!index) {
        fprintf(stderr, "harness history: cannot write %s: %s\n", md, strerror(errno));
        return DH_EXIT_INFRA;
    }
    fprintf(index, "# divharness history\n\n%d results files, %s to %s.\n\n", n, nights[0].started,
            nights[n - 1].started);
    for (int q = 0; q < nk; q++) {
        char name[64], path[4200], id[800] = "";
        snprintf(name, sizeof name, "history-%s", keys[q]);
        snprintf(path, sizeof path, "%s/%s.dat", out, name);
        FILE *dat = fopen(path, "w");
        if (!dat)
            continue;
        /* the case by its name (suite/bench/variant/backend/device/size/
         * workload), its key beside it for the files */
        for (int m = 0; m < n && !id[0]; m++)
            for (int j = 0; j < nights[m].f.n_runs && !id[0]; j++)
                if (!strcmp(nights[m].f.runs[j].c.key, keys[q]))
                    snprintf(id, sizeof id, "%s", nights[m].f.runs[j].c.id);
        fprintf(index, "## %s\n\n(case key `%s`)\n\n| started | status | kernel median ms | "
                "95%% interval | tunables |\n|---|---|---:|---|---|\n", id, keys[q]);
        int points = 0;
        for (int m = 0; m < n; m++)
            for (int j = 0; j < nights[m].f.n_runs; j++) {
                const struct dh_run *u = &nights[m].f.runs[j];
                if (strcmp(u->c.key, keys[q]))
                    continue;
                snprintf(id, sizeof id, "%s", u->c.id);
                char tun[200];
                dh_pset_format(&u->c.params, DH_P_TUNABLE, tun, sizeof tun);
                int ok = !u->r.status && u->kernel.n > 0;
                fprintf(index, "| %s | %s | %s%.4f | [%.4f, %.4f] | %s |\n", nights[m].started,
                        dh_err_name(u->r.status), "", ok ? u->kernel.median : NAN,
                        ok ? u->kernel.ci_lo : NAN, ok ? u->kernel.ci_hi : NAN, tun);
                if (ok) {
                    fprintf(dat, "%d\t%s\t%.6g\t%.6g\t%.6g\n", points, nights[m].started,
                            u->kernel.median, u->kernel.ci_lo, u->kernel.ci_hi);
                    points++;
                }
            }
        fclose(dat);
        snprintf(path, sizeof path, "%s/%s.gp", out, name);
        FILE *gp = fopen(path, "w");
        if (!gp)
            continue;
        fprintf(gp, "# %s.gp — made by `harness history`; redraw with: gnuplot %s.gp\n"
                    "set datafile separator \"\\t\"\n"
                    "do for [fmt in \"png svg\"] {\n"
                    "  if (fmt eq \"png\") { set terminal pngcairo noenhanced size 900,420 font \"DejaVu Sans,10\" }"
                    " else { set terminal svg noenhanced size 900,420 dynamic font \"DejaVu Sans,10\" background rgb \"white\" }\n"
                    "  set output \"%s.\".fmt\n  reset\n  set datafile separator \"\\t\"\n"
                    "  set title ",
                name, name, name);
        dh_gp_quote(gp, id);
        fprintf(gp, " font \",9\"\n"
                    "  set ylabel \"kernel median ms (95%% interval)\"\n  set yrange [0:*]\n"
                    "  set xtics rotate by -30 font \",8\"\n  set grid ytics lc rgb \"#dddddd\"\n"
                    "  set border 3\n  set tics nomirror out\n  set offsets 0.5, 0.5, 0, 0\n"
                    "  plot \"%s.dat\" using 1:3:4:5:xtic(2) with yerrorlines lw 2 pt 7 "
                    "lc rgb \"#1f77b4\" notitle\n  set output\n}\n",
                name);
        fclose(gp);
        int ok = have && points >= 2 && !dh_gnuplot_draw(gnuplot, out, name);
        drawn += ok;
        fprintf(index, "\n%s\n\n", ok ? "" : "(chart not drawn: gnuplot missing or fewer than two timed nights)");
        if (ok)
            fprintf(index, "![%s](%s.png)\n\n", keys[q], name);
    }
    fclose(index);
    printf("history: %s (%d case%s, %d chart%s drawn)\n", md, nk, nk == 1 ? "" : "s", drawn,
           drawn == 1 ? "" : "s");
    for (int k = 0; k < n; k++)
        dh_resultfile_free(&nights[k].f);
    free(nights);
    free(keys);
    if (only && !matched) {
        fprintf(stderr, "harness history: no case's key begins with '%s' in these files: "
                "`harness export --csv -` lists the keys\n", only);
        return DH_EXIT_USAGE;
    }
    return nk ? 0 : DH_EXIT_USAGE;
}
