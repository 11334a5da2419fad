/* test_wcache.c — the workload cache: the entry store (hit, miss, every
 * kind of bad entry rebuilt and never used, LRU eviction under a limit,
 * writes that fail), the keys (each ingredient changes them, nothing
 * else does), and the kit's host data and BBVs stored and loaded. Runs
 * through the cache are test_wcache_runs.c's. */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>

#include <signal.h>
#include <sys/resource.h>

#include "testutil.h"
#include "../harness/run/plan.h"
#include "../harness/run/runner.h"
#include "../harness/run/wcache.h"
#include "../harness/run/worker_state.h"
#include "../suites/lib/kit.h"
#include "wcache_test.h"

/* ---- the store ---- */

static void hit_and_miss(void **st)
{
    (void)st;
    struct dh_store s;
    store_in(&s, "hm", 0);
    struct dh_store_key a = key_of("a"), b = key_of("b");
    char why[256];
    static const char data[] = "inputs and references";
    assert_int_equal(get(&s, &a, 1, data, sizeof data, why, sizeof why), 0);    /* miss */
    put(&s, &a, 1, "micro/branch small seed=1 host", data, sizeof data);
    assert_int_equal(get(&s, &a, 1, data, sizeof data, why, sizeof why), 1);    /* hit */
    assert_int_equal(get(&s, &b, 1, data, sizeof data, why, sizeof why), 0);    /* other key */
    /* reading past the payload is an error, not a read of the next bytes */
    struct dh_store_reader r;
    char big[64];
    assert_int_equal(dh_store_get(&s, &a, 1, &r, why, sizeof why), 1);
    assert_int_equal(dh_store_read(&r, big, sizeof big, why, sizeof why), -1);
    dh_store_abandon(&r);
    /* an entry read only in part is not accepted */
    assert_int_equal(dh_store_get(&s, &a, 1, &r, why, sizeof why), 1);
    assert_int_equal(dh_store_read(&r, big, 4, why, sizeof why), 0);
    assert_int_equal(dh_store_done(&r, why, sizeof why), -1);
    assert_non_null(strstr(why, "payload of"));
}

static void keys_unambiguous(void **st)
{
    (void)st;
    struct dh_keyb kb;
    struct dh_store_key k1, k2, k3, k4;
    dh_keyb_init(&kb);
    dh_keyb_str(&kb, "x", "ab");
    dh_keyb_str(&kb, "y", "c");
    dh_keyb_final(&kb, &k1);
    dh_keyb_init(&kb);
    dh_keyb_str(&kb, "x", "a");
    dh_keyb_str(&kb, "y", "bc");
    dh_keyb_final(&kb, &k2);
    assert_memory_not_equal(k1.b, k2.b, 16);
    dh_keyb_init(&kb);
    dh_keyb_str(&kb, "x", NULL);
    dh_keyb_final(&kb, &k3);
    dh_keyb_init(&kb);
    dh_keyb_str(&kb, "x", "");
    dh_keyb_final(&kb, &k4);
    assert_memory_not_equal(k3.b, k4.b, 16);
}

/* every way an entry goes bad: flipped payload byte, flipped header byte,
 * truncated, another key's file under this key's name, another kind;
 * each is an error with its reason, removed, and a new entry then works */
