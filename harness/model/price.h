/* price.h — the model's view of one run: its item order priced from the
 * workload's BBVs, next to the launch order (results/record.h
 * dh_model_result). */
#ifndef DH_PRICE_H
#define DH_PRICE_H

#include "../../results/record.h"
#include "bbv.h"

/* Price the run's item order (`order`: slot j runs item order[j]; NULL =
 * the launch order) and the launch order, with warps of the device's
 * width (32 when it says none) and of 32 and 64, work-groups of `wg`,
 * launches of `launch_items` items one after another (<= 0: one launch;
 * the scheduled-floor metric's, bbv.h). n_classes: the workload's distinct
 * BBVs, recorded as they are.
 *
 * DH_MODEL_CUS=N prices N compute units in place of the device's (an
 * H100's 132 from a PoCL run: BBVs do not depend on the device, the
 * schedule does); a value that is not an integer in 1..100000 is ignored
 * with a note on stderr. */
void dh_model_price(const struct dh_bbv *b, const struct dh_bb_def *blocks,
                    const struct dh_latency_table *t, const struct dh_device_info *info,
                    int wg, long launch_items, const int *order, long n_classes,
                    struct dh_model_result *m);

#endif
