/* test_hostwork.c — cpu_tdr's host work on arrays (suites/lib/hostwork.h)
 * against plain serial loops: the stable counting sort, the gathers and
 * put-backs, at several sizes (none, one item, chunk edges, many chunks),
 * key sets (one key, more keys than items, keys in runs, out of range) and
 * thread counts. */
#include <omp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../suites/lib/hostwork.h"

static const int widths[] = {1, 2, 3, 4, 7};
#define N_WIDTHS (int)(sizeof widths / sizeof widths[0])

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* the stable order by key, another way: qsort by (key, item) */
static const int *g_key;
static int by_key_item(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    if (g_key[x] != g_key[y])
        return g_key[x] < g_key[y] ? -1 : 1;
    return x < y ? -1 : x > y;
}

static void ref_sort(const int *key, long n, int *perm)
{
    for (long i = 0; i < n; i++)
        perm[i] = (int)i;
    g_key = key;
    qsort(perm, (size_t)n, sizeof *perm, by_key_item);
}

enum { UNIFORM, ONE_KEY, RUNS, DESCENDING };

static void fill_keys(int *key, long n, int nk, int shape, uint64_t seed)
{
    for (long i = 0; i < n; i++)
        key[i] = shape == ONE_KEY ? nk - 1
               : shape == RUNS ? (int)((i / 64) % nk)
               : shape == DESCENDING ? (int)((n - 1 - i) * nk / (n ? n : 1))
               : (int)(mix(&seed) % (uint64_t)nk);
}

static void check_sort(long n, int nk, int shape)
{
    int *key = malloc((size_t)(n ? n : 1) * sizeof *key);
    int *want = malloc((size_t)(n ? n : 1) * sizeof *want);
    int *got = malloc((size_t)(n ? n : 1) * sizeof *got);
    int *inv = malloc((size_t)(n ? n : 1) * sizeof *inv);
    assert_non_null(inv);
    assert_non_null(key);
    assert_non_null(want);
    assert_non_null(got);
    fill_keys(key, n, nk, shape, (uint64_t)n * 31 + (uint64_t)nk);
    ref_sort(key, n, want);
    int width = omp_get_max_threads();
    for (int w = 0; w < N_WIDTHS; w++) {
        omp_set_num_threads(widths[w]);
        memset(got, 0xff, (size_t)(n ? n : 1) * sizeof *got);
        long bad = -7;
        assert_int_equal(dh_hw_count_sort(key, n, nk, got, NULL, &bad), 0);
        assert_int_equal(bad, -7);                  /* untouched on success */
        if (n)
            assert_memory_equal(got, want, (size_t)n * sizeof *got);
        /* with the inverse: the same perm, and inv[perm[j]] == j */
        memset(got, 0xff, (size_t)(n ? n : 1) * sizeof *got);
        memset(inv, 0xff, (size_t)(n ? n : 1) * sizeof *inv);
        assert_int_equal(dh_hw_count_sort(key, n, nk, got, inv, NULL), 0);
        if (n)
            assert_memory_equal(got, want, (size_t)n * sizeof *got);
        for (long j = 0; j < n; j++)
            assert_int_equal(inv[want[j]], j);
    }
    omp_set_num_threads(width);
    free(key);
    free(want);
    free(got);
    free(inv);
}

static void sort_sizes(void **st)
{
    (void)st;
    const long sizes[] = {0, 1, 2, 100, DH_HW_CHUNK - 1, DH_HW_CHUNK, DH_HW_CHUNK + 1,
                          5 * DH_HW_CHUNK + 3, 300001};
    const int keys[] = {1, 3, 4, 64};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
            check_sort(sizes[s], keys[k], UNIFORM);
}

static void sort_shapes(void **st)
{
    (void)st;
    for (int shape = ONE_KEY; shape <= DESCENDING; shape++) {
        check_sort(1, 4, shape);
        check_sort(70001, 4, shape);
        check_sort(300001, 9, shape);
    }
}

/* more keys than items, and so many keys that the per-chunk counts are
 * capped and their prefix runs over keys in parallel */
static void sort_many_keys(void **st)
{
    (void)st;
    check_sort(1, 5, UNIFORM);
    check_sort(1000, 1005, UNIFORM);
    check_sort(1000, 100000, UNIFORM);
    check_sort(300001, 50000, UNIFORM);
    check_sort(300001, 50000, DESCENDING);
}

/* a key outside 0 .. nk-1 is refused with the first such item, at any
 * width; no keys at all is refused */
static void sort_bad_keys(void **st)
{
    (void)st;
    const long n = 200000;
    int *key = malloc((size_t)n * sizeof *key), *perm = malloc((size_t)n * sizeof *perm);
    assert_non_null(key);
    assert_non_null(perm);
    fill_keys(key, n, 4, UNIFORM, 5);
    key[150000] = 4;
    key[190000] = -1;
    int width = omp_get_max_threads();
    for (int w = 0; w < N_WIDTHS; w++) {
        omp_set_num_threads(widths[w]);
        long bad = -1;
        assert_int_equal(dh_hw_count_sort(key, n, 4, perm, NULL, &bad), -1);
        assert_int_equal(bad, 150000);
        key[150000] = 0;
        assert_int_equal(dh_hw_count_sort(key, n, 4, perm, NULL, &bad), -1);
        assert_int_equal(bad, 190000);
        assert_int_equal(dh_hw_count_sort(key, n, 4, perm, NULL, NULL), -1);
        key[150000] = 4;
    }
    omp_set_num_threads(width);
    assert_int_equal(dh_hw_count_sort(key, 1, 0, perm, NULL, NULL), -1);
    assert_int_equal(dh_hw_count_sort(key, 0, 0, perm, NULL, NULL), 0);   /* nothing to sort */
    free(key);
    free(perm);
}

