/* wcache_test.h — what test_wcache.c and test_wcache_runs.c share: a
 * scratch folder made by setup and removed by teardown, the harness
 * binary beside the tests, and the entry store's helpers (keys, writing,
 * reading and replanting entries). */
#ifndef DH_WCACHE_TEST_H
#define DH_WCACHE_TEST_H

#include <limits.h>

#include "testutil.h"
#include "../harness/run/wcache.h"

static char harness[PATH_MAX], harness_dir[PATH_MAX], tmpdir[64], out[1 << 16];

static inline void sub(char *dst, size_t len, const char *name)
{
    snprintf(dst, len, "%s/%s", tmpdir, name);
}

static inline int run(const char *const *args)
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

static inline struct dh_store_key key_of(const char *text)
{
    struct dh_keyb kb;
    struct dh_store_key k;
    assert_int_equal(dh_keyb_init(&kb), 0);
    dh_keyb_str(&kb, "t", text);
    dh_keyb_final(&kb, &k);
    return k;
}

static inline void entry_file(const struct dh_store *s, const struct dh_store_key *k, char *path,
                              size_t len)
{
    char hex[33];
    dh_store_key_hex(k, hex);
    snprintf(path, len, "%s/%s.dhw", s->dir, hex);
}

static inline void put(const struct dh_store *s, const struct dh_store_key *k, uint32_t kind,
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
static inline int get(const struct dh_store *s, const struct dh_store_key *k, uint32_t kind,
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

static inline int exists(const char *path)
{
    return !access(path, F_OK);
}

static inline void store_in(struct dh_store *s, const char *name, uint64_t limit)
{
    char d[256];
    sub(d, sizeof d, name);
    struct dh_err e = {0};
    assert_int_equal(dh_store_open(s, d, limit, &e), 0);
}

/* rewrite an entry with a valid checksum and changed contents:
 * fn(payload, bytes) changes it */
static inline void replant(const char *dir, const char *name, void (*fn)(char *p, size_t n))
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

static inline int setup(void **st)
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

static inline int teardown(void **st)
{
    (void)st;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

#endif
