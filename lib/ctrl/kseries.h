/* The series (major.minor) of the running kernel, which decides the rule
 * book a check judges by: rules that a kernel's framework and documentation
 * gained in X.Y apply from X.Y on (e.g. WHICH_MIN/MAX_VAL from 6.15). */
#ifndef V4L2C_KSERIES_H
#define V4L2C_KSERIES_H
#include <stdbool.h>

/* KSERIES(6, 15) == 6015: comparable series numbers. */
#define KSERIES(major, minor) ((major) * 1000 + (minor))
/* "7.3.4+deb13-amd64" -> 7003; 0 when the release does not start X.Y. */
int kseries_parse(const char *release);
/* The running kernel's series (uname), 0 when unknown. */
int kseries_running(void);
/* "7.3" for messages (a static buffer per call site is not needed: one). */
const char *kseries_str(int series);

/* The framework and vidioc-g-ext-ctrls.rst have WHICH_MIN_VAL/MAX_VAL,
 * HAS_WHICH_MIN_MAX and TYPE_RECT from 6.15 on. */
#define KSERIES_MINMAX KSERIES(6, 15)
bool kseries_has_minmax(void);
#endif
