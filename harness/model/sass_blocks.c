/* sass_blocks.c — each instruction of a listing to its DH_BB block, and
 * per block: instructions, issue cost, predicated, loops; see sass.h. */
#include "sass.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the mapping ---- */

/* nvdisasm names files as NVRTC saw them, possibly with a directory in
 * front ("/tmp/suites/x.k" for "suites/x.k"). */
static int same_file(const char *listing, const char *source)
{
    size_t a = strlen(listing), b = strlen(source);
    if (a < b)
        return 0;
    if (a == b)
        return !strcmp(listing, source);
    return listing[a - b - 1] == '/' && !strcmp(listing + a - b, source);
}

static int block_of(const struct dh_sass *s, const struct dh_sass_inst *in,
                    const struct dh_bb_markers *m, int pair[2], int *marker, int exclude);

int dh_sass_block_of(const struct dh_sass *s, const struct dh_sass_inst *in,
                     const struct dh_bb_markers *m, int pair[2])
{
    int marker;
    return block_of(s, in, m, pair, &marker, -1);
}

int dh_sass_load(const char *listing, const char *source, const char *options,
                 struct dh_sass *s, struct dh_bb_markers *m, struct dh_err *err)
{
    int rc = dh_sass_parse(listing, s, err);
    if (!rc)
        rc = dh_bb_markers_scan(source, options, m, err);
    if (rc)
        dh_sass_free(s);
    return rc;
}

int dh_sass_block_outer(const struct dh_sass *s, const struct dh_sass_inst *in,
                        const struct dh_bb_markers *m, int block)
{
    int marker;
    return block_of(s, in, m, NULL, &marker, block);
}

/* A parameter id of marker k, deciding at frame f: the argument at the
 * call site (frame f+1), or, where that is the caller's parameter, at its
 * call site in turn. -1 unknown, -2 two calls on one line. */
static int resolve_param(const struct dh_sass *s, const struct dh_sass_inst *in,
                         const struct dh_bb_markers *m, const struct dh_bb_marker *k, int f,
                         int pair[2])
{
    const char *fn = k->func;
    int param = k->param;
    long off = k->offset;
    for (int g = f + 1; g < in->n_frames; g++) {
        const struct dh_bb_call *hit = NULL;
        for (int c = 0; c < m->n_calls; c++) {
            const struct dh_bb_call *call = &m->calls[c];
            if (call->line != in->fr[g].line || strcmp(call->func, fn) ||
                !same_file(s->files[in->fr[g].file], call->file))
                continue;
            if (hit && (hit->args[param] != call->args[param] ||
                        hit->arg_param[param] != call->arg_param[param] ||
                        hit->arg_off[param] != call->arg_off[param])) {
                if (pair) {           /* two calls on one line, two blocks */
                    pair[0] = hit->args[param] == LONG_MIN ? -1
                              : (int)(hit->args[param] + off);
                    pair[1] = call->args[param] == LONG_MIN ? -1
                              : (int)(call->args[param] + off);
                }
                return -2;
            }
            hit = call;
        }
        if (!hit)
            return -1;
        if (hit->args[param] != LONG_MIN) {
            long id = hit->args[param] + off;
            return id >= 0 && id <= 1 << 20 ? (int)id : -1;
        }
        if (hit->arg_param[param] < 0)
            return -1;
        off += hit->arg_off[param];
        param = hit->arg_param[param];
        fn = hit->caller;
    }
    return -1;
}

/* ... and *marker, the deciding marker (its form: DH_BB or DH_BB_N).
 * exclude >= 0: as if block `exclude` were not marked (the block around
 * it: its parent) */
static int block_of(const struct dh_sass *s, const struct dh_sass_inst *in,
                    const struct dh_bb_markers *m, int pair[2], int *marker, int exclude)
{
    *marker = -1;
    for (int f = 0; f < in->n_frames; f++) {
        const char *file = s->files[in->fr[f].file];
        int line = in->fr[f].line, best = -1, skip = -1;
    again:
        best = -1;
        for (int i = 0; i < m->n; i++) {
            const struct dh_bb_marker *k = &m->v[i];
            if (line < (k->first > 0 ? k->first : k->line) || line > k->last ||
                !same_file(file, k->file) ||
                (exclude >= 0 && k->id == exclude) || (skip >= 0 && k->line >= skip))
                continue;
            if (best < 0 || k->line > m->v[best].line) {
                best = i;
            } else if (k->line == m->v[best].line && k->id != m->v[best].id) {
                if (pair) {
                    pair[0] = m->v[best].id;
                    pair[1] = k->id;
                }
                return -2;
            }
        }
        if (best < 0)
            continue;
        int id;
        if (m->v[best].id < 0 && m->v[best].func[0]) {
            id = resolve_param(s, in, m, &m->v[best], f, pair);
            if (exclude >= 0 && id == exclude) {
                /* the region around it in this frame (a marker of the
                 * same function above it), else further out */
                skip = m->v[best].line;
                goto again;
            }
        } else if (m->v[best].id < 0) {
            id = -1;
        } else {
            id = m->v[best].id;
            /* another block marked on the same line: shared */
            for (int i = 0; i < m->n; i++)
                if (i != best && m->v[i].line == m->v[best].line &&
                    m->v[i].id != m->v[best].id && same_file(file, m->v[i].file) &&
                    line <= m->v[i].last && !(exclude >= 0 && m->v[i].id == exclude)) {
                    if (pair) {
                        pair[0] = m->v[best].id;
                        pair[1] = m->v[i].id;
                    }
                    return -2;
                }
        }
        *marker = best;
        return id;
    }
    return -1;
}

