/* Typed control values and the get/set paths (old and extended ioctls). */
#ifndef V4L2C_CTRL_VALUE_H
#define V4L2C_CTRL_VALUE_H
#include <stdint.h>
#include <stdbool.h>
#include "ctrl/ctrl_model.h"

struct ctrl_val {
	int64_t v;		/* scalar types: 32-bit types sign-extended, INTEGER64 */
	uint32_t size;		/* payload types: bytes in p */
	void *p;		/* payload types: malloc'ed buffer */
};

/* Extended path, one control. Each returns 0 or the errno. `which` is
 * V4L2_CTRL_WHICH_CUR_VAL or V4L2_CTRL_WHICH_DEF_VAL. Payload buffers are
 * sized elem_size*elems (strings: maximum+1). Set and try write the
 * driver's adjusted value back into *v. */
int ctrl_get(const struct dev *d, const struct ctrl *c, uint32_t which, struct ctrl_val *out);
int ctrl_set(const struct dev *d, const struct ctrl *c, struct ctrl_val *v);
int ctrl_try(const struct dev *d, const struct ctrl *c, struct ctrl_val *v);
/* Old ioctls: G_CTRL / S_CTRL (S_CTRL is IOWR: *v gets the written-back value). */
int ctrl_get_old(const struct dev *d, uint32_t id, int32_t *v);
int ctrl_set_old(const struct dev *d, uint32_t id, int32_t *v);
/* Scalar convenience over the best path for the type: old ioctls for 32-bit
 * types when QUERY_EXT_CTRL is missing (legacy drivers), extended otherwise. */
int ctrl_get_scalar(const struct dev *d, const struct ctrl *c, int64_t *v);
/* The control's flags as the device reports them now (QUERY_EXT_CTRL, or
 * QUERYCTRL on drivers without it); false when neither answers. */
bool ctrl_query_flags(const struct dev *d, uint32_t id, uint32_t *flags);
/* A fresh query says the device may move c by itself now (its current
 * flags, ctrl_flags_self_moving): a change found after a request is then
 * not the request's. The enumeration's flags are stale: auto modes toggle. */
bool ctrl_moves_by_itself(const struct dev *d, const struct ctrl *c);
int ctrl_set_scalar(const struct dev *d, const struct ctrl *c, int64_t *v);

void ctrl_val_init(const struct ctrl *c, struct ctrl_val *v);	/* payload buffer allocated, zeroed */
void ctrl_val_copy(const struct ctrl *c, struct ctrl_val *dst, const struct ctrl_val *src);
void ctrl_val_free(struct ctrl_val *v);
bool ctrl_val_equal(const struct ctrl *c, const struct ctrl_val *a, const struct ctrl_val *b);
/* Human-readable value for messages: "128", "'  '", "[3 x u16: 0 0 0]". */
void ctrl_val_str(const struct ctrl *c, const struct ctrl_val *v, char *buf, size_t len);

/* The value the framework stores for a requested scalar (spec VA-1, VA-3,
 * VA-5): fw_validate() (lib/ctrl/fw_value.c), the request itself for a menu. */
int64_t ctrl_expected_scalar(const struct v4l2_query_ext_ctrl *q, int64_t requested);
/* Is v a value the control may hold: in range, on the grid, a valid menu item? */
bool ctrl_value_valid(const struct ctrl *c, int64_t v);
#endif