static void bad_entries(void **st)
{
    (void)st;
    struct dh_store s;
    store_in(&s, "bad", 0);
    struct dh_store_key k = key_of("k"), o = key_of("other");
    char path[4300], opath[4300], why[256];
    entry_file(&s, &k, path, sizeof path);
    entry_file(&s, &o, opath, sizeof opath);
    unsigned char data[4096];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (unsigned char)(i * 7);
    static const struct {
        const char *what;
        long off;          /* byte to flip (from the end when negative); 0: see below */
        const char *reason;
    } cases[] = {
        {"payload byte", -100, "checksum"},
        {"header byte", 20, "header checksum"},
        {"label byte", DH_STORE_HEADER_BYTES + 2, "checksum"},
        {"truncated", 0, "truncated"},
        {"wrong key", 0, "another key"},
        {"wrong kind", 0, "kind"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        put(&s, &k, 1, "label", data, sizeof data);
        uint32_t kind = 1;
        if (!strcmp(cases[c].what, "truncated")) {
            assert_int_equal(truncate(path, DH_STORE_HEADER_BYTES + 5 + 1000), 0);
        } else if (!strcmp(cases[c].what, "wrong key")) {
            put(&s, &o, 1, "label", data, sizeof data);
            assert_int_equal(rename(opath, path), 0);
        } else if (!strcmp(cases[c].what, "wrong kind")) {
            kind = 2;
        } else {
            FILE *f = fopen(path, "r+b");
            assert_non_null(f);
            fseek(f, cases[c].off, cases[c].off < 0 ? SEEK_END : SEEK_SET);
            int ch = fgetc(f);
            fseek(f, cases[c].off, cases[c].off < 0 ? SEEK_END : SEEK_SET);
            fputc(ch ^ 0x10, f);
            fclose(f);
        }
        why[0] = 0;
        int rc = get(&s, &k, kind, data, sizeof data, why, sizeof why);
        if (rc != -1 || !strstr(why, cases[c].reason))
            fail_msg("%s: got %d (%s)", cases[c].what, rc, why);
        assert_false(exists(path));                  /* removed, never used */
        put(&s, &k, 1, "label", data, sizeof data);  /* made anew */
        assert_int_equal(get(&s, &k, 1, data, sizeof data, why, sizeof why), 1);
    }
}

static void set_age(const char *path, int seconds_ago)
{
    struct timespec t[2];
    clock_gettime(CLOCK_REALTIME, &t[0]);
    t[0].tv_sec -= seconds_ago;
    t[1] = t[0];
    assert_int_equal(utimensat(AT_FDCWD, path, t, 0), 0);
}

/* a limit for three entries: the fourth evicts the least recently used,
 * and a read counts as a use */
static void evicts_lru(void **st)
{
    (void)st;
    char data[1000] = {0};
    size_t entry = DH_STORE_HEADER_BYTES + 1 + sizeof data;
    struct dh_store s;
    store_in(&s, "lru", 3 * entry + 10);
    struct dh_store_key k[4] = {key_of("1"), key_of("2"), key_of("3"), key_of("4")};
    char p[4][4300], why[256];
    for (int i = 0; i < 3; i++) {
        put(&s, &k[i], 1, "x", data, sizeof data);
        entry_file(&s, &k[i], p[i], sizeof p[i]);
        set_age(p[i], 300 - 100 * i);       /* 1 oldest, 3 newest */
    }
    assert_int_equal(get(&s, &k[0], 1, data, sizeof data, why, sizeof why), 1);   /* 1 used */
    put(&s, &k[3], 1, "x", data, sizeof data);
    entry_file(&s, &k[3], p[3], sizeof p[3]);
    assert_true(exists(p[0]));
    assert_false(exists(p[1]));                 /* the least recently used */
    assert_true(exists(p[2]));
    assert_true(exists(p[3]));
    /* an entry larger than the limit is refused, with the sizes */
    struct dh_store_writer w;
    struct dh_err e = {0};
    assert_int_equal(dh_store_begin(&s, &k[1], 1, "x", 10 * entry, &w, why, sizeof why, &e), 1);
    assert_non_null(strstr(why, "limit"));
    /* stale temporary files of a dead writer go with an eviction */
    char tmp[4300];
    snprintf(tmp, sizeof tmp, "%s/.tmp.deadbeef.1", s.dir);
    FILE *f = fopen(tmp, "w");
    fclose(f);
    set_age(tmp, 7200);
    dh_store_evict(&s, 0, NULL);
    assert_false(exists(tmp));
    assert_false(exists(p[0]) || exists(p[2]) || exists(p[3]));   /* limit 0: all out */
}

static void count_bad(void *ctx, const struct dh_store_info *in)
{
    *(int *)ctx += !in->ok;
}

/* shards on one node: writers of the same keys and of their own at once,
 * under a limit that keeps them evicting; every entry left is whole and
 * no temporary file stays */
static void concurrent_writers(void **st)
{
    (void)st;
    struct dh_store s;
    char data[20000];
    size_t entry = DH_STORE_HEADER_BYTES + 1 + sizeof data;
    store_in(&s, "conc", 6 * entry);
    enum { WRITERS = 4, ROUNDS = 40 };
    pid_t pid[WRITERS];
    for (int p = 0; p < WRITERS; p++) {
        if ((pid[p] = fork()) == 0) {
            for (int r = 0; r < ROUNDS; r++) {
                char name[32];
                snprintf(name, sizeof name, r % 2 ? "own %d %d" : "shared %d", r % 2 ? p : r % 5,
                         r);
                struct dh_store_key k = key_of(name);
                memset(data, r + p, sizeof data);
                struct dh_store_writer w;
                struct dh_err e = {0};
                char why[256];
                if (dh_store_begin(&s, &k, 1, "x", sizeof data, &w, why, sizeof why, &e)
                    || dh_store_write(&w, data, sizeof data, &e) || dh_store_commit(&w, &e))
                    _exit(1);
                struct dh_store_reader rd;
                int got = dh_store_get(&s, &k, 1, &rd, why, sizeof why);
                if (got < 0)
                    _exit(2);                 /* a whole entry or none, never a bad one */
                if (got > 0) {
                    if (dh_store_read(&rd, data, sizeof data, why, sizeof why))
                        _exit(3);
                    if (dh_store_done(&rd, why, sizeof why))
                        _exit(4);
                }
            }
            _exit(0);
        }
    }
    for (int p = 0; p < WRITERS; p++) {
        int stt;
        waitpid(pid[p], &stt, 0);
        assert_true(WIFEXITED(stt));
        assert_int_equal(WEXITSTATUS(stt), 0);
    }
    dh_store_evict(&s, s.limit_bytes, NULL);    /* an eviction skipped while another ran */
    int bad = 0;
    struct dh_err e = {0};
    int n = dh_store_list(s.dir, 1, count_bad, &bad, &e);
    assert_true(n > 0);
    assert_int_equal(bad, 0);
    uint64_t total = 0;
    DIR *dir = opendir(s.dir);
    struct dirent *de;
    while ((de = readdir(dir))) {
        assert_null(strstr(de->d_name, ".tmp."));
        struct stat sb;
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", s.dir, de->d_name);
        if (strstr(de->d_name, ".dhw") && !stat(path, &sb))
            total += (uint64_t)sb.st_size;
    }
    closedir(dir);
    assert_true(total <= s.limit_bytes);
}

/* ---- keys of workloads and BBVs ---- */

static void mcase(struct dh_case *c, const struct dh_bench *b, const char *size, int seed,
                  int paths, int wg)
{
    memset(c, 0, sizeof *c);
    c->bench = b;
    snprintf(c->suite, sizeof c->suite, "%s", b->suite);
    snprintf(c->bench_name, sizeof c->bench_name, "%s", b->name);
    snprintf(c->variant, sizeof c->variant, "baseline");
    snprintf(c->backend, sizeof c->backend, "opencl");
    snprintf(c->size, sizeof c->size, "%s", size);
    char t[16];
    snprintf(t, sizeof t, "%d", seed);
    dh_pset_put(&c->params, "seed", t, seed, DH_P_WORKLOAD);
    snprintf(t, sizeof t, "%d", paths);
    dh_pset_put(&c->params, "paths", t, paths, DH_P_WORKLOAD);
    snprintf(t, sizeof t, "%d", wg);
    dh_pset_put(&c->params, "wg", t, wg, DH_P_TUNABLE);
}

static struct dh_store_key wkey(const struct dh_case *c)
{
    struct dh_store_key k;
    assert_int_equal(dh__wcache_workload_key(c, &k), 0);
    return k;
}

static void workload_keys(void **st)
{
    (void)st;
    /* every built-in benchmark has a code key (its folder's hash) */
    for (int i = 0; i < dh_bench_count(); i++) {
        const struct dh_bench *b = dh_bench_at(i);
        const char *h = dh_wcache_codehash(b->suite, b->name);
        if (!h || strlen(h) != 64)
            fail_msg("%s/%s: no code key", b->suite, b->name);
    }
    const struct dh_bench *b = dh_bench_find("micro", "branch");
    assert_non_null(b);
    struct dh_case c, d;
    mcase(&c, b, "small", 1, 2, 256);
    struct dh_store_key k0 = wkey(&c);
    mcase(&d, b, "small", 1, 2, 256);
    assert_memory_equal(k0.b, wkey(&d).b, 16);                /* same workload */
    snprintf(d.variant, sizeof d.variant, "cpu_tdr");
    mcase(&d, b, "small", 1, 2, 128);                         /* a tunable: no part */
    assert_memory_equal(k0.b, wkey(&d).b, 16);
    mcase(&d, b, "medium", 1, 2, 256);                        /* size */
    assert_memory_not_equal(k0.b, wkey(&d).b, 16);
    mcase(&d, b, "small", 2, 2, 256);                         /* seed */
    assert_memory_not_equal(k0.b, wkey(&d).b, 16);
    mcase(&d, b, "small", 1, 4, 256);                         /* a workload parameter */
    assert_memory_not_equal(k0.b, wkey(&d).b, 16);
    /* the code: the same declaration under another benchmark's code key */
    struct dh_bench other = *b;
    other.name = "pol";
    other.suite = "frontier";
    mcase(&d, &other, "small", 1, 2, 256);
    assert_memory_not_equal(k0.b, wkey(&d).b, 16);
    /* a benchmark with no code key is not cached */
    other.suite = "nowhere";
    mcase(&d, &other, "small", 1, 2, 256);
    struct dh_store_key k;
    assert_int_equal(dh__wcache_workload_key(&d, &k), -1);
    /* nor one with ops of its own */
    other = *b;
    other.setup = NULL;
    mcase(&d, &other, "small", 1, 2, 256);
    assert_int_equal(dh__wcache_workload_key(&d, &k), -1);
    /* a user's kernel: its descriptor + reference texts and its source */
    other = *b;
    other.fingerprint = "descriptor\x1f reference";
    mcase(&d, &other, "small", 1, 2, 256);
    struct dh_store_key u = wkey(&d);
    assert_memory_not_equal(k0.b, u.b, 16);
    other.fingerprint = "descriptor\x1f reference changed";
    mcase(&d, &other, "small", 1, 2, 256);
    assert_memory_not_equal(u.b, wkey(&d).b, 16);
    other.fingerprint = "descriptor\x1f reference";
    other.source = "another kernel";
    mcase(&d, &other, "small", 1, 2, 256);
    assert_memory_not_equal(u.b, wkey(&d).b, 16);
}

/* tools/codehash.sh: the code key moves with any change to a
 * benchmark's folder (an edit, a file added or removed) or to the shared
 * code, and with nothing else */
static void codehash_script(void **st)
{
    (void)st;
    char script[PATH_MAX + 64], cmd[3 * PATH_MAX], d[256], prev[128] = "", now[128];
    snprintf(script, sizeof script, "%s/../../tools/codehash.sh", harness_dir);
    if (access(script, R_OK)) {
        fprintf(stderr, "  (no %s: the tests run outside the source tree)\n", script);
        skip();
        return;
    }
    sub(d, sizeof d, "ch");
    static const char *const steps[][2] = {
        {"mkdir -p s/b && echo gen > s/b/b.c && echo k > s/b/b.k && echo lib > shared.h", "new"},
        {"true", "same"},
        {"echo more >> s/b/b.c", "moved"},
        {"echo x > s/b/extra.h", "moved"},
        {"rm s/b/extra.h", "moved"},
        {"echo lib2 > shared.h", "moved"},
        {"touch s/b/b.c", "same"},
    };
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        snprintf(cmd, sizeof cmd, "mkdir -p %s && cd %s && %s && bash %s out.c shared.h s/b "
                 "&& grep -o '[0-9a-f]\\{64\\}' out.c > hash.txt", d, d, steps[i][0], script);
        assert_int_equal(system(cmd), 0);
        char hp[300];
        snprintf(hp, sizeof hp, "%s/hash.txt", d);
        FILE *f = fopen(hp, "r");
        assert_non_null(f);
        assert_non_null(fgets(now, sizeof now, f));
        fclose(f);
        if (!strcmp(steps[i][1], "same"))
            assert_string_equal(prev, now);
        else if (!strcmp(steps[i][1], "moved"))
            assert_string_not_equal(prev, now);
        snprintf(prev, sizeof prev, "%s", now);
    }
}

