/* fuzz_results.c — the results reader (results/xml_read.c) on any bytes,
 * with a write-and-read-back oracle: what the reader accepts, the writer
 * writes and the reader accepts again, with the same runs, statuses and
 * samples and the same plan (a sharded run's); a second round trip
 * changes nothing. */
#include <math.h>
#include <stdint.h>

#include "fuzz.h"
#include "../results/xml.h"
#include "../harness/stats/derive.h"

static void same(const struct dh_resultfile *a, const struct dh_resultfile *b, int exact)
{
    FUZZ_CHECK(a->n_runs == b->n_runs, "runs %d, read back %d", a->n_runs, b->n_runs);
    FUZZ_CHECK(!a->plan == !b->plan, "plan %s, read back %s", a->plan ? "present" : "absent",
               b->plan ? "present" : "absent");
    if (a->plan) {
        const struct dh_plan_rec *p = a->plan, *q = b->plan;
        FUZZ_CHECK(!strcmp(p->hash, q->hash) && p->cases == q->cases && p->shards == q->shards
                   && p->shard == q->shard && p->n_notes == q->n_notes && !p->ids == !q->ids,
                   "plan %s %d/%d read back as %s %d/%d", p->hash, p->shard, p->shards,
                   q->hash, q->shard, q->shards);
        for (int i = 0; p->ids && i < p->cases; i++)
            FUZZ_CHECK(!strcmp(p->ids[i].id, q->ids[i].id) && p->ids[i].shard == q->ids[i].shard,
                       "plan case %d read back otherwise", i);
        for (int i = 0; i < p->n_notes; i++)
            FUZZ_CHECK(p->notes[i].index == q->notes[i].index
                       && p->notes[i].state == q->notes[i].state
                       && p->notes[i].ran == q->notes[i].ran
                       && !strcmp(p->notes[i].message, q->notes[i].message),
                       "shard note %d read back otherwise", i);
    }
    for (int i = 0; i < a->n_runs; i++) {
        const struct dh_run *x = &a->runs[i], *y = &b->runs[i];
        FUZZ_CHECK(!strcmp(x->c.id, y->c.id), "run %d id '%s' read back as '%s'", i, x->c.id,
                   y->c.id);
        FUZZ_CHECK(x->r.status == y->r.status, "run %d status %d read back as %d", i,
                   x->r.status, y->r.status);
        FUZZ_CHECK(x->r.n == y->r.n, "run %d samples %d read back as %d", i, x->r.n, y->r.n);
        for (int k = 0; k < x->r.n; k++) {
            double p = x->r.kernel_ms[k], q = y->r.kernel_ms[k];
            FUZZ_CHECK(exact ? p == q : fabs(p - q) <= 1e-8 * fabs(p),
                       "run %d sample %d %.17g read back as %.17g", i, k, p, q);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *in = fuzz_file("in.xml", data, size);
    struct dh_resultfile a, b, c;
    struct dh_err e = {0};
    if (dh_xml_read(in, &a, &e))
        return 0;                                  /* refused, with a reason: fine */
    dh_run_derive(a.runs, a.n_runs);
    char out[128];
    snprintf(out, sizeof out, "%s/out.xml", fuzz_dir());
    FUZZ_CHECK(!dh_xml_write_plan(out, &a.env, &a.devs, a.runs, a.n_runs, a.plan, &e),
               "write: %s", e.msg);
    FUZZ_CHECK(!dh_xml_read(out, &b, &e), "the harness's own file refused: %s", e.msg);
    same(&a, &b, 0);
    dh_run_derive(b.runs, b.n_runs);
    FUZZ_CHECK(!dh_xml_write_plan(out, &b.env, &b.devs, b.runs, b.n_runs, b.plan, &e),
               "write: %s", e.msg);
    FUZZ_CHECK(!dh_xml_read(out, &c, &e), "second read back refused: %s", e.msg);
    same(&b, &c, 1);
    dh_resultfile_free(&a);
    dh_resultfile_free(&b);
    dh_resultfile_free(&c);
    return 0;
}
