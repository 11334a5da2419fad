/* fs.c — see fs.h. */
#define _GNU_SOURCE   /* mkostemp */
#include "fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

int dh_mkdir_p(const char *path)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(tmp, 0755) && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return (mkdir(tmp, 0755) && errno != EEXIST) ? -1 : 0;
}

int dh_dir_check(const char *dir, char *why, size_t why_len)
{
    struct stat sb;
    if (lstat(dir, &sb)) {
        snprintf(why, why_len, "cannot use %s: %s (choose a writable folder with --out)", dir,
                 strerror(errno));
        return -1;
    }
    if (S_ISLNK(sb.st_mode)) {
        struct stat tb;
        if (sb.st_uid != geteuid()) {
            snprintf(why, why_len, "%s is a symbolic link of another user (uid %ld): give "
                     "the folder itself, or another with --out", dir, (long)sb.st_uid);
            return -1;
        }
        if (stat(dir, &tb) || !S_ISDIR(tb.st_mode)) {
            snprintf(why, why_len, "%s is a link to no folder: give a folder with --out", dir);
            return -1;
        }
        return 0;
    }
    if (!S_ISDIR(sb.st_mode)) {
        snprintf(why, why_len, "%s is not a folder: choose a folder with --out", dir);
        return -1;
    }
    return 0;
}

/* the temporaries of processes that are gone: NAME.tmp.PID[.XXXXXX] */
static void remove_stale_tmps(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d))) {
        const char *t = strstr(de->d_name, ".tmp.");
        if (!t)
            continue;
        char *end;
        long pid = strtol(t + 5, &end, 10);
        if (pid <= 0 || end == t + 5 || (*end && *end != '.'))
            continue;
        if (pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        struct stat sb;
        if (!fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW)
            && (S_ISREG(sb.st_mode) || S_ISLNK(sb.st_mode)))
            unlinkat(dirfd(d), de->d_name, 0);
    }
    closedir(d);
}

int dh_dir_lock(const char *dir, char *why, size_t why_len)
{
    if (dh_dir_check(dir, why, why_len))
        return -1;
    char path[4200];
    snprintf(path, sizeof path, "%s/.harness.lock", dir);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
    if (fd < 0) {
        snprintf(why, why_len, "cannot open %s: %s (%s)", path, strerror(errno),
                 errno == ELOOP ? "a symbolic link where the lock belongs: remove it"
                                : "choose a writable folder with --out");
        return -1;
    }
    struct stat sb;
    if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
        snprintf(why, why_len, "%s is not a regular file: remove it, or choose another "
                 "folder with --out", path);
        close(fd);
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB)) {
        char pid[32] = "";
        ssize_t n = pread(fd, pid, sizeof pid - 1, 0);
        pid[n > 0 ? n : 0] = 0;
        pid[strcspn(pid, "\n")] = 0;
        snprintf(why, why_len, "%s is in use by another harness (pid %s): wait for it to "
                 "finish, or choose another folder with --out", dir, *pid ? pid : "?");
        close(fd);
        return -1;
    }
    char pid[32];
    int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) || pwrite(fd, pid, (size_t)n, 0) != n) {
        /* the lock holds without the pid; only the message loses it */
    }
    remove_stale_tmps(dir);
    return fd;
}

int dh_tmp_create(const char *path, char *tmp, size_t tmp_len)
{
    int n = snprintf(tmp, tmp_len, "%s.tmp.%ld.XXXXXX", path, (long)getpid());
    if (n < 0 || (size_t)n >= tmp_len) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = mkostemp(tmp, O_CLOEXEC);
    if (fd < 0)
        return -1;
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0644 & ~mask)) {
        /* the file stays 0600: readable by its owner, which is enough */
    }
    return fd;
}

int dh_open_excl(const char *path, int mode)
{
    int fl = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
    int fd = open(path, fl, mode);
    if (fd < 0 && errno == EEXIST && unlink(path) == 0)
        fd = open(path, fl, mode);
    return fd;
}

FILE *dh_tmp_fopen(const char *path, char *tmp, size_t tmp_len)
{
    int fd = dh_tmp_create(path, tmp, tmp_len);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        int e = errno;
        close(fd);
        unlink(tmp);
        errno = e;
    }
    return f;
}

int dh_replace_ok(const char *path, char *why, size_t why_len)
{
    struct stat sb;
    if (lstat(path, &sb))
        return 0;                       /* absent (or unreachable: the write will say) */
    if (S_ISREG(sb.st_mode) || S_ISLNK(sb.st_mode))
        return 0;
    snprintf(why, why_len, "%s is %s, not a regular file: give a file name", path,
             S_ISDIR(sb.st_mode)    ? "a folder"
             : S_ISFIFO(sb.st_mode) ? "a FIFO"
             : S_ISSOCK(sb.st_mode) ? "a socket"
             : S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ? "a device"
                                                          : "a special file");
    return -1;
}

int dh_open_data(const char *path, size_t max_bytes, char *why, size_t why_len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        snprintf(why, why_len, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    struct stat sb;
    if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
        snprintf(why, why_len, "%s is not a regular file (a FIFO, device or folder): give "
                 "a file", path);
        close(fd);
        return -1;
    }
    if (max_bytes && (unsigned long long)sb.st_size > (unsigned long long)max_bytes) {
        snprintf(why, why_len, "%s is %lld bytes, more than the %zu this file may hold: is it "
                 "the right file?", path, (long long)sb.st_size, max_bytes);
        close(fd);
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return fd;
}

void dh_line_directive(char *out, size_t len, const char *path)
{
    size_t o = (size_t)snprintf(out, len, "#line 1 \"");
    for (const char *q = path; *q && o + 8 < len; q++) {
        if (*q == '"' || *q == '\\')
            out[o++] = '\\';
        out[o++] = (*q == '\n' || *q == '\r') ? '?' : *q;
    }
    snprintf(out + o, len - o, "\"\n");
}

int dh_write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        if (w == 0) {
            errno = ENOSPC;
            return -1;
        }
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

FILE *dh_fopen_data(const char *path, size_t max_bytes, char *why, size_t why_len)
{
    int fd = dh_open_data(path, max_bytes, why, why_len);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        snprintf(why, why_len, "cannot read %s: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}

char *dh_read_data(const char *path, size_t max_bytes, size_t *len, char *why, size_t why_len)
{
    FILE *f = dh_fopen_data(path, max_bytes, why, why_len);
    if (!f)
        return NULL;
    char *b = NULL;
    size_t cap = 0, n = 0, k;
    do {
        if (n + 65536 >= cap) {
            char *nb = realloc(b, cap = 2 * cap + 65536);
            if (!nb) {
                free(b);
                fclose(f);
                snprintf(why, why_len, "%s: out of memory", path);
                return NULL;
            }
            b = nb;
        }
        k = fread(b + n, 1, cap - n - 1, f);
        n += k;
    } while (k > 0);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(b);
        snprintf(why, why_len, "cannot read %s", path);
        return NULL;
    }
    b[n] = 0;
    *len = n;
    return b;
}
