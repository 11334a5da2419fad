/* testcase.h — a case of a registered benchmark, for the tests that check
 * the kit's rules or run one case: the benchmark found by name (asserted),
 * OpenCL at size small, one repetition, a 120 s watchdog; the caller adds
 * the parameters and then calls dh_case_identity. */
#ifndef DH_TESTCASE_H
#define DH_TESTCASE_H

#include "testutil.h"
#include "../suites/suite.h"

static inline void dh_test_case(struct dh_case *c, const char *suite, const char *bench,
                                const char *variant)
{
    memset(c, 0, sizeof *c);
    c->bench = dh_bench_find(suite, bench);
    assert_non_null(c->bench);
    snprintf(c->suite, sizeof c->suite, "%s", suite);
    snprintf(c->bench_name, sizeof c->bench_name, "%s", bench);
    snprintf(c->variant, sizeof c->variant, "%s", variant);
    snprintf(c->backend, sizeof c->backend, "opencl");
    snprintf(c->size, sizeof c->size, "small");
    c->reps = 1;
    c->timeout_s = 120;
}

#endif
