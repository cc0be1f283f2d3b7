/* What a query describes and which value a driver takes (issue 13; LC-5,
 * LC-6 in spec/rules-lifecycle.md).
 *
 * values/query-stable (LC-5): type, range, step, default and dimensions
 * stay what they were when values change and across STREAMON/STREAMOFF and
 * a format change; after an input change and back. A driver may change a
 * range or dimensions with the state (a sensor's exposure limit follows the
 * frame size, vivid's pixel array the format) but must say so with a
 * CH_RANGE or CH_DIMENSIONS event: each step is compared with the one
 * before. Flags (INACTIVE, GRABBED) are left to the flag checks.
 *
 * values/closest (LC-6): where a driver takes the closest valid value
 * instead of refusing with ERANGE, it takes that one: the bound for an
 * out-of-range value (not the default), the nearest step (not the one
 * below). Halfway between two steps either is allowed (the framework takes
 * the higher one: the other is a warning). */
#include "ctrl/closest.h"
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_value.h"
#include "ctrl/events.h"
#include "image/lifecycle.h"
#include "image/picture_ref.h"
#include "check/registry.h"
#include "check/verdict.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MSG_LEN 1536

/* ---------- LC-5 ---------- */

struct queries {
	size_t n;
	struct v4l2_query_ext_ctrl *q;	/* indexed like the model */
};

static int query_one(const struct dev *d, const struct ctrl_model *m, uint32_t id, struct v4l2_query_ext_ctrl *out)
{
	memset(out, 0, sizeof(*out));
	out->id = id;
	if (m->qext_works)
		return dev_ioctl(d, VIDIOC_QUERY_EXT_CTRL, out);
	struct v4l2_queryctrl qc = { .id = id };
	int e = dev_ioctl(d, VIDIOC_QUERYCTRL, &qc);
	out->type = qc.type;
	out->minimum = qc.minimum;
	out->maximum = qc.maximum;
	out->step = (uint64_t)qc.step;
	out->default_value = qc.default_value;
	return e;
}

static void query_all(const struct check_ctx *cx, struct queries *qs)
{
	qs->n = cx->model->n;
	if (!qs->q)
		qs->q = calloc(qs->n ? qs->n : 1, sizeof(*qs->q));
	ck_assert_msg(qs->q, "out of memory");
	for (size_t i = 0; i < qs->n; i++)
		query_one(cx->dev, cx->model, cx->model->c[i].q.id, &qs->q[i]);
}

/* What differs between two descriptions, as event change bits: the range
 * part needs CH_RANGE, the dimensions CH_DIMENSIONS; a type never changes
 * (on the same input). */
static uint32_t differences(const struct v4l2_query_ext_ctrl *a, const struct v4l2_query_ext_ctrl *b)
{
	uint32_t d = 0;
	if (a->minimum != b->minimum || a->maximum != b->maximum || a->step != b->step ||
	    a->default_value != b->default_value)
		d |= V4L2_EVENT_CTRL_CH_RANGE;
	if (a->elems != b->elems || a->nr_of_dims != b->nr_of_dims || memcmp(a->dims, b->dims, sizeof(a->dims)))
		d |= V4L2_EVENT_CTRL_CH_DIMENSIONS;
	if (a->type != b->type || a->elem_size != b->elem_size)
		d |= 1u << 31;
	return d;
}

/* The change bits of the control events pending on the watcher for id i of
 * the model (drained into ch[], indexed like the model). */
static void announced(const struct check_ctx *cx, const struct dev *w, bool have_events, uint32_t *ch)
{
	struct v4l2_event ev[256];
	memset(ch, 0, cx->model->n * sizeof(*ch));
	if (!have_events)
		return;
	int k = ev_drain(w, ev, 256);
	for (int i = 0; i < k && i < 256; i++)
		for (size_t j = 0; j < cx->model->n; j++)
			if (ev[i].type == V4L2_EVENT_CTRL && ev[i].id == cx->model->c[j].q.id)
				ch[j] |= ev[i].u.ctrl.changes;
}

/* The descriptions now against the previous step's (then now becomes the
 * previous): the first change no event announced goes into msg. */
