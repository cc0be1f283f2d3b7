/* The moments of a device's life at which drivers lose control values (issue
 * 13): streaming on and off, a format change, an input change, runtime
 * suspend after the last handle closes; and the values watched across them.
 * Used by suites/suite_lifecycle.c. Every function returns 0 or an errno
 * unless it says otherwise; none ends the check. */
#ifndef V4L2C_LIFECYCLE_H
#define V4L2C_LIFECYCLE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ctrl/ctrl_model.h"
#include "dev/device.h"

#define LC_MAX_WATCH 64

/* Controls and the values that must survive a transition. */
struct lc_watch {
	size_t n;
	const struct ctrl *c[LC_MAX_WATCH];
	int64_t v[LC_MAX_WATCH];
};

/* A control with a documented meaning: a standard id (class base 0x900 to
 * 0xfff) of the user, camera, image source or image processing class.
 * Driver-private controls may be documented by their driver to follow the
 * input or the format (vivid's Colorspace follows the input type). */
bool lc_documented(const struct ctrl *c);
/* Set every documented, settable scalar control to another valid value and
 * watch what reads back. A control that refuses the set (EBUSY while
 * GRABBED, EACCES) is left out; refused (may be NULL) counts them. */
size_t lc_set_others(const struct dev *d, const struct ctrl_model *m, struct lc_watch *w, unsigned *refused);
/* Set each watched control to v[i] (the picture checks' values). */
int lc_apply(const struct dev *d, const struct lc_watch *w, const int64_t *v);
/* How many watched controls no longer read their value (an error reading
 * counts), listed as "brightness 255 -> 128, ..." in report. One flagged
 * INACTIVE or VOLATILE now is the device's to move (ctrl_moves_by_itself). */
int lc_changed(const struct dev *d, const struct lc_watch *w, char *report, size_t len);
/* "brightness = 160, horizontal-flip = 1" */
void lc_describe(const struct lc_watch *w, char *buf, size_t len);

/* The capture format (single- or multi-planar, as the node has it). */
int lc_get_format(const struct dev *d, struct v4l2_format *f);
int lc_set_format(const struct dev *d, struct v4l2_format *f);
/* Change to a format other than cur: another pixel format the device
 * enumerates, else another frame size. *got: what the driver chose. ENOENT
 * when the device offers nothing else. */
int lc_format_other(const struct dev *d, const struct v4l2_format *cur, struct v4l2_format *got);
bool lc_format_same(const struct v4l2_format *a, const struct v4l2_format *b);
/* "YUYV 320x240" */
const char *lc_format_str(const struct v4l2_format *f, char *buf, size_t len);

/* Inputs (ENUMINPUT) and the current one (G_INPUT). */
int lc_inputs(const struct dev *d, unsigned *n, unsigned *cur);

/* Runtime power management, from sysfs beside the node's device
 * (/sys/dev/char/MAJ:MIN/device/power/). Find it while a handle is open. */
struct lc_power {
	char dir[160];		/* "" when sysfs does not say */
	int delay_ms;		/* autosuspend_delay_ms, -1 when unreadable (no autosuspend) */
};
void lc_power_of(const struct dev *d, struct lc_power *p);
/* runtime_status: "suspended", "active", "unsupported", or "" */
void lc_runtime_status(const struct lc_power *p, char *buf, size_t len);
/* With every handle closed: wait past the autosuspend delay (delay + half
 * + 100 ms; default_ms where the device has none), then, where sysfs shows
 * runtime PM at work, until runtime_status says suspended (at most another
 * 2 s). Returns the milliseconds waited; *suspended whether sysfs confirmed
 * it; *src says where the delay came from. */
unsigned lc_wait_suspend(const struct lc_power *p, unsigned default_ms, bool *suspended, const char **src);
#endif
