/* fuzz_wcache.c — a workload cache entry (harness/support/store.c) of any
 * bytes: read and accepted only when whole and its checksums hold,
 * otherwise refused with a reason and removed; never a crash, never a
 * read past the file. The file is named by the key its header claims, so
 * the fuzzer reaches past the name check into lengths and checksums. */
#include <stdint.h>

#include "fuzz.h"
#include "../harness/support/store.h"

static void seen(void *ctx, const struct dh_store_info *in)
{
    (void)ctx;
    FUZZ_CHECK(in->ok || in->why[0], "a bad entry listed without a reason");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct dh_store s;
    struct dh_err e = {0};
    char dir[128];
    snprintf(dir, sizeof dir, "%s/store", fuzz_dir());
    if (dh_store_open(&s, dir, 0, &e))
        abort();
    struct dh_store_key k = {{0}};
    if (size >= 32)
        memcpy(k.b, data + 16, 16);
    char hex[33], name[64];
    dh_store_key_hex(&k, hex);
    snprintf(name, sizeof name, "store/%s.dhw", hex);
    fuzz_file(name, data, size);
    uint32_t kind = 1;
    if (size >= 16)
        memcpy(&kind, data + 12, 4);
    struct dh_store_reader r;
    char why[256] = "";
    int got = dh_store_get(&s, &k, kind, &r, why, sizeof why);
    FUZZ_CHECK(got != -1 || why[0], "refused without a reason");
    if (got == 1) {
        static char buf[1 << 16];
        uint64_t left = r.payload_bytes;
        int rc = 0;
        while (left && !rc) {
            size_t n = left < sizeof buf ? (size_t)left : sizeof buf;
            rc = dh_store_read(&r, buf, n, why, sizeof why);
            left -= n;
        }
        if (rc) {
            dh_store_abandon(&r);
        } else {
            rc = dh_store_done(&r, why, sizeof why);
            FUZZ_CHECK(rc == 0 || why[0], "refused without a reason");
        }
    }
    /* the listing and its verification read the same bytes */
    dh_store_list(dir, 1, seen, NULL, &e);
    uint64_t bytes;
    dh_store_clear(dir, &bytes, &e);
    return 0;
}
