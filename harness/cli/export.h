/* export.h — the exports of a results file beside CSV (cmd_export.c):
 * JSON and T4, written with jansson (export_json.c). */
#ifndef DH_EXPORT_H
#define DH_EXPORT_H

#include "../../results/xml.h"

/* The whole file as JSON into path ("-": stdout), atomically; source is
 * the results file's path. 0, or -1 with errno (a message on stderr when
 * the path is refused). */
int dh_export_json(const char *path, const char *source, const struct dh_resultfile *rf);
/* One T4 file per tuned case into dir (made if missing); *files counts
 * them. 0, or -1 with errno. */
int dh_export_t4(const char *dir, const struct dh_resultfile *rf, int *files);

#endif
