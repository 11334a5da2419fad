/* ceiling.h — the remap ceiling (DESIGN.md "remap ceiling").
 *
 * Cost model: a warp executes each path its items hold, one after the
 * other; a uniform warp costs one path. The ceiling of a layer is the
 * warp-path cost in the input's own order over the cost after sorting each
 * work-group by path — the best any regrouping *inside* a work-group can
 * do. It is below 1/CFE when path counts do not fall on warp boundaries.
 */
#ifndef DH_CEILING_H
#define DH_CEILING_H

/* Add one layer's costs for keys[0..n) (values in [0, nkeys)), work-group
 * size wg, warp width warp. n must be a multiple of wg. */
void dh_ceiling_layer(const int *keys, long n, int wg, int warp, int nkeys,
                      double *cost_orig, double *cost_sorted);

/* The same with a cost per path (e.g. its instruction count): a warp costs
 * the sum of the costs of the distinct paths it holds. cost may be NULL
 * (every path costs 1). Keys < 0 mark items that skip the layer. Layers of
 * a kernel add up: call once per layer, then ceiling = orig / sorted. */
void dh_ceiling_layer_w(const int *keys, long n, int wg, int warp, int nkeys,
                        const double *cost, double *cost_orig, double *cost_sorted);

#endif
