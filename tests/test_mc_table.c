/* test_mc_table.c — bbv/mc's generated marching-cubes tables against
 * facts of the cube's geometry and the classic table:
 *   every case's triangles are 0..5 and use only that case's cut edges,
 *   each of them;
 *   the piece of surface in a cube is consistently wound and its border
 *   is, face by face, what the face's corner signs alone decide (so two
 *   voxels sharing a face cut it alike: the surface is closed);
 *   the counts do not change under the 24 rotations, and under rotation
 *   and inversion the 256 cases fall in the 15 classes of the original
 *   marching-cubes paper, with the triangle counts worked out below;
 *   the histogram of triangle counts over the cases is the classic
 *   table's (2, 16, 50, 80, 76, 32 cases with 0..5 triangles: counted in
 *   the CUDA sample's vertex-count table, SUITES.md 3.12);
 *   the build is deterministic;
 * and the host side of the benchmark on a volume worked by hand. */
#include <math.h>

#include "testutil.h"
#include "../suites/bbv/mc/mc_table.h"
#include "../suites/bbv/mc/mc_vol.h"

static struct mc_table T;

static int coords_at(const int p[3])
{
    for (int k = 0; k < 8; k++)
        if (mc_corner_coord(k, 0) == p[0] && mc_corner_coord(k, 1) == p[1]
            && mc_corner_coord(k, 2) == p[2])
            return k;
    return -1;
}

static int is_cut(int cs, int e)
{
    return (cs >> mc_edge_corner[e][0] & 1) != (cs >> mc_edge_corner[e][1] & 1);
}

static int ntri(int cs) { return T.nverts[cs] / 3; }

static void build(void **st)
{
    (void)st;
    struct mc_table again;
    assert_int_equal(mc_table_build(&again), 0);
    assert_memory_equal(&again, &T, sizeof T);          /* deterministic */
    for (int cs = 0; cs < MC_CASES; cs++) {
        assert_true(T.nverts[cs] % 3 == 0 && T.nverts[cs] <= MC_MAXVERT);
        for (int k = 0; k < MC_ROW; k++)
            assert_true(k < T.nverts[cs] ? T.tri[cs][k] >= 0 && T.tri[cs][k] < 12
                                         : T.tri[cs][k] == -1);
    }
}

static void simple_cases(void **st)
{
    (void)st;
    assert_int_equal(ntri(0), 0);                        /* nothing crosses */
    assert_int_equal(ntri(255), 0);
    for (int k = 0; k < 8; k++) {
        /* one corner in (or out): the triangle on its three edges */
        for (int inv = 0; inv < 2; inv++) {
            int cs = inv ? 255 ^ 1 << k : 1 << k;
            assert_int_equal(ntri(cs), 1);
            for (int j = 0; j < 3; j++) {
                int e = T.tri[cs][j];
                assert_true(mc_edge_corner[e][0] == k || mc_edge_corner[e][1] == k);
            }
        }
    }
    for (int e = 0; e < 12; e++) {
        /* the two corners of an edge: the quad on the four edges leaving them */
        int cs = 1 << mc_edge_corner[e][0] | 1 << mc_edge_corner[e][1];
        assert_int_equal(ntri(cs), 2);
        assert_int_equal(ntri(255 ^ cs), 2);
    }
}

/* the triangles use the cut edges, each of them, and each triangle three
 * different ones */
static void cut_edges(void **st)
{
    (void)st;
    for (int cs = 0; cs < MC_CASES; cs++) {
        int used[12] = {0};
        for (int k = 0; k < T.nverts[cs]; k += 3) {
            int a = T.tri[cs][k], b = T.tri[cs][k + 1], c = T.tri[cs][k + 2];
            assert_true(a != b && b != c && a != c);
            used[a] = used[b] = used[c] = 1;
        }
        for (int e = 0; e < 12; e++)
            assert_int_equal(used[e], is_cut(cs, e));
    }
}

/* the face (axis a, side s) holding both edges, or -1: an edge lies on
 * the faces where one coordinate of both its corners is fixed */
static int face_of(int e, int f, int *a_out, int *s_out)
{
    for (int a = 0; a < 3; a++) {
        int s = mc_corner_coord(mc_edge_corner[e][0], a);
        if (mc_corner_coord(mc_edge_corner[e][1], a) == s
            && mc_corner_coord(mc_edge_corner[f][0], a) == s
            && mc_corner_coord(mc_edge_corner[f][1], a) == s) {
            *a_out = a;
            *s_out = s;
            return 0;
        }
    }
    return -1;
}

/* corner k's place on a face of axis a: u + 2 v (u, v the other axes) */
static int local_corner(int k, int a)
{
    return mc_corner_coord(k, (a + 1) % 3) + 2 * mc_corner_coord(k, (a + 2) % 3);
}

/* an edge of a face as the pair of its corners' places, a 4-bit set */
static int local_edge(int e, int a)
{
    return 1 << local_corner(mc_edge_corner[e][0], a) | 1 << local_corner(mc_edge_corner[e][1], a);
}

