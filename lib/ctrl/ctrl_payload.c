/* Valid payload patterns (see ctrl_payload.h). */
#include "ctrl/ctrl_payload.h"
#include "ctrl/ctrl_type.h"
#include <stdlib.h>
#include <string.h>

bool payload_is_int_array(const struct ctrl *c)
{
	const struct v4l2_query_ext_ctrl *q = &c->q;
	switch (q->type) {
	case V4L2_CTRL_TYPE_U8: case V4L2_CTRL_TYPE_U16: case V4L2_CTRL_TYPE_U32:
		return q->elem_size == 1 || q->elem_size == 2 || q->elem_size == 4;
	case V4L2_CTRL_TYPE_INTEGER:
		return ctrl_is_array(q) && q->elem_size == 4;
	case V4L2_CTRL_TYPE_INTEGER64:
		return ctrl_is_array(q) && q->elem_size == 8;
	default:
		return false;
	}
}

bool payload_can_generate(const struct ctrl *c)
{
	const struct v4l2_query_ext_ctrl *q = &c->q;
	if (!ctrl_has_payload(q) || !q->elem_size)
		return false;
	if (q->type == V4L2_CTRL_TYPE_STRING)
		return q->maximum >= 0 && q->minimum >= 0 && q->minimum <= q->maximum;
	if (q->type == V4L2_CTRL_TYPE_AREA)
		return q->elem_size == sizeof(struct v4l2_area);
	return payload_is_int_array(c) && q->maximum >= q->minimum;
}

int64_t payload_elem(const struct ctrl *c, const void *p, uint32_t i)
{
	const unsigned char *b = (const unsigned char *)p + (size_t)i * c->q.elem_size;
	switch (c->q.elem_size) {
	case 1: return *b;
	case 2: { uint16_t v; memcpy(&v, b, 2); return v; }
	case 4: {
		if (c->q.type == V4L2_CTRL_TYPE_INTEGER) { int32_t v; memcpy(&v, b, 4); return v; }
		uint32_t v; memcpy(&v, b, 4); return v;
	}
	default: { int64_t v; memcpy(&v, b, 8); return v; }
	}
}

void payload_set_elem(const struct ctrl *c, void *p, uint32_t i, int64_t v)
{
	unsigned char *b = (unsigned char *)p + (size_t)i * c->q.elem_size;
	switch (c->q.elem_size) {
	case 1: *b = (unsigned char)v; break;
	case 2: { uint16_t x = (uint16_t)v; memcpy(b, &x, 2); break; }
	case 4: { uint32_t x = (uint32_t)v; memcpy(b, &x, 4); break; }
	default: memcpy(b, &v, 8); break;
	}
}

uint32_t payload_elems(const struct ctrl *c, uint32_t size)
{
	return c->q.elem_size ? size / c->q.elem_size : 0;
}

bool payload_strlen_valid(const struct ctrl *c, uint64_t len)
{
	const struct v4l2_query_ext_ctrl *q = &c->q;
	uint64_t step = q->step ? q->step : 1;
	return (int64_t)len >= q->minimum && (int64_t)len <= q->maximum && (len - (uint64_t)q->minimum) % step == 0;
}

/* The n-th valid value on the grid of [min, max] (n wraps). */
static int64_t grid_value(const struct v4l2_query_ext_ctrl *q, uint64_t n)
{
	unsigned __int128 step = q->step ? q->step : 1;
	unsigned __int128 span = (unsigned __int128)((__int128)q->maximum - q->minimum);
	unsigned __int128 count = span / step + 1;
	return (int64_t)((__int128)q->minimum + (__int128)((n % count) * step));
}

bool payload_pattern(const struct ctrl *c, unsigned k, uint32_t elems, struct ctrl_val *out)
{
	const struct v4l2_query_ext_ctrl *q = &c->q;
	memset(out, 0, sizeof(*out));
	if (!payload_can_generate(c))
		return false;
	if (q->type == V4L2_CTRL_TYPE_STRING) {
		uint64_t step = q->step ? q->step : 1;
		uint64_t nlen = ((uint64_t)(q->maximum - q->minimum)) / step + 1;
		/* Longest first: the most bytes to tear; then shorter ones. */
		uint64_t len = (uint64_t)q->minimum + step * ((nlen - 1 - (k / 2) % nlen));
		out->size = q->elem_size;
		out->p = calloc(1, out->size);
		memset(out->p, k % 2 ? 'b' + (char)((k / 2) % 24) : 'a', len);
		if (len == 0 && nlen == 1 && k % 2)
			return false;	/* only the empty string is valid */
		return true;
	}
	if (q->type == V4L2_CTRL_TYPE_AREA) {
		struct v4l2_area a = { .width = 16 + 8 * k, .height = 9 + 4 * k };
		out->size = sizeof(a);
		out->p = malloc(sizeof(a));
		memcpy(out->p, &a, sizeof(a));
		return true;
	}
	uint32_t n = q->elems ? q->elems : 1;
	if (q->flags & V4L2_CTRL_FLAG_DYNAMIC_ARRAY) {
		n = elems ? elems : (q->elems ? q->elems : 1);
		if (q->dims[0] && n > q->dims[0])
			n = q->dims[0];
	}
	out->size = n * q->elem_size;
	out->p = calloc(1, out->size ? out->size : 1);
	for (uint32_t i = 0; i < n; i++)
		payload_set_elem(c, out->p, i, grid_value(q, (uint64_t)k * 31u + (uint64_t)i * 7u + k));
	return true;
}

bool payload_other(const struct ctrl *c, const struct ctrl_val *cur, struct ctrl_val *out)
{
	uint32_t elems = payload_elems(c, cur->size);
	for (unsigned k = 0; k < 8; k++) {
		if (!payload_pattern(c, k, elems, out))
			return false;
		if (!ctrl_val_equal(c, out, cur))
			return true;
		ctrl_val_free(out);
	}
	return false;
}
