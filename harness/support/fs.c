/* fs.c — see fs.h. */
#include "fs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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

int dh_dir_lock(const char *dir, char *why, size_t why_len)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/.harness.lock", dir);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(why, why_len, "cannot open %s: %s (choose a writable folder with --out)",
                 path, strerror(errno));
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
