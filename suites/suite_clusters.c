/* Clusters and flags (spec sections 8 and 9): auto/manual pairs (manual
 * controls inactive, and volatile where the driver reads the hardware,
 * while auto), the switch back to manual, writes to volatile manual
 * controls, an explicit manual value in the same call; events for the
 * flag and range changes a control with UPDATE causes; GRABBED controls
 * while streaming (EBUSY for S, TRY and G still fine). */
#include "image/capture.h"
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_type.h"
#include "ctrl/ctrl_value.h"
#include "ctrl/events.h"
#include "ctrl/ext_ctrls.h"
#include "check/registry.h"
#include "check/verdict.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- auto/manual pairs ---------- */

/* Known auto controls: the value meaning auto and the one meaning manual,
 * and the manual controls such a cluster usually holds. A menu may lack its
 * AUTO item (a UVC camera offers only the modes in its GET_RES bitmap,
 * typically manual and aperture priority): on_alt is then auto as well for
 * these manual controls. */
static const struct auto_pair {
	uint32_t auto_id;
	int32_t on, manual;
	uint32_t manual_ids[3];
	int32_t on_alt;
} pairs[] = {
	{ V4L2_CID_AUTOGAIN, 1, 0, { V4L2_CID_GAIN } },
	{ V4L2_CID_AUTO_WHITE_BALANCE, 1, 0, { V4L2_CID_WHITE_BALANCE_TEMPERATURE, V4L2_CID_RED_BALANCE, V4L2_CID_BLUE_BALANCE } },
	{ V4L2_CID_HUE_AUTO, 1, 0, { V4L2_CID_HUE } },
	{ V4L2_CID_AUTOBRIGHTNESS, 1, 0, { V4L2_CID_BRIGHTNESS } },
	{ V4L2_CID_FOCUS_AUTO, 1, 0, { V4L2_CID_FOCUS_ABSOLUTE, V4L2_CID_FOCUS_RELATIVE } },
	{ V4L2_CID_EXPOSURE_AUTO, V4L2_EXPOSURE_AUTO, V4L2_EXPOSURE_MANUAL, { V4L2_CID_EXPOSURE_ABSOLUTE, V4L2_CID_EXPOSURE },
	  V4L2_EXPOSURE_APERTURE_PRIORITY },
	{ V4L2_CID_ISO_SENSITIVITY_AUTO, V4L2_ISO_SENSITIVITY_AUTO, V4L2_ISO_SENSITIVITY_MANUAL, { V4L2_CID_ISO_SENSITIVITY } },
};
#define N_PAIRS (sizeof(pairs) / sizeof(pairs[0]))
#define MAX_MAN 3

static const struct auto_pair *pair_of(const struct ctrl *c)
{
	for (size_t i = 0; i < N_PAIRS; i++)
		if (pairs[i].auto_id == c->q.id)
			return &pairs[i];
	return NULL;
}

/* The manual controls of the pair that the device has (writable scalars). */
static size_t manuals(const struct ctrl_model *m, const struct auto_pair *p, const struct ctrl **out)
{
	size_t n = 0;
	for (size_t i = 0; i < MAX_MAN && p->manual_ids[i]; i++) {
		const struct ctrl *c = model_find(m, p->manual_ids[i]);
		if (c && !c->excluded && ctrl_writable(&c->q) && !ctrl_has_payload(&c->q) && c->q.type != V4L2_CTRL_TYPE_BUTTON)
			out[n++] = c;
	}
	return n;
}

/* The value that turns this device's auto control on. */
static int32_t auto_value(const struct ctrl *c, const struct auto_pair *p)
{
	if (ctrl_value_valid(c, p->on) || !p->on_alt || !ctrl_value_valid(c, p->on_alt))
		return p->on;
	return p->on_alt;
}

static uint32_t flags_now(const struct dev *d, uint32_t id)
{
	struct v4l2_query_ext_ctrl q = { .id = id };
	int e = dev_ioctl(d, VIDIOC_QUERY_EXT_CTRL, &q);
	if (e) {
		struct v4l2_queryctrl qc = { .id = id };
		e = dev_ioctl(d, VIDIOC_QUERYCTRL, &qc);
		q.flags = qc.flags;
	}
	ck_assert_msg(!e, "QUERY_EXT_CTRL/QUERYCTRL 0x%08x: %s", id, errno_name(e));
	return q.flags;
}

