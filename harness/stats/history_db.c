/* history_db.c — the nights of a machine in SQLite (history_db.h). */
#include "history_db.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>
#include <xxhash.h>

struct dh_hdb {
    sqlite3 *db;
    char path[4096];
};

/* version 1: the first schema; a later version adds its migration below */
static const char *const schema_v1 =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "INSERT INTO meta VALUES('format', 'divharness-history');"
    "CREATE TABLE nights("
    "  id INTEGER PRIMARY KEY,"
    "  file_hash TEXT NOT NULL UNIQUE,"    /* XXH3-128 of the file's bytes */
    "  path TEXT NOT NULL, started TEXT NOT NULL, updated TEXT, host TEXT, os TEXT,"
    "  harness TEXT, git_revision TEXT, command TEXT,"
    "  cpus INTEGER, load_before REAL, load_after REAL, governor TEXT, gpu TEXT,"
    "  added TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')));"
    "CREATE TABLE cases("
    "  id INTEGER PRIMARY KEY,"
    "  key TEXT NOT NULL UNIQUE, name TEXT NOT NULL,"
    "  suite TEXT, bench TEXT, variant TEXT, backend TEXT, device TEXT, size TEXT,"
    "  workload TEXT);"
    "CREATE TABLE runs("
    "  night INTEGER NOT NULL REFERENCES nights(id),"
    "  case_id INTEGER NOT NULL REFERENCES cases(id),"
    "  status TEXT NOT NULL, samples INTEGER, median_ms REAL, mad_ms REAL,"
    "  ci_lo_ms REAL, ci_hi_ms REAL, e2e_median_ms REAL, speedup REAL, cfe REAL,"
    "  tunables TEXT, baseline_tunables TEXT,"
    "  PRIMARY KEY(night, case_id));"
    "CREATE INDEX runs_by_case ON runs(case_id, night);"
    "PRAGMA user_version = 1;";

static int fail(struct dh_err *err, struct dh_hdb *h, const char *what)
{
    dh_err_set(err, DH_E_DATA, "%s: %s: %s", h->path, what, sqlite3_errmsg(h->db));
    return -DH_E_DATA;
}

void dh_hdb_close(struct dh_hdb *h)
{
    if (!h)
        return;
    sqlite3_close(h->db);
    free(h);
}