/* Per case: every directed triangle edge once at most, interior edges
 * met in both directions (consistent winding); the border (edges met in
 * one direction) lies on the faces, pairs each face's cut edges, and on a
 * face depends only on that face's corner signs: recorded per (axis,
 * pattern) from the s = 0 faces, the s = 1 faces must give the same
 * segments run the other way (the neighbour walks the face reversed). */
static void closed_surface(void **st)
{
    (void)st;
    /* seg[a][pattern][from-edge local] = to-edge local, per side */
    int seg[2][3][16][16];
    memset(seg, -1, sizeof seg);
    for (int cs = 0; cs < MC_CASES; cs++) {
        int dir[12][12] = {{0}};
        for (int k = 0; k < T.nverts[cs]; k += 3)
            for (int j = 0; j < 3; j++) {
                int p = T.tri[cs][k + j], q = T.tri[cs][k + (j + 1) % 3];
                assert_int_equal(dir[p][q], 0);
                dir[p][q] = 1;
            }
        int face_cut_seen[3][2][12] = {{{0}}};
        for (int p = 0; p < 12; p++)
            for (int q = 0; q < 12; q++) {
                if (!dir[p][q] || dir[q][p])
                    continue;                           /* not on the border */
                int a = 0, s = 0;
                assert_int_equal(face_of(p, q, &a, &s), 0);
                face_cut_seen[a][s][p]++;
                face_cut_seen[a][s][q]++;
                int pat = 0;
                for (int k = 0; k < 8; k++)
                    if (mc_corner_coord(k, a) == s && (cs >> k & 1))
                        pat |= 1 << local_corner(k, a);
                int lp = local_edge(p, a), lq = local_edge(q, a);
                /* the face's signs alone decide: every case agrees */
                assert_true(seg[s][a][pat][lp] < 0 || seg[s][a][pat][lp] == lq);
                seg[s][a][pat][lp] = lq;
                /* a cut-off run of inside corners: a diagonal face's
                 * segment isolates one inside corner (its two edges
                 * share it) */
                if (pat == 9 || pat == 6)
                    assert_true(lp & lq & pat);
            }
        for (int a = 0; a < 3; a++)
            for (int s = 0; s < 2; s++)
                for (int e = 0; e < 12; e++) {
                    int on = mc_corner_coord(mc_edge_corner[e][0], a) == s
                             && mc_corner_coord(mc_edge_corner[e][1], a) == s;
                    /* every cut edge of the face: in exactly one segment there */
                    assert_int_equal(face_cut_seen[a][s][e], on && is_cut(cs, e));
                }
    }
    /* the same face signs, the same segments; reversed across the face */
    int checked = 0;
    for (int a = 0; a < 3; a++)
        for (int pat = 0; pat < 16; pat++)
            for (int e = 0; e < 16; e++)
                if (seg[0][a][pat][e] >= 0) {
                    assert_int_equal(seg[1][a][pat][seg[0][a][pat][e]], e);
                    checked++;
                }
    assert_true(checked > 0);
}

/* the 24 rotations as corner permutations: the closure of quarter turns
 * about z and x */
static int rot[24][8], nrot;

static void rotations(void)
{
    int gen[2][8];
    for (int k = 0; k < 8; k++) {
        int p[3] = {mc_corner_coord(k, 0), mc_corner_coord(k, 1), mc_corner_coord(k, 2)};
        int z[3] = {1 - p[1], p[0], p[2]}, x[3] = {p[0], 1 - p[2], p[1]};
        gen[0][k] = coords_at(z);
        gen[1][k] = coords_at(x);
        rot[0][k] = k;
    }
    nrot = 1;
    for (int i = 0; i < nrot; i++)
        for (int g = 0; g < 2; g++) {
            int n[8], dup = 0;
            for (int k = 0; k < 8; k++)
                n[k] = gen[g][rot[i][k]];
            for (int j = 0; j < nrot; j++)
                dup |= !memcmp(rot[j], n, sizeof n);
            if (!dup) {
                assert_true(nrot < 24);
                memcpy(rot[nrot++], n, sizeof n);
            }
        }
}

static int rotate(int cs, int r)
{
    int out = 0;
    for (int k = 0; k < 8; k++)
        if (cs >> k & 1)
            out |= 1 << rot[r][k];
    return out;
}

