/* fuzz_param.c — `--param k=v` (harness/support/params.c): split, then
 * checked against each kind of domain; accepted values lie in their
 * domain, refusals say why. */
#include <stdint.h>

#include "fuzz.h"
#include "../harness/support/params.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char kv[512];
    if (size >= sizeof kv)
        size = sizeof kv - 1;
    memcpy(kv, data, size);
    kv[size] = 0;
    char name[32], val[64], why[256] = "";
    if (dh_param_split(kv, name, sizeof name, val, sizeof val, why, sizeof why)) {
        FUZZ_CHECK(why[0], "split refused without a reason");
        return 0;
    }
    static const char *const domains[] = {"int:1..1024", "int:0..2147483647", "real:0..0.9",
                                          "enum:hot,dgi,hot_warp,dgi_scan", "real:0.5..4"};
    static const double lo[] = {1, 0, 0, 0, 0.5}, hi[] = {1024, 2147483647, 0.9, 3, 4};
    for (size_t k = 0; k < sizeof domains / sizeof *domains; k++) {
        double num = -1;
        why[0] = 0;
        if (dh_domain_check(domains[k], val, &num, why, sizeof why))
            FUZZ_CHECK(why[0], "%s: refused without a reason", domains[k]);
        else
            FUZZ_CHECK(num >= lo[k] && num <= hi[k], "%s: accepted %s as %g", domains[k], val,
                       num);
    }
    return 0;
}
