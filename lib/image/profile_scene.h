/* The board profile's scene settings (set.CTRL = VALUE for every probe,
 * scene.PROBE.CTRL = VALUE before one probe's) written to the device: shared
 * by the probes and the lifecycle suite's picture checks, which must see the
 * same scene. Run inside a check: problems become v_info / v_warn notes. */
#ifndef V4L2C_PROFILE_SCENE_H
#define V4L2C_PROFILE_SCENE_H
#include "ctrl/ctrl_model.h"
#include "dev/device.h"
#include "image/profile.h"

/* probed: the probed control (its scene.PROBE.* lines apply too), or NULL
 * for the settings every probe gets. */
void profile_apply_scene(const struct dev *d, const struct ctrl_model *m, const struct profile *p,
			 const struct ctrl *probed);
#endif
