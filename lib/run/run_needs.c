/* What a node lacks of what checks need (enum check_needs), and why the
 * checks that need it do not run there: decided once per run from the
 * node's kind and its answers, before any check (the runner's expand()). */
#include "run/run_needs.h"
#include "check/registry.h"
#include "ctrl/ctrl_enum.h"
#include "ctrl/events.h"
#include <errno.h>

/* Which of the features in enum check_needs the driver has: only ENOTTY
 * (the ioctl does not exist on this node) takes one away; any other answer
 * is for the checks themselves to judge. */
unsigned int run_needs_missing(const struct dev *d, const struct ctrl_model *m)
{
	unsigned int missing = 0;
	if (dev_is_subdev(d))
		missing |= NEEDS_VIDEO_NODE;
	if (!m->n && ctrl_ioctls_absent(d))
		/* no control handler: no extended controls, no control events */
		return missing | NEEDS_CTRLS | NEEDS_EXT | NEEDS_EVENTS;
	struct v4l2_ext_controls x = { .which = V4L2_CTRL_WHICH_CUR_VAL, .count = 0 };
	if (dev_ioctl(d, VIDIOC_G_EXT_CTRLS, &x) == ENOTTY)
		missing |= NEEDS_EXT;
	if (m->n) {
		/* subscribing writes nothing, so any control will do */
		int e = ev_subscribe(d, m->c[0].q.id, 0);
		if (e == ENOTTY)
			missing |= NEEDS_EVENTS;
		else if (!e)
			ev_unsubscribe(d, V4L2_EVENT_CTRL, m->c[0].q.id);
	}
	return missing;
}

/* Why the checks that need `needs` do not run here: the node's kind and
 * its missing control handler come first, they explain the rest. */
const char *run_needs_reason(unsigned int needs, unsigned int missing)
{
	if (needs & NEEDS_VIDEO_NODE)
		return "a sub-device node: no priorities, inputs or video formats there (dev-subdev.rst; spec SD-3)";
	if (missing & NEEDS_CTRLS)
		return "the node has no control ioctls (QUERYCTRL and QUERY_EXT_CTRL give ENOTTY: no control handler; "
		       "spec NC-1)";
	if (needs & NEEDS_EXT)
		return "the driver has no extended control ioctls (G_EXT_CTRLS gives ENOTTY; ext/count-zero reports it)";
	return "the driver has no control events (SUBSCRIBE_EVENT gives ENOTTY; events/supported reports it)";
}
