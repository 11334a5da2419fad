/* mc_table.c — the marching-cubes case tables from the cube's geometry
 * (the construction is described in mc_table.h). */
#include <string.h>

#include "mc_table.h"

const int mc_edge_corner[12][2] = {
    {0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6}, {6, 7}, {7, 4},
    {0, 4}, {1, 5}, {2, 6}, {3, 7},
};

int mc_corner_coord(int k, int axis)
{
    return axis == 0 ? ((k & 1) ^ (k >> 1 & 1)) : axis == 1 ? k >> 1 & 1 : k >> 2;
}

static int corner_at(const int p[3])
{
    return p[2] * 4 + (p[1] ? (p[0] ? 2 : 3) : (p[0] ? 1 : 0));
}

static int edge_of(int a, int b)
{
    for (int e = 0; e < 12; e++)
        if ((mc_edge_corner[e][0] == a && mc_edge_corner[e][1] == b)
            || (mc_edge_corner[e][0] == b && mc_edge_corner[e][1] == a))
            return e;
    return -1;
}

/* Face (axis a, side s): its corners counter-clockwise seen from outside.
 * With u = a + 1, v = a + 2 (mod 3), u x v points along +a, so the square
 * (0,0) (1,0) (1,1) (0,1) in (u, v) runs counter-clockwise seen from +a:
 * as it is on the side s = 1, reversed on s = 0 (outward is -a). */
static void face_corners(int a, int s, int c[4])
{
    static const int uv[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    for (int q = 0; q < 4; q++) {
        int p[3], r = s ? q : 3 - q;
        p[a] = s;
        p[(a + 1) % 3] = uv[r][0];
        p[(a + 2) % 3] = uv[r][1];
        c[q] = corner_at(p);
    }
}

/* next[e]: the cut edge the loop goes to from cut edge e. On each face,
 * walking counter-clockwise, an edge from an inside corner to an outside
 * one (an exit) is joined to the edge where that run of inside corners
 * was entered: the segment cuts the run off. The two faces of an edge
 * walk it in opposite directions, so a cut edge is an exit on exactly one
 * of them: next[] is a permutation of the cut edges. */
static int segments(int cs, int next[12])
{
    for (int e = 0; e < 12; e++)
        next[e] = -1;
    for (int a = 0; a < 3; a++)
        for (int s = 0; s < 2; s++) {
            int c[4], in[4];
            face_corners(a, s, c);
            for (int q = 0; q < 4; q++)
                in[q] = cs >> c[q] & 1;
            for (int q = 0; q < 4; q++) {
                if (!in[q] || in[(q + 1) % 4])
                    continue;                       /* not an exit */
                int j = q;
                while (in[(j + 3) % 4])
                    j = (j + 3) % 4;                /* back to the run's entry */
                int ex = edge_of(c[q], c[(q + 1) % 4]), en = edge_of(c[(j + 3) % 4], c[j]);
                if (next[ex] >= 0)
                    return -1;
                next[ex] = en;
            }
        }
    return 0;
}

int mc_table_build(struct mc_table *t)
{
    memset(t->tri, -1, sizeof t->tri);
    memset(t->nverts, 0, sizeof t->nverts);
    for (int cs = 0; cs < MC_CASES; cs++) {
        int next[12], seen[12] = {0}, into[12] = {0}, n = 0;
        if (segments(cs, next))
            return -1;
        for (int e = 0; e < 12; e++) {
            int cut = (cs >> mc_edge_corner[e][0] & 1) != (cs >> mc_edge_corner[e][1] & 1);
            if (cut != (next[e] >= 0))
                return -1;
            if (cut)
                into[next[e]]++;
        }
        for (int e = 0; e < 12; e++)
            if (into[e] != (next[e] >= 0))
                return -1;                          /* not a permutation */
        for (int e0 = 0; e0 < 12; e0++) {
            if (next[e0] < 0 || seen[e0])
                continue;
            int loop[12], len = 0;
            for (int e = e0; !seen[e]; e = next[e]) {
                seen[e] = 1;
                loop[len++] = e;
            }
            for (int k = 1; k + 1 < len; k++) {
                if (n + 3 > MC_MAXVERT)
                    return -1;
                t->tri[cs][n++] = (signed char)loop[0];
                t->tri[cs][n++] = (signed char)loop[k];
                t->tri[cs][n++] = (signed char)loop[k + 1];
            }
        }
        t->nverts[cs] = (unsigned char)n;
    }
    return 0;
}