static void set_auto(const struct check_ctx *cx, int32_t v, const char *what)
{
	int64_t x = v;
	expect_ok(ctrl_set_scalar(cx->dev, cx->ctrl, &x), "setting %s to %s (%d)", cx->ctrl->q.name, what, v);
}

/* Switch auto on and return the manual controls that went inactive. */
static size_t auto_on(const struct check_ctx *cx, const struct auto_pair *p, const struct ctrl **man, size_t nman,
		      const struct ctrl **inact)
{
	set_auto(cx, auto_value(cx->ctrl, p), "auto");
	size_t n = 0;
	for (size_t i = 0; i < nman; i++)
		if (flags_now(cx->dev, man[i]->q.id) & V4L2_CTRL_FLAG_INACTIVE)
			inact[n++] = man[i];
		else
			v_info("%s stays active while auto: not in %s's cluster", man[i]->q.name, cx->ctrl->q.name);
	return n;
}

static const struct auto_pair *setup(const struct check_ctx *cx, const struct ctrl **man, size_t *nman)
{
	const struct auto_pair *p = pair_of(cx->ctrl);
	ck_assert(p);
	*nman = manuals(cx->model, p, man);
	ck_assert(*nman > 0);
	return p;
}

static void auto_flags(const struct check_ctx *cx)
{
	const struct ctrl *man[MAX_MAN], *inact[MAX_MAN];
	size_t nman;
	const struct auto_pair *p = setup(cx, man, &nman);
	char f[128];
	uint32_t af = flags_now(cx->dev, cx->ctrl->q.id);
	ctrl_flags_str(af, f, sizeof(f));
	ck_assert_msg(af & V4L2_CTRL_FLAG_UPDATE, "expected the auto control %s to have UPDATE (it changes other controls' flags), got flags %s (CL-1)",
		      cx->ctrl->q.name, f);
	for (int round = 0; round < 2; round++) {
		size_t n = auto_on(cx, p, man, nman, inact);
		if (!n) {
			char names[200] = "";
			for (size_t i = 0; i < nman; i++)
				snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", i ? ", " : "", man[i]->q.name);
			ck_abort_msg("expected the manual control (%s) INACTIVE while %s is auto, got %s active (CL-1)", names,
				     cx->ctrl->q.name, nman > 1 ? "all" : "it");
		}
		for (size_t i = 0; i < n; i++)
			if (round == 0)
				v_info("%s while auto: %s", inact[i]->q.name,
				       flags_now(cx->dev, inact[i]->q.id) & V4L2_CTRL_FLAG_VOLATILE ? "inactive, volatile" : "inactive");
		set_auto(cx, p->manual, "manual");
		for (size_t i = 0; i < n; i++) {
			uint32_t fl = flags_now(cx->dev, inact[i]->q.id);
			ctrl_flags_str(fl, f, sizeof(f));
			ck_assert_msg(!(fl & (V4L2_CTRL_FLAG_INACTIVE | V4L2_CTRL_FLAG_VOLATILE)),
				      "expected %s active and not volatile once %s is manual, got flags %s (CL-1, CL-2)", inact[i]->q.name,
				      cx->ctrl->q.name, f);
		}
	}
}

