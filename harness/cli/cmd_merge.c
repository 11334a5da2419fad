/* cmd_merge.c — `harness merge` (join results files) and `harness
 * baseline` (store and find the accepted results of a machine, keyed by
 * its device/driver fingerprint; baseline.h).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../stats/baseline.h"
#include "cli.h"
#include "../stats/load.h"
#include "../stats/derive.h"
#include "../stats/shards.h"
#include "../../backends/cache.h"

/* ---- merge ---- */

static const char *when(const struct dh_resultfile *f)
{
    return f->env.updated[0] ? f->env.updated : f->env.started;
}

int dh_cmd_merge(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: harness merge OUT.xml IN.xml [IN.xml...] [--mixed-plans] "
               "[--allow-missing]\n"
               "  joins results files of the same schema version into OUT.xml (written\n"
               "  atomically; OUT may be one of the inputs). A case present in several\n"
               "  inputs keeps the run measured last (the file's <updated> time, then the\n"
               "  order given) and the others are named on stderr.\n"
               "  Shards (harness run --shard I/N): the inputs must be shards of one plan\n"
               "  (--mixed-plans joins several); every shard and case that did not come\n"
               "  back is named on stderr and in OUT.xml's <plan>, and the exit is 3.\n"
               "  --allow-missing  an input that does not exist is named and left out\n"
               "                   (a shard that never wrote its results)\n");
        return 0;
    }
    int mixed_ok = 0, allow_missing = 0, npos = 0;
    const char **pos = calloc((size_t)argc, sizeof *pos);
    if (!pos) {
        fprintf(stderr, "harness merge: out of memory\n");
        return DH_EXIT_INFRA;
    }
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--mixed-plans")) {
            mixed_ok = 1;
        } else if (!strcmp(argv[i], "--allow-missing")) {
            allow_missing = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "harness merge: unknown option '%s' (usage: harness merge OUT.xml "
                    "IN.xml... [--mixed-plans] [--allow-missing])\n", argv[i]);
            free(pos);
            return DH_EXIT_USAGE;
        } else {
            pos[npos++] = argv[i];
        }
    }
    if (npos < 2) {
        fprintf(stderr, "usage: harness merge OUT.xml IN.xml [IN.xml...] [--mixed-plans] "
                "[--allow-missing]\n");
        free(pos);
        return DH_EXIT_USAGE;
    }
    const char *out = pos[0];
    const char **names = pos + 1;
    int nin = 0, given = npos - 1, left_out = 0;
    for (int i = 0; i < given; i++) {
        if (allow_missing && access(names[i], F_OK)) {
            fprintf(stderr, "harness merge: %s does not exist: left out (--allow-missing)\n",
                    names[i]);
            left_out++;
            continue;
        }
        names[nin++] = names[i];
    }
    struct dh_resultfile *in = calloc((size_t)(nin ? nin : 1), sizeof *in);
    int *order = calloc((size_t)(nin ? nin : 1), sizeof *order);
    struct dh_err e = {0};
    int code = DH_EXIT_INFRA, total = 0, oom = 0, problems = 0;
    struct dh_run *runs = NULL;
    const char **from = NULL;
    int *seen = NULL;
    struct dh_plan_rec *plan = NULL;
    static struct dh_devlist devs;
    if (!in || !order) {
        oom = 1;
        goto out;
    }
    if (!nin) {
        fprintf(stderr, "harness merge: none of the %d inputs exists: nothing to merge\n",
                given);
        goto out;
    }
    for (int i = 0; i < nin; i++) {
        /* without intervals: the merged runs' figures are derived anew below */
        if (dh_results_load_ex(names[i], &in[i], 0, &e)) {
            fprintf(stderr, "harness merge: %s\n", e.msg);
            goto out;
        }
        total += in[i].n_runs;
        order[i] = i;
    }
    /* shards: one plan, and every shard and case that did not come back named */
    problems = dh_shards_check(in, names, nin, mixed_ok, &plan, stderr, &e);
    if (problems < 0) {
        fprintf(stderr, "harness merge: %s\n", e.msg);
        goto out;
    }
    /* oldest first, so that a later run replaces an earlier one (stable) */
    for (int i = 1; i < nin; i++)
        for (int j = i; j > 0 && strcmp(when(&in[order[j - 1]]), when(&in[order[j]])) > 0; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    runs = calloc((size_t)(total ? total : 1), sizeof *runs);
    from = calloc((size_t)(total ? total : 1), sizeof *from);
    /* the merged runs by case id: open addressing, index + 1, 0 empty */
    size_t slots = 64;
    while (slots < 2 * (size_t)total)
        slots *= 2;
    seen = calloc(slots, sizeof *seen);
    if (!runs || !from || !seen) {
        oom = 1;
        goto out;
    }
    int n = 0, replaced = 0;
    memset(&devs, 0, sizeof devs);
    for (int k = 0; k < nin; k++) {
        int i = order[k];
        const char *name = names[i];
        for (int r = 0; r < in[i].n_runs; r++) {
            const struct dh_run *u = &in[i].runs[r];
            int at = -1;
            size_t h = dh_fnv1a64(u->c.id, strlen(u->c.id), DH_FNV_OFFSET) & (slots - 1);
            for (; seen[h] && at < 0; h = (h + 1) & (slots - 1))
                if (!strcmp(runs[seen[h] - 1].c.id, u->c.id))
                    at = seen[h] - 1;
            if (at >= 0) {
                fprintf(stderr, "harness merge: %s: kept the run from %s (%s) over the one "
                        "from %s\n", u->c.id, name, when(&in[i]), from[at]);
                replaced++;
            } else {
                at = n++;
                seen[h] = at + 1;
            }
            runs[at] = *u;
            from[at] = name;
        }
        for (int d = 0; d < in[i].devs.n; d++) {
            int dup = 0;
            for (int j = 0; j < devs.n && !dup; j++)
                dup = !strcmp(devs.d[j].backend, in[i].devs.d[d].backend)
                      && devs.d[j].index == in[i].devs.d[d].index
                      && !strcmp(devs.d[j].info.name, in[i].devs.d[d].info.name)
                      && !strcmp(devs.d[j].info.driver, in[i].devs.d[d].info.driver);
            if (dup)
                continue;
            if (devs.n >= DH_MAX_DEVICES) {
                fprintf(stderr, "harness merge: more than %d devices in the inputs\n",
                        DH_MAX_DEVICES);
                goto out;
            }
            devs.d[devs.n++] = in[i].devs.d[d];
        }
    }
    /* the environment of the latest input; the command says what was merged */
    struct dh_env env = in[order[nin - 1]].env;
    /* the conditions: the busiest input's (a night with one suite run on a
     * busy host is a night on a busy host) */
    for (int k = 0; k < nin; k++) {
        const struct dh_conditions *c = &in[k].env.cond;
        if (c->valid && (!env.cond.valid || c->load_before[0] > env.cond.load_before[0]))
            env.cond = *c;
    }
    env.cond.live = 0;
    for (int k = 0; k < nin; k++)
        if (strcmp(in[k].env.started, env.started) < 0)
            snprintf(env.started, sizeof env.started, "%s", in[k].env.started);
    size_t o = (size_t)snprintf(env.command, sizeof env.command, "harness merge %s", out);
    for (int k = 0; k < nin && o < sizeof env.command; k++)
        o += (size_t)snprintf(env.command + o, sizeof env.command - o, " %s", names[k]);
    for (int k = 0; k < nin && o < sizeof env.command; k++)
        o += (size_t)snprintf(env.command + o, sizeof env.command - o, "%s%s",
                              k ? " | " : " <- ", in[k].env.command);
    dh_run_derive(runs, n);
    if (dh_xml_write_plan(out, &env, &devs, runs, n, plan, &e)) {
        fprintf(stderr, "harness merge: %s\n", e.msg);
        goto out;
    }
    printf("%s: %d run%s from %d file%s", out, n, n == 1 ? "" : "s", nin, nin == 1 ? "" : "s");
    if (replaced)
        printf(" (%d replaced by a later run of the same case)", replaced);
    if (plan)
        printf("; plan %s: %d cases in %d shard%s, %d missing or incomplete", plan->hash,
               plan->cases, plan->shards, plan->shards == 1 ? "" : "s", problems);
    printf("\n");
    code = DH_EXIT_OK;
    if (problems || left_out) {
        fprintf(stderr, "harness merge: %d shard%s missing or incomplete%s: %s holds what came "
                "back and names the rest\n", problems, problems == 1 ? "" : "s",
                left_out ? " (and inputs left out)" : "", out);
        code = DH_EXIT_INFRA;
    }
out:
    if (oom)
        fprintf(stderr, "harness merge: out of memory\n");
    for (int i = 0; in && i < nin; i++)
        dh_resultfile_free(&in[i]);
    free(in);
    free(order);
    free(runs);
    free(from);
    free(seen);
    free(pos);
    dh_plan_rec_free(plan);
    return code;
}

