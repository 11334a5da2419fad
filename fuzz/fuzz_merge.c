/* fuzz_merge.c — `harness merge` on any results file the reader accepts,
 * joined with itself and with a second file of the same bytes: whatever
 * merge decides (joined, or refused with its exit code), what it writes
 * is a results file the reader accepts, holding each of the input's cases
 * once and no other; merging the output again changes none of its cases. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz.h"
#include "../harness/cli/cli.h"
#include "../harness/stats/load.h"
#include "../results/xml.h"

/* the index of id among f's runs, or -1 */
static int find(const struct dh_resultfile *f, const char *id)
{
    for (int i = 0; i < f->n_runs; i++)
        if (!strcmp(f->runs[i].c.id, id))
            return i;
    return -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *a = fuzz_file("a.xml", data, size);
    const char *b = fuzz_file("b.xml", data, size);
    struct dh_resultfile in, out, again;
    struct dh_err e = {0};
    if (dh_results_load(a, &in, &e))
        return 0;                                  /* refused, with a reason: fine */
    char o[200], o2[200];
    snprintf(o, sizeof o, "%s/merged.xml", fuzz_dir());
    snprintf(o2, sizeof o2, "%s/merged2.xml", fuzz_dir());
    unlink(o);
    unlink(o2);
    FILE *null = freopen("/dev/null", "w", stdout);
    (void)null;
    char *argv[] = {"merge", o, (char *)a, (char *)b, "--mixed-plans", NULL};
    int rc = dh_cmd_merge(5, argv);
    if (access(o, F_OK)) {                         /* refused: nothing written */
        FUZZ_CHECK(rc != 0, "merge exit 0 without writing %s", o);
        dh_resultfile_free(&in);
        return 0;
    }
    FUZZ_CHECK(!dh_results_load(o, &out, &e), "merge wrote a file the reader refuses: %s",
               e.msg);
    for (int i = 0; i < out.n_runs; i++) {
        FUZZ_CHECK(find(&in, out.runs[i].c.id) >= 0, "merged case %s is in no input",
                   out.runs[i].c.id);
        for (int j = 0; j < i; j++)
            FUZZ_CHECK(strcmp(out.runs[i].c.id, out.runs[j].c.id), "case %s merged twice",
                       out.runs[i].c.id);
    }
    for (int i = 0; i < in.n_runs; i++)
        FUZZ_CHECK(find(&out, in.runs[i].c.id) >= 0 || in.runs[i].r.status == -1,
                   "case %s lost in the merge", in.runs[i].c.id);
    /* the output merged again: the same cases, the same samples */
    char *argv2[] = {"merge", o2, o, "--mixed-plans", NULL};
    (void)dh_cmd_merge(4, argv2);
    if (!access(o2, F_OK)) {
        FUZZ_CHECK(!dh_results_load(o2, &again, &e), "a second merge wrote a refused file: %s",
                   e.msg);
        FUZZ_CHECK(again.n_runs == out.n_runs, "a second merge has %d cases, the first %d",
                   again.n_runs, out.n_runs);
        for (int i = 0; i < out.n_runs; i++) {
            int k = find(&again, out.runs[i].c.id);
            FUZZ_CHECK(k >= 0, "case %s lost in the second merge", out.runs[i].c.id);
            FUZZ_CHECK(again.runs[k].r.n == out.runs[i].r.n, "case %s: %d samples, then %d",
                       out.runs[i].c.id, out.runs[i].r.n, again.runs[k].r.n);
        }
        dh_resultfile_free(&again);
    }
    dh_resultfile_free(&out);
    dh_resultfile_free(&in);
    return 0;
}
