/* build.c — the case's kernel: its source (the benchmark's kernel with the
 * dialect prelude), its build options (tunables and choices as -D, the
 * device's width; a profiling build adds DH_BBV), an optional dump for
 * --dump-source, and the build through the backend's program cache. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source.h"
#include "steps.h"

int dh__build_options(struct dh_worker *w, const struct dh_case *c, int bbv, char *out,
                      size_t len)
{
    int rc = dh_source_options(c, &w->info, out, len);
    if (rc)
        return rc;
    if (bbv) {
        size_t o = strlen(out);
        int k = snprintf(out + o, len - o, " -D DH_BBV=1 -D DH_BBV_NB=%d",
                         c->bench->n_blocks);
        if (k < 0 || (size_t)k >= len - o)
            return -DH_E_INTERNAL;
    }
    return 0;
}

int dh__build_prepare(struct dh_worker *w, const struct dh_case *c, char **src,
                      struct dh_result *r)
{
    const struct dh_bench *b = c->bench;
    struct dh_err e = {0};
    int rc;
    *src = dh_source_assemble(c);
    if (!*src) {
        r->status = DH_E_RESOURCES;
        snprintf(r->message, sizeof r->message, "out of host memory");
        return DH_E_RESOURCES;
    }
    if (c->instrumented && !(b->blocks && b->items)) {
        r->status = DH_E_UNSUPPORTED;
        snprintf(r->message, sizeof r->message, "%s/%s has no basic blocks marked (DH_BB): "
                 "it cannot run --instrumented", c->suite, c->bench_name);
        rc = DH_E_UNSUPPORTED;
        goto fail;
    }
    char opts[DH_OPTIONS_MAX];
    if ((rc = dh__build_options(w, c, c->instrumented, opts, sizeof opts))) {
        dh_err_set(&e, DH_E_INTERNAL, "build options do not fit");
        dh__step_fail(r, &e, rc);
        goto fail;
    }
    if (dh_result_text(&r->options, opts, sizeof opts)) {
        dh_err_set(&e, DH_E_RESOURCES, "out of host memory");
        dh__step_fail(r, &e, rc = DH_E_RESOURCES);
        goto fail;
    }
    if (w->dump_dir && (rc = dh_source_dump(w->dump_dir, c, *src, opts, &e))) {
        dh__step_fail(r, &e, rc);
        goto fail;
    }
    return 0;
fail:
    free(*src);
    *src = NULL;
    return rc;
}

int dh__build(struct dh_worker *w, const char *src, struct dh_exec *x, struct dh_result *r)
{
    struct dh_err e = {0};
    char *log = NULL;
    double t0 = dh_now_ms();
    int rc = w->be->build(w->dev, src, dh_text(r->options), &x->prog, &log, &r->build_cached, &e);
    r->build_ms = dh_now_ms() - t0;
    if (rc) {
        if (log && dh_result_text(&r->build_log, log, DH_BUILD_LOG_MAX))
            dh_result_text(&r->build_log, "(out of host memory for the build log)",
                           DH_BUILD_LOG_MAX);
        dh__step_fail(r, &e, rc);
    }
    free(log);
    return rc;
}
