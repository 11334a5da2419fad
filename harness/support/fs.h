/* fs.h — file-system helpers every room may use. */
#ifndef DH_FS_H
#define DH_FS_H

#include <stddef.h>
#include <stdio.h>

/* write all n bytes of p to fd, retrying short writes and EINTR; 0, or -1
 * with errno (ENOSPC where write wrote nothing) */
int dh_write_all(int fd, const void *p, size_t n);

/* mkdir -p; 0 or -1 with errno */
int dh_mkdir_p(const char *path);

/* Claim folder dir for this process: an exclusive flock on dir/.harness.lock
 * (held until the process exits; its pid written inside). The descriptor,
 * or -1 with the reason in why (another process holds it: its pid; the
 * lock is not a regular file, or a link; the folder is a link of another
 * user's). With the lock held, the temporaries of dead processes in dir
 * (NAME.tmp.PID and NAME.tmp.PID.XXXXXX) are removed. */
int dh_dir_lock(const char *dir, char *why, size_t why_len);

/* dir as a folder a command may write into: a folder, or a link to one
 * that this user owns (a link planted by someone else in a shared place
 * such as /tmp is refused). 0, or -1 with the reason in why. */
int dh_dir_check(const char *dir, char *why, size_t why_len);

/* A new file for the atomic replace of path: PATH.tmp.PID.XXXXXX beside
 * it, created with O_EXCL (never an existing name, never through a
 * planted link), mode 0644 less the umask, close-on-exec. The descriptor
 * (the name in tmp), or -1 with errno. */
int dh_tmp_create(const char *path, char *tmp, size_t tmp_len);

/* Create path for writing with O_EXCL | O_NOFOLLOW (a name of this
 * process's own, e.g. NAME.tmp.PID): what is there already (a dead
 * process's leftover, or a planted link, which is removed as a link,
 * never followed) is unlinked first, once. The descriptor, or -1 with
 * errno. */
int dh_open_excl(const char *path, int mode);

/* dh_tmp_create as a stdio stream ("wb"); NULL with errno. */
FILE *dh_tmp_fopen(const char *path, char *tmp, size_t tmp_len);

/* 0 when path may be replaced by a rename or written: absent, or a
 * regular file (a link to one counts as the link, which rename replaces).
 * -1 with the reason in why for a folder, a device, a FIFO, a socket. */
int dh_replace_ok(const char *path, char *why, size_t why_len);

/* Open a file the harness reads as data (cache entries, journals, counts,
 * descriptors, kernels, listings): a regular file of at most max_bytes
 * (0: no limit), opened non-blocking so a FIFO cannot stall the open.
 * The descriptor (blocking again, close-on-exec), or -1 with the reason
 * in why. */
int dh_open_data(const char *path, size_t max_bytes, char *why, size_t why_len);

/* dh_open_data as a stdio stream ("rb"); NULL with the reason in why. */
FILE *dh_fopen_data(const char *path, size_t max_bytes, char *why, size_t why_len);

/* A data file's whole contents (dh_open_data's checks: a regular file of
 * at most max_bytes), NUL-terminated, malloc'd, its length in *len; NULL
 * with the reason in why. */
char *dh_read_data(const char *path, size_t max_bytes, size_t *len, char *why, size_t why_len);

/* the limits of the files the harness reads (a file past its limit is
 * refused, named, never read into memory) */
#define DH_DATA_MAX_TEXT    (64u << 20)   /* descriptors, kernels, journals, plans */
#define DH_DATA_MAX_LISTING (512u << 20)  /* SASS listings, measured counts */

/* "#line 1 \"PATH\"\n" into out: a file name compilers report, with the
 * path kept inside the C string (quote and backslash escaped, a newline
 * shown as '?', so a path cannot end the directive) */
void dh_line_directive(char *out, size_t len, const char *path);

#endif
