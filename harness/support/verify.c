/* verify.c — see verify.h. */
#include "verify.h"

#include <math.h>

void dh_verify_add(struct dh_verify *v, long index, double got, double want, int bad)
{
    double e = fabs(got - want);
    v->checked++;
    if (isnan(e))
        v->max_abs_err = INFINITY;
    else if (e > v->max_abs_err)
        v->max_abs_err = e;
    if (!bad)
        return;
    if (v->n_first < DH_MAX_MISMATCH) {
        v->first[v->n_first].index = index;
        v->first[v->n_first].got = got;
        v->first[v->n_first].want = want;
        v->n_first++;
    }
    v->mismatches++;
}
