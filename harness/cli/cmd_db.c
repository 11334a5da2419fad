/* cmd_db.c — `harness db`: the nights of a machine in one SQLite database
 * (harness/stats/history_db.h).
 *
 *   harness db add DB RESULTS.xml...   add nights (a file added before is
 *                                      one night: said, not added again)
 *   harness db list DB                 the nights, oldest first
 *   harness db show DB CASE            one case's nights (CASE: its name,
 *                                      as the tables print it, or its key)
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "../stats/history_db.h"
#include "../support/fs.h"
#include "../stats/steps.h"
#include "../report/report.h"
#include "../stats/load.h"

static void db_usage(FILE *f)
{
    fprintf(f,
        "usage: harness db add DB RESULTS.xml...\n"
        "       harness db list DB\n"
        "       harness db show DB CASE\n"
        "       harness db steps DB [CASE]\n"
        "  the nights of a machine in one SQLite database (made by the first add):\n"
        "  add    each results file as a night (keyed by its bytes: a file added\n"
        "         twice is one night), its environment and conditions, every case by\n"
        "         its name, every run's median, interval, status and tunables\n"
        "  list   the nights, oldest first: started, host, revision, cases, load\n"
        "  show   one case's nights (CASE: its name as the tables print it, or its key)\n"
        "  steps  where a case's median moved to stay, over its whole history (every\n"
        "         case, or CASE): newest first, with the nights and revisions around\n"
        "         each step (the method: harness/stats/steps.h, docs/guide/nightly.md)\n"
        "  The database is SQLite (WAL, a busy timeout: two jobs may add at once); read\n"
        "  it with sqlite3 too (tables nights, cases, runs; docs/guide/nightly.md).\n");
}

/* ---- steps ---- */
#define STEPS_MAX 100000
struct found {
    char name[800], started[40], rev[64], prev[40], prev_rev[64];
    double before, after, change;
};
struct steps_ctx {
    struct dh_hdb *db;
    struct dh_steps_opts o;
    struct dh_hdb_point *p;
    double *v;
    struct found *found;
    int n, cap, cases;
};

static int newest_first(const void *a, const void *b)
{
    return -strcmp(((const struct found *)a)->started, ((const struct found *)b)->started);
}

/* one case's steps into x->found */
static int one_case(const char *name, const char *key, void *ctx)
{
    struct steps_ctx *x = ctx;
    struct dh_err e = {0};
    char nm[800];
    /* by key where there is one: two cases of one name stay two series */
    int n = dh_hdb_case(x->db, key ? key : name, nm, sizeof nm, x->p, STEPS_MAX, &e);
    int m = 0, idx[4096];
    for (int i = n > 4096 ? n - 4096 : 0; i < n && m < 4096; i++)   /* the newest 4096 */
        if (isfinite(x->p[i].median) && x->p[i].median > 0) {
            idx[m] = i;
            x->v[m++] = x->p[i].median;
        }
    x->cases++;
    struct dh_step s[64];
    int k = dh_steps_find(x->v, m, &x->o, s, 64);
    for (int i = 0; i < k; i++) {
        if (x->n == x->cap) {
            int cap = x->cap ? 2 * x->cap : 64;
            struct found *f = realloc(x->found, (size_t)cap * sizeof *f);
            if (!f)
                return 1;
            x->found = f;
            x->cap = cap;
        }
        struct found *f = &x->found[x->n++];
        const struct dh_hdb_point *a = &x->p[idx[s[i].at]], *b = &x->p[idx[s[i].at - 1]];
        snprintf(f->name, sizeof f->name, "%s", nm);
        snprintf(f->started, sizeof f->started, "%s", a->started);
        snprintf(f->rev, sizeof f->rev, "%s", a->git_revision);
        snprintf(f->prev, sizeof f->prev, "%s", b->started);
        snprintf(f->prev_rev, sizeof f->prev_rev, "%s", b->git_revision);
        f->before = s[i].before;
        f->after = s[i].after;
        f->change = s[i].change;
    }
    return 0;
}

/* files j, j + jobs, ... into the database: 0, or 3 at the first that
 * cannot be read or added (the nights before it are in) */