static struct dh_backend_ops cuda_named;

static void bbv_keys(void **st)
{
    (void)st;
    struct dh_worker w;
    memset(&w, 0, sizeof w);
    w.be = dh_backend_find("opencl");
    snprintf(w.info.name, sizeof w.info.name, "dev A");
    snprintf(w.info.driver, sizeof w.info.driver, "1.0");
    struct dh_case c;
    mcase(&c, dh_bench_find("micro", "branch"), "small", 1, 2, 256);
    struct dh_store_key wl = key_of("workload"), wl2 = key_of("workload 2"), k0, k;
    dh__wcache_bbv_key(&w, &c, &wl, "src", "-D DH_WG=256", &k0);
    dh__wcache_bbv_key(&w, &c, &wl, "src", "-D DH_WG=256", &k);
    assert_memory_equal(k0.b, k.b, 16);
    dh__wcache_bbv_key(&w, &c, &wl2, "src", "-D DH_WG=256", &k);       /* the workload */
    assert_memory_not_equal(k0.b, k.b, 16);
    dh__wcache_bbv_key(&w, &c, &wl, "src2", "-D DH_WG=256", &k);       /* kernel source */
    assert_memory_not_equal(k0.b, k.b, 16);
    dh__wcache_bbv_key(&w, &c, &wl, "src", "-D DH_WG=128", &k);        /* work assignment */
    assert_memory_not_equal(k0.b, k.b, 16);
    snprintf(w.info.name, sizeof w.info.name, "dev B");                /* device */
    dh__wcache_bbv_key(&w, &c, &wl, "src", "-D DH_WG=256", &k);
    assert_memory_not_equal(k0.b, k.b, 16);
    snprintf(w.info.name, sizeof w.info.name, "dev A");
    snprintf(w.info.driver, sizeof w.info.driver, "1.1");              /* driver */
    dh__wcache_bbv_key(&w, &c, &wl, "src", "-D DH_WG=256", &k);
    assert_memory_not_equal(k0.b, k.b, 16);
    snprintf(w.info.driver, sizeof w.info.driver, "1.0");
    cuda_named = *w.be;
    cuda_named.name = "cuda";                                          /* backend */
    w.be = &cuda_named;
    dh__wcache_bbv_key(&w, &c, &wl, "src", "-D DH_WG=256", &k);
    assert_memory_not_equal(k0.b, k.b, 16);
    w.be = dh_backend_find("opencl");
    /* ordered BBVs: the windows (one window, or none: the key as before) */
    w.bbv_nwin = 1;
    dh__wcache_bbv_key(&w, &c, &wl, "src", "-D DH_WG=256", &k);
    assert_memory_equal(k0.b, k.b, 16);
    w.bbv_nwin = 28;
    dh__wcache_bbv_key(&w, &c, &wl, "src", "-D DH_WG=256", &k);
    assert_memory_not_equal(k0.b, k.b, 16);
    struct dh_store_key k28 = k;
    w.bbv_nwin = 110;
    dh__wcache_bbv_key(&w, &c, &wl, "src", "-D DH_WG=256", &k);
    assert_memory_not_equal(k28.b, k.b, 16);
}