static void auto_to_manual(const struct check_ctx *cx)
{
	const struct ctrl *man[MAX_MAN], *inact[MAX_MAN];
	size_t nman;
	const struct auto_pair *p = setup(cx, man, &nman);
	size_t n = auto_on(cx, p, man, nman, inact);
	if (!n)
		v_skip("no manual control is inactive while auto (cluster/auto-flags says why)");
	struct dev b;
	ck_assert(dev_reopen(cx->dev, &b) == 0);
	int64_t before[MAX_MAN];
	bool vol[MAX_MAN];
	for (size_t i = 0; i < n; i++) {
		expect_ok(ev_subscribe(cx->dev, inact[i]->q.id, 0), "SUBSCRIBE %s on the setter's handle", inact[i]->q.name);
		expect_ok(ev_subscribe(&b, inact[i]->q.id, 0), "SUBSCRIBE %s on another handle", inact[i]->q.name);
		vol[i] = flags_now(cx->dev, inact[i]->q.id) & V4L2_CTRL_FLAG_VOLATILE;
		expect_ok(ctrl_get_scalar(cx->dev, inact[i], &before[i]), "G of %s while auto", inact[i]->q.name);
	}
	set_auto(cx, p->manual, "manual");
	for (size_t i = 0; i < n; i++) {
		const struct dev *hs[2] = { cx->dev, &b };
		struct v4l2_event ev;
		for (int h = 0; h < 2; h++) {
			int e = ev_wait_id(hs[h], inact[i]->q.id, EV_WAIT_MS, &ev, NULL);
			ck_assert_msg(e == 0, "expected a CH_FLAGS event for %s on %s when %s went manual, got %s (CL-2)",
				      inact[i]->q.name, h ? "another handle" : "the setter's handle (flag changes go to all)",
				      cx->ctrl->q.name, e == ETIMEDOUT ? "none" : errno_name(e));
			ck_assert_msg(ev.u.ctrl.changes & V4L2_EVENT_CTRL_CH_FLAGS,
				      "expected CH_FLAGS in %s's event when %s went manual, got changes 0x%x (CL-2)", inact[i]->q.name,
				      cx->ctrl->q.name, ev.u.ctrl.changes);
			ck_assert_msg(!(ev.u.ctrl.flags & V4L2_CTRL_FLAG_INACTIVE),
				      "expected the event's flags without INACTIVE, got 0x%x (CL-2)", ev.u.ctrl.flags);
		}
		int64_t after = 0, again = 0;
		expect_ok(ctrl_get_scalar(cx->dev, inact[i], &after), "G of %s after the switch to manual", inact[i]->q.name);
		ck_assert_msg(ctrl_value_valid(inact[i], after), "expected %s to hold a valid value after the switch, got %lld (CL-2)",
			      inact[i]->q.name, (long long)after);
		expect_ok(ctrl_get_scalar(cx->dev, inact[i], &again), "G of %s again", inact[i]->q.name);
		expect_eq(again, after, "%s once manual must keep its value (no longer volatile, CL-2)", inact[i]->q.name);
		/* The last event (the other handle's) carries the value in effect. */
		if (ev.u.ctrl.changes & V4L2_EVENT_CTRL_CH_VALUE)
			expect_eq(ev.u.ctrl.value, (int32_t)after, "the value in %s's event must be the value it holds once manual (CL-2, EV-3)",
				  inact[i]->q.name);
		/* A live value can move between the last read and the switch:
		 * only noted, so the check does not flicker. */
		if (vol[i] && after != before[i])
			v_info("%s read %lld just before the switch and holds %lld after it", inact[i]->q.name, (long long)before[i],
			       (long long)after);
	}
	dev_close(&b);
}

static void volatile_write(const struct check_ctx *cx)
{
	const struct ctrl *man[MAX_MAN], *inact[MAX_MAN];
	size_t nman;
	const struct auto_pair *p = setup(cx, man, &nman);
	size_t n = auto_on(cx, p, man, nman, inact);
	if (!n)
		v_skip("no manual control is inactive while auto");
	struct dev b;
	ck_assert(dev_reopen(cx->dev, &b) == 0);
	for (size_t i = 0; i < n; i++) {
		const struct ctrl *m = inact[i];
		bool vol = flags_now(cx->dev, m->q.id) & V4L2_CTRL_FLAG_VOLATILE;
		expect_ok(ev_subscribe(&b, m->q.id, 0), "SUBSCRIBE %s", m->q.name);
		int64_t live = 0, v;
		expect_ok(ctrl_get_scalar(cx->dev, m, &live), "G of %s while auto", m->q.name);
		if (!ctrl_other_value(m, live, &v))
			continue;
		int64_t w = v;
		int e = ctrl_set_scalar(cx->dev, m, &w);
		if (e == EACCES) {
			v_warn("writing %s while auto gave EACCES (FL-5 allows it; the framework accepts and ignores the write, CL-3)",
			       m->q.name);
		} else {
			expect_ok(e, "writing %s (inactive%s) while %s is auto (CL-3)", m->q.name, vol ? ", volatile" : "",
				  cx->ctrl->q.name);
		}
		int64_t a = 0;
		expect_ok(ctrl_get_scalar(cx->dev, cx->ctrl, &a), "G of %s", cx->ctrl->q.name);
		expect_eq(a, auto_value(cx->ctrl, p), "%s must stay auto after a write to %s (CL-3)", cx->ctrl->q.name, m->q.name);
		uint32_t fl = flags_now(cx->dev, m->q.id);
		ck_assert_msg(fl & V4L2_CTRL_FLAG_INACTIVE, "expected %s still INACTIVE after the write while auto, got flags 0x%x (CL-3)",
			      m->q.name, fl);
		if (vol) {
			struct v4l2_event ev;
			int r = ev_quiet(&b, cx->model, &ev);
			ck_assert_msg(r <= 0 || !(ev.u.ctrl.changes & V4L2_EVENT_CTRL_CH_VALUE),
				      "expected no CH_VALUE for a write to the volatile %s while auto, got one with value %d (CL-3, EV-8)",
				      m->q.name, ev.u.ctrl.value);
		}
	}
	dev_close(&b);
}

