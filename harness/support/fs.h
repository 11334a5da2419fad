/* fs.h — file-system helpers every room may use. */
#ifndef DH_FS_H
#define DH_FS_H

#include <stddef.h>

/* write all n bytes of p to fd, retrying short writes and EINTR; 0, or -1
 * with errno (ENOSPC where write wrote nothing) */
int dh_write_all(int fd, const void *p, size_t n);

/* mkdir -p; 0 or -1 with errno */
int dh_mkdir_p(const char *path);

/* Claim folder dir for this process: an exclusive flock on dir/.harness.lock
 * (held until the process exits; its pid written inside). The descriptor,
 * or -1 with the reason in why (another process holds it: its pid). */
int dh_dir_lock(const char *dir, char *why, size_t why_len);

/* "#line 1 \"PATH\"\n" into out: a file name compilers report, with the
 * path kept inside the C string (quote and backslash escaped, a newline
 * shown as '?', so a path cannot end the directive) */
void dh_line_directive(char *out, size_t len, const char *path);

#endif
