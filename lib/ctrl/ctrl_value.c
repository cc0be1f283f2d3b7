/* Getting and setting one control through the old or the extended ioctls,
 * and the value rules the framework applies (spec section 5). */
#include "ctrl/ctrl_value.h"
#include "ctrl/ctrl_type.h"
#include "ctrl/fw_value.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t payload_size(const struct ctrl *c)
{
	const struct v4l2_query_ext_ctrl *q = &c->q;
	uint32_t elems = q->elems ? q->elems : 1;
	/* A dynamic array can grow up to dims[0] elements. */
	if ((q->flags & V4L2_CTRL_FLAG_DYNAMIC_ARRAY) && q->dims[0] > elems)
		elems = q->dims[0];
	return q->elem_size * elems;
}

void ctrl_val_init(const struct ctrl *c, struct ctrl_val *v)
{
	memset(v, 0, sizeof(*v));
	if (ctrl_has_payload(&c->q)) {
		v->size = payload_size(c);
		v->p = calloc(1, v->size ? v->size : 1);
	}
}

void ctrl_val_copy(const struct ctrl *c, struct ctrl_val *dst, const struct ctrl_val *src)
{
	(void)c;
	*dst = *src;
	if (src->p) {
		dst->p = malloc(src->size ? src->size : 1);
		memcpy(dst->p, src->p, src->size);
	}
}

void ctrl_val_free(struct ctrl_val *v)
{
	free(v->p);
	memset(v, 0, sizeof(*v));
}

static int ext_call(const struct dev *d, unsigned long req, const struct ctrl *c, uint32_t which,
		    struct ctrl_val *v)
{
	struct v4l2_ext_control ec;
	struct v4l2_ext_controls cs;
	bool payload = ctrl_has_payload(&c->q);
	memset(&ec, 0, sizeof(ec));
	memset(&cs, 0, sizeof(cs));
	ec.id = c->q.id;
	if (payload) {
		if (!v->p)
			ctrl_val_init(c, v);
		ec.size = v->size;
		ec.ptr = v->p;
	} else if (c->q.type == V4L2_CTRL_TYPE_INTEGER64) {
		ec.value64 = v->v;
	} else {
		ec.value = (int32_t)v->v;
	}
	cs.which = which;
	cs.count = 1;
	cs.controls = &ec;
	int e = dev_ioctl(d, req, &cs);
	if (payload)
		v->size = ec.size;	/* strings/dynamic arrays: the size actually used */
	else if (c->q.type == V4L2_CTRL_TYPE_INTEGER64)
		v->v = ec.value64;
	else
		v->v = ec.value;
	return e;
}

int ctrl_get(const struct dev *d, const struct ctrl *c, uint32_t which, struct ctrl_val *out)
{
	if (ctrl_has_payload(&c->q)) {
		/* Fresh full-size buffer so a shorter string or array is not
		 * mistaken for a size the driver asked for. */
		ctrl_val_free(out);
		ctrl_val_init(c, out);
	}
	return ext_call(d, VIDIOC_G_EXT_CTRLS, c, which, out);
}

int ctrl_set(const struct dev *d, const struct ctrl *c, struct ctrl_val *v)
{
	return ext_call(d, VIDIOC_S_EXT_CTRLS, c, V4L2_CTRL_WHICH_CUR_VAL, v);
}

int ctrl_try(const struct dev *d, const struct ctrl *c, struct ctrl_val *v)
{
	return ext_call(d, VIDIOC_TRY_EXT_CTRLS, c, V4L2_CTRL_WHICH_CUR_VAL, v);
}

int ctrl_get_old(const struct dev *d, uint32_t id, int32_t *v)
{
	struct v4l2_control ctl = { .id = id };
	int e = dev_ioctl(d, VIDIOC_G_CTRL, &ctl);
	if (!e)
		*v = ctl.value;
	return e;
}

int ctrl_set_old(const struct dev *d, uint32_t id, int32_t *v)
{
	struct v4l2_control ctl = { .id = id, .value = *v };
	int e = dev_ioctl(d, VIDIOC_S_CTRL, &ctl);
	*v = ctl.value;
	return e;
}

static bool use_old(const struct ctrl *c)
{
	return !c->have_qext && ctrl_is_scalar_int32(&c->q);
}