/* the last item's index in a listed BBV payload: past the vectors */
static void bad_index(char *p, size_t n)
{
    uint32_t big = 1000;
    memcpy(p + n - 4, &big, 4);
}

/* ---- the kit's host data ---- */

enum { TA, TY };
static const struct dh_kbuf tbufs[] = {
    {"a", DH_T_I32, DH_IN, "items", DH_KB_ITEM},
    {"y", DH_T_F32, DH_OUT, "items", DH_KB_ITEM},
};
static const struct dh_kentry tentries[] = {{"baseline", "k", "a y"}, {0}};
static int gen_calls;

static int tgen(struct dh_khost *h, struct dh_err *e)
{
    (void)e;
    gen_calls++;
    int *a = h->data[TA];
    unsigned s = (unsigned)dh_pset_num(&h->vars, "seed", 1);
    for (long i = 0; i < h->items; i++)
        a[i] = (int)((s = s * 1103515245u + 12345u) >> 16);
    return 0;
}

static int tref(struct dh_khost *h, struct dh_err *e)
{
    (void)e;
    const int *a = h->data[TA];
    float *y = h->want[TY];
    for (long i = 0; i < h->items; i++)
        y[i] = (float)a[i] * 0.5f;
    return 0;
}

static int tgen_priv(struct dh_khost *h, struct dh_err *e)
{
    h->priv = malloc(8);
    return tgen(h, e);
}

