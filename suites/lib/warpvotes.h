/* warpvotes.h — where the warp-vote remap forms (hot_warp, dgi_scan and
 * the benchmarks' combinations of them, suites/lib/tdr.h) may run, for the
 * benchmarks' check(): CUDA and HIP have the votes; OpenCL does not; HIP on
 * AMD has them in the language, but they have never run on an AMD GPU
 * here, so they are off there unless DH_HIP_WARP_VOTES=1 (the HIP backend
 * builds with DH_NO_WARP_VOTES the same way). */
#ifndef DH_WARPVOTES_H
#define DH_WARPVOTES_H

#include <stddef.h>

#include "../suite.h"


/* 0 when warp-vote form `alg` may run for case c on dev; else
 * -DH_E_CONSTRAINT and `why` names the portable forms that do. */
int dh_warp_votes_check(const struct dh_case *c, const struct dh_device_info *dev,
                        const char *alg, const char *portable, char *why, size_t len);

#endif
