/* test_kit_verify.c — a declared benchmark's output check
 * (suites/lib/kit_verify.c dh__kit_compare): its record (elements
 * checked, mismatches, largest error, the first mismatches in index
 * order) is the element-by-element loop's for every type, tolerance,
 * length and place of the differences, with its bulk path for equal runs
 * of integers. */
#include <math.h>

#include "testutil.h"
#include "../suites/lib/kit_int.h"

/* the element loop as it was: one element at a time */
static double at(enum dh_ktype t, const void *p, long i)
{
    switch (t) {
    case DH_T_U8: return ((const uint8_t *)p)[i];
    case DH_T_U16: return ((const uint16_t *)p)[i];
    case DH_T_I32: return ((const int32_t *)p)[i];
    case DH_T_U32: return ((const uint32_t *)p)[i];
    case DH_T_F32: return ((const float *)p)[i];
    case DH_T_I64: return (double)((const int64_t *)p)[i];
    case DH_T_F64: return ((const double *)p)[i];
    }
    return 0;
}

static void oracle(const struct dh_kbuf *d, const void *got, const void *want, long n, long base,
                   struct dh_verify *v)
{
    size_t es = dh_ktype_size(d->type);
    int fp = d->type == DH_T_F32 || d->type == DH_T_F64;
    for (long i = 0; i < n; i++) {
        double g = at(d->type, got, i), w = at(d->type, want, i);
        int bad = d->tol > 0 ? !(fabs(g - w) <= d->tol * fmax(1.0, fabs(w)))
                  : fp       ? !(g == w)
                             : !!memcmp((const char *)got + (size_t)i * es,
                                        (const char *)want + (size_t)i * es, es);
        dh_verify_add(v, base + i, g, w, bad);
    }
}

static void same_record(const struct dh_verify *a, const struct dh_verify *b)
{
    assert_int_equal(a->checked, b->checked);
    assert_int_equal(a->mismatches, b->mismatches);
    assert_true(a->max_abs_err == b->max_abs_err
                || (isnan(a->max_abs_err) && isnan(b->max_abs_err)));
    assert_int_equal(a->n_first, b->n_first);
    for (int i = 0; i < a->n_first; i++) {
        assert_int_equal(a->first[i].index, b->first[i].index);
        assert_memory_equal(&a->first[i].got, &b->first[i].got, sizeof(double));
        assert_memory_equal(&a->first[i].want, &b->first[i].want, sizeof(double));
    }
}

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* a reference of n random elements of type t and a copy with `flips`
 * elements changed at random places (or at `at_end`: the last ones) */
static void make_pair(enum dh_ktype t, long n, int flips, int at_end, uint64_t seed, void **want,
                      void **got)
{
    size_t es = dh_ktype_size(t);
    *want = malloc((size_t)n * es + 1);
    *got = malloc((size_t)n * es + 1);
    assert_non_null(*want);
    assert_non_null(*got);
    uint64_t s = seed;
    for (long i = 0; i < n; i++) {
        uint64_t r = next(&s);
        switch (t) {
        case DH_T_F32: ((float *)*want)[i] = (float)(r % 1000) / 7.0f; break;
        case DH_T_F64: ((double *)*want)[i] = (double)(r % 1000) / 7.0; break;
        default: memcpy((char *)*want + (size_t)i * es, &r, es);
        }
    }
    memcpy(*got, *want, (size_t)n * es);
    for (int f = 0; f < flips && n > 0; f++) {
        long i = at_end ? n - 1 - f % n : (long)(next(&s) % (uint64_t)n);
        char *p = (char *)*got + (size_t)i * es;
        p[0] ^= (char)(1 + f % 7);          /* a low byte: a small difference */
        if (f % 5 == 4)
            p[es - 1] ^= 0x40;              /* now and then a large one */
    }
}

static void check(enum dh_ktype t, double tol, long n, int flips, int at_end, uint64_t seed)
{
    struct dh_kbuf d = {"out", t, DH_OUT, "items"};
    d.tol = tol;
    void *want, *got;
    make_pair(t, n, flips, at_end, seed, &want, &got);
    struct dh_verify a = {0}, b = {0};
    a.checked = b.checked = 5;              /* an earlier buffer's count stays */
    dh__kit_compare(&d, got, want, n, 1000, &a);
    oracle(&d, got, want, n, 1000, &b);
    same_record(&a, &b);
    free(want);
    free(got);
}

static void every_type_and_length(void **state)
{
    (void)state;
    const enum dh_ktype types[] = {DH_T_U8, DH_T_U16, DH_T_I32, DH_T_U32, DH_T_I64, DH_T_F32,
                                   DH_T_F64};
    const long lens[] = {0, 1, 2, 65535, 65536, 65537, 200003};
    const int flips[] = {0, 1, 3, 9, 40};
    uint64_t seed = 12345;
    for (size_t t = 0; t < sizeof types / sizeof *types; t++)
        for (size_t l = 0; l < sizeof lens / sizeof *lens; l++)
            for (size_t f = 0; f < sizeof flips / sizeof *flips; f++)
                for (int end = 0; end < 2; end++) {
                    check(types[t], 0, lens[l], flips[f], end, seed++);
                    check(types[t], 1e-3, lens[l], flips[f], end, seed++);
                }
}

/* a float NaN that is bit for bit the reference's is still wrong, and
 * -0 against 0 is right: the fp path stays the element loop's */
static void fp_bits_are_not_values(void **state)
{
    (void)state;
    float want[4] = {1, -0.0f, NAN, 2}, got[4] = {1, 0.0f, NAN, 2};
    struct dh_kbuf d = {"out", DH_T_F32, DH_OUT, "items"};
    struct dh_verify v = {0};
    dh__kit_compare(&d, got, want, 4, 0, &v);
    assert_int_equal(v.checked, 4);
    assert_int_equal(v.mismatches, 1);
    assert_int_equal(v.first[0].index, 2);
}

/* an integer difference far into a long equal run is found, with its
 * index and values */
static void one_difference_in_a_long_run(void **state)
{
    (void)state;
    long n = 1L << 20;
    uint16_t *want = calloc((size_t)n, 2), *got = calloc((size_t)n, 2);
    assert_non_null(want);
    assert_non_null(got);
    got[777777] = 9;
    struct dh_kbuf d = {"out", DH_T_U16, DH_OUT, "items"};
    struct dh_verify v = {0};
    dh__kit_compare(&d, got, want, n, 0, &v);
    assert_int_equal(v.checked, n);
    assert_int_equal(v.mismatches, 1);
    assert_int_equal(v.first[0].index, 777777);
    assert_true(v.first[0].got == 9 && v.first[0].want == 0);
    assert_true(v.max_abs_err == 9);
    free(want);
    free(got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_type_and_length),
        cmocka_unit_test(fp_bits_are_not_values),
        cmocka_unit_test(one_difference_in_a_long_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