/* priv from the vars alone: the seed */
static int trestore(struct dh_khost *h, struct dh_err *e)
{
    (void)e;
    long *p = malloc(sizeof *p);
    *p = (long)dh_pset_num(&h->vars, "seed", 1);
    h->priv = p;
    return 0;
}

static int tgen_restorable(struct dh_khost *h, struct dh_err *e)
{
    trestore(h, e);
    return tgen(h, e);
}

static const struct dh_param_def tparams[] = {DH_KIT_WG, DH_KIT_SEED, {0}};
static const struct dh_kit tkit = {
    .sizes = {"n=4096", "n=8192", "n=16384"}, .items = "n", .noun = "items",
    DH_KIT_TABLES(tbufs, tentries), .generate = tgen, .reference = tref,
};
static const struct dh_kit tkit_priv = {
    .sizes = {"n=4096", "n=8192", "n=16384"}, .items = "n", .noun = "items",
    DH_KIT_TABLES(tbufs, tentries), .generate = tgen_priv, .reference = tref, .free_priv = free,
};
static const struct dh_kit tkit_restore = {
    .sizes = {"n=4096", "n=8192", "n=16384"}, .items = "n", .noun = "items",
    DH_KIT_TABLES(tbufs, tentries), .generate = tgen_restorable, .reference = tref,
    .free_priv = free, .restore = trestore,
};
static const struct dh_bench tbench_restore = {
    .suite = "user", .name = "tkr", .summary = "t", .source = "kernel text", .params = tparams,
    .variants = "baseline", .fingerprint = "test descriptor restore", DH_KIT(tkit_restore),
};
static const struct dh_bench tbench = {
    .suite = "user", .name = "tk", .summary = "t", .source = "kernel text", .params = tparams,
    .variants = "baseline", .fingerprint = "test descriptor", DH_KIT(tkit),
};
static const struct dh_bench tbench_priv = {
    .suite = "user", .name = "tkp", .summary = "t", .source = "kernel text", .params = tparams,
    .variants = "baseline", .fingerprint = "test descriptor priv", DH_KIT(tkit_priv),
};

static void tcase(struct dh_case *c, const struct dh_bench *b, int seed)
{
    memset(c, 0, sizeof *c);
    c->bench = b;
    snprintf(c->suite, sizeof c->suite, "%s", b->suite);
    snprintf(c->bench_name, sizeof c->bench_name, "%s", b->name);
    snprintf(c->variant, sizeof c->variant, "baseline");
    snprintf(c->size, sizeof c->size, "small");
    char t[16];
    snprintf(t, sizeof t, "%d", seed);
    dh_pset_put(&c->params, "seed", t, seed, DH_P_WORKLOAD);
    dh_pset_put(&c->params, "wg", "64", 64, DH_P_TUNABLE);
}

static void worker_with(struct dh_worker *w, struct dh_wcache *wc, const char *name)
{
    memset(w, 0, sizeof *w);
    char d[256];
    sub(d, sizeof d, name);
    struct dh_err e = {0};
    assert_int_equal(dh_wcache_open(wc, d, 0, &e), 0);
    wc->quiet = 1;
    w->wcache = wc;
}

