/* Facts about control types and flags (spec QC-11, QC-16, FL-*). */
#ifndef V4L2C_CTRL_TYPE_H
#define V4L2C_CTRL_TYPE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/videodev2.h>

const char *ctrl_type_name(uint32_t type);	/* "integer", "menu", ...; NULL if unknown */
bool ctrl_type_known(uint32_t type);
/* Types G/S_CTRL handle: INTEGER, BOOLEAN, MENU, INTEGER_MENU, BITMASK, BUTTON (SC-1). */
bool ctrl_type_is_int32(uint32_t type);
bool ctrl_type_is_menu(uint32_t type);
/* Array or compound type: what NEXT_COMPOUND enumerates (QC-4). */
bool ctrl_is_compound(const struct v4l2_query_ext_ctrl *q);
/* Value lives in a payload (string, array, compound): HAS_PAYLOAD (QC-17). */
bool ctrl_has_payload(const struct v4l2_query_ext_ctrl *q);
bool ctrl_readable(const struct v4l2_query_ext_ctrl *q);
bool ctrl_writable(const struct v4l2_query_ext_ctrl *q);
/* Flags this kernel generation knows (FL-14). */
#define CTRL_KNOWN_FLAGS 0x0fffu
void ctrl_flags_str(uint32_t flags, char *buf, size_t len);
#endif
