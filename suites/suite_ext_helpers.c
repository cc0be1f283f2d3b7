/* Helpers shared by the files of the ext suite (suite_ext.c,
 * suite_ext_apply.c): the three requests, control picks, snapshots and
 * values as the control's width stores them. */
#include "ctrl/ctrl_snapshot.h"
#include "ctrl/ctrl_type.h"
#include "ctrl/ctrl_value.h"
#include "check/registry.h"
#include "suite_ext.h"
#include "check/verdict.h"

const unsigned long ext_requests[3] = { VIDIOC_G_EXT_CTRLS, VIDIOC_TRY_EXT_CTRLS, VIDIOC_S_EXT_CTRLS };

bool ext_readable_scalar(const struct ctrl *c)
{
	return ctrl_readable(&c->q) && !ctrl_has_payload(&c->q) && ctrl_type_known(c->q.type) &&
	       !(c->q.flags & V4L2_CTRL_FLAG_DISABLED);
}

void ext_snapshot_take(const struct check_ctx *cx, struct snapshot *s)
{
	snapshot_take(cx->dev, cx->model, s);
}

/* Fails naming the controls that changed since the snapshot. */
void ext_expect_unchanged(const struct check_ctx *cx, const struct snapshot *s, const char *what)
{
	char rep[1024];
	int n = snapshot_diff(cx->dev, cx->model, s, rep, sizeof(rep));
	if (n)
		ck_abort_msg("expected no control to change after %s, got %d changed: %s", what, n, rep);
}

/* An id that is not a control: a hole in the user class, else id 0. */
uint32_t ext_unknown_id(const struct ctrl_model *m, int which)
{
	if (which == 0)
		return 0;
	if (which == 1) {
		for (uint32_t id = V4L2_CID_BASE; id < V4L2_CID_LASTP1; id++)
			if (!model_find(m, id))
				return id;
	}
	/* Just past the last control of the device. */
	uint32_t last = m->n ? m->c[m->n - 1].q.id : V4L2_CID_BASE;
	for (uint32_t id = last + 1; id < V4L2_CID_PRIVATE_BASE; id++)
		if (!model_find(m, id) && (id & 0xffff))
			return id;
	return 0;
}

int64_t ext_as_ctrl_width(const struct ctrl *c, int64_t v)
{
	return c->q.type == V4L2_CTRL_TYPE_INTEGER64 ? v : (int64_t)(int32_t)v;
}
