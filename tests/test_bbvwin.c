/* test_bbvwin.c — ordered BBVs (DH_BBV_WINDOW, docs/model.md "Part 2:
 * ordered BBVs"): the windowed warp cost on a hand-made case where the
 * totals hide the order, windows summing to the totals, the totals'
 * pricing untouched when the windows say nothing more, the buffer's
 * limit, the step markers as the host compiles them, the run summary's
 * line, and (needs an OpenCL device, else SKIPPED) profiling runs of
 * frontier/gdt at size small with windows off and on. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "../harness/model/bbv.h"
#include "../harness/run/plan.h"
#include "../harness/run/worker.h"
#include "../harness/run/worker_state.h"
#include "../harness/report/report.h"
#include <unistd.h>

/* the dialect's markers as the host compiles them (suites/lib/hostref.c's
 * language): a windowed profiling build of 2 blocks, windows of 3
 * iterations, 2 windows an item */
#define DH_HOST_C 1
#define DH_WG 64
#define DH_WAVE 32
#define DH_BBV 1
#define DH_BBV_NB 2
#define DH_BBV_WIN 3
#define DH_BBV_WINS 2
#include "../suites/lib/dialect.h"

/* item dh_gid(): block 0 once, then `steps` iterations each running block
 * 1 d + 1 times; at iteration `move` the counters go to item 1 (a remap) */
DH_KERNEL void steps_kernel(int steps, int move DH_BBV_KARGS)
{
    int i = dh_gid();
    DH_BBV_ITEM(i);
    DH_BB(0);
    for (int d = 0; d < steps; d++) {
        DH_BBV_STEP();
        if (d == move)
            DH_BBV_REITEM(1);
        DH_BB_N(1, d + 1);
    }
}

/* item dh_gid(): block 0 once in row 0, then block 1 in the row of
 * `step` (DH_BBV_ROW: a launch's step, as bfs's level) */
DH_KERNEL void row_kernel(int step DH_BBV_KARGS)
{
    int i = dh_gid();
    DH_BBV_ITEM(i);
    DH_BB(0);
    DH_BBV_ROW(step);
    DH_BB(1);
}

/* one block of 1 cycle / 1 instruction */
static const double cyc1[1] = {1}, inst1[1] = {1};

/* The sketch's case: two lanes each run an indicator on 100 days, lane 0
 * in the first window, lane 1 in the second. Totals: 100 and 100, the
 * warp charged 100; ordered: 100 in each window, 200. */
static void totals_hide_the_order(void **st)
{
    (void)st;
    uint32_t tot[2] = {100, 100};
    uint32_t win[4] = {100, 0,     /* item 0: windows 0, 1 */
                       0, 100};    /* item 1 */
    struct dh_bbv b = {.n_items = 2, .n_blocks = 1, .counts = tot};
    struct dh_bbv_metrics m;
    dh_bbv_metrics(&b, cyc1, inst1, NULL, 2, 2, 1, 1, &m);
    assert_true(m.t_weighted == 100);
    assert_true(m.cfe == 1.0);                  /* 200 thread inst / (2 x 100) */
    b.n_windows = 2;
    b.window = 1;
    b.win_counts = win;
    dh_bbv_metrics(&b, cyc1, inst1, NULL, 2, 2, 1, 1, &m);
    assert_true(m.t_weighted == 200);
    assert_true(m.t_sched == 200);
    assert_true(m.cfe == 0.5);                  /* 200 / (2 x 200) */
    assert_true(m.dwr == 0);                    /* the totals agree: the old metric */
    /* the same two lanes in one window each of their own warp: no waste */
    dh_bbv_metrics(&b, cyc1, inst1, NULL, 1, 1, 1, 1, &m);
    assert_true(m.t_weighted == 200);
    assert_true(m.cfe == 1.0);
    /* an order prices the windows of the items it names */
    uint32_t tot3[3] = {100, 100, 100}, win3[6] = {100, 0, 0, 100, 100, 0};
    struct dh_bbv b3 = {.n_items = 3, .n_blocks = 1, .counts = tot3, .n_windows = 2,
                        .win_counts = win3};
    int order[3] = {0, 2, 1};                   /* items 0 and 2 ran together */
    dh_bbv_metrics(&b3, cyc1, inst1, order, 2, 2, 1, 1, &m);
    assert_true(m.t_weighted == 100 + 100);
    dh_bbv_metrics(&b3, cyc1, inst1, NULL, 2, 2, 1, 1, &m);
    assert_true(m.t_weighted == 200 + 100);
}

