/* Priorities (spec section 12): with another handle at
 * V4L2_PRIORITY_RECORD, S_CTRL and S_EXT_CTRLS from a lower handle give
 * EBUSY before any validation and change nothing, while reading, TRY,
 * queries and events keep working; S_PRIORITY refuses invalid values;
 * closing the RECORD handle releases it. PR-4: a driver without
 * priorities (G_PRIORITY unsupported) is skipped. */
#include "ctrl/ctrl_payload.h"
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_type.h"
#include "ctrl/ctrl_value.h"
#include "ctrl/events.h"
#include "ctrl/ext_ctrls.h"
#include "check/registry.h"
#include "run/runner.h"
#include "check/verdict.h"
#include <stdio.h>
#include <string.h>

static int g_prio(const struct dev *d, uint32_t *p)
{
	return dev_ioctl(d, VIDIOC_G_PRIORITY, p);
}

static int s_prio(const struct dev *d, uint32_t p)
{
	return dev_ioctl(d, VIDIOC_S_PRIORITY, &p);
}

/* Skips when the device has no priorities (PR-4). */
static void need_prio(const struct check_ctx *cx)
{
	uint32_t p = 0;
	int e = g_prio(cx->dev, &p);
	if (e == ENOTTY)
		v_skip("VIDIOC_G_PRIORITY is not supported: the driver has no priorities (PR-4)");
	expect_ok(e, "VIDIOC_G_PRIORITY");
}

static void open_other(const struct check_ctx *cx, struct dev *d)
{
	v_open_again(cx->dev, d, "a second time");
}

static void take_record(const struct dev *d)
{
	int e = s_prio(d, V4L2_PRIORITY_RECORD);
	if (e == ENOTTY)
		v_skip("VIDIOC_S_PRIORITY is not supported (PR-4)");
	expect_ok(e, "S_PRIORITY RECORD on the first handle (PR-1)");
}

static void prio_default(const struct check_ctx *cx)
{
	need_prio(cx);
	struct dev a, b;
	uint32_t p = 0;
	expect_ok(g_prio(cx->dev, &p), "G_PRIORITY");
	expect_eq(p, V4L2_PRIORITY_DEFAULT, "G_PRIORITY with only default handles open (PR-1: DEFAULT = INTERACTIVE = 2)");
	open_other(cx, &a);
	open_other(cx, &b);
	take_record(&a);
	expect_ok(g_prio(&a, &p), "G_PRIORITY on the RECORD handle");
	expect_eq(p, V4L2_PRIORITY_RECORD, "G_PRIORITY on the RECORD handle gives the device's highest priority (PR-1)");
	expect_ok(g_prio(&b, &p), "G_PRIORITY on another handle");
	expect_eq(p, V4L2_PRIORITY_RECORD, "G_PRIORITY on another handle gives the device's highest priority, RECORD (PR-1)");
	static const uint32_t others[] = { V4L2_PRIORITY_BACKGROUND, V4L2_PRIORITY_INTERACTIVE, V4L2_PRIORITY_RECORD };
	for (size_t i = 0; i < 3; i++)
		expect_errno(s_prio(&b, others[i]), EBUSY, "S_PRIORITY %u on another handle while one holds RECORD (PR-1)", others[i]);
	/* The holder may step down; then the others may change theirs again. */
	expect_ok(s_prio(&a, V4L2_PRIORITY_DEFAULT), "S_PRIORITY DEFAULT on the RECORD handle");
	expect_ok(g_prio(&b, &p), "G_PRIORITY");
	expect_eq(p, V4L2_PRIORITY_DEFAULT, "G_PRIORITY after the RECORD handle stepped down (PR-1)");
	expect_ok(s_prio(&b, V4L2_PRIORITY_BACKGROUND), "S_PRIORITY BACKGROUND once no one holds RECORD");
	dev_close(&a);
	dev_close(&b);
}

