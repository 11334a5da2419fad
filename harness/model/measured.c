/* measured.c — block costs from per-instruction counts; see measured.h. */
#include "measured.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sass.h"

void dh_measured_free(struct dh_measured *m)
{
    free(m->inst);
    free(m->priced);
    memset(m, 0, sizeof *m);
}

/* The instruction of function f at byte offset pc, or -1. A function's
 * instructions are contiguous and in address order in the listing. */
static long find_inst(const struct dh_sass *s, const long *first, const long *end, int f,
                      unsigned pc)
{
    long lo = first[f], hi = end[f];
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (s->v[mid].addr < pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < end[f] && s->v[lo].addr == pc ? lo : -1;
}

/* The entry of the subroutine holding instruction i: the largest CALL
 * target at or below it in its function, or -1. */
static long sub_entry(const struct dh_sass *s, long i)
{
    long best = -1;
    for (long j = 0; j < s->n; j++) {
        const struct dh_sass_inst *c = &s->v[j];
        if (c->func == s->v[i].func && !strncmp(c->op, "CALL", 4) && c->target >= 0 &&
            c->target <= (long)s->v[i].addr && c->target > best)
            best = c->target;
    }
    return best;
}

int dh_measured_costs(const char *listing, const char *source, const char *options,
                      const struct dh_pc_count *pc, long n_pc, const double *lanes,
                      const int *parent, int nb, struct dh_measured *out, struct dh_err *err)
{
    memset(out, 0, sizeof *out);
    struct dh_sass s;
    struct dh_bb_markers m;
    int rc = dh_sass_parse(listing, &s, err);
    if (rc) {
        dh_sass_free(&s);
        return rc;
    }
    if ((rc = dh_bb_markers_scan(source, options, &m, err))) {
        dh_sass_free(&s);
        return rc;
    }
    char at[160] = "";
    size_t n = (size_t)(s.n > 0 ? s.n : 1), nf = (size_t)(s.n_funcs > 0 ? s.n_funcs : 1);
    long *first = malloc(nf * sizeof *first), *end = malloc(nf * sizeof *end);
    int *blk = malloc(n * sizeof *blk);
    double *thr = calloc(n, sizeof *thr), *on = calloc(n, sizeof *on);
    double *acc = calloc((size_t)(nb > 0 ? nb : 1) * 3, sizeof *acc);   /* T, O, C */
    char *seen = calloc(nf, 1);
    out->inst = calloc((size_t)(nb > 0 ? nb : 1) * 5, sizeof *out->inst);
    out->priced = calloc((size_t)(nb > 0 ? nb : 1), sizeof *out->priced);
    if (!first || !end || !blk || !thr || !on || !acc || !seen || !out->inst || !out->priced) {
        rc = dh_err_set(err, DH_E_RESOURCES, "out of host memory");
        goto done;
    }
    out->nb = nb;
    out->cycles = out->inst + nb;
    out->useful = out->inst + 2 * nb;
    out->pred_inst = out->inst + 3 * nb;
    out->pred_cost = out->inst + 4 * nb;
    for (size_t f = 0; f < nf; f++)
        first[f] = end[f] = 0;
    for (long i = s.n - 1; i >= 0; i--)
        first[s.v[i].func] = i;
    for (long i = 0; i < s.n; i++)
        end[s.v[i].func] = i + 1;
    /* each instruction's block: -1 outside every region, -2 on a line of
     * two blocks, -3 in a subroutine (its callers') */
    for (long i = 0; i < s.n; i++)
        blk[i] = s.v[i].sub ? -3 : dh_sass_block_of(&s, &s.v[i], &m, NULL);
    /* the counts onto the listing */
    for (long r = 0; r < n_pc; r++) {
        const struct dh_pc_count *p = &pc[r];
        if (p->inst <= 0 && p->thread <= 0)
            continue;
        int f = dh_sass_func(&s, p->func);
        long i = f >= 0 ? find_inst(&s, first, end, f, p->pc) : -1;
        if (i < 0) {
            if (!out->unmatched++)
                snprintf(at, sizeof at, "%.120s+0x%x", p->func, p->pc);
            continue;
        }
        if (!seen[f]++)
            out->funcs++;
        thr[i] += p->thread;
        on[i] += p->pred_on;
        out->thread_total += p->thread;
        out->on_total += p->pred_on;
        out->warp_total += p->inst;
    }
    if (out->unmatched) {
        rc = dh_err_set(err, DH_E_DATA, "%ld counted instructions (the first %s) are not in "
                        "the listing of this build: the measured code is another build's",
                        out->unmatched, at);
        goto done;
    }
    /* per block; a subroutine's share to each calling block by the lanes
     * of its calls */
    for (long i = 0; i < s.n; i++) {
        if (thr[i] <= 0 && on[i] <= 0)
            continue;
        double c = dh_sass_op_cost(s.v[i].op, NULL);
        if (blk[i] >= 0 && blk[i] < nb) {
            acc[3 * blk[i]] += thr[i];
            acc[3 * blk[i] + 1] += on[i];
            acc[3 * blk[i] + 2] += thr[i] * c;
            continue;
        }
        if (blk[i] != -3)
            continue;
        long e = sub_entry(&s, i);
        double calls = 0;
        for (long j = 0; e >= 0 && j < s.n; j++)
            if (s.v[j].func == s.v[i].func && !strncmp(s.v[j].op, "CALL", 4) &&
                s.v[j].target == e && blk[j] >= 0 && blk[j] < nb)
                calls += thr[j];
        for (long j = 0; calls > 0 && j < s.n; j++)
            if (s.v[j].func == s.v[i].func && !strncmp(s.v[j].op, "CALL", 4) &&
                s.v[j].target == e && blk[j] >= 0 && blk[j] < nb && thr[j] > 0) {
                double w = thr[j] / calls;
                acc[3 * blk[j]] += w * thr[i];
                acc[3 * blk[j] + 1] += w * on[i];
                acc[3 * blk[j] + 2] += w * thr[i] * c;
            }
    }
    for (int k = 0; k < nb; k++) {
        double T = acc[3 * k], O = acc[3 * k + 1], C = acc[3 * k + 2];
        out->thread_blocks += T;
        out->on_blocks += O;
        int p = parent ? parent[k] : -1;
        int guarded = p >= 0 && p < nb && p != k && lanes[p] > 0;
        double per = guarded ? lanes[p] : lanes[k];
        if (per <= 0) {
            out->thread_unpriced += T;
            continue;
        }
        out->priced[k] = 1;
        out->inst[k] = T / per;
        out->cycles[k] = C / per;
        out->useful[k] = lanes[k] > 0 ? O / lanes[k] : 0;
        if (guarded) {
            out->pred_inst[k] = out->inst[k];
            out->pred_cost[k] = out->cycles[k];
        }
    }
done:
    free(first);
    free(end);
    free(blk);
    free(thr);
    free(on);
    free(acc);
    free(seen);
    dh_sass_free(&s);
    dh_bb_markers_free(&m);
    if (rc)
        dh_measured_free(out);
    return rc;
}
