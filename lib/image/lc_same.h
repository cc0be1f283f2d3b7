/* The transitions applications make with the values the device already
 * has (issue 21, LC-7 in spec/rules-lifecycle.md): S_FMT with the current
 * format before every stream, S_INPUT with the current input, S_STD and
 * S_DV_TIMINGS with the current standard and timings. A driver that
 * re-initialises its sensor on every call, not only on a change, loses the
 * values there, on a device with one format and one input as on any other.
 * Every function returns 0 or an errno; none ends the check. */
#ifndef V4L2C_LC_SAME_H
#define V4L2C_LC_SAME_H
#include <stddef.h>
#include "dev/device.h"

/* S_INPUT with the current input, then S_STD with the current standard
 * where G_STD answers and S_DV_TIMINGS with the current timings where
 * G_DV_TIMINGS answers. done lists what was done ("S_INPUT 0 (the current
 * one), S_STD 0x000000000000b000"); ENOTTY when the node has no input. */
int lc_same_input(const struct dev *d, char *done, size_t len);
#endif