static void prio_invalid(const struct check_ctx *cx)
{
	need_prio(cx);
	static const uint32_t bad[] = { V4L2_PRIORITY_UNSET, 4, 0x7fffffff, 0xffffffffu };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_errno(s_prio(cx->dev, bad[i]), EINVAL, "S_PRIORITY %u (PR-3: only BACKGROUND, INTERACTIVE, RECORD)", bad[i]);
	uint32_t p = 0;
	expect_ok(g_prio(cx->dev, &p), "G_PRIORITY");
	expect_eq(p, V4L2_PRIORITY_DEFAULT, "G_PRIORITY after the refused values (nothing changed)");
}

static void release_on_close(const struct check_ctx *cx)
{
	need_prio(cx);
	const struct ctrl *pick[1];
	const struct ctrl *c = ext_pick_plain(cx->model, 0, NULL, 0, pick, 1) ? pick[0] : NULL;
	struct dev a;
	open_other(cx, &a);
	take_record(&a);
	uint32_t p = 0;
	dev_close(&a);
	expect_ok(g_prio(cx->dev, &p), "G_PRIORITY after the RECORD handle closed");
	expect_eq(p, V4L2_PRIORITY_DEFAULT, "G_PRIORITY once the RECORD handle is closed: released (PR-3)");
	expect_ok(s_prio(cx->dev, V4L2_PRIORITY_RECORD), "S_PRIORITY RECORD once the holder closed (PR-3)");
	expect_ok(s_prio(cx->dev, V4L2_PRIORITY_DEFAULT), "S_PRIORITY DEFAULT");
	if (c) {
		int64_t cur = 0, v;
		expect_ok(ctrl_get_scalar(cx->dev, c, &cur), "G of %s", c->q.name);
		ck_assert(ctrl_other_value(c, cur, &v));
		expect_ok(ctrl_set_scalar(cx->dev, c, &v), "setting %s once the RECORD handle closed (PR-3)", c->q.name);
	}
}

