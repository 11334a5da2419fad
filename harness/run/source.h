/* source.h — assembling the exact text and options a kernel is built from.
 * Source = suites/lib/dialect.h + suites/lib/tdr.h + the benchmark's
 * kernel (a #line marks where it starts, so compiler messages point into
 * the benchmark's own file). Options = -D DH_WG, -D DH_WAVE, then the
 * benchmark's defines. */
#ifndef DH_SOURCE_H
#define DH_SOURCE_H

#include <stddef.h>

#include "../../backends/backend.h"
#include "../../results/case.h"

char *dh_source_assemble(const struct dh_case *c);   /* malloc'd */
int dh_source_options(const struct dh_case *c, const struct dh_device_info *dev,
                      char *out, size_t len);
/* Write DIR/<name>.k and DIR/<name>.options for --dump-source. */
int dh_source_dump(const char *dir, const struct dh_case *c, const char *src,
                   const char *options, struct dh_err *err);

#endif
