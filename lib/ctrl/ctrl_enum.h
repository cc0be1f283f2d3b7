/* The three ways to enumerate controls (spec QC-3, QC-4, QC-7). Each returns
 * the ids in the order the driver gave them, so checks can judge ordering. */
#ifndef V4L2C_CTRL_ENUM_H
#define V4L2C_CTRL_ENUM_H
#include <stdint.h>
#include <stddef.h>
#include "dev/device.h"

/* A driver that never ends its NEXT_CTRL walk must not hang us. */
#define ENUM_MAX_STEPS 4096

struct id_list {
	uint32_t *id;
	size_t n;
	int end_err;		/* errno that ended the walk (EINVAL expected) */
	bool aborted;		/* stopped because ids stopped increasing or ENUM_MAX_STEPS */
	size_t n_private;	/* ID loop: how many of id[] are PRIVATE_BASE+n aliases */
};

/* QUERYCTRL for every id CID_BASE..LASTP1-1, then PRIVATE_BASE+n until EINVAL. */
void enum_id_loop(const struct dev *d, struct id_list *out);
/* QUERYCTRL with V4L2_CTRL_FLAG_NEXT_CTRL from 0. */
void enum_next_ctrl(const struct dev *d, struct id_list *out);
/* QUERY_EXT_CTRL with `flags` (NEXT_CTRL and/or NEXT_COMPOUND) from 0. */
void enum_next_ext(const struct dev *d, uint32_t flags, struct id_list *out);
void id_list_free(struct id_list *l);
/* The node has no control ioctls at all: QUERYCTRL and QUERY_EXT_CTRL with
 * NEXT_CTRL from id 0 both give ENOTTY, which is what a node without a
 * control handler answers (v4l2-ioctl.c v4l_queryctrl, v4l2-subdev.c
 * subdev_do_ioctl; spec NC-1). A node with a handler, even an empty one,
 * gives EINVAL at the end of its walk instead. */
bool ctrl_ioctls_absent(const struct dev *d);
bool id_list_has(const struct id_list *l, uint32_t id);
#endif