/* random counts split over windows: the sums are the totals; a saturated
 * window or a sum past 2^32-1 saturates the total (an overflow) */
static void windows_sum_to_totals(void **st)
{
    (void)st;
    enum { N = 300, NB = 4, NW = 7 };
    uint32_t *win = malloc(N * NW * NB * 4), *tot = malloc(N * NB * 4);
    uint64_t want[N * NB] = {0};
    uint64_t r = 7;
    for (long i = 0; i < N; i++)
        for (int w = 0; w < NW; w++)
            for (int k = 0; k < NB; k++) {
                r = r * 6364136223846793005ull + 1442695040888963407ull;
                uint32_t v = (uint32_t)((r >> 33) % 1000);
                win[(i * NW + w) * NB + k] = v;
                want[i * NB + k] += v;
            }
    dh_bbv_window_sum(win, N, NW, NB, tot);
    for (long i = 0; i < N * NB; i++)
        assert_int_equal(tot[i], want[i]);
    win[(5 * NW + 3) * NB + 2] = 0xffffffffu;          /* a step past the last window */
    win[(9 * NW + 1) * NB + 0] = 0xf0000000u;          /* sums past 2^32 - 1 */
    win[(9 * NW + 2) * NB + 0] = 0x20000000u;
    dh_bbv_window_sum(win, N, NW, NB, tot);
    assert_int_equal(tot[5 * NB + 2], 0xffffffffu);
    assert_int_equal(tot[9 * NB + 0], 0xffffffffu);
    struct dh_bbv b = {.n_items = N, .n_blocks = NB, .counts = tot};
    int blk = -1;
    assert_int_equal(dh_bbv_overflow(&b, &blk), 5);
    assert_int_equal(blk, 2);
    free(win);
    free(tot);
}

/* Windows that say nothing the totals do not (everything in window 0)
 * price bit for bit as the totals; and the plan's windows: K past the
 * loop (or no K) is one window, today's build */
static void totals_unchanged(void **st)
{
    (void)st;
    enum { N = 5000, NB = 6, NW = 3 };
    uint32_t *tot = malloc(N * NB * 4), *win = calloc(N * NW * NB, 4);
    uint64_t r = 3;
    for (long i = 0; i < N * NB; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        tot[i] = (uint32_t)((r >> 33) % 50);
    }
    for (long i = 0; i < N; i++)
        memcpy(win + (size_t)i * NW * NB, tot + (size_t)i * NB, NB * 4);
    double cyc[NB] = {1, 3.5, 7, 11, 2, 40}, inst[NB] = {1, 2, 3, 5, 8, 13};
    struct dh_bbv b = {.n_items = N, .n_blocks = NB, .counts = tot};
    struct dh_bbv_metrics off, on;
    for (int w = 32; w <= 64; w += 32) {
        b.win_counts = NULL;
        b.n_windows = 0;
        dh_bbv_metrics(&b, cyc, inst, NULL, w, 256, 4, 2, &off);
        b.win_counts = win;
        b.n_windows = NW;
        dh_bbv_metrics(&b, cyc, inst, NULL, w, 256, 4, 2, &on);
        assert_memory_equal(&off, &on, sizeof off);
    }
    int nw = 0;
    uint64_t bytes = 0;
    struct dh_err e = {0};
    assert_int_equal(dh_bbv_window_plan(1024, 18, 440, 440, 1 << 30, &nw, &bytes, &e), 0);
    assert_int_equal(nw, 1);
    assert_int_equal(dh_bbv_window_plan(1024, 18, 440, 1000, 1 << 30, &nw, &bytes, &e), 0);
    assert_int_equal(nw, 1);
    assert_int_equal(dh_bbv_window_plan(1024, 18, 440, 0, 1 << 30, &nw, &bytes, &e), 0);
    assert_int_equal(nw, 1);
    assert_int_equal(bytes, 1024 * 18 * 4);
    assert_int_equal(dh_bbv_window_plan(1024, 18, 440, 16, 1 << 30, &nw, &bytes, &e), 0);
    assert_int_equal(nw, 28);                          /* ceil(440 / 16) */
    assert_int_equal(bytes, 1024ull * 28 * 18 * 4);
    free(tot);
    free(win);
}

