/* The ext suite (VIDIOC_G/S/TRY_EXT_CTRLS) spans three files:
 *   suite_ext.c          the check table; which, count, class, error_idx,
 *                        limits, reserved fields, everything at once;
 *   suite_ext_apply.c    what S/TRY apply: atomicity, TRY, clamping,
 *                        64-bit values, duplicates;
 *   suite_ext_helpers.c  the helpers both use, declared here. */
#ifndef V4L2C_SUITE_EXT_H
#define V4L2C_SUITE_EXT_H
#include "ctrl/ctrl_snapshot.h"
#include "check/registry.h"
#include <stdbool.h>
#include <stdint.h>

/* ---------- helpers (suite_ext_helpers.c) ---------- */

/* G, TRY and S, in that order: checks loop r = 0..2 over them. */
extern const unsigned long ext_requests[3];
/* Readable, no payload, of a known type, not disabled. */
bool ext_readable_scalar(const struct ctrl *c);
/* Every control's value, to compare after a call that must change nothing. */
void ext_snapshot_take(const struct check_ctx *cx, struct snapshot *s);
/* Fails naming the controls that changed since the snapshot. */
void ext_expect_unchanged(const struct check_ctx *cx, const struct snapshot *s, const char *what);
/* An id that is not a control: which = 0 gives id 0, 1 a hole in the user
 * class, else an id just past the device's last control. */
uint32_t ext_unknown_id(const struct ctrl_model *m, int which);
/* v as the control stores it: all 64 bits for INTEGER64, else the low 32. */
int64_t ext_as_ctrl_width(const struct ctrl *c, int64_t v);

/* ---------- checks (suite_ext_apply.c), registered in suite_ext.c ---------- */

void ext_atomic(const struct check_ctx *cx);				/* EX-12 */
bool ext_atomic_items(const struct ctrl_model *m, long i, char *slug, size_t len);
void ext_partial(const struct check_ctx *cx);				/* EX-13 */
bool ext_partial_items(const struct ctrl_model *m, long i, char *slug, size_t len);
void ext_try_no_change(const struct check_ctx *cx);			/* EX-14 */
void ext_clamp_agrees(const struct check_ctx *cx);			/* VA-1 */
void ext_int64_range(const struct check_ctx *cx);			/* EX-21 */
void ext_duplicate_id(const struct check_ctx *cx);			/* EX-16 */

#endif
