/* load.c — see load.h. */
#include "load.h"

#include "../../suites/suite.h"
#include "derive.h"

int dh_results_load(const char *path, struct dh_resultfile *out, struct dh_err *err)
{
    int rc = dh_xml_read(path, out, err);
    if (rc)
        return rc;
    for (int i = 0; i < out->n_runs; i++) {
        struct dh_case *c = &out->runs[i].c;
        c->bench = dh_bench_find(c->suite, c->bench_name);
    }
    dh_run_derive(out->runs, out->n_runs);
    return 0;
}
