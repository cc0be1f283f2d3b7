/* A sub-device node's controls and the rest of its media graph (issue 26;
 * spec SD-2 in spec/rules-subdev.md).
 *
 * dev-subdev.rst: on a sub-device node the control ioctls "deal only with
 * controls implemented in the sub-device. Depending on the driver, those
 * controls might also be exposed through one (or several) V4L2 device
 * nodes." A bridge driver exposes them with v4l2_ctrl_add_handler(): the
 * same control object on both nodes. So, for each control of a sub-device
 * node and each other node of its graph with a control of the same id:
 *
 * - whether they are one control is found by writing: a value set through
 *   one node is read back through the other, both ways. Two controls of one
 *   id that do not follow each other either way are two controls (a
 *   bridge's own gain beside a sensor's: v4l2_ctrl_add_handler skips the
 *   duplicate) and pass;
 * - one that follows only one way is not one control: a copy that passes a
 *   write on but never learns of the sub-device's own changes;
 * - one control is described alike on both nodes (one v4l2_ctrl: the same
 *   type, range, step, default, flags and name);
 * - one control on two sub-device nodes is implemented in one of them
 *   only: the other deals with a control that is not its own.
 *
 * Every value is put back before the verdict. */
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_value.h"
#include "dev/media.h"
#include "check/registry.h"
#include "check/verdict.h"

#include <check.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define MSG_LEN 1024

/* After setting `v` through `from`, does `to` read what `from` reads? */
static int follows(const struct dev *from, const struct ctrl *cf, const struct dev *to, const struct ctrl *ct,
		   int64_t v, bool *same)
{
	int64_t a, b;
	int e = ctrl_set_scalar(from, cf, &v);
	if (!e)
		e = ctrl_get_scalar(from, cf, &a);
	if (!e)
		e = ctrl_get_scalar(to, ct, &b);
	*same = !e && a == b;
	return e;
}

/* One way: two different values through `from`; both read back alike
 * through `to`. -1: a write failed (then nothing is concluded). */
static int linked(const struct dev *from, const struct ctrl *cf, const struct dev *to, const struct ctrl *ct,
		  const struct ctrl *values_of, int64_t start)
{
	int64_t other;
	bool s1, s2;
	if (!ctrl_other_value(values_of, start, &other))
		return -1;
	if (follows(from, cf, to, ct, other, &s1) || follows(from, cf, to, ct, start, &s2))
		return -1;
	return s1 && s2;
}

/* What one control object reports alike on every node. */
static void describe_diff(const struct v4l2_query_ext_ctrl *a, const struct v4l2_query_ext_ctrl *b, char *out,
			  size_t len)
{
	out[0] = 0;
#define DIFF(f, fmt, cast) \
	if (a->f != b->f) \
		snprintf(out + strlen(out), len - strlen(out), "%s" #f " " fmt " here, " fmt " there", \
			 out[0] ? ", " : "", (cast)a->f, (cast)b->f)
	DIFF(type, "%u", unsigned);
	DIFF(minimum, "%lld", long long);
	DIFF(maximum, "%lld", long long);
	DIFF(step, "%llu", unsigned long long);
	DIFF(default_value, "%lld", long long);
	DIFF(flags, "0x%x", unsigned);
	DIFF(elem_size, "%u", unsigned);
	DIFF(elems, "%u", unsigned);
#undef DIFF
	if (strncmp(a->name, b->name, sizeof(a->name)))
		snprintf(out + strlen(out), len - strlen(out), "%sname '%.32s' here, '%.32s' there", out[0] ? ", " : "",
			 a->name, b->name);
}

/* This node's control c against the control of the same id on node n.
 * Appends a failure to msg, a note to info. */
