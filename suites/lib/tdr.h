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
 * Fast forms, where the language has warp votes (CUDA, HIP; DH_HAS_BALLOT):
 *   hot_warp  (alg=hot_warp) HoT with one atomic pair per warp; lanes rank
 *             themselves from a ballot and a population count.
 *   dgi_scan  (alg=dgi_scan) P paths, stable, no atomics: per-warp path
 *             counts from ballots, per-path totals, and each lane's slot
 *             = start of its path + counts of earlier warps + rank in warp.
 *
 * Multi-item forms: each lane holds IPL items (items per lane) and the group
 * remaps S = DH_WG * IPL of them at once. Slot s = k * DH_WG + lid is lane
 * lid's k-th item. The sorted order is dealt back the same way (sorted
 * position j is lane j % DH_WG's k = j / DH_WG), so a warp's k-th items are
 * DH_WAVE consecutive sorted items: of the S / DH_WAVE warp-items at most
 * P - 1 hold two paths or more, where the one-item forms leave up to P - 1
 * mixed warps out of DH_WG / DH_WAVE. The barriers and the counting are paid
 * once per S items, not per DH_WG.
 *   count_multi (alg=count_multi) portable: a local atomic per item ranks it
 *             among its warp's items of its path. Not stable.
 *   scan_multi  (alg=scan_multi) warp votes: the rank from log2(P) ballots
 *             (the lanes of one path found by the bits of the path), no
 *             atomics. Order: by path, then warp, then item, then lane.
 *   adapt_scan  (alg=adapt_scan) scan_multi that keeps the group's order
 *             where the remap would save fewer than min_save warp-path
 *             executions: it counts the mixed warp-items (the extra paths
 *             each executes) before, and the path boundaries that would
 *             fall inside a warp-item after. A group already uniform, or
 *             sorted, or whose paths are too short to repay the exchange
 *             (the caller scales min_save by its path length) skips it and
 *             keeps its items in place (coalesced).
 * The caller writes map[s] = the path of each of its own slots (in [0, P),
 * P <= DH_WAVE, ipl <= DH_TDR_IPL_MAX, S <= 65536); on return map[j] =
 * source slot | path << 16 for sorted position j (in place: each lane keeps
 * its ipl entries in private memory across one barrier). Where the group
 * keeps its order map[j] = j | path << 16.
 *
 * Local memory: HoT needs DH_TDR_HOT_INTS ints, DGI DH_TDR_DGI_INTS(P, NF),
 * hot_warp DH_TDR_HOT_INTS, dgi_scan DH_TDR_SCAN_INTS(P); the multi-item
 * forms DH_TDR_MULTI_INTS(P) of scratch plus map[] of DH_WG * IPL ints.
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
DH_DEVICE int dh_tdr_dgi(int lid, int path, int npaths, int nf, DH_LOCAL_PTR int *shm,
                         int *new_path)
{
    const int nb = DH_WG / nf;                 /* neighborhoods */
    DH_LOCAL_PTR int *cnt = shm;               /* [npaths][nb] */
    DH_LOCAL_PTR int *lane_path = shm + npaths * nb;/* [DH_WG] */
    DH_LOCAL_PTR int *tot = lane_path + DH_WG; /* [npaths] */
    for (int i = lid; i < npaths * nb; i += DH_WG)
        cnt[i] = 0;
    dh_barrier();
    dh_atomic_add_local(&cnt[path * nb + lid / nf], 1);
    lane_path[lid] = path;
    dh_barrier();
    if (lid < npaths) {
        int s = 0;
        for (int b = 0; b < nb; b++)
            s += cnt[lid * nb + b];
        tot[lid] = s;
    }
    dh_barrier();
    /* target group of this lane and its rank inside the group's range */
    int g = 0, start = 0, uniform = 0;
    for (int q = 0; q < npaths; q++)
        uniform |= tot[q] == DH_WG;
    for (int q = 0; q < npaths - 1; q++) {
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
        while (b < nb - 1 && mark + cnt[g * nb + b] <= rank) {
            mark += cnt[g * nb + b];
            b++;
        }
        /* search that block only (bounded: the item is in it) */
        int need = rank - mark;
        src = b * nf;
        for (int k = 0; k < nf; k++) {
            int hit = lane_path[b * nf + k] == g;
            if (hit && need == 0) {
                src = b * nf + k;
                break;
            }
            need -= hit;
        }
        *new_path = g;
    }
    dh_barrier();
    return src;
}

#ifdef DH_HAS_BALLOT
#define DH_TDR_SCAN_INTS(P) ((P) * (DH_WG / DH_WAVE) + DH_WG + (P))