/* over the limit: refused with the figures and the fix */
static void limit_refused(void **st)
{
    (void)st;
    int nw = -1;
    uint64_t bytes = 0;
    struct dh_err e = {0};
    /* gdt medium at K = 1: 131072 x 440 x 18 x 4 = 3.9 GiB */
    assert_int_equal(dh_bbv_window_plan(131072, 18, 440, 1, (uint64_t)1 << 31, &nw, &bytes, &e),
                     -DH_E_RESOURCES);
    assert_int_equal(nw, 1);
    assert_non_null(strstr(e.msg, "DH_BBV_WINDOW=1"));
    assert_non_null(strstr(e.msg, "440 windows"));
    assert_non_null(strstr(e.msg, "DH_BBV_LIMIT_MB"));
    assert_non_null(strstr(e.msg, "larger window"));
    e.msg[0] = 0;
    assert_int_equal(dh_bbv_window_plan(131072, 18, 440, 4, (uint64_t)1 << 31, &nw, &bytes, &e),
                     0);
    assert_int_equal(nw, 110);
}

/* The markers: iterations 0-2 count into window 0 (with what ran before
 * the loop), 3-5 into window 1; a remap keeps the window; a step past the
 * last window saturates a counter, which the harness reports */
/* the windows of buf (2 items x 2 windows x 2 blocks) summed: the model
 * sees an overflow at item `item`, block 0 */
static void assert_overflow(const unsigned *buf, int item)
{
    uint32_t tot[4];
    dh_bbv_window_sum(buf, 2, 2, 2, tot);
    struct dh_bbv b = {.n_items = 2, .n_blocks = 2, .counts = tot};
    int blk = -1;
    assert_int_equal(dh_bbv_overflow(&b, &blk), item);
    assert_int_equal(blk, 0);
}

static void step_markers(void **st)
{
    (void)st;
    unsigned buf[2 * 2 * 2];               /* 2 items x 2 windows x 2 blocks */
    memset(buf, 0, sizeof buf);
    dh__host_gid = 0;
    steps_kernel(5, -1, buf);
    assert_int_equal(buf[0], 1);                     /* entry, window 0 */
    assert_int_equal(buf[1], 1 + 2 + 3);             /* iterations 0-2 */
    assert_int_equal(buf[2], 0);
    assert_int_equal(buf[3], 4 + 5);                 /* iterations 3-4 */
    assert_int_equal(buf[4] + buf[5] + buf[6] + buf[7], 0);
    /* moved to item 1 at iteration 4: its window 1 gets 5 */
    memset(buf, 0, sizeof buf);
    steps_kernel(5, 4, buf);
    assert_int_equal(buf[3], 4);
    assert_int_equal(buf[7], 5);
    assert_int_equal(buf[5], 0);
    /* 7 iterations where 6 were declared: saturated, an overflow */
    memset(buf, 0, sizeof buf);
    steps_kernel(7, -1, buf);
    assert_int_equal(buf[2], 0xffffffffu);
    assert_overflow(buf, 0);
    /* exactly the declared 6: no saturation */
    memset(buf, 0, sizeof buf);
    steps_kernel(6, -1, buf);
    assert_int_equal(buf[2], 0);
    assert_int_equal(buf[3], 4 + 5 + 6);
    (void)dh__host_lid;
    (void)dh__host_grp;
}

/* DH_BBV_ROW: steps 0-2 count into row 0, 3-5 into row 1 (windows of
 * 3, 2 rows); a step past the last row saturates that row, as a step
 * past the declared ones does */
