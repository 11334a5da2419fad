/* baseline.h — stored baselines: the accepted results file of a machine,
 * kept as DIR/<fingerprint>.xml.
 *
 * The fingerprint is a 64-bit FNV-1a hash (16 hex digits) of the sorted
 * lines "backend<TAB>device name<TAB>driver" of the devices a results
 * file used, so a new GPU or a new driver gets a baseline of its own and
 * a nightly run picks the one of the machine it ran on (or, after a driver
 * update, the last one of the same devices: dh_baseline_find). DIR: --dir, else
 * $DH_BASELINE_DIR, else results/baselines (DESIGN.md "Layout").
 */
#ifndef DH_BASELINE_H
#define DH_BASELINE_H

#include "../../results/xml.h"
#include "../support/fs.h"

#define DH_BASELINE_DIR_DEFAULT "results/baselines"

/* The folder: dir if non-NULL, else $DH_BASELINE_DIR, else the default. */
const char *dh_baseline_dir(const char *dir);

/* fp: 16 hex digits + NUL. desc (may be NULL): the devices, one line.
 * -DH_E_DATA when the file names no device. */
int dh_baseline_fingerprint(const struct dh_resultfile *f, char fp[17], char *desc,
                            size_t desc_len, struct dh_err *err);

/* DIR/<fp>.xml */
void dh_baseline_path(const char *dir, const char *fp, char *out, size_t len);

/* Copy results_path (already read into f) to DIR/<fp>.xml atomically
 * (temporary file + rename), creating DIR. *saved gets the path. */
int dh_baseline_save(const char *dir, const char *results_path,
                     const struct dh_resultfile *f, char *saved, size_t saved_len,
                     struct dh_err *err);

/* The baseline for f's devices: DIR/<fingerprint>.xml when it exists
 * (*exact = 1); else the most recent baseline of the same devices and
 * backends under other drivers (*exact = 0), so that a driver update is
 * compared with the last accepted driver instead of passing unjudged.
 * 0 with the path, 1 when there is none, or a negative error code. */
int dh_baseline_find(const char *dir, const struct dh_resultfile *f, char *path, size_t len,
                     int *exact, struct dh_err *err);

#endif
