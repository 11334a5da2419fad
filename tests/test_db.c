/* test_db.c — `harness db`: nights added once each (a file added twice is
 * one night), in any number, by writers at once; a case's nights by its
 * name; a file that is not SQLite, another program's SQLite database and a
 * newer schema refused with what they are. */
#include <sqlite3.h>

#include "testutil.h"
#include "../harness/cli/cli.h"
#include "../harness/stats/history_db.h"
#include "../harness/stats/load.h"

static char tmpdir[64];
static const char *pol = "results/reference/h100/tuned-frontier/pol-tuned-file.xml";
static const char *cvp = "results/reference/h100/tuned-frontier/cvp-gpu_tdr.xml";

static const char *tpath(const char *name)
{
    static char buf[8][300];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

static int db(int argc, const char **argv)
{
    fflush(stdout);
    return dh_cmd_db(argc, (char **)argv);
}

static long nights(const char *path)
{
    struct dh_err e = {0};
    struct dh_hdb *h = dh_hdb_open(path, 0, &e);
    assert_non_null(h);
    long n = dh_hdb_nights(h, &e);
    dh_hdb_close(h);
    return n;
}

static void add_once(void **st)
{
    (void)st;
    const char *d = tpath("h.db");
    const char *a[] = {"db", "add", d, pol, cvp};
    assert_int_equal(db(5, a), 0);
    assert_int_equal(nights(d), 2);
    const char *b[] = {"db", "add", d, pol};          /* the same bytes: one night */
    assert_int_equal(db(4, b), 0);
    assert_int_equal(nights(d), 2);
    /* a case by its name: its night, median and tunables */
    struct dh_err e = {0};
    struct dh_hdb *h = dh_hdb_open(d, 0, &e);
    assert_non_null(h);
    struct dh_hdb_point p[8];
    char name[800];
    int n = dh_hdb_case(h, "frontier/pol/melded/cuda/NVIDIA H100 80GB HBM3/medium/seed=1",
                        name, sizeof name, p, 8, &e);
    assert_int_equal(n, 1);
    assert_string_equal(p[0].tunables, "minb=4,wg=256");
    assert_true(p[0].median > 0.2 && p[0].median < 0.23);
    dh_hdb_close(h);
    const char *s[] = {"db", "show", d, "no/such/case"};
    assert_int_equal(db(4, s), DH_EXIT_USAGE);
}

/* two writers at once (WAL, a busy timeout): every night in, none twice */
static void writers(void **st)
{
    (void)st;
    const char *d = tpath("w.db");
    char files[12][300];
    char *src = NULL;
    FILE *f = fopen(pol, "r");
    assert_non_null(f);
    size_t cap = 1 << 20;
    src = malloc(cap);
    size_t len = fread(src, 1, cap - 1, f);
    fclose(f);
    src[len] = 0;
    for (int i = 0; i < 12; i++) {                  /* twelve nights: other start times */
        snprintf(files[i], sizeof files[i], "%s/night%02d.xml", tmpdir, i);
        char *at = strstr(src, "<started>");
        assert_non_null(at);
        FILE *o = fopen(files[i], "w");
        assert_non_null(o);
        fwrite(src, 1, (size_t)(at - src), o);
        fprintf(o, "<started>2026-11-%02dT02:00:00Z</started>", i + 1);
        fputs(strstr(at, "</started>") + strlen("</started>"), o);
        fclose(o);
    }
    free(src);
    pid_t kids[2];
    for (int k = 0; k < 2; k++) {
        kids[k] = fork();
        if (kids[k] == 0) {
            const char *a[9] = {"db", "add", d};
            int n = 3;
            for (int i = k; i < 12; i += 2)
                a[n++] = files[i];
            _exit(db(n, a));
        }
    }
    for (int k = 0; k < 2; k++) {
        int stt = 0;
        waitpid(kids[k], &stt, 0);
        assert_true(WIFEXITED(stt) && WEXITSTATUS(stt) == 0);
    }
    assert_int_equal(nights(d), 12);
    /* all again at once, from one command: its own processes, none twice */
    const char *a[15] = {"db", "add", d};
    for (int i = 0; i < 12; i++)
        a[3 + i] = files[i];
    assert_int_equal(db(15, a), 0);
    assert_int_equal(nights(d), 12);
}

/* a planted step: one case 30% slower from the seventh night on, the
 * others as they were; db steps finds it, newest first, with the nights
 * around it, and nothing else */
static void steps(void **st)
{
    (void)st;
    const char *d = tpath("s.db");
    struct dh_err e = {0};
    struct dh_hdb *h = dh_hdb_open(d, 1, &e);
    assert_non_null(h);
    for (int night = 0; night < 12; night++) {
        struct dh_resultfile rf;
        assert_int_equal(dh_results_load(pol, &rf, &e), 0);
        snprintf(rf.env.started, sizeof rf.env.started, "2026-11-%02dT02:00:00Z", night + 1);
        for (int i = 0; i < rf.n_runs; i++) {
            struct dh_stats *k = &rf.runs[i].kernel;
            double jitter = 1 + 0.003 * ((night * 7 + i) % 5 - 2);   /* a little noise */
            double f = jitter * (night >= 6 && !strcmp(rf.runs[i].c.variant, "melded") ? 1.3 : 1);
            k->median *= f, k->ci_lo *= f, k->ci_hi *= f;
        }
        char bytes[32];
        int len = snprintf(bytes, sizeof bytes, "night %d", night);
        assert_true(dh_hdb_add(h, pol, bytes, (size_t)len, &rf, &e) > 0);
        dh_resultfile_free(&rf);
    }
    dh_hdb_close(h);
    fflush(stdout);
    char out_path[300];
    snprintf(out_path, sizeof out_path, "%s/steps.txt", tmpdir);
    int saved = dup(1), fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    const char *a[] = {"db", "steps", d};
    int rc = db(3, a);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    close(fd);
    assert_int_equal(rc, 0);
    char *txt = dh_test_slurp(out_path, NULL);
    assert_non_null(strstr(txt, "1 step in 8 cases"));
    assert_non_null(strstr(txt, "slower  +30."));
    assert_non_null(strstr(txt, "frontier/pol/melded/"));
    assert_non_null(strstr(txt, "first night after: 2026-11-07T02:00:00Z"));
    assert_non_null(strstr(txt, "last before: 2026-11-06T02:00:00Z"));
    free(txt);
    /* the same as a static site: the step on the regressions page, every
     * link of the index and that page to a page that is there */
    char site[300];
    snprintf(site, sizeof site, "%s/site", tmpdir);
    const char *pb[] = {"publish", d, "--out", site};
    fflush(stdout);
    assert_int_equal(dh_cmd_publish(4, (char **)pb), 0);
    const char *pages[] = {"index.html", "regressions.html"};
    for (int k = 0; k < 2; k++) {
        char path[400];
        snprintf(path, sizeof path, "%s/%s", site, pages[k]);
        char *html = dh_test_slurp(path, NULL);
        int links = 0;
        for (const char *q = html; (q = strstr(q, "href=\"")); q += 6) {
            char target[200], file[600];
            sscanf(q + 6, "%199[^\"]", target);
            snprintf(file, sizeof file, "%s/%s", site, target);
            if (access(file, R_OK))
                fprintf(stderr, "%s links to %s, which is not there\n", pages[k], target);
            assert_int_equal(access(file, R_OK), 0);
            links++;
        }
        assert_true(links >= 2);
        if (k == 1) {
            assert_non_null(strstr(html, "+30."));
            assert_non_null(strstr(html, "frontier/pol/melded/"));
        } else {
            assert_non_null(strstr(html, "<svg"));          /* the sparklines */
            assert_non_null(strstr(html, "slower +30."));   /* the melded case's state */
        }
        free(html);
    }
}

static void refused(void **st)
{
    (void)st;
    struct dh_err e = {0};
    /* not SQLite at all */
    const char *t = tpath("text.db");
    FILE *f = fopen(t, "w");
    assert_non_null(f);
    fputs("these are notes, not a database\n", f);
    fclose(f);
    assert_null(dh_hdb_open(t, 1, &e));
    assert_non_null(strstr(e.msg, "is not a history database"));
    /* another program's SQLite database */
    const char *o = tpath("other.db");
    sqlite3 *s;
    assert_int_equal(sqlite3_open(o, &s), SQLITE_OK);
    assert_int_equal(sqlite3_exec(s, "CREATE TABLE accounts(id, name)", NULL, NULL, NULL), 0);
    sqlite3_close(s);
    assert_null(dh_hdb_open(o, 1, &e));
    assert_non_null(strstr(e.msg, "an SQLite database of something else"));
    /* ours, from a newer harness */
    const char *n = tpath("new.db");
    const char *a[] = {"db", "add", n, pol};
    assert_int_equal(db(4, a), 0);
    assert_int_equal(sqlite3_open(n, &s), SQLITE_OK);
    assert_int_equal(sqlite3_exec(s, "PRAGMA user_version = 99", NULL, NULL, NULL), 0);
    sqlite3_close(s);
    assert_null(dh_hdb_open(n, 0, &e));
    assert_non_null(strstr(e.msg, "newer than this harness"));
    /* a FIFO planted as a results file is refused, not waited on */
    const char *fifo = tpath("planted.xml");
    assert_int_equal(mkfifo(fifo, 0644), 0);
    const char *pf[] = {"db", "add", n, fifo};
    assert_int_equal(db(4, pf), DH_EXIT_INFRA);
    /* a missing one is not made by list */
    const char *l[] = {"db", "list", tpath("missing.db")};
    assert_int_equal(db(3, l), DH_EXIT_INFRA);
    const char *u[] = {"db", "frob", n};
    assert_int_equal(db(3, u), DH_EXIT_USAGE);
}

static int setup(void **st)
{
    (void)st;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/dh-test-db-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **st)
{
    (void)st;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    return system(cmd) ? 0 : 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(add_once),
        cmocka_unit_test(writers),
        cmocka_unit_test(steps),
        cmocka_unit_test(refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