/* Per control: blocked while another handle holds RECORD. */
static void set_blocked(const struct check_ctx *cx)
{
	need_prio(cx);
	const struct ctrl *c = cx->ctrl;
	struct dev rec;
	open_other(cx, &rec);
	take_record(&rec);
	struct ctrl_val cur = { 0 }, nv = { 0 }, now = { 0 };
	expect_ok(ctrl_get(cx->dev, c, V4L2_CTRL_WHICH_CUR_VAL, &cur), "G_EXT_CTRLS from the lower-priority handle (PR-2: reading works)");
	if (ctrl_has_payload(&c->q))
		ck_assert(payload_other(c, &cur, &nv));
	else
		ck_assert(ctrl_other_value(c, cur.v, &nv.v));
	if (ctrl_is_scalar_int32(&c->q)) {
		int32_t g = 0, v = (int32_t)nv.v;
		expect_ok(ctrl_get_old(cx->dev, c->q.id, &g), "G_CTRL from the lower-priority handle (PR-2)");
		expect_errno(ctrl_set_old(cx->dev, c->q.id, &v), EBUSY, "S_CTRL while another handle holds RECORD (SC-18, PR-2)");
	}
	struct ext_batch b;
	ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
	ext_add_val(&b, c, &nv);
	b.error_idx_in = 7;
	expect_errno(ext_do(cx->dev, VIDIOC_S_EXT_CTRLS, &b), EBUSY, "S_EXT_CTRLS while another handle holds RECORD (PR-2)");
	expect_eq(b.cs.error_idx, 7, "S_EXT_CTRLS refused for priority: error_idx must stay as the caller set it (PR-2: refused before validation)");
	/* Even an invalid request gives EBUSY: priority comes first. */
	ext_free(&b);
	ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
	ext_add_val(&b, c, &nv);
	ext_add_id(&b, 0);
	expect_errno(ext_do(cx->dev, VIDIOC_S_EXT_CTRLS, &b), EBUSY,
		     "S_EXT_CTRLS with an unknown id while another handle holds RECORD (PR-2: EBUSY before validation)");
	ext_free(&b);
	struct ctrl_val t;
	ctrl_val_copy(c, &t, &nv);
	expect_ok(ctrl_try(cx->dev, c, &t), "TRY_EXT_CTRLS from the lower-priority handle (PR-2: TRY works)");
	ctrl_val_free(&t);
	expect_ok(ctrl_get(cx->dev, c, V4L2_CTRL_WHICH_CUR_VAL, &now), "G_EXT_CTRLS after the refused sets");
	ck_assert_msg(ctrl_val_equal(c, &now, &cur), "expected the value unchanged by the sets refused for priority (PR-2)");
	ctrl_val_free(&now);
	/* The holder itself is not blocked. */
	struct ctrl_val h;
	ctrl_val_copy(c, &h, &nv);
	int e = ctrl_set(&rec, c, &h);
	v_skip_if_inactive_refused(&rec, c->q.id, e);
	expect_ok(e, "S_EXT_CTRLS from the RECORD handle itself (PR-2: the holder may set)");
	/* A memory-to-memory handle is its own context (PE-2): the holder's set
	 * shows on the holder; priority itself is the node's. */
	const struct dev *view = dev_is_m2m(cx->dev) ? &rec : cx->dev;
	expect_ok(ctrl_get(view, c, V4L2_CTRL_WHICH_CUR_VAL, &now), "G_EXT_CTRLS after the holder's set");
	ck_assert_msg(ctrl_val_equal(c, &now, &h), "expected the RECORD handle's set to take effect");
	ctrl_val_free(&h);
	if (ctrl_is_scalar_int32(&c->q)) {
		int32_t v = (int32_t)cur.v;
		expect_ok(ctrl_set_old(&rec, c->q.id, &v), "S_CTRL from the RECORD handle itself (PR-2: the holder may set)");
	}
	/* Released on close: the lower handle may set again. */
	dev_close(&rec);
	ctrl_val_copy(c, &h, &cur);
	expect_ok(ctrl_set(cx->dev, c, &h), "S_EXT_CTRLS once the RECORD handle closed (PR-3)");
	ctrl_val_free(&h);
	ctrl_val_free(&now);
	ctrl_val_free(&cur);
	ctrl_val_free(&nv);
}