static void explicit_manual(const struct check_ctx *cx)
{
	const struct ctrl *man[MAX_MAN], *inact[MAX_MAN];
	size_t nman;
	const struct auto_pair *p = setup(cx, man, &nman);
	for (int order = 0; order < 2; order++) {
		size_t n = auto_on(cx, p, man, nman, inact);
		if (!n)
			v_skip("no manual control is inactive while auto");
		const struct ctrl *m = inact[0];
		int64_t live = 0, x;
		expect_ok(ctrl_get_scalar(cx->dev, m, &live), "G of %s while auto", m->q.name);
		if (!ctrl_other_value(m, live, &x))
			v_skip("%s has a single valid value", m->q.name);
		if (order && ctrl_other_value(m, x, &x) && x == live)
			ck_assert(ctrl_other_value(m, live, &x));
		struct ext_batch b;
		ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
		if (order)
			ext_add(&b, m, x);
		ext_add(&b, cx->ctrl, p->manual);
		if (!order)
			ext_add(&b, m, x);
		expect_ok(ext_do(cx->dev, VIDIOC_S_EXT_CTRLS, &b), "S_EXT_CTRLS %s = manual with %s = %lld %s it (CL-4)",
			  cx->ctrl->q.name, m->q.name, (long long)x, order ? "before" : "after");
		ext_free(&b);
		int64_t got = 0, a = 0;
		expect_ok(ctrl_get_scalar(cx->dev, cx->ctrl, &a), "G of %s", cx->ctrl->q.name);
		expect_eq(a, p->manual, "%s after the combined set", cx->ctrl->q.name);
		expect_ok(ctrl_get_scalar(cx->dev, m, &got), "G of %s", m->q.name);
		expect_eq(got, x, "%s after switching to manual with an explicit value in the same call: the explicit value wins (CL-4)",
			  m->q.name);
	}
}

/* ---------- UPDATE: the other controls' changes are announced (EV-5) ---------- */

struct qsave { struct v4l2_query_ext_ctrl q; uint32_t got; };

static void query_all(const struct check_ctx *cx, struct qsave *qs)
{
	for (size_t i = 0; i < cx->model->n; i++) {
		memset(&qs[i], 0, sizeof(qs[i]));
		qs[i].q.id = cx->model->c[i].q.id;
		dev_ioctl(cx->dev, VIDIOC_QUERY_EXT_CTRL, &qs[i].q);
	}
}

