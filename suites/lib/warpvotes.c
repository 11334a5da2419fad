/* warpvotes.c — see warpvotes.h. */
#include "warpvotes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dh_warp_votes_check(const struct dh_case *c, const struct dh_device_info *dev,
                        const char *alg, const char *portable, char *why, size_t len)
{
    if (strcmp(c->backend, "cuda") && strcmp(c->backend, "hip")) {
        snprintf(why, len, "alg=%s needs warp votes (backends cuda, hip); %s keeps the "
                 "portable forms %s", alg, c->backend, portable);
        return -DH_E_CONSTRAINT;
    }
    const char *on = getenv("DH_HIP_WARP_VOTES");
    if (!strcmp(c->backend, "hip") && dev && strstr(dev->vendor, "AMD")
            && !(on && !strcmp(on, "1"))) {
        snprintf(why, len, "alg=%s: the warp-vote forms are off on AMD GPUs (never run on "
                 "one; DH_HIP_WARP_VOTES=1 turns them on); the portable forms %s run",
                 alg, portable);
        return -DH_E_CONSTRAINT;
    }
    return 0;
}
