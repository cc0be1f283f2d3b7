/* Control events (spec section 11): subscription, the initial event and
 * its payload, delivery to other handles and feedback suppression, merging,
 * sequence numbers, DQEVENT and poll() semantics, unsubscription, and the
 * events a driver sends on its own (range and flag changes on S_INPUT).
 * Every wait is bounded (lib/ctrl/events.h). */
#include "ctrl/ctrl_payload.h"
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_type.h"
#include "ctrl/ctrl_value.h"
#include "ctrl/events.h"
#include "ctrl/ext_ctrls.h"
#include "check/registry.h"
#include "check/verdict.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---------- helpers ---------- */

static void open_other(const struct check_ctx *cx, struct dev *d)
{
	v_open_again(cx->dev, d, "a second time");
}

static void subscribe_or_fail(const struct dev *d, uint32_t id, uint32_t flags)
{
	expect_ok(ev_subscribe(d, id, flags), "VIDIOC_SUBSCRIBE_EVENT for control 0x%08x (flags 0x%x)", id, flags);
}

/* The value an event carries, as the control's type reads it (EV-3). */
static int64_t ev_value(const struct ctrl *c, const struct v4l2_event *ev)
{
	if (c->q.type == V4L2_CTRL_TYPE_INTEGER64 || ctrl_has_payload(&c->q))
		return ev->u.ctrl.value64;
	return ev->u.ctrl.value;
}

/* A scalar as an event reports it: 32-bit types in `value`. */
static int64_t as_event_value(const struct ctrl *c, int64_t v)
{
	return c->q.type == V4L2_CTRL_TYPE_INTEGER64 ? v : (int64_t)(int32_t)v;
}

static bool changeable(const struct ctrl *c)
{
	return ctrl_settable_scalar(c) || (ext_payload_rw(c) && payload_can_generate(c));
}

/* Set c to a valid value other than its current one through d; *after
 * gets the value as written back (scalars). */
static void change_value(const struct dev *d, const struct ctrl *c, int64_t *after)
{
	struct ctrl_val cur = { 0 }, nv = { 0 };
	expect_ok(ctrl_get(d, c, V4L2_CTRL_WHICH_CUR_VAL, &cur), "G of %s", c->q.name);
	if (ctrl_has_payload(&c->q)) {
		ck_assert_msg(payload_other(c, &cur, &nv), "no second value for %s", c->q.name);
	} else if (!ctrl_other_value(c, cur.v, &nv.v)) {
		v_skip("%s has a single valid value", c->q.name);
	}
	int e = ctrl_set(d, c, &nv);
	v_skip_if_inactive_refused(d, c->q.id, e);
	expect_ok(e, "S_EXT_CTRLS of a new value of %s", c->q.name);
	if (after)
		*after = nv.v;
	ctrl_val_free(&cur);
	ctrl_val_free(&nv);
}

static void expect_quiet(const struct check_ctx *cx, const struct dev *d, const char *what)
{
	struct v4l2_event ev;
	int n = ev_quiet(d, cx->model, &ev);
	if (n > 0) {
		char s[200];
		ck_abort_msg("expected no event %s, got %s", what, ev_str(&ev, s, sizeof(s)));
	}
	ck_assert_msg(n == 0, "expected no event %s, got DQEVENT/poll error %s", what, errno_name(-n));
}

static void wait_ctrl_event(const struct dev *d, uint32_t id, struct v4l2_event *ev, const char *what)
{
	int e = ev_wait_id(d, id, EV_WAIT_MS, ev, NULL);
	ck_assert_msg(e == 0, "expected a control event for 0x%08x %s within %d ms, got %s", id, what, EV_WAIT_MS,
		      e == ETIMEDOUT ? "none" : errno_name(e));
}

static const struct ctrl *plain(const struct ctrl_model *m, int nth)
{
	const struct ctrl *pick[2];
	size_t n = ext_pick_plain(m, 0, NULL, 0, pick, 2);
	return (size_t)nth < n ? pick[nth] : NULL;
}

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---------- per control ---------- */

/* A stray event where a check expected none, or more than it caused: the
 * subscription's own doing (a driver bug, which repeats) or the late
 * completion of a write before the check (an asynchronous camera control,
 * which does not). Drop every subscription, let the device settle, and say
 * so: the caller tries once more and that try's verdict stands. */
static void settle_for_retry(const struct check_ctx *cx, const char *what)
{
	expect_ok(ev_unsubscribe(cx->dev, V4L2_EVENT_ALL, 0), "VIDIOC_UNSUBSCRIBE_EVENT V4L2_EVENT_ALL (EV-12)");
	int late = ev_settle(cx->dev, cx->model);
	ck_assert_msg(late >= 0, "expected the device to settle (EV_SETTLE_MS without events), got %s", errno_name(-late));
	v_info("%s; %d more late event(s) while settling: tried once more, that try decides", what, late);
}

static void subscribe(const struct check_ctx *cx)
{
	uint32_t id = cx->ctrl->q.id;
	struct v4l2_event first;
	char s[200];
	expect_ok(ev_subscribe(cx->dev, id, 0), "VIDIOC_SUBSCRIBE_EVENT V4L2_EVENT_CTRL for the control (EV-1)");
	int n = ev_quiet(cx->dev, cx->model, &first);
	if (n > 0) {
		char what[260];
		snprintf(what, sizeof(what), "an event after the first SUBSCRIBE without SEND_INITIAL (%s)",
			 ev_str(&first, s, sizeof(s)));
		settle_for_retry(cx, what);
		expect_ok(ev_subscribe(cx->dev, id, 0), "VIDIOC_SUBSCRIBE_EVENT V4L2_EVENT_CTRL again (EV-1)");
		expect_quiet(cx, cx->dev, "after subscribing without SEND_INITIAL (EV-2)");
	} else {
		ck_assert_msg(n == 0, "expected no event after subscribing without SEND_INITIAL (EV-2), got DQEVENT/poll "
			      "error %s", errno_name(-n));
	}
	expect_ok(ev_unsubscribe(cx->dev, V4L2_EVENT_CTRL, id), "VIDIOC_UNSUBSCRIBE_EVENT (EV-12)");
}

