/* fuzz_sass.c — the compiled-code block costs (harness/model/sass*.c) on
 * any bytes: the input is a kernel source, a line "@@@@", then an
 * nvdisasm listing; each is parsed, or refused with a reason, never a
 * crash; mapped, every instruction of a function is in one block, on a
 * shared line, outside every region, or padding, and the figures are
 * finite and not negative. */
#include <math.h>
#include <stdint.h>

#include "fuzz.h"
#include "../harness/model/sass.h"

#define NB 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    char *sep = strstr(text, "\n@@@@\n");
    const char *listing = "";
    if (sep) {
        *sep = 0;
        listing = sep + 6;
    }
    struct dh_bb_markers m;
    struct dh_sass s;
    struct dh_err e = {0};
    int rm = dh_bb_markers_scan(text, "-D A=1 -D B=A+2", &m, &e);
    FUZZ_CHECK(!rm || e.msg[0], "markers refused without a reason");
    memset(&e, 0, sizeof e);
    int rs = dh_sass_parse(listing, &s, &e);
    FUZZ_CHECK(!rs || e.msg[0], "listing refused without a reason");
    for (int i = 0; !rm && i < m.n; i++)
        FUZZ_CHECK(m.v[i].line <= m.v[i].last, "a region ending before its marker");
    if (!rm && !rs) {
        for (int f = 0; f < s.n_funcs; f++) {
            struct dh_sass_block b[NB];
            int unmarked = 0, shared = 0, in_blocks = 0, n_func = 0;
            dh_sass_blocks(&s, f, &m, NB, b, &unmarked, &shared);
            for (int k = 0; k < NB; k++) {
                FUZZ_CHECK(b[k].insts >= 0 && b[k].predicated <= b[k].insts &&
                           b[k].loop_insts <= b[k].insts, "counts out of order");
                FUZZ_CHECK(isfinite(b[k].inst_per_exec) && b[k].inst_per_exec >= 0 &&
                           isfinite(b[k].cost_per_exec) && b[k].cost_per_exec >= 0,
                           "a per-execution figure that is not a finite count");
                in_blocks += b[k].insts - b[k].called;
            }
            for (int i = 0; i < s.n; i++)
                n_func += s.v[i].func == f;
            /* blocks past NB are neither here nor counted: at most all */
            FUZZ_CHECK(in_blocks + unmarked + shared <= n_func, "an instruction counted twice");
        }
    }
    dh_sass_free(&s);                 /* both safe after a refusal */
    dh_bb_markers_free(&m);
    free(text);
    return 0;
}
