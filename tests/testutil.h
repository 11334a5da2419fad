/* testutil.h — shared helpers for the cmocka tests.
 * Tests that need an OpenCL device call dh_test_need_device(), which
 * reports the test as SKIPPED (never passed) when there is none. */
#ifndef DH_TESTUTIL_H
#define DH_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../backends/backend.h"

/* 1 when the named backend has at least one device here. */
static inline int dh_test_has_device(const char *backend)
{
    const struct dh_backend_ops *be = dh_backend_find(backend);
    int n = 0;
    char why[256] = "";
    struct dh_err e = {0};
    if (getenv("DH_TEST_NO_DEVICE")) {       /* the sanitizer pass */
        fprintf(stderr, "  (no %s device: DH_TEST_NO_DEVICE is set)\n", backend);
        return 0;
    }
    if (!be || be->probe(&n, why, sizeof why, &e) || n == 0) {
        fprintf(stderr, "  (no %s device: %s)\n", backend, why);
        return 0;
    }
    return 1;
}

#define dh_test_need_device(backend)          \
    do {                                      \
        if (!dh_test_has_device(backend)) {   \
            skip();                           \
            return;                           \
        }                                     \
    } while (0)

#endif
