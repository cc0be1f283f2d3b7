/* The control framework's value rules, exactly as the kernel computes them:
 * std_validate_elem() and ROUND_TO_RANGE in drivers/media/v4l2-core/
 * v4l2-ctrls-core.c, identical in 6.1.192 and 6.12.118 (spec VA-1..VA-6).
 * The documentation leaves room ("the closest valid value or ERANGE"); where
 * it does, the framework's result is the reference the checks warn against,
 * and what the documentation allows is the pass/fail line (fw_allowed).
 * Pure functions, unit-tested on tables read from the kernel source
 * (tests/unit/test_fw_value.c). */
#ifndef V4L2C_FW_VALUE_H
#define V4L2C_FW_VALUE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/videodev2.h>
#include "ctrl/ctrl_model.h"

/* What the framework does with a requested element value `in` of a control
 * described by q: 0 and the stored value in *out, or -ERANGE / -EINVAL (menus:
 * outside [min, max] / an item QUERYMENU refuses, i.e. masked or unnamed).
 * `in` is first cut to the element's width, as the kernel receives it (an
 * INTEGER gets an s32, a U8 element a byte), and the arithmetic wraps where
 * the kernel's does (s32 for INTEGER, the element's unsigned width for
 * U8/U16/U32, s64 for INTEGER64; the grid divisor is the low 32 bits of step).
 * Results: 32-bit signed types sign-extended, U8/U16/U32 zero-extended.
 * menu/n_menu: the items QUERYMENU reported (NULL: every item valid). */
int fw_validate(const struct v4l2_query_ext_ctrl *q, const struct menu_item *menu, size_t n_menu, int64_t in,
		int64_t *out);

/* Where a request for an integer-type control may land by the
 * documentation: "the closest valid value" (GC, GX), valid values being
 * min + n * step (QC step: "the increment between values"). A valid request
 * must be stored as is; an off-grid one may go to either grid neighbour in
 * [min, max]; a maximum that is off the grid may also be kept as the maximum
 * (QC-12: the driver reported it). Out of range: the nearest bound's side
 * (never the opposite end, SC-6). *framework is set when got is what the
 * framework would store. */
bool fw_allowed(const struct v4l2_query_ext_ctrl *q, int64_t want, int64_t got, bool *framework);

/* The grid value at or below v (v in [min, max]), counted from min. */
int64_t fw_grid_below(const struct v4l2_query_ext_ctrl *q, int64_t v);
/* Is the maximum off the grid ((max - min) not a multiple of step)? */
bool fw_max_off_grid(const struct v4l2_query_ext_ctrl *q);
#endif
