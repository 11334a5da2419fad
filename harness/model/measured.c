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
                      const double *warps, const int *parent, int nb, struct dh_measured *out,
                      struct dh_err *err)
{
    memset(out, 0, sizeof *out);
    struct dh_sass s;
    struct dh_bb_markers m;
    int rc = dh_sass_load(listing, source, options, &s, &m, err);
    if (rc)
        return rc;
    char at[160] = "";
    size_t n = (size_t)(s.n > 0 ? s.n : 1), nf = (size_t)(s.n_funcs > 0 ? s.n_funcs : 1);
    long *first = malloc(nf * sizeof *first), *end = malloc(nf * sizeof *end);
    int *blk = malloc(n * sizeof *blk), *fb = malloc(n * sizeof *fb);
    double *iss = calloc(n, sizeof *iss);
    double *thr = calloc(n, sizeof *thr), *on = calloc(n, sizeof *on);
    double *acc = calloc((size_t)(nb > 0 ? nb : 1) * 3, sizeof *acc);   /* T, O, C */
    char *seen = calloc(nf, 1), *owns = calloc((size_t)(nb > 0 ? nb : 1), 1);
    out->inst = calloc((size_t)(nb > 0 ? nb : 1) * 3, sizeof *out->inst);
    out->priced = calloc((size_t)(nb > 0 ? nb : 1), sizeof *out->priced);
    if (!first || !end || !blk || !fb || !iss || !thr || !on || !acc || !seen || !owns ||
        !out->inst || !out->priced) {
        rc = dh_err_set(err, DH_E_RESOURCES, "out of host memory");
        goto done;
    }
    out->nb = nb;
    out->cycles = out->inst + nb;
    out->useful = out->inst + 2 * nb;
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
        iss[i] += p->inst;
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
    /* the blocks the listing gives code of their own */
    for (long i = 0; i < s.n; i++)
        if (blk[i] >= 0 && blk[i] < nb)
            owns[blk[i]] = 1;
    /* each instruction's context: its block, or the block around it */
    for (long i = 0; i < s.n; i++) {
        fb[i] = blk[i];
        int k = blk[i];
        if (k < 0 || k >= nb || thr[i] <= 0)
            continue;
        /* run by fewer lanes than its block, by exactly as many as ran a
         * block the listing gives no code, and as often as the model
         * counts that block's warp executions: that block's code (a
         * division's slow path under a test the profiling build marks as
         * a block of its own: bbv/mc's divz) */
        if (thr[i] < lanes[k] && warps) {
            int hit = -1, hits = 0;
            for (int b = 0; b < nb; b++)
                if (b != k && lanes[b] > 0 && lanes[b] == thr[i] && warps[b] == iss[i] &&
                    !owns[b])
                    hit = b, hits++;
            if (hits == 1) {
                fb[i] = hit;
                continue;
            }
        }
        int p = parent && parent[k] >= 0 ? parent[k] : dh_sass_block_outer(&s, &s.v[i], &m, k);
        if (p < 0 || p >= nb || p == k)
            continue;
        if (lanes[k] <= 0) {                     /* the code ran, its block never did */
            fb[i] = p;
            continue;
        }
        if (!warps) {
            if (parent && parent[k] == p)
                fb[i] = p;
            continue;
        }
        double lk = warps[k] > 0 ? lanes[k] / warps[k] : 0;
        double lp = warps[p] > 0 ? lanes[p] / warps[p] : 0;
        double a = iss[i] > 0 ? thr[i] / iss[i] : 0;
        if (lp > 1.25 * lk && a * a > lk * lp)
            fb[i] = p;
    }
    /* per block; a subroutine's share to each calling block by the lanes
     * of its calls */
    for (long i = 0; i < s.n; i++) {
        if (thr[i] <= 0 && on[i] <= 0)
            continue;
        double c = dh_sass_op_cost(s.v[i].op, NULL);
        if (fb[i] >= 0 && fb[i] < nb) {
            out->warp_blocks += iss[i];
            acc[3 * fb[i]] += thr[i];
            acc[3 * fb[i] + 1] += on[i];
            acc[3 * fb[i] + 2] += thr[i] * c;
            if (fb[i] != blk[i])
                out->thread_moved += thr[i];
            continue;
        }
        if (blk[i] != -3)
            continue;
        long e = sub_entry(&s, i);
        double calls = 0;
        for (long j = 0; e >= 0 && j < s.n; j++)
            if (s.v[j].func == s.v[i].func && !strncmp(s.v[j].op, "CALL", 4) &&
                s.v[j].target == e && fb[j] >= 0 && fb[j] < nb)
                calls += thr[j];
        for (long j = 0; calls > 0 && j < s.n; j++)
            if (s.v[j].func == s.v[i].func && !strncmp(s.v[j].op, "CALL", 4) &&
                s.v[j].target == e && fb[j] >= 0 && fb[j] < nb && thr[j] > 0) {
                double w = thr[j] / calls;
                out->warp_blocks += w * iss[i];
                acc[3 * fb[j]] += w * thr[i];
                acc[3 * fb[j] + 1] += w * on[i];
                acc[3 * fb[j] + 2] += w * thr[i] * c;
            }
    }
    for (int k = 0; k < nb; k++) {
        double T = acc[3 * k], O = acc[3 * k + 1], C = acc[3 * k + 2];
        out->thread_blocks += T;
        out->on_blocks += O;
        if (lanes[k] <= 0) {
            out->thread_unpriced += T;
            continue;
        }
        out->priced[k] = 1;
        out->inst[k] = T / lanes[k];
        out->cycles[k] = C / lanes[k];
        out->useful[k] = O / lanes[k];
    }
done:
    free(first);
    free(end);
    free(blk);
    free(fb);
    free(iss);
    free(thr);
    free(on);
    free(acc);
    free(seen);
    free(owns);
    dh_sass_free(&s);
    dh_bb_markers_free(&m);
    if (rc)
        dh_measured_free(out);
    return rc;
}