static int compare_announced(const struct check_ctx *cx, const struct dev *b, const struct qsave *q0, struct qsave *q1,
			     const char *when, char *msg, size_t len, int *nchanged)
{
	struct v4l2_event ev;
	int probs = 0;
	while (ev_dequeue(b, &ev) == 0)
		for (size_t i = 0; i < cx->model->n; i++)
			if (q1[i].q.id == ev.id) {
				q1[i].got |= ev.u.ctrl.changes;
				if ((ev.u.ctrl.changes & V4L2_EVENT_CTRL_CH_FLAGS) && ev.u.ctrl.flags != q1[i].q.flags &&
				    strlen(msg) < len) {
					snprintf(msg + strlen(msg), len - strlen(msg),
						 "%s%s %s: event flags 0x%x, QUERY_EXT_CTRL flags 0x%x afterwards", *msg ? "; " : "", when,
						 q1[i].q.name, ev.u.ctrl.flags, q1[i].q.flags);
					probs++;
				}
			}
	for (size_t i = 0; i < cx->model->n; i++) {
		if (q1[i].q.id == cx->ctrl->q.id)
			continue;
		const struct v4l2_query_ext_ctrl *a = &q0[i].q, *c = &q1[i].q;
		uint32_t need = 0;
		if (a->minimum != c->minimum || a->maximum != c->maximum || a->step != c->step ||
		    a->default_value != c->default_value)
			need |= V4L2_EVENT_CTRL_CH_RANGE;
		if (a->flags != c->flags)
			need |= V4L2_EVENT_CTRL_CH_FLAGS;
		if (!need)
			continue;
		(*nchanged)++;
		uint32_t missing = need & ~q1[i].got;
		if (missing && strlen(msg) < len) {
			char f[64];
			snprintf(msg + strlen(msg), len - strlen(msg), "%s%s %s: flags 0x%x -> 0x%x, no %s event", *msg ? "; " : "", when,
				 c->name, a->flags, c->flags, ev_changes_str(missing, f, sizeof(f)));
			probs++;
		}
	}
	return probs;
}

static void update_events(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	size_t n = cx->model->n;
	struct dev b;
	ck_assert(dev_reopen(cx->dev, &b) == 0);
	uint32_t bad = 0;
	ck_assert_msg(ev_subscribe_model(&b, cx->model, 0, &bad) == 0, "SUBSCRIBE to 0x%08x failed", bad);
	struct qsave *q0 = calloc(n, sizeof(*q0)), *q1 = calloc(n, sizeof(*q1));
	char msg[1500] = "";
	int probs = 0, changed = 0;
	int64_t orig = 0;
	expect_ok(ctrl_get_scalar(cx->dev, c, &orig), "G of %s", c->q.name);
	/* Every value of a menu or boolean, both ends of a range. */
	int64_t vals[16];
	size_t nv = 0;
	if (ctrl_type_is_menu(c->q.type)) {
		for (size_t i = 0; i < c->n_menu && nv < 15; i++)
			if (!c->menu[i].err && c->menu[i].index != orig)
				vals[nv++] = c->menu[i].index;
	} else if (ctrl_other_value(c, orig, &vals[0])) {
		nv = 1;
	}
	vals[nv++] = orig;
	for (size_t k = 0; k < nv && !probs; k++) {
		ev_drain(&b, NULL, 0);
		query_all(cx, q0);
		int64_t v = vals[k];
		expect_ok(ctrl_set_scalar(cx->dev, c, &v), "setting %s to %lld", c->q.name, (long long)vals[k]);
		query_all(cx, q1);
		char when[64];
		snprintf(when, sizeof(when), "%s = %lld:", c->q.name, (long long)vals[k]);
		probs += compare_announced(cx, &b, q0, q1, when, msg, sizeof(msg), &changed);
	}
	free(q0);
	free(q1);
	dev_close(&b);
	if (probs)
		ck_abort_msg("expected every flag or range change caused by an UPDATE control announced with matching flags, got %d problem(s): %s (EV-5, EV-7)",
			     probs, msg);
	v_info("%d flag/range change(s) on other controls, all announced", changed);
}

/* ---------- GRABBED while streaming (FL-2, SC-17, EX-9) ---------- */

