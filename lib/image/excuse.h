/* An excuse earned (issue 21, rule PB-6 in spec/rules-probe.md). A picture
 * check that is about to excuse itself ("flat", "clipped", "no visible
 * change", "inconclusive") first shows that the picture can change at all:
 * the standard image controls (brightness, contrast, saturation, hue, gain,
 * exposure, the flips; not those the board profile lists as 'no visible
 * effect') go to their defaults by the plainest path (S_CTRL), and then one
 * at a time to their minimum and maximum until the region moves. When one
 * does, the same value is written the way the checks write it (S_EXT_CTRLS,
 * which = CUR_VAL) and must move it too. A picture no image control moves,
 * or one that moves by S_CTRL only, is the controls' failure, not the
 * scene's: a driver whose set path stores values without programming the
 * hardware leaves exactly that picture behind. */
#ifndef V4L2C_EXCUSE_H
#define V4L2C_EXCUSE_H
#include <stdbool.h>
#include <stddef.h>
#include "ctrl/ctrl_model.h"
#include "dev/device.h"
#include "image/capture.h"
#include "image/profile.h"

/* Does the board profile let the picture checks judge c: a standard image
 * control, settable, not listed as 'no visible effect'. */
bool excuse_image_ctrl(const struct ctrl *c, const struct profile *pr);

/* With cap streaming from d's node: true when the picture was shown to
 * respond (or there is no image control to show it with: the profile's
 * choice), and the controls are back at the values they had; false with
 * what was seen in seen ("no standard image control moves the picture:
 * ..." or "... responds to S_CTRL but not to S_EXT_CTRLS ..."). A failed
 * capture is no finding: true. The answer is kept for the process. */
bool excuse_earned(const struct dev *d, const struct ctrl_model *m, struct capture *cap, char *seen, size_t len);

/* The excuse, or the failure it would hide: when excuse_earned says no,
 * the check fails with "expected the picture to respond to its image
 * controls before excusing '<excuse>' (PB-6), got <seen>"; else nothing
 * happens and the caller skips as it meant to. */
void excuse_or_fail(const struct dev *d, const struct ctrl_model *m, struct capture *cap, const char *excuse);
#endif
