/* test_wcache.c — the workload cache: the entry store (hit, miss, every
 * kind of bad entry rebuilt and never used, LRU eviction under a limit,
 * writes that fail), the keys (each ingredient changes them, nothing
 * else does), the kit's host data stored and loaded, `harness cache`
 * show/clear/verify, and runs: a warm cache gives the same verified
 * results as a cold one, the entries are really what a warm run uses,
 * corrupt entries are made anew, and a cache that cannot be written does
 * not fail the run. */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>

#include "testutil.h"
#include "../harness/run/plan.h"
#include "../harness/run/runner.h"
#include "../harness/run/wcache.h"
#include "../harness/run/worker_state.h"
#include "../suites/lib/kit.h"

static char harness[PATH_MAX], harness_dir[PATH_MAX], tmpdir[64], out[1 << 16];

static void sub(char *dst, size_t len, const char *name)
{
    snprintf(dst, len, "%s/%s", tmpdir, name);
}

static int run(const char *const *args)
{
    return dh_test_harness(harness, tmpdir, args, out, sizeof out);
}

/* a test that runs the binary is SKIPPED where the build has none (the
 * sanitizer build makes the tests only) */
#define need_harness()                                                                  \
    do {                                                                                \
        if (access(harness, X_OK)) {                                                    \
            fprintf(stderr, "  (no %s: this build has tests only)\n", harness);         \
            skip();                                                                     \
            return;                                                                     \
        }                                                                               \
    } while (0)

static struct dh_store_key key_of(const char *text)
{
    struct dh_keyb kb;
    struct dh_store_key k;
    assert_int_equal(dh_keyb_init(&kb), 0);
    dh_keyb_str(&kb, "t", text);
    dh_keyb_final(&kb, &k);
    return k;
}

static void entry_file(const struct dh_store *s, const struct dh_store_key *k, char *path,
                       size_t len)
{
    char hex[33];
    dh_store_key_hex(k, hex);
    snprintf(path, len, "%s/%s.dhw", s->dir, hex);
}

static void put(const struct dh_store *s, const struct dh_store_key *k, uint32_t kind,
                const char *label, const void *data, size_t n)
{
    struct dh_store_writer w;
    struct dh_err e = {0};
    char why[256];
    assert_int_equal(dh_store_begin(s, k, kind, label, n, &w, why, sizeof why, &e), 0);
    assert_int_equal(dh_store_write(&w, data, n, &e), 0);
    assert_int_equal(dh_store_commit(&w, &e), 0);
}

/* 1: read n bytes equal to want; 0: a miss; -1: bad (why) */
static int get(const struct dh_store *s, const struct dh_store_key *k, uint32_t kind,
               const void *want, size_t n, char *why, size_t why_len)
{
    struct dh_store_reader r;
    int rc = dh_store_get(s, k, kind, &r, why, why_len);
    if (rc <= 0)
        return rc;
    char *buf = malloc(n ? n : 1);
    assert_non_null(buf);
    if (dh_store_read(&r, buf, n, why, why_len)) {
        dh_store_abandon(&r);
        free(buf);
        return -1;
    }
    rc = dh_store_done(&r, why, why_len);
    if (!rc)
        assert_memory_equal(buf, want, n);
    free(buf);
    return rc ? -1 : 1;
}

static int exists(const char *path)
{
    return !access(path, F_OK);
}

static void store_in(struct dh_store *s, const char *name, uint64_t limit)
{
    char d[256];
    sub(d, sizeof d, name);
    struct dh_err e = {0};
    assert_int_equal(dh_store_open(s, d, limit, &e), 0);
}

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