static void grabbed(const struct check_ctx *cx)
{
	size_t n = cx->model->n;
	struct dev b;
	ck_assert(dev_reopen(cx->dev, &b) == 0);
	uint32_t bad = 0;
	ck_assert_msg(ev_subscribe_model(&b, cx->model, 0, &bad) == 0, "SUBSCRIBE to 0x%08x failed", bad);
	struct capture cap;
	struct capture_opts o = { .nbufs = 2 };
	int e = 0;
	/* Streaming proper (mmap), not read(): one-shot errors a driver was
	 * asked to inject (vivid's REQBUFS/QBUF/STREAMON buttons) are used up
	 * by failed tries, so try a few times. */
	for (int tries = 0; tries < 4; tries++) {
		e = capture_open(&cap, cx->dev, &o);
		if (!e && (cap.io == CAPTURE_MMAP || !(cx->dev->caps & V4L2_CAP_STREAMING)))
			break;
		if (!e) {
			capture_close(&cap);
			e = ENOTSUP;
			snprintf(cap.err, sizeof(cap.err), "fell back to read()");
		}
		v_info("capture_open try %d: %s", tries + 1, cap.err);
	}
	if (e)
		v_skip("cannot stream: %s", cap.err);
	struct frame f = { 0 };
	char desc[128];
	e = capture_next(&cap, &f);
	frame_free(&f);
	v_info("streaming %s%s%s", capture_describe(&cap, desc, sizeof(desc)), e ? "; first frame: " : "", e ? cap.err : "");
	char msg[2000] = "";
	size_t mo = 0;
	int ngrab = 0, probs = 0;
	uint32_t *evchanges = calloc(n, sizeof(*evchanges));
	uint32_t *evflags = calloc(n, sizeof(*evflags));
	struct v4l2_event ev;
	while (ev_dequeue(&b, &ev) == 0)
		for (size_t i = 0; i < n; i++)
			if (cx->model->c[i].q.id == ev.id) {
				evchanges[i] |= ev.u.ctrl.changes;
				evflags[i] = ev.u.ctrl.flags;
			}
/* The separator reads probs before it counts this problem. */
#define PROB(...) do { if (mo < sizeof(msg)) mo += snprintf(msg + mo, sizeof(msg) - mo, __VA_ARGS__); probs++; } while (0)
	const struct ctrl **grabbed_list = calloc(n, sizeof(*grabbed_list));
	for (size_t i = 0; i < n; i++) {
		const struct ctrl *c = &cx->model->c[i];
		if (c->excluded || !(flags_now(cx->dev, c->q.id) & V4L2_CTRL_FLAG_GRABBED))
			continue;
		grabbed_list[ngrab++] = c;
		if (!(evchanges[i] & V4L2_EVENT_CTRL_CH_FLAGS) || !(evflags[i] & V4L2_CTRL_FLAG_GRABBED))
			PROB("%s%s: GRABBED while streaming without a CH_FLAGS event (FL-2)", probs ? "; " : "", c->q.name);
		if (!ctrl_settable_scalar(c) && !(ctrl_writable(&c->q) && !ctrl_has_payload(&c->q)))
			continue;
		int64_t cur = 0, other = 0;
		if (ctrl_readable(&c->q) && ctrl_get_scalar(cx->dev, c, &cur))
			PROB("%s%s: G while grabbed failed (EX-9)", probs ? "; " : "", c->q.name);
		if (!ctrl_other_value(c, cur, &other))
			other = cur;
		if (ctrl_is_scalar_int32(&c->q)) {
			int32_t v = (int32_t)other;
			int r = ctrl_set_old(cx->dev, c->q.id, &v);
			if (r != EBUSY)
				PROB("%s%s: S_CTRL while grabbed gave %s, expected EBUSY (SC-17)", probs ? "; " : "", c->q.name,
				     errno_name(r));
		}
		struct ext_batch eb;
		ext_init(&eb, V4L2_CTRL_WHICH_CUR_VAL);
		int64_t pcur[1];
		const struct ctrl *skip[1] = { c };
		size_t np = ext_add_changes(&eb, cx->dev, cx->model, 0, skip, 1, 1, pcur);
		ext_add(&eb, c, other);
		int r = ext_do(cx->dev, VIDIOC_S_EXT_CTRLS, &eb);
		if (r != EBUSY || eb.cs.error_idx != eb.count)
			PROB("%s%s: S_EXT_CTRLS while grabbed gave %s with error_idx %u, expected EBUSY with error_idx = count %u (EX-9)",
			     probs ? "; " : "", c->q.name, errno_name(r), eb.cs.error_idx, eb.count);
		/* Atomicity only matters when the call failed as it should. */
		if (np && r) {
			int64_t pv = 0;
			ctrl_get_scalar(cx->dev, eb.ctrl[0], &pv);
			if (pv != pcur[0])
				PROB("%s%s changed although S_EXT_CTRLS failed on the grabbed %s (EX-12)", probs ? "; " : "",
				     eb.ctrl[0]->q.name, c->q.name);
		}
		r = ext_do(cx->dev, VIDIOC_TRY_EXT_CTRLS, &eb);
		if (r)
			PROB("%s%s: TRY_EXT_CTRLS while grabbed gave %s, expected success (EX-9)", probs ? "; " : "", c->q.name,
			     errno_name(r));
		ext_free(&eb);
		int64_t now = 0;
		if (ctrl_readable(&c->q) && !ctrl_get_scalar(cx->dev, c, &now) && now != cur)
			PROB("%s%s changed from %lld to %lld while grabbed (SC-17)", probs ? "; " : "", c->q.name, (long long)cur,
			     (long long)now);
	}
	ev_drain(&b, NULL, 0);
	capture_close(&cap);
	/* Idle again: every grabbed control released, with an event. */
	memset(evchanges, 0, n * sizeof(*evchanges));
	while (ev_dequeue(&b, &ev) == 0)
		for (size_t i = 0; i < n; i++)
			if (cx->model->c[i].q.id == ev.id)
				evchanges[i] |= ev.u.ctrl.changes;
	for (int g = 0; g < ngrab; g++) {
		const struct ctrl *c = grabbed_list[g];
		if (flags_now(cx->dev, c->q.id) & V4L2_CTRL_FLAG_GRABBED)
			PROB("%s%s: still GRABBED after streaming stopped (QC-13)", probs ? "; " : "", c->q.name);
		else if (!(evchanges[c - cx->model->c] & V4L2_EVENT_CTRL_CH_FLAGS))
			PROB("%s%s: released without a CH_FLAGS event (FL-2)", probs ? "; " : "", c->q.name);
	}
	free(evchanges);
	free(evflags);
	free(grabbed_list);
	dev_close(&b);
	if (probs)
		ck_abort_msg("GRABBED controls while streaming: %d problem(s): %s", probs, msg);
	if (!ngrab)
		v_skip("no control is GRABBED while streaming");
	v_info("%d control(s) grabbed while streaming, each refused with EBUSY", ngrab);
}

