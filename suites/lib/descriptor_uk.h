/* descriptor_uk.h — inside suites/lib: what a loaded descriptor declares
 * (descriptor.c reads it, descriptor_hooks.c runs it as the kit's hooks).
 * One descriptor at a time. Not for other rooms: use descriptor.h. */
#ifndef DH_DESCRIPTOR_UK_H
#define DH_DESCRIPTOR_UK_H

#include "kit.h"

#define UK_MAXTUN 8
#define UK_MAXBR 8

struct uk_init {
    int how;                     /* 0 zero, 1 index, 2 random */
    double min, max;
    unsigned seed;
};

/* everything a loaded descriptor declares */
struct uk_decl {
    char name[48], path[1024], kpath[2048];
    char items[1040], sizes[3][256];
    char remaps[1040];           /* <kernel remaps="...">: "" when not given */
    char *source;
    char *fingerprint;           /* the descriptor's text + its C reference's */
    char bname[DH_KIT_MAXBUF][32], bcount[DH_KIT_MAXBUF][1040];
    struct dh_kbuf bufs[DH_KIT_MAXBUF];
    struct uk_init init[DH_KIT_MAXBUF];
    int n_buf;
    char ev[5][16], ename[5][32], eargs[5][1040];
    struct dh_kentry entries[6];
    int n_entry;
    char variants[64];
    /* reference */
    int ref_mode;                /* 0 host entry, 1 device entry, 2 C file */
    char ref_entry[32], ref_args[1040], ref_c[1024], ref_fn[32];
    /* branches */
    char br_key[UK_MAXBR][1040];
    int br_paths[UK_MAXBR], n_br;
    unsigned br_said;           /* branches whose key gave no item a path, said once */
    /* tunables, constraints */
    char tun_name[UK_MAXTUN][32], tun_domain[UK_MAXTUN][720], tun_default[UK_MAXTUN][16];
    struct dh_param_def params[UK_MAXTUN + 4];   /* + mech, regroup, minb, {0} */
    int n_tun;
    char constraint[16][1040], con_why[16][1100];
    struct dh_krule rules[17];
    int n_con;
    struct dh_kit kit;
    struct dh_bench bench;
};
extern struct uk_decl dh_uk;

/* the kit's hooks for it (descriptor_hooks.c) */
int dh_uk_generate(struct dh_khost *h, struct dh_err *err);
int dh_uk_generate_keyed(struct dh_khost *h, struct dh_err *err);
int dh_uk_reference(struct dh_khost *h, struct dh_err *err);
int dh_uk_defines(const struct dh_case *c, const struct dh_pset *vars,
                  const struct dh_device_info *dev, char *buf, size_t len);
int dh_uk_branch(const struct dh_khost *h, long layer, int *key, const double **cost);
int dh_uk_sort_key(const struct dh_khost *h, int *key);

#endif
