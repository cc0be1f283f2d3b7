/* Multi-control EXT_CTRLS batches (see ext_ctrls.h). */
#include "ctrl/ext_ctrls.h"
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_type.h"
#include <stdlib.h>
#include <string.h>

void ext_init(struct ext_batch *b, uint32_t which)
{
	memset(b, 0, sizeof(*b));
	b->which = which;
	b->error_idx_in = EXT_IDX_UNSET;
}

void ext_free(struct ext_batch *b)
{
	for (size_t i = 0; i < b->count; i++)
		free(b->buf[i]);
	free(b->buf);
	free(b->c);
	free(b->ctrl);
	memset(b, 0, sizeof(*b));
}

static struct v4l2_ext_control *grow(struct ext_batch *b, const struct ctrl *c, uint32_t id)
{
	if (b->count == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 8;
		b->c = realloc(b->c, b->cap * sizeof(*b->c));
		b->ctrl = realloc(b->ctrl, b->cap * sizeof(*b->ctrl));
		b->buf = realloc(b->buf, b->cap * sizeof(*b->buf));
	}
	struct v4l2_ext_control *e = &b->c[b->count];
	memset(e, 0, sizeof(*e));
	e->id = id;
	b->ctrl[b->count] = c;
	b->buf[b->count] = NULL;
	b->count++;
	return e;
}

struct v4l2_ext_control *ext_add_id(struct ext_batch *b, uint32_t id)
{
	return grow(b, NULL, id);
}

struct v4l2_ext_control *ext_add_sized(struct ext_batch *b, const struct ctrl *c, uint32_t size, uint32_t alloc)
{
	struct v4l2_ext_control *e = grow(b, c, c->q.id);
	void *p = calloc(1, alloc ? alloc : 1);
	b->buf[b->count - 1] = p;
	e->size = size;
	e->ptr = p;
	return e;
}

struct v4l2_ext_control *ext_add(struct ext_batch *b, const struct ctrl *c, int64_t v)
{
	if (ctrl_has_payload(&c->q)) {
		struct ctrl_val cv;
		ctrl_val_init(c, &cv);
		struct v4l2_ext_control *e = ext_add_val(b, c, &cv);
		ctrl_val_free(&cv);
		return e;
	}
	struct v4l2_ext_control *e = grow(b, c, c->q.id);
	if (c->q.type == V4L2_CTRL_TYPE_INTEGER64)
		e->value64 = v;
	else
		e->value = (int32_t)v;
	return e;
}

struct v4l2_ext_control *ext_add_val(struct ext_batch *b, const struct ctrl *c, const struct ctrl_val *v)
{
	if (!ctrl_has_payload(&c->q))
		return ext_add(b, c, v->v);
	struct v4l2_ext_control *e = ext_add_sized(b, c, v->size, v->size);
	if (v->p)
		memcpy(e->ptr, v->p, v->size);
	return e;
}

int ext_do(const struct dev *d, unsigned long req, struct ext_batch *b)
{
	memset(&b->cs, 0, sizeof(b->cs));
	b->cs.which = b->which;
	b->cs.count = b->count;
	b->cs.error_idx = b->error_idx_in;
	b->cs.controls = b->c;
	if (b->which == V4L2_CTRL_WHICH_REQUEST_VAL)
		b->cs.request_fd = b->request_fd;
	return dev_ioctl(d, req, &b->cs);
}

int64_t ext_scalar(const struct ext_batch *b, size_t i)
{
	const struct ctrl *c = b->ctrl[i];
	if (c && c->q.type == V4L2_CTRL_TYPE_INTEGER64)
		return b->c[i].value64;
	return b->c[i].value;
}

void ext_val(const struct ext_batch *b, size_t i, struct ctrl_val *out)
{
	memset(out, 0, sizeof(*out));
	const struct ctrl *c = b->ctrl[i];
	if (!c || !ctrl_has_payload(&c->q)) {
		out->v = ext_scalar(b, i);
		return;
	}
	out->size = b->c[i].size;
	out->p = calloc(1, out->size ? out->size : 1);
	if (b->buf[i])
		memcpy(out->p, b->buf[i], out->size);
}

const char *ext_req_name(unsigned long req)
{
	switch (req) {
	case VIDIOC_G_EXT_CTRLS: return "G_EXT_CTRLS";
	case VIDIOC_S_EXT_CTRLS: return "S_EXT_CTRLS";
	case VIDIOC_TRY_EXT_CTRLS: return "TRY_EXT_CTRLS";
	default: return "EXT_CTRLS?";
	}
}

bool ext_plain(const struct ctrl *c)
{
	int64_t other;
	return ctrl_settable_scalar(c) &&
	       !(c->q.flags & (V4L2_CTRL_FLAG_UPDATE | V4L2_CTRL_FLAG_INACTIVE | V4L2_CTRL_FLAG_GRABBED)) &&
	       ctrl_other_value(c, c->q.default_value, &other);
}

bool ext_payload_rw(const struct ctrl *c)
{
	return !c->excluded && ctrl_has_payload(&c->q) && ctrl_readable(&c->q) && ctrl_writable(&c->q) &&
	       ctrl_type_known(c->q.type);
}

static bool in_list(const struct ctrl *c, const struct ctrl *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == c)
			return true;
	return false;
}

size_t ext_pick_plain(const struct ctrl_model *m, uint32_t cls, const struct ctrl *const *skip, size_t nskip,
		      const struct ctrl **out, size_t max)
{
	size_t n = 0;
	for (int pass = 0; pass < 2 && n < max; pass++)
		for (size_t i = 0; i < m->n && n < max; i++) {
			const struct ctrl *c = &m->c[i];
			bool user = V4L2_CTRL_ID2WHICH(c->q.id) == V4L2_CTRL_CLASS_USER;
			if (user != (pass == 0) || (cls && V4L2_CTRL_ID2WHICH(c->q.id) != cls) ||
			    in_list(c, skip, nskip) || !ext_plain(c))
				continue;
			out[n++] = c;
		}
	return n;
}

size_t ext_add_changes(struct ext_batch *b, const struct dev *d, const struct ctrl_model *m, uint32_t cls,
		       const struct ctrl *const *skip, size_t nskip, size_t max, int64_t *cur)
{
	const struct ctrl *pick[16];
	if (max > 16)
		max = 16;
	size_t n = ext_pick_plain(m, cls, skip, nskip, pick, max), added = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t now = 0, other;
		if (ctrl_get_scalar(d, pick[i], &now) || !ctrl_other_value(pick[i], now, &other))
			continue;
		ext_add(b, pick[i], other);
		if (cur)
			cur[added] = now;
		added++;
	}
	return added;
}
