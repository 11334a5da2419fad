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
 * order: the stable order, whoever counts them). A chunk is counted and
 * scattered in its thread's own array of keys and copied to or from its
 * row of the table after: rows of a few keys share cache lines, and
 * counting in them from several threads at once is false sharing on every
 * item. Threads: as dh_regroup_threads (regroup.h). Nothing here
 * allocates per item; the sort allocates its chunks x keys table (at most
 * about 2n + 64K ints) and, beyond 256 keys, a keys array per thread.
 */
#ifndef DH_HOSTWORK_H
#define DH_HOSTWORK_H

#include <stddef.h>
#include <stdint.h>

/* items per chunk: 64 KiB of 4-byte keys, an L2's share */
#define DH_HW_CHUNK 16384L

/* perm = the items 0 .. n-1 in ascending key order, ties in item order
 * (perm[j] = the item at slot j) and, where inv is not NULL, its inverse
 * (inv[i] = the slot of item i). Keys are 0 .. nk-1. 0; -1 where a key
 * is outside 0 .. nk-1 (*bad_item = the first such item, when not NULL;
 * perm and inv are then unspecified); -2 when out of memory or n beyond
 * int. */
int dh_hw_count_sort(const int *key, long n, int nk, int *perm, int *inv, long *bad_item);

/* Moves through an index array idx of n: back = 0 gathers (dst[j] =
 * src[idx[j]]), back = 1 scatters (dst[idx[j]] = src[j]). With perm,
 * 0 moves into the regrouped order and 1 puts back; with its inverse,
 * the other way round. Both read or write the side idx points into in
 * as many streams as keys, where idx is a stable sort's: a scatter
 * through the inverse reads its source once, where a gather through perm
 * reads each source line once per key. */

/* m columns of n 4-byte elements, a chunk of idx read once for up to 8
 * columns: column c from src[c] to dst[c]. */
void dh_hw_move32(const uint32_t *const *src, uint32_t *const *dst, int m, const int *idx,
                  long n, int back);

/* cols consecutive columns of n elements of es bytes each (element k of
 * item i at k * n + i), every column through idx. */
void dh_hw_move(const void *src, void *dst, const int *idx, long n, long cols, size_t es,
                int back);

#endif
