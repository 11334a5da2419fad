/* expr.h — small integer expressions: a descriptor's constraints and a
 * declared buffer's element count (suites/lib/kit.h).
 *   expr := or ('?' expr ':' expr)?
 *   or := and ('||' and)* ; and := cmp ('&&' cmp)*
 *   cmp := sum (('=='|'!='|'<='|'>='|'<'|'>') sum)?
 *   sum := prod (('+'|'-') prod)* ; prod := unary (('*'|'/'|'%') unary)*
 *   unary := '-' unary | '!' unary | '(' expr ')' | number | name
 *          | 'min' '(' expr ',' expr ')' | 'max' '(' expr ',' expr ')'
 * 64-bit integers; an overflow, a division by zero or a literal out of
 * range is an error naming where, never a wrapped value or a signal
 * (in the branch a ?: does not take, none is raised).
 * Names are looked up in `vars`, then warp, max_wg and items. */
#ifndef DH_EXPR_H
#define DH_EXPR_H

#include <stddef.h>

#include "params.h"

#define DH_EXPR_MAX 1024        /* longer text is refused, not cut */

/* 0 with *value, or -DH_E_DATA with `why` naming the problem. */
int dh_expr_eval(const char *expr, const struct dh_pset *vars, double warp, double max_wg,
                 double items, long *value, char *why, size_t why_len);

#endif
