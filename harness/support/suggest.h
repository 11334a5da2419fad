/* suggest.h — "did you mean": the candidate closest to a mistyped word. */
#ifndef DH_SUGGEST_H
#define DH_SUGGEST_H

#include <stddef.h>

/* The edit distance (insertions, deletions, substitutions, adjacent
 * transpositions) between a and b, at most 64 characters each (longer:
 * a large number). */
int dh_edit_distance(const char *a, const char *b);

/* The candidate closest to word, if close enough to be a typo (distance at
 * most 1 for short words, a third of the length for longer ones, and
 * unique at that distance); NULL otherwise. cands: n strings, or a
 * NULL-terminated list when n < 0. */
const char *dh_suggest(const char *word, const char *const *cands, int n);

/* The same over a comma (or ", ") separated list of names in one string:
 * the closest name copied into out; 0 found, -1 none. */
int dh_suggest_list(const char *word, const char *list, char *out, size_t len);

#endif
