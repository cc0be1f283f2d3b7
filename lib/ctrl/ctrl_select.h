/* Which controls a check can say something about, and which values to use:
 * shared by the suites so that they all agree on what "settable" means. */
#ifndef V4L2C_CTRL_SELECT_H
#define V4L2C_CTRL_SELECT_H
#include "ctrl/ctrl_model.h"

/* Scalar control whose value can be set and read back: not read-only,
 * write-only, volatile, a button, disabled, a class or a payload. */
bool ctrl_settable_scalar(const struct ctrl *c);
/* As above and reachable through G/S_CTRL (32-bit integer types). */
bool ctrl_settable_int32(const struct ctrl *c);
/* A valid value different from `cur` (a menu item, the other boolean, the
 * end of the range furthest away); false if the control has only one value. */
bool ctrl_other_value(const struct ctrl *c, int64_t cur, int64_t *out);
/* A valid value near the middle of the range, on the step grid. */
int64_t ctrl_middle_value(const struct ctrl *c);
/* First valid / skipped menu item, or -1. */
int64_t ctrl_menu_first_valid(const struct ctrl *c);
int64_t ctrl_menu_first_skipped(const struct ctrl *c);
#endif
