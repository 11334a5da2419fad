/* kitcase.h — a case of a declared benchmark for the kit's tests
 * (test_kit.c, test_descriptor.c): OpenCL at size small, three
 * repetitions after one warm-up, wg=64, a 120 s watchdog; mech (may be
 * NULL) adds cpu_tdr's mech and regroup=key. */
#ifndef DH_KITCASE_H
#define DH_KITCASE_H

#include "testutil.h"
#include "../suites/suite.h"

static inline void kcase(struct dh_case *c, const struct dh_bench *b, const char *variant,
                         const char *mech)
{
    memset(c, 0, sizeof *c);
    c->bench = b;
    snprintf(c->suite, sizeof c->suite, "%s", b->suite);
    snprintf(c->bench_name, sizeof c->bench_name, "%s", b->name);
    snprintf(c->variant, sizeof c->variant, "%s", variant);
    snprintf(c->backend, sizeof c->backend, "opencl");
    snprintf(c->size, sizeof c->size, "small");
    c->reps = 3;
    c->warmup = 1;
    c->timeout_s = 120;
    dh_pset_put(&c->params, "wg", "64", 64, DH_P_TUNABLE);
    if (mech) {
        dh_pset_put(&c->params, "mech", mech, 0, DH_P_CHOICE);
        dh_pset_put(&c->params, "regroup", "key", 0, DH_P_CHOICE);
    }
    dh_case_identity(c);
}

#endif
