/* kit_presort.c — whether a declared benchmark's gpu_tdr kernel can run on
 * the input its cpu_tdr's key regrouping puts in path order, and by which
 * mechanism (kit.h: dh_kit_presort): the remap overhead's question
 * (harness/run/remap.c). The run itself is the kit's cpu_tdr machinery
 * (kit.c, kit_move.c) under dh_exec.presorted. */
#include <stdio.h>
#include <string.h>

#include "kit_int.h"

static const struct dh_kit *kit_of(const struct dh_case *c)
{
    return c->bench->kit;
}

int dh_kit_presort(const struct dh_case *c, char *mech, size_t mech_len, char *why,
                   size_t why_len)
{
    const struct dh_kit *k = kit_of(c);
    const struct dh_bench *b = c->bench;
    if (strcmp(c->variant, "gpu_tdr")) {
        snprintf(why, why_len, "only a gpu_tdr kernel is timed on the regrouped input");
        return 0;
    }
    if (!dh_bench_has_variant(b, "cpu_tdr")) {
        /* the benchmark's own words for why it has no cpu_tdr, up to the
         * next family's */
        const char *a = b->absent ? strstr(b->absent, "cpu_tdr: ") : NULL;
        int l = 0;
        if (a) {
            a += 9;
            const char *end = a + strlen(a);
            static const char *const next[] = {"; gpu_tdr", "; melded", "; baseline"};
            for (int i = 0; i < 3; i++) {
                const char *p = strstr(a, next[i]);
                if (p && p < end)
                    end = p;
            }
            l = (int)(end - a);
        }
        snprintf(why, why_len, "no host regrouping: %s has no cpu_tdr%s%.*s", c->bench_name,
                 a ? " (" : "", l, a ? a : "");
        if (a)
            snprintf(why + strlen(why), why_len - strlen(why), ")");
        return 0;
    }
    if (!k->sort_by && !k->sort_key) {
        snprintf(why, why_len, "no key regrouping: %s's cpu_tdr declares no sort key "
                 "(sort_by or sort_key), only the BBV regroupings", c->bench_name);
        return 0;
    }
    const struct dh_param_def *rg = dh_param_find(b->params, "regroup");
    if (rg && rg->domain && !strncmp(rg->domain, "enum:", 5) && !dh__kit_in_list(rg->domain + 5, "key")) {
        snprintf(why, why_len, "no key regrouping: %s's cpu_tdr regroups by %s only",
                 c->bench_name, rg->domain + 5);
        return 0;
    }
    const struct dh_param_def *md = dh_param_find(b->params, "mech");
    const char *dom = md && md->domain && !strncmp(md->domain, "enum:", 5) ? md->domain + 5
                                                                            : "dlt";
    if (dh__kit_in_list(dom, "dlt")) {
        /* dlt moves what cpu_tdr's kernel reads: the gpu_tdr kernel sees
         * the regrouped input only where it reads the same buffers (not,
         * e.g., cvp's image, which its cpu_tdr replaces by moved patches) */
        struct dh_case cc = *c;
        snprintf(cc.variant, sizeof cc.variant, "cpu_tdr");
        dh_pset_del(&cc.params, "mech");
        const struct dh_kentry *ec = dh__kit_entry(k, &cc), *eg = dh__kit_entry(k, c);
        char tok[128];
        for (const char *p = eg ? eg->args : NULL; ec && (p = dh_kit_word(p, tok, sizeof tok, NULL));) {
            int bi = dh_kit_buf_index(k, tok);
            if (bi < 0 || !dh__kit_is_input(&k->bufs[bi]))
                continue;
            int read = 0;
            char t2[128];
            for (const char *q = ec->args; !read && (q = dh_kit_word(q, t2, sizeof t2, NULL));)
                read = !strcmp(t2, tok);
            if (!read) {
                snprintf(why, why_len, "%s's gpu_tdr kernel reads %s, which its cpu_tdr (dlt, "
                         "kernel %s) does not read, so the regrouping does not reach it",
                         c->bench_name, tok, ec->entry);
                return 0;
            }
        }
        snprintf(mech, mech_len, "dlt");
        return 1;
    }
    if (dh__kit_in_list(dom, "rr") && dh__kit_entry_named(k, "gpu_tdr/rr")) {
        snprintf(mech, mech_len, "rr");
        return 1;
    }
    snprintf(why, why_len, "%s's cpu_tdr applies its regrouping by index array only "
             "(mech=rr) and its gpu_tdr kernel reads no index array (a gpu_tdr/rr entry, "
             "its args with perm, would make it measurable)", c->bench_name);
    return 0;
}
