/* xml.h — results files: write (atomically), read back, validate.
 * Format: results/divharness-1.xsd (embedded in the binary), through
 * libxml2. A file's root carries version="1". */
#ifndef DH_XML_H
#define DH_XML_H

#include "plan.h"
#include "record.h"

#define DH_RESULTS_VERSION 1

/* One command that wrote a results file: the first, and each resume. */
struct dh_invocation {
    int n;                                  /* 1, 2, ... in order */
    char started[40], harness[64], git_revision[64], host[256];
};
#define DH_ENV_INVOCATIONS 32   /* kept: the first and the latest 31 */

struct dh_env {
    char host[256], os[256], kernel[256], compiler[128], harness[64];
    char git_revision[64], started[40], updated[40], command[2048];
    /* a resumed file's commands, oldest first (n_inv 0: one, this env);
     * started above is the first one's, the rest describe the latest */
    struct dh_invocation inv[DH_ENV_INVOCATIONS];
    int n_inv;
};

struct dh_resultfile {
    int version;
    struct dh_env env;
    struct dh_devlist devs;     /* the devices the runs used */
    struct dh_run *runs;        /* malloc'd */
    int n_runs;
    struct dh_plan_rec *plan;   /* a sharded run's or a merge's plan
                                   (plan.h); NULL in other files */
};

void dh_env_fill(struct dh_env *e, int argc, char **argv);
void dh_now_iso(char *out, size_t len);
/* now, about to resume the file that was recorded with `was`: now keeps
 * was's start and invocations and adds itself; returns its own number
 * (what its runs record as their invocation). */
int dh_env_resume(struct dh_env *now, const struct dh_env *was);

/* Write path atomically (path.tmp + rename). Runs with status -1
 * (pending) are left out. */
int dh_xml_write(const char *path, const struct dh_env *env, const struct dh_devlist *devs,
                 const struct dh_run *runs, int n, struct dh_err *err);
/* The same with the plan of a sharded run or a merge (NULL: none). */
int dh_xml_write_plan(const char *path, const struct dh_env *env,
                      const struct dh_devlist *devs, const struct dh_run *runs, int n,
                      const struct dh_plan_rec *plan, struct dh_err *err);
/* Validate against the embedded schema; -DH_E_DATA with the first error. */
int dh_xml_validate(const char *path, struct dh_err *err);
/* Read a file (validated first). Only what the file holds: runs are not
 * linked to this build's benchmarks (c.bench NULL) and derived fields
 * (statistics, speedups) are zero; harness/stats/load.h does both. */
int dh_xml_read(const char *path, struct dh_resultfile *out, struct dh_err *err);
void dh_resultfile_free(struct dh_resultfile *f);

#endif
