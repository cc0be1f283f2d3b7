/* The control model: every control the device has, with its description and
 * menu items, built once before the checks are registered. */
#ifndef V4L2C_CTRL_MODEL_H
#define V4L2C_CTRL_MODEL_H
#include <stdint.h>
#include <stdbool.h>
#include "dev/device.h"

enum enum_method { EM_ID_LOOP = 1, EM_NEXT_CTRL = 2, EM_NEXT_EXT = 4 };

struct menu_item {
	uint32_t index;
	int err;		/* QUERYMENU errno: 0 = valid item, EINVAL = skipped */
	char name[33];		/* NUL-terminated even when the driver's is not */
	int64_t value;		/* INTEGER_MENU */
};

struct ctrl {
	struct v4l2_query_ext_ctrl q;	/* QUERY_EXT_CTRL, or built from QUERYCTRL on legacy drivers */
	bool have_qext;
	char slug[64];			/* "brightness": the control's part of a check name */
	unsigned int found_by;		/* enum_method bits */
	bool excluded;			/* never written: a destructive control named by the board (--exclude-control) */
	struct menu_item *menu;		/* items min..max (menus only) */
	size_t n_menu;
};

struct ctrl_model {
	struct ctrl *c;
	size_t n;
	size_t n_hidden;		/* c[n..n+n_hidden): controls whose ioctls hang, out of every
					 * loop over the model but still known to model_find (ctrl_hang.h) */
	bool qext_works;		/* QUERY_EXT_CTRL answers at all */
	uint32_t quiet_sentinel;	/* control whose change proves "no event" (events.h); 0: none */
};

/* Enumerate with every method and keep the union (by id), so that one broken
 * method does not hide controls from the checks of the others. Returns 0, or
 * -1 with a reason (no controls at all is not an error). */
int model_build(const struct dev *d, struct ctrl_model *m, char *err, size_t errlen);
void model_free(struct ctrl_model *m);
const struct ctrl *model_find(const struct ctrl_model *m, uint32_t id);
void model_refresh(const struct dev *d, struct ctrl *c);	/* re-query flags/range */

/* "Horizontal Flip" -> "horizontal-flip" */
void ctrl_slugify(const char *name, char *out, size_t outlen);
#endif