static void other_ioctls(const struct check_ctx *cx)
{
	need_prio(cx);
	const struct ctrl *pick[1];
	const struct ctrl *c = ext_pick_plain(cx->model, 0, NULL, 0, pick, 1) ? pick[0] : NULL;
	if (!c)
		v_skip("no control whose value can be changed");
	struct dev rec;
	open_other(cx, &rec);
	take_record(&rec);
	struct v4l2_queryctrl qc = { .id = c->q.id };
	expect_ok(dev_ioctl(cx->dev, VIDIOC_QUERYCTRL, &qc), "QUERYCTRL from a lower-priority handle (PR-2)");
	struct v4l2_query_ext_ctrl qe = { .id = c->q.id };
	expect_ok(dev_ioctl(cx->dev, VIDIOC_QUERY_EXT_CTRL, &qe), "QUERY_EXT_CTRL from a lower-priority handle (PR-2)");
	for (size_t i = 0; i < cx->model->n; i++) {
		const struct ctrl *m = &cx->model->c[i];
		if (ctrl_type_is_menu(m->q.type) && ctrl_menu_first_valid(m) >= 0) {
			struct v4l2_querymenu qm = { .id = m->q.id, .index = (uint32_t)ctrl_menu_first_valid(m) };
			expect_ok(dev_ioctl(cx->dev, VIDIOC_QUERYMENU, &qm), "QUERYMENU from a lower-priority handle (PR-2)");
			break;
		}
	}
	if (runner_missing_features() & NEEDS_EVENTS) {
		/* events/supported fails for that; the queries above still count */
		v_info("the driver has no control events: SUBSCRIBE, DQEVENT and UNSUBSCRIBE not tried");
		dev_close(&rec);
		return;
	}
	expect_ok(ev_subscribe(cx->dev, c->q.id, V4L2_EVENT_SUB_FL_SEND_INITIAL), "SUBSCRIBE_EVENT from a lower-priority handle (PR-2)");
	struct v4l2_event ev;
	expect_ok(ev_wait(cx->dev, EV_WAIT_MS, &ev), "DQEVENT from a lower-priority handle (PR-2)");
	/* A change by the holder reaches the lower handle. */
	int64_t cur = 0, v;
	expect_ok(ctrl_get_scalar(&rec, c, &cur), "G on the RECORD handle");
	ck_assert(ctrl_other_value(c, cur, &v));
	expect_ok(ctrl_set_scalar(&rec, c, &v), "S from the RECORD handle");
	if (dev_is_m2m(cx->dev)) {
		/* PE-2: the holder changed its own context; the lower handle's
		 * context neither changes nor hears of it. The framework queues
		 * a control event inside the set ioctl, so a stray one is there
		 * already: ev_quiet proves "none" with a sentinel changed on this
		 * handle, which the holder's priority would refuse (EBUSY) while
		 * it is open. Closing it takes back nothing already queued. */
		dev_close(&rec);
		int n = ev_quiet(cx->dev, cx->model, &ev);
		char s[200];
		ck_assert_msg(n == 0, "M2M node: expected no event on another context for the holder's change "
			      "(PE-2: each handle its own values), got %s",
			      n > 0 ? ev_str(&ev, s, sizeof(s)) : errno_name(-n));
		int64_t mine = 0;
		expect_ok(ctrl_get_scalar(cx->dev, c, &mine), "G on the lower-priority handle");
		expect_eq(mine, cur, "M2M node: the lower handle's own value after the holder's change (PE-2)");
	} else {
		expect_ok(ev_wait_id(cx->dev, c->q.id, EV_WAIT_MS, &ev, NULL),
			  "the event for the holder's change on a lower-priority handle");
		dev_close(&rec);
	}
	expect_ok(ev_unsubscribe(cx->dev, V4L2_EVENT_CTRL, c->q.id), "UNSUBSCRIBE_EVENT from a lower-priority handle (PR-2)");
}

static bool settable_any(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return ctrl_settable_scalar(c) || (ext_payload_rw(c) && payload_can_generate(c));
}

static const struct check_def checks[] = {
	{ "prio/default", "PR-1", "handles start at DEFAULT; G_PRIORITY gives the highest; S_PRIORITY elsewhere is EBUSY while one holds RECORD",
	  CHECK_PER_DEVICE, prio_default, .needs = NEEDS_VIDEO_NODE },
	{ "prio/invalid", "PR-3", "S_PRIORITY with UNSET or a value above RECORD gives EINVAL",
	  CHECK_PER_DEVICE, prio_invalid, .needs = NEEDS_VIDEO_NODE },
	{ "prio/release-on-close", "PR-3", "closing the RECORD handle releases the priority",
	  CHECK_PER_DEVICE, release_on_close, .needs = NEEDS_VIDEO_NODE },
	{ "prio/set-blocked", "PR-2", "with another handle at RECORD, S_CTRL/S_EXT_CTRLS give EBUSY before validation and change nothing; G and TRY work",
	  CHECK_PER_CONTROL, set_blocked, settable_any, .needs = NEEDS_VIDEO_NODE },
	{ "prio/other-ioctls", "PR-2", "with another handle at RECORD, queries, SUBSCRIBE, DQEVENT and UNSUBSCRIBE still work",
	  CHECK_PER_DEVICE, other_ioctls, .needs = NEEDS_VIDEO_NODE },
};
SUITE(suite_prio, "prio", "Priorities", checks);
