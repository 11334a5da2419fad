/* fuzz_journal.c — the tuning journal (tuning/journal.c) on any bytes,
 * with an append-and-find oracle: whatever the file held (torn lines,
 * foreign text, no final newline), one appended evaluation is found
 * after reloading, and every line loaded before still is. */
#include <stdint.h>

#include "fuzz.h"
#include "../tuning/tuning.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = fuzz_file("journal.tsv", data, size);
    struct dh_journal j;
    struct dh_err e = {0};
    FUZZ_CHECK(!dh_journal_load(&j, p, &e), "a regular file refused: %s", e.msg);
    int before = j.n;
    struct dh_journal_entry a = {.status = 0, .ms = 1.5};
    snprintf(a.eval_key, sizeof a.eval_key, "feedfacecafebeef");
    snprintf(a.case_key, sizeof a.case_key, "0123456789abcdef");
    snprintf(a.tunables, sizeof a.tunables, "wg=64");
    FUZZ_CHECK(!dh_journal_append(&j, &a, &e), "append: %s", e.msg);
    dh_journal_free(&j);
    FUZZ_CHECK(!dh_journal_load(&j, p, &e), "reload: %s", e.msg);
    FUZZ_CHECK(j.n == before + 1, "%d lines before, %d after one append", before, j.n);
    const struct dh_journal_entry *f = dh_journal_find(&j, "feedfacecafebeef");
    FUZZ_CHECK(f && f->ms == 1.5 && f->status == 0 && !strcmp(f->tunables, "wg=64"),
               "the appended evaluation is not found as written");
    dh_journal_free(&j);
    return 0;
}
