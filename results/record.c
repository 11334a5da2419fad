/* record.c — the heap blocks of a run record (see record.h). */
#include "record.h"

#include <stdlib.h>
#include <string.h>

int dh_result_samples(struct dh_result *r, int n)
{
    double *b = NULL;
    if (n > 0 && !(b = calloc((size_t)n * 3, sizeof *b)))
        return -1;
    free(r->kernel_ms);
    r->kernel_ms = b;
    r->host_ms = b ? b + n : NULL;
    r->xfer_ms = b ? b + 2 * (size_t)n : NULL;
    r->n_room = b ? n : 0;
    return 0;
}

int dh_result_text(char **dst, const char *src, size_t max)
{
    size_t len = src ? strnlen(src, max - 1) : 0;
    char *t = NULL;
    if (len) {
        if (!(t = malloc(len + 1)))
            return -1;
        memcpy(t, src, len);
        t[len] = 0;
    }
    free(*dst);
    *dst = t;
    return 0;
}

int dh_result_reserve(struct dh_result *r)
{
    return dh_result_samples(r, DH_MAX_SAMPLES);
}

/* a string block down to its length (NULL when empty) */
static void fit_text(char **s)
{
    if (!*s)
        return;
    if (!**s) {
        free(*s);
        *s = NULL;
        return;
    }
    char *t = realloc(*s, strlen(*s) + 1);
    if (t)
        *s = t;
}

void dh_result_fit(struct dh_result *r)
{
    fit_text(&r->options);
    fit_text(&r->build_log);
    if (!r->kernel_ms)
        return;
    int n = r->n > 0 && r->n <= r->n_room ? r->n : 0, room = r->n_room;
    double *k = r->kernel_ms, *h = r->host_ms, *x = r->xfer_ms;
    r->kernel_ms = r->host_ms = r->xfer_ms = NULL;
    if (dh_result_samples(r, n) == 0) {
        if (n) {
            memcpy(r->kernel_ms, k, (size_t)n * sizeof *k);
            memcpy(r->host_ms, h, (size_t)n * sizeof *h);
            memcpy(r->xfer_ms, x, (size_t)n * sizeof *x);
        }
        free(k);
    } else {                    /* no memory to shrink: keep the large block */
        r->kernel_ms = k;
        r->host_ms = h;
        r->xfer_ms = x;
        r->n_room = room;
    }
}

void dh_result_release(struct dh_result *r)
{
    free(r->kernel_ms);
    free(r->options);
    free(r->build_log);
    r->kernel_ms = r->host_ms = r->xfer_ms = NULL;
    r->options = r->build_log = NULL;
    r->n_room = 0;
}

struct dh_tune_eval *dh_tuning_add(struct dh_tuning *t)
{
    if (t->n_eval >= DH_TUNE_MAX_EVALS)
        return NULL;
    if (t->n_eval >= t->cap_eval) {
        int cap = t->cap_eval ? 2 * t->cap_eval : 8;
        if (cap > DH_TUNE_MAX_EVALS)
            cap = DH_TUNE_MAX_EVALS;
        struct dh_tune_eval *v = realloc(t->eval, (size_t)cap * sizeof *v);
        if (!v)
            return NULL;
        t->eval = v;
        t->cap_eval = cap;
    }
    struct dh_tune_eval *e = &t->eval[t->n_eval++];
    memset(e, 0, sizeof *e);
    return e;
}

void dh_tuning_release(struct dh_tuning *t)
{
    free(t->eval);
    t->eval = NULL;
    t->n_eval = t->cap_eval = 0;
}

void dh_run_release(struct dh_run *u)
{
    dh_result_release(&u->r);
    dh_tuning_release(&u->tune);
}

int dh_run_copy(struct dh_run *dst, const struct dh_run *src)
{
    *dst = *src;
    struct dh_result *r = &dst->r;
    struct dh_tuning *t = &dst->tune;
    r->kernel_ms = r->host_ms = r->xfer_ms = NULL;
    r->options = r->build_log = NULL;
    t->eval = NULL;
    t->n_eval = t->cap_eval = 0;
    int n = src->r.kernel_ms ? src->r.n_room : 0;
    int bad = dh_result_samples(r, n) || dh_result_text(&r->options, src->r.options, DH_OPTIONS_MAX)
              || dh_result_text(&r->build_log, src->r.build_log, DH_BUILD_LOG_MAX);
    if (!bad && n)
        memcpy(r->kernel_ms, src->r.kernel_ms, (size_t)n * 3 * sizeof *r->kernel_ms);
    for (int i = 0; !bad && i < src->tune.n_eval; i++) {
        struct dh_tune_eval *e = dh_tuning_add(t);
        if (!e)
            bad = 1;
        else
            *e = src->tune.eval[i];
    }
    if (bad) {
        dh_run_release(dst);
        return -1;
    }
    return 0;
}

void dh_run_move(struct dh_run *dst, struct dh_run *src)
{
    *dst = *src;
    src->r.kernel_ms = src->r.host_ms = src->r.xfer_ms = NULL;
    src->r.options = src->r.build_log = NULL;
    src->r.n_room = 0;
    src->tune.eval = NULL;
    src->tune.n_eval = src->tune.cap_eval = 0;
}

static const char *const remap_names[] = {"", "measured", "n/a", "failed"};

const char *dh_remap_state_name(int state)
{
    return state > 0 && state < 4 ? remap_names[state] : "";
}

int dh_remap_state_parse(const char *name)
{
    for (int i = 1; i < 4; i++)
        if (!strcmp(name, remap_names[i]))
            return i;
    return -1;
}
