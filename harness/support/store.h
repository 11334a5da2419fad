/* store.h — a folder of checksummed entries keyed by a 128-bit hash, each
 * written atomically, with a size limit and least-recently-used eviction:
 * the storage of the workload cache (harness/run/wcache.c), which knows
 * what the entries hold; this file knows only bytes.
 *
 * An entry is one file, <32 hex digits of its key>.dhw:
 *
 *   magic "DHWCACHE", format version, kind, key, label length, payload
 *   length, XXH3-128 of label + payload, XXH3-128 of the header before it;
 *   then the label (text for `harness cache show`) and the payload.
 *
 * It is written under a temporary name, fsync'ed and renamed into place,
 * so a reader sees a whole entry or none, and concurrent writers of one
 * key (shards on one node) each leave a whole one. A reader checks the
 * header, the key and kind it asked for and the file's length before it
 * reads, and the payload's checksum before the caller may use what it
 * read: a truncated, corrupt or mismatched entry is an error with the
 * reason, and is removed. A use sets the file's modification time (the
 * "last use" eviction goes by; atime is unreliable under relatime and
 * noatime). Eviction, after a write that takes the folder past its limit,
 * holds an exclusive flock on <dir>/.lock, so two harnesses never evict at
 * once; readers take no lock (an entry removed while open stays readable).
 *
 * Keys are built with dh_keyb: every ingredient is added with its name
 * and length, so "ab"+"c" and "a"+"bc" give different keys.
 */
#ifndef DH_STORE_H
#define DH_STORE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "../../backends/errors.h"

#define DH_STORE_FORMAT 1          /* the entry layout; a change makes old entries stale */
#define DH_STORE_HEADER_BYTES 96

struct dh_store_key {
    unsigned char b[16];
};

/* 32 lowercase hex digits and a NUL */
void dh_store_key_hex(const struct dh_store_key *k, char hex[33]);

/* A key under construction (XXH3-128 streaming state, opaque). */
struct dh_keyb {
    void *st;
};
/* 0, or -1 when out of memory */
int dh_keyb_init(struct dh_keyb *kb);
/* one named ingredient: its name, length and bytes */
void dh_keyb_add(struct dh_keyb *kb, const char *name, const void *data, size_t len);
/* a text ingredient (NULL counts as absent, distinct from "") */
void dh_keyb_str(struct dh_keyb *kb, const char *name, const char *text);
void dh_keyb_int(struct dh_keyb *kb, const char *name, long long v);
/* the key; frees the state */
void dh_keyb_final(struct dh_keyb *kb, struct dh_store_key *key);

struct dh_store {
    char dir[4096];
    uint64_t limit_bytes;          /* 0: no limit */
};

/* Use folder dir (made when missing) with a limit. 0, or an error naming
 * the folder and the reason. */
int dh_store_open(struct dh_store *s, const char *dir, uint64_t limit_bytes,
                  struct dh_err *err);

/* Reading one entry: open (header, key, kind and length checked), read
 * the payload in pieces, close (checksum checked). Only a close that
 * returns 0 makes what was read usable. */
struct dh_store_reader {
    int fd;
    char path[4200];
    uint64_t payload_bytes, done;
    void *st;                       /* checksum state */
    unsigned char sum[16];
    char *label;                    /* owned */
};
/* 1: opened; 0: no such entry; -1: a bad entry, removed, why says what
 * was wrong with it */
int dh_store_get(const struct dh_store *s, const struct dh_store_key *k, uint32_t kind,
                 struct dh_store_reader *r, char *why, size_t why_len);
/* n bytes of payload into dst: 0, or -1 (why) past its end or on a read
 * error */
int dh_store_read(struct dh_store_reader *r, void *dst, size_t n, char *why, size_t why_len);
/* 0: the whole payload was read and its checksum holds (the entry's last
 * use is now); -1: why, and a corrupt entry is removed. Frees r. */
int dh_store_done(struct dh_store_reader *r, char *why, size_t why_len);
/* give up reading (the entry stays) */
void dh_store_abandon(struct dh_store_reader *r);

/* Writing one entry: begin (a temporary file), write the payload in
 * pieces, commit (checksum, fsync, rename, then eviction when the folder
 * passed its limit). An entry larger than the limit is refused at begin
 * (1 with why). Any failure leaves no temporary file and the folder as it
 * was. */
struct dh_store_writer {
    int fd;
    char tmp[4200], path[4200];
    uint64_t payload_bytes, done;
    void *st;
    unsigned char head[DH_STORE_HEADER_BYTES];
    size_t label_len;
    const struct dh_store *s;
};
/* 0: writing; 1: refused, too large for the limit (why); -1: error (err) */
int dh_store_begin(const struct dh_store *s, const struct dh_store_key *k, uint32_t kind,
                   const char *label, uint64_t payload_bytes, struct dh_store_writer *w,
                   char *why, size_t why_len, struct dh_err *err);
int dh_store_write(struct dh_store_writer *w, const void *src, size_t n, struct dh_err *err);
int dh_store_commit(struct dh_store_writer *w, struct dh_err *err);
void dh_store_cancel(struct dh_store_writer *w);

/* Remove the least recently used entries until the folder is within
 * limit_bytes (entries other than `keep`, which may be NULL), and
 * temporary files older than an hour (a writer that died). Skipped when
 * another process holds the lock. Returns the entries removed. */
int dh_store_evict(const struct dh_store *s, uint64_t limit_bytes, const struct dh_store_key *keep);

/* One entry as listed: the header alone (payload not read) unless
 * verified. */
struct dh_store_info {
    char name[64];                  /* file name */
    char key_hex[33];
    uint32_t kind;
    char label[512];
    uint64_t file_bytes;
    time_t last_use;
    int ok;                         /* header readable (and, verified, payload too) */
    char why[256];                  /* when not ok */
};
/* Call fn for every entry (sorted by last use, newest first); verify=1
 * also reads each payload and checks its checksum. Returns the number of
 * entries, or -1 with err when the folder cannot be read (a missing
 * folder holds 0 entries). */
int dh_store_list(const char *dir, int verify,
                  void (*fn)(void *ctx, const struct dh_store_info *info), void *ctx,
                  struct dh_err *err);
/* Remove every entry and temporary file; *bytes what they held. Returns
 * the entries removed, or -1 with err. */
int dh_store_clear(const char *dir, uint64_t *bytes, struct dh_err *err);
/* Remove one entry by file name (as listed). 0 or -1. */
int dh_store_remove(const char *dir, const char *name);

#endif
