/* params.h — parameters: their definitions, domains and values.
 *
 * Three kinds (DESIGN.md "case", "tunable", "variant choices"):
 *   workload — part of a case's identity (paths, seed, divergent fraction)
 *   choice   — a variant's algorithm choice, part of identity (alg, mech)
 *   tunable  — may change without changing the answer, NOT identity (wg, nf)
 *
 * A domain is text, so it can be printed in messages as it is checked:
 *   "int:LO..HI"       integers in [LO, HI]
 *   "int:A,B,C"        one of these integers
 *   "real:LO..HI"      reals in [LO, HI]
 *   "enum:a,b,c"       one of these words
 */
#ifndef DH_PARAMS_H
#define DH_PARAMS_H

#include <stddef.h>

enum dh_pkind { DH_P_WORKLOAD = 1, DH_P_CHOICE, DH_P_TUNABLE };

struct dh_param_def {
    const char *name;
    enum dh_pkind kind;
    const char *domain;
    const char *def;        /* default value as text */
    const char *variants;   /* comma list of variants using it; NULL = all */
    const char *doc;
    /* (optional) "choice=value": used only when that choice has the value,
     * e.g. nf only for alg=dgi; NULL = always */
    const char *when;
};

#define DH_MAX_PARAMS 48
struct dh_pval {
    char name[24];
    char text[48];
    double num;             /* numeric value (enum: index in the list) */
    enum dh_pkind kind;
};
struct dh_pset {
    int n;
    struct dh_pval v[DH_MAX_PARAMS];
};

const char *dh_pkind_name(enum dh_pkind k);

/* Split "k=v" (whitespace trimmed). 0 or -DH_E_USAGE with why. */
int dh_param_split(const char *kv, char *name, size_t nlen, char *val, size_t vlen,
                   char *why, size_t why_len);
/* Check `val` against a domain; *num gets its numeric value. */
int dh_domain_check(const char *domain, const char *val, double *num,
                    char *why, size_t why_len);
/* Find a definition by name in a {0}-terminated table; NULL if none. */
const struct dh_param_def *dh_param_find(const struct dh_param_def *defs,
                                         const char *name);
/* 1 if `variant` uses the parameter. */
int dh_param_used_by(const struct dh_param_def *d, const char *variant);
struct dh_pset;
/* 1 if the parameter's `when` condition holds for these values. */
int dh_param_applies(const struct dh_param_def *d, const struct dh_pset *s);

/* Set (or replace) a value; 0 or -DH_E_INTERNAL when full. */
int dh_pset_put(struct dh_pset *s, const char *name, const char *text, double num,
                enum dh_pkind kind);
const struct dh_pval *dh_pset_find(const struct dh_pset *s, const char *name);
const char *dh_pset_text(const struct dh_pset *s, const char *name, const char *dflt);
double dh_pset_num(const struct dh_pset *s, const char *name, double dflt);
void dh_pset_del(struct dh_pset *s, const char *name);
/* Sort by name (identity strings must not depend on order of --param). */
void dh_pset_sort(struct dh_pset *s);
/* "k=v,k=v" of one kind (0 = all kinds), sorted by name. */
void dh_pset_format(const struct dh_pset *s, enum dh_pkind kind, char *out, size_t len);

#endif
