/* hostwork.h — cpu_tdr's host work on plain arrays: the stable counting
 * sort of regroup=key, dlt's gathers into the regrouped order and its
 * put-backs. kit_move.c applies them to a declared benchmark's buffers;
 * tools/hostbench.c times them.
 *
 * Every loop runs over fixed chunks of the items (DH_HW_CHUNK), many more
 * than threads, handed out dynamically: a thread that the OS delays or
 * shares with another process holds up one chunk, not a fixed share of
 * the work. No result depends on the chunks or the thread count (the
 * sort's chunks take their offsets from a prefix over the chunks in item
 * order: the stable order, whoever counts them). Threads: as
 * dh_regroup_threads (regroup.h). Nothing here allocates per item except
 * the sort's per-chunk counts (chunks x keys ints).
 */
#ifndef DH_HOSTWORK_H
#define DH_HOSTWORK_H

#include <stddef.h>
#include <stdint.h>

/* items per chunk: 64 KiB of 4-byte keys, an L2's share */
#define DH_HW_CHUNK 16384L

/* perm = the items 0 .. n-1 in ascending key order, ties in item order
 * (perm[j] = the item at slot j). Keys are 0 .. nk-1. 0; -1 where a key
 * is outside 0 .. nk-1 (*bad_item = the first such item, when not NULL;
 * perm is then unspecified); -2 when out of memory or n beyond int. */
int dh_hw_count_sort(const int *key, long n, int nk, int *perm, long *bad_item);

/* m columns of n 4-byte elements gathered through perm, chunk by chunk
 * (a chunk of perm read once for every column): dst[c][j] =
 * src[c][perm[j]]. */
void dh_hw_gather32(const uint32_t *const *src, uint32_t *const *dst, int m, const int *perm,
                    long n);

/* cols consecutive columns of n elements of es bytes each (element k of
 * item i at k * n + i): back = 0 gathers (dst[j] = src[perm[j]] in every
 * column), back = 1 puts back (dst[perm[j]] = src[j]). */
void dh_hw_move(const void *src, void *dst, const int *perm, long n, long cols, size_t es,
                int back);

#endif
