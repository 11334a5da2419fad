/* pb_map.c — parboil/pb's static trip-class map (pb_map.h) */
#include "pb_map.h"

int dh_pb_cover(int y, int k, int s, int pad, int n)
{
    /* as pb.k's PB_RANGE: windows [lo, hi) hold y */
    int lo = y + pad < k ? 0 : (y + pad - k) / s + 1;
    int hi = (y + pad) / s + 1 < n ? (y + pad) / s + 1 : n;
    return hi > lo ? hi - lo : 0;
}

/* a counting sort of the positions by class, stable (row-major) */
int dh_pb_static_map(int hh, int ww, int k, int s, int pad, int ph, int pw, int *map)
{
    enum { MAXC = 8 };                  /* ceil(k / s) + 1 <= 6 for k <= 5 */
    int tw = (k + s - 1) / s, nc = tw + 1;
    int start[MAXC * MAXC + 1] = {0}, used = 0;
    if (nc > MAXC)
        return 0;
    for (int y = 0; y < hh; y++)
        for (int x = 0; x < ww; x++)
            start[dh_pb_cover(y, k, s, pad, ph) * nc + dh_pb_cover(x, k, s, pad, pw) + 1]++;
    for (int c = 0; c < nc * nc; c++) {
        used += start[c + 1] > 0;
        start[c + 1] += start[c];
    }
    for (int y = 0; y < hh; y++)
        for (int x = 0; x < ww; x++)
            map[start[dh_pb_cover(y, k, s, pad, ph) * nc + dh_pb_cover(x, k, s, pad, pw)]++] =
                y * ww + x;
    return used;
}