static void replant(const char *dir, const char *name, void (*fn)(char *p, size_t n));
static void put(const struct dh_store *s, const struct dh_store_key *k, uint32_t kind,
                const char *label, const void *data, size_t n);

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
    struct dh_kpart pm[2 * DH_KIT_MAXBUF], pl[2 * DH_KIT_MAXBUF];
    int nm, nl;
    assert_int_equal(dh_kit_host_parts(made, pm, &nm), 0);
    assert_int_equal(dh_kit_host_parts(loaded, pl, &nl), 0);
    assert_int_equal(nm, 2);
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

/* a write that fails (no space: the temporary file is /dev/full; a folder
 * gone) is warned about once and stores nothing; nothing is left behind */
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
    assert_int_equal(symlink("/dev/full", tmp), 0);
    void *made = NULL;
    struct dh_err e = {0};
    assert_int_equal(dh_kit_setup(&c, &made, &e), 0);
    dh__wcache_host_save(&w, &c, &k, made);
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

/* ---- harness cache ---- */

static void cache_command(void **st)
{
    (void)st;
    need_harness();
    struct dh_store s;
    store_in(&s, "cmd", 0);
    struct dh_store_key a = key_of("a"), b = key_of("b");
    char data[3000] = {1};
    put(&s, &a, 1, "micro/branch small paths=2,seed=1 host", data, sizeof data);
    put(&s, &b, 2, "frontier/gdt medium seed=1 BBVs opencl dev wg=256", data, sizeof data);
    const char *show[] = {"cache", "--cache", s.dir, NULL};
    assert_int_equal(run(show), 0);
    assert_non_null(strstr(out, "micro/branch"));
    assert_non_null(strstr(out, "paths=2,seed=1"));
    assert_non_null(strstr(out, "frontier/gdt"));
    assert_non_null(strstr(out, "BBVs opencl dev wg=256"));
    assert_non_null(strstr(out, "2 entries"));
    assert_non_null(strstr(out, "limit"));
    const char *verify[] = {"cache", "verify", "--cache", s.dir, NULL};
    assert_int_equal(run(verify), 0);
    assert_non_null(strstr(out, "2 good, 0 bad"));
    /* a flipped payload byte: show reads headers only, verify finds it */
    char path[4300];
    entry_file(&s, &b, path, sizeof path);
    FILE *f = fopen(path, "r+b");
    fseek(f, -10, SEEK_END);
    fputc(0x77, f);
    fclose(f);
    assert_int_equal(run(verify), 3);
    assert_non_null(strstr(out, "payload checksum mismatch"));
    assert_non_null(strstr(out, "1 good, 1 bad (removed)"));
    assert_false(exists(path));
    const char *clear[] = {"cache", "clear", "--cache", s.dir, NULL};
    assert_int_equal(run(clear), 0);
    assert_non_null(strstr(out, "removed 1 entry"));
    assert_int_equal(run(show), 0);
    assert_non_null(strstr(out, "0 entries"));
    const char *bad[] = {"cache", "purge", NULL};
    assert_int_equal(run(bad), 64);
    assert_non_null(strstr(out, "choose show, clear or verify"));
    const char *badlim[] = {"cache", "--cache-limit", "8Q", NULL};
    assert_int_equal(run(badlim), 64);
    assert_non_null(strstr(out, "unknown unit"));
    uint64_t v;
    char why[256];
    assert_int_equal(dh_wcache_parse_limit("8G", &v, why, sizeof why), 0);
    assert_true(v == 8ULL << 30);
    assert_int_equal(dh_wcache_parse_limit("1.5MiB", &v, why, sizeof why), 0);
    assert_true(v == 3ULL << 19);
    assert_int_equal(dh_wcache_parse_limit("4096", &v, why, sizeof why), 0);
    assert_true(v == 4096);
    assert_int_equal(dh_wcache_parse_limit("-1G", &v, why, sizeof why), -1);
}

/* ---- runs ---- */

/* what a run's verified results are: per run its status, verification
 * and the model's figures; with acquire, the time the BBVs took too (a
 * cached BBV keeps the cost of the run that made it; BBVs made anew
 * take a new time) */
