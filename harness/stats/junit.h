/* junit.h — a comparison (compare.h) as JUnit XML, the format
 * Jenkins (junit plugin), GitLab (artifacts:reports:junit) and GitHub
 * test-report actions read: one <testsuite> per suite, one <testcase> per
 * case (classname "suite.bench", name "variant workload [size backend:device]",
 * stable from night to night so a CI server can track a case's history).
 * slower / CFE drop / wrong: <failure> with the numbers; a NEW run that
 * failed (build, timeout, crash): <error>; ambiguous, untimed and
 * one-sided cases: <skipped> with the reason. <properties> carry the
 * figures: medians, ratio, p-values, threshold, spread, CFE.
 */
#ifndef DH_JUNIT_H
#define DH_JUNIT_H

#include "compare.h"

/* Write `path` atomically (path.tmp + rename). base_path/new_path name the
 * compared files in the suites' properties. strict = 1 leaves out the
 * per-case <properties>, which Jenkins' junit step, GitLab and GitHub
 * actions read but the strict schema of Jenkins' xunit plugin
 * (junit-10.xsd) does not allow; the figures stay in <system-out>.
 * 0 or -DH_E_IO. */
int dh_junit_write(const char *path, const struct dh_cmp *c, const struct dh_cmp_opts *o,
                   const char *base_path, const char *new_path, int strict,
                   struct dh_err *err);

#endif
