#include <math.h>
/* test_shard.c — `harness run --shard I/N` and merging shards: the union
 * of all shards is the unsharded plan, each case once, a workload's cases
 * on one shard, the same split every time; the plan read back from a
 * results file; merge refusing two plans and naming missing, incomplete
 * and duplicated shards. No device needed: the plan is made for a
 * described device. */
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "../harness/cli/cli.h"
#include "../harness/run/plan.h"
#include "../harness/run/shard.h"
#include "../harness/stats/load.h"
#include "../harness/stats/shards.h"
#include "../results/xml.h"

static struct dh_devlist devs;

static void fake_devices(const char *name)
{
    memset(&devs, 0, sizeof devs);
    devs.n = 1;
    snprintf(devs.d[0].backend, sizeof devs.d[0].backend, "opencl");
    struct dh_device_info *d = &devs.d[0].info;
    snprintf(d->name, sizeof d->name, "%s", name);
    snprintf(d->driver, sizeof d->driver, "1.0");
    d->warp_width = 32;
    d->compute_units = 80;
    d->max_wg = 1024;
    d->local_mem_bytes = 48 * 1024;
    d->global_mem_bytes = 16ULL << 30;
    devs.n_backends = 1;
    snprintf(devs.b[0].name, sizeof devs.b[0].name, "opencl");
    devs.b[0].n_devices = 1;
}

static int plan_of(const char *suite, const char *size, struct dh_run **runs, int *n)
{
    struct dh_selection sel = {.suite = suite, .size = size, .reps = 10, .warmup = 1,
                               .timeout_s = 300, .device = -1, .backends = "opencl",
                               .profile = 0, .model = 1};
    struct dh_err e = {0};
    int rc = dh_plan(&sel, &devs, runs, n, &e);
    if (rc)
        fprintf(stderr, "plan: %s\n", e.msg);
    return rc;
}

static void parse(void **st)
{
    (void)st;
    int i, n;
    char why[200];
    assert_int_equal(dh_shard_parse("1/1", &i, &n, why, sizeof why), 0);
    assert_int_equal(dh_shard_parse("3/4", &i, &n, why, sizeof why), 0);
    assert_int_equal(i, 3);
    assert_int_equal(n, 4);
    const char *bad[] = {"0/4", "5/4", "4", "/4", "1/", "1/0", "-1/4", "1/-4", "1/4x",
                         "a/b", "1/100000", ""};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        why[0] = 0;
        assert_int_equal(dh_shard_parse(bad[k], &i, &n, why, sizeof why), -1);
        assert_non_null(strstr(why, "I/N"));
    }
}

/* every shard count: each case on exactly one shard, the shards' parts in
 * plan order join to the plan, a workload on one shard, loads balanced,
 * and the same answer twice */