static void signature(const char *results, char *sig, size_t len, int acquire)
{
    FILE *f = fopen(results, "r");
    assert_non_null(f);
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    size_t o = 0;
    sig[0] = 0;
    static const char *const marks[] = {"<run ", "<verification ", "<model "};
    for (char *p = text; *p; p++)
        for (int m = 0; m < 3; m++)
            if (!strncmp(p, marks[m], strlen(marks[m]))) {
                char *end = strchr(p, '>');
                assert_non_null(end);
                /* the model's errors against the measured times are left
                 * out: timings differ from run to run */
                for (char *q = p; q < end && o < len - 2;) {
                    size_t w = strcspn(q, " >");
                    if (q + w > end)
                        w = (size_t)(end - q);
                    if (!memmem(q, w, "error", 5) && (acquire || !memmem(q, w, "acquire_ms", 10)))
                        o += (size_t)snprintf(sig + o, len - o, "%.*s ", (int)w, q);
                    q += w + (q[w] == ' ');
                    if (q[0] == '>' || (q[0] == '/' && q[1] == '>'))
                        break;
                }
                o += (size_t)snprintf(sig + o, len - o, "\n");
            }
    assert_true(o > 0 && o < len - 1);
}

static const char *run_args[] = {"run", "--suite", "micro", "--variant", "baseline,cpu_tdr",
                                 "--param", "paths=2", "--param", "layers=1", "--param", "iters=64", "--param", "mech=dlt", "--param",
                                 "regroup=key,sort", "--reps", "3", "--warmup", "1"};

static int micro_run(const char *cache, const char *outdir)
{
    const char *a[40];
    int n = 0;
    for (size_t i = 0; i < sizeof run_args / sizeof *run_args; i++)
        a[n++] = run_args[i];
    a[n++] = "--cache";
    a[n++] = cache;
    a[n++] = "--out";
    a[n++] = outdir;
    a[n] = NULL;
    return run(a);
}

struct found {
    char name[64][64];
    uint32_t kind[64];
    int n;
};

static void collect(void *ctx, const struct dh_store_info *in)
{
    struct found *f = ctx;
    if (f->n < 64) {
        snprintf(f->name[f->n], sizeof f->name[f->n], "%s", in->name);
        f->kind[f->n++] = in->kind;
    }
}

/* rewrite an entry with a valid checksum and changed contents:
 * fn(payload, bytes) changes it */
