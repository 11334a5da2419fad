/* fuzz_descriptor.c — a user's kernel descriptor (suites/lib/descriptor.c)
 * on any bytes: loaded or refused with a reason, never a crash; the
 * kernel file it names beside it exists, so the fuzzer reaches past the
 * file checks into buffers, entries, expressions and constraints. */
#include <stdint.h>

#include "fuzz.h"
#include "../suites/lib/descriptor.h"
#include "../suites/suite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int once;
    if (!once) {
        const char *k = "DH_KERNEL void k(DH_CONST float *x, DH_GLOBAL float *y, int n)\n"
                        "{ int i = dh_gid(); y[i] = x[i] * 2.0f; }\n"
                        "DH_KERNEL void k_rr(DH_CONST float *x, DH_GLOBAL float *y, int n,\n"
                        "                    DH_CONST int *perm)\n"
                        "{ int i = perm[dh_gid()]; y[i] = x[i] * 2.0f; }\n";
        fuzz_file("k.k", k, strlen(k));
        once = 1;
    }
    const char *d = fuzz_file("d.xml", data, size);
    const struct dh_bench *b = NULL;
    struct dh_err e = {0};
    if (!dh_ukernel_load(d, NULL, &b, &e)) {
        FUZZ_CHECK(b && b->name && b->source && b->variants, "loaded without its parts");
    } else {
        FUZZ_CHECK(e.msg[0], "refused without a reason");
    }
    return 0;
}