static void row_markers(void **st)
{
    (void)st;
    unsigned buf[2 * 2 * 2];               /* 2 items x 2 windows x 2 blocks */
    memset(buf, 0, sizeof buf);
    dh__host_gid = 1;
    row_kernel(2, buf);
    row_kernel(3, buf);
    row_kernel(5, buf);
    assert_int_equal(buf[4], 3);                     /* item 1, row 0: entry 3 times */
    assert_int_equal(buf[5], 1);                     /* step 2 */
    assert_int_equal(buf[6], 0);
    assert_int_equal(buf[7], 2);                     /* steps 3 and 5 */
    assert_int_equal(buf[0] + buf[1] + buf[2] + buf[3], 0);
    row_kernel(6, buf);                              /* 6 / 3 = row 2: none */
    assert_int_equal(buf[6], 0xffffffffu);
    assert_int_equal(buf[7], 3);                     /* counted in the last row */
    assert_overflow(buf, 1);
    dh__host_gid = 0;
}

/* what print(runs, n) writes on stdout */
static const char *printed(void (*print)(const struct dh_run *, int), const struct dh_run *runs,
                           int n)
{
    char path[] = "/tmp/dh-test-bbvwin-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stdout);
    int saved = dup(1);
    dup2(fd, 1);
    print(runs, n);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    close(fd);
    FILE *fp = fopen(path, "r");
    static char text[1 << 14];
    size_t got = fread(text, 1, sizeof text - 1, fp);
    fclose(fp);
    unlink(path);
    text[got] = 0;
    return text;
}

/* harness run's model summary names the benchmarks priced per window */
static void summary_names_windows(void **st)
{
    (void)st;
    struct dh_run runs[2];
    memset(runs, 0, sizeof runs);
    const char *names[2] = {"gdt", "cvp"};
    for (int i = 0; i < 2; i++) {
        snprintf(runs[i].c.suite, sizeof runs[i].c.suite, "frontier");
        snprintf(runs[i].c.bench_name, sizeof runs[i].c.bench_name, "%s", names[i]);
        snprintf(runs[i].c.variant, sizeof runs[i].c.variant, "baseline");
        runs[i].c.bench = dh_bench_find("frontier", names[i]);
        runs[i].model_cfe_error = runs[i].model_err_weighted = NAN;
        runs[i].model_err_sched = runs[i].model_err_dwr = NAN;
        struct dh_model_result *m = &runs[i].r.model;
        m->valid = 1;
        snprintf(m->table, sizeof m->table, "nvidia-sm90");
        m->own.cfe = 0.36;
        m->window = i ? 0 : 16;
        m->windows = i ? 1 : 28;
    }
    const char *text = printed(dh_model_summary, runs, 2);
    assert_non_null(strstr(text, "gdt: ordered BBVs, 28 windows of 16 iterations"));
    assert_null(strstr(text, "cvp: ordered"));
}

/* harness run's summary says where the divergence is: a baseline's
 * blocks that waste 1% or more, most first, the rest summed; not a
 * regrouped run's */
static void summary_where(void **st)
{
    (void)st;
    struct dh_run runs[2];
    memset(runs, 0, sizeof runs);
    for (int i = 0; i < 2; i++) {
        snprintf(runs[i].c.suite, sizeof runs[i].c.suite, "frontier");
        snprintf(runs[i].c.bench_name, sizeof runs[i].c.bench_name, "pol");
        snprintf(runs[i].c.variant, sizeof runs[i].c.variant, i ? "cpu_tdr" : "baseline");
        runs[i].c.bench = dh_bench_find("frontier", "pol");
        runs[i].model_cfe_error = runs[i].model_err_weighted = NAN;
        runs[i].model_err_sched = runs[i].model_err_dwr = NAN;
        struct dh_model_result *m = &runs[i].r.model;
        m->valid = 1;
        snprintf(m->table, sizeof m->table, "nvidia-sm90");
        m->own.cfe = 0.36;
        m->waste_total = 1000;
        m->issued_total = 1600;
        m->n_waste = 3;
        m->waste[0] = (struct dh_model_waste){"two_brk", 700, 0.7, 0.2};
        if (i)
            snprintf(m->waste[0].block, sizeof m->waste[0].block, "regrouped_block");
        m->waste[1] = (struct dh_model_waste){"one_brk", 295, 0.295, 0.4};
        m->waste[2] = (struct dh_model_waste){"tiny_block", 5, 0.005, 0.9};
    }
    const char *text = printed(dh_waste_summary, runs, 2);
    const char *head = strstr(text, "Where the divergence is");
    const char *a = strstr(text, "two_brk"), *b = strstr(text, "one_brk");
    assert_non_null(head);
    assert_true(a && b && head < a && a < b);                   /* most first */
    assert_non_null(strstr(text, "70.0%"));
    assert_non_null(strstr(text, "62% wasted"));                /* 1000 of 1600 */
    assert_null(strstr(text, "tiny_block"));                    /* under 1% */
    assert_non_null(strstr(text, "(the other blocks)"));
    assert_null(strstr(text, "regrouped_block"));               /* baselines only */
}