/* a permutation of n: a random one, or the identity */
static int *make_perm(long n, int shuffle)
{
    int *p = malloc((size_t)(n ? n : 1) * sizeof *p);
    assert_non_null(p);
    for (long i = 0; i < n; i++)
        p[i] = (int)i;
    uint64_t s = 99;
    for (long i = n - 1; shuffle && i > 0; i--) {
        long j = (long)(mix(&s) % (uint64_t)(i + 1));
        int t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
    return p;
}

/* 4-byte columns, any count: gathered through perm, or scattered through
 * its inverse, the same */
static void gathers(void **st)
{
    (void)st;
    const long sizes[] = {0, 1, 3, DH_HW_CHUNK + 1, 100003};
    int width = omp_get_max_threads();
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        long n = sizes[s];
        int *perm = make_perm(n, 1), *inv = malloc((size_t)(n ? n : 1) * sizeof *inv);
        assert_non_null(inv);
        for (long j = 0; j < n; j++)
            inv[perm[j]] = (int)j;
        enum { M = 20 };                            /* more than one group of 8 */
        uint32_t *src[M], *dst[M], *want[M];
        for (int c = 0; c < M; c++) {
            src[c] = malloc((size_t)(n ? n : 1) * 4);
            dst[c] = malloc((size_t)(n ? n : 1) * 4);
            want[c] = malloc((size_t)(n ? n : 1) * 4);
            for (long i = 0; i < n; i++) {
                src[c][i] = (uint32_t)(i * 7 + c * 1000003);
                want[c][i] = (uint32_t)((long)perm[i] * 7 + c * 1000003);
            }
        }
        for (int w = 0; w < N_WIDTHS; w++) {
            omp_set_num_threads(widths[w]);
            for (int m = 1; m <= M; m++) {          /* 1, 2, 3 and their mixes */
                for (int c = 0; c < M; c++)
                    memset(dst[c], 0xee, (size_t)(n ? n : 1) * 4);
                dh_hw_move32((const uint32_t *const *)src, dst, m, perm, n, 0);
                for (int c = 0; c < M; c++)
                    for (long i = 0; i < n; i++)
                        assert_int_equal(dst[c][i], c < m ? want[c][i] : 0xeeeeeeeeu);
                /* the scatter through the inverse gives the same */
                for (int c = 0; c < M; c++)
                    memset(dst[c], 0xee, (size_t)(n ? n : 1) * 4);
                dh_hw_move32((const uint32_t *const *)src, dst, m, inv, n, 1);
                for (int c = 0; c < M; c++)
                    for (long i = 0; i < n; i++)
                        assert_int_equal(dst[c][i], c < m ? want[c][i] : 0xeeeeeeeeu);
            }
        }
        for (int c = 0; c < M; c++) {
            free(src[c]);
            free(dst[c]);
            free(want[c]);
        }
        free(perm);
        free(inv);
    }
    omp_set_num_threads(width);
}

/* every element size, one and several columns: the gather is
 * dst[j] = src[perm[j]] in each column, the put-back undoes it */
static void moves(void **st)
{
    (void)st;
    const size_t sizes_es[] = {1, 2, 4, 8, 12};
    const long ns[] = {0, 1, DH_HW_CHUNK - 1, 70001};
    int width = omp_get_max_threads();
    for (size_t a = 0; a < sizeof ns / sizeof *ns; a++)
        for (size_t e = 0; e < sizeof sizes_es / sizeof *sizes_es; e++)
            for (long cols = 1; cols <= 3; cols += 2) {
                long n = ns[a];
                size_t es = sizes_es[e], bytes = (size_t)n * (size_t)cols * es + 1;
                int *perm = make_perm(n, 1);
                unsigned char *src = malloc(bytes), *mid = malloc(bytes), *back = malloc(bytes);
                assert_non_null(src);
                assert_non_null(mid);
                assert_non_null(back);
                for (size_t i = 0; i < bytes; i++)
                    src[i] = (unsigned char)(i * 131 + i / 251);
                for (int w = 0; w < N_WIDTHS; w++) {
                    omp_set_num_threads(widths[w]);
                    memset(mid, 0, bytes);
                    memset(back, 0, bytes);
                    dh_hw_move(src, mid, perm, n, cols, es, 0);
                    for (long k = 0; k < cols; k++)
                        for (long j = 0; j < n; j++)
                            assert_memory_equal(mid + ((size_t)k * n + j) * es,
                                                src + ((size_t)k * n + perm[j]) * es, es);
                    dh_hw_move(mid, back, perm, n, cols, es, 1);
                    assert_memory_equal(back, src, bytes - 1);
                }
                free(perm);
                free(src);
                free(mid);
                free(back);
            }
    omp_set_num_threads(width);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(sort_sizes),  cmocka_unit_test(sort_shapes),
        cmocka_unit_test(sort_many_keys), cmocka_unit_test(sort_bad_keys),
        cmocka_unit_test(gathers),     cmocka_unit_test(moves),
    };
    return cmocka_run_group_tests(t, NULL, NULL);
}
