/* source.c — kernel source and build options (source.h). */
#include "source.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../suites/suite.h"
#include "../support/fs.h"

extern const char dh_src_lib_dialect[];
extern const char dh_src_lib_tdr[];

char *dh_source_assemble(const struct dh_case *c)
{
    const char *parts[] = {dh_src_lib_dialect, "\n", dh_src_lib_tdr, "\n"};
    char line[2200], name[1100];
    if (c->bench->source_path) {
        dh_line_directive(line, sizeof line, c->bench->source_path);   /* the user's file */
    } else {
        snprintf(name, sizeof name, "suites/%s/%s/%s.k", c->suite, c->bench_name,
                 c->bench_name);
        dh_line_directive(line, sizeof line, name);
    }
    size_t len = strlen(line) + strlen(c->bench->source) + 1;
    for (size_t i = 0; i < 4; i++)
        len += strlen(parts[i]);
    char *s = malloc(len);
    if (!s)
        return NULL;
    s[0] = 0;
    for (size_t i = 0; i < 4; i++)
        strcat(s, parts[i]);
    strcat(s, line);
    strcat(s, c->bench->source);
    return s;
}

int dh_source_options(const struct dh_case *c, const struct dh_device_info *dev,
                      char *out, size_t len)
{
    int wg = (int)dh_pset_num(&c->params, "wg", 256);
    int o = snprintf(out, len, "-D DH_WG=%d -D DH_WAVE=%d ", wg, dev->warp_width);
    int minb = (int)dh_pset_num(&c->params, "minb", 0);     /* DH_CODEGEN_KNOBS */
    if (minb > 0 && o >= 0 && (size_t)o < len)
        o += snprintf(out + o, len - (size_t)o, "-D DH_MINB=%d ", minb);
    if (o < 0 || (size_t)o >= len)
        return -DH_E_INTERNAL;
    if (c->bench->defines)
        return c->bench->defines(c, dev, out + o, len - (size_t)o);
    return 0;
}

static int write_file(const char *path, const char *text, struct dh_err *err)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return dh_err_set(err, DH_E_IO, "cannot write %s: %s", path, strerror(errno));
    fputs(text, f);
    if (fclose(f))
        return dh_err_set(err, DH_E_IO, "cannot write %s: %s", path, strerror(errno));
    return 0;
}

int dh_source_dump(const char *dir, const struct dh_case *c, const char *src,
                   const char *options, struct dh_err *err)
{
    if (mkdir(dir, 0755) && errno != EEXIST)
        return dh_err_set(err, DH_E_IO, "cannot create --dump-source folder %s: %s",
                          dir, strerror(errno));
    char label[300], path[4096];
    dh_case_variant_label(c, label, sizeof label);
    for (char *p = label; *p; p++)
        if (*p == '[' || *p == ']' || *p == ',' || *p == '=' || *p == '/')
            *p = '_';
    snprintf(path, sizeof path, "%s/%s-%s-%s-%s.k", dir, c->suite, c->bench_name, label,
             c->key);
    int rc = write_file(path, src, err);
    if (rc)
        return rc;
    snprintf(path, sizeof path, "%s/%s-%s-%s-%s.options", dir, c->suite, c->bench_name,
             label, c->key);
    char opt[8200];
    snprintf(opt, sizeof opt, "%s\n", options);
    return write_file(path, opt, err);
}
