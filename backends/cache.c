/* cache.c — the compiled-program cache (see cache.h). */
#include "cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>

#include <xxhash.h>

uint64_t dh_fnv1a64(const void *data, size_t len, uint64_t h)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static uint64_t field(uint64_t h, const char *s)
{
    s = s ? s : "";
    h = dh_fnv1a64(s, strlen(s), h);
    return dh_fnv1a64("\x1f", 1, h);     /* separator: "ab"+"c" != "a"+"bc" */
}

void dh_cache_key(char key[33], const char *backend, const char *device,
                  const char *driver, const char *source, const char *options)
{
    uint64_t a = DH_FNV_OFFSET, b = 0x6c62272e07bb0142ULL;
    const char *parts[] = {backend, device, driver, source, options};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
        a = field(a, parts[i]);
        b = field(b ^ (a >> 7), parts[i]);
    }
    snprintf(key, 33, "%016llx%016llx", (unsigned long long)a,
             (unsigned long long)b);
}

const char *dh_cache_dir(void)
{
    static char dir[4096];
    const char *env = getenv("DH_CACHE_DIR");
    if (env && *env) {
        snprintf(dir, sizeof dir, "%s/programs", env);
        return dir;
    }
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (xdg && *xdg)
        snprintf(dir, sizeof dir, "%s/divharness/programs", xdg);
    else
        snprintf(dir, sizeof dir, "%s/.cache/divharness/programs",
                 home && *home ? home : "/tmp");
    return dir;
}

static int disabled(void)
{
    const char *e = getenv("DH_NO_CACHE");
    return e && *e && strcmp(e, "0") != 0;
}

static int mkdirs(const char *path)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p == '/') {
            *p = 0;
            if (mkdir(tmp, 0755) && errno != EEXIST)
                return -1;
            *p = '/';
        }
    }
    if (mkdir(tmp, 0755) && errno != EEXIST)
        return -1;
    return 0;
}

/* An entry: "DHPROG1\0", the payload's length (8 bytes) and its XXH3-128
 * checksum (16), then the payload. A file cut short, of another format,
 * or whose bytes changed is a miss (the program is built from source and
 * the entry written anew): a corrupt binary never reaches the driver. */
#define ENTRY_MAGIC "DHPROG1"
#define ENTRY_HEAD (8 + 8 + 16)

/* the payload of a whole entry's bytes, or NULL (its length in *len) */
static const unsigned char *entry_payload(const unsigned char *b, size_t n, size_t *len)
{
    uint64_t pl;
    if (n < ENTRY_HEAD || memcmp(b, ENTRY_MAGIC, 8))
        return NULL;
    memcpy(&pl, b + 8, 8);
    if (pl != n - ENTRY_HEAD)
        return NULL;
    XXH128_hash_t h = XXH3_128bits(b + ENTRY_HEAD, (size_t)pl);
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, h);
    if (memcmp(c.digest, b + 16, 16))
        return NULL;
    *len = (size_t)pl;
    return b + ENTRY_HEAD;
}

/* the whole of a regular file at path (never a FIFO or a link), or NULL */
static unsigned char *read_entry(const char *path, size_t *n)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
    struct stat sb;
    if (fd < 0)
        return NULL;
    if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) || sb.st_size < ENTRY_HEAD
        || (uint64_t)sb.st_size > ((uint64_t)1 << 31)) {
        close(fd);
        return NULL;
    }
    unsigned char *b = malloc((size_t)sb.st_size);
    size_t got = 0;
    while (b && got < (size_t)sb.st_size) {
        ssize_t r = read(fd, b + got, (size_t)sb.st_size - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    if (!b || got != (size_t)sb.st_size) {
        free(b);
        return NULL;
    }
    *n = got;
    return b;
}

int dh_cache_load(const char *key, void **data, size_t *len)
{
    if (disabled())
        return -1;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.bin", dh_cache_dir(), key);
    size_t n = 0, pl = 0;
    unsigned char *b = read_entry(path, &n);
    if (!b)
        return -1;
    const unsigned char *p = entry_payload(b, n, &pl);
    void *out = p && pl ? malloc(pl) : NULL;
    if (!out) {
        free(b);
        return -1;
    }
    memcpy(out, p, pl);
    free(b);
    *data = out;
    *len = pl;
    return 0;
}

int dh_cache_verify(int remove_bad, int *good, int *bad, char *first_bad, size_t fb_len)
{
    *good = *bad = 0;
    if (first_bad && fb_len)
        first_bad[0] = 0;
    DIR *d = opendir(dh_cache_dir());
    if (!d)
        return errno == ENOENT ? 0 : -1;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l != 36 || strcmp(de->d_name + 32, ".bin"))
            continue;
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dh_cache_dir(), de->d_name);
        size_t n = 0, pl = 0;
        unsigned char *b = read_entry(path, &n);
        int ok = b && entry_payload(b, n, &pl) != NULL;
        free(b);
        if (ok) {
            (*good)++;
            continue;
        }
        (*bad)++;
        if (first_bad && fb_len && !first_bad[0])
            snprintf(first_bad, fb_len, "%s", path);
        if (remove_bad)
            unlink(path);
    }
    closedir(d);
    return 0;
}

void dh_cache_store(const char *key, const void *data, size_t len)
{
    if (disabled() || !data || !len)
        return;
    const char *dir = dh_cache_dir();
    if (mkdirs(dir))
        return;
    char path[4200], tmp[4300];
    snprintf(path, sizeof path, "%s/%s.bin", dir, key);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    /* a name of this process's own, created new: a leftover of a dead
     * process with this pid, or a link planted there, is removed (as a
     * link, never followed) and the name made again */
    int fl = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
    int fd = open(tmp, fl, 0644);
    if (fd < 0 && errno == EEXIST && unlink(tmp) == 0)
        fd = open(tmp, fl, 0644);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "wb");
    if (!f) {
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        return;
    }
    unsigned char head[ENTRY_HEAD];
    uint64_t pl = len;
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, XXH3_128bits(data, len));
    memcpy(head, ENTRY_MAGIC, 8);
    memcpy(head + 8, &pl, 8);
    memcpy(head + 16, c.digest, 16);
    int ok = fwrite(head, 1, sizeof head, f) == sizeof head && fwrite(data, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path))
        unlink(tmp);
}