/* hot_warp. path in {0,1}. Not stable. */
DH_DEVICE int dh_tdr_hot_warp(int lid, int path, DH_LOCAL_PTR int *shm, int *new_path)
{
    DH_LOCAL_PTR int *pool = shm;
    DH_LOCAL_PTR int *head = shm + DH_WG;
    DH_LOCAL_PTR int *tail = shm + DH_WG + 1;
    int lane = dh_lane();
    if (lid == 0) {
        *head = 0;
        *tail = DH_WG - 1;
    }
    dh_barrier();
    dh_mask_t m0 = dh_ballot(path == 0);
    dh_mask_t all = dh_ballot(1);
    dh_mask_t lt = dh_lanemask_lt(lane);
    int n0 = dh_popc(m0), n1 = dh_popc(all) - n0;
    int h = 0, t = 0;
    if (lane == 0) {
        h = n0 ? dh_atomic_add_local(head, n0) : 0;
        t = n1 ? dh_atomic_add_local(tail, -n1) : 0;
    }
    h = dh_shfl(h, 0);
    t = dh_shfl(t, 0);
    int slot = path == 0 ? h + dh_popc(m0 & lt) : t - dh_popc(~m0 & all & lt);
    pool[slot] = lid | (path << 16);
    dh_barrier();
    int total0 = *head, src;
    if (total0 == 0 || total0 == DH_WG) {
        src = lid;
        *new_path = path;
    } else {
        int e = pool[lid];
        src = e & 0xffff;
        *new_path = e >> 16;
    }
    dh_barrier();
    return src;
}

/* dgi_scan. path in [0, P). Stable within a path. */
DH_DEVICE int dh_tdr_dgi_scan(int lid, int path, int npaths, DH_LOCAL_PTR int *shm, int *new_path)
{
    const int nw = DH_WG / DH_WAVE;
    DH_LOCAL_PTR int *cnt = shm;                /* [npaths][nw] */
    DH_LOCAL_PTR int *pool = shm + npaths * nw;      /* [DH_WG] */
    DH_LOCAL_PTR int *tot = pool + DH_WG;       /* [npaths] */
    int lane = dh_lane(), w = lid / DH_WAVE;
    dh_mask_t lt = dh_lanemask_lt(lane);
    int rank = 0;
    for (int q = 0; q < npaths; q++) {
        dh_mask_t m = dh_ballot(path == q);
        if (path == q)
            rank = dh_popc(m & lt);
        if (lane == 0)
            cnt[q * nw + w] = dh_popc(m);
    }
    dh_barrier();
    if (lid < npaths) {
        int s = 0;
        for (int b = 0; b < nw; b++)
            s += cnt[lid * nw + b];
        tot[lid] = s;
    }
    dh_barrier();
    int slot = rank, uniform = 0;
    for (int q = 0; q < npaths; q++) {
        int t = tot[q];
        uniform |= t == DH_WG;
        slot += q < path ? t : 0;
    }
    for (int b = 0; b < w; b++)
        slot += cnt[path * nw + b];
    pool[slot] = lid | (path << 16);
    dh_barrier();
    int src;
    if (uniform) {
        src = lid;
        *new_path = path;
    } else {
        int e = pool[lid];
        src = e & 0xffff;
        *new_path = e >> 16;
    }
    dh_barrier();
    return src;
}
#endif

/* ---- multi-item forms (see the top) ---- */
/* cnt[P][nw] + off[P][nw] + tot[P] + mixed warp-items per warp [nw] */
#define DH_TDR_MULTI_INTS(P) (2 * (P) * (DH_WG / DH_WAVE) + (P) + DH_WG / DH_WAVE)
/* the most items a lane may hold (its entries wait in private memory) */
#define DH_TDR_IPL_MAX 16

/* After the ranking: cnt[q][w] holds warp w's items of path q, map[s] of
 * each of the lane's slots its path | rank among them << 8, mixw[w] (when
 * min_save >= 0) warp w's extra warp-path executions as it stands. Offsets,
 * the decision, and the placement, in place. Returns 1 when remapped. */