static void symmetry(void **st)
{
    (void)st;
    rotations();
    assert_int_equal(nrot, 24);
    for (int cs = 0; cs < MC_CASES; cs++)
        for (int r = 0; r < nrot; r++)
            assert_int_equal(ntri(rotate(cs, r)), ntri(cs));
    /* orbits: 23 under rotation (Burnside: 552 / 24), 15 with inversion
     * (720 / 48), each class named by its lowest case */
    int cls[MC_CASES], nrc = 0, nc = 0, reps[15];
    memset(cls, -1, sizeof cls);
    for (int cs = 0; cs < MC_CASES; cs++)
        if (cls[cs] < 0) {
            for (int r = 0; r < nrot; r++)
                cls[rotate(cs, r)] = 1;
            nrc++;
        }
    memset(cls, -1, sizeof cls);
    for (int cs = 0; cs < MC_CASES; cs++)
        if (cls[cs] < 0) {
            assert_true(nc < 15);
            for (int r = 0; r < nrot; r++) {
                cls[rotate(cs, r)] = nc;
                cls[255 ^ rotate(cs, r)] = nc;
            }
            reps[nc++] = cs;
        }
    assert_int_equal(nrc, 23);
    assert_int_equal(nc, 15);
    /* The 15 classes: triangles of the case and of its inverse. A corner
     * alone cuts off a triangle, an edge's two corners a quad (2); two
     * corners on a face diagonal are cut off apart (2), and their inverse
     * is one hexagon round both outside corners through the shared face
     * (4); likewise {0, 2, 4} is a quad and a triangle (3), inverted a
     * 7-loop (5); {1, 3, 4}, three corners on face diagonals, three
     * triangles, inverted a triangle and a hexagon (5); a body diagonal
     * two triangles both ways; three corners of a face a pentagon (3); a
     * whole face a quad (2); the other four-corner classes a hexagon or
     * two quads (4). */
    static const int want[15][3] = {
        {0, 0, 0}, {1, 1, 1}, {3, 2, 2}, {5, 2, 4}, {7, 3, 3}, {15, 2, 2}, {20, 2, 2},
        {21, 3, 5}, {23, 4, 4}, {26, 3, 5}, {27, 4, 4}, {29, 4, 4}, {30, 4, 4}, {60, 4, 4},
        {90, 4, 4},
    };
    for (int i = 0; i < 15; i++) {
        assert_int_equal(reps[i], want[i][0]);
        assert_int_equal(ntri(reps[i]), want[i][1]);
        assert_int_equal(ntri(255 ^ reps[i]), want[i][2]);
    }
}

static void histogram(void **st)
{
    (void)st;
    int h[6] = {0};
    for (int cs = 0; cs < MC_CASES; cs++)
        h[ntri(cs)]++;
    static const int classic[6] = {2, 16, 50, 80, 76, 32};
    for (int k = 0; k < 6; k++)
        assert_int_equal(h[k], classic[k]);
}

/* One inside sample amid outside ones (5^3, the centre (2, 2, 2) at 0,
 * the rest at 255): the 8 voxels round it are active with one triangle
 * each, in voxel order, then padding; each vertex lies on an edge from
 * the centre, 128/255 of the way to the neighbour (voxel size 0.5). */
static void one_sample(void **st)
{
    (void)st;
    enum { N = 5, CAP = 16, VCAP = 64 };
    unsigned char vol[N * N * N];
    memset(vol, 255, sizeof vol);
    vol[2 + N * (2 + N * 2)] = 0;
    int vox[CAP], ofs[CAP];
    unsigned char cls[CAP];
    long nact, nverts;
    assert_int_equal(mc_vol_compact(vol, N, &T, CAP, VCAP, vox, cls, ofs, &nact, &nverts), 0);
    assert_int_equal(nact, 8);
    assert_int_equal(nverts, 24);
    for (int s = 0; s < CAP; s++) {
        if (s < 8) {
            int x = 1 + (s & 1), y = 1 + (s >> 1 & 1), z = 1 + (s >> 2);
            assert_int_equal(vox[s], x + N * (y + N * z));
            assert_int_equal(cls[s], 3);
            assert_int_equal(ofs[s], 3 * s);
        } else {
            assert_int_equal(vox[s], -1);
            assert_int_equal(cls[s], 0);
            assert_int_equal(ofs[s], 24);
        }
    }
    assert_int_equal(mc_vol_compact(vol, N, &T, 7, VCAP, vox, cls, ofs, &nact, &nverts), -1);
    float pos[3 * VCAP] = {0}, nrm[3 * VCAP] = {0};
    for (int s = 0; s < 8; s++)
        mc_vol_voxel(vol, N, &T, vox[s], ofs[s], VCAP, pos, nrm);
    for (int k = 0; k < 24; k++) {
        /* the centre is at 0; one coordinate moves 0.5 * 128/255 */
        int moved = 0;
        for (int q = 0; q < 3; q++) {
            float c = pos[q * VCAP + k];
            if (fabsf(c) > 1e-6f) {
                assert_true(fabsf(fabsf(c) - 0.5f * 128.0f / 255.0f) < 1e-6f);
                moved++;
            }
        }
        assert_int_equal(moved, 1);
    }
}

static int setup(void **st)
{
    (void)st;
    return mc_table_build(&T);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(build), cmocka_unit_test(simple_cases), cmocka_unit_test(cut_edges),
        cmocka_unit_test(closed_surface), cmocka_unit_test(symmetry), cmocka_unit_test(histogram),
        cmocka_unit_test(one_sample),
    };
    return cmocka_run_group_tests_name("mc_table", t, setup, NULL);
}
