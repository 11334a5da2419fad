/* plan.h — the plan a sharded run belongs to, as its results file keeps it.
 *
 * `harness run --shard I/N` runs shard I of N of one plan; its results file
 * records the plan's hash (a hash of the unsharded plan's case ids, in
 * order), N, I and every case id of the plan with the shard it went to, so
 * that `harness merge` can tell the shards of one plan from another's and
 * name the shards and cases that did not come back. A merged file keeps
 * the plan (I = 0) and what became of each shard (notes).
 *
 * results/ owns the record; harness/run/ fills it, harness/stats/ checks
 * a merge against it.
 */
#ifndef DH_PLAN_REC_H
#define DH_PLAN_REC_H

#include <stddef.h>
#include <stdint.h>

#define DH_MAX_SHARDS 1024

struct dh_plan_case {
    char id[768];               /* the case identity (dh_case.id) */
    int shard;                  /* 1..shards */
};

/* What became of one shard in a merge. */
enum dh_shard_state { DH_SHARD_OK, DH_SHARD_INCOMPLETE, DH_SHARD_MISSING };
struct dh_shard_note {
    int index;                  /* 1..shards */
    enum dh_shard_state state;
    int planned, ran;           /* its cases; those with a run */
    int claims;                 /* results files that say they are this shard */
    char files[512];            /* those files, comma-separated (may be cut) */
    char message[512];          /* one line: what is missing */
};

struct dh_plan_rec {
    char hash[17];              /* 64-bit FNV-1a of the case ids, hex */
    int cases;                  /* cases of the unsharded plan */
    int shards;                 /* N, 1..DH_MAX_SHARDS */
    int shard;                  /* I, 1..N; 0 in a merged file */
    struct dh_plan_case *ids;   /* cases entries, plan order; malloc'd */
    int n_notes;                /* merged files: one per shard, else 0 */
    struct dh_shard_note *notes;    /* malloc'd, may be NULL */
};

/* The plan hash of ids (n of them, plan order) into hex[17]. */
void dh_plan_hash(const struct dh_plan_case *ids, int n, char hex[17]);
/* Frees what rec owns and the record itself; NULL is fine. */
void dh_plan_rec_free(struct dh_plan_rec *rec);
const char *dh_shard_state_name(enum dh_shard_state s);
int dh_shard_state_parse(const char *text, enum dh_shard_state *out);

#endif