/* ---- baseline ---- */

static void baseline_usage(FILE *f)
{
    fprintf(f,
        "usage: harness baseline save RESULTS.xml [--dir DIR] [--force]\n"
        "       harness baseline path RESULTS.xml [--dir DIR]\n"
        "       harness baseline list [--dir DIR]\n"
        "  save  store RESULTS.xml as the accepted results of its devices and drivers\n"
        "        (DIR/<fingerprint>.xml, written atomically; replaces the previous one);\n"
        "        refuses results with a wrong run unless --force\n"
        "  path  print the baseline path for RESULTS.xml's devices; exit 0 when it\n"
        "        exists, 3 when not\n"
        "  list  the stored baselines with their devices\n"
        "  DIR: --dir, else $DH_BASELINE_DIR, else %s\n", DH_BASELINE_DIR_DEFAULT);
}

static int baseline_list(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        printf("no baselines in %s (the folder does not exist)\n", dir);
        return 0;
    }
    struct dirent *de;
    int n = 0;
    static struct dh_resultfile f;
    while ((de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l != 20 || strcmp(de->d_name + 16, ".xml"))
            continue;
        char path[4200], fp[17], desc[2048];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct dh_err e = {0};
        if (dh_results_load(path, &f, &e)) {
            printf("%s  unreadable: %s\n", path, e.msg);
            continue;
        }
        if (!dh_baseline_fingerprint(&f, fp, desc, sizeof desc, &e))
            printf("%s  %d runs, %s, git %s\n    %s%s\n", path, f.n_runs, f.env.started,
                   f.env.git_revision, desc,
                   strncmp(fp, de->d_name, 16) ? "  (NOTE: name differs from its fingerprint)"
                                               : "");
        dh_resultfile_free(&f);
        n++;
    }
    closedir(d);
    if (!n)
        printf("no baselines in %s\n", dir);
    return 0;
}