static void judge_pair(const struct dev *d, const struct ctrl *c, const struct media_node *n, char *msg, char *info)
{
	struct dev o;
	char err[300];
	if (dev_open(&o, n->devnode, false, err, sizeof(err)))
		return;	/* the graph's own checks (graph/node-*) judge a node that does not open */
	struct ctrl oc;
	memset(&oc, 0, sizeof(oc));
	oc.q.id = c->q.id;
	oc.have_qext = true;
	if (dev_ioctl(&o, VIDIOC_QUERY_EXT_CTRL, &oc.q) || oc.q.id != c->q.id) {
		dev_close(&o);
		return;	/* no control of that id there */
	}
	const char *there = dev_is_subdev(&o) ? "sub-device node" : "node";
	int64_t mine0, theirs0;
	const char *skip = !ctrl_settable_scalar(&oc) ? "that cannot be set"
			   : oc.q.type != c->q.type ? "of another type"
			   : ctrl_get_scalar(d, c, &mine0) || ctrl_get_scalar(&o, &oc, &theirs0) ? "that cannot be read"
			   : NULL;
	if (skip) {
		snprintf(info + strlen(info), MSG_LEN - strlen(info), "%s%s (%s) has a control of this id %s: not compared",
			 info[0] ? "; " : "", n->devnode, n->entity, skip);
		dev_close(&o);
		return;
	}
	int fwd = linked(d, c, &o, &oc, c, mine0);
	int bwd = linked(&o, &oc, d, c, c, theirs0);
	/* Put both back: theirs first, as writing it may move ours. */
	int64_t v = theirs0;
	ctrl_set_scalar(&o, &oc, &v);
	v = mine0;
	ctrl_set_scalar(d, c, &v);
	char *m = msg + strlen(msg);
	size_t room = MSG_LEN - strlen(msg);
	char diff[400];
	describe_diff(&c->q, &oc.q, diff, sizeof(diff));
	if (fwd < 0 || bwd < 0)
		snprintf(info + strlen(info), MSG_LEN - strlen(info), "%s%s (%s): a write was refused, not compared",
			 info[0] ? "; " : "", n->devnode, n->entity);
	else if (fwd != bwd)
		snprintf(m, room, "%sthe control of this id on %s %s (%s) is not this one: a value set through %s reads "
			 "back through %s, not the other way round (a copy, not the sub-device's control; "
			 "dev-subdev.rst: those controls might also be exposed through V4L2 device nodes)%s%s",
			 msg[0] ? "; " : "", there, n->devnode, n->entity, fwd ? "this node" : "that node",
			 fwd ? "that node" : "this node", diff[0] ? "; they also differ: " : "", diff);
	else if (fwd && dev_is_subdev(&o))
		snprintf(m, room, "%sone control on two sub-device nodes, this one and %s (%s): a value set through "
			 "either reads back through both, but a control is implemented in one sub-device "
			 "(dev-subdev.rst: the ioctls deal only with controls implemented in the sub-device)",
			 msg[0] ? "; " : "", n->devnode, n->entity);
	else if (fwd && diff[0])
		snprintf(m, room, "%sone control on this node and on %s (%s), described differently: %s",
			 msg[0] ? "; " : "", n->devnode, n->entity, diff);
	else
		snprintf(info + strlen(info), MSG_LEN - strlen(info), "%s%s (%s): %s", info[0] ? "; " : "",
			 n->devnode, n->entity, fwd ? "the same control" : "another control of the same id");
	dev_close(&o);
}

static void shared(const struct check_ctx *cx)
{
	struct media_graph g;
	if (media_graph_of_node(cx->dev->path, &g))
		v_skip("no media device lists this node among its interfaces: no other node to compare with");
	struct stat st;
	if (stat(cx->dev->path, &st)) {
		media_graph_free(&g);
		v_skip("cannot stat %s: %m", cx->dev->path);
	}
	char msg[MSG_LEN] = "", info[MSG_LEN] = "";
	for (size_t i = 0; i < g.count; i++) {
		const struct media_node *n = &g.n[i];
		struct stat ot;
		if (!media_intf_is_v4l(n->intf_type) || !n->devnode[0] || stat(n->devnode, &ot) ||
		    ot.st_rdev == st.st_rdev)
			continue;
		judge_pair(cx->dev, cx->ctrl, n, msg, info);
	}
	media_graph_free(&g);
	if (info[0])
		v_info("%s", info);
	if (msg[0])
		ck_abort_msg("%s: %s", cx->ctrl->q.name, msg);
}

static bool settable(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return ctrl_settable_scalar(c);
}

static const struct check_def checks[] = {
	{ "subdev/shared", "SD-2",
	  "a control of a sub-device node that another node of its media graph also has is either another control "
	  "or the same one, set and read alike through both and described alike; never on two sub-device nodes",
	  CHECK_PER_CONTROL, shared, settable, .needs = NEEDS_SUBDEV_NODE },
};
SUITE(suite_subdev, "subdev", "Sub-device controls and the media graph", checks);
