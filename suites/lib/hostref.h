/* hostref.h — a reference run on the host, as plain C: a descriptor's
 * reference entry compiled from the same dialect source (DH_HOST_C in
 * dialect.h; the entry is called once per item, in order), or a function
 * of a C file the user names. Compiled with the host's C compiler ($CC,
 * else cc) into a shared object in a private temporary folder, loaded,
 * run, removed. No shell: the compiler is executed with fixed arguments. */
#ifndef DH_HOSTREF_H
#define DH_HOSTREF_H

#include "kit.h"

/* One argument of the entry: a buffer (its index and type) or a value. */
struct dh_hostref_arg {
    int is_buf;
    int buf;
    enum dh_ktype type;
    double value;
    int is_float;
};

/* Compile `source` with `defines` ("-D NAME=VALUE ..." of plain words) and
 * call `entry` for items 0..items-1 with work-group size wg over `bufs`.
 * 0, or an error naming the compiler's first complaint and the fix. */
int dh_hostref_entry(const char *source, const char *defines, const char *entry,
                     const struct dh_hostref_arg *args, int n_args, long items, int wg,
                     void *const *bufs, struct dh_err *err);

/* Compile the C file `path` and call
 *   void function(void *const *buffers, const long *counts, long items)
 * with every declared buffer in declaration order (outputs to fill). */
int dh_hostref_cfile(const char *path, const char *function, void *const *bufs,
                     const long *counts, long items, struct dh_err *err);

#endif
