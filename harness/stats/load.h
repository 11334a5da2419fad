/* load.h — a results file as the commands use it: read and validated
 * (results/xml.h), each run linked to this build's benchmark (NULL when
 * the build lacks it) and every derived figure recomputed (derive.h). */
#ifndef DH_LOAD_H
#define DH_LOAD_H

#include "../../results/xml.h"

/* 0, or dh_xml_read's error (the file and line named). */
int dh_results_load(const char *path, struct dh_resultfile *out, struct dh_err *err);
/* The same; intervals 0 leaves the bootstrap intervals out (NaN): every
 * median, MAD, speedup and CFE as dh_results_load gives them, at a small
 * part of the cost (compare judges without intervals). */
int dh_results_load_ex(const char *path, struct dh_resultfile *out, int intervals,
                       struct dh_err *err);

#endif
