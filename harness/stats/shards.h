/* shards.h — a merge checked against the plans of its inputs.
 *
 * Results files of `harness run --shard I/N` carry their plan (results/
 * plan.h). Joining them, `harness merge` must not mix the shards of two
 * plans, and must name every shard and case that did not come back, never
 * drop one without a word. This is that check; the merge itself (later run
 * of a case kept) is cmd_merge.c's.
 *
 * harness/stats/ may call results/ and below.
 */
#ifndef DH_SHARDS_H
#define DH_SHARDS_H

#include <stdio.h>

#include "../../results/xml.h"

/* Check the plans of nin inputs (in[i] read from names[i]); inputs with no
 * plan are not checked. Two plans (another hash, or another N) among the
 * inputs: -DH_E_DATA naming each plan and its files, unless mixed_ok; then
 * each plan is checked on its own and *merged is NULL. Otherwise *merged
 * is the merged file's plan (shard 0, one note per shard; malloc'd, free
 * with dh_plan_rec_free), or NULL when no input has a plan.
 * Writes a line per shard missing, incomplete or found in several files to
 * msgs (may be NULL). Returns how many shards are missing or incomplete
 * (>= 0), or a negative code. */
int dh_shards_check(const struct dh_resultfile *in, const char *const *names, int nin,
                    int mixed_ok, struct dh_plan_rec **merged, FILE *msgs, struct dh_err *err);

#endif
