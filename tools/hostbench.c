/* hostbench.c — times cpu_tdr's host work without a device, at several
 * thread counts: the key counting sort with dlt's moves (the inputs
 * gathered, the output put back) or alone (rr's index array), and the BBV
 * regroupings (sort, greedy, greedymax; the regrouping alone, not the
 * profiling run that obtains the BBVs). The data have micro/branch's
 * shape at medium: a float and an int key per item, keys uniform over
 * `paths`, and each item's BBV that of its path (entry, a loop of
 * `iters` and an epilogue among 49 blocks). It runs the kit's own code
 * (suites/lib/kit_move.c, hostwork.c, regroup.c) on that data, with the
 * buffers allocated and touched once, as a case keeps them.
 *
 *   build/tools/hostbench [--items N] [--paths P] [--reps R]
 *       [--threads 1,2,4,...] [--work key-dlt,key-rr,sort,greedy,greedymax]
 *       [--gap-ms G] [--noise K] [--shape branch|gdt]
 *
 * --shape gdt gives the BBV regroupings frontier/gdt's shape instead: 18
 * blocks, 440 trading days split per item between layer 1's two sides,
 * layer 2's six cases and the trades, with per-item propensities, so
 * nearly every item is its own BBV class (gdt medium: 129,653 of 131,072).
 *
 * --gap-ms sleeps between repetitions (the device's turn in a real run:
 * OpenMP's idle threads go to sleep, as they do there); --noise starts K
 * threads that spin for the whole run, a stand-in for other processes on
 * the cores. Prints median, min and max ms per work and thread count, and
 * the page faults per repetition (minor and major; the buffers are
 * touched before, so any are the system's: NUMA balancing, reclaim). */
#include <errno.h>
#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "suites/lib/kit_int.h"
#include "suites/lib/regroup.h"

