/* Multi-control VIDIOC_G/S/TRY_EXT_CTRLS calls (spec section 4): an array
 * of v4l2_ext_control built entry by entry, its payload buffers owned by
 * the batch, and the v4l2_ext_controls header kept after the call so that
 * checks can read error_idx, which and count as the driver left them.
 *
 *	struct ext_batch b;
 *	ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
 *	ext_add(&b, brightness, 200);
 *	ext_add_id(&b, 0);                     an unknown id
 *	int e = ext_do(dev, VIDIOC_S_EXT_CTRLS, &b);
 *	b.cs.error_idx ...
 *	ext_free(&b);
 */
#ifndef V4L2C_EXT_CTRLS_H
#define V4L2C_EXT_CTRLS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ctrl/ctrl_model.h"
#include "ctrl/ctrl_value.h"

/* error_idx as the batch hands it to the driver: a value no driver would
 * compute, so a check can tell "not written" (PR-2, EX-2) from 0 or count. */
#define EXT_IDX_UNSET 0xdeadbeefu

struct ext_batch {
	uint32_t which;
	uint32_t count;
	struct v4l2_ext_control *c;	/* count entries */
	const struct ctrl **ctrl;	/* the model control of each entry, NULL for raw ids */
	void **buf;			/* payload buffers owned by the batch */
	size_t cap;
	uint32_t error_idx_in;		/* what error_idx holds before the call (EXT_IDX_UNSET) */
	int32_t request_fd;		/* handed to the driver with which = V4L2_CTRL_WHICH_REQUEST_VAL */
	struct v4l2_ext_controls cs;	/* the header after the last ext_do() */
};

void ext_init(struct ext_batch *b, uint32_t which);
void ext_free(struct ext_batch *b);
/* A raw entry: the id only, value 0, no payload. */
struct v4l2_ext_control *ext_add_id(struct ext_batch *b, uint32_t id);
/* A scalar entry (value or value64 by type), or for a payload control a
 * zeroed buffer of the control's full size (strings: maximum+1 bytes). */
struct v4l2_ext_control *ext_add(struct ext_batch *b, const struct ctrl *c, int64_t v);
/* An entry holding a copy of v (payload copied, size = v->size). */
struct v4l2_ext_control *ext_add_val(struct ext_batch *b, const struct ctrl *c, const struct ctrl_val *v);
/* A payload entry with a buffer of `alloc` bytes (zeroed) and `size` in the
 * entry: for size-rule checks (ST-1, AR-1, AR-2, AR-5). */
struct v4l2_ext_control *ext_add_sized(struct ext_batch *b, const struct ctrl *c, uint32_t size, uint32_t alloc);

/* The ioctl (VIDIOC_G/S/TRY_EXT_CTRLS) with which, count and the array of
 * the batch; error_idx starts as error_idx_in. Returns 0 or the errno; the
 * header as the driver left it is in b->cs. */
int ext_do(const struct dev *d, unsigned long req, struct ext_batch *b);
/* Entry i's scalar value (value64 for INTEGER64, value otherwise). */
int64_t ext_scalar(const struct ext_batch *b, size_t i);
/* Entry i as a ctrl_val (payload copied) for ctrl_val_equal/ctrl_val_str. */
void ext_val(const struct ext_batch *b, size_t i, struct ctrl_val *out);

const char *ext_req_name(unsigned long req);	/* "G_EXT_CTRLS" */

/* Controls whose value a batch can change without side effects on other
 * controls: settable scalars (ctrl_settable_scalar) that are not UPDATE,
 * INACTIVE or GRABBED and have a second valid value. */
bool ext_plain(const struct ctrl *c);
/* Up to max plain controls, user class first, of class `cls` (0: any),
 * leaving out the nskip controls in skip; returns how many. */
size_t ext_pick_plain(const struct ctrl_model *m, uint32_t cls, const struct ctrl *const *skip, size_t nskip,
		      const struct ctrl **out, size_t max);
/* Append up to max plain controls (as ext_pick_plain), each with a valid
 * value other than its current one (read through d); returns how many.
 * Their current values go to cur[] when cur is not NULL. */
size_t ext_add_changes(struct ext_batch *b, const struct dev *d, const struct ctrl_model *m, uint32_t cls,
		       const struct ctrl *const *skip, size_t nskip, size_t max, int64_t *cur);
/* Payload controls that can be read and written (not excluded). */
bool ext_payload_rw(const struct ctrl *c);
#endif
