/* pb_map.h — parboil/pb's static trip-class map (gpu_tdr alg=static_trips),
 * shared by pb.c (which uploads it as the `map` buffer) and its tests.
 *
 * A bottom position (y, x) of a plane is covered by a(y) window rows and
 * b(x) window columns (Caffe's pooled windows of k x k at stride s, padding
 * pad, ph x pw of them), so pb's window loop runs a(y) x b(x) times: the
 * pair (a, b) is the position's class, known from the shape alone.
 * Along one axis the count is periodic with period s inside the plane and
 * differs at both edges (padding, the clipped last window), so the map is
 * tabulated exactly per plane rather than derived by formula. */
#ifndef DH_PARBOIL_PB_MAP_H
#define DH_PARBOIL_PB_MAP_H

/* the number of windows (of n, k wide at stride s, padding pad) covering
 * coordinate y along one axis: 0 .. ceil(k / s) */
int dh_pb_cover(int y, int k, int s, int pad, int n);

/* Fill map[0 .. hh * ww) with a permutation of the plane's positions
 * (y * ww + x): the classes (a(y), b(x)) in ascending order of
 * a * (ceil(k / s) + 1) + b, each a contiguous run of slots, and within a
 * class the positions in row-major (ascending) order. Returns the number
 * of non-empty classes. */
int dh_pb_static_map(int hh, int ww, int k, int s, int pad, int ph, int pw, int *map);

#endif
