/* rtc_options.h — build options for the run-time compilers (NVRTC, hipRTC),
 * shared by backends/cuda and the HIP plugin. */
#ifndef DH_RTC_OPTIONS_H
#define DH_RTC_OPTIONS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Split `options` at white space into a malloc'd argv (NULL-terminated,
 * the n_extra non-empty `extra` options appended). "-D X", "-U X" and
 * "-I X" become one argument ("-DX"...), as NVRTC and hipRTC want. No
 * quoting: values cannot contain spaces. *store holds the strings; free
 * both. 0, or -1 when out of memory. */
int dh_rtc_split_options(const char *options, const char *const *extra, int n_extra,
                         char ***argv_out, int *argc_out, char **store);

#ifdef __cplusplus
}
#endif

#endif
