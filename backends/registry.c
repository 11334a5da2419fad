/* registry.c — the list of backends, lookup by name (NULL = default).
 * Adding a backend: its folder under backends/ plus one line here. */
#include "backend.h"

#include <string.h>

extern const struct dh_backend_ops dh_backend_opencl;
#ifdef DH_HAVE_CUDA
extern const struct dh_backend_ops dh_backend_cuda;
#endif
#ifdef DH_HAVE_HIP
extern const struct dh_backend_ops dh_backend_hip;
#endif

#define DH_MAX_BACKENDS 16

static const struct dh_backend_ops *table[DH_MAX_BACKENDS] = {
#ifdef DH_HAVE_CUDA
    &dh_backend_cuda,
#endif
#ifdef DH_HAVE_HIP
    &dh_backend_hip,
#endif
    &dh_backend_opencl,
};

static int count(void)
{
    int n = 0;
    while (n < DH_MAX_BACKENDS && table[n])
        n++;
    return n;
}

int dh_backend_count(void) { return count(); }

const struct dh_backend_ops *dh_backend_at(int i)
{
    return (i >= 0 && i < count()) ? table[i] : NULL;
}

const struct dh_backend_ops *dh_backend_find(const char *name)
{
    if (!name || !*name)
        name = "opencl";
    for (int i = 0; i < count(); i++)
        if (!strcmp(table[i]->name, name))
            return table[i];
    return NULL;
}

const char *dh_backend_names(void)
{
    static char buf[256];
    buf[0] = 0;
    for (int i = 0; i < count(); i++) {
        if (i)
            strcat(buf, ", ");
        strcat(buf, table[i]->name);
    }
    return buf;
}

int dh_backend_register(const struct dh_backend_ops *ops)
{
    int n = count();
    if (!ops || ops->abi < 1 || n >= DH_MAX_BACKENDS)
        return -DH_E_INTERNAL;
    for (int i = 0; i < n; i++)
        if (!strcmp(table[i]->name, ops->name)) {
            table[i] = ops;          /* replace: tests wrap a backend */
            return 0;
        }
    table[n] = ops;
    return 0;
}

int dh_backend_counters(const struct dh_backend_ops *b, struct dh_program *p,
                        const struct dh_launch *l, struct dh_counters *out,
                        struct dh_err *err)
{
    if (!b->counters)
        return dh_err_set(err, DH_E_UNSUPPORTED,
                          "backend %s has no hardware counters; CFE comes "
                          "from the BBV model", b->name);
    return b->counters(p, l, out, err);
}
