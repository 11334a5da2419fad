/* steps.h — where a case's nightly medians moved to stay: step detection
 * over a whole history, in the manner of asv's (a piecewise-constant fit
 * with a penalty per step, solved exactly by dynamic programming).
 *
 * The method, for n nights of one case:
 *   1. y_t = ln(median_t): a step is a ratio, the same up as down;
 *   2. a running median of five nights (three next to the ends, the ends
 *      kept) takes out outliers of one or two nights in a row, which no
 *      step may be made of (it keeps a step where it is);
 *   3. the noise sigma = 1.4826 x median|y_t - y_{t-1}| / sqrt 2 (the raw
 *      nights' differences: robust to the steps and outliers), floored at
 *      min_noise (0.2 % by default: a series more regular than timers are);
 *   4. the segmentation of y' minimising sum over segments of
 *      sum (y' - segment mean)^2 / sigma^2 + beta x (segments - 1), every
 *      segment at least min_len nights (3), beta = penalty x ln n (penalty
 *      3 by default: a step must explain more than noise would), solved by
 *      dynamic programming over prefix sums (O(n^2));
 *   5. each segment's level is the median of its raw nights; the boundary
 *      whose levels differ least is merged away while that is less than
 *      min_change (5 %, compare's threshold), so a step is measured between
 *      the whole levels around it: its size is level after / before - 1.
 * The defaults are the tests' (tests/test_steps.c: synthetic series with
 * known steps, noise and outliers). */
#ifndef DH_STEPS_H
#define DH_STEPS_H

struct dh_steps_opts {
    double penalty;         /* beta = penalty x ln n; default 3 */
    double min_change;      /* smallest step reported, as a ratio - 1; default 0.05 */
    double min_noise;       /* sigma's floor (ln units); default 0.002 */
    int min_len;            /* nights per segment at least; default 3 */
};
void dh_steps_opts_default(struct dh_steps_opts *o);

struct dh_step {
    int at;                 /* the first night after the step (index into the series) */
    double before, after;   /* the segments' medians (the series' units) */
    double change;          /* after / before - 1 */
};

/* Steps of the series x[0..n) (positive values, e.g. kernel medians),
 * oldest first, into out (at most max); their count, or -1 out of memory. */
int dh_steps_find(const double *x, int n, const struct dh_steps_opts *o, struct dh_step *out,
                  int max);

#endif