int dh_cmd_baseline(int argc, char **argv)
{
    const char *sub = argc >= 2 ? argv[1] : NULL, *file = NULL, *dir = NULL;
    int force = 0;
    if (sub && (!strcmp(sub, "--help") || !strcmp(sub, "-h") || !strcmp(sub, "help"))) {
        baseline_usage(stdout);
        return 0;
    }
    if (!sub || (strcmp(sub, "save") && strcmp(sub, "path") && strcmp(sub, "list"))) {
        fprintf(stderr, "harness baseline: %s%s%s: choose save, path or list\n",
                sub ? "unknown subcommand '" : "missing subcommand", sub ? sub : "",
                sub ? "'" : "");
        baseline_usage(stderr);
        return DH_EXIT_USAGE;
    }
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--dir") && i + 1 < argc) {
            dir = argv[++i];
        } else if (!strncmp(argv[i], "--dir=", 6)) {
            dir = argv[i] + 6;
        } else if (!strcmp(argv[i], "--force") && !strcmp(sub, "save")) {
            force = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "harness baseline %s: unknown option '%s' (see harness baseline "
                    "--help)\n", sub, argv[i]);
            return DH_EXIT_USAGE;
        } else if (!file && strcmp(sub, "list")) {
            file = argv[i];
        } else {
            fprintf(stderr, "harness baseline %s: unexpected argument '%s'\n", sub, argv[i]);
            return DH_EXIT_USAGE;
        }
    }
    const char *d = dh_baseline_dir(dir);
    if (!strcmp(sub, "list"))
        return baseline_list(d);
    if (!file) {
        fprintf(stderr, "harness baseline %s: give the results file (RESULTS.xml)\n", sub);
        return DH_EXIT_USAGE;
    }
    static struct dh_resultfile f;
    struct dh_err e = {0};
    char fp[17], desc[2048], path[4200];
    if (dh_results_load(file, &f, &e) || dh_baseline_fingerprint(&f, fp, desc, sizeof desc, &e)) {
        fprintf(stderr, "harness baseline %s: %s\n", sub, e.msg);
        dh_resultfile_free(&f);
        return DH_EXIT_INFRA;
    }
    dh_baseline_path(d, fp, path, sizeof path);
    int code = DH_EXIT_OK;
    if (!strcmp(sub, "path")) {
        printf("%s\n", path);
        if (access(path, F_OK)) {
            fprintf(stderr, "harness baseline path: none stored yet for %s\n", desc);
            code = DH_EXIT_INFRA;
        }
    } else {
        int wrong = 0, ok = 0;
        for (int i = 0; i < f.n_runs; i++) {
            wrong += f.runs[i].r.status == DH_E_WRONG;
            ok += f.runs[i].r.status == 0;
        }
        int existed = !access(path, F_OK);
        if ((wrong || !ok) && !force) {
            fprintf(stderr, "harness baseline save: %s has %s: not an accepted result (add "
                    "--force to store it anyway)\n", file,
                    wrong ? "runs with a wrong result" : "no successful run");
            code = DH_EXIT_INFRA;
        } else if (dh_baseline_save(d, file, &f, path, sizeof path, &e)) {
            fprintf(stderr, "harness baseline save: %s\n", e.msg);
            code = DH_EXIT_INFRA;
        } else {
            printf("baseline %s%s: %d runs of %s\n", path, existed ? " (replaced)" : "",
                   f.n_runs, desc);
        }
    }
    dh_resultfile_free(&f);
    return code;
}
