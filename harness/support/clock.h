/* clock.h — the host wall clock the harness and the benchmarks share
 * (host_ms of cpu_tdr regroupings, setup and build times).
 *
 * harness/support/ is the bottom of the harness: parameters, the clock and
 * the verification recorder. It may call backends/ (errors) and nothing
 * else of the project; everything above may call it. */
#ifndef DH_CLOCK_H
#define DH_CLOCK_H

/* Milliseconds of CLOCK_MONOTONIC. */
double dh_now_ms(void);

#endif