/* EV-1 at device level: a node with controls offers control events. When
 * SUBSCRIBE_EVENT gives ENOTTY the runner skips every check that needs
 * events, and this is the one failure that says why. */
static void supported(const struct check_ctx *cx)
{
	if (!cx->model->n)
		v_skip("the device has no controls");
	const uint32_t id = cx->model->c[0].q.id;
	int e = ev_subscribe(cx->dev, id, 0);
	ck_assert_msg(e != ENOTTY, "expected VIDIOC_SUBSCRIBE_EVENT (V4L2_EVENT_CTRL, %s) to exist on a node with "
		      "controls (EV-1), got ENOTTY: the driver offers no control events (v4l2_ctrl_subscribe_event)",
		      cx->model->c[0].q.name);
	expect_ok(e, "VIDIOC_SUBSCRIBE_EVENT V4L2_EVENT_CTRL for %s (EV-1)", cx->model->c[0].q.name);
	expect_ok(ev_unsubscribe(cx->dev, V4L2_EVENT_CTRL, id), "VIDIOC_UNSUBSCRIBE_EVENT (EV-12)");
}

/* A control the device moves by itself (an exposure its auto mode drives)
 * can move more than once between the G before SUBSCRIBE and the G after
 * it: the initial event's value is then one of the values it passed
 * through. Evidence, not trust: G a few times over 200 ms; only when the
 * value moves on its own is an event value between the lowest and the
 * highest seen (before, now, the samples) accepted. A control that holds
 * still leaves the strict comparison in place. */
