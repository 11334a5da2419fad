/* plan.c — the plan record of a sharded run (plan.h). */
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../backends/cache.h"

void dh_plan_hash(const struct dh_plan_case *ids, int n, char hex[17])
{
    /* each id ends with a newline: "ab"+"c" and "a"+"bc" differ */
    uint64_t h = DH_FNV_OFFSET;
    for (int i = 0; i < n; i++) {
        h = dh_fnv1a64(ids[i].id, strlen(ids[i].id), h);
        h = dh_fnv1a64("\n", 1, h);
    }
    snprintf(hex, 17, "%016llx", (unsigned long long)h);
}

void dh_plan_rec_free(struct dh_plan_rec *rec)
{
    if (!rec)
        return;
    free(rec->ids);
    free(rec->notes);
    free(rec);
}

static const char *const names[] = {"ok", "incomplete", "missing"};

const char *dh_shard_state_name(enum dh_shard_state s)
{
    return (unsigned)s < 3 ? names[s] : "?";
}

int dh_shard_state_parse(const char *text, enum dh_shard_state *out)
{
    for (int i = 0; i < 3; i++)
        if (!strcmp(text, names[i])) {
            *out = (enum dh_shard_state)i;
            return 0;
        }
    return -1;
}