/* The constant trip count of the `for` behind a back branch: its frames
 * from the innermost out, the first on a recorded for-line; -1: none. */
static long trips_of(const struct dh_sass *s, const struct dh_sass_inst *br,
                     const struct dh_bb_markers *m, int *frame)
{
    for (int f = 0; f < br->n_frames; f++)
        for (int i = 0; i < m->n_loops; i++)
            if (m->loops[i].line == br->fr[f].line &&
                same_file(s->files[br->fr[f].file], m->loops[i].file)) {
                *frame = f;
                return m->loops[i].trips;
            }
    return -1;
}

/* The loop counter's step: `IADD3 Rx, Rx, imm, ...` / `VIADD Rx, Rx, imm`
 * (a 32-bit register counting itself; a 64-bit pointer add, with its
 * carry predicate, is no counter): |imm|, else 0. */
long dh_sass_counter_step(const struct dh_sass_inst *in)
{
    if (strcmp(in->op, "IADD3") && strcmp(in->op, "VIADD") && strcmp(in->op, "IADD"))
        return 0;
    char d[16], s[16];
    int used = 0;
    if (sscanf(in->args, " %15[^, ] , %15[^, ] ,%n", d, s, &used) != 2 || !used ||
        strcmp(d, s) || d[0] != 'R' || !strcmp(d, "RZ"))
        return 0;
    const char *p = in->args + used;
    while (*p == ' ')
        p++;
    char *end;
    long v = strtol(p, &end, 0);
    if (end == p || (*end && *end != ',' && *end != ' '))
        return 0;
    return v < 0 ? -v : v;
}

/* in belongs to the `for` line at frame f of br: same line, file and
 * inlining */
static int on_for_line(const struct dh_sass_inst *in, const struct dh_sass_inst *br, int f)
{
    if (in->n_frames != br->n_frames - f)
        return 0;
    for (int k = 0; k < in->n_frames; k++)
        if (in->fr[k].line != br->fr[f + k].line || in->fr[k].file != br->fr[f + k].file)
            return 0;
    return 1;
}

struct sass_loop {
    unsigned lo, hi;              /* [target, back branch] */
    int block;
    long trips;                   /* the source loop's, -1 unknown */
    int unroll;
};

/* the largest count of one (opcode, innermost line) among the block's
 * instructions i with sel(i) */
static int most_repeated(const struct dh_sass *s, const int *blk, int b, const char *sel)
{
    int most = 0;
    for (int i = 0; i < s->n; i++) {
        if (blk[i] != b || !sel[i])
            continue;
        int n = 0, li = s->v[i].n_frames ? s->v[i].fr[0].line : 0;
        for (int j = i; j < s->n; j++)
            if (blk[j] == b && sel[j] && !strcmp(s->v[j].op, s->v[i].op) &&
                (s->v[j].n_frames ? s->v[j].fr[0].line : 0) == li)
                n++;
        if (n > most)
            most = n;
    }
    return most > 0 ? most : 1;
}

