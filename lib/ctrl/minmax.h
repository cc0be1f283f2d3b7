/* WHICH_MIN_VAL / WHICH_MAX_VAL (6.15+, vidioc-g-ext-ctrls.rst "which";
 * vidioc-queryctrl.rst HAS_WHICH_MIN_MAX, TYPE_RECT): which controls have
 * a minimum and maximum value to compare, element by element, and the
 * judgements of the minmax suite as pure logic (tests/unit/test_minmax.c). */
#ifndef V4L2C_MINMAX_H
#define V4L2C_MINMAX_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ctrl/uapi_7_3.h"
#include "ctrl/ctrl_value.h"

/* The numeric types whose MIN/MAX values are QUERY_EXT_CTRL's minimum and
 * maximum in every element (INTEGER, BOOLEAN, MENU, INTEGER_MENU, BITMASK,
 * INTEGER64 and the U8/U16/U32 arrays): v4l2-ctrls-core.c
 * __v4l2_ctrl_type_op_init (7.3 lines 224-309) fills them so. Strings,
 * buttons, classes and compound types have no such meaning. */
bool minmax_numeric(uint32_t type);
/* Element i of a value as read (scalar: v; array: payload), BITMASK and
 * U8/U16/U32 zero-extended. */
int64_t minmax_elem(const struct ctrl *c, const struct ctrl_val *v, uint32_t i);
/* Elements of a value (1 for a scalar). */
uint32_t minmax_elems(const struct ctrl *c, const struct ctrl_val *v);
/* Every element of got equals want (QUERY_EXT_CTRL's minimum or maximum);
 * false with the first differing element in *bad and its value in *badv. */
bool minmax_all_equal(const struct ctrl *c, const struct ctrl_val *got, int64_t want, uint32_t *bad, int64_t *badv);
/* Element i of cur lies between min and max: numerically, or for a
 * BITMASK within the maximum's bits (its minimum is 0: check_range()). */
bool minmax_elem_between(uint32_t type, int64_t min, int64_t max, int64_t cur);

/* The RECT controls whose documentation defines MIN/MAX: the bounds of the
 * rectangle's size (uvcvideo.rst, V4L2_CID_UVC_REGION_OF_INTEREST_RECT:
 * "query the range of rectangle sizes"). Others: no documented meaning. */
#define MINMAX_CID_UVC_ROI_RECT (0x00980900 + 0x11e0 + 1)
bool minmax_rect_documented(uint32_t id);
/* min.width <= cur.width <= max.width and the same for the height; false
 * with what is off in why. */
bool minmax_rect_between(const struct v4l2_rect *min, const struct v4l2_rect *max, const struct v4l2_rect *cur,
			 char *why, size_t len);
#endif
