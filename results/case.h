/* case.h — what a result is *of* (DESIGN.md "case").
 *
 * Identity: suite, benchmark, variant and its choices (alg, mech, regroup),
 * backend, device (by name), size and the workload parameters. Tunables
 * (wg, nf, group) are recorded with a case but are not part of its
 * identity, so a nightly run whose tuned values moved still matches.
 */
#ifndef DH_CASE_H
#define DH_CASE_H

#include "../harness/support/params.h"

struct dh_bench;

/* --reps auto: at least DH_REPS_AUTO_MIN repetitions (compare needs 10) */
#define DH_REPS_AUTO (-1)
#define DH_REPS_AUTO_MIN 10

struct dh_case {
    const struct dh_bench *bench;  /* NULL when read from a file of
                                      a benchmark this build lacks */
    char suite[32];
    char bench_name[48];
    char variant[24];
    char backend[16];
    int device;                /* index within the backend */
    char device_name[256];
    char size[8];              /* small | medium | large */
    struct dh_pset params;     /* every kind, see params.h */
    int reps, warmup;          /* reps DH_REPS_AUTO: as many as the kernel's
                                  spread needs (reps_target, reps_max) */
    double reps_target;        /* auto: stop when the 95% interval of the
                                  median is within +-reps_target of it */
    int reps_max;              /* auto: at most this many */
    double timeout_s;
    int profile;               /* 1: also run a counters pass */
    int model;                 /* 1: obtain BBVs and price the run with the model */
    int remap_overhead;        /* 1: a gpu_tdr case also times the remap overhead
                                  (harness/run/remap.c); not part of the identity */
    int instrumented;          /* 1: time the profiling (DH_BBV) build itself;
                                  part of the identity: never compared with
                                  a plain build */
    char id[768];              /* canonical identity (see dh_case_identity) */
    char key[17];              /* 64-bit hash of id, hex */
};

/* Fill c->id and c->key from the identity fields:
 *   suite/bench/variant[choices]/backend/device/size/workload  */
void dh_case_identity(struct dh_case *c);

/* Variant with its choices, e.g. "gpu_tdr[alg=dgi]" or "baseline". */
void dh_case_variant_label(const struct dh_case *c, char *out, size_t len);

/* 1 when a's identity equals b's except for the variant and its choices. */
int dh_same_workload(const struct dh_case *a, const struct dh_case *b);

int dh_size_valid(const char *size);
#define DH_SIZES "small, medium, large"

#endif