static void host_data(void **st)
{
    (void)st;
    struct dh_worker w;
    struct dh_wcache wc;
    worker_with(&w, &wc, "host");
    struct dh_case c;
    tcase(&c, &tbench, 7);
    struct dh_store_key k = wkey(&c);
    void *made = NULL, *loaded = NULL;
    struct dh_err e = {0};
    assert_int_equal(dh__wcache_host_load(&w, &c, &k, &loaded), 0);        /* miss */
    assert_int_equal(dh_kit_setup(&c, &made, &e), 0);
    dh__wcache_host_save(&w, &c, &k, made);
    gen_calls = 0;
    assert_int_equal(dh__wcache_host_load(&w, &c, &k, &loaded), 1);        /* hit */
    assert_int_equal(gen_calls, 0);                                         /* not made */
    struct dh_kpart pm[DH_KIT_MAXPARTS], pl[DH_KIT_MAXPARTS];
    int nm, nl;
    assert_int_equal(dh_kit_host_parts(made, pm, &nm), 0);
    assert_int_equal(dh_kit_host_parts(loaded, pl, &nl), 0);
    assert_int_equal(nm, 3);                    /* input, expected output, derived names */
    assert_int_equal(nl, nm);
    for (int i = 0; i < nm; i++) {
        assert_int_equal(pm[i].bytes, pl[i].bytes);
        assert_memory_equal(pm[i].p, pl[i].p, pm[i].bytes);
    }
    assert_int_equal(dh_kit_items(loaded), 4096);
    dh_kit_release(loaded);
    /* a corrupt entry: not used, removed, and the next save makes it anew */
    char path[4300];
    entry_file(&wc.store, &k, path, sizeof path);
    FILE *f = fopen(path, "r+b");
    fseek(f, -3, SEEK_END);
    fputc(0x5a, f);
    fclose(f);
    loaded = NULL;
    assert_int_equal(dh__wcache_host_load(&w, &c, &k, &loaded), 0);
    assert_null(loaded);
    assert_false(exists(path));
    /* an entry of the right length but another workload's shape (a stale
     * layout) is refused before use */
    struct dh_case big = c;
    snprintf(big.size, sizeof big.size, "medium");
    void *bstate = NULL;
    assert_int_equal(dh_kit_setup(&big, &bstate, &e), 0);
    dh__wcache_host_save(&w, &big, &k, bstate);              /* medium data under small's key */
    assert_int_equal(dh__wcache_host_load(&w, &c, &k, &loaded), 0);
    assert_false(exists(path));
    dh_kit_release(bstate);
    dh_kit_release(made);
    /* host data with a benchmark's own priv part are not stored */
    tcase(&c, &tbench_priv, 7);
    k = wkey(&c);
    assert_int_equal(dh_kit_setup(&c, &made, &e), 0);
    dh__wcache_host_save(&w, &c, &k, made);
    entry_file(&wc.store, &k, path, sizeof path);
    assert_false(exists(path));
    dh_kit_release(made);
    /* unless the benchmark restores priv from the vars: then they are,
     * and a load restores it */
    tcase(&c, &tbench_restore, 9);
    k = wkey(&c);
    assert_int_equal(dh_kit_setup(&c, &made, &e), 0);
    dh__wcache_host_save(&w, &c, &k, made);
    entry_file(&wc.store, &k, path, sizeof path);
    assert_true(exists(path));
    gen_calls = 0;
    assert_int_equal(dh__wcache_host_load(&w, &c, &k, &loaded), 1);
    assert_int_equal(gen_calls, 0);
    assert_non_null(((struct dh_khost *)loaded)->priv);
    assert_int_equal(*(long *)((struct dh_khost *)loaded)->priv, 9);
    dh_kit_release(loaded);
    dh_kit_release(made);
    /* host data larger than the limit: not stored, said once */
    wc.store.limit_bytes = 1000;
    tcase(&c, &tbench, 11);
    k = wkey(&c);
    assert_int_equal(dh_kit_setup(&c, &made, &e), 0);
    dh__wcache_host_save(&w, &c, &k, made);
    entry_file(&wc.store, &k, path, sizeof path);
    assert_false(exists(path));
    assert_int_equal(wc.told_large, 1);
    dh_kit_release(made);
}

/* BBVs stored and read back: as the distinct vectors and an index when
 * there are few (micro's 2 to 8 among millions), as they are when most
 * differ; an index naming a vector that is not there is refused */
/* Names a generator derives from its data (histo's rlo and nr: the
 * range of bins its prescan found, which its kernel's arguments name)
 * come back with the buffers: a workload read from the cache runs as one
 * made afresh (it failed "argument rlo: neither a buffer nor an
 * expression" when a night read histo's workload from the cache). */
static void host_data_derived_names(void **st)
{
    (void)st;
    struct dh_worker w;
    struct dh_wcache wc;
    worker_with(&w, &wc, "derived");
    const struct dh_bench *hb = dh_bench_find("parboil", "histo");
    assert_non_null(hb);
    struct dh_case c;
    tcase(&c, hb, 3);
    dh_pset_put(&c.params, "wg", "256", 256, DH_P_TUNABLE);
    struct dh_store_key k = wkey(&c);
    void *made = NULL, *loaded = NULL;
    struct dh_err e = {0};
    assert_int_equal(dh_kit_setup(&c, &made, &e), 0);
    const struct dh_khost *hm = made;
    assert_non_null(dh_pset_find(&hm->vars, "rlo"));
    assert_non_null(dh_pset_find(&hm->vars, "nr"));
    dh__wcache_host_save(&w, &c, &k, made);
    assert_int_equal(dh__wcache_host_load(&w, &c, &k, &loaded), 1);
    const struct dh_khost *hl = loaded;
    assert_non_null(dh_pset_find(&hl->vars, "rlo"));
    assert_non_null(dh_pset_find(&hl->vars, "nr"));
    assert_true(dh_pset_num(&hl->vars, "rlo", -1) == dh_pset_num(&hm->vars, "rlo", -2));
    assert_true(dh_pset_num(&hl->vars, "nr", -1) == dh_pset_num(&hm->vars, "nr", -2));
    assert_int_equal(hl->vars.n, hm->vars.n);
    dh_kit_release(loaded);
    dh_kit_release(made);
}