#define DH_PCS_MAGIC "# divharness pc counts 1: "
#define DH_PCS_MAX 50000000L           /* records a file may hold */

int dh_pc_counts_write(FILE *f, const char *key, const struct dh_pc_count *pc, long n)
{
    if (fprintf(f, "%s%s\n", DH_PCS_MAGIC, key) < 0)
        return -1;
    for (long i = 0; i < n; i++)
        if (fprintf(f, "%s\t%x\t%.17g\t%.17g\t%.17g\n", pc[i].func, pc[i].pc, pc[i].inst,
                    pc[i].thread, pc[i].pred_on) < 0)
            return -1;
    return 0;
}

/* A count: a finite, non-negative decimal number, beginning with a digit
 * or a point (no sign and no white space, which strtod would skip: "\t-0"
 * read as a count is written back as "-0"); the end of it in *end. */
static int count_field(const char *p, char stop, double *v, const char **end)
{
    char *e;
    if (!((*p >= '0' && *p <= '9') || *p == '.') || *p == stop)
        return -1;
    *v = strtod(p, &e);
    if (e == p || *e != stop || !(*v >= 0) || *v > 1e300)
        return -1;
    *end = e;
    return 0;
}

int dh_pc_counts_read(const char *text, const char *key, struct dh_pc_count **out, long *n,
                      struct dh_err *err)
{
    *out = NULL;
    *n = 0;
    size_t ml = strlen(DH_PCS_MAGIC);
    const char *nl = strchr(text, '\n');
    if (strncmp(text, DH_PCS_MAGIC, ml) || !nl)
        return dh_err_set(err, DH_E_DATA, "line 1: not a file of per-instruction counts "
                          "(it begins \"%s\")", DH_PCS_MAGIC);
    if ((size_t)(nl - text) - ml != strlen(key) || strncmp(text + ml, key, strlen(key)))
        return dh_err_set(err, DH_E_DATA, "line 1: the counts are of %.*s, not of %s: record "
                          "them for this workload (DH_MEASURED_DUMP on the GPU machine)",
                          (int)((size_t)(nl - text) - ml > 300 ? 300 : (size_t)(nl - text) - ml),
                          text + ml, key);
    struct dh_pc_count *v = NULL;
    long cap = 0, line = 1;
    for (const char *p = nl + 1; *p; line++) {
        const char *eol = strchr(p, '\n');
        if (!eol)
            eol = p + strlen(p);
        if (*n >= DH_PCS_MAX) {
            free(v);
            return dh_err_set(err, DH_E_DATA, "line %ld: more than %ld records", line + 1,
                              DH_PCS_MAX);
        }
        if (*n == cap) {
            long nc = cap ? 2 * cap : 1024;
            struct dh_pc_count *t = realloc(v, (size_t)nc * sizeof *t);
            if (!t) {
                free(v);
                return dh_err_set(err, DH_E_RESOURCES, "out of host memory");
            }
            v = t;
            cap = nc;
        }
        struct dh_pc_count *r = &v[*n];
        memset(r, 0, sizeof *r);
        const char *tab = memchr(p, '\t', (size_t)(eol - p)), *q;
        char *e;
        int bad = !tab || tab == p || (size_t)(tab - p) >= sizeof r->func;
        unsigned long pcv = 0;
        if (!bad) {
            memcpy(r->func, p, (size_t)(tab - p));
            for (const char *c = p; c < tab; c++)
                bad |= (unsigned char)*c < 0x21 || *c == 0x7f;
            q = tab + 1;
            bad |= !((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'f'));
            if (!bad) {
                pcv = strtoul(q, &e, 16);
                bad = *e != '\t' || pcv > 0xffffffffUL;
                q = e + 1;
            }
            bad = bad || count_field(q, '\t', &r->inst, &q) ||
                  count_field(q + 1, '\t', &r->thread, &q) ||
                  count_field(q + 1, *eol ? '\n' : 0, &r->pred_on, &q) ||
                  r->pred_on > r->thread;
        }
        if (bad) {
            free(v);
            return dh_err_set(err, DH_E_DATA, "line %ld: not \"FUNC<TAB>PC<TAB>INST<TAB>THREAD"
                              "<TAB>PRED_ON\" with hex PC and counts >= 0 (PRED_ON <= THREAD)",
                              line + 1);
        }
        r->pc = (unsigned)pcv;
        (*n)++;
        p = *eol ? eol + 1 : eol;
    }
    *out = v;
    return 0;
}
