/* constraints.c — generic constraints on the tunables of any benchmark
 * (dh_space_check, plan.h):
 *   wg  a multiple of the device's warp width, within its largest group
 *   nf  divides wg (DGI neighboring factor)
 *   group (cpu_tdr regroup size) a multiple of the warp width
 *   minb (launch bounds, a code-generation knob of every benchmark) CUDA
 *        only, minb work-groups of wg items within a multiprocessor's 2048
 *        threads
 * Benchmarks add their own in their check(). Planning refuses a case that
 * breaks one; tuning prunes its space with them before anything is
 * compiled. */
#include <stdio.h>
#include <string.h>

#include "plan.h"

int dh_space_check(const struct dh_case *c, const struct dh_device_info *dev,
                   char *why, size_t len)
{
    const struct dh_pval *wg = dh_pset_find(&c->params, "wg");
    int warp = dev ? dev->warp_width : 32;
    if (wg) {
        int w = (int)wg->num;
        if (w % warp) {
            snprintf(why, len, "wg=%d is not a multiple of the warp width %d of %s", w,
                     warp, dev ? dev->name : "the device");
            return -DH_E_CONSTRAINT;
        }
        if (dev && dev->max_wg && w > dev->max_wg) {
            snprintf(why, len, "wg=%d exceeds the largest work-group of %s (%d)", w,
                     dev->name, dev->max_wg);
            return -DH_E_CONSTRAINT;
        }
        const struct dh_pval *nf = dh_pset_find(&c->params, "nf");
        if (nf && (nf->num < 1 || w % (int)nf->num)) {
            snprintf(why, len, "nf=%s does not divide wg=%d", nf->text, w);
            return -DH_E_CONSTRAINT;
        }
    }
    const struct dh_pval *mb = dh_pset_find(&c->params, "minb");
    if (mb && mb->num > 0) {
        if (strcmp(c->backend, "cuda")) {
            snprintf(why, len, "minb=%s: launch bounds are CUDA's; the %s backend cannot "
                     "express them and takes minb=0", mb->text, c->backend);
            return -DH_E_CONSTRAINT;
        }
        if (wg && mb->num * wg->num > 2048) {
            snprintf(why, len, "minb=%s work-groups of wg=%d items exceed a "
                     "multiprocessor's 2048 threads: lower minb or wg", mb->text,
                     (int)wg->num);
            return -DH_E_CONSTRAINT;
        }
    }
    const struct dh_pval *g = dh_pset_find(&c->params, "group");
    if (g && ((int)g->num % warp)) {
        snprintf(why, len, "group=%s is not a multiple of the warp width %d", g->text, warp);
        return -DH_E_CONSTRAINT;
    }
    return 0;
}