/* ---- on the device: gdt and nqu small ---- */

struct gdt_run {
    struct dh_model_result m;
    int status;
    char message[1024];
    int windowed;                /* the worker's profiling build had windows */
    int n_windows;
    long items;
    int nb;
    uint32_t *counts;            /* the totals, copied */
};

static void bench_small(const char *suite, const char *bench, const char *window,
                        const char *limit_mb, struct gdt_run *g)
{
    if (window)
        setenv("DH_BBV_WINDOW", window, 1);
    else
        unsetenv("DH_BBV_WINDOW");
    if (limit_mb)
        setenv("DH_BBV_LIMIT_MB", limit_mb, 1);
    else
        unsetenv("DH_BBV_LIMIT_MB");
    setenv("DH_LATENCY_TABLE", "nvidia-sm90", 1);
    struct dh_devlist devs;
    struct dh_err e = {0};
    assert_int_equal(dh_devices_gather(&devs, 0, &e), 0);
    struct dh_selection sel = {.suite = suite, .benches = bench, .size = "small",
                               .reps = 1, .warmup = 0, .timeout_s = 300, .device = -1,
                               .backends = "opencl", .variants = "baseline", .model = 1};
    struct dh_run *runs;
    int n;
    assert_int_equal(dh_plan(&sel, &devs, &runs, &n, &e), 0);
    assert_true(n >= 1);
    struct dh_worker w;
    assert_int_equal(dh_worker_open(&w, dh_backend_find("opencl"), 0, &e), 0);
    dh_worker_run(&w, &runs[0].c, &runs[0].r);
    memset(g, 0, sizeof *g);
    g->status = runs[0].r.status;
    snprintf(g->message, sizeof g->message, "%s", runs[0].r.message);
    g->m = runs[0].r.model;
    g->n_windows = w.bbv.n_windows;
    g->items = w.bbv.n_items;
    g->nb = w.bbv.n_blocks;
    if (w.bbv.counts) {
        size_t bytes = (size_t)g->items * g->nb * 4;
        g->counts = malloc(bytes);
        memcpy(g->counts, w.bbv.counts, bytes);
    }
    g->windowed = w.bbv_nwin > 1 && w.bbv_wcounts != NULL;
    dh_worker_close(&w);
    free(runs);
    unsetenv("DH_BBV_WINDOW");
    unsetenv("DH_BBV_LIMIT_MB");
}

static void gdt_small(const char *window, const char *limit_mb, struct gdt_run *g)
{
    bench_small("frontier", "gdt", window, limit_mb, g);
}

static void gdt_small_windows(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    struct gdt_run off, on, refused;
    gdt_small(NULL, NULL, &off);
    if (off.status)
        fprintf(stderr, "%s\n", off.message);
    assert_int_equal(off.status, 0);
    assert_true(off.m.valid);
    assert_int_equal(off.m.window, 0);
    assert_int_equal(off.m.windows, 1);
    assert_int_equal(off.n_windows, 1);
    assert_false(off.windowed);
    gdt_small("16", NULL, &on);
    if (on.status)
        fprintf(stderr, "%s\n", on.message);
    assert_int_equal(on.status, 0);                     /* verified */
    assert_true(on.m.valid);
    assert_int_equal(on.m.window, 16);
    assert_int_equal(on.m.windows, 28);                 /* ceil((504 - 64) / 16) */
    assert_true(on.windowed);
    /* the windows' sums are the totals, item for item */
    assert_int_equal(on.items, off.items);
    assert_memory_equal(on.counts, off.counts, (size_t)off.items * off.nb * 4);
    assert_true(on.m.base.dwr == off.m.base.dwr);
    assert_int_equal(on.m.n_classes, off.m.n_classes);
    fprintf(stderr, "  gdt small, warp %d: modeled CFE %.3f totals, %.3f windows of 16\n",
            off.m.warp_width, off.m.cfe32, on.m.cfe32);
    assert_true(on.m.cfe32 < off.m.cfe32);
    assert_true(on.m.own.t_weighted > off.m.own.t_weighted);
    /* over DH_BBV_LIMIT_MB: the model refuses, naming the limit; the run
     * itself still verifies */
    gdt_small("1", "1", &refused);
    assert_int_equal(refused.status, 0);
    assert_false(refused.m.valid);
    assert_non_null(strstr(refused.message, "DH_BBV_LIMIT_MB"));
    assert_non_null(strstr(refused.message, "440 windows"));
    free(refused.counts);
    /* a bad window: the case fails naming the variable */
    gdt_small("0", NULL, &refused);
    assert_int_equal(refused.status, DH_E_USAGE);
    assert_non_null(strstr(refused.message, "DH_BBV_WINDOW=0"));
    free(off.counts);
    free(on.counts);
    free(refused.counts);
}

