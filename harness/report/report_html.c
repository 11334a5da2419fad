/* report_html.c — a report's index.html beside its index.md: the same
 * report as one page a browser (or a CI server's artifact view) shows,
 * rendered from the Markdown by cmark-gfm with GitHub's table extension;
 * the charts are the SVGs beside it (an <img> of the PNG links read as
 * the SVG's). Written atomically, like every output of the harness. */
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>

#include "../support/fs.h"

/* Links and images with a scheme (http:, javascript:, data:, ...) out of
 * the tree: the report links only to its own files, and a text of the
 * results file (a host name "![x](http://...)") must not become a live
 * link or a fetched image. A link keeps its text; an image leaves its
 * address as plain text. */
static void strip_foreign(cmark_node *doc)
{
    cmark_node **bad = NULL;
    size_t n = 0, cap = 0;
    cmark_iter *it = cmark_iter_new(doc);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *nd = cmark_iter_get_node(it);
        cmark_node_type t = cmark_node_get_type(nd);
        if (ev != CMARK_EVENT_ENTER || (t != CMARK_NODE_LINK && t != CMARK_NODE_IMAGE))
            continue;
        const char *url = cmark_node_get_url(nd);
        if (!url || !strchr(url, ':'))
            continue;
        if (n == cap) {
            cmark_node **b = realloc(bad, (cap = cap ? 2 * cap : 16) * sizeof *b);
            if (!b)
                break;
            bad = b;
        }
        bad[n++] = nd;
    }
    cmark_iter_free(it);
    for (size_t i = 0; i < n; i++) {
        cmark_node *nd = bad[i];
        if (cmark_node_get_type(nd) == CMARK_NODE_IMAGE) {
            cmark_node *txt = cmark_node_new(CMARK_NODE_TEXT);
            cmark_node_set_literal(txt, cmark_node_get_url(nd));
            cmark_node_insert_before(nd, txt);
        } else {
            cmark_node *ch;
            while ((ch = cmark_node_first_child(nd)))
                cmark_node_insert_before(nd, ch);
        }
        cmark_node_free(nd);
    }
    free(bad);
}

int dh_report_write_html(const char *dir, const char *title, struct dh_err *err)
{
    char md_path[4400], path[4400], tmp[4500];
    snprintf(md_path, sizeof md_path, "%s/index.md", dir);
    snprintf(path, sizeof path, "%s/index.html", dir);
    size_t len = 0;
    char why[4600];
    char *md = dh_read_data(md_path, DH_DATA_MAX_TEXT, &len, why, sizeof why);
    if (!md)
        return dh_err_set(err, DH_E_IO, "%s", why);
    cmark_gfm_core_extensions_ensure_registered();
    int opts = CMARK_OPT_DEFAULT | CMARK_OPT_UNSAFE * 0;   /* raw HTML stays escaped */
    cmark_parser *p = cmark_parser_new(opts);
    const char *exts[] = {"table", "autolink", "strikethrough"};
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++) {
        cmark_syntax_extension *e = cmark_find_syntax_extension(exts[i]);
        if (e)
            cmark_parser_attach_syntax_extension(p, e);
    }
    cmark_parser_feed(p, md, len);
    cmark_node *doc = cmark_parser_finish(p);
    if (doc)
        strip_foreign(doc);
    char *html = doc ? cmark_render_html(doc, opts, cmark_parser_get_syntax_extensions(p)) : NULL;
    free(md);
    if (!html) {
        if (doc)
            cmark_node_free(doc);
        cmark_parser_free(p);
        return dh_err_set(err, DH_E_RESOURCES, "cannot render %s", md_path);
    }
    FILE *f = NULL;
    if (!dh_replace_ok(path, why, sizeof why))
        f = dh_tmp_fopen(path, tmp, sizeof tmp);
    int rc = 0;
    if (!f) {
        rc = dh_err_set(err, DH_E_IO, "cannot write %s: %s", path, strerror(errno));
    } else {
        fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
        for (const char *c = title; *c; c++)
            fputs(*c == '<' ? "&lt;" : *c == '&' ? "&amp;" : (char[2]){*c, 0}, f);
        fputs("</title>\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
              "<style>\n"
              "body { font: 14px/1.45 \"DejaVu Sans\", Helvetica, Arial, sans-serif; margin: 2em auto;"
              " max-width: 1200px; padding: 0 1em; color: #222; }\n"
              "table { border-collapse: collapse; margin: 0.6em 0 1.2em; font-size: 12px; }\n"
              "th, td { border: 1px solid #ccc; padding: 3px 6px; }\n"
              "th { background: #f2f2f2; } tr:nth-child(even) td { background: #fafafa; }\n"
              "td[align=right] { font-variant-numeric: tabular-nums; }\n"
              "code { background: #f4f4f4; padding: 0 3px; } img { max-width: 100%; }\n"
              "blockquote { border-left: 4px solid #e0a000; margin: 0; padding: 0 1em; }\n"
              "</style>\n</head>\n<body>\n", f);
        fputs(html, f);
        fputs("</body>\n</html>\n", f);
        int bad = ferror(f) != 0;
        bad |= fclose(f) != 0;
        if (bad || rename(tmp, path)) {
            unlink(tmp);
            rc = dh_err_set(err, DH_E_IO, "cannot write %s: %s", path, strerror(errno));
        }
    }
    free(html);
    cmark_node_free(doc);
    cmark_parser_free(p);
    return rc;
}
