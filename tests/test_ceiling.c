/* test_ceiling.c — the remap ceiling against hand-worked cases. */
#include "testutil.h"
#include "../harness/model/ceiling.h"

static void design_example(void **st)
{
    (void)st;
    /* a 2-path split of 129/127 in a 256-wide group, alternating: every
     * warp mixed (cost 16); sorted: 7 uniform + 1 mixed (cost 9) */
    int k[256];
    for (int i = 0; i < 256; i++)
        k[i] = (i < 254) ? (i % 2) : 0;
    double co = 0, cs = 0;
    dh_ceiling_layer(k, 256, 256, 32, 2, &co, &cs);
    assert_true(co == 16);
    assert_true(cs == 9);
}

static void uniform_and_small_warps(void **st)
{
    (void)st;
    int k[64] = {0};
    double co = 0, cs = 0;
    dh_ceiling_layer(k, 64, 64, 32, 4, &co, &cs);
    assert_true(co == 2 && cs == 2);                    /* nothing to gain */
    for (int i = 0; i < 64; i++)
        k[i] = i % 4;                                    /* 16 of each */
    co = cs = 0;
    dh_ceiling_layer(k, 64, 64, 8, 4, &co, &cs);
    assert_true(co == 32);                               /* 8 warps x 4 paths */
    assert_true(cs == 8);                                /* boundaries on warps */
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(design_example), cmocka_unit_test(uniform_and_small_warps),
    };
    return cmocka_run_group_tests_name("ceiling", t, NULL, NULL);
}
