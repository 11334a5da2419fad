/* mc_table.h — the marching-cubes case tables, generated from the cube's
 * geometry (no table copied): for each of the 256 inside/outside patterns
 * of a voxel's corners, the triangles of its piece of the iso-surface, as
 * triples of cut edges, and the number of vertices (3 per triangle).
 *
 * Conventions (the CUDA sample's): corner k at (k & 1 ^ k >> 1 & 1,
 * k >> 1 & 1, k >> 2) — v0 (0,0,0), v1 (1,0,0), v2 (1,1,0), v3 (0,1,0),
 * v4..v7 the same at z = 1; bit k of a case is set when corner k is
 * inside (its sample below the iso value); edges e0..e11 join corners
 * (0,1) (1,2) (2,3) (3,0) (4,5) (5,6) (6,7) (7,4) (0,4) (1,5) (2,6) (3,7).
 *
 * Construction (mc_table.c): on each face the cut edges are paired into
 * segments, each segment closing off one run of inside corners along the
 * face's boundary (so on a face whose inside corners sit on a diagonal,
 * each inside corner is cut off by itself: neighbouring voxels share a
 * face's segments and the surface has no cracks); every cut edge ends one
 * segment and starts another, so the segments form closed loops; each
 * loop is fanned into triangles from its lowest-numbered edge. Loops are
 * oriented with the faces (outward normal, corners counter-clockwise), so
 * all triangles of a case wind the same way.
 */
#ifndef DH_MC_TABLE_H
#define DH_MC_TABLE_H

#define MC_CASES 256
#define MC_MAXVERT 15               /* 5 triangles */
#define MC_ROW 16                   /* a case's row: edges, -1 after the last */

extern const int mc_edge_corner[12][2];
/* corner k's coordinates (0 or 1) */
int mc_corner_coord(int k, int axis);

struct mc_table {
    signed char tri[MC_CASES][MC_ROW];  /* edges, three per triangle, then -1 */
    unsigned char nverts[MC_CASES];     /* 3 x triangles */
};

/* Fill t; deterministic. 0, or -1 if a case breaks the construction's
 * invariants (a bug: every cut edge must start and end one segment). */
int mc_table_build(struct mc_table *t);

#endif