struct dh_hdb *dh_hdb_open(const char *path, int create, struct dh_err *err)
{
    struct dh_hdb *h = calloc(1, sizeof *h);
    if (!h) {
        dh_err_set(err, DH_E_RESOURCES, "out of memory");
        return NULL;
    }
    snprintf(h->path, sizeof h->path, "%s", path);
    int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
    if (sqlite3_open_v2(path, &h->db, flags, NULL) != SQLITE_OK) {
        dh_err_set(err, DH_E_DATA, "cannot open the history database %s: %s%s", path,
                   h->db ? sqlite3_errmsg(h->db) : "out of memory",
                   create ? "" : " (harness db add DB RESULTS.xml makes one)");
        dh_hdb_close(h);
        return NULL;
    }
    sqlite3_busy_timeout(h->db, 30000);       /* another writer: wait for it */
    /* what the file is: the first read tells SQLite from anything else */
    sqlite3_stmt *st = NULL;
    int version = -1;
    if (sqlite3_prepare_v2(h->db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        version = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    st = NULL;
    if (version < 0) {
        dh_err_set(err, DH_E_DATA, "%s is not a history database (%s): give another path, "
                   "or remove it if it is a broken one", path, sqlite3_errmsg(h->db));
        dh_hdb_close(h);
        return NULL;
    }
    int tables = 0, ours = 0;
    if (sqlite3_prepare_v2(h->db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL) ==
            SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        tables = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    st = NULL;
    if (tables > 0 &&
        sqlite3_prepare_v2(h->db, "SELECT value FROM meta WHERE key = 'format'", -1, &st,
                           NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        ours = sqlite3_column_text(st, 0) &&
               !strcmp((const char *)sqlite3_column_text(st, 0), "divharness-history");
    sqlite3_finalize(st);
    st = NULL;
    if (tables > 0 && !ours) {
        dh_err_set(err, DH_E_DATA, "%s is an SQLite database of something else (no "
                   "divharness-history mark): give another path", path);
        dh_hdb_close(h);
        return NULL;
    }
    if (version > DH_HISTORY_SCHEMA) {
        dh_err_set(err, DH_E_DATA, "%s has history schema %d, newer than this harness's %d: "
                   "use a newer harness", path, version, DH_HISTORY_SCHEMA);
        dh_hdb_close(h);
        return NULL;
    }
    char *msg = NULL;
    /* WAL: readers never wait for a writer. Switching to it takes the lock
     * at once (the busy handler does not wait for it): two writers opening
     * a new database together retry for a while */
    int rc = SQLITE_BUSY;
    for (int tries = 0; tries < 600; tries++) {
        sqlite3_free(msg);
        msg = NULL;
        rc = sqlite3_exec(h->db, "PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON;", NULL,
                          NULL, &msg);
        if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
            break;
        sqlite3_sleep(50);
    }
    if (rc != SQLITE_OK) {
        dh_err_set(err, DH_E_DATA, "%s: %s", path, msg ? msg : "cannot set WAL mode");
        sqlite3_free(msg);
        dh_hdb_close(h);
        return NULL;
    }
    if (tables == 0) {                           /* new: the schema, whole */
        if (!create) {
            dh_err_set(err, DH_E_DATA, "%s is empty: no night added yet", path);
            dh_hdb_close(h);
            return NULL;
        }
        /* under the write lock, and only if no other writer made it
         * meanwhile (two jobs adding to a new database at once) */
        int made = 0;
        if (sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK &&
            sqlite3_prepare_v2(h->db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL) ==
                SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
            made = sqlite3_column_int(st, 0) > 0;
        sqlite3_finalize(st);
        st = NULL;
        if ((!made && sqlite3_exec(h->db, schema_v1, NULL, NULL, &msg) != SQLITE_OK) ||
            sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
            dh_err_set(err, DH_E_DATA, "%s: cannot make the schema: %s", path,
                       msg ? msg : sqlite3_errmsg(h->db));
            sqlite3_free(msg);
            sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
            dh_hdb_close(h);
            return NULL;
        }
    }
    /* (migrations from version N to N+1 go here, in one transaction each) */
    return h;
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
    sqlite3_bind_text(st, i, s ? s : "", -1, SQLITE_TRANSIENT);
}

static void bind_num(sqlite3_stmt *st, int i, double v)
{
    if (isfinite(v))
        sqlite3_bind_double(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

static void hash_of(const void *bytes, size_t len, char out[40])
{
    XXH128_hash_t hh = XXH3_128bits(bytes, len);
    snprintf(out, 40, "%016llx%016llx", (unsigned long long)hh.high64,
             (unsigned long long)hh.low64);
}

long dh_hdb_find(struct dh_hdb *h, const void *bytes, size_t len)
{
    char hash[40];
    hash_of(bytes, len, hash);
    sqlite3_stmt *st = NULL;
    long night = 0;
    if (!sqlite3_prepare_v2(h->db, "SELECT id FROM nights WHERE file_hash = ?", -1, &st, NULL)) {
        bind_text(st, 1, hash);
        if (sqlite3_step(st) == SQLITE_ROW)
            night = (long)sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    return night;
}

long dh_hdb_add(struct dh_hdb *h, const char *path, const void *bytes, size_t len,
                const struct dh_resultfile *rf, struct dh_err *err)
{
    char hash[40];
    hash_of(bytes, len, hash);
    if (sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return fail(err, h, "cannot begin a transaction"), 0;
    sqlite3_stmt *st = NULL, *cs = NULL, *cq = NULL, *rs = NULL;
    long night = 0;
    if (sqlite3_prepare_v2(h->db, "SELECT id FROM nights WHERE file_hash = ?", -1, &st, NULL))
        goto bad;
    bind_text(st, 1, hash);
    if (sqlite3_step(st) == SQLITE_ROW) {                 /* added before: one night */
        night = -sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
        return night;
    }
    sqlite3_finalize(st);
    st = NULL;
    const struct dh_env *e = &rf->env;
    if (sqlite3_prepare_v2(h->db,
                           "INSERT INTO nights(file_hash, path, started, updated, host, os, "
                           "harness, git_revision, command, cpus, load_before, load_after, "
                           "governor, gpu) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                           -1, &st, NULL))
        goto bad;
    bind_text(st, 1, hash);
    bind_text(st, 2, path);
    bind_text(st, 3, e->started);
    bind_text(st, 4, e->updated);
    bind_text(st, 5, e->host);
    bind_text(st, 6, e->os);
    bind_text(st, 7, e->harness);
    bind_text(st, 8, e->git_revision);
    bind_text(st, 9, e->command);
    if (e->cond.valid) {
        sqlite3_bind_int(st, 10, e->cond.cpus);
        bind_num(st, 11, e->cond.load_before[0] >= 0 ? e->cond.load_before[0] : NAN);
        bind_num(st, 12, e->cond.load_after[0] >= 0 ? e->cond.load_after[0] : NAN);
        bind_text(st, 13, e->cond.governor);
        bind_text(st, 14, e->cond.gpu);
    }
    if (sqlite3_step(st) != SQLITE_DONE)
        goto bad;
    night = sqlite3_last_insert_rowid(h->db);
    if (sqlite3_prepare_v2(h->db,
                           "INSERT INTO cases(key, name, suite, bench, variant, backend, "
                           "device, size, workload) VALUES(?,?,?,?,?,?,?,?,?) "
                           "ON CONFLICT(key) DO NOTHING",
                           -1, &cs, NULL) ||
        sqlite3_prepare_v2(h->db, "SELECT id FROM cases WHERE key = ?", -1, &cq, NULL) ||
        sqlite3_prepare_v2(h->db,
                           "INSERT OR REPLACE INTO runs(night, case_id, status, samples, "
                           "median_ms, mad_ms, ci_lo_ms, ci_hi_ms, e2e_median_ms, speedup, "
                           "cfe, tunables, baseline_tunables) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)",
                           -1, &rs, NULL))
        goto bad;
    for (int i = 0; i < rf->n_runs; i++) {
        const struct dh_run *u = &rf->runs[i];
        char var[300], wl[400], tun[200];
        dh_case_variant_label(&u->c, var, sizeof var);
        dh_pset_format(&u->c.params, DH_P_WORKLOAD, wl, sizeof wl);
        dh_pset_format(&u->c.params, DH_P_TUNABLE, tun, sizeof tun);
        sqlite3_reset(cs);
        bind_text(cs, 1, u->c.key);
        bind_text(cs, 2, u->c.id);
        bind_text(cs, 3, u->c.suite);
        bind_text(cs, 4, u->c.bench_name);
        bind_text(cs, 5, var);
        bind_text(cs, 6, u->c.backend);
        bind_text(cs, 7, u->c.device_name);
        bind_text(cs, 8, u->c.size);
        bind_text(cs, 9, wl);
        if (sqlite3_step(cs) != SQLITE_DONE)
            goto bad;
        sqlite3_reset(cq);
        bind_text(cq, 1, u->c.key);
        if (sqlite3_step(cq) != SQLITE_ROW)
            goto bad;
        sqlite3_int64 cid = sqlite3_column_int64(cq, 0);
        int ok = !u->r.status && u->kernel.n > 0;
        sqlite3_reset(rs);
        sqlite3_bind_int64(rs, 1, night);
        sqlite3_bind_int64(rs, 2, cid);
        bind_text(rs, 3, dh_err_name(u->r.status));
        sqlite3_bind_int(rs, 4, u->r.n);
        bind_num(rs, 5, ok ? u->kernel.median : NAN);
        bind_num(rs, 6, ok ? u->kernel.mad : NAN);
        bind_num(rs, 7, ok ? u->kernel.ci_lo : NAN);
        bind_num(rs, 8, ok ? u->kernel.ci_hi : NAN);
        bind_num(rs, 9, ok ? u->e2e.median : NAN);
        bind_num(rs, 10, u->has_speedup ? u->sp_kernel : NAN);
        bind_num(rs, 11, u->cfe);
        bind_text(rs, 12, tun);
        bind_text(rs, 13, u->has_speedup ? u->baseline_tunables : "");
        if (sqlite3_step(rs) != SQLITE_DONE)
            goto bad;
    }
    sqlite3_finalize(st);
    sqlite3_finalize(cs);
    sqlite3_finalize(cq);
    sqlite3_finalize(rs);
    if (sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        fail(err, h, "cannot commit");
        sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
        return 0;
    }
    return night;
bad:
    fail(err, h, "cannot add the night");
    sqlite3_finalize(st);
    sqlite3_finalize(cs);
    sqlite3_finalize(cq);
    sqlite3_finalize(rs);
    sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
    return 0;
}

long dh_hdb_nights(struct dh_hdb *h, struct dh_err *err)
{
    sqlite3_stmt *st = NULL;
    long n = -1;
    if (!sqlite3_prepare_v2(h->db, "SELECT count(*) FROM nights", -1, &st, NULL) &&
        sqlite3_step(st) == SQLITE_ROW)
        n = (long)sqlite3_column_int64(st, 0);
    else
        fail(err, h, "cannot count the nights");
    sqlite3_finalize(st);
    return n;
}

int dh_hdb_list(struct dh_hdb *h, FILE *f, struct dh_err *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(h->db,
                           "SELECT n.id, n.started, n.host, n.git_revision, n.load_before, "
                           "n.cpus, count(r.case_id), n.path FROM nights n "
                           "LEFT JOIN runs r ON r.night = n.id GROUP BY n.id "
                           "ORDER BY n.started, n.id",
                           -1, &st, NULL))
        return fail(err, h, "cannot read the nights");
    fprintf(f, "%5s  %-20s  %-16s  %-14s  %6s  %s\n", "night", "started", "host", "revision",
            "cases", "load before / file");
    int n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        char load[48] = "-";
        if (sqlite3_column_type(st, 4) != SQLITE_NULL)
            snprintf(load, sizeof load, "%.2f on %d CPUs", sqlite3_column_double(st, 4),
                     sqlite3_column_int(st, 5));
        fprintf(f, "%5lld  %-20s  %-16.16s  %-14.14s  %6d  %s  %s\n",
                (long long)sqlite3_column_int64(st, 0), sqlite3_column_text(st, 1),
                sqlite3_column_text(st, 2), sqlite3_column_text(st, 3),
                sqlite3_column_int(st, 6), load, sqlite3_column_text(st, 7));
        n++;
    }
    sqlite3_finalize(st);
    int cases = 0;
    if (!sqlite3_prepare_v2(h->db, "SELECT count(*) FROM cases", -1, &st, NULL) &&
        sqlite3_step(st) == SQLITE_ROW)
        cases = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    fprintf(f, "%d night%s, %d case%s\n", n, n == 1 ? "" : "s", cases, cases == 1 ? "" : "s");
    return 0;
}

int dh_hdb_case(struct dh_hdb *h, const char *key, char *name, size_t name_len,
                struct dh_hdb_point *pts, int max, struct dh_err *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(h->db,
                           "SELECT c.name, n.started, r.status, r.median_ms, r.ci_lo_ms, "
                           "r.ci_hi_ms, r.tunables, n.git_revision FROM runs r "
                           "JOIN cases c ON c.id = r.case_id JOIN nights n ON n.id = r.night "
                           "WHERE c.key = ?1 OR c.name = ?1 ORDER BY n.started, n.id",
                           -1, &st, NULL)) {
        fail(err, h, "cannot read the case");
        return -1;
    }
    bind_text(st, 1, key);
    int n = 0;
    name[0] = 0;
    while (sqlite3_step(st) == SQLITE_ROW && n < max) {
        struct dh_hdb_point *p = &pts[n++];
        snprintf(name, name_len, "%s", (const char *)sqlite3_column_text(st, 0));
        snprintf(p->started, sizeof p->started, "%s", (const char *)sqlite3_column_text(st, 1));
        snprintf(p->status, sizeof p->status, "%s", (const char *)sqlite3_column_text(st, 2));
        p->median = sqlite3_column_type(st, 3) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 3);
        p->lo = sqlite3_column_type(st, 4) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 4);
        p->hi = sqlite3_column_type(st, 5) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 5);
        snprintf(p->tunables, sizeof p->tunables, "%s", (const char *)sqlite3_column_text(st, 6));
        snprintf(p->git_revision, sizeof p->git_revision, "%s",
                 (const char *)sqlite3_column_text(st, 7));
    }
    sqlite3_finalize(st);
    return n;
}

int dh_hdb_each_case(struct dh_hdb *h, int min_nights,
                     int (*fn)(const char *name, const char *key, void *ctx), void *ctx,
                     struct dh_err *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(h->db,
                           "SELECT c.name, c.key FROM cases c JOIN runs r ON r.case_id = c.id "
                           "GROUP BY c.id HAVING count(*) >= ? ORDER BY c.name",
                           -1, &st, NULL))
        return fail(err, h, "cannot read the cases");
    sqlite3_bind_int(st, 1, min_nights);
    while (sqlite3_step(st) == SQLITE_ROW)
        if (fn((const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 1),
               ctx))
            break;
    sqlite3_finalize(st);
    return 0;
}
