/* The runner's side of a control whose ioctl hangs (dev/hang.h, issue 21
 * item 5): the skip reason of the checks that need it, the failure of a
 * check that timed out inside a control ioctl, the run/hang failures of the
 * runner's own bounded waits, and what a check process does about it. */
#ifndef V4L2C_RUN_HANG_H
#define V4L2C_RUN_HANG_H
#include "ctrl/ctrl_hang.h"

/* "not run: VIDIOC_QUERYCTRL of 0x00980900 'Brightness' hangs (...)", kept
 * for the run; NULL when the control does not hang. */
const char *run_hang_skip_reason(uint32_t id);
/* A check timed out (run_batch's on_timeout): if its process was blocked in
 * a control ioctl, msg names the ioctl and the control, the control joins
 * the registry (with m's names and order) and the rtype is CK_FAILURE;
 * otherwise CK_ERROR and msg unchanged. A G/S/TRY_EXT_CTRLS of several
 * controls is pinned on one first: a process of its own asks the same ioctl
 * of each alone, bounded (hang_pin), and msg names the one that hung. */
int run_hang_timed_out(const struct ctrl_model *m, const char *check, unsigned int timeout_s, char *msg,
		       size_t len);
/* One run/hang failure per control found hung so far (by the runner's own
 * bounded ioctls): fn gets its name ("run/hang/brightness"), the control
 * (NULL if the model lacks it) and the message naming each ioctl. */
void run_hang_failures(const struct ctrl_model *m,
		       void (*fn)(const char *name, const struct ctrl *c, const char *msg, void *arg), void *arg);
/* In a check process, before the check: refuse the calls that hang (a
 * skip), leave hung controls out of the model (checks of the whole device)
 * or the snapshot; returns the check's control (cid 0: none), or ends the
 * check as a skip when that control hangs. */
const struct ctrl *run_hang_check_start(struct ctrl_model *m, struct snapshot *s, bool whole_device, uint32_t cid);
#endif