void dh_sass_blocks(const struct dh_sass *s, int func, const struct dh_bb_markers *m, int nb,
                    struct dh_sass_block *out, int *unmarked, int *shared)
{
    memset(out, 0, (size_t)nb * sizeof *out);
    *unmarked = *shared = 0;
    size_t n = (size_t)(s->n > 0 ? s->n : 1);
    int *blk = malloc(n * sizeof *blk);
    int *inner = malloc(n * sizeof *inner);       /* innermost loop of the block, or -1 */
    char *sel = calloc(n, 1);
    struct sass_loop *loops = malloc(n * sizeof *loops);
    int n_loops = 0;
    if (!blk || !inner || !sel || !loops) {
        free(blk);
        free(inner);
        free(sel);
        free(loops);
        return;
    }
    for (int b = 0; b < nb; b++)
        out[b].count = -1;
    for (int i = 0; i < m->n; i++)
        if (m->v[i].id >= 0 && m->v[i].id < nb && m->v[i].n_form) {
            out[m->v[i].id].n_form = 1;
            out[m->v[i].id].count = m->v[i].count;
        }
    for (int i = 0; i < s->n; i++) {
        blk[i] = -1;
        inner[i] = -1;
        if (s->v[i].func != func)
            continue;
        /* alignment padding and the unreachable self-branch after EXIT
         * are never issued */
        if (!strcmp(s->v[i].op, "NOP") || s->v[i].sub ||
            (!strcmp(s->v[i].op, "BRA") && s->v[i].target == (long)s->v[i].addr))
            continue;
        int pair[2] = {-1, -1}, mk = -1;
        blk[i] = block_of(s, &s->v[i], m, pair, &mk, -1);
        /* a parameter id's form is known once bound */
        if (blk[i] >= 0 && blk[i] < nb && mk >= 0 && m->v[mk].n_form) {
            out[blk[i]].n_form = 1;
            out[blk[i]].count = m->v[mk].count;
        }
        if (blk[i] == -1)
            (*unmarked)++;

        if (blk[i] == -2) {
            (*shared)++;
            for (int k = 0; k < 2; k++)
                if (pair[k] >= 0 && pair[k] < nb)
                    out[pair[k]].shared++;
        }
    }
    /* a back branch of block b makes [target, branch] a loop of b; an
     * instruction of b belongs to the smallest such loop around it */
    for (int i = 0; i < s->n; i++) {
        const struct dh_sass_inst *br = &s->v[i];
        if (br->func != func || br->target < 0 || br->target >= (long)br->addr || blk[i] < 0 ||
            blk[i] >= nb)
            continue;
        struct sass_loop *L = &loops[n_loops];
        int fb = 0;
        *L = (struct sass_loop){(unsigned)br->target, br->addr, blk[i], trips_of(s, br, m, &fb),
                                1};
        /* its unroll: the step of the counter the for's own line
         * updates (a source step of 1 counted u at a time); none (a
         * counter kept in predicates, say): 1. Without a recorded for
         * line, the back branch's own line is taken for it. */
        {
            long u = 0;
            for (int j = 0; j < s->n; j++) {
                if (s->v[j].func != func || s->v[j].addr < L->lo || s->v[j].addr > L->hi ||
                    !on_for_line(&s->v[j], br, fb))
                    continue;
                long st = dh_sass_counter_step(&s->v[j]);
                if (st > 0 && (u == 0 || st < u))
                    u = st;
            }
            L->unroll = u > 0 && (L->trips < 0 || u <= (L->trips > 0 ? L->trips : 1)) ? (int)u : 1;
        }
        for (int j = 0; j < s->n; j++) {
            if (s->v[j].func != func || blk[j] != L->block || s->v[j].addr < L->lo ||
                s->v[j].addr > L->hi)
                continue;
            if (inner[j] < 0 || loops[inner[j]].hi - loops[inner[j]].lo > L->hi - L->lo)
                inner[j] = n_loops;
        }
        n_loops++;
    }
    for (int l = 0; l < n_loops; l++) {
        struct dh_sass_block *o = &out[loops[l].block];
        o->loops++;
        o->loops_unknown += loops[l].trips < 0;
    }
    /* A DH_BB block inside its parent's loop (a guarded conditional of a
     * bracket loop, say) runs once a source iteration: its copies in the
     * loop body unrolled u times are u executions. Per execution, its
     * instructions inside a loop of the block they would fall to unmarked
     * count 1 / u, u the largest unroll of those loops, and its copies
     * outside them (peeled remainder iterations) not at all: the loop's
     * own block is priced on its loop body alone too (use_loop below). */
    int *fu = calloc((size_t)(nb > 0 ? nb : 1), sizeof *fu);
    char *inpl = calloc(n, 1);                    /* inside such a loop */
    for (int i = 0; fu && inpl && i < s->n; i++) {
        int b = blk[i], mk;
        if (b < 0 || b >= nb || out[b].n_form || inner[i] >= 0)
            continue;
        int p = -1;
        for (int l = 0; l < n_loops; l++) {
            if (loops[l].block == b || s->v[i].addr < loops[l].lo || s->v[i].addr > loops[l].hi)
                continue;
            if (p == -1)
                p = block_of(s, &s->v[i], m, NULL, &mk, b);
            if (loops[l].block != p)
                continue;
            inpl[i] = 1;
            if (loops[l].unroll > fu[b])
                fu[b] = loops[l].unroll;
        }
    }
    for (int i = 0; i < s->n; i++) {
        int b = blk[i];
        if (b < 0 || b >= nb)
            continue;
        const struct dh_sass_inst *in = &s->v[i];
        /* a call of a slow path (the IEEE division's or reciprocal's
         * `..._slowpath`, for special operands only) is not what the
         * block costs: neither it nor its subroutine is priced. Data that
         * takes it is marked as a block of its own (bbv/mc's divz, priced
         * by the latency table's fdivz). The moves around the call, in
         * the region the fast path branches over, are still counted. */
        if (!strncmp(in->op, "CALL", 4) && strstr(in->args, "_slowpath"))
            continue;
        int known = 1;
        double c = dh_sass_op_cost(in->op, &known);
        struct dh_sass_block *o = &out[b];
        o->insts++;
        o->cost += c;
        o->unknown_ops += !known;
        if (in->pred && !dh_sass_op_is_branch(in->op))
            o->predicated++;
        double w = 1;
        if (fu && inpl && fu[b] > 1)
            w = inpl[i] ? 1.0 / fu[b] : 0;
        if (inner[i] >= 0) {
            const struct sass_loop *L = &loops[inner[i]];
            o->loop_insts++;
            o->loop_cost += c;
            /* SASS iterations: the source loop's trips / its unroll */
            if (L->trips >= 0)
                w = (double)L->trips / L->unroll;
        }
        o->dyn_insts += w;
        o->dyn_cost += w * c;
        if (in->pred && !dh_sass_op_is_branch(in->op)) {
            o->dyn_pred += w;
            o->dyn_pred_cost += w * c;
            if (inner[i] >= 0) {
                o->loop_pred++;
                o->loop_pred_cost += c;
            }
        }
        /* a call: the subroutine's instructions, from its entry to its
         * first RET, once per call */
        if (!strncmp(in->op, "CALL", 4) && in->target >= 0) {
            for (int j = 0; j < s->n; j++) {
                const struct dh_sass_inst *t = &s->v[j];
                if (t->func != func || !t->sub || (long)t->addr < in->target)
                    continue;
                double ct = dh_sass_op_cost(t->op, NULL);
                o->insts++;
                o->cost += ct;
                o->called++;
                o->dyn_insts += w;
                o->dyn_cost += w * ct;
                if (!strncmp(t->op, "RET", 3))
                    break;
            }
        }
    }
    for (int b = 0; b < nb; b++) {
        struct dh_sass_block *o = &out[b];
        int use_loop = o->loop_insts > 0;
        if (use_loop) {
            o->unroll = 1;
            for (int l = 0; l < n_loops; l++)
                if (loops[l].block == b && loops[l].unroll > o->unroll)
                    o->unroll = loops[l].unroll;
        } else {
            for (int i = 0; i < s->n; i++)
                sel[i] = blk[i] == b;
            o->unroll = most_repeated(s, blk, b, sel);
        }
        if (o->n_form && o->count > 0) {
            o->inst_per_exec = o->dyn_insts / (double)o->count;
            o->cost_per_exec = o->dyn_cost / (double)o->count;
            o->pred_per_exec = o->dyn_pred / (double)o->count;
            o->pred_cost_per_exec = o->dyn_pred_cost / (double)o->count;
        } else if (o->n_form && use_loop) {
            o->inst_per_exec = (double)o->loop_insts / o->unroll;
            o->cost_per_exec = o->loop_cost / o->unroll;
            o->pred_per_exec = (double)o->loop_pred / o->unroll;
            o->pred_cost_per_exec = o->loop_pred_cost / o->unroll;
        } else if (o->n_form) {
            o->inst_per_exec = (double)o->insts / o->unroll;
            o->cost_per_exec = o->cost / o->unroll;
            o->pred_per_exec = (double)o->predicated / o->unroll;
            o->pred_cost_per_exec = o->dyn_pred_cost / o->unroll;
        } else {
            o->inst_per_exec = o->dyn_insts;
            o->cost_per_exec = o->dyn_cost;
            o->pred_per_exec = o->dyn_pred;
            o->pred_cost_per_exec = o->dyn_pred_cost;
        }
        /* the parent: where b's instructions go with b unmarked */
        o->parent = -1;
        int *tally = calloc((size_t)nb, sizeof *tally);
        for (int i = 0; tally && i < s->n; i++) {
            if (blk[i] != b)
                continue;
            int mk, p = block_of(s, &s->v[i], m, NULL, &mk, b);
            if (p >= 0 && p < nb && p != b)
                tally[p]++;
        }
        for (int p = 0; tally && p < nb; p++)
            if (tally[p] > 0 && (o->parent < 0 || tally[p] > tally[o->parent]))
                o->parent = p;
        free(tally);
    }
    free(fu);
    free(inpl);
    free(blk);
    free(inner);
    free(sel);
    free(loops);
}