DH_DEVICE int dh_tdr__multi_place(int lid, int ipl, int npaths, int min_save,
                                  DH_LOCAL_PTR int *map, DH_LOCAL_PTR int *shm)
{
    const int nw = DH_WG / DH_WAVE, w = lid / DH_WAVE, S = DH_WG * ipl;
    DH_LOCAL_PTR int *cnt = shm;                /* [npaths][nw] */
    DH_LOCAL_PTR int *off = shm + npaths * nw;  /* [npaths][nw] */
    DH_LOCAL_PTR int *tot = off + npaths * nw;  /* [npaths] */
    DH_LOCAL_PTR int *mixw = tot + npaths;      /* [nw] */
    for (int q = lid; q < npaths; q += DH_WG) {
        int t = 0;
        for (int b = 0; b < nw; b++)
            t += cnt[q * nw + b];
        tot[q] = t;
    }
    dh_barrier();
    for (int j = lid; j < npaths * nw; j += DH_WG) {
        int q = j / nw, o = 0;
        for (int r = 0; r < q; r++)
            o += tot[r];
        for (int b = j - q * nw; b > 0; b--)
            o += cnt[q * nw + b - 1];
        off[j] = o;
    }
    /* the decision, the same in every lane */
    int remap = 1, start = 0, inside = 0;
    for (int q = 0; q < npaths; q++) {
        int t = tot[q];
        remap &= t != S;
        if (t && start && start % DH_WAVE)
            inside++;               /* a boundary inside a warp-item */
        start += t;
    }
    if (remap && min_save >= 0) {
        int before = 0;
        for (int b = 0; b < nw; b++)
            before += mixw[b];
        remap = before - inside > 0 && before - inside >= min_save;
    }
    /* the lane's own entries, read before any lane writes a destination */
    int e[DH_TDR_IPL_MAX];
    for (int k = 0; k < ipl; k++)
        e[k] = map[k * DH_WG + lid];
    dh_barrier();
    for (int k = 0; k < ipl; k++) {
        int s = k * DH_WG + lid, p = e[k] & 0xff;
        map[remap ? off[p * nw + w] + (e[k] >> 8) : s] = s | p << 16;
    }
    dh_barrier();
    return remap;
}

/* count_multi. map[s] = the path, in [0, P), of each of the lane's slots;
 * on return map[j] as at the top. Portable. */
DH_DEVICE int dh_tdr_count_multi(int lid, int ipl, int npaths, DH_LOCAL_PTR int *map,
                                 DH_LOCAL_PTR int *shm)
{
    const int nw = DH_WG / DH_WAVE, w = lid / DH_WAVE;
    for (int j = lid; j < npaths * nw; j += DH_WG)
        shm[j] = 0;
    dh_barrier();
    for (int k = 0; k < ipl; k++) {
        int s = k * DH_WG + lid, p = map[s];
        int r = dh_atomic_add_local(&shm[p * nw + w], 1);
        map[s] = p | r << 8;
    }
    dh_barrier();
    return dh_tdr__multi_place(lid, ipl, npaths, -1, map, shm);
}

#ifdef DH_HAS_BALLOT
/* scan_multi (min_save < 0) and adapt_scan (min_save >= 0): the ranks
 * from ballots on the bits of the path. Lane q of a warp keeps the count
 * of path q so far (P <= DH_WAVE). */
DH_DEVICE int dh_tdr__scan_multi(int lid, int ipl, int npaths, int min_save,
                                 DH_LOCAL_PTR int *map, DH_LOCAL_PTR int *shm)
{
    const int nw = DH_WG / DH_WAVE, w = lid / DH_WAVE;
    int lane = dh_lane(), nbits = 0, acc = 0, mix = 0;
    while ((1 << nbits) < npaths)
        nbits++;
    const dh_mask_t all = ~0ull >> (64 - DH_WAVE), lt = dh_lanemask_lt(lane);
    for (int k = 0; k < ipl; k++) {
        int s = k * DH_WG + lid, p = map[s];
        dh_mask_t me = all, mq = all;  /* lanes of my path; of path `lane` */
        for (int b = 0; b < nbits; b++) {
            dh_mask_t m = dh_ballot((p >> b) & 1);
            me &= (p >> b) & 1 ? m : ~m;
            mq &= (lane >> b) & 1 ? m : ~m;
        }
        int nq = lane < npaths ? dh_popc(mq) : 0;
        int r = dh_shfl(acc, p) + dh_popc(me & lt);
        acc += nq;
        if (min_save >= 0)
            mix += dh_popc(dh_ballot(nq > 0)) - 1;
        map[s] = p | r << 8;
    }
    if (lane < npaths)
        shm[lane * nw + w] = acc;
    if (lane == 0)
        shm[2 * npaths * nw + npaths + w] = mix;
    dh_barrier();
    return dh_tdr__multi_place(lid, ipl, npaths, min_save, map, shm);
}

/* scan_multi. map[s] = the path of each of the lane's slots, as for
 * count_multi. */
DH_DEVICE int dh_tdr_scan_multi(int lid, int ipl, int npaths, DH_LOCAL_PTR int *map,
                                DH_LOCAL_PTR int *shm)
{
    return dh_tdr__scan_multi(lid, ipl, npaths, -1, map, shm);
}

/* adapt_scan: remap only where it saves at least min_save (>= 0) warp-path
 * executions of the group; else map is the identity. */
DH_DEVICE int dh_tdr_adapt_scan(int lid, int ipl, int npaths, int min_save,
                                DH_LOCAL_PTR int *map, DH_LOCAL_PTR int *shm)
{
    return dh_tdr__scan_multi(lid, ipl, npaths, min_save < 0 ? 0 : min_save, map, shm);
}
#endif

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
