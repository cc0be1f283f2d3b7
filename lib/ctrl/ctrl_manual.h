/* An inactive control made active (issue 26, "skips a driver bug could
 * cause"): FL-5 lets a driver refuse writes to an inactive control with
 * EACCES (uvcvideo does while the control's auto mode is on), so a check
 * that must write it puts the control that makes it inactive into manual
 * first, and judges the control active; only when that cannot be done does
 * it skip. */
#ifndef V4L2C_CTRL_MANUAL_H
#define V4L2C_CTRL_MANUAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dev/device.h"

/* The documented auto/manual pairs (the camera and user control references:
 * "when ... is in auto mode, ... is inactive"): the auto control of id and
 * its manual value. EXPOSURE_AUTO (V4L2_EXPOSURE_MANUAL) for
 * EXPOSURE_ABSOLUTE, EXPOSURE and IRIS_ABSOLUTE; AUTO_WHITE_BALANCE (0) for
 * WHITE_BALANCE_TEMPERATURE, RED_BALANCE and BLUE_BALANCE; AUTOGAIN (0) for
 * GAIN, ANALOGUE_GAIN and DIGITAL_GAIN; FOCUS_AUTO (0) for FOCUS_ABSOLUTE and
 * FOCUS_RELATIVE; HUE_AUTO (0) for HUE; CHROMA_AGC (0) for CHROMA_GAIN. */
bool ctrl_manual_of(uint32_t id, uint32_t *auto_id, int32_t *manual);

/* Make id active: its documented auto control to manual, else (or when that
 * leaves it inactive) each control with V4L2_CTRL_FLAG_UPDATE (a cluster's
 * master) of boolean or menu type tried at its other values until id is
 * active (the ones that do not activate it set back). 0 when id is active
 * now, with what was done in `what` ("'Auto Exposure' (0x009a0901) set to 1
 * (manual)"; empty when id was active already); else an errno (ENOENT: no
 * control activates it) with the reason in `what`. The controls changed are
 * not set back here: every check starts from the snapshot of the device
 * (lib/run/runner.c), which puts them back. */
int ctrl_make_active(const struct dev *d, uint32_t id, char *what, size_t len);
#endif