static void replant(const char *dir, const char *name, void (*fn)(char *p, size_t n))
{
    struct dh_store s;
    struct dh_err e = {0};
    assert_int_equal(dh_store_open(&s, dir, 0, &e), 0);
    struct dh_store_key k;
    for (int i = 0; i < 16; i++) {
        unsigned v;
        sscanf(name + 2 * i, "%2x", &v);
        k.b[i] = (unsigned char)v;
    }
    char path[4300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *all = malloc((size_t)size);
    assert_int_equal(fread(all, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    uint32_t kind;
    uint64_t ll, pl;
    memcpy(&kind, all + 12, 4);
    memcpy(&ll, all + 32, 8);
    memcpy(&pl, all + 40, 8);
    char label[5000];
    memcpy(label, all + DH_STORE_HEADER_BYTES, ll);
    label[ll] = 0;
    char *payload = all + DH_STORE_HEADER_BYTES + ll;
    fn(payload, pl);
    put(&s, &k, kind, label, payload, pl);
    free(all);
}

/* BBV payload: items, blocks, acquire_ms, distinct BBVs (0: none
 * listed), then the counts, or the distinct BBVs and each item's index:
 * double every count */
static void double_counts(char *p, size_t n)
{
    uint64_t head[4];
    memcpy(head, p, sizeof head);
    uint32_t *c = (uint32_t *)(p + 32);
    size_t m = head[3] ? head[3] * head[1] : (n - 32) / 4;
    for (size_t i = 0; i < m; i++)
        c[i] *= 2;
}

/* host payload: the part count and sizes, then a[] and the expected y[]:
 * change the last expected value */
static void wrong_reference(char *p, size_t n)
{
    p[n - 1] ^= 0x40;
}

static void warm_equals_cold(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    need_harness();
    char cache[256], o1[256], o2[256], o3[256], x[300];
    sub(cache, sizeof cache, "runcache");
    sub(o1, sizeof o1, "cold");
    sub(o2, sizeof o2, "warm");
    sub(o3, sizeof o3, "again");
    static char s1[1 << 16], s2[1 << 16];
    assert_int_equal(micro_run(cache, o1), 0);
    snprintf(x, sizeof x, "%s/results.xml", o1);
    signature(x, s1, sizeof s1, 1);
    struct found f = {0};
    struct dh_err e = {0};
    assert_int_equal(dh_store_list(cache, 1, collect, &f, &e), 2);    /* host + BBVs */
    assert_int_equal(micro_run(cache, o2), 0);
    assert_null(strstr(out, "bad entry"));
    snprintf(x, sizeof x, "%s/results.xml", o2);
    signature(x, s2, sizeof s2, 1);
    assert_string_equal(s1, s2);
    assert_non_null(strstr(s2, "status=\"pass\""));
    assert_null(strstr(s2, "status=\"fail\""));
    /* the warm run really used the entries: BBVs planted with doubled
     * counts (a valid entry) change the model's figures... */
    int ib = f.kind[0] == DH_WCACHE_BBV ? 0 : 1, ih = 1 - ib;
    replant(cache, f.name[ib], double_counts);
    assert_int_equal(micro_run(cache, o3), 0);
    snprintf(x, sizeof x, "%s/results.xml", o3);
    signature(x, s2, sizeof s2, 1);
    assert_string_not_equal(s1, s2);
    /* ...and a planted wrong reference is caught by verification (a cache
     * never turns a wrong result into a timing) */
    replant(cache, f.name[ih], wrong_reference);
    char o4[256];
    sub(o4, sizeof o4, "planted");
    assert_int_equal(micro_run(cache, o4), 1);
    /* every entry corrupt: noted, made anew, the cold run's results */
    const char *clear[] = {"cache", "clear", "--cache", cache, NULL};
    assert_int_equal(run(clear), 0);
    char o5[256];
    sub(o5, sizeof o5, "cold2");
    assert_int_equal(micro_run(cache, o5), 0);
    f.n = 0;
    assert_int_equal(dh_store_list(cache, 0, collect, &f, &e), 2);
    for (int i = 0; i < f.n; i++) {
        char path[4300];
        snprintf(path, sizeof path, "%s/%s", cache, f.name[i]);
        FILE *g = fopen(path, "r+b");
        fseek(g, -5, SEEK_END);
        fputc(0x33, g);
        fclose(g);
    }
    char o6[256];
    sub(o6, sizeof o6, "rebuilt");
    assert_int_equal(micro_run(cache, o6), 0);
    assert_non_null(strstr(out, "entry not used (payload checksum mismatch); made anew"));
    snprintf(x, sizeof x, "%s/results.xml", o6);
    signature(x, s2, sizeof s2, 0);
    snprintf(x, sizeof x, "%s/results.xml", o1);
    signature(x, s1, sizeof s1, 0);
    assert_string_equal(s1, s2);
    const char *verify[] = {"cache", "verify", "--cache", cache, NULL};
    assert_int_equal(run(verify), 0);
    assert_non_null(strstr(out, "2 good, 0 bad"));
}

/* frontier/cvp keeps a priv part that its restore makes anew: its host
 * data are cached, and a warm run (including cpu_tdr's key sort and
 * patch gather, which read priv) gives the cold run's results */
static void cvp_warm_equals_cold(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    need_harness();
    char cache[256], o1[256], o2[256], x[300];
    sub(cache, sizeof cache, "cvpcache");
    sub(o1, sizeof o1, "cvp-cold");
    sub(o2, sizeof o2, "cvp-warm");
    static char s1[1 << 16], s2[1 << 16];
    const char *a[] = {"run", "--suite", "frontier", "--bench", "cvp", "--variant",
                       "baseline,cpu_tdr", "--param", "regroup=key,sort", "--param", "mech=dlt",
                       "--reps", "3", "--warmup", "1", "--cache", cache, "--out", o1, NULL};
    assert_int_equal(run(a), 0);
    struct found f = {0};
    struct dh_err e = {0};
    assert_int_equal(dh_store_list(cache, 1, collect, &f, &e), 2);     /* host + BBVs */
    a[18] = o2;
    assert_int_equal(run(a), 0);
    snprintf(x, sizeof x, "%s/results.xml", o1);
    signature(x, s1, sizeof s1, 1);
    snprintf(x, sizeof x, "%s/results.xml", o2);
    signature(x, s2, sizeof s2, 1);
    assert_string_equal(s1, s2);
    assert_non_null(strstr(s2, "regroup=sort"));
    assert_null(strstr(s2, "status=\"fail\""));
}

/* a cache folder that cannot be made, or written: the run goes on */
static void unwritable_cache(void **st)
{
    (void)st;
    dh_test_need_device("opencl");
    need_harness();
    char file[256], cache[300], o[256];
    sub(file, sizeof file, "plainfile");
    FILE *f = fopen(file, "w");
    fclose(f);
    snprintf(cache, sizeof cache, "%s/cache", file);         /* under a file */
    sub(o, sizeof o, "nocache");
    assert_int_equal(micro_run(cache, o), 0);
    assert_non_null(strstr(out, "workload cache off"));
    /* in-process: the folder made, then gone; every write fails, warned */
    struct dh_wcache wc;
    char d[256];
    sub(d, sizeof d, "vanishing");
    struct dh_err e = {0};
    assert_int_equal(dh_wcache_open(&wc, d, 0, &e), 0);
    assert_int_equal(rmdir(d), 0);
    f = fopen(d, "w");
    fclose(f);
    struct dh_devlist devs;
    assert_int_equal(dh_devices_gather(&devs, 0, &e), 0);
    struct dh_selection sel = {.suite = "micro", .size = "small", .reps = 2, .warmup = 1,
                               .timeout_s = 120, .device = -1, .profile = 0,
                               .variants = "baseline", .model = 1};
    sel.params[sel.n_params++] = "paths=2";
    struct dh_run *runs;
    int n;
    assert_int_equal(dh_plan(&sel, &devs, &runs, &n, &e), 0);
    struct dh_runner_opts ro = {.isolate = 0, .wcache = &wc};
    assert_int_equal(dh_runner_execute(runs, n, &ro), 0);
    for (int i = 0; i < n; i++)
        assert_int_equal(runs[i].r.status, 0);
    assert_int_equal(wc.warned, 1);
    free(runs);
    unlink(d);
}

static int setup(void **st)
{
    (void)st;
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -1;
    self[n] = 0;
    *strrchr(self, '/') = 0;                                    /* BUILD/tests */
    snprintf(harness, sizeof harness, "%s/../harness", self);
    snprintf(harness_dir, sizeof harness_dir, "%s", self);
    snprintf(tmpdir, sizeof tmpdir, "/tmp/dh-test-wcache-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **st)
{
    (void)st;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
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
        cmocka_unit_test(bbv_entries),
        cmocka_unit_test(bbv_windowed_entries),
        cmocka_unit_test(write_fails),
        cmocka_unit_test(cache_command),
        cmocka_unit_test(warm_equals_cold),
        cmocka_unit_test(cvp_warm_equals_cold),
        cmocka_unit_test(unwritable_cache),
    };
    return cmocka_run_group_tests_name("wcache", t, setup, teardown);
}
