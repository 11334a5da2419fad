/* fs.h — file-system helpers every room may use. */
#ifndef DH_FS_H
#define DH_FS_H

/* mkdir -p; 0 or -1 with errno */
int dh_mkdir_p(const char *path);

#endif
