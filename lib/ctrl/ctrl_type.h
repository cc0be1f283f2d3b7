/* Facts about control types and flags (spec QC-11, QC-16, FL-*). */
#ifndef V4L2C_CTRL_TYPE_H
#define V4L2C_CTRL_TYPE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/videodev2.h>

/* A type some rule book knows (6.1, 6.12 or 7.3); whether the running kernel
 * can have it: ctrl/rulebook.h. */
const char *ctrl_type_name(uint32_t type);	/* "integer", "menu", ...; NULL if unknown */
bool ctrl_type_known(uint32_t type);
/* 32-bit element types: INTEGER, BOOLEAN, MENU, INTEGER_MENU, BITMASK,
 * BUTTON. The type names the element only: whether the control is one value
 * or an array of them follows from flags, elems and dims (below). */
bool ctrl_type_is_int32(uint32_t type);
bool ctrl_type_is_menu(uint32_t type);
/* An array: nr_of_dims > 0, DYNAMIC_ARRAY or more than one element, whatever
 * the type (6.12's vivid has INTEGER and INTEGER64 arrays, QC-16, FL-12). */
bool ctrl_is_array(const struct v4l2_query_ext_ctrl *q);
/* Array or compound type: what NEXT_COMPOUND enumerates (QC-4). */
bool ctrl_is_compound(const struct v4l2_query_ext_ctrl *q);
/* What the structure says about the payload: strings, arrays and compound
 * types have one (QC-17); the reference the HAS_PAYLOAD flag is checked against. */
bool ctrl_payload_expected(const struct v4l2_query_ext_ctrl *q);
/* Value lives in a payload (ptr + size): the HAS_PAYLOAD flag or the
 * structure says so. Decides how the value is accessed (FL-9). */
bool ctrl_has_payload(const struct v4l2_query_ext_ctrl *q);
/* One 32-bit value: what G/S_CTRL handle (SC-1; arrays of them: EINVAL, AR-8). */
bool ctrl_is_scalar_int32(const struct v4l2_query_ext_ctrl *q);
bool ctrl_readable(const struct v4l2_query_ext_ctrl *q);
bool ctrl_writable(const struct v4l2_query_ext_ctrl *q);
void ctrl_flags_str(uint32_t flags, char *buf, size_t len);
/* Flags of a control the device may move by itself, so a change of its
 * value is the device's, not a request's: VOLATILE ("changes continuously",
 * vidioc-queryctrl.rst) or INACTIVE (the manual control of an auto cluster
 * while the automatic mode drives it, v4l2-controls.rst "auto clusters";
 * uvcvideo flags that control INACTIVE only, never VOLATILE: uvc_ctrl.c
 * __uvc_query_v4l2_ctrl, 6.1 line 1222). */
bool ctrl_flags_self_moving(uint32_t flags);
/* The uapi structure size of a compound type (QC-16), 0 when not known here. */
size_t ctrl_type_struct_size(uint32_t type);
#endif
