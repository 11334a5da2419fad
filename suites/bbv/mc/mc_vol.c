/* mc_vol.c — bbv/mc's volume, compaction and CPU reference (mc_vol.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mc_vol.h"

static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* draw j of blob k: [0, 1) */
static double draw(uint64_t seed, long k, int j)
{
    return (double)(mix(seed ^ ((uint64_t)k * 0xd1342543de82ef95ULL) ^ (uint64_t)j << 56) >> 11)
           * 0x1.0p-53;
}

struct blob {
    double c[3], s2, a;
    int r;                  /* the reach, 3 sigma, in samples */
};

void mc_vol_make(unsigned char *vol, int n, long blobs, uint64_t seed)
{
    struct blob *b = malloc((size_t)(blobs ? blobs : 1) * sizeof *b);
    if (!b) {
        memset(vol, 0, (size_t)n * n * n);
        return;
    }
    for (long k = 0; k < blobs; k++) {
        double sigma = 2.0 + 4.0 * draw(seed, k, 3);
        for (int a = 0; a < 3; a++)
            b[k].c[a] = (n - 1) * draw(seed, k, a);
        b[k].s2 = 2.0 * sigma * sigma;
        b[k].a = 0.55 + 0.45 * draw(seed, k, 4);
        b[k].r = (int)ceil(3.0 * sigma);
    }
    size_t plane = (size_t)n * n;
#pragma omp parallel
    {
        double *acc = malloc(plane * sizeof *acc);
#pragma omp for schedule(dynamic, 1)
        for (int z = 0; z < n; z++) {
            unsigned char *out = vol + (size_t)z * plane;
            if (!acc) {
                memset(out, 0, plane);
                continue;
            }
            memset(acc, 0, plane * sizeof *acc);
            /* blob by blob, in their order: each sample's sum is the same
             * for any schedule */
            for (long k = 0; k < blobs; k++) {
                double dz = z - b[k].c[2];
                if (fabs(dz) > b[k].r)
                    continue;
                int y0 = (int)b[k].c[1] - b[k].r, y1 = (int)b[k].c[1] + b[k].r + 1;
                int x0 = (int)b[k].c[0] - b[k].r, x1 = (int)b[k].c[0] + b[k].r + 1;
                y0 = y0 < 0 ? 0 : y0, x0 = x0 < 0 ? 0 : x0;
                y1 = y1 > n ? n : y1, x1 = x1 > n ? n : x1;
                for (int y = y0; y < y1; y++) {
                    double dy = y - b[k].c[1];
                    for (int x = x0; x < x1; x++) {
                        double dx = x - b[k].c[0];
                        double r2 = dx * dx + dy * dy + dz * dz;
                        acc[(size_t)y * n + x] += b[k].a * exp(-r2 / b[k].s2);
                    }
                }
            }
            for (size_t q = 0; q < plane; q++) {
                double v = floor(255.0 * acc[q] + 0.5);
                out[q] = (unsigned char)(v > 255.0 ? 255.0 : v);
            }
        }
        free(acc);
    }
    free(b);
}

static int cube_of(const unsigned char *vol, int n, int v)
{
    size_t p = (size_t)n * n, o[8] = {0, 1, 1 + (size_t)n, (size_t)n, p, p + 1, p + 1 + n, p + n};
    int c = 0;
    for (int k = 0; k < 8; k++)
        c |= (vol[(size_t)v + o[k]] < MC_ISO) << k;
    return c;
}

int mc_vol_compact(const unsigned char *vol, int n, const struct mc_table *t, long cap,
                   long vcap, int *vox, unsigned char *cls, int *ofs, long *nact,
                   long *nverts)
{
    long m = 0, nv = 0;
    for (int z = 0; z < n - 1; z++)
        for (int y = 0; y < n - 1; y++)
            for (int x = 0; x < n - 1; x++) {
                int v = x + n * (y + n * z), c = t->nverts[cube_of(vol, n, v)];
                if (!c)
                    continue;
                if (m < cap && nv + c <= vcap) {
                    vox[m] = v;
                    cls[m] = (unsigned char)c;
                    ofs[m] = (int)nv;
                }
                m++;
                nv += c;
            }
    *nact = m;
    *nverts = nv;
    for (long s = m; s < cap; s++) {
        vox[s] = -1;
        cls[s] = 0;
        ofs[s] = (int)nv;
    }
    return m > cap || nv > vcap ? -1 : 0;
}

void mc_vol_voxel(const unsigned char *vol, int n, const struct mc_table *t, int voxel,
                  int ofs, long vcap, float *pos, float *nrm)
{
    size_t p = (size_t)n * n;
    int x = voxel % n, y = voxel / n % n, z = voxel / (n * n);
    float vs = 2.0f / (float)(n - 1);
    float px = -1.0f + (float)x * vs, py = -1.0f + (float)y * vs, pz = -1.0f + (float)z * vs;
    float qx = px + vs, qy = py + vs, qz = pz + vs;
    /* corner positions and samples in corner order */
    float cx[8] = {px, qx, qx, px, px, qx, qx, px}, cy[8] = {py, py, qy, qy, py, py, qy, qy};
    float cz[8] = {pz, pz, pz, pz, qz, qz, qz, qz};
    size_t o[8] = {0, 1, 1 + (size_t)n, (size_t)n, p, p + 1, p + 1 + n, p + n};
    float f[8];
    int c = 0;
    for (int k = 0; k < 8; k++) {
        int s = vol[(size_t)voxel + o[k]];
        c |= (s < MC_ISO) << k;
        f[k] = (float)s;
    }
    float vl[12][3];
    for (int e = 0; e < 12; e++) {
        int a = mc_edge_corner[e][0], b = mc_edge_corner[e][1];
        float u = ((float)MC_ISO - f[a]) / (f[b] - f[a]);
        vl[e][0] = cx[a] + u * (cx[b] - cx[a]);
        vl[e][1] = cy[a] + u * (cy[b] - cy[a]);
        vl[e][2] = cz[a] + u * (cz[b] - cz[a]);
    }
    for (int k = 0; k < t->nverts[c]; k += 3) {
        const float *a = vl[t->tri[c][k]], *b = vl[t->tri[c][k + 1]], *d = vl[t->tri[c][k + 2]];
        float e0[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        float e1[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
        float nm[3] = {e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2],
                       e0[0] * e1[1] - e0[1] * e1[0]};
        const float *v[3] = {a, b, d};
        for (int j = 0; j < 3; j++)
            for (int q = 0; q < 3; q++) {
                pos[(size_t)q * vcap + ofs + k + j] = v[j][q];
                nrm[(size_t)q * vcap + ofs + k + j] = nm[q];
            }
    }
}
