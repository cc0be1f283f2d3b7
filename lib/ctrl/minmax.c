/* MIN/MAX values: which types have them as numbers, and how they compare. */
#include "ctrl/minmax.h"
#include "ctrl/ctrl_payload.h"
#include "ctrl/ctrl_type.h"
#include <stdio.h>

bool minmax_numeric(uint32_t type)
{
	switch (type) {
	case V4L2_CTRL_TYPE_INTEGER:
	case V4L2_CTRL_TYPE_BOOLEAN:
	case V4L2_CTRL_TYPE_MENU:
	case V4L2_CTRL_TYPE_INTEGER_MENU:
	case V4L2_CTRL_TYPE_BITMASK:
	case V4L2_CTRL_TYPE_INTEGER64:
	case V4L2_CTRL_TYPE_U8:
	case V4L2_CTRL_TYPE_U16:
	case V4L2_CTRL_TYPE_U32:
		return true;
	default:
		return false;
	}
}

uint32_t minmax_elems(const struct ctrl *c, const struct ctrl_val *v)
{
	return ctrl_has_payload(&c->q) ? payload_elems(c, v->size) : 1;
}

int64_t minmax_elem(const struct ctrl *c, const struct ctrl_val *v, uint32_t i)
{
	if (ctrl_has_payload(&c->q))
		return c->q.type == V4L2_CTRL_TYPE_BITMASK ? (int64_t)((const uint32_t *)v->p)[i]
							 : payload_elem(c, v->p, i);
	return c->q.type == V4L2_CTRL_TYPE_BITMASK ? (int64_t)(uint32_t)v->v : v->v;
}

bool minmax_all_equal(const struct ctrl *c, const struct ctrl_val *got, int64_t want, uint32_t *bad, int64_t *badv)
{
	if (c->q.type == V4L2_CTRL_TYPE_BITMASK)
		want = (uint32_t)want;	/* QUERY_EXT_CTRL's maximum of a bitmask is the u32 mask */
	uint32_t n = minmax_elems(c, got);
	for (uint32_t i = 0; i < n; i++) {
		int64_t e = minmax_elem(c, got, i);
		if (e != want) {
			*bad = i;
			*badv = e;
			return false;
		}
	}
	return true;
}

bool minmax_elem_between(uint32_t type, int64_t min, int64_t max, int64_t cur)
{
	if (type == V4L2_CTRL_TYPE_BITMASK)
		return ((uint32_t)cur & ~(uint32_t)max) == 0 && ((uint32_t)cur & (uint32_t)min) == (uint32_t)min;
	return min <= cur && cur <= max;
}

bool minmax_rect_documented(uint32_t id)
{
	return id == MINMAX_CID_UVC_ROI_RECT;
}

bool minmax_rect_between(const struct v4l2_rect *min, const struct v4l2_rect *max, const struct v4l2_rect *cur,
			 char *why, size_t len)
{
	if (min->width > max->width || min->height > max->height) {
		snprintf(why, len, "the minimum size %ux%u exceeds the maximum %ux%u", min->width, min->height,
			 max->width, max->height);
		return false;
	}
	if (cur->width < min->width || cur->width > max->width || cur->height < min->height ||
	    cur->height > max->height) {
		snprintf(why, len, "the current size %ux%u is outside %ux%u..%ux%u", cur->width, cur->height,
			 min->width, min->height, max->width, max->height);
		return false;
	}
	return true;
}
