/* tdr.h — on-GPU thread-data remapping (TDR), in the kernel dialect.
 *
 * Used right before a divergent branch: every lane of a work-group states
 * the path its current data item takes; the remap answers which lane's
 * item this lane should take over so that lanes of one path sit side by
 * side (reference redirection). Private data that must travel with an item
 * goes through dh_tdr_xchg_*() (local memory). Every function here holds
 * work-group barriers: call it from all lanes of the group, in uniform
 * control flow. All leave local memory free for the next round on return.
 *
 * Algorithms (papers/on-gpu-tdr-wagnerr-taco2018.txt, section 3):
 *   HoT  (alg=hot) two paths. Lanes of path 0 take slots from the head of a
 *        pool, lanes of path 1 from the tail, with local atomics. Order
 *        within a path follows the atomics (not stable).
 *   DGI  (alg=dgi) P paths, neighboring factor NF (divides DH_WG). Per
 *        neighborhood path counts, then each lane finds the block holding
 *        the item of its rank and searches only that block. Stable.
 * Both skip the search when the work-group is already uniform.
 *
 * Local memory: HoT needs DH_TDR_HOT_INTS ints, DGI DH_TDR_DGI_INTS(P, NF).
 */
#ifndef DH_TDR_H
#define DH_TDR_H

#define DH_TDR_HOT_INTS (DH_WG + 2)
/* counters[P][WG/NF] + path of each lane + P totals */
#define DH_TDR_DGI_INTS(P, NF) ((P) * (DH_WG / (NF)) + DH_WG + (P))

/* HoT. path in {0,1}. Returns the source lane; *new_path its path. */
DH_DEVICE int dh_tdr_hot(int lid, int path, DH_LOCAL_PTR int *shm, int *new_path)
{
    DH_LOCAL_PTR int *pool = shm;
    DH_LOCAL_PTR int *head = shm + DH_WG;
    DH_LOCAL_PTR int *tail = shm + DH_WG + 1;
    if (lid == 0) {
        *head = 0;
        *tail = DH_WG - 1;
    }
    dh_barrier();
    if (path == 0) {
        int slot = dh_atomic_add_local(head, 1);
        pool[slot] = lid;
    } else {
        int slot = dh_atomic_add_local(tail, -1);
        pool[slot] = lid - DH_WG;
    }
    dh_barrier();
    int n0 = *head;
    int src;
    if (n0 == 0 || n0 == DH_WG) {          /* uniform: keep the identity */
        src = lid;
        *new_path = path;
    } else {
        src = pool[lid];
        if (src < 0) {
            src += DH_WG;
            *new_path = 1;
        } else {
            *new_path = 0;
        }
    }
    dh_barrier();                          /* pool is free again */
    return src;
}

/* DGI. path in [0, P). NF divides DH_WG. Stable within a path. */
DH_DEVICE int dh_tdr_dgi(int lid, int path, int P, int NF, DH_LOCAL_PTR int *shm,
                         int *new_path)
{
    const int NB = DH_WG / NF;                 /* neighborhoods */
    DH_LOCAL_PTR int *cnt = shm;               /* [P][NB] */
    DH_LOCAL_PTR int *lane_path = shm + P * NB;/* [DH_WG] */
    DH_LOCAL_PTR int *tot = lane_path + DH_WG; /* [P] */
    for (int i = lid; i < P * NB; i += DH_WG)
        cnt[i] = 0;
    dh_barrier();
    dh_atomic_add_local(&cnt[path * NB + lid / NF], 1);
    lane_path[lid] = path;
    dh_barrier();
    if (lid < P) {
        int s = 0;
        for (int b = 0; b < NB; b++)
            s += cnt[lid * NB + b];
        tot[lid] = s;
    }
    dh_barrier();
    /* target group of this lane and its rank inside the group's range */
    int g = 0, start = 0, uniform = 0;
    for (int q = 0; q < P; q++)
        uniform |= tot[q] == DH_WG;
    for (int q = 0; q < P - 1; q++) {
        int t = tot[q];
        if (lid < start + t)
            break;
        start += t;
        g = q + 1;
    }
    int src = lid;
    if (uniform) {
        *new_path = path;
    } else {
        int rank = lid - start;
        /* the neighborhood whose block holds the rank-th item of group g */
        int b = 0, mark = 0;
        while (b < NB - 1 && mark + cnt[g * NB + b] <= rank) {
            mark += cnt[g * NB + b];
            b++;
        }
        /* search that block only (bounded: the item is in it) */
        int need = rank - mark;
        src = b * NF;
        for (int k = 0; k < NF; k++) {
            int hit = lane_path[b * NF + k] == g;
            if (hit && need == 0) {
                src = b * NF + k;
                break;
            }
            need -= hit;
        }
        *new_path = g;
    }
    dh_barrier();
    return src;
}

/* Private data exchange: returns the value lane `src` offered. */
DH_DEVICE float dh_tdr_xchg_f(DH_LOCAL_PTR float *buf, int lid, int src, float v)
{
    buf[lid] = v;
    dh_barrier();
    float r = buf[src];
    dh_barrier();
    return r;
}

DH_DEVICE int dh_tdr_xchg_i(DH_LOCAL_PTR int *buf, int lid, int src, int v)
{
    buf[lid] = v;
    dh_barrier();
    int r = buf[src];
    dh_barrier();
    return r;
}

#endif
