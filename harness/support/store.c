/* store.c — see store.h. */
#define _GNU_SOURCE
#include "store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include <xxhash.h>

#include "fs.h"

static const char magic[8] = {'D', 'H', 'W', 'C', 'A', 'C', 'H', 'E'};

/* header layout (host byte order; a file from another byte order fails
 * the version check): offsets in bytes */
enum {
    H_MAGIC = 0, H_VERSION = 8, H_KIND = 12, H_KEY = 16, H_LABEL = 32, H_PAYLOAD = 40,
    H_SUM = 48, H_HSUM = 64, H_END = 80
};
_Static_assert(H_END <= DH_STORE_HEADER_BYTES, "header fits");

#define ENTRY_EXT ".dhw"
#define TMP_PREFIX ".tmp."
#define LABEL_MAX 4096

void dh_store_key_hex(const struct dh_store_key *k, char hex[33])
{
    for (int i = 0; i < 16; i++)
        snprintf(hex + 2 * i, 3, "%02x", k->b[i]);
}

static void canon(XXH128_hash_t h, unsigned char out[16])
{
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, h);
    memcpy(out, c.digest, 16);
}

/* ---- keys ---- */

int dh_keyb_init(struct dh_keyb *kb)
{
    kb->st = XXH3_createState();
    if (!kb->st)
        return -1;
    XXH3_128bits_reset(kb->st);
    return 0;
}

void dh_keyb_add(struct dh_keyb *kb, const char *name, const void *data, size_t len)
{
    uint64_t nl = strlen(name), dl = len;
    XXH3_128bits_update(kb->st, &nl, sizeof nl);
    XXH3_128bits_update(kb->st, name, nl);
    XXH3_128bits_update(kb->st, &dl, sizeof dl);
    if (len)
        XXH3_128bits_update(kb->st, data, len);
}

void dh_keyb_str(struct dh_keyb *kb, const char *name, const char *text)
{
    if (!text) {
        char absent[128];
        snprintf(absent, sizeof absent, "%s(absent)", name);
        dh_keyb_add(kb, absent, "", 0);
        return;
    }
    dh_keyb_add(kb, name, text, strlen(text));
}

void dh_keyb_int(struct dh_keyb *kb, const char *name, long long v)
{
    dh_keyb_add(kb, name, &v, sizeof v);
}

void dh_keyb_final(struct dh_keyb *kb, struct dh_store_key *key)
{
    canon(XXH3_128bits_digest(kb->st), key->b);
    XXH3_freeState(kb->st);
    kb->st = NULL;
}

/* ---- the folder ---- */

int dh_store_open(struct dh_store *s, const char *dir, uint64_t limit_bytes,
                  struct dh_err *err)
{
    if (strlen(dir) >= sizeof s->dir - 64)
        return dh_err_set(err, DH_E_USAGE, "cache folder name too long: %.80s...", dir);
    snprintf(s->dir, sizeof s->dir, "%s", dir);
    s->limit_bytes = limit_bytes;
    if (dh_mkdir_p(dir))
        return dh_err_set(err, DH_E_IO, "cannot make the cache folder %s: %s", dir,
                          strerror(errno));
    return 0;
}

static void entry_path(const char *dir, const struct dh_store_key *k, char *out, size_t len)
{
    char hex[33];
    dh_store_key_hex(k, hex);
    snprintf(out, len, "%s/%s" ENTRY_EXT, dir, hex);
}