static void compare(const struct check_ctx *cx, struct queries *prev, struct queries *now, const struct dev *w,
		    bool have_events, const char *when, char *msg, size_t len)
{
	uint32_t *ch = calloc(cx->model->n ? cx->model->n : 1, sizeof(*ch));
	ck_assert_msg(ch, "out of memory");
	query_all(cx, now);
	announced(cx, w, have_events, ch);
	for (size_t i = 0; i < now->n && !msg[0]; i++) {
		const struct v4l2_query_ext_ctrl *a = &prev->q[i], *b = &now->q[i];
		uint32_t d = differences(a, b), missing = d & ~ch[i];
		if (d && !missing)
			v_info("%s: %s changed its description with an event", when, cx->model->c[i].slug);
		if (!missing)
			continue;
		snprintf(msg, len, "expected %s to describe itself as before %s, or an event (CH_RANGE, CH_DIMENSIONS) "
			 "to say it changed (LC-5): type %u -> %u, range [%lld, %lld] -> [%lld, %lld], step %llu -> %llu, "
			 "default %lld -> %lld, elems %u -> %u", cx->model->c[i].slug, when, a->type, b->type,
			 (long long)a->minimum, (long long)a->maximum, (long long)b->minimum, (long long)b->maximum,
			 (unsigned long long)a->step, (unsigned long long)b->step, (long long)a->default_value,
			 (long long)b->default_value, a->elems, b->elems);
	}
	free(ch);
	struct queries t = *prev;
	*prev = *now;
	*now = t;
}

static void query_stable(const struct check_ctx *cx)
{
	struct queries prev = { 0 }, now = { 0 };
	struct lc_watch w;
	struct dev watcher;
	char msg[MSG_LEN] = "";
	v_open_again(cx->dev, &watcher, "a second time");
	uint32_t bad_id = 0;
	bool have_events = ev_subscribe_model(&watcher, cx->model, 0, &bad_id) == 0;
	if (!have_events)
		v_info("no control events: every change of a description counts as unannounced");
	query_all(cx, &prev);
	lc_set_others(cx->dev, cx->model, &w, NULL);
	compare(cx, &prev, &now, &watcher, have_events, "and after setting every documented control to another value",
		msg, sizeof(msg));
	if (dev_can_capture(cx->dev) && !msg[0]) {
		struct capture cap;
		struct frame f = { 0 };
		struct v4l2_format cur, other;
		pic_stream_on(&cap, cx->dev);
		pic_next(&cap, &f);
		compare(cx, &prev, &now, &watcher, have_events, "while streaming", msg, sizeof(msg));
		pic_stream_off(&cap);
		frame_free(&f);
		if (!msg[0] && !lc_get_format(cx->dev, &cur) && !lc_format_other(cx->dev, &cur, &other)) {
			char when[96], fs[32];
			snprintf(when, sizeof(when), "at another format (%s)", lc_format_str(&other, fs, sizeof(fs)));
			compare(cx, &prev, &now, &watcher, have_events, when, msg, sizeof(msg));
			lc_set_format(cx->dev, &cur);
			if (!msg[0])
				compare(cx, &prev, &now, &watcher, have_events, "back at the first format", msg,
					sizeof(msg));
		}
	}
	unsigned n = 0, in = 0;
	if (!msg[0] && !lc_inputs(cx->dev, &n, &in) && n > 1) {
		/* Controls may differ per input (PE-3): compared once back. */
		struct v4l2_format fmt;
		int have_fmt = lc_get_format(cx->dev, &fmt) == 0;
		int x = in ? 0 : 1;
		if (!dev_ioctl(cx->dev, VIDIOC_S_INPUT, &x)) {
			x = (int)in;
			dev_ioctl(cx->dev, VIDIOC_S_INPUT, &x);
			ev_drain(&watcher, NULL, 0);	/* range changes on the way are allowed */
			compare(cx, &prev, &now, &watcher, false, "after S_INPUT to another input and back", msg,
				sizeof(msg));
		}
		if (have_fmt)
			lc_set_format(cx->dev, &fmt);
	}
	free(prev.q);
	free(now.q);
	dev_close(&watcher);
	ck_assert_msg(!msg[0], "%s", msg);
}

