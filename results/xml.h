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

/* What a run ran on, besides the machine's name (<conditions>): the host's
 * load before the run and at its latest write, the CPU's governor and
 * clock; GPU clocks and throttling where the backend can tell (gpu says
 * what was recorded, or why nothing was). A night on a busy host is not
 * a regression (compare's "unreliable"). */
struct dh_conditions {
    int valid;                    /* 0: not recorded (a file written before) */
    int live;                     /* this process's run: each write refreshes load_after */
    int cpus;                     /* online CPUs */
    double load_before[3];        /* 1, 5, 15 min load averages; -1 unknown */
    double load_after[3];
    char governor[32];            /* cpufreq governor of cpu0; "" unknown */
    int cpu_mhz;                  /* cpu0's current clock; 0 unknown */
    char gpu[256];                /* GPU clocks and throttling, or why not recorded */
};

/* The host's part now (cpus, load_before, governor, clock), valid and live. */
void dh_conditions_host(struct dh_conditions *c);
/* A night's conditions unfit for timing: 1 with why (e.g. "host load 3.9
 * on 2 CPUs before the run"), else 0. max_load <= 0: half the CPUs. */
int dh_conditions_unreliable(const struct dh_conditions *c, double max_load, char *why,
                             size_t len);

struct dh_env {
    char host[256], os[256], kernel[256], compiler[128], harness[64];
    char git_revision[64], started[40], updated[40], command[2048];
    /* a resumed file's commands, oldest first (n_inv 0: one, this env);
     * started above is the first one's, the rest describe the latest */
    struct dh_invocation inv[DH_ENV_INVOCATIONS];
    int n_inv;
    struct dh_conditions cond;
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
