/* shards.c — a merge checked against the plans of its inputs (shards.h). */
#include "shards.h"

#include <stdlib.h>
#include <string.h>

static int same_plan(const struct dh_plan_rec *a, const struct dh_plan_rec *b)
{
    return !strcmp(a->hash, b->hash) && a->shards == b->shards && a->cases == b->cases;
}

static void add_file(char *list, size_t len, const char *name)
{
    size_t o = strlen(list);
    if (o < len)
        snprintf(list + o, len - o, "%s%s", o ? ", " : "", name);
}

/* one plan: the inputs member[0..nm) (indices into in) */
static int check_one(const struct dh_resultfile *in, const char *const *names,
                     const int *member, int nm, struct dh_plan_rec **merged, FILE *msgs,
                     struct dh_err *err)
{
    const struct dh_plan_rec *p = in[member[0]].plan;
    const struct dh_plan_rec *withids = NULL;
    for (int m = 0; m < nm && !withids; m++)
        if (in[member[m]].plan->ids)
            withids = in[member[m]].plan;
    int N = p->shards;
    struct dh_shard_note *notes = calloc((size_t)N, sizeof *notes);
    char (*missing)[320] = calloc((size_t)N, sizeof *missing);
    int *shown = calloc((size_t)N, sizeof *shown);
    if (!notes || !missing || !shown) {
        free(notes);
        free(missing);
        free(shown);
        return dh_err_set(err, DH_E_RESOURCES, "out of memory");
    }
    for (int k = 0; k < N; k++)
        notes[k].index = k + 1;
    /* who says they are which shard: a shard's own file, or a merged file
     * whose notes say the shard came back whole */
    for (int m = 0; m < nm; m++) {
        const struct dh_plan_rec *q = in[member[m]].plan;
        if (q->shard > 0) {
            notes[q->shard - 1].claims++;
            add_file(notes[q->shard - 1].files, sizeof notes[0].files, names[member[m]]);
        }
        for (int t = 0; t < q->n_notes; t++)
            if (q->notes[t].state == DH_SHARD_OK && q->notes[t].index <= N) {
                notes[q->notes[t].index - 1].claims++;
                add_file(notes[q->notes[t].index - 1].files, sizeof notes[0].files,
                         names[member[m]]);
            }
    }
    /* every planned case: has one of the plan's files a finished run of it? */
    for (int i = 0; withids && i < withids->cases; i++) {
        struct dh_shard_note *nt = &notes[withids->ids[i].shard - 1];
        nt->planned++;
        int found = 0;
        for (int m = 0; m < nm && !found; m++) {
            const struct dh_resultfile *f = &in[member[m]];
            for (int r = 0; r < f->n_runs && !found; r++)
                found = f->runs[r].r.status != DH_E_INTERRUPTED
                        && !strcmp(f->runs[r].c.id, withids->ids[i].id);
        }
        if (found) {
            nt->ran++;
        } else {
            /* the first missing ids that fit whole */
            char *ms = missing[nt->index - 1];
            size_t o = strlen(ms);
            if (shown[nt->index - 1] < 2 && o + strlen(withids->ids[i].id) + 3 < sizeof missing[0]) {
                snprintf(ms + o, sizeof missing[0] - o, "%s%s", o ? ", " : "", withids->ids[i].id);
                shown[nt->index - 1]++;
            }
        }
    }
    int problems = 0;
    for (int k = 0; k < N; k++) {
        struct dh_shard_note *nt = &notes[k];
        int lost = nt->planned - nt->ran;
        char more[40] = "";
        if (lost > shown[k])
            snprintf(more, sizeof more, "%s%d more", shown[k] ? " and " : "", lost - shown[k]);
        if (withids ? (lost == 0 && (nt->claims || nt->planned)) : nt->claims > 0) {
            nt->state = DH_SHARD_OK;
        } else if (nt->claims == 0 && nt->ran == 0) {
            nt->state = DH_SHARD_MISSING;
            if (withids && !nt->planned)
                snprintf(nt->message, sizeof nt->message, "no results file among the inputs "
                         "(the shard had no cases)");
            else
                snprintf(nt->message, sizeof nt->message, "no results file among the inputs; "
                         "its %d case%s did not run%s%s%s", nt->planned,
                         nt->planned == 1 ? "" : "s", lost ? ": " : "", missing[k], more);
        } else {
            nt->state = DH_SHARD_INCOMPLETE;
            snprintf(nt->message, sizeof nt->message, "%d of its %d cases have no run "
                     "(the shard stopped early?): %s%s", lost, nt->planned, missing[k], more);
        }
        if (nt->state != DH_SHARD_OK) {
            problems++;
            if (msgs)
                fprintf(msgs, "harness merge: shard %d/%d of plan %s is %s%s%s%s: %s\n",
                        k + 1, N, p->hash, dh_shard_state_name(nt->state),
                        nt->files[0] ? " (" : "", nt->files, nt->files[0] ? ")" : "",
                        nt->message);
        }
        if (nt->claims > 1 && msgs)
            fprintf(msgs, "harness merge: shard %d/%d of plan %s is in %d files (%s): the "
                    "later run of each case is kept\n", k + 1, N, p->hash, nt->claims,
                    nt->files);
    }
    free(missing);
    free(shown);
    if (merged) {
        struct dh_plan_rec *o = calloc(1, sizeof *o);
        if (o && withids)
            o->ids = malloc((size_t)(withids->cases ? withids->cases : 1) * sizeof *o->ids);
        if (!o || (withids && !o->ids)) {
            dh_plan_rec_free(o);
            free(notes);
            return dh_err_set(err, DH_E_RESOURCES, "out of memory");
        }
        snprintf(o->hash, sizeof o->hash, "%s", p->hash);
        o->cases = p->cases;
        o->shards = N;
        if (withids)
            memcpy(o->ids, withids->ids, (size_t)withids->cases * sizeof *o->ids);
        o->notes = notes;
        o->n_notes = N;
        *merged = o;
    } else {
        free(notes);
    }
    return problems;
}

