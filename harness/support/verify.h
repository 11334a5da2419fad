/* verify.h — the verification recorder: what a comparison of a run's
 * outputs with the CPU reference found. Benchmarks fill it (suites/), the
 * worker judges it (harness/run/), results files keep it (results/). */
#ifndef DH_VERIFY_H
#define DH_VERIFY_H

#define DH_MAX_MISMATCH 8
struct dh_verify {
    long checked;           /* elements compared */
    long mismatches;        /* elements outside tolerance */
    double max_abs_err;
    int n_first;
    struct { long index; double got, want; } first[DH_MAX_MISMATCH];
};

/* Record one compared output: counts it, keeps the largest error and the
 * first DH_MAX_MISMATCH mismatches. `bad` says whether it is outside the
 * benchmark's tolerance. */
void dh_verify_add(struct dh_verify *v, long index, double got, double want, int bad);

#endif
