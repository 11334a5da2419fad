/* fuzz_pcs.c — per-instruction counts read from text (DH_MEASURED_LOAD,
 * harness/model/measured.c dh_pc_counts_read) on any bytes: read or
 * refused with a reason naming the line, never a crash; what is read is
 * counts >= 0 with predicated-on <= thread, and written back it reads the
 * same. */
#include <math.h>
#include <stdint.h>

#include "fuzz.h"
#include "../harness/model/measured.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    struct dh_pc_count *pc = NULL, *back = NULL;
    long n = 0, n2 = 0;
    struct dh_err e = {0};
    int rc = dh_pc_counts_read(text, "s/b/small/k=1;wg=64", &pc, &n, &e);
    if (rc) {
        FUZZ_CHECK(e.msg[0] && strstr(e.msg, "line "), "refused without naming the line");
        FUZZ_CHECK(!pc, "refused but kept records");
    } else {
        for (long i = 0; i < n; i++) {
            FUZZ_CHECK(pc[i].func[0] && isfinite(pc[i].inst) && pc[i].inst >= 0 &&
                       pc[i].thread >= 0 && pc[i].pred_on >= 0 &&
                       pc[i].pred_on <= pc[i].thread, "a record out of range");
        }
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        if (f) {
            int w = dh_pc_counts_write(f, "s/b/small/k=1;wg=64", pc, n);
            fclose(f);
            if (!w) {
                memset(&e, 0, sizeof e);
                FUZZ_CHECK(!dh_pc_counts_read(buf, "s/b/small/k=1;wg=64", &back, &n2, &e),
                           "written counts not read back");
                FUZZ_CHECK(n2 == n, "a different number of records read back");
                for (long i = 0; i < n && i < n2; i++)
                    FUZZ_CHECK(!strcmp(back[i].func, pc[i].func) && back[i].pc == pc[i].pc &&
                               back[i].inst == pc[i].inst && back[i].thread == pc[i].thread &&
                               back[i].pred_on == pc[i].pred_on, "a record read back otherwise");
            }
            free(buf);
        }
    }
    free(back);
    free(pc);
    free(text);
    return 0;
}
