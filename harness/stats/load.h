/* load.h — a results file as the commands use it: read and validated
 * (results/xml.h), each run linked to this build's benchmark (NULL when
 * the build lacks it) and every derived figure recomputed (derive.h). */
#ifndef DH_LOAD_H
#define DH_LOAD_H

#include "../../results/xml.h"

/* 0, or dh_xml_read's error (the file and line named). */
int dh_results_load(const char *path, struct dh_resultfile *out, struct dh_err *err);

#endif