int dh_shards_check(const struct dh_resultfile *in, const char *const *names, int nin,
                    int mixed_ok, struct dh_plan_rec **merged, FILE *msgs, struct dh_err *err)
{
    if (merged)
        *merged = NULL;
    int *plan_of = malloc((size_t)(nin ? nin : 1) * sizeof *plan_of);
    int *member = malloc((size_t)(nin ? nin : 1) * sizeof *member);
    if (!plan_of || !member) {
        free(plan_of);
        free(member);
        return dh_err_set(err, DH_E_RESOURCES, "out of memory");
    }
    /* plan_of[i]: the first input of i's plan, -1 without one */
    int nplans = 0;
    for (int i = 0; i < nin; i++) {
        plan_of[i] = -1;
        if (!in[i].plan)
            continue;
        for (int j = 0; j < i && plan_of[i] < 0; j++)
            if (in[j].plan && same_plan(in[j].plan, in[i].plan))
                plan_of[i] = plan_of[j];
        if (plan_of[i] < 0) {
            plan_of[i] = i;
            nplans++;
        }
    }
    int rc = 0;
    if (nplans > 1 && !mixed_ok) {
        char text[3000] = "";
        size_t o = 0;
        for (int i = 0; i < nin && o < sizeof text; i++) {
            if (plan_of[i] != i)
                continue;
            o += (size_t)snprintf(text + o, sizeof text - o, "%splan %s (%d cases, %d shard%s):",
                                  o ? "; " : "", in[i].plan->hash, in[i].plan->cases,
                                  in[i].plan->shards, in[i].plan->shards == 1 ? "" : "s");
            for (int j = i; j < nin && o < sizeof text; j++)
                if (plan_of[j] == i)
                    o += (size_t)snprintf(text + o, sizeof text - o, " %s", names[j]);
        }
        rc = dh_err_set(err, DH_E_DATA, "the inputs are shards of %d different plans (%s): "
                        "merge each plan's shards on their own, or add --mixed-plans to join "
                        "them anyway", nplans, text);
    } else {
        for (int i = 0; i < nin && rc >= 0; i++) {
            if (plan_of[i] != i)
                continue;
            int nm = 0;
            for (int j = i; j < nin; j++)
                if (plan_of[j] == i)
                    member[nm++] = j;
            int pr = check_one(in, names, member, nm, nplans == 1 ? merged : NULL, msgs, err);
            rc = pr < 0 ? pr : rc + pr;
        }
    }
    free(plan_of);
    free(member);
    return rc;
}