static void split(void **st)
{
    (void)st;
    fake_devices("Fake GPU");
    struct dh_run *runs;
    int n;
    assert_int_equal(plan_of("all", "small", &runs, &n), 0);
    assert_true(n > 50);
    int counts[] = {1, 2, 3, 4, 7, 16, 1000};
    int *of = malloc((size_t)n * sizeof *of), *again = malloc((size_t)n * sizeof *again);
    int *seen = calloc((size_t)n, sizeof *seen);
    struct dh_run *copy = malloc((size_t)n * sizeof *copy);
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
        int N = counts[c];
        assert_int_equal(dh_shard_assign(runs, n, N, NULL, of), 0);
        assert_int_equal(dh_shard_assign(runs, n, N, NULL, again), 0);
        assert_memory_equal(of, again, (size_t)n * sizeof *of);
        long *load = calloc((size_t)N, sizeof *load);
        int biggest = 0;
        for (int i = 0; i < n; i++) {
            assert_true(of[i] >= 1 && of[i] <= N);
            load[of[i] - 1]++;
            int wl = 0;
            for (int k = 0; k < n; k++)
                if (dh_same_workload(&runs[k].c, &runs[i].c)) {
                    assert_int_equal(of[k], of[i]);     /* a workload stays together */
                    wl++;
                }
            biggest = wl > biggest ? wl : biggest;
        }
        long lo = load[0], hi = load[0];
        for (int s = 0; s < N; s++) {
            lo = load[s] < lo ? load[s] : lo;
            hi = load[s] > hi ? load[s] : hi;
        }
        assert_true(hi - lo <= biggest);       /* greedy by cost: within one workload */
        free(load);
        /* the shards' own parts: every case once, in plan order */
        memset(seen, 0, (size_t)n * sizeof *seen);
        char hash[17] = "";
        for (int I = 1; I <= N; I++) {
            struct dh_plan_rec *p = dh_shard_plan(runs, n, I, N, NULL);
            assert_non_null(p);
            assert_int_equal(p->cases, n);
            if (I == 1)
                snprintf(hash, sizeof hash, "%s", p->hash);
            assert_string_equal(p->hash, hash);     /* one plan on every shard */
            memcpy(copy, runs, (size_t)n * sizeof *copy);
            int m = n;
            dh_shard_keep(copy, &m, p);
            int last = -1;
            for (int k = 0; k < m; k++) {
                int at = -1;
                for (int i = 0; i < n && at < 0; i++)
                    if (!strcmp(runs[i].c.id, copy[k].c.id))
                        at = i;
                assert_true(at > last);             /* plan order kept */
                last = at;
                seen[at]++;
                assert_int_equal(of[at], I);
            }
            dh_plan_rec_free(p);
        }
        for (int i = 0; i < n; i++)
            assert_int_equal(seen[i], 1);
        /* the hash is the unsharded plan's: its ids in order */
        struct dh_plan_case *ids = calloc((size_t)(n > 0 ? n : 1), sizeof *ids);
        for (int i = 0; i < n; i++)
            snprintf(ids[i].id, sizeof ids[i].id, "%s", runs[i].c.id);
        char h2[17];
        dh_plan_hash(ids, n, h2);
        assert_string_equal(h2, hash);
        free(ids);
    }
    /* more shards than workloads: the extra shards are empty, nothing lost */
    assert_int_equal(dh_shard_assign(runs, n, 1000, NULL, of), 0);
    free(of);
    free(again);
    free(seen);
    free(copy);
    free(runs);
}

/* costs from an earlier results file: a known case takes its case_ms, an
 * unknown one the mean of the known; a heavy workload gets a shard of its
 * own while the light ones share the rest */
static void weighted(void **st)
{
    (void)st;
    fake_devices("Fake GPU");
    struct dh_run *runs;
    int n;
    assert_int_equal(plan_of("all", "small", &runs, &n), 0);
    assert_true(n > 50);
    /* an earlier night that ran the first workload's cases (1000 ms each)
     * and one other case (10 ms), and a case of no matching key */
    struct dh_run *prev = calloc((size_t)n + 1, sizeof *prev);
    int np = 0, heavy = 0;
    for (int i = 0; i < n; i++)
        if (dh_same_workload(&runs[i].c, &runs[0].c)) {
            prev[np] = runs[i];
            prev[np++].r.case_ms = 1000;
            heavy++;
        }
    int other = -1;
    for (int i = 0; i < n && other < 0; i++)
        if (!dh_same_workload(&runs[i].c, &runs[0].c))
            other = i;
    prev[np] = runs[other];
    prev[np++].r.case_ms = 10;
    snprintf(prev[np].c.key, sizeof prev[np].c.key, "no-such-case");
    prev[np++].r.case_ms = 5;
    double *cost = malloc((size_t)n * sizeof *cost);
    int known = -1;
    dh_shard_costs(runs, n, prev, np, cost, &known);
    assert_int_equal(known, heavy + 1);
    double mean = (1000.0 * heavy + 10) / (heavy + 1);
    for (int i = 0; i < n; i++) {
        if (dh_same_workload(&runs[i].c, &runs[0].c))
            assert_true(cost[i] == 1000);
        else if (i == other)
            assert_true(cost[i] == 10);
        else
            assert_true(fabs(cost[i] - mean) < 1e-9);
    }
    /* heavy: the unknown cases at 1, the first workload far above them */
    for (int i = 0; i < n; i++)
        if (!dh_same_workload(&runs[i].c, &runs[0].c))
            cost[i] = 1;
    int *of = malloc((size_t)n * sizeof *of), *plain = malloc((size_t)n * sizeof *plain);
    assert_int_equal(dh_shard_assign(runs, n, 4, cost, of), 0);
    for (int i = 0; i < n; i++)
        if (of[i] == of[0])
            assert_true(dh_same_workload(&runs[i].c, &runs[0].c));   /* alone on its shard */
    /* all costs 1 is the case count */
    for (int i = 0; i < n; i++)
        cost[i] = 1;
    assert_int_equal(dh_shard_assign(runs, n, 4, cost, of), 0);
    assert_int_equal(dh_shard_assign(runs, n, 4, NULL, plain), 0);
    assert_memory_equal(of, plain, (size_t)n * sizeof *of);
    free(of);
    free(plain);
    free(cost);
    free(prev);
    free(runs);
}

