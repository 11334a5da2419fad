/* fs.c — see fs.h. */
#include "fs.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

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