#define MAXT 32
#define MAXREPS 1000

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* minor and major page faults of the process so far */
static long faults(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt + u.ru_majflt;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static atomic_int stop_noise;
static void *spin(void *arg)
{
    (void)arg;
    volatile uint64_t x = 0;
    while (!atomic_load_explicit(&stop_noise, memory_order_relaxed))
        x++;
    return NULL;
}

static int usage(const char *why, const char *what)
{
    fprintf(stderr, "hostbench: %s%s%s%s\nusage: hostbench [--items N] [--paths P] [--reps R] "
            "[--threads 1,2,4,...] [--work key-dlt,key-rr,sort,greedy,greedymax] "
            "[--gap-ms G] [--noise K] [--shape branch|gdt]\n", why, what ? " \"" : "", what ? what : "",
            what ? "\"" : "");
    return 64;
}

static long num_arg(const char *name, const char *v, long lo, long hi, int *bad)
{
    char *end;
    errno = 0;
    long x = v ? strtol(v, &end, 10) : 0;
    if (!v || errno || *end || x < lo || x > hi) {
        fprintf(stderr, "hostbench: %s wants an integer in %ld .. %ld, got \"%s\"\n", name, lo,
                hi, v ? v : "(nothing)");
        *bad = 1;
    }
    return x;
}

enum { BUF_X, BUF_KEY, BUF_Y };
static const struct dh_kbuf bufs[] = {
    [BUF_X] = {"x", DH_T_F32, DH_IN, "items", DH_KB_ITEM | DH_KB_ROTATE},
    [BUF_KEY] = {"key", DH_T_I32, DH_IN, "items", DH_KB_ITEM | DH_KB_ROTATE},
    [BUF_Y] = {"y", DH_T_F32, DH_OUT, "items", DH_KB_ITEM},
};

int main(int argc, char **argv)
{
    long n = 4194304, paths = 4, reps = 30, gap = 10, noise = 0;
    const char *threads = NULL, *work = "key-dlt,key-rr,sort,greedy,greedymax";
    int gdt = 0;
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--items"))
            n = num_arg(a, v, 1, 1L << 30, &bad), i++;
        else if (!strcmp(a, "--paths"))
            paths = num_arg(a, v, 1, 8, &bad), i++;
        else if (!strcmp(a, "--reps"))
            reps = num_arg(a, v, 1, MAXREPS, &bad), i++;
        else if (!strcmp(a, "--gap-ms"))
            gap = num_arg(a, v, 0, 10000, &bad), i++;
        else if (!strcmp(a, "--noise"))
            noise = num_arg(a, v, 0, 64, &bad), i++;
        else if (!strcmp(a, "--threads") && v)
            threads = v, i++;
        else if (!strcmp(a, "--shape") && v) {
            if (strcmp(v, "branch") && strcmp(v, "gdt"))
                return usage("--shape wants branch (micro/branch's BBVs) or gdt, got", v);
            gdt = !strcmp(v, "gdt"), i++;
        }
        else if (!strcmp(a, "--work") && v)
            work = v, i++;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help"))
            return usage("times cpu_tdr's host work", NULL), 0;
        else
            return usage("unknown option, or one without its value:", a);
        if (bad)
            return 64;
    }
    int tlist[MAXT], nt = 0;
    if (threads) {
        for (const char *p = threads; *p;) {
            char *end;
            long t = strtol(p, &end, 10);
            if (end == p || t < 1 || t > 1024 || nt == MAXT || (*end && *end != ','))
                return usage("--threads wants a comma list of counts 1 .. 1024, got", threads);
            tlist[nt++] = (int)t;
            p = *end ? end + 1 : end;
        }
    } else {
        int most = omp_get_num_procs();
        for (int t = 1; t < most && nt < MAXT - 1; t *= 2)
            tlist[nt++] = t;
        tlist[nt++] = most;
    }
    const char *names[] = {"key-dlt", "key-rr", "sort", "greedy", "greedymax"};
    int want[5] = {0};
    for (const char *p = work; *p;) {
        size_t len = strcspn(p, ",");
        int k = 0;
        while (k < 5 && (strlen(names[k]) != len || strncmp(names[k], p, len)))
            k++;
        if (k == 5)
            return usage("--work wants a comma list of key-dlt, key-rr, sort, greedy, greedymax, "
                         "got", work);
        want[k] = 1;
        p += len + (p[len] == ',');
    }

    /* micro/branch's shape: x, key in, y out; keys uniform over paths */
    float *x = malloc((size_t)n * 4), *y = malloc((size_t)n * 4);
    int *key = malloc((size_t)n * sizeof *key);
    if (!x || !y || !key)
        return fprintf(stderr, "hostbench: out of memory for %ld items\n", n), 3;
    uint64_t st = 0x5eed;
    for (long i = 0; i < n; i++) {
        x[i] = (float)(mix(&st) >> 40);
        key[i] = (int)(mix(&st) % (uint64_t)paths);
        y[i] = (float)i;
    }
    struct dh_kit kit = {.bufs = bufs, .n_bufs = 3, .sort_by = "key", .sort_keys = "paths"};
    struct dh_kcase kc = {.cpu_tdr = 1};
    struct dh_khost h = {.kit = &kit, .items = n, .sort_nk = (int)paths, .kc = &kc};
    h.data[BUF_X] = x;
    h.data[BUF_KEY] = key;
    for (int b = 0; b < 3; b++) {
        h.count[b] = n;
        kc.present[b] = 1;
    }
    kc.perm = malloc((size_t)n * sizeof *kc.perm);
    kc.inv = malloc((size_t)n * sizeof *kc.inv);            /* dlt's, as the kit's */
    kc.stage[BUF_X] = malloc((size_t)n * 4);
    kc.stage[BUF_KEY] = malloc((size_t)n * 4);
    kc.got[BUF_Y] = malloc((size_t)n * 4);
    if (!kc.perm || !kc.inv || !kc.stage[BUF_X] || !kc.stage[BUF_KEY] || !kc.got[BUF_Y])
        return fprintf(stderr, "hostbench: out of memory for %ld items\n", n), 3;
    memset(kc.perm, 0, (size_t)n * sizeof *kc.perm);
    memset(kc.inv, 0, (size_t)n * sizeof *kc.inv);
    memset(kc.stage[BUF_X], 0, (size_t)n * 4);
    memset(kc.stage[BUF_KEY], 0, (size_t)n * 4);
    memset(kc.got[BUF_Y], 0, (size_t)n * 4);

    /* each item's BBV that of its path: 49 blocks as micro/branch marks
     * them (entry, 8 loops, 8 epilogues, 16 + 16 of the second layer) */
    enum { NB = 49, GNB = 18, DAYS = 440 };
    uint32_t *counts = NULL;
    double cost[NB];
    int nbb = gdt ? GNB : NB;
    if (want[2] || want[3] || want[4]) {
        counts = calloc((size_t)n * (size_t)nbb, sizeof *counts);
        if (!counts)
            return fprintf(stderr, "hostbench: out of memory for %ld BBVs (%zu MB)\n", n,
                           (size_t)n * (size_t)nbb * 4 >> 20), 3;
        for (long i = 0; i < n && !gdt; i++) {
            uint32_t *v = counts + (size_t)i * NB;
            v[0] = 1;
            v[1 + key[i]] = 1024;
            v[9 + key[i]] = 1;
        }
        for (long i = 0; i < n && gdt; i++) {
            /* gdt.k's blocks: entry, roll, drop5/20/50, day, l1 calm/vol,
             * l2 x 6, buy, buy_cov, fill, sell; each day takes one side of
             * layer 1, one case of layer 2 and at most one trade */
            uint32_t *v = counts + (size_t)i * GNB;
            double w[6], ws = 0, calm = (double)(mix(&st) % 1000) / 1000;
            for (int k = 0; k < 6; k++)
                ws += w[k] = (double)(mix(&st) % 1000 + 1);
            double pbuy = (double)(mix(&st) % 300) / 1000, psell = (double)(mix(&st) % 300) / 1000;
            v[0] = 1;
            v[1] = DAYS + 64;
            v[2] = v[3] = v[4] = DAYS;
            v[5] = DAYS;
            for (int d = 0; d < DAYS; d++) {
                double u = (double)(mix(&st) >> 11) / 9007199254740992.0;
                v[u < calm ? 6 : 7]++;
                u = (double)(mix(&st) >> 11) / 9007199254740992.0 * ws;
                int k = 0;
                while (k < 5 && u >= w[k])
                    u -= w[k++];
                v[8 + k]++;
                u = (double)(mix(&st) >> 11) / 9007199254740992.0;
                if (u < pbuy) {
                    v[14]++;
                    v[15] += mix(&st) & 1;
                    v[16] += (mix(&st) & 3) != 0;
                } else if (u < pbuy + psell) {
                    v[17]++;
                }
            }
        }
    }
    static const double gcost[GNB] = {9, 15, 2, 6, 6, 200, 68, 140, 223, 130, 148, 244, 150, 120,
                                      20, 60, 30, 25};
    for (int b = 0; b < NB; b++)
        cost[b] = gdt ? (b < GNB ? gcost[b] : 0) : b == 0 ? 20 : b < 9 || (b >= 17 && b < 33) ? 4 : 6;
    struct dh_bbv bbv = {.n_items = n, .n_blocks = nbb, .counts = counts, .block_cost = cost};

    pthread_t nth[64];
    for (long k = 0; k < noise; k++)
        if (pthread_create(&nth[k], NULL, spin, NULL))
            return fprintf(stderr, "hostbench: cannot start noise thread %ld\n", k), 3;

    const char *wait = getenv("OMP_WAIT_POLICY"), *spin = getenv("GOMP_SPINCOUNT");
    printf("shape %s, items %ld, paths %ld, %ld repetitions, %ld ms between them, %ld noise threads, "
           "%d cores, OMP_WAIT_POLICY=%s GOMP_SPINCOUNT=%s\n", gdt ? "gdt" : "branch", n, paths, reps, gap, noise,
           omp_get_num_procs(), wait ? wait : "(unset)", spin ? spin : "(unset)");
    printf("%-10s %7s %9s %9s %9s %9s\n", "work", "threads", "median", "min", "max",
           "faults");
    static double ms[MAXREPS];
    int rc = 0;
    for (int w = 0; w < 5 && !rc; w++) {
        if (!want[w])
            continue;
        for (int ti = 0; ti < nt && !rc; ti++) {
            omp_set_num_threads(tlist[ti]);
            long f0 = 0;
            for (long r = -1; r < reps; r++) {      /* -1: a first, untimed run */
                if (gap) {
                    struct timespec s = {gap / 1000, (gap % 1000) * 1000000L};
                    nanosleep(&s, NULL);
                }
                if (r == 0)
                    f0 = faults();
                double t0 = now_ms();
                if (w <= 1) {
                    struct dh__kit_key_ctx ctx = {.h = &h};
                    int *inv = kc.inv;
                    kc.inv = w == 0 ? inv : NULL;       /* an rr case has no inverse */
                    dh__kit_by_key(&ctx);
                    kc.inv = inv;
                    if (ctx.failed) {
                        fprintf(stderr, "hostbench: the key sort failed\n");
                        rc = 3;
                        break;
                    }
                    if (w == 0) {
                        dh__kit_move_inputs(&h);
                        dh__kit_dlt_out(&kc, y, kc.got[BUF_Y], n, n, 4);
                    }
                } else {
                    struct dh_err e = {0};
                    if (dh_regroup_bbv(&bbv, (enum dh_regroup_alg)(w - 1), 64, kc.perm, &e)) {
                        fprintf(stderr, "hostbench: %s\n", e.msg);
                        rc = 3;
                        break;
                    }
                }
                if (r >= 0)
                    ms[r] = now_ms() - t0;
            }
            if (rc)
                break;
            qsort(ms, (size_t)reps, sizeof *ms, cmp_d);
            double med = reps % 2 ? ms[reps / 2] : (ms[reps / 2 - 1] + ms[reps / 2]) / 2;
            printf("%-10s %7d %9.2f %9.2f %9.2f %9.1f\n", names[w], tlist[ti], med, ms[0],
                   ms[reps - 1], (double)(faults() - f0) / (double)reps);
            fflush(stdout);
        }
    }
    atomic_store(&stop_noise, 1);
    for (long k = 0; k < noise; k++)
        pthread_join(nth[k], NULL);
    free(counts);
    free(x); free(y); free(key);
    free(kc.perm); free(kc.inv); free(kc.stage[BUF_X]); free(kc.stage[BUF_KEY]); free(kc.got[BUF_Y]);
    return rc;
}