/* bench at size small with the totals and with one-step windows: both
 * verify, the windows sum to the totals item for item, none overflows
 * (a kernel that ran more steps than its bench declares saturates its
 * last window and voids the model), and the modeled CFE falls by more
 * than `drop`; the windowed run's window count is returned */
static int one_step_windows(const char *suite, const char *bench, const char *unit, double drop)
{
    struct gdt_run off, on;
    bench_small(suite, bench, NULL, NULL, &off);
    assert_int_equal(off.status, 0);
    assert_true(off.m.valid);
    assert_int_equal(off.m.windows, 1);
    bench_small(suite, bench, "1", NULL, &on);
    if (on.status || !on.m.valid)
        fprintf(stderr, "%s\n", on.message);
    assert_int_equal(on.status, 0);
    assert_true(on.m.valid);
    assert_true(on.windowed);
    assert_int_equal(on.items, off.items);
    assert_memory_equal(on.counts, off.counts, (size_t)off.items * off.nb * 4);
    fprintf(stderr, "  %s small, warp %d: modeled CFE %.3f totals, %.3f one-%s windows (%d)\n",
            bench, off.m.warp_width, off.m.cfe32, on.m.cfe32, unit, on.m.windows);
    assert_true(on.m.cfe32 < off.m.cfe32 - drop);
    free(off.counts);
    free(on.counts);
    return on.m.windows;
}

/* nqu marks each iteration of its search as a step and declares the
 * reference's largest subtree as its steps; one-iteration windows price
 * the lanes' pushes and pops as they ran, no longer averaged over the
 * search (modeled CFE 0.712 -> 0.449) */
static void nqu_small_windows(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    assert_true(one_step_windows("darm", "nqu", "iteration", 0.05) > 100);
}

/* bfs's steps are its launch pairs, one a level: a node counts its
 * expansion, edges and discoveries in the row of the level it expands at
 * and its update in the one before (DH_BBV_ROW), so a warp is charged
 * once for each level it holds frontier nodes of, not once for all (the
 * totals: every lane expands once). At medium, priced as the H100,
 * 0.750 -> 0.340 against CUPTI's 0.346 (docs/model.md) */
static void bfs_small_windows(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    assert_true(one_step_windows("rodinia", "bfs", "level", 0.2) > 5);
}

/* pcm marks each phase of its odd-even merge as a step (bs of them): a
 * run's role alternates with the phase, so its totals are half front,
 * half back; one-phase windows price the warp's two roles in every phase
 * (modeled CFE 0.773 -> 0.463 at small, bs 32) */
static void pcm_small_windows(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    assert_int_equal(one_step_windows("darm", "pcm", "phase", 0.2), 32);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(totals_hide_the_order), cmocka_unit_test(windows_sum_to_totals),
        cmocka_unit_test(totals_unchanged),      cmocka_unit_test(limit_refused),
        cmocka_unit_test(step_markers),          cmocka_unit_test(row_markers),
        cmocka_unit_test(summary_names_windows),
        cmocka_unit_test(summary_where),
        cmocka_unit_test(gdt_small_windows), cmocka_unit_test(bfs_small_windows),
        cmocka_unit_test(nqu_small_windows),
        cmocka_unit_test(pcm_small_windows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