/* ---- results files of shards, and merge ---- */

static char tmpdir[64];

static const char *tpath(const char *name)
{
    static char buf[8][256];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

/* shard I of N of runs[0..n) written to path as a finished run would be;
 * skip: a case of the shard left out (-1: none) */
static void write_shard(const char *path, const struct dh_run *runs, int n, int I, int N,
                        int skip)
{
    struct dh_plan_rec *p = dh_shard_plan(runs, n, I, N, NULL);
    assert_non_null(p);
    struct dh_run *mine = malloc((size_t)n * sizeof *mine);
    memcpy(mine, runs, (size_t)n * sizeof *mine);
    int m = n;
    dh_shard_keep(mine, &m, p);
    for (int k = 0; k < m; k++) {
        mine[k].r.status = k == skip ? -1 : 0;      /* -1: pending, not written */
        mine[k].r.n = 10;
        mine[k].r.verified = 1;
        assert_int_equal(dh_result_samples(&mine[k].r, 10), 0);
        for (int s = 0; s < 10; s++)
            mine[k].r.kernel_ms[s] = 1.0 + 0.01 * s + 0.1 * k;
    }
    struct dh_env env;
    char *argv[] = {"harness", "run", "--suite", "micro"};
    dh_env_fill(&env, 4, argv);
    struct dh_err e = {0};
    assert_int_equal(dh_xml_write_plan(path, &env, &devs, mine, m, p, &e), 0);
    for (int k = 0; k < m; k++)
        dh_run_release(&mine[k]);
    free(mine);
    dh_plan_rec_free(p);
}

static int merge(int argc, char **argv)
{
    fflush(stdout);
    return dh_cmd_merge(argc, argv);
}
#define MERGE(...) merge((int)(sizeof((char *[]){"merge", __VA_ARGS__}) / sizeof(char *)), \
                         (char *[]){"merge", __VA_ARGS__})