static bool value_moves_through(const struct check_ctx *cx, const struct ctrl *c, int64_t before, int64_t cur,
				int64_t got)
{
	int64_t lo = before < cur ? before : cur, hi = before < cur ? cur : before, v;
	for (int i = 0; i < 10; i++) {
		usleep(20000);
		if (ctrl_get_scalar(cx->dev, c, &v))
			return false;
		if (c->q.type != V4L2_CTRL_TYPE_INTEGER64)
			v = (int32_t)v;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	if (lo == hi || got < lo || got > hi)
		return false;
	v_info("the device moves %s by itself (%lld..%lld in 200 ms): the initial event's %lld is a value it passed "
	       "through (EV-2)", c->q.name, (long long)lo, (long long)hi, (long long)got);
	return true;
}

static void initial(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	char s[200], f1[128], f2[128];
	bool moved = false;	/* the device moved the value during SUBSCRIBE */
	int64_t moved_to = 0;
	/* The value just before SUBSCRIBE: a control the device moves by itself
	 * (an auto-updated exposure) may change between the initial event and
	 * the G that checks it. */
	int64_t before = 0;
	bool have_before = ctrl_readable(&c->q) && !ctrl_has_payload(&c->q) && !(c->q.flags & V4L2_CTRL_FLAG_VOLATILE) &&
			   c->q.type != V4L2_CTRL_TYPE_CTRL_CLASS && ctrl_get_scalar(cx->dev, c, &before) == 0;
	int64_t t0 = now_ns();
	subscribe_or_fail(cx->dev, c->q.id, V4L2_EVENT_SUB_FL_SEND_INITIAL);
	int64_t t1 = now_ns();
	if (c->q.type == V4L2_CTRL_TYPE_CTRL_CLASS) {
		expect_quiet(cx, cx->dev, "for a class control, even with SEND_INITIAL (EV-2)");
		return;
	}
	struct v4l2_event ev;
	int e = ev_wait(cx->dev, EV_WAIT_MS, &ev);
	ck_assert_msg(e == 0, "expected the initial event after SUBSCRIBE with SEND_INITIAL, got %s (EV-2)",
		      e == ETIMEDOUT ? "none" : errno_name(e));
	ev_str(&ev, s, sizeof(s));
	expect_eq(ev.type, V4L2_EVENT_CTRL, "event type (%s)", s);
	expect_eq(ev.id, c->q.id, "event id (%s)", s);
	uint32_t want = V4L2_EVENT_CTRL_CH_FLAGS | (ctrl_readable(&c->q) ? V4L2_EVENT_CTRL_CH_VALUE : 0);
	if (c->q.type == V4L2_CTRL_TYPE_BUTTON || (c->q.flags & V4L2_CTRL_FLAG_WRITE_ONLY))
		want = V4L2_EVENT_CTRL_CH_FLAGS;
	ck_assert_msg(ev.u.ctrl.changes == want, "expected the initial event's changes = %s, got %s (EV-2)",
		      ev_changes_str(want, f1, sizeof(f1)), ev_changes_str(ev.u.ctrl.changes, f2, sizeof(f2)));
	struct v4l2_query_ext_ctrl q = { .id = c->q.id };
	expect_ok(dev_ioctl(cx->dev, VIDIOC_QUERY_EXT_CTRL, &q), "QUERY_EXT_CTRL");
	expect_eq(ev.u.ctrl.type, q.type, "the event's type must be the control's (EV-3)");
	if (ev.u.ctrl.flags != q.flags) {
		ctrl_flags_str(ev.u.ctrl.flags, f1, sizeof(f1));
		ctrl_flags_str(q.flags, f2, sizeof(f2));
		ck_abort_msg("expected the event's flags %s (as QUERY_EXT_CTRL), got %s (EV-3)", f2, f1);
	}
	/* v4l2_event_ctrl has 32-bit range fields: 64-bit ranges arrive truncated. */
	expect_eq(ev.u.ctrl.minimum, (int32_t)q.minimum, "the event's minimum (EV-3, s32 field)");
	expect_eq(ev.u.ctrl.maximum, (int32_t)q.maximum, "the event's maximum (EV-3, s32 field)");
	expect_eq(ev.u.ctrl.default_value, (int32_t)q.default_value, "the event's default_value (EV-3, s32 field)");
	expect_eq(ev.u.ctrl.step, ctrl_type_is_menu(q.type) ? 1 : (int32_t)q.step, "the event's step (EV-3; 1 for menus)");
	if (ctrl_has_payload(&q)) {
		expect_eq(ev.u.ctrl.value64, 0, "the event's value64 for a payload control (EV-3)");
	} else if (ctrl_readable(&q) && !(q.flags & V4L2_CTRL_FLAG_VOLATILE)) {
		int64_t cur = 0;
		expect_ok(ctrl_get_scalar(cx->dev, c, &cur), "G of the current value");
		int64_t got = ev_value(c, &ev);
		if (q.type != V4L2_CTRL_TYPE_INTEGER64) {
			cur = (int32_t)cur;
			before = (int32_t)before;
		}
		/* The value it had at some moment of the SUBSCRIBE call: the one
		 * before it, or the one after, when the device moved it meanwhile
		 * (and then a value event for that move follows, below). */
		if (!(have_before && got == before && before != cur) && got != cur &&
		    !value_moves_through(cx, c, before, cur, got))
			expect_eq(got, cur, "the initial event's value must be the current value (EV-2, EV-3)");
		moved = have_before && before != cur;
		moved_to = cur;
	}
	for (int i = 0; i < 8; i++)
		expect_eq(ev.reserved[i], 0, "event reserved[%d] (EV-3)", i);
	int64_t ts = (int64_t)ev.timestamp.tv_sec * 1000000000 + ev.timestamp.tv_nsec;
	ck_assert_msg(ts >= t0 - 1000000 && ts <= t1 + 1000000,
		      "expected a CLOCK_MONOTONIC timestamp within the SUBSCRIBE call [%lld, %lld] ns, got %lld (EV-3)",
		      (long long)t0, (long long)t1, (long long)ts);
	expect_eq(ev.pending, 0, "pending after the only event (EV-3)");
	struct v4l2_event more;
	int e2 = ev_dequeue(cx->dev, &more);
	/* A control the device moved during the check sends that move's value
	 * event after the initial one; anything else is a second initial event. */
	if (e2 == 0 && moved && more.u.ctrl.changes == V4L2_EVENT_CTRL_CH_VALUE && ev_value(c, &more) == moved_to)
		return;
	expect_errno(e2, ENOENT, "a second DQEVENT: SEND_INITIAL queues exactly one event (EV-2)");
}

/* Who makes a change and who hears of it. Where values are the device's
 * (PE-1), a change made through one handle reaches every other (EV-4): the
 * checks make it on one handle and listen on another. On a memory-to-memory
 * node every handle is a context of its own (PE-2): a context's only handle
 * is the one that changes it, and it hears its own changes when it
 * subscribed with ALLOW_FEEDBACK (EV-4), so the checks make the change and
 * listen there (events/ch-value checks that other contexts hear nothing). */
struct talk {
	const struct dev *setter, *hearer;
	uint32_t flags;		/* for the hearer's subscriptions */
	struct dev other;
	bool opened;
};

/* hear_here: the check's handle listens (another one sets); else it sets. */
static void talk_open(const struct check_ctx *cx, struct talk *t, bool hear_here)
{
	memset(t, 0, sizeof(*t));
	if (dev_is_m2m(cx->dev)) {
		t->setter = t->hearer = cx->dev;
		t->flags = V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK;
		return;
	}
	open_other(cx, &t->other);
	t->opened = true;
	t->setter = hear_here ? &t->other : cx->dev;
	t->hearer = hear_here ? cx->dev : &t->other;
}

static void talk_close(struct talk *t)
{
	if (t->opened)
		dev_close(&t->other);
}

/* PE-2 on an M2M node, for every type: a change in one context reaches no
 * other handle (nor, without ALLOW_FEEDBACK, its own: EV-4) and leaves the
 * other context's value alone. The framework queues a control event inside
 * the set ioctl, so a stray one is already there when it returns. */
static void ch_value_m2m(const struct check_ctx *cx, struct dev *b)
{
	const struct ctrl *c = cx->ctrl;
	bool readable = ctrl_readable(&c->q);
	struct ctrl_val before = { 0 }, after = { 0 };
	if (readable)
		expect_ok(ctrl_get(b, c, V4L2_CTRL_WHICH_CUR_VAL, &before), "G on the other handle");
	change_value(cx->dev, c, NULL);
	expect_quiet(cx, b, "on another handle of an M2M node: another context, whose value did not change (PE-2)");
	expect_quiet(cx, cx->dev, "on the handle that made the change, subscribed without ALLOW_FEEDBACK (EV-4)");
	if (readable) {
		expect_ok(ctrl_get(b, c, V4L2_CTRL_WHICH_CUR_VAL, &after), "G on the other handle");
		ck_assert_msg(ctrl_val_equal(c, &after, &before),
			      "expected the other context's value unchanged by a change in this one on an M2M node (PE-2)");
	}
	ctrl_val_free(&before);
	ctrl_val_free(&after);
	dev_close(b);
}

/* Change the control on the check's handle and wait for the event on b.
 * A control whose writes complete later (a UVC asynchronous control reports
 * completion with a status interrupt, and uvcvideo sends the event then, to
 * every handle but the one whose write it takes as pending) may still owe the
 * completion of a write made before this check. Its event carries the value
 * the control had when this change was made, and this change's completion,
 * its originator forgotten, then reaches the writer too. Neither says
 * anything about this change: when the first event carries the old value,
 * let this change's completion arrive, drop what both handles hold, and make
 * the change once more on a settled device. A driver that sends the old value
 * every time still fails. */
static void change_and_hear(const struct check_ctx *cx, const struct dev *b, int64_t *v, struct v4l2_event *ev)
{
	const struct ctrl *c = cx->ctrl;
	for (int attempt = 0;; attempt++) {
		struct ctrl_val was = { 0 };
		expect_ok(ctrl_get(cx->dev, c, V4L2_CTRL_WHICH_CUR_VAL, &was), "G of %s", c->q.name);
		change_value(cx->dev, c, v);
		wait_ctrl_event(b, c->q.id, ev, "on the other handle after a change (EV-4)");
		bool late = !ctrl_has_payload(&c->q) && (ev->u.ctrl.changes & V4L2_EVENT_CTRL_CH_VALUE) &&
			    was.v != *v && ev_value(c, ev) == as_event_value(c, was.v);
		ctrl_val_free(&was);
		if (!late || attempt > 0)
			return;
		struct v4l2_event settled;
		wait_ctrl_event(b, c->q.id, &settled, "carrying the new value after a late event with the old one (EV-4)");
		ev_drain(cx->dev, NULL, 0);
		ev_drain(b, NULL, 0);
	}
}

static void ch_value(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	struct dev b;
	open_other(cx, &b);
	subscribe_or_fail(cx->dev, c->q.id, 0);
	subscribe_or_fail(&b, c->q.id, 0);
	if (dev_is_m2m(cx->dev)) {
		ch_value_m2m(cx, &b);
		return;
	}
	int64_t v = 0;
	struct v4l2_event ev;
	change_and_hear(cx, &b, &v, &ev);
	char s[200];
	ev_str(&ev, s, sizeof(s));
	ck_assert_msg(ev.u.ctrl.changes & V4L2_EVENT_CTRL_CH_VALUE, "expected CH_VALUE in the event, got %s (EV-4)", s);
	if (ctrl_has_payload(&c->q))
		expect_eq(ev.u.ctrl.value64, 0, "the event's value64 for a payload control (EV-3)");
	else
		expect_eq(ev_value(c, &ev), as_event_value(c, v), "the event must carry the new value (EV-4)");
	expect_quiet(cx, cx->dev, "on the handle that made the change, subscribed without ALLOW_FEEDBACK (EV-4)");
	/* The old ioctl is a way of changing the value too. */
	if (ctrl_is_scalar_int32(&c->q)) {
		int32_t w;
		int64_t o;
		ck_assert(ctrl_other_value(c, v, &o));
		w = (int32_t)o;
		expect_ok(ctrl_set_old(cx->dev, c->q.id, &w), "S_CTRL of a new value");
		wait_ctrl_event(&b, c->q.id, &ev, "on the other handle after a change made with S_CTRL (EV-4)");
		ck_assert_msg(ev.u.ctrl.changes & V4L2_EVENT_CTRL_CH_VALUE, "expected CH_VALUE in the event for S_CTRL, got %s (EV-4)",
			      ev_str(&ev, s, sizeof(s)));
		expect_eq(ev.u.ctrl.value, w, "the event after S_CTRL must carry the new value (EV-4)");
		expect_quiet(cx, cx->dev, "on the handle that made the S_CTRL change, subscribed without ALLOW_FEEDBACK (EV-4)");
	}
	dev_close(&b);
}

static void allow_feedback(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	subscribe_or_fail(cx->dev, c->q.id, V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK);
	int64_t v = 0;
	struct v4l2_event ev;
	/* The setter is the listener here; a late event with the old value (a
	 * device's own earlier change: uvc's auto exposure, seen on a busy
	 * host) is let pass once, as change_and_hear does for another handle. */
	change_and_hear(cx, cx->dev, &v, &ev);
	ck_assert_msg(ev.u.ctrl.changes & V4L2_EVENT_CTRL_CH_VALUE, "expected CH_VALUE in the feedback event (EV-4)");
	if (!ctrl_has_payload(&c->q))
		expect_eq(ev_value(c, &ev), as_event_value(c, v), "the feedback event must carry the new value (EV-4)");
}

static void same_value(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	struct talk t;
	talk_open(cx, &t, false);
	subscribe_or_fail(t.hearer, c->q.id, t.flags);
	struct ctrl_val cur = { 0 };
	expect_ok(ctrl_get(cx->dev, c, V4L2_CTRL_WHICH_CUR_VAL, &cur), "G of the current value");
	int e = ctrl_set(cx->dev, c, &cur);
	v_skip_if_inactive_refused(cx->dev, c->q.id, e);
	expect_ok(e, "S_EXT_CTRLS of the current value again (SC-14)");
	if (ctrl_is_scalar_int32(&c->q)) {
		int32_t v = (int32_t)cur.v;
		expect_ok(ctrl_set_old(cx->dev, c->q.id, &v), "S_CTRL of the current value again (SC-14)");
	}
	expect_quiet(cx, t.hearer, "after setting the value the control already has (SC-14: nothing changed)");
	/* The subscription works: a real change does arrive. */
	change_value(cx->dev, c, NULL);
	struct v4l2_event ev;
	wait_ctrl_event(t.hearer, c->q.id, &ev, "after a real change (EV-4)");
	ctrl_val_free(&cur);
	talk_close(&t);
}

static void execute_on_write(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	struct talk t;
	talk_open(cx, &t, false);
	subscribe_or_fail(t.hearer, c->q.id, t.flags);
	for (int i = 0; i < 2; i++) {
		struct ctrl_val v = { 0 };
		if (ctrl_has_payload(&c->q)) {
			ck_assert(ctrl_get(cx->dev, c, V4L2_CTRL_WHICH_CUR_VAL, &v) == 0);
		}
		expect_ok(ctrl_set(cx->dev, c, &v), "S_EXT_CTRLS #%d of an EXECUTE_ON_WRITE control", i + 1);
		ctrl_val_free(&v);
		struct v4l2_event ev;
		wait_ctrl_event(t.hearer, c->q.id, &ev, "after each write of an EXECUTE_ON_WRITE control (FL-10, EV-8)");
		ck_assert_msg(ev.u.ctrl.changes & V4L2_EVENT_CTRL_CH_VALUE,
			      "write #%d of an EXECUTE_ON_WRITE control: expected CH_VALUE (FL-10)", i + 1);
	}
	talk_close(&t);
}

static void volatile_set(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	struct v4l2_query_ext_ctrl q = { .id = c->q.id };
	expect_ok(dev_ioctl(cx->dev, VIDIOC_QUERY_EXT_CTRL, &q), "QUERY_EXT_CTRL");
	if (!(q.flags & V4L2_CTRL_FLAG_VOLATILE))
		v_skip("not volatile at the moment");
	struct talk t;
	talk_open(cx, &t, false);
	subscribe_or_fail(t.hearer, c->q.id, t.flags);
	for (int i = 0; i < 2; i++) {
		int64_t v = i ? q.minimum : q.maximum;
		int e = ctrl_set_scalar(cx->dev, c, &v);
		v_skip_if_inactive_refused(cx->dev, c->q.id, e);	/* FL-5 allows it only while inactive */
		expect_ok(e, "setting the volatile control to %lld", (long long)(i ? q.minimum : q.maximum));
	}
	struct v4l2_event ev;
	if (ev_quiet(t.hearer, cx->model, &ev) > 0) {
		char s[200];
		ck_assert_msg(!(ev.u.ctrl.changes & V4L2_EVENT_CTRL_CH_VALUE),
			      "expected no CH_VALUE for a write to a volatile control, got %s (EV-8, FL-8)", ev_str(&ev, s, sizeof(s)));
	}
	talk_close(&t);
}

/* ---------- per device ---------- */

static void dqevent_empty(const struct check_ctx *cx)
{
	struct v4l2_event ev;
	expect_errno(ev_dequeue(cx->dev, &ev), ENOENT, "DQEVENT on a non-blocking handle without subscriptions (EV-9)");
	const struct ctrl *c = plain(cx->model, 0);
	if (!c && cx->model->n)
		c = &cx->model->c[cx->model->n - 1];
	if (!c)
		v_skip("no control");
	subscribe_or_fail(cx->dev, c->q.id, 0);
	expect_errno(ev_dequeue(cx->dev, &ev), ENOENT, "DQEVENT on a non-blocking handle with nothing pending (EV-9)");
	ck_assert_msg(ev_poll(cx->dev, 0, NULL) == 0, "expected poll() without POLLPRI when nothing is pending (EV-10)");
}

/* same: set through proto itself (an M2M context's own handle), else
 * through a handle of the thread's own. */
struct delayed_set { const struct dev *proto; const struct ctrl *c; int delay_ms; int err; bool same; };

static void *delayed_set_fn(void *arg)
{
	struct delayed_set *ds = arg;
	struct dev own;
	const struct dev *d = ds->proto;
	usleep((useconds_t)ds->delay_ms * 1000);
	if (!ds->same) {
		if (dev_reopen(ds->proto, &own)) {
			ds->err = ENODEV;
			return NULL;
		}
		d = &own;
	}
	struct ctrl_val cur = { 0 };
	ds->err = ctrl_get(d, ds->c, V4L2_CTRL_WHICH_CUR_VAL, &cur);
	if (!ds->err) {
		int64_t v;
		if (ctrl_other_value(ds->c, cur.v, &v)) {
			cur.v = v;
			ds->err = ctrl_set(d, ds->c, &cur);
		}
	}
	ctrl_val_free(&cur);
	if (!ds->same)
		dev_close(&own);
	return NULL;
}

static void poll_pri(const struct check_ctx *cx)
{
	const struct ctrl *c = plain(cx->model, 0);
	if (!c)
		v_skip("no control whose value can be changed");
	struct talk t;
	talk_open(cx, &t, true);
	short rev = 0;
	subscribe_or_fail(cx->dev, c->q.id, t.flags);
	ck_assert_msg(ev_poll(cx->dev, 0, &rev) == 0, "expected no POLLPRI with nothing pending, got revents 0x%x (EV-10)", rev);
	change_value(t.setter, c, NULL);
	ck_assert_msg(ev_poll(cx->dev, EV_WAIT_MS, &rev) == 1,
		      "expected POLLPRI once an event is pending, got revents 0x%x (EV-10)", rev);
	struct v4l2_event ev;
	expect_ok(ev_dequeue(cx->dev, &ev), "DQEVENT of the pending event");
	ck_assert_msg(ev_poll(cx->dev, 0, &rev) == 0, "expected no POLLPRI after dequeuing the only event, got revents 0x%x (EV-10)",
		      rev);
	/* A poll() that is already waiting wakes up when the event comes. */
	struct delayed_set ds = { cx->dev, c, 200, 0, t.setter == cx->dev };
	pthread_t th;
	ck_assert(pthread_create(&th, NULL, delayed_set_fn, &ds) == 0);
	int64_t t0 = now_ns();
	int r = ev_poll(cx->dev, 3000, &rev);
	int64_t dt_ms = (now_ns() - t0) / 1000000;
	pthread_join(th, NULL);
	expect_ok(ds.err, "the change made by another thread");
	ck_assert_msg(r == 1 && dt_ms < 2500,
		      "expected a waiting poll() to return POLLPRI when %s changed the control (~200 ms), got %s after %lld ms (EV-10)",
		      ds.same ? "another thread on the same handle" : "another handle", r == 1 ? "POLLPRI" : "nothing", (long long)dt_ms);
	v_measure("poll-wakeup", (double)dt_ms, "ms");
	talk_close(&t);
}

static void unsubscribe(const struct check_ctx *cx)
{
	const struct ctrl *x = plain(cx->model, 0), *y = plain(cx->model, 1);
	if (!x || !y)
		v_skip("fewer than two controls whose value can be changed");
	struct talk t;
	talk_open(cx, &t, true);
	/* Unsubscribing drops that subscription's pending event only. */
	subscribe_or_fail(cx->dev, x->q.id, V4L2_EVENT_SUB_FL_SEND_INITIAL | t.flags);
	subscribe_or_fail(cx->dev, y->q.id, V4L2_EVENT_SUB_FL_SEND_INITIAL | t.flags);
	expect_ok(ev_unsubscribe(cx->dev, V4L2_EVENT_CTRL, x->q.id), "UNSUBSCRIBE of %s (EV-12)", x->q.name);
	struct v4l2_event evs[8];
	int n = ev_drain(cx->dev, evs, 8);
	ck_assert_msg(n == 1 && evs[0].id == y->q.id,
		      "expected only %s's initial event left after unsubscribing %s, got %d event(s)%s (EV-12)", y->q.name,
		      x->q.name, n, n > 0 && evs[0].id == x->q.id ? ", one for the unsubscribed control" : "");
	/* Not subscribed: still 0. */
	expect_ok(ev_unsubscribe(cx->dev, V4L2_EVENT_CTRL, x->q.id), "UNSUBSCRIBE of a control not subscribed (EV-12)");
	/* Changes to an unsubscribed control are not delivered. */
	change_value(t.setter, x, NULL);
	expect_quiet(cx, cx->dev, "for a control after UNSUBSCRIBE (EV-12)");
	/* V4L2_EVENT_ALL drops every subscription and pending event. */
	subscribe_or_fail(cx->dev, x->q.id, V4L2_EVENT_SUB_FL_SEND_INITIAL | t.flags);
	expect_ok(ev_unsubscribe(cx->dev, V4L2_EVENT_ALL, 0), "UNSUBSCRIBE with type V4L2_EVENT_ALL (EV-12)");
	struct v4l2_event ev;
	expect_errno(ev_dequeue(cx->dev, &ev), ENOENT, "DQEVENT after UNSUBSCRIBE V4L2_EVENT_ALL: pending events dropped (EV-12)");
	change_value(t.setter, x, NULL);
	change_value(t.setter, y, NULL);
	expect_quiet(cx, cx->dev, "after UNSUBSCRIBE V4L2_EVENT_ALL (EV-12)");
	talk_close(&t);
}

static void resubscribe(const struct check_ctx *cx)
{
	const struct ctrl *x = plain(cx->model, 0);
	if (!x)
		v_skip("no control whose value can be changed");
	struct talk t;
	talk_open(cx, &t, true);
	subscribe_or_fail(cx->dev, x->q.id, V4L2_EVENT_SUB_FL_SEND_INITIAL | t.flags);
	struct v4l2_event ev;
	wait_ctrl_event(cx->dev, x->q.id, &ev, "(the initial event)");
	expect_ok(ev_subscribe(cx->dev, x->q.id, V4L2_EVENT_SUB_FL_SEND_INITIAL | t.flags),
		  "SUBSCRIBE again to a subscribed control (EV-11)");
	expect_quiet(cx, cx->dev, "after subscribing again: no second initial event (EV-11)");
	change_value(t.setter, x, NULL);
	wait_ctrl_event(cx->dev, x->q.id, &ev, "after a change");
	int n = 1 + ev_quiet(cx->dev, cx->model, NULL);
	expect_eq(n, 1, "events for one change after subscribing twice: a single subscription (EV-11)");
	talk_close(&t);
}

static void unknown_id(const struct check_ctx *cx)
{
	uint32_t ids[3] = { 0, 0, 0 };
	int n = 1;
	for (uint32_t id = V4L2_CID_BASE; id < V4L2_CID_LASTP1 && n < 2; id++)
		if (!model_find(cx->model, id))
			ids[n++] = id;
	uint32_t past = cx->model->n ? cx->model->c[cx->model->n - 1].q.id + 1 : V4L2_CID_BASE + 0x1000;
	if (!model_find(cx->model, past))
		ids[n++] = past;
	for (int i = 0; i < n; i++)
		expect_errno(ev_subscribe(cx->dev, ids[i], 0), EINVAL, "SUBSCRIBE to the nonexistent control 0x%08x (EV-1)", ids[i]);
	if (cx->model->n) {
		struct v4l2_event_subscription sub = { .type = V4L2_EVENT_ALL, .id = cx->model->c[0].q.id };
		expect_errno(dev_ioctl(cx->dev, VIDIOC_SUBSCRIBE_EVENT, &sub), EINVAL, "SUBSCRIBE with type V4L2_EVENT_ALL (EV-1)");
	}
	struct v4l2_event ev;
	expect_errno(ev_dequeue(cx->dev, &ev), ENOENT, "DQEVENT after the refused subscriptions");
}

/* One subscription with SEND_INITIAL per control, then the initial events
 * drained: how many there were (up to max kept in evs), or -errno. */
static int subscribe_all_initial(const struct check_ctx *cx, uint32_t flags, struct v4l2_event *evs, size_t max,
				 uint32_t *nsub)
{
	*nsub = 0;
	for (size_t i = 0; i < cx->model->n; i++)
		if (cx->model->c[i].q.type != V4L2_CTRL_TYPE_CTRL_CLASS) {
			subscribe_or_fail(cx->dev, cx->model->c[i].q.id, V4L2_EVENT_SUB_FL_SEND_INITIAL | flags);
			(*nsub)++;
		}
	return ev_drain(cx->dev, evs, max);
}

/* The initial events are one per control, numbered one after the other. */
static bool initial_in_sequence(const struct v4l2_event *evs, int n, uint32_t nsub)
{
	if (n != (int)nsub)
		return false;
	for (int i = 1; i < n; i++)
		if (evs[i].sequence != evs[i - 1].sequence + 1)
			return false;
	return true;
}

static void sequence(const struct check_ctx *cx)
{
	uint32_t nsub = 0;
	struct talk t;
	talk_open(cx, &t, true);
	size_t max = cx->model->n + 8;
	struct v4l2_event *evs = calloc(max, sizeof(*evs));
	int n = subscribe_all_initial(cx, t.flags, evs, max, &nsub);
	if (nsub < 2)
		v_skip("fewer than two controls");
	if (n >= 0 && !initial_in_sequence(evs, n, nsub)) {
		char what[200];
		snprintf(what, sizeof(what), "%d events after %u subscriptions with SEND_INITIAL, sequence %u..%u", n,
			 nsub, n > 0 ? evs[0].sequence : 0, n > 0 ? evs[n - 1].sequence : 0);
		settle_for_retry(cx, what);
		n = subscribe_all_initial(cx, t.flags, evs, max, &nsub);
	}
	ck_assert_msg(n == (int)nsub, "expected %u initial events (one per control), got %d (EV-2)", nsub, n);
	for (int i = 0; i < n; i++) {
		expect_eq(evs[i].pending, (uint32_t)(n - 1 - i), "event %d: pending must count the events still queued (EV-3)", i);
		if (i) {
			ck_assert_msg(evs[i].sequence == evs[i - 1].sequence + 1,
				      "expected sequence numbers to count up by one without merged events: event %d has %u after %u (EV-3)", i,
				      evs[i].sequence, evs[i - 1].sequence);
			int64_t a = (int64_t)evs[i - 1].timestamp.tv_sec * 1000000000 + evs[i - 1].timestamp.tv_nsec;
			int64_t b = (int64_t)evs[i].timestamp.tv_sec * 1000000000 + evs[i].timestamp.tv_nsec;
			ck_assert_msg(b >= a, "expected timestamps in queue order: event %d is %lld ns before event %d (EV-3)", i,
				      (long long)(a - b), i - 1);
		}
	}
	/* Events after the initial ones keep counting. */
	const struct ctrl *x = plain(cx->model, 0);
	if (x) {
		change_value(t.setter, x, NULL);
		struct v4l2_event ev;
		wait_ctrl_event(cx->dev, x->q.id, &ev, "after a change");
		ck_assert_msg(ev.sequence > evs[n - 1].sequence, "expected the sequence to keep increasing: %u after %u (EV-3)",
			      ev.sequence, evs[n - 1].sequence);
	}
	talk_close(&t);
	free(evs);
}

static void merge(const struct check_ctx *cx)
{
	const struct ctrl *x = plain(cx->model, 0), *y = plain(cx->model, 1);
	if (!x || !y)
		v_skip("fewer than two controls whose value can be changed");
	struct talk t;
	talk_open(cx, &t, true);
	subscribe_or_fail(cx->dev, x->q.id, t.flags);
	subscribe_or_fail(cx->dev, y->q.id, t.flags);
	int64_t x1 = 0, y1 = 0, x2 = 0;
	change_value(t.setter, x, &x1);
	change_value(t.setter, y, &y1);
	change_value(t.setter, x, &x2);
	struct v4l2_event evs[8];
	int n = ev_drain(cx->dev, evs, 8);
	ck_assert_msg(n == 2, "expected 2 pending events (the two changes of %s merged into one), got %d (EV-6)", x->q.name, n);
	int ix = evs[0].id == x->q.id ? 0 : 1, iy = 1 - ix;
	expect_eq(evs[ix].id, x->q.id, "one event for %s", x->q.name);
	expect_eq(evs[iy].id, y->q.id, "one event for %s", y->q.name);
	expect_eq(ev_value(x, &evs[ix]), as_event_value(x, x2), "the merged event of %s must carry the newest value (EV-6)", x->q.name);
	expect_eq(evs[0].pending, 1, "pending of the first event (EV-6)");
	expect_eq(evs[1].pending, 0, "pending of the last event (EV-6)");
	ck_assert_msg(evs[ix].sequence > evs[iy].sequence,
		      "expected the replaced event of %s to take the newest sequence number (%u), after %s's (%u) (EV-6)", x->q.name,
		      evs[ix].sequence, y->q.name, evs[iy].sequence);
	(void)x1;
	(void)y1;
	talk_close(&t);
}

/* On an M2M node the handle that subscribes is the one that sets (with
 * ALLOW_FEEDBACK): it is the only handle of its context. */
static void per_handle(const struct check_ctx *cx)
{
	const struct ctrl *x = plain(cx->model, 0);
	if (!x)
		v_skip("no control whose value can be changed");
	bool m2m = dev_is_m2m(cx->dev);
	struct dev a, b, setter;
	open_other(cx, &a);
	open_other(cx, &b);
	if (!m2m)
		open_other(cx, &setter);
	subscribe_or_fail(&a, x->q.id, m2m ? V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK : 0);
	change_value(m2m ? &a : &setter, x, NULL);
	struct v4l2_event ev;
	ck_assert_msg(ev_poll(&a, EV_WAIT_MS, NULL) == 1, "expected the subscribed handle to get the event");
	expect_errno(ev_dequeue(&b, &ev), ENOENT, "DQEVENT on a handle that did not subscribe (EV-13)");
	/* Close with the event pending; a new handle starts empty and unsubscribed. */
	dev_close(&a);
	open_other(cx, &a);
	expect_errno(ev_dequeue(&a, &ev), ENOENT, "DQEVENT on a new handle: events die with the handle that closed (EV-13)");
	change_value(m2m ? &a : &setter, x, NULL);
	expect_quiet(cx, &a, "on a new handle: subscriptions belong to the handle that closed (EV-13)");
	dev_close(&a);
	dev_close(&b);
	if (!m2m)
		dev_close(&setter);
}

/* events/input-change (EV-5, EV-7): suite_events_range.c */
void events_input_change(const struct check_ctx *cx);

/* ---------- applicability ---------- */

#define APPLIES(fn, expr) \
	static bool fn(const struct ctrl *c, const struct ctrl_model *m, const char **why) { return (expr); }

APPLIES(any_ctrl, !(c->q.flags & V4L2_CTRL_FLAG_DISABLED))
APPLIES(is_changeable, changeable(c))
APPLIES(is_changeable_quiet, changeable(c) && !(c->q.flags & V4L2_CTRL_FLAG_EXECUTE_ON_WRITE))
APPLIES(is_eow, (c->q.flags & V4L2_CTRL_FLAG_EXECUTE_ON_WRITE) && ctrl_writable(&c->q) && !ctrl_has_payload(&c->q))
APPLIES(is_volatile_writable, (c->q.flags & V4L2_CTRL_FLAG_VOLATILE) && ctrl_writable(&c->q) && !ctrl_has_payload(&c->q) &&
	c->q.type != V4L2_CTRL_TYPE_BUTTON && !(c->q.flags & V4L2_CTRL_FLAG_EXECUTE_ON_WRITE))

static const struct check_def checks[] = {
	{ "events/supported", "EV-1", "a node with controls offers control events (SUBSCRIBE_EVENT is not ENOTTY)",
	  CHECK_PER_DEVICE, supported, .needs = NEEDS_CTRLS },
	{ "events/subscribe", "EV-1", "SUBSCRIBE to V4L2_EVENT_CTRL works for the control; nothing is queued without SEND_INITIAL",
	  CHECK_PER_CONTROL, subscribe, any_ctrl, .needs = NEEDS_EVENTS },
	{ "events/initial", "EV-2", "SEND_INITIAL queues one event with CH_FLAGS|CH_VALUE and the control's value, flags and range (none for classes)",
	  CHECK_PER_CONTROL, initial, any_ctrl, .needs = NEEDS_EVENTS },
	{ "events/ch-value", "EV-4", "a change through one handle reaches another with CH_VALUE and the new value; the setter gets nothing "
	  "(M2M: no other context hears of it, PE-2)",
	  CHECK_PER_CONTROL, ch_value, is_changeable, .needs = NEEDS_EVENTS },
	{ "events/allow-feedback", "EV-4", "with ALLOW_FEEDBACK the setter gets its own change",
	  CHECK_PER_CONTROL, allow_feedback, is_changeable, .needs = NEEDS_EVENTS },
	{ "events/same-value", "SC-14", "setting the value a control already has sends no event",
	  CHECK_PER_CONTROL, same_value, is_changeable_quiet, .needs = NEEDS_EVENTS },
	{ "events/execute-on-write", "FL-10", "every write of an EXECUTE_ON_WRITE control sends CH_VALUE",
	  CHECK_PER_CONTROL, execute_on_write, is_eow, .needs = NEEDS_EVENTS },
	{ "events/volatile-set", "EV-8", "writing a volatile control sends no CH_VALUE",
	  CHECK_PER_CONTROL, volatile_set, is_volatile_writable, .needs = NEEDS_EVENTS },
	{ "events/dqevent-empty", "EV-9", "DQEVENT on a non-blocking handle with nothing pending gives ENOENT",
	  CHECK_PER_DEVICE, dqevent_empty, .needs = NEEDS_EVENTS },
	{ "events/poll", "EV-10", "poll() reports POLLPRI exactly while an event is pending and wakes a waiting caller",
	  CHECK_PER_DEVICE, poll_pri, .needs = NEEDS_EVENTS },
	{ "events/unsubscribe", "EV-12", "UNSUBSCRIBE drops one subscription and its pending event; V4L2_EVENT_ALL drops all",
	  CHECK_PER_DEVICE, unsubscribe, .needs = NEEDS_EVENTS },
	{ "events/resubscribe", "EV-11", "subscribing twice succeeds, sends no second initial event and delivers each change once",
	  CHECK_PER_DEVICE, resubscribe, .needs = NEEDS_EVENTS },
	{ "events/unknown-id", "EV-1", "SUBSCRIBE to a nonexistent control or with type V4L2_EVENT_ALL gives EINVAL",
	  CHECK_PER_DEVICE, unknown_id, .needs = NEEDS_EVENTS },
	{ "events/sequence", "EV-3", "sequence numbers count up per handle, pending counts the queue, timestamps in order",
	  CHECK_PER_DEVICE, sequence, .needs = NEEDS_EVENTS },
	{ "events/merge", "EV-6", "a second change before DQEVENT replaces the pending event of that control",
	  CHECK_PER_DEVICE, merge, .needs = NEEDS_EVENTS },
	{ "events/per-handle", "EV-13", "subscriptions and queued events belong to one handle and die with it",
	  CHECK_PER_DEVICE, per_handle, .needs = NEEDS_EVENTS },
	{ "events/input-change", "EV-7", "range, flag and dimension changes made by the driver on S_INPUT are announced",
	  CHECK_PER_DEVICE, events_input_change, NULL, NULL, 20, .needs = NEEDS_EVENTS | NEEDS_VIDEO_NODE },
};
SUITE(suite_events, "events", "Control events", checks);