bool ctrl_query_flags(const struct dev *d, uint32_t id, uint32_t *flags)
{
	struct v4l2_query_ext_ctrl q = { .id = id };
	if (dev_ioctl(d, VIDIOC_QUERY_EXT_CTRL, &q)) {
		struct v4l2_queryctrl qc = { .id = id };
		if (dev_ioctl(d, VIDIOC_QUERYCTRL, &qc))
			return false;
		*flags = qc.flags;
		return true;
	}
	*flags = q.flags;
	return true;
}

bool ctrl_moves_by_itself(const struct dev *d, const struct ctrl *c)
{
	uint32_t flags;
	return ctrl_query_flags(d, c->q.id, &flags) && ctrl_flags_self_moving(flags);
}

int ctrl_get_scalar(const struct dev *d, const struct ctrl *c, int64_t *v)
{
	if (use_old(c)) {
		int32_t x = 0;
		int e = ctrl_get_old(d, c->q.id, &x);
		*v = x;
		return e;
	}
	struct ctrl_val cv = { 0 };
	int e = ctrl_get(d, c, V4L2_CTRL_WHICH_CUR_VAL, &cv);
	*v = cv.v;
	ctrl_val_free(&cv);
	return e;
}

int ctrl_set_scalar(const struct dev *d, const struct ctrl *c, int64_t *v)
{
	if (use_old(c)) {
		int32_t x = (int32_t)*v;
		int e = ctrl_set_old(d, c->q.id, &x);
		*v = x;
		return e;
	}
	struct ctrl_val cv = { .v = *v };
	int e = ctrl_set(d, c, &cv);
	*v = cv.v;
	return e;
}

bool ctrl_val_equal(const struct ctrl *c, const struct ctrl_val *a, const struct ctrl_val *b)
{
	if (!ctrl_has_payload(&c->q))
		return a->v == b->v;
	if (c->q.type == V4L2_CTRL_TYPE_STRING)
		return a->p && b->p && !strncmp(a->p, b->p, c->q.elem_size);
	if (c->q.flags & V4L2_CTRL_FLAG_DYNAMIC_ARRAY) {
		if (a->size != b->size)
			return false;
	}
	uint32_t n = a->size < b->size ? a->size : b->size;
	return a->p && b->p && !memcmp(a->p, b->p, n);
}

void ctrl_val_str(const struct ctrl *c, const struct ctrl_val *v, char *buf, size_t len)
{
	if (!ctrl_has_payload(&c->q)) {
		snprintf(buf, len, "%" PRId64, v->v);
		return;
	}
	if (c->q.type == V4L2_CTRL_TYPE_STRING) {
		snprintf(buf, len, "'%.*s'", (int)(c->q.elem_size), v->p ? (const char *)v->p : "");
		return;
	}
	size_t o = (size_t)snprintf(buf, len, "[%u bytes:", v->size);
	const unsigned char *p = v->p;
	for (uint32_t i = 0; p && i < v->size && i < 16 && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, " %02x", p[i]);
	if (o < len)
		snprintf(buf + o, len - o, "%s]", v->size > 16 ? " ..." : "");
}

int64_t ctrl_expected_scalar(const struct v4l2_query_ext_ctrl *q, int64_t v)
{
	int64_t out;
	return fw_validate(q, NULL, 0, v, &out) ? v : out;	/* menus: refused, never adjusted */
}

bool ctrl_value_valid(const struct ctrl *c, int64_t v)
{
	const struct v4l2_query_ext_ctrl *q = &c->q;
	switch (q->type) {
	case V4L2_CTRL_TYPE_BOOLEAN:
		return v == 0 || v == 1;
	case V4L2_CTRL_TYPE_BITMASK:
		return ((uint32_t)v & ~(uint32_t)q->maximum) == 0;
	case V4L2_CTRL_TYPE_MENU:
	case V4L2_CTRL_TYPE_INTEGER_MENU:
		if (v < q->minimum || v > q->maximum)
			return false;
		for (size_t i = 0; i < c->n_menu; i++)
			if (c->menu[i].index == (uint32_t)v)
				return c->menu[i].err == 0;
		return true;
	default:
		if (v < q->minimum || v > q->maximum)
			return false;
		return q->step <= 1 || ((__int128)v - q->minimum) % (__int128)q->step == 0;
	}
}