static int add_files(const char *path, char **files, int n, int j, int jobs)
{
    struct dh_err e = {0};
    struct dh_hdb *db = dh_hdb_open(path, 1, &e);
    if (!db) {
        fprintf(stderr, "harness db: %s\n", e.msg);
        return DH_EXIT_INFRA;
    }
    int code = DH_EXIT_OK;
    for (int i = j; i < n; i += jobs) {
        size_t len = 0;
        char why[4400] = "";
        char *bytes = dh_read_data(files[i], 0, &len, why, sizeof why);
        long known = bytes ? dh_hdb_find(db, bytes, len) : 0;
        if (known > 0) {                 /* the same bytes: no need to read them */
            fprintf(stderr, "harness db: %s is night %ld already: not added again\n", files[i],
                    known);
            free(bytes);
            continue;
        }
        struct dh_resultfile rf;
        if (!bytes || dh_results_load(files[i], &rf, &e)) {
            fprintf(stderr, "harness db: %s (nothing of it added)\n", bytes ? e.msg : why);
            free(bytes);
            code = DH_EXIT_INFRA;
            break;
        }
        long night = dh_hdb_add(db, files[i], bytes, len, &rf, &e);
        dh_resultfile_free(&rf);
        free(bytes);
        if (!night) {
            fprintf(stderr, "harness db: %s: %s\n", files[i], e.msg);
            code = DH_EXIT_INFRA;
            break;
        }
        if (night < 0)
            fprintf(stderr, "harness db: %s is night %ld already: not added again\n", files[i],
                    -night);
    }
    dh_hdb_close(db);
    return code;
}

int dh_cmd_db(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--help")) {
        db_usage(stdout);
        return 0;
    }
    const char *sub = argc >= 2 ? argv[1] : "";
    int add = !strcmp(sub, "add"), list = !strcmp(sub, "list"), show = !strcmp(sub, "show");
    int steps = !strcmp(sub, "steps");
    if ((!add && !list && !show && !steps) || argc < 3 || (add && argc < 4) ||
        (list && argc != 3) || (show && argc != 4) || (steps && argc > 4)) {
        fprintf(stderr, "harness db: %s\n", !add && !list && !show && !steps
                ? "choose add, list, show or steps" : "wrong number of arguments");
        db_usage(stderr);
        return DH_EXIT_USAGE;
    }
    struct dh_err e = {0};
    struct dh_hdb *db = dh_hdb_open(argv[2], add, &e);
    if (!db) {
        fprintf(stderr, "harness db: %s\n", e.msg);
        return DH_EXIT_INFRA;
    }
    int code = DH_EXIT_OK;
    if (steps) {
        struct steps_ctx x = {.db = db};
        dh_steps_opts_default(&x.o);
        x.p = malloc(STEPS_MAX * sizeof *x.p);
        x.v = malloc(STEPS_MAX * sizeof *x.v);
        if (!x.p || !x.v) {
            fprintf(stderr, "harness db: out of memory\n");
            code = DH_EXIT_INFRA;
        } else if (argc == 4) {
            one_case(argv[3], NULL, &x);
        } else if (dh_hdb_each_case(db, 2 * x.o.min_len, one_case, &x, &e)) {
            fprintf(stderr, "harness db: %s\n", e.msg);
            code = DH_EXIT_INFRA;
        }
        if (!code) {
            qsort(x.found, (size_t)x.n, sizeof *x.found, newest_first);
            printf("%d step%s in %d case%s (a step: the median moved by %.0f%% or more to "
                   "stay; newest first)\n", x.n, x.n == 1 ? "" : "s", x.cases,
                   x.cases == 1 ? "" : "s", 100 * x.o.min_change);
            for (int i = 0; i < x.n; i++)
                printf("%s %+6.1f%%  %.4f -> %.4f ms  %s\n    first night after: %s (%s); "
                       "last before: %s (%s)\n", x.found[i].change > 0 ? "slower" : "faster",
                       100 * x.found[i].change, x.found[i].before, x.found[i].after,
                       x.found[i].name, x.found[i].started, x.found[i].rev, x.found[i].prev,
                       x.found[i].prev_rev);
        }
        free(x.p);
        free(x.v);
        free(x.found);
    } else if (list) {
        if (dh_hdb_list(db, stdout, &e)) {
            fprintf(stderr, "harness db: %s\n", e.msg);
            code = DH_EXIT_INFRA;
        }
    } else if (show) {
        enum { MAX = 100000 };
        struct dh_hdb_point *p = malloc(MAX * sizeof *p);
        char name[800];
        int n = p ? dh_hdb_case(db, argv[3], name, sizeof name, p, MAX, &e) : -1;
        if (n < 0) {
            fprintf(stderr, "harness db: %s\n", p ? e.msg : "out of memory");
            code = DH_EXIT_INFRA;
        } else if (n == 0) {
            fprintf(stderr, "harness db: no case '%s' in %s (harness db list shows the "
                    "nights; a case is named as the tables print it)\n", argv[3], argv[2]);
            code = DH_EXIT_USAGE;
        } else {
            printf("%s\n%-20s  %-10s  %12s  %-25s  %-14s  %s\n", name, "started", "status",
                   "median ms", "95% interval", "revision", "tunables");
            const char *last_tun = NULL;
            for (int i = 0; i < n; i++) {
                char ci[64] = "-", med[32] = "-";
                if (isfinite(p[i].median)) {
                    snprintf(med, sizeof med, "%.4f", p[i].median);
                    snprintf(ci, sizeof ci, "[%.4f, %.4f]", p[i].lo, p[i].hi);
                }
                int moved = last_tun && strcmp(last_tun, p[i].tunables);
                printf("%-20s  %-10s  %12s  %-25s  %-14s  %s%s\n", p[i].started, p[i].status,
                       med, ci, p[i].git_revision, p[i].tunables, moved ? "  (moved)" : "");
                last_tun = p[i].tunables;
            }
        }
        free(p);
    } else {
        /* reading a file (its schema check, above all) is most of an add:
         * several processes read and add at once, each its share of the
         * files, SQLite's lock taking their transactions one at a time */
        long before = dh_hdb_nights(db, &e);
        int nf = argc - 3;
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        int jobs = nf >= 8 && cpus > 1 ? (int)(cpus < nf / 4 ? cpus : nf / 4) : 1;
        if (jobs > 16)
            jobs = 16;
        dh_hdb_close(db);
        db = NULL;
        fflush(stdout);
        fflush(stderr);
        pid_t pids[16];
        int started = 0;
        for (int j = 0; j < jobs; j++) {
            pid_t pid = jobs > 1 ? fork() : 0;
            if (pid < 0)
                break;
            if (pid > 0) {
                pids[started++] = pid;
                continue;
            }
            /* (the one process, or a child) */
            int rc = add_files(argv[2], argv + 3, nf, j, jobs);
            if (jobs > 1)
                _exit(rc);
            code = rc;
            started = 0;
        }
        for (int j = 0; j < started; j++) {
            int st = 0;
            waitpid(pids[j], &st, 0);
            if (!WIFEXITED(st) || WEXITSTATUS(st))
                code = DH_EXIT_INFRA;
        }
        if (jobs > 1 && started < jobs)
            code = DH_EXIT_INFRA;
        db = dh_hdb_open(argv[2], 0, &e);
        long after = db ? dh_hdb_nights(db, &e) : -1;
        if (after >= 0 && before >= 0)
            printf("%s: %ld night%s added, %ld in all%s\n", argv[2], after - before,
                   after - before == 1 ? "" : "s", after,
                   after - before < nf && !code ? " (the others were in already)" : "");
    }
    dh_hdb_close(db);
    return code;
}