static void bbv_entries(void **st)
{
    (void)st;
    struct dh_worker w;
    struct dh_wcache wc;
    worker_with(&w, &wc, "bbv");
    w.be = dh_backend_find("opencl");
    snprintf(w.info.name, sizeof w.info.name, "dev");
    struct dh_case c;
    tcase(&c, &tbench, 1);
    enum { ITEMS = 10000, NB = 5 };
    uint32_t *v = malloc(ITEMS * NB * 4), *got = NULL;
    for (int shape = 0; shape < 2; shape++) {
        for (long i = 0; i < ITEMS; i++)
            for (int b = 0; b < NB; b++)
                v[i * NB + b] = shape ? (uint32_t)(i * 7 + b) : (uint32_t)((i % 3) * 10 + b);
        struct dh_store_key k = key_of(shape ? "unique" : "classes");
        dh__wcache_bbv_save(&w, &c, &k, ITEMS, NB, 1, v, 12.5);
        char path[4300];
        entry_file(&wc.store, &k, path, sizeof path);
        struct stat sb;
        assert_int_equal(stat(path, &sb), 0);
        if (shape)
            assert_true(sb.st_size > ITEMS * NB * 4);           /* as they are */
        else
            assert_true(sb.st_size < ITEMS * 4 + 1000);         /* 3 vectors + the index */
        double ms = 0;
        assert_int_equal(dh__wcache_bbv_load(&w, &c, &k, ITEMS, NB, 1, &got, &ms), 1);
        assert_memory_equal(got, v, ITEMS * NB * 4);
        assert_true(ms == 12.5);
        free(got);
        /* another workload's shape: refused */
        assert_int_equal(dh__wcache_bbv_load(&w, &c, &k, ITEMS, NB + 1, 1, &got, &ms), 0);
        assert_null(got);
        assert_false(exists(path));
    }
    /* an index past the distinct vectors, checksum valid: refused */
    for (long i = 0; i < ITEMS; i++)
        for (int b = 0; b < NB; b++)
            v[i * NB + b] = (uint32_t)((i % 3) * 10 + b);
    struct dh_store_key k = key_of("bad index");
    dh__wcache_bbv_save(&w, &c, &k, ITEMS, NB, 1, v, 1);
    char hex[33], name[64];
    dh_store_key_hex(&k, hex);
    snprintf(name, sizeof name, "%s.dhw", hex);
    replant(wc.store.dir, name, bad_index);
    double ms;
    assert_int_equal(dh__wcache_bbv_load(&w, &c, &k, ITEMS, NB, 1, &got, &ms), 0);
    assert_null(got);
    free(v);
}

/* Ordered BBVs: items x windows x blocks stored (as distinct rows when
 * few, as they are when most differ) and read back whole; read as
 * another number of windows (a key collision, or a file from another
 * build), refused and removed */
static void bbv_windowed_entries(void **st)
{
    (void)st;
    struct dh_worker w;
    struct dh_wcache wc;
    worker_with(&w, &wc, "bbvwin");
    w.be = dh_backend_find("opencl");
    snprintf(w.info.name, sizeof w.info.name, "dev");
    struct dh_case c;
    tcase(&c, &tbench, 1);
    enum { ITEMS = 6000, NB = 3, NW = 4 };
    uint32_t *v = malloc(ITEMS * NW * NB * 4), *got = NULL;
    for (int shape = 0; shape < 2; shape++) {
        for (long i = 0; i < ITEMS; i++)
            for (int q = 0; q < NW; q++)
                for (int b = 0; b < NB; b++)
                    v[(i * NW + q) * NB + b] = shape ? (uint32_t)(i * 5 + q * 3 + b)
                                                     : (uint32_t)((i % 4) * 10 + q + b);
        struct dh_store_key k = key_of(shape ? "win unique" : "win classes");
        dh__wcache_bbv_save(&w, &c, &k, ITEMS, NB, NW, v, 7.25);
        char path[4300];
        entry_file(&wc.store, &k, path, sizeof path);
        struct stat sb;
        assert_int_equal(stat(path, &sb), 0);
        if (shape)
            assert_true(sb.st_size > ITEMS * NW * NB * 4);
        else
            assert_true(sb.st_size < ITEMS * 4 + 1000);
        double ms = 0;
        assert_int_equal(dh__wcache_bbv_load(&w, &c, &k, ITEMS, NB, NW, &got, &ms), 1);
        assert_memory_equal(got, v, ITEMS * NW * NB * 4);
        assert_true(ms == 7.25);
        free(got);
        /* the totals' shape, or other windows: refused, the entry gone */
        assert_int_equal(dh__wcache_bbv_load(&w, &c, &k, ITEMS, NB, 1, &got, &ms), 0);
        assert_null(got);
        assert_false(exists(path));
        dh__wcache_bbv_save(&w, &c, &k, ITEMS, NB, NW, v, 7.25);
        assert_int_equal(dh__wcache_bbv_load(&w, &c, &k, ITEMS, NB * 2, NW / 2, &got, &ms), 0);
        assert_null(got);
        assert_false(exists(path));
    }
    free(v);
}