/* ---------- applicability ---------- */

static bool auto_applies(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	const struct auto_pair *p = pair_of(c);
	const struct ctrl *man[MAX_MAN];
	if (!p || !ctrl_settable_scalar(c))
		return false;
	if (!manuals(m, p, man)) {
		*why = "none of this auto control's usual manual controls exists";
		return false;
	}
	return true;
}

static bool update_applies(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return (c->q.flags & V4L2_CTRL_FLAG_UPDATE) && ctrl_settable_scalar(c);
}

static const struct check_def checks[] = {
	{ "cluster/auto-flags", "CL-1", "the auto control has UPDATE; manual controls are INACTIVE while auto and active when manual",
	  CHECK_PER_CONTROL, auto_flags, auto_applies },
	{ "cluster/auto-to-manual", "CL-2", "switching to manual sends CH_FLAGS to every handle (the setter too); the manual value is kept",
	  CHECK_PER_CONTROL, auto_to_manual, auto_applies, .needs = NEEDS_EVENTS },
	{ "cluster/volatile-write", "CL-3", "writing a manual control while auto succeeds, keeps auto and (volatile) sends no CH_VALUE",
	  CHECK_PER_CONTROL, volatile_write, auto_applies, .needs = NEEDS_EVENTS },
	{ "cluster/explicit-manual", "CL-4", "auto = manual plus a manual value in one S_EXT_CTRLS: the explicit value wins",
	  CHECK_PER_CONTROL, explicit_manual, auto_applies },
	{ "cluster/update-events", "EV-5", "the flag and range changes an UPDATE control causes on other controls are announced",
	  CHECK_PER_CONTROL, update_events, update_applies, .needs = NEEDS_EVENTS },
	{ "cluster/grabbed", "SC-17", "controls GRABBED while streaming refuse S with EBUSY (S_EXT error_idx = count), allow TRY and G",
	  CHECK_PER_DEVICE, grabbed, NULL, NULL, 30, true, .needs = NEEDS_EVENTS },
};
SUITE(suite_clusters, "cluster", "Clusters, auto/manual pairs and GRABBED", checks);
