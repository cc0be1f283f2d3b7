/* The 7.3 uapi constants of the control interface that the build host's
 * (Debian 12, 6.1) headers lack, with the 7.3 values (linux-libc-dev 7.3.4,
 * usr/include/linux/videodev2.h and v4l2-controls.h). Headers that have a
 * constant win (#ifndef), so a build against 7.3's own headers uses them;
 * spec/uapi-7.3.txt lists the same names. The precedent: uapi_av1.h. */
#ifndef V4L2C_UAPI_7_3_H
#define V4L2C_UAPI_7_3_H
#include <linux/videodev2.h>
#include <stdint.h>

/* videodev2.h:1876-1877 (6.15) */
/* Whether the build's headers predate 6.15 (asked before the defines below). */
#ifndef V4L2_CTRL_WHICH_MIN_VAL
#define V4L2C_HEADERS_BEFORE_6_15 1
#endif
#ifndef V4L2_CTRL_WHICH_MIN_VAL
#define V4L2_CTRL_WHICH_MIN_VAL 0x0f020000
#endif
#ifndef V4L2_CTRL_WHICH_MAX_VAL
#define V4L2_CTRL_WHICH_MAX_VAL 0x0f030000
#endif
/* videodev2.h:1987 (6.15) */
#ifndef V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX
#define V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX 0x1000
#endif
/* enum v4l2_ctrl_type members, videodev2.h:1896 (6.15) and :1924-1925 (after
 * 6.12, at or before 7.3): enum members, so #ifndef cannot see them; the
 * build's headers decide through V4L2_CID_* macros of the same patches. */
#define V4L2C_CTRL_TYPE_RECT 0x0107
#define V4L2C_CTRL_TYPE_HEVC_EXT_SPS_ST_RPS 0x0275
#define V4L2C_CTRL_TYPE_HEVC_EXT_SPS_LT_RPS 0x0276
/* The same type under the uapi's own name, for code written against the
 * 7.3 headers (suites/suite_minmax.c): an enum member there, so a macro
 * only where the headers predate it (WHICH_MIN_VAL came in the same patches). */
#ifdef V4L2C_HEADERS_BEFORE_6_15
#define V4L2_CTRL_TYPE_RECT V4L2C_CTRL_TYPE_RECT
#endif
/* sizeof the structures (the 7.3 headers: v4l2_rect is old; the RPS
 * structures are v4l2-controls.h:2588-2616). */
#define V4L2C_RECT_SIZE sizeof(struct v4l2_rect)
#define V4L2C_HEVC_EXT_SPS_ST_RPS_SIZE 80
#define V4L2C_HEVC_EXT_SPS_LT_RPS_SIZE 4
#endif
