/* sasscost.h — block costs from the compiled kernel: the build the run
 * makes (same source, same defines) compiled for sm_<cc> with line
 * information (backends/offline.h), disassembled by nvdisasm, mapped to
 * the DH_BB blocks and priced (sass.h). docs/model.md tells the method. */
#ifndef DH_SASSCOST_H
#define DH_SASSCOST_H

#include "sass.h"

struct dh_sass_costs {
    int n_blocks;
    struct dh_sass_block *b;       /* n_blocks, malloc'd */
    int unmarked, shared;          /* the kernel's instructions outside blocks, on shared lines */
    int total;                     /* the kernel's instructions */
    int unresolved;                /* markers whose id did not evaluate */
    char first_unresolved[160];
    char kernel[128];
    char compiler[64];             /* "NVRTC 13.0" */
    char disasm[256];              /* the nvdisasm that read it */
    int cached;                    /* the listing came from the program cache (the same
                                      source, options, arch, NVRTC and nvdisasm file) */
};

/* `kernel` NULL: the one function named *_baseline, else the listing's
 * only function. nvdisasm is
 * $DH_NVDISASM, else `nvdisasm` on PATH. Errors name the problem and the
 * fix (-DH_E_UNAVAILABLE: no NVRTC or no usable nvdisasm). */
int dh_sass_costs_build(int cc, const char *source, const char *options, const char *kernel,
                        int n_blocks, struct dh_sass_costs *out, struct dh_err *err);
/* The same from a listing already made (tests, `harness blocks --sass`).
 * On an error *out holds nothing (nothing to free). */
int dh_sass_costs_listing(const char *listing, const char *source, const char *options,
                          const char *kernel, int n_blocks, struct dh_sass_costs *out,
                          struct dh_err *err);
void dh_sass_costs_free(struct dh_sass_costs *c);

/* The listing itself (`nvdisasm -c -gi` of the build compiled for
 * sm_<cc>), from the program cache where it is there: *listing malloc'd. */
int dh_sass_listing(int cc, const char *source, const char *options, char **listing,
                    struct dh_err *err);

#endif
