/* load.c — see load.h. */
#include "load.h"

#include "../../suites/suite.h"
#include "derive.h"

int dh_results_load(const char *path, struct dh_resultfile *out, struct dh_err *err)
{
    return dh_results_load_ex(path, out, 1, err);
}

int dh_results_load_ex(const char *path, struct dh_resultfile *out, int intervals,
                       struct dh_err *err)
{
    int rc = dh_xml_read(path, out, err);
    if (rc)
        return rc;
    for (int i = 0; i < out->n_runs; i++) {
        struct dh_case *c = &out->runs[i].c;
        c->bench = dh_bench_find(c->suite, c->bench_name);
    }
    dh_run_derive_ex(out->runs, out->n_runs, intervals);
    return 0;
}
