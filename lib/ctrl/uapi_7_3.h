/* The 6.15+ control-interface constants (WHICH_MIN/MAX_VAL, the flag that
 * announces them, TYPE_RECT) that the build's Debian 12 (6.1) uapi headers
 * lack; with headers that have them they come from there. Values as in
 * linux-libc-dev 7.3.4's videodev2.h (lines 1876, 1877, 1896, 1987). */
#ifndef V4L2C_UAPI_7_3_H
#define V4L2C_UAPI_7_3_H
#include <linux/videodev2.h>

#ifndef V4L2_CTRL_WHICH_MIN_VAL
#define V4L2_CTRL_WHICH_MIN_VAL 0x0f020000
#define V4L2_CTRL_WHICH_MAX_VAL 0x0f030000
/* An enum constant in the 7.3 headers: a macro only where they are absent. */
#define V4L2_CTRL_TYPE_RECT 0x0107
#endif
#ifndef V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX
#define V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX 0x1000
#endif
#endif