/* ---------- LC-6 ---------- */

static void closest(const struct check_ctx *cx)
{
	const struct v4l2_query_ext_ctrl *q = &cx->ctrl->q;
	const int64_t step = (int64_t)(q->step ? q->step : 1);
	struct { const char *what; int64_t v; bool ok; } req[] = {
		{ "max + 1", q->maximum + 1, q->maximum < INT64_MAX },
		{ "min - 1", q->minimum - 1, q->minimum > INT64_MIN },
		{ "a third of a step above a step", q->minimum + step + step / 3, step > 2 },
		{ "two thirds of a step above a step", q->minimum + step + 2 * step / 3, step > 2 },
		{ "half a step above a step", q->minimum + step + step / 2, step > 1 && step % 2 == 0 },
	};
	int tried = 0;
	for (size_t i = 0; i < sizeof(req) / sizeof(req[0]); i++) {
		int64_t r = req[i].v, a, b, v = r, got = 0;
		if (!req[i].ok || (q->type == V4L2_CTRL_TYPE_INTEGER && (r < INT32_MIN || r > INT32_MAX)) ||
		    (i >= 2 && r >= q->maximum - step))
			continue;
		ctrl_closest_valid(q, r, &a, &b);
		int e = ctrl_set_scalar(cx->dev, cx->ctrl, &v);
		if (e == ERANGE) {
			v_info("%s (%lld): ERANGE", req[i].what, (long long)r);
			continue;
		}
		if (e) {
			v_info("%s (%lld): %s (getset/out-of-range judges that)", req[i].what, (long long)r, errno_name(e));
			continue;
		}
		tried++;
		expect_ok(ctrl_get_scalar(cx->dev, cx->ctrl, &got), "G after setting %lld", (long long)r);
		char want[64];
		if (a != b)
			snprintf(want, sizeof(want), "%lld or %lld", (long long)a, (long long)b);
		else
			snprintf(want, sizeof(want), "%lld", (long long)a);
		bool fw;
		ck_assert_msg(ctrl_closest_taken(q, r, got, &fw), "expected %s = %lld (%s) to take the closest valid value %s (LC-6), "
			      "got %lld%s", cx->ctrl->slug, (long long)r, req[i].what, want, (long long)got,
			      got == q->default_value ? " (the default)" : "");
		if (got != a && got != b)	/* VA-1: the framework's answer never fails */
			v_info("%s = %lld (%s) took %lld, the framework's value (VA-1), not the closest %s", cx->ctrl->slug,
			       (long long)r, req[i].what, (long long)got, want);
		else if (a != b && got != b && !fw)
			v_warn("%s = %lld, halfway between %lld and %lld, took %lld; the framework takes %lld", cx->ctrl->slug,
			       (long long)r, (long long)a, (long long)b, (long long)got, (long long)b);
	}
	if (!tried)
		v_skip("nothing taken to judge: every invalid value tried was refused with ERANGE, or none is representable");
}

static bool closest_applies(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return ctrl_settable_scalar(c) && (c->q.type == V4L2_CTRL_TYPE_INTEGER || c->q.type == V4L2_CTRL_TYPE_INTEGER64) &&
	       c->q.minimum < c->q.maximum && !(c->q.flags & V4L2_CTRL_FLAG_GRABBED);
}

static const struct check_def checks[] = {
	{ "values/query-stable", "LC-5", "type, range, step, default and dimensions stay the same when values change, "
	  "while streaming, at another format and after an input change and back, unless a CH_RANGE event says so",
	  CHECK_PER_DEVICE, query_stable, NULL, NULL, 30, .needs = NEEDS_CTRLS },
	{ "values/closest", "LC-6", "a value out of range or off the step grid, when not refused with ERANGE, becomes "
	  "the closest valid value (a tie may go either way: warning)", CHECK_PER_CONTROL, closest, closest_applies },
};
SUITE(suite_values, "values", "Stable descriptions and the closest valid value", checks);
