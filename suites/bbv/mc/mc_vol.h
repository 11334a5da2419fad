/* mc_vol.h — bbv/mc's host side: the seeded volume, the classification
 * and compaction the CUDA sample does on the device before its triangle
 * kernel (here on the host, in setup), and the CPU reference of that
 * kernel. Samples are bytes, n per axis, x fastest; voxel (x, y, z),
 * x, y, z < n - 1, is named by its corner-0 sample's index. */
#ifndef DH_MC_VOL_H
#define DH_MC_VOL_H

#include <stdint.h>

#include "mc_table.h"

#define MC_ISO 128          /* a sample is inside when below it */

/* Sum of `blobs` Gaussian blobs (centres uniform in the volume, sigma 2..6
 * samples, peak 0.55..1), times 255, rounded and clamped to 0..255; each
 * blob draws from its own counter-based stream, so the volume does not
 * depend on the thread count. */
void mc_vol_make(unsigned char *vol, int n, long blobs, uint64_t seed);

/* The compacted list of active voxels (those with triangles) in voxel
 * order: vox[slot], the vertex count from the table cls[slot] and the
 * first vertex ofs[slot] (an exclusive scan). Slots nact .. cap - 1 are
 * padding: vox -1, cls 0, ofs the total. *nact and *nverts are set even
 * when they pass cap or vcap; returns -1 then, else 0. */
int mc_vol_compact(const unsigned char *vol, int n, const struct mc_table *t, long cap,
                   long vcap, int *vox, unsigned char *cls, int *ofs, long *nact,
                   long *nverts);

/* The triangle kernel's work for one active voxel, in its operation order:
 * positions and flat normals of its vertices at ofs, in planes of vcap
 * floats (x, y, z). */
void mc_vol_voxel(const unsigned char *vol, int n, const struct mc_table *t, int voxel,
                  int ofs, long vcap, float *pos, float *nrm);

#endif