static int read_full(int fd, void *dst, size_t n)
{
    char *p = dst;
    while (n) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

/* Check a header read from a file of file_bytes; fill kind, key, label
 * and payload lengths. 0, or -1 with why. */
static int parse_header(const unsigned char *h, uint64_t file_bytes, uint32_t *kind,
                        unsigned char key[16], uint64_t *label_len, uint64_t *payload_len,
                        char *why, size_t why_len)
{
    if (memcmp(h + H_MAGIC, magic, sizeof magic)) {
        snprintf(why, why_len, "not a cache entry (bad magic)");
        return -1;
    }
    uint32_t version;
    memcpy(&version, h + H_VERSION, 4);
    unsigned char hs[16];
    canon(XXH3_128bits(h, H_HSUM), hs);
    if (memcmp(hs, h + H_HSUM, 16)) {
        snprintf(why, why_len, "header checksum mismatch");
        return -1;
    }
    if (version != DH_STORE_FORMAT) {
        snprintf(why, why_len, "entry format %u, this harness writes %u", version,
                 DH_STORE_FORMAT);
        return -1;
    }
    memcpy(kind, h + H_KIND, 4);
    memcpy(key, h + H_KEY, 16);
    memcpy(label_len, h + H_LABEL, 8);
    memcpy(payload_len, h + H_PAYLOAD, 8);
    if (*label_len > LABEL_MAX
        || file_bytes != DH_STORE_HEADER_BYTES + *label_len + *payload_len) {
        snprintf(why, why_len, "truncated or extended: %llu bytes, the header says %llu",
                 (unsigned long long)file_bytes,
                 (unsigned long long)(DH_STORE_HEADER_BYTES + *label_len + *payload_len));
        return -1;
    }
    return 0;
}

int dh_store_get(const struct dh_store *s, const struct dh_store_key *k, uint32_t kind,
                 struct dh_store_reader *r, char *why, size_t why_len)
{
    memset(r, 0, sizeof *r);
    r->fd = -1;
    entry_path(s->dir, k, r->path, sizeof r->path);
    /* non-blocking: a FIFO planted at an entry's name must not stall the
     * open (it is refused below, as not a regular file) */
    int fd = open(r->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
    if (fd < 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return 0;
        snprintf(why, why_len, "cannot open %s: %s", r->path, strerror(errno));
        return -1;
    }
    struct stat st;
    unsigned char h[DH_STORE_HEADER_BYTES];
    uint32_t fkind;
    unsigned char fkey[16];
    uint64_t ll, pl;
    if (fstat(fd, &st)) {
        snprintf(why, why_len, "cannot stat %s: %s", r->path, strerror(errno));
        goto bad;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, why_len, "%s is not a regular file", r->path);
        goto bad;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    if ((uint64_t)st.st_size < DH_STORE_HEADER_BYTES || read_full(fd, h, sizeof h)) {
        snprintf(why, why_len, "truncated: %lld bytes, shorter than its header",
                 (long long)st.st_size);
        goto bad;
    }
    if (parse_header(h, (uint64_t)st.st_size, &fkind, fkey, &ll, &pl, why, why_len))
        goto bad;
    if (memcmp(fkey, k->b, 16)) {
        snprintf(why, why_len, "holds another key than its name says");
        goto bad;
    }
    if (fkind != kind) {
        snprintf(why, why_len, "holds kind %u, asked for %u", fkind, kind);
        goto bad;
    }
    r->st = XXH3_createState();
    r->label = malloc(ll + 1);
    if (!r->st || !r->label) {
        snprintf(why, why_len, "out of host memory");
        XXH3_freeState(r->st);
        free(r->label);
        close(fd);
        return -1;
    }
    XXH3_128bits_reset(r->st);
    if (read_full(fd, r->label, ll)) {
        snprintf(why, why_len, "cannot read its label");
        XXH3_freeState(r->st);
        free(r->label);
        goto bad;
    }
    r->label[ll] = 0;
    XXH3_128bits_update(r->st, r->label, ll);
    memcpy(r->sum, h + H_SUM, 16);
    r->fd = fd;
    r->payload_bytes = pl;
    return 1;
bad:
    close(fd);
    unlink(r->path);
    r->st = NULL;
    r->label = NULL;
    return -1;
}

int dh_store_read(struct dh_store_reader *r, void *dst, size_t n, char *why, size_t why_len)
{
    if (n > r->payload_bytes - r->done) {
        snprintf(why, why_len, "payload shorter than its contents need (%llu bytes)",
                 (unsigned long long)r->payload_bytes);
        return -1;
    }
    if (read_full(r->fd, dst, n)) {
        snprintf(why, why_len, "read error: %s", errno ? strerror(errno) : "short read");
        return -1;
    }
    XXH3_128bits_update(r->st, dst, n);
    r->done += n;
    return 0;
}

static void reader_free(struct dh_store_reader *r)
{
    if (r->fd >= 0)
        close(r->fd);
    r->fd = -1;
    XXH3_freeState(r->st);
    r->st = NULL;
    free(r->label);
    r->label = NULL;
}

int dh_store_done(struct dh_store_reader *r, char *why, size_t why_len)
{
    int rc = 0;
    if (r->done != r->payload_bytes) {
        snprintf(why, why_len, "payload of %llu bytes, its contents need %llu",
                 (unsigned long long)r->payload_bytes, (unsigned long long)r->done);
        rc = -1;
    } else {
        unsigned char sum[16];
        canon(XXH3_128bits_digest(r->st), sum);
        if (memcmp(sum, r->sum, 16)) {
            snprintf(why, why_len, "payload checksum mismatch");
            rc = -1;
        }
    }
    if (rc)
        unlink(r->path);
    else
        (void)futimens(r->fd, NULL);   /* last use; a read-only folder keeps the old time */
    reader_free(r);
    return rc;
}

void dh_store_abandon(struct dh_store_reader *r)
{
    reader_free(r);
}

/* ---- writing ---- */

int dh_store_begin(const struct dh_store *s, const struct dh_store_key *k, uint32_t kind,
                   const char *label, uint64_t payload_bytes, struct dh_store_writer *w,
                   char *why, size_t why_len, struct dh_err *err)
{
    memset(w, 0, sizeof *w);
    w->fd = -1;
    w->s = s;
    size_t ll = strlen(label);
    if (ll > LABEL_MAX)
        ll = LABEL_MAX;
    uint64_t total = DH_STORE_HEADER_BYTES + ll + payload_bytes;
    if (s->limit_bytes && total > s->limit_bytes) {
        snprintf(why, why_len, "%llu bytes, more than the cache's limit of %llu",
                 (unsigned long long)total, (unsigned long long)s->limit_bytes);
        return 1;
    }
    entry_path(s->dir, k, w->path, sizeof w->path);
    char hex[33];
    dh_store_key_hex(k, hex);
    snprintf(w->tmp, sizeof w->tmp, "%s/" TMP_PREFIX "%s.%ld", s->dir, hex, (long)getpid());
    w->fd = dh_open_excl(w->tmp, 0644);        /* never through a planted link */
    if (w->fd < 0)
        return dh_err_set(err, DH_E_IO, "cannot write in the cache folder %s: %s", s->dir,
                          strerror(errno));
    w->st = XXH3_createState();
    if (!w->st) {
        dh_store_cancel(w);
        return dh_err_set(err, DH_E_RESOURCES, "out of host memory");
    }
    XXH3_128bits_reset(w->st);
    unsigned char *h = w->head;
    memset(h, 0, sizeof w->head);
    uint32_t version = DH_STORE_FORMAT;
    uint64_t l64 = ll;
    memcpy(h + H_MAGIC, magic, sizeof magic);
    memcpy(h + H_VERSION, &version, 4);
    memcpy(h + H_KIND, &kind, 4);
    memcpy(h + H_KEY, k->b, 16);
    memcpy(h + H_LABEL, &l64, 8);
    memcpy(h + H_PAYLOAD, &payload_bytes, 8);
    w->payload_bytes = payload_bytes;
    w->label_len = ll;
    /* the header goes in last, with its checksums: a file cut short before
     * then has no valid header */
    if (lseek(w->fd, DH_STORE_HEADER_BYTES, SEEK_SET) < 0 || dh_write_all(w->fd, label, ll)) {
        int e = errno;
        dh_store_cancel(w);
        return dh_err_set(err, DH_E_IO, "cannot write in the cache folder %s: %s", s->dir,
                          strerror(e));
    }
    XXH3_128bits_update(w->st, label, ll);
    return 0;
}

int dh_store_write(struct dh_store_writer *w, const void *src, size_t n, struct dh_err *err)
{
    if (n > w->payload_bytes - w->done) {
        dh_store_cancel(w);
        return dh_err_set(err, DH_E_INTERNAL, "cache entry: more payload than announced");
    }
    if (dh_write_all(w->fd, src, n)) {
        int e = errno;
        dh_store_cancel(w);
        return dh_err_set(err, DH_E_IO, "cannot write in the cache folder %s: %s", w->s->dir,
                          strerror(e));
    }
    XXH3_128bits_update(w->st, src, n);
    w->done += n;
    return 0;
}

int dh_store_commit(struct dh_store_writer *w, struct dh_err *err)
{
    if (w->done != w->payload_bytes) {
        dh_store_cancel(w);
        return dh_err_set(err, DH_E_INTERNAL, "cache entry: less payload than announced");
    }
    canon(XXH3_128bits_digest(w->st), w->head + H_SUM);
    canon(XXH3_128bits(w->head, H_HSUM), w->head + H_HSUM);
    const char *what = "write";
    if (pwrite(w->fd, w->head, DH_STORE_HEADER_BYTES, 0) != DH_STORE_HEADER_BYTES)
        goto fail;
    what = "fsync";
    if (fsync(w->fd))
        goto fail;
    what = "close";
    int fd = w->fd;
    w->fd = -1;
    if (close(fd))
        goto fail;
    what = "rename";
    if (rename(w->tmp, w->path))
        goto fail;
    XXH3_freeState(w->st);
    w->st = NULL;
    struct dh_store_key k;
    memcpy(k.b, w->head + H_KEY, 16);
    if (w->s->limit_bytes)
        dh_store_evict(w->s, w->s->limit_bytes, &k);
    return 0;
fail:;
    int e = errno ? errno : EIO;
    dh_store_cancel(w);
    return dh_err_set(err, DH_E_IO, "cannot write in the cache folder %s (%s): %s", w->s->dir,
                      what, strerror(e));
}

void dh_store_cancel(struct dh_store_writer *w)
{
    if (w->fd >= 0)
        close(w->fd);
    w->fd = -1;
    if (w->tmp[0])
        unlink(w->tmp);
    w->tmp[0] = 0;
    XXH3_freeState(w->st);
    w->st = NULL;
}

/* ---- listing, eviction, clearing ---- */

static int is_entry(const char *name)
{
    size_t n = strlen(name), e = strlen(ENTRY_EXT);
    return n == 32 + e && !strcmp(name + 32, ENTRY_EXT) && strspn(name, "0123456789abcdef") == 32;
}

static int is_tmp(const char *name)
{
    return !strncmp(name, TMP_PREFIX, strlen(TMP_PREFIX));
}

/* the header of one entry file, and with verify its payload's checksum */
static void inspect(const char *dir, const char *name, int verify, struct dh_store_info *in)
{
    memset(in, 0, sizeof *in);
    snprintf(in->name, sizeof in->name, "%s", name);
    snprintf(in->key_hex, sizeof in->key_hex, "%.32s", name);
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
    struct stat st;
    if (fd < 0 || fstat(fd, &st)) {
        snprintf(in->why, sizeof in->why, "cannot read: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return;
    }
    if (!S_ISREG(st.st_mode)) {         /* a FIFO, device or folder: never read */
        snprintf(in->why, sizeof in->why, "not a regular file");
        close(fd);
        return;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    in->file_bytes = (uint64_t)st.st_size;
    in->last_use = st.st_mtime;
    unsigned char h[DH_STORE_HEADER_BYTES], key[16];
    uint64_t ll, pl;
    if (st.st_size < DH_STORE_HEADER_BYTES || read_full(fd, h, sizeof h)) {
        snprintf(in->why, sizeof in->why, "truncated: %lld bytes, shorter than its header",
                 (long long)st.st_size);
        goto out;
    }
    if (parse_header(h, in->file_bytes, &in->kind, key, &ll, &pl, in->why, sizeof in->why))
        goto out;
    char hex[33];
    struct dh_store_key k;
    memcpy(k.b, key, 16);
    dh_store_key_hex(&k, hex);
    if (strncmp(hex, name, 32)) {
        snprintf(in->why, sizeof in->why, "holds another key than its name says");
        goto out;
    }
    char label[LABEL_MAX + 1];
    if (read_full(fd, label, ll)) {
        snprintf(in->why, sizeof in->why, "cannot read its label");
        goto out;
    }
    label[ll] = 0;
    snprintf(in->label, sizeof in->label, "%s", label);
    if (verify) {
        XXH3_state_t *xs = XXH3_createState();
        if (!xs) {
            snprintf(in->why, sizeof in->why, "out of host memory");
            goto out;
        }
        XXH3_128bits_reset(xs);
        XXH3_128bits_update(xs, label, ll);
        static char buf[1 << 16];
        uint64_t left = pl;
        while (left) {
            size_t n = left < sizeof buf ? (size_t)left : sizeof buf;
            if (read_full(fd, buf, n))
                break;
            XXH3_128bits_update(xs, buf, n);
            left -= n;
        }
        unsigned char sum[16];
        canon(XXH3_128bits_digest(xs), sum);
        XXH3_freeState(xs);
        if (left) {
            snprintf(in->why, sizeof in->why, "cannot read its payload");
            goto out;
        }
        if (memcmp(sum, h + H_SUM, 16)) {
            snprintf(in->why, sizeof in->why, "payload checksum mismatch");
            goto out;
        }
    }
    in->ok = 1;
out:
    close(fd);
}

static int by_last_use(const void *a, const void *b)
{
    const struct dh_store_info *x = a, *y = b;
    if (x->last_use != y->last_use)
        return x->last_use > y->last_use ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* every entry's info, newest first; *n; NULL with n = -1 on error */
static struct dh_store_info *collect(const char *dir, int verify, int *n, struct dh_err *err)
{
    *n = 0;
    DIR *d = opendir(dir);
    if (!d) {
        if (errno == ENOENT)
            return NULL;
        *n = -1;
        dh_err_set(err, DH_E_IO, "cannot read the cache folder %s: %s", dir, strerror(errno));
        return NULL;
    }
    struct dh_store_info *v = NULL;
    int cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!is_entry(de->d_name))
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            struct dh_store_info *nv = realloc(v, (size_t)cap * sizeof *v);
            if (!nv) {
                free(v);
                closedir(d);
                *n = -1;
                dh_err_set(err, DH_E_RESOURCES, "out of host memory");
                return NULL;
            }
            v = nv;
        }
        inspect(dir, de->d_name, verify, &v[(*n)++]);
    }
    closedir(d);
    if (*n > 1)
        qsort(v, (size_t)*n, sizeof *v, by_last_use);
    return v;
}

int dh_store_list(const char *dir, int verify,
                  void (*fn)(void *ctx, const struct dh_store_info *info), void *ctx,
                  struct dh_err *err)
{
    int n;
    struct dh_store_info *v = collect(dir, verify, &n, err);
    for (int i = 0; i < n; i++)
        fn(ctx, &v[i]);
    free(v);
    return n;
}

static void remove_stale_tmp(const char *dir, time_t older_than)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *de;
    char path[4200];
    struct stat st;
    while ((de = readdir(d))) {
        if (!is_tmp(de->d_name))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (!stat(path, &st) && st.st_mtime < older_than)
            unlink(path);
    }
    closedir(d);
}

int dh_store_evict(const struct dh_store *s, uint64_t limit_bytes, const struct dh_store_key *keep)
{
    char lock[4200];
    snprintf(lock, sizeof lock, "%s/.lock", s->dir);
    int lfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (lfd < 0)
        return 0;
    if (flock(lfd, LOCK_EX | LOCK_NB)) {       /* another harness is evicting */
        close(lfd);
        return 0;
    }
    remove_stale_tmp(s->dir, time(NULL) - 3600);
    int n, removed = 0;
    struct dh_err e;
    struct dh_store_info *v = collect(s->dir, 0, &n, &e);
    uint64_t total = 0;
    for (int i = 0; i < n; i++)
        total += v[i].file_bytes;
    char keep_hex[33] = "";
    if (keep)
        dh_store_key_hex(keep, keep_hex);
    for (int i = n - 1; i >= 0 && total > limit_bytes; i--) {   /* oldest first */
        if (keep && !strncmp(v[i].name, keep_hex, 32))
            continue;
        if (!dh_store_remove(s->dir, v[i].name)) {
            total -= v[i].file_bytes;
            removed++;
        }
    }
    free(v);
    flock(lfd, LOCK_UN);
    close(lfd);
    return removed;
}

int dh_store_remove(const char *dir, const char *name)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return unlink(path) && errno != ENOENT ? -1 : 0;
}

int dh_store_clear(const char *dir, uint64_t *bytes, struct dh_err *err)
{
    *bytes = 0;
    DIR *d = opendir(dir);
    if (!d) {
        if (errno == ENOENT)
            return 0;
        return dh_err_set(err, DH_E_IO, "cannot read the cache folder %s: %s", dir,
                          strerror(errno));
    }
    int removed = 0;
    struct dirent *de;
    char path[4200];
    struct stat st;
    while ((de = readdir(d))) {
        if (!is_entry(de->d_name) && !is_tmp(de->d_name))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (stat(path, &st))
            continue;
        if (unlink(path)) {
            int e = errno;
            closedir(d);
            return dh_err_set(err, DH_E_IO, "cannot remove %s: %s", path, strerror(e));
        }
        if (is_entry(de->d_name)) {
            removed++;
            *bytes += (uint64_t)st.st_size;
        }
    }
    closedir(d);
    return removed;
}
