/* history_db.h — the nights of a machine in one SQLite database
 * (`harness db`): every results file added once (keyed by the hash of its
 * bytes), its environment and conditions, every case by its name, every
 * run's median, interval, status and tunables.
 *
 * The database is SQLite's own file format, in WAL mode with a busy
 * timeout (writers on two CI jobs wait for each other); its schema is
 * versioned (PRAGMA user_version) and migrated forward on open; a file
 * that is not SQLite, or a SQLite database of something else, is refused
 * with what it is and the fix. */
#ifndef DH_HISTORY_DB_H
#define DH_HISTORY_DB_H

#include <stdio.h>

#include "../../results/xml.h"

#define DH_HISTORY_SCHEMA 1

struct dh_hdb;

/* Open (create = 1: make it when missing) the database at path. NULL with
 * err set: not SQLite, another program's database, a newer schema than
 * this harness knows, or a path that cannot be opened. */
struct dh_hdb *dh_hdb_open(const char *path, int create, struct dh_err *err);
void dh_hdb_close(struct dh_hdb *db);

/* Add one results file (rf: loaded with its statistics derived; bytes and
 * len: the file as read, which key it). Returns the night's id (> 0), or
 * -id when the same file was added before (nothing changes), or 0 with err
 * set. One transaction: a night is all in or not at all. */
long dh_hdb_add(struct dh_hdb *db, const char *path, const void *bytes, size_t len,
                const struct dh_resultfile *rf, struct dh_err *err);

/* The night a file with these bytes was added as (> 0), or 0 when none. */
long dh_hdb_find(struct dh_hdb *db, const void *bytes, size_t len);

/* The number of nights in the database, or -1 with err set. */
long dh_hdb_nights(struct dh_hdb *db, struct dh_err *err);

/* One line per night, oldest first, to f: id, started, host, revision,
 * cases, load before; then the totals. 0, or -DH_E_* with err set. */
int dh_hdb_list(struct dh_hdb *db, FILE *f, struct dh_err *err);

/* One case's nights, oldest first: started[i], median[i], lo[i], hi[i],
 * status text, tunables; at most max; the count, or -1 with err set.
 * key: the case's key or its name (suite/bench/variant/... as the id). */
struct dh_hdb_point {
    char started[40], status[16], tunables[96], git_revision[64];
    double median, lo, hi;
};
int dh_hdb_case(struct dh_hdb *db, const char *key, char *name, size_t name_len,
                struct dh_hdb_point *pts, int max, struct dh_err *err);

/* Each case's name (and key) with at least min_nights nights, in name
 * order, to fn (stops at fn's nonzero return). 0, or -DH_E_* with err set. */
int dh_hdb_each_case(struct dh_hdb *db, int min_nights,
                     int (*fn)(const char *name, const char *key, void *ctx), void *ctx,
                     struct dh_err *err);

#endif