/* `harness publish DB [--out DIR]`: the history database as a static site */
int dh_cmd_publish(int argc, char **argv)
{
    const char *db = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) {
            printf("usage: harness publish DB [--out DIR]\n"
                   "  the nights of a history database (harness db add) as a static site in\n"
                   "  DIR (default: site/ beside DB), opened from disk, no server: index.html\n"
                   "  (every case, its latest median, a sparkline of its last 60 nights, its\n"
                   "  newest step), regressions.html (every step, newest first, with the\n"
                   "  nights and revisions around it), a page per case (its medians with the\n"
                   "  95%% interval, steps and moved tunables marked)\n");
            return 0;
        } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            out = argv[++i];
        } else if (argv[i][0] != '-' && !db) {
            db = argv[i];
        } else {
            fprintf(stderr, "harness publish: unexpected '%s' (see harness publish --help)\n",
                    argv[i]);
            return DH_EXIT_USAGE;
        }
    }
    if (!db) {
        fprintf(stderr, "harness publish: give the history database (harness db add makes one)\n");
        return DH_EXIT_USAGE;
    }
    char dflt[4200];
    if (!out) {
        const char *slash = strrchr(db, '/');
        snprintf(dflt, sizeof dflt, "%.*ssite", slash ? (int)(slash - db + 1) : 0, db);
        out = dflt;
    }
    struct dh_err e = {0};
    int cases = 0, steps = 0;
    if (dh_site_publish(db, out, &cases, &steps, &e)) {
        fprintf(stderr, "harness publish: %s\n", e.msg);
        return DH_EXIT_INFRA;
    }
    printf("site: %s/index.html (%d cases, %d steps)\n", out, cases, steps);
    return 0;
}
