/* fuzz_expr.c — constraint and count expressions (harness/support/expr.c):
 * a value or an error naming the problem, never a signal (overflow,
 * division by zero, INT64_MIN / -1, deep nesting); the same text gives the
 * same answer twice. */
#include <stdint.h>

#include "fuzz.h"
#include "../harness/support/expr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[DH_EXPR_MAX + 64];
    if (size >= sizeof text)
        size = sizeof text - 1;
    memcpy(text, data, size);
    text[size] = 0;
    static struct dh_pset vars;
    if (!vars.n) {
        dh_pset_put(&vars, "wg", "256", 256, DH_P_TUNABLE);
        dh_pset_put(&vars, "n", "9223372036854775807", 9223372036854775807.0, DH_P_WORKLOAD);
        dh_pset_put(&vars, "nf", "16", 16, DH_P_TUNABLE);
    }
    long v1 = 0, v2 = 0;
    char why1[256] = "", why2[256] = "";
    int r1 = dh_expr_eval(text, &vars, 32, 1024, 4194304, &v1, why1, sizeof why1);
    int r2 = dh_expr_eval(text, &vars, 32, 1024, 4194304, &v2, why2, sizeof why2);
    FUZZ_CHECK(r1 == r2 && (r1 || v1 == v2), "two answers for one text");
    FUZZ_CHECK(!r1 || why1[0], "an error without a reason");
    return 0;
}