/* a write that fails (no space: the file-size limit set to a few bytes,
 * so that write() fails as on a full disk; a folder gone) is warned about
 * once and stores nothing; nothing is left behind. (A link at the
 * temporary's name, to /dev/full, was the way before: such a link is
 * removed now, never followed; test_hostile.) */
/* a link planted at an entry's temporary name (.tmp.KEY.PID) never takes
 * the write: the file it points to stays as it was, the entry is stored */
static void tmp_link_not_followed(void **st)
{
    (void)st;
    struct dh_worker w;
    struct dh_wcache wc;
    worker_with(&w, &wc, "link");
    struct dh_case c;
    tcase(&c, &tbench, 3);
    struct dh_store_key k = wkey(&c);
    char hex[33], tmp[4300], path[4300], victim[4300];
    dh_store_key_hex(&k, hex);
    snprintf(victim, sizeof victim, "%s/../victim-%ld", wc.store.dir, (long)getpid());
    FILE *f = fopen(victim, "w");
    assert_non_null(f);
    fputs("victim\n", f);
    fclose(f);
    snprintf(tmp, sizeof tmp, "%s/.tmp.%s.%ld", wc.store.dir, hex, (long)getpid());
    assert_int_equal(symlink(victim, tmp), 0);
    void *made = NULL;
    struct dh_err e = {0};
    assert_int_equal(dh_kit_setup(&c, &made, &e), 0);
    dh__wcache_host_save(&w, &c, &k, made);
    size_t len;
    char *v = dh_test_slurp(victim, &len);
    assert_non_null(v);
    assert_string_equal(v, "victim\n");
    free(v);
    entry_file(&wc.store, &k, path, sizeof path);
    assert_true(exists(path));
    unlink(victim);
    dh_kit_release(made);
}

static void write_fails(void **st)
{
    (void)st;
    struct dh_worker w;
    struct dh_wcache wc;
    worker_with(&w, &wc, "full");
    struct dh_case c;
    tcase(&c, &tbench, 3);
    struct dh_store_key k = wkey(&c);
    char hex[33], tmp[4300], path[4300];
    dh_store_key_hex(&k, hex);
    snprintf(tmp, sizeof tmp, "%s/.tmp.%s.%ld", wc.store.dir, hex, (long)getpid());
    void *made = NULL;
    struct dh_err e = {0};
    assert_int_equal(dh_kit_setup(&c, &made, &e), 0);
    struct rlimit was, small;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &was), 0);
    small = was;
    small.rlim_cur = 64;
    void (*old_xfsz)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    dh__wcache_host_save(&w, &c, &k, made);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &was), 0);
    signal(SIGXFSZ, old_xfsz);
    assert_int_equal(wc.warned, 1);
    entry_file(&wc.store, &k, path, sizeof path);
    assert_false(exists(path));
    struct stat sb;
    assert_true(lstat(tmp, &sb) != 0);                    /* the temporary is gone */
    /* the folder replaced by a file: every write fails */
    char d[4200];
    snprintf(d, sizeof d, "%s", wc.store.dir);
    assert_int_equal(rmdir(d), 0);
    FILE *f = fopen(d, "w");
    fclose(f);
    wc.warned = 0;
    dh__wcache_host_save(&w, &c, &k, made);
    assert_int_equal(wc.warned, 1);
    void *loaded = NULL;
    assert_int_equal(dh__wcache_host_load(&w, &c, &k, &loaded), 0);
    dh_kit_release(made);
    unlink(d);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(hit_and_miss),
        cmocka_unit_test(keys_unambiguous),
        cmocka_unit_test(bad_entries),
        cmocka_unit_test(evicts_lru),
        cmocka_unit_test(concurrent_writers),
        cmocka_unit_test(workload_keys),
        cmocka_unit_test(codehash_script),
        cmocka_unit_test(bbv_keys),
        cmocka_unit_test(host_data),
        cmocka_unit_test(host_data_derived_names),
        cmocka_unit_test(bbv_entries),
        cmocka_unit_test(bbv_windowed_entries),
        cmocka_unit_test(write_fails),
        cmocka_unit_test(tmp_link_not_followed),
    };
    return cmocka_run_group_tests_name("wcache", t, setup, teardown);
}