static void merging(void **st)
{
    (void)st;
    fake_devices("Fake GPU");
    struct dh_run *runs;
    int n;
    assert_int_equal(plan_of("micro", "small", &runs, &n), 0);
    int N = 4;
    for (int I = 1; I <= N; I++) {
        char name[32];
        snprintf(name, sizeof name, "s%d.xml", I);
        write_shard(tpath(name), runs, n, I, N, -1);
    }
    /* the plan read back: hash, N, I and every case with its shard */
    static struct dh_resultfile f;
    struct dh_err e = {0};
    assert_int_equal(dh_results_load(tpath("s2.xml"), &f, &e), 0);
    assert_non_null(f.plan);
    assert_int_equal(f.plan->shards, 4);
    assert_int_equal(f.plan->shard, 2);
    assert_int_equal(f.plan->cases, n);
    struct dh_plan_rec *want = dh_shard_plan(runs, n, 2, 4, NULL);
    assert_string_equal(f.plan->hash, want->hash);
    for (int i = 0; i < n; i++) {
        assert_string_equal(f.plan->ids[i].id, runs[i].c.id);
        assert_int_equal(f.plan->ids[i].shard, want->ids[i].shard);
    }
    dh_plan_rec_free(want);
    dh_resultfile_free(&f);

    /* all four: every case once, each shard ok */
    assert_int_equal(MERGE((char *)tpath("all.xml"), (char *)tpath("s3.xml"),
                           (char *)tpath("s1.xml"), (char *)tpath("s4.xml"),
                           (char *)tpath("s2.xml")), DH_EXIT_OK);
    assert_int_equal(dh_results_load(tpath("all.xml"), &f, &e), 0);
    assert_int_equal(f.n_runs, n);
    for (int i = 0; i < n; i++) {
        int found = 0;
        for (int k = 0; k < f.n_runs; k++)
            found += !strcmp(f.runs[k].c.id, runs[i].c.id);
        assert_int_equal(found, 1);
    }
    assert_non_null(f.plan);
    assert_int_equal(f.plan->shard, 0);
    assert_int_equal(f.plan->n_notes, 4);
    for (int k = 0; k < 4; k++) {
        assert_int_equal(f.plan->notes[k].state, DH_SHARD_OK);
        assert_int_equal(f.plan->notes[k].claims, 1);
    }
    dh_resultfile_free(&f);

    /* shard 3 missing: exit 3, the file still written, shard 3 named */
    assert_int_equal(MERGE((char *)tpath("part.xml"), (char *)tpath("s1.xml"),
                           (char *)tpath("s2.xml"), (char *)tpath("s4.xml")), DH_EXIT_INFRA);
    assert_int_equal(dh_results_load(tpath("part.xml"), &f, &e), 0);
    assert_int_equal(f.plan->notes[2].state, DH_SHARD_MISSING);
    assert_true(f.plan->notes[2].planned > 0);
    assert_int_equal(f.plan->notes[2].ran, 0);
    assert_non_null(strstr(f.plan->notes[2].message, "did not run"));
    assert_int_equal(f.plan->notes[0].state, DH_SHARD_OK);
    dh_resultfile_free(&f);
    /* a shard that never wrote its file: refused, or left out and named */
    assert_int_equal(MERGE((char *)tpath("part.xml"), (char *)tpath("s1.xml"),
                           (char *)tpath("s2.xml"), (char *)tpath("s4.xml"),
                           (char *)tpath("nope/results.xml")), DH_EXIT_INFRA);
    assert_int_equal(MERGE((char *)tpath("part2.xml"), (char *)tpath("s1.xml"),
                           (char *)tpath("s2.xml"), (char *)tpath("s4.xml"),
                           (char *)tpath("nope/results.xml"), "--allow-missing"),
                     DH_EXIT_INFRA);
    assert_int_equal(dh_results_load(tpath("part2.xml"), &f, &e), 0);
    assert_int_equal(f.plan->notes[2].state, DH_SHARD_MISSING);
    dh_resultfile_free(&f);

    /* shard 2 stopped after some cases: incomplete, with what is missing */
    write_shard(tpath("s2cut.xml"), runs, n, 2, N, 0);
    assert_int_equal(MERGE((char *)tpath("cut.xml"), (char *)tpath("s1.xml"),
                           (char *)tpath("s2cut.xml"), (char *)tpath("s3.xml"),
                           (char *)tpath("s4.xml")), DH_EXIT_INFRA);
    assert_int_equal(dh_results_load(tpath("cut.xml"), &f, &e), 0);
    assert_int_equal(f.plan->notes[1].state, DH_SHARD_INCOMPLETE);
    assert_int_equal(f.plan->notes[1].ran, f.plan->notes[1].planned - 1);
    dh_resultfile_free(&f);

    /* the cut shard run again: both files claim shard 2, the later runs are
     * kept and the merge is whole */
    assert_int_equal(MERGE((char *)tpath("again.xml"), (char *)tpath("s1.xml"),
                           (char *)tpath("s2cut.xml"), (char *)tpath("s2.xml"),
                           (char *)tpath("s3.xml"), (char *)tpath("s4.xml")), DH_EXIT_OK);
    assert_int_equal(dh_results_load(tpath("again.xml"), &f, &e), 0);
    assert_int_equal(f.plan->notes[1].claims, 2);
    assert_int_equal(f.plan->notes[1].state, DH_SHARD_OK);
    assert_int_equal(f.n_runs, n);
    dh_resultfile_free(&f);

    /* a merged file and the missing shard, merged later: whole */
    assert_int_equal(MERGE((char *)tpath("later.xml"), (char *)tpath("part.xml"),
                           (char *)tpath("s3.xml")), DH_EXIT_OK);

    /* another plan (another device, so other case ids): refused, unless
     * --mixed-plans */
    struct dh_run *other;
    int no;
    fake_devices("Other GPU");
    assert_int_equal(plan_of("micro", "small", &other, &no), 0);
    write_shard(tpath("o1.xml"), other, no, 1, 2, -1);
    assert_int_equal(MERGE((char *)tpath("mixed.xml"), (char *)tpath("s1.xml"),
                           (char *)tpath("o1.xml")), DH_EXIT_INFRA);
    struct stat sb;
    assert_int_not_equal(stat(tpath("mixed.xml"), &sb), 0);    /* nothing written */
    static struct dh_resultfile a, b;
    assert_int_equal(dh_results_load(tpath("s1.xml"), &a, &e), 0);
    assert_int_equal(dh_results_load(tpath("o1.xml"), &b, &e), 0);
    struct dh_resultfile two[2] = {a, b};
    const char *names[] = {"s1.xml", "o1.xml"};
    struct dh_plan_rec *mp = NULL;
    assert_int_equal(dh_shards_check(two, names, 2, 0, &mp, NULL, &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, "2 different plans"));
    assert_non_null(strstr(e.msg, "s1.xml"));
    assert_non_null(strstr(e.msg, "o1.xml"));
    assert_non_null(strstr(e.msg, "--mixed-plans"));
    /* mixed allowed: each plan checked alone (s1's plan lacks 3 shards,
     * o1's lacks 1), no plan in the merged file */
    assert_int_equal(dh_shards_check(two, names, 2, 1, &mp, NULL, &e), 4);
    assert_null(mp);
    dh_resultfile_free(&a);
    dh_resultfile_free(&b);
    write_shard(tpath("o2.xml"), other, no, 2, 2, -1);
    assert_int_equal(MERGE((char *)tpath("mixed.xml"), (char *)tpath("s1.xml"),
                           (char *)tpath("s2.xml"), (char *)tpath("s3.xml"),
                           (char *)tpath("s4.xml"), (char *)tpath("o1.xml"),
                           (char *)tpath("o2.xml"), "--mixed-plans"), DH_EXIT_OK);
    assert_int_equal(dh_results_load(tpath("mixed.xml"), &f, &e), 0);
    assert_int_equal(f.n_runs, n + no);
    assert_null(f.plan);
    dh_resultfile_free(&f);
    free(other);

    /* a file of no plan (written before shards) still loads and merges */
    fake_devices("Fake GPU");
    struct dh_env env;
    char *argv[] = {"harness", "run"};
    dh_env_fill(&env, 2, argv);
    struct dh_run one = runs[0];
    one.r.status = 0;
    one.r.n = 10;
    assert_int_equal(dh_result_samples(&one.r, 10), 0);
    for (int s = 0; s < 10; s++)
        one.r.kernel_ms[s] = 2.0;
    assert_int_equal(dh_xml_write(tpath("old.xml"), &env, &devs, &one, 1, &e), 0);
    dh_run_release(&one);
    assert_int_equal(dh_results_load(tpath("old.xml"), &f, &e), 0);
    assert_null(f.plan);
    dh_resultfile_free(&f);
    assert_int_equal(MERGE((char *)tpath("withold.xml"), (char *)tpath("all.xml"),
                           (char *)tpath("old.xml")), DH_EXIT_OK);
    free(runs);
}

/* an edited case list no longer hashes to its plan: refused */
static void tampered(void **st)
{
    (void)st;
    fake_devices("Fake GPU");
    struct dh_run *runs;
    int n;
    assert_int_equal(plan_of("micro", "small", &runs, &n), 0);
    write_shard(tpath("t.xml"), runs, n, 1, 2, -1);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "sed -i '0,/<case id=\"micro/s//<case id=\"xmicro/' %s",
             tpath("t.xml"));
    assert_int_equal(system(cmd), 0);
    static struct dh_resultfile f;
    struct dh_err e = {0};
    assert_int_equal(dh_results_load(tpath("t.xml"), &f, &e), -DH_E_DATA);
    assert_non_null(strstr(e.msg, "plan hash"));
    free(runs);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/dh-shard-XXXXXX");
    if (!mkdtemp(tmpdir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse),
        cmocka_unit_test(split),
        cmocka_unit_test(weighted),
        cmocka_unit_test(merging),
        cmocka_unit_test(tampered),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd)) {
    }
    return rc;
}
