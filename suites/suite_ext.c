/* VIDIOC_G/S/TRY_EXT_CTRLS, the ext suite's check table and the checks of
 * how a call is addressed: `which`, count, which = class, error_idx for bad
 * ids and access, limits and bad pointers, reserved fields, everything at
 * once (spec section 4). What an S/TRY applies (atomicity, TRY, clamping,
 * 64-bit values, duplicates) is checked in suite_ext_apply.c; strings and
 * arrays are in suite_payload.c. */
#include "ctrl/rulebook.h"
#include "ctrl/uapi_7_3.h"
#include "ctrl/ctrl_payload.h"
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_snapshot.h"
#include "ctrl/ctrl_type.h"
#include "ctrl/ctrl_value.h"
#include "ctrl/ext_ctrls.h"
#include "check/registry.h"
#include "suite_ext.h"
#include "check/verdict.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* ---------- helpers ---------- */

/* A readable scalar control other than skip, non-volatile when possible. */
static const struct ctrl *pick_readable(const struct ctrl_model *m, const struct ctrl *skip, uint32_t cls)
{
	const struct ctrl *vol = NULL;
	for (size_t i = 0; i < m->n; i++) {
		const struct ctrl *c = &m->c[i];
		if (c == skip || !ext_readable_scalar(c) || (cls && V4L2_CTRL_ID2WHICH(c->q.id) != cls))
			continue;
		if (!(c->q.flags & V4L2_CTRL_FLAG_VOLATILE))
			return c;
		if (!vol)
			vol = c;
	}
	return vol;
}

/* Classes that have a class control (count = 0 and which = class need it). */
static size_t classes_with_ctrl(const struct ctrl_model *m, uint32_t *out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < m->n && n < max; i++)
		if (m->c[i].q.type == V4L2_CTRL_TYPE_CTRL_CLASS)
			out[n++] = V4L2_CTRL_ID2WHICH(m->c[i].q.id);
	return n;
}

static bool class_used(const struct ctrl_model *m, uint32_t cls)
{
	for (size_t i = 0; i < m->n; i++)
		if (V4L2_CTRL_ID2WHICH(m->c[i].q.id) == cls)
			return true;
	return false;
}

/* A class no control of the device belongs to. */
static uint32_t unused_class(const struct ctrl_model *m)
{
	for (uint32_t cls = 0x00ff0000; cls > 0x00100000; cls -= 0x00010000)
		if (!class_used(m, cls))
			return cls;
	return 0x07ff0000;
}

/* ---------- count = 0, which (EX-1, EX-18, EX-19, EX-20) ---------- */

static void count_zero(const struct check_ctx *cx)
{
	uint32_t cls[64];
	size_t ncls = classes_with_ctrl(cx->model, cls, 64);
	for (int r = 0; r < 3; r++) {
		struct v4l2_ext_controls cs = { .which = V4L2_CTRL_WHICH_CUR_VAL };
		expect_ok(dev_ioctl(cx->dev, ext_requests[r], &cs), "%s with which = CUR_VAL and count = 0 (EX-1)",
			  ext_req_name(ext_requests[r]));
		ck_assert_msg(cs.which == 0 && cs.count == 0 && cs.reserved[0] == 0,
			      "%s count = 0: expected which, count and reserved left at 0, got which 0x%x count %u reserved 0x%x (EX-1)",
			      ext_req_name(ext_requests[r]), cs.which, cs.count, cs.reserved[0]);
		for (size_t k = 0; k < ncls; k++) {
			struct v4l2_ext_controls cc = { .which = cls[k] };
			expect_ok(dev_ioctl(cx->dev, ext_requests[r], &cc), "%s with which = class 0x%08x (it exists) and count = 0 (EX-1)",
				  ext_req_name(ext_requests[r]), cls[k]);
			ck_assert_msg(cc.which == cls[k] && cc.count == 0,
				      "%s count = 0: expected which 0x%08x and count 0 unchanged, got 0x%x and %u (EX-1)",
				      ext_req_name(ext_requests[r]), cls[k], cc.which, cc.count);
		}
		uint32_t none = unused_class(cx->model);
		struct v4l2_ext_controls cn = { .which = none };
		expect_errno(dev_ioctl(cx->dev, ext_requests[r], &cn), EINVAL,
			     "%s with which = class 0x%08x, which the device does not have, and count = 0 (EX-1)",
			     ext_req_name(ext_requests[r]), none);
	}
	if (!ncls)
		v_info("no class control: only which = 0 and a missing class were tried");
}

static void def_val_empty(const struct check_ctx *cx)
{
	struct v4l2_ext_controls cs = { .which = V4L2_CTRL_WHICH_DEF_VAL, .error_idx = EXT_IDX_UNSET };
	expect_ok(dev_ioctl(cx->dev, VIDIOC_G_EXT_CTRLS, &cs), "G_EXT_CTRLS with which = DEF_VAL and count = 0 (EX-18)");
	for (int r = 1; r < 3; r++) {
		struct v4l2_ext_controls c2 = { .which = V4L2_CTRL_WHICH_DEF_VAL, .error_idx = EXT_IDX_UNSET };
		expect_errno(dev_ioctl(cx->dev, ext_requests[r], &c2), EINVAL,
			     "%s with which = DEF_VAL and count = 0: defaults cannot be changed (EX-18)", ext_req_name(ext_requests[r]));
		expect_eq(c2.error_idx, 0, "%s DEF_VAL count = 0: error_idx must be count (EX-18)", ext_req_name(ext_requests[r]));
	}
}

/* G with DEF_VAL gives the default; S/TRY with DEF_VAL are refused with
 * error_idx = count and change nothing. */
static void def_val(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	const struct v4l2_query_ext_ctrl *q = &c->q;
	struct ctrl_val def = { 0 }, cur = { 0 }, after = { 0 };
	char buf[256];
	/* Move the current value away from the default first, so that a
	 * driver handing back the current value is caught. */
	if (ctrl_settable_scalar(c)) {
		int64_t other;
		if (ctrl_other_value(c, q->default_value, &other)) {
			struct ctrl_val nv = { .v = other };
			int e = ctrl_set(cx->dev, c, &nv);
			v_skip_if_inactive_refused(cx->dev, q->id, e);
			expect_ok(e, "setting a value other than the default");
		}
	} else if (ext_payload_rw(c) && payload_can_generate(c)) {
		struct ctrl_val d0 = { 0 }, nv = { 0 };
		if (ctrl_get(cx->dev, c, V4L2_CTRL_WHICH_DEF_VAL, &d0) == 0 && payload_other(c, &d0, &nv))
			expect_ok(ctrl_set(cx->dev, c, &nv), "setting a value other than the default");
		ctrl_val_free(&d0);
		ctrl_val_free(&nv);
	}
	expect_ok(ctrl_get(cx->dev, c, V4L2_CTRL_WHICH_DEF_VAL, &def), "G_EXT_CTRLS with which = DEF_VAL (EX-18)");
	if (!ctrl_has_payload(q)) {
		expect_eq(ext_as_ctrl_width(c, def.v), ext_as_ctrl_width(c, q->default_value),
			  "G_EXT_CTRLS DEF_VAL must give QUERY_EXT_CTRL's default_value (EX-18)");
	} else if (q->type == V4L2_CTRL_TYPE_STRING) {
		/* The framework's default string is `minimum` spaces (ST-5). */
		const char *s = def.p;
		size_t len = strnlen(s, q->elem_size);
		bool spaces = len == (size_t)q->minimum;
		for (size_t i = 0; spaces && i < len; i++)
			spaces = s[i] == ' ';
		ck_assert_msg(spaces, "expected the default string to be %lld spaces (EX-18, ST-5), got '%.*s'",
			      (long long)q->minimum, (int)len, s);
	} else if (payload_is_int_array(c)) {
		uint32_t n = payload_elems(c, def.size);
		uint32_t want = q->elems;
		ck_assert_msg(n == want, "G_EXT_CTRLS DEF_VAL: expected %u elements (the current count), got a size of %u bytes (EX-18)",
			      want, def.size);
		for (uint32_t i = 0; i < n; i++) {
			int64_t e = payload_elem(c, def.p, i);
			if (e != q->default_value)
				ck_abort_msg("G_EXT_CTRLS DEF_VAL: expected element %u to be the default %lld, got %lld (EX-18)", i,
					     (long long)q->default_value, (long long)e);
		}
	} else {
		ck_assert_msg(def.size == q->elem_size * q->elems,
			      "G_EXT_CTRLS DEF_VAL: expected a size of %u bytes, got %u (EX-18)", q->elem_size * q->elems,
			      def.size);
	}
	bool compare = !(q->flags & V4L2_CTRL_FLAG_VOLATILE);
	expect_ok(ctrl_get(cx->dev, c, V4L2_CTRL_WHICH_CUR_VAL, &cur), "G_EXT_CTRLS of the current value");
	if (!ctrl_writable(q))
		compare = false;
	for (int r = 1; r < 3; r++) {
		struct ext_batch b;
		ext_init(&b, V4L2_CTRL_WHICH_DEF_VAL);
		struct ctrl_val other = { 0 };
		bool have_other = ctrl_has_payload(q) ? payload_other(c, &cur, &other) : ctrl_other_value(c, cur.v, &other.v);
		if (have_other)
			ext_add_val(&b, c, &other);
		else
			ext_add_val(&b, c, &def);
		int e = ext_do(cx->dev, ext_requests[r], &b);
		expect_errno(e, EINVAL, "%s with which = DEF_VAL: defaults cannot be changed (EX-18)", ext_req_name(ext_requests[r]));
		expect_eq(b.cs.error_idx, 1, "%s with which = DEF_VAL: error_idx must be count (EX-18)", ext_req_name(ext_requests[r]));
		ext_free(&b);
		ctrl_val_free(&other);
		if (compare) {
			expect_ok(ctrl_get(cx->dev, c, V4L2_CTRL_WHICH_CUR_VAL, &after), "G_EXT_CTRLS after the refused %s",
				  ext_req_name(ext_requests[r]));
			if (!ctrl_val_equal(c, &after, &cur)) {
				ctrl_val_str(c, &after, buf, sizeof(buf));
				ck_abort_msg("expected the current value unchanged by the refused %s DEF_VAL, got %s (EX-18)",
					     ext_req_name(ext_requests[r]), buf);
			}
		}
	}
	ctrl_val_free(&def);
	ctrl_val_free(&cur);
	ctrl_val_free(&after);
}

static void unknown_which(const struct check_ctx *cx)
{
	static const uint32_t whichs[] = { 0x0f040000, 0x0f800000, 0x0fff0000 };
	const struct ctrl *p = pick_readable(cx->model, NULL, 0);
	for (size_t w = 0; w < sizeof(whichs) / sizeof(whichs[0]); w++)
		for (int r = 0; r < 3; r++) {
			struct v4l2_ext_controls cs = { .which = whichs[w] };
			expect_errno(dev_ioctl(cx->dev, ext_requests[r], &cs), EINVAL, "%s with unknown which 0x%08x, count = 0 (EX-20)",
				     ext_req_name(ext_requests[r]), whichs[w]);
			if (!p)
				continue;
			struct ext_batch b;
			ext_init(&b, whichs[w]);
			int64_t v = 0;
			ctrl_get_scalar(cx->dev, p, &v);
			ext_add(&b, p, v);
			expect_errno(ext_do(cx->dev, ext_requests[r], &b), EINVAL, "%s with unknown which 0x%08x on %s (EX-20)",
				     ext_req_name(ext_requests[r]), whichs[w], p->q.name);
			ext_free(&b);
		}
}

/* MIN_VAL/MAX_VAL: only for controls with HAS_WHICH_MIN_MAX (6.15 on);
 * 6.1 and 6.12 know neither, so both are unknown `which` values there. */
#define WHICH_MIN_VAL V4L2_CTRL_WHICH_MIN_VAL
#define WHICH_MAX_VAL V4L2_CTRL_WHICH_MAX_VAL
#define FLAG_HAS_WHICH_MIN_MAX V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX

static void min_max_which(const struct check_ctx *cx)
{
	bool any = false;
	size_t tried = 0;
	for (size_t i = 0; i < cx->model->n; i++)
		any |= !!(cx->model->c[i].q.flags & FLAG_HAS_WHICH_MIN_MAX);
	for (int mm = 0; mm < 2; mm++) {
		uint32_t which = mm ? WHICH_MAX_VAL : WHICH_MIN_VAL;
		const char *wn = mm ? "MAX_VAL" : "MIN_VAL";
		struct v4l2_ext_controls cs = { .which = which };
		int e = dev_ioctl(cx->dev, VIDIOC_G_EXT_CTRLS, &cs);
		/* EX-27: a kernel with MIN/MAX_VAL (7.3's class_check) accepts
		 * count = 0 whatever the controls. */
		if (!rb_fails(rb_judge(rb_running(), RB_WHICH, which, NULL)))
			expect_ok(e, "G_EXT_CTRLS %s with count = 0 on a kernel that has it (EX-27)", wn);
		else if (any)
			expect_ok(e, "G_EXT_CTRLS %s with count = 0 on a device with HAS_WHICH_MIN_MAX controls (EX-19)", wn);
		else
			expect_errno(e, EINVAL, "G_EXT_CTRLS %s with count = 0: no control has HAS_WHICH_MIN_MAX (EX-19)", wn);
		for (size_t i = 0; i < cx->model->n; i++) {
			const struct ctrl *c = &cx->model->c[i];
			if (!ext_readable_scalar(c))
				continue;
			tried++;
			struct ext_batch b;
			ext_init(&b, which);
			ext_add(&b, c, 0);
			e = ext_do(cx->dev, VIDIOC_G_EXT_CTRLS, &b);
			if (c->q.flags & FLAG_HAS_WHICH_MIN_MAX) {
				expect_ok(e, "G_EXT_CTRLS %s on %s, which has HAS_WHICH_MIN_MAX (EX-19)", wn, c->q.name);
				expect_eq(ext_as_ctrl_width(c, ext_scalar(&b, 0)), ext_as_ctrl_width(c, mm ? c->q.maximum : c->q.minimum),
					  "G_EXT_CTRLS %s on %s must give the %s (EX-19)", wn, c->q.name, mm ? "maximum" : "minimum");
			} else {
				expect_errno(e, EINVAL, "G_EXT_CTRLS %s on %s, which lacks HAS_WHICH_MIN_MAX (EX-19; 6.1 has no MIN/MAX)",
					     wn, c->q.name);
			}
			ext_free(&b);
			for (int r = 1; r < 3; r++) {
				ext_init(&b, which);
				int64_t v = 0;
				ctrl_get_scalar(cx->dev, c, &v);
				ext_add(&b, c, v);
				expect_errno(ext_do(cx->dev, ext_requests[r], &b), EINVAL, "%s %s on %s (EX-19: never settable)",
					     ext_req_name(ext_requests[r]), wn, c->q.name);
				ext_free(&b);
			}
		}
	}
	if (!tried)
		v_skip("no readable scalar control");
}

/* ---------- which = class (EX-10, EX-11) ---------- */

static void class_which(const struct check_ctx *cx)
{
	uint32_t cls[64];
	size_t ncls = classes_with_ctrl(cx->model, cls, 64), pairs = 0;
	for (size_t k = 0; k < ncls; k++) {
		const struct ctrl *pick[1];
		const struct ctrl *a = ext_pick_plain(cx->model, cls[k], NULL, 0, pick, 1) ? pick[0]
					: pick_readable(cx->model, NULL, cls[k]);
		const struct ctrl *f = NULL;
		for (size_t i = 0; i < cx->model->n && !f; i++)
			if (ext_readable_scalar(&cx->model->c[i]) && V4L2_CTRL_ID2WHICH(cx->model->c[i].q.id) != cls[k])
				f = &cx->model->c[i];
		if (!a)
			continue;
		int64_t va = 0, vf = 0, other = 0;
		expect_ok(ctrl_get_scalar(cx->dev, a, &va), "G of %s", a->q.name);

		/* Every id in the class: fine. */
		struct ext_batch b;
		ext_init(&b, cls[k]);
		ext_add(&b, a, va);
		expect_ok(ext_do(cx->dev, VIDIOC_G_EXT_CTRLS, &b), "G_EXT_CTRLS with which = class 0x%08x of %s (EX-10)",
			  cls[k], a->q.name);
		ext_free(&b);
		if (!f)
			continue;
		pairs++;
		expect_ok(ctrl_get_scalar(cx->dev, f, &vf), "G of %s", f->q.name);
		bool settable = ext_plain(a) && ctrl_other_value(a, va, &other);
		for (int r = 0; r < 3; r++) {
			ext_init(&b, cls[k]);
			ext_add(&b, a, r == 2 && settable ? other : va);
			ext_add(&b, f, vf);
			int e = ext_do(cx->dev, ext_requests[r], &b);
			expect_errno(e, EINVAL, "%s with which = class 0x%08x and %s of class 0x%08x at index 1 (EX-10)",
				     ext_req_name(ext_requests[r]), cls[k], f->q.name, (unsigned)V4L2_CTRL_ID2WHICH(f->q.id));
			uint32_t ei = b.cs.error_idx;
			if (ext_requests[r] == VIDIOC_TRY_EXT_CTRLS)
				ck_assert_msg(ei < 2, "TRY_EXT_CTRLS class mismatch: expected error_idx < count (the bad index), got %u (EX-10)",
					      ei);
			else if (ei != 2)
				ck_assert_msg(ei <= 2, "%s class mismatch: expected error_idx = count 2, got %u (EX-10)",
					      ext_req_name(ext_requests[r]), ei);
			if (ext_requests[r] != VIDIOC_TRY_EXT_CTRLS && ei != 2)
				v_warn("%s class mismatch gave error_idx %u; count (2) is preferred (EX-10)", ext_req_name(ext_requests[r]), ei);
			ext_free(&b);
		}
		if (settable) {
			int64_t now = 0;
			expect_ok(ctrl_get_scalar(cx->dev, a, &now), "G of %s", a->q.name);
			expect_eq(now, va, "%s must be unchanged after the refused S_EXT_CTRLS (class mismatch, EX-10/EX-12)",
				  a->q.name);
		}
	}
	if (!pairs)
		v_skip("the device has a single control class: no class mismatch to try");
}

/* ---------- error_idx for bad ids and access (EX-4, EX-5, EX-7, EX-8) ---------- */

static void unknown_ids(const struct check_ctx *cx)
{
	const struct ctrl *pick[1];
	const struct ctrl *a = ext_pick_plain(cx->model, 0, NULL, 0, pick, 1) ? pick[0] : pick_readable(cx->model, NULL, 0);
	for (int u = 0; u < 3; u++) {
		uint32_t bad = ext_unknown_id(cx->model, u);
		if (u && !bad)
			continue;
		int64_t va = 0, other = 0;
		if (a)
			expect_ok(ctrl_get_scalar(cx->dev, a, &va), "G of %s", a->q.name);
		bool settable = a && ext_plain(a) && ctrl_other_value(a, va, &other);
		for (int r = 0; r < 3; r++) {
			struct ext_batch b;
			ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
			if (a)
				ext_add(&b, a, r == 2 && settable ? other : va);
			ext_add_id(&b, bad);
			uint32_t n = b.count, idx = n - 1;
			int e = ext_do(cx->dev, ext_requests[r], &b);
			expect_errno(e, EINVAL, "%s with unknown id 0x%08x at index %u (EX-4)", ext_req_name(ext_requests[r]), bad, idx);
			uint32_t ei = b.cs.error_idx;
			if (ext_requests[r] == VIDIOC_TRY_EXT_CTRLS)
				expect_eq(ei, idx, "TRY_EXT_CTRLS unknown id 0x%08x: error_idx must be its index (EX-4)", bad);
			else if (ext_requests[r] == VIDIOC_S_EXT_CTRLS)
				expect_eq(ei, n, "S_EXT_CTRLS unknown id 0x%08x: error_idx must be count (EX-4, nothing applied)", bad);
			else if (ei != n) {
				ck_assert_msg(ei == idx, "G_EXT_CTRLS unknown id 0x%08x: expected error_idx = count %u (or its index %u), got %u (EX-4)",
					      bad, n, idx, ei);
				v_warn("G_EXT_CTRLS unknown id 0x%08x gave error_idx = index %u; count is preferred (EX-4)", bad, ei);
			}
			ext_free(&b);
		}
		if (settable) {
			int64_t now = 0;
			expect_ok(ctrl_get_scalar(cx->dev, a, &now), "G of %s", a->q.name);
			expect_eq(now, va, "%s must be unchanged after S_EXT_CTRLS failed on an unknown id (EX-12)", a->q.name);
		}
	}
}

static void private_base(const struct check_ctx *cx)
{
	static const uint32_t ids[] = { V4L2_CID_PRIVATE_BASE, V4L2_CID_PRIVATE_BASE + 1, V4L2_CID_PRIVATE_BASE + 0x100 };
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		int32_t alias = 0;
		bool aliased = ctrl_get_old(cx->dev, ids[i], &alias) == 0;
		for (int r = 0; r < 3; r++) {
			struct ext_batch b;
			ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
			ext_add_id(&b, ids[i])->value = alias;
			expect_errno(ext_do(cx->dev, ext_requests[r], &b), EINVAL,
				     "%s with the old-style private id 0x%08x%s (EX-5: aliases exist only for G/S_CTRL)",
				     ext_req_name(ext_requests[r]), ids[i], aliased ? ", which G_CTRL accepts as an alias" : "");
			ext_free(&b);
		}
	}
}

static void read_only(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	struct ctrl_val cur = { 0 }, now = { 0 };
	bool readable = ctrl_readable(&c->q);
	if (readable)
		expect_ok(ctrl_get(cx->dev, c, V4L2_CTRL_WHICH_CUR_VAL, &cur), "G_EXT_CTRLS of a read-only control");
	else
		ctrl_val_init(c, &cur);
	for (int r = 1; r < 3; r++) {
		struct ext_batch b;
		ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
		int64_t pcur[1];
		const struct ctrl *skip[1] = { c };
		size_t np = ext_add_changes(&b, cx->dev, cx->model, 0, skip, 1, 1, pcur);
		struct ctrl_val v;
		ctrl_val_copy(c, &v, &cur);
		if (!ctrl_has_payload(&c->q))
			v.v = cur.v;
		ext_add_val(&b, c, &v);
		ctrl_val_free(&v);
		uint32_t n = b.count, idx = n - 1;
		int e = ext_do(cx->dev, ext_requests[r], &b);
		expect_errno(e, EACCES, "%s on a read-only control at index %u (EX-8)", ext_req_name(ext_requests[r]), idx);
		if (ext_requests[r] == VIDIOC_TRY_EXT_CTRLS)
			expect_eq(b.cs.error_idx, idx, "TRY_EXT_CTRLS read-only: error_idx must be its index (EX-8)");
		else
			expect_eq(b.cs.error_idx, n, "S_EXT_CTRLS read-only: error_idx must be count (EX-8)");
		if (np) {
			int64_t pv = 0;
			expect_ok(ctrl_get_scalar(cx->dev, b.ctrl[0], &pv), "G of %s", b.ctrl[0]->q.name);
			expect_eq(pv, pcur[0], "%s (index 0) must be unchanged when S_EXT_CTRLS fails on a read-only control (EX-12)",
				  b.ctrl[0]->q.name);
		}
		ext_free(&b);
	}
	if (readable && !(c->q.flags & V4L2_CTRL_FLAG_VOLATILE)) {
		expect_ok(ctrl_get(cx->dev, c, V4L2_CTRL_WHICH_CUR_VAL, &now), "G_EXT_CTRLS after the refused set");
		ck_assert_msg(ctrl_val_equal(c, &now, &cur), "expected the read-only control's value unchanged by the refused set");
	}
	ctrl_val_free(&cur);
	ctrl_val_free(&now);
}

static void write_only(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	for (int pass = 0; pass < 2; pass++) {
		struct ext_batch b;
		ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
		const struct ctrl *p = pass ? pick_readable(cx->model, c, 0) : NULL;
		if (pass && !p)
			break;
		if (p)
			ext_add(&b, p, 0);
		ext_add(&b, c, 0);
		uint32_t n = b.count;
		expect_errno(ext_do(cx->dev, VIDIOC_G_EXT_CTRLS, &b), EACCES, "G_EXT_CTRLS on a write-only control at index %u (EX-7)",
			     n - 1);
		expect_eq(b.cs.error_idx, n, "G_EXT_CTRLS write-only: error_idx must be count (EX-7)");
		ext_free(&b);
	}
}

/* ---------- limits and bad pointers (EX-2, EX-3) ---------- */

static void count_limit(const struct check_ctx *cx)
{
	const struct ctrl *p = pick_readable(cx->model, NULL, 0);
	if (!p)
		v_skip("no readable scalar control to fill the array with");
	size_t n = 1025;
	struct v4l2_ext_control *arr = calloc(n, sizeof(*arr));
	for (size_t i = 0; i < n; i++)
		arr[i].id = p->q.id;
	for (int r = 0; r < 3; r++) {
		struct v4l2_ext_controls cs = { .which = 0, .count = 1025, .controls = arr, .error_idx = EXT_IDX_UNSET };
		expect_errno(dev_ioctl(cx->dev, ext_requests[r], &cs), EINVAL, "%s with count = 1025 > V4L2_CID_MAX_CTRLS (EX-2)",
			     ext_req_name(ext_requests[r]));
		ck_assert_msg(cs.error_idx == EXT_IDX_UNSET,
			      "%s count = 1025: expected the call refused before the driver ran (error_idx untouched), got error_idx %u (EX-2)",
			      ext_req_name(ext_requests[r]), cs.error_idx);
		struct v4l2_ext_controls big = { .which = 0, .count = 0xffffffffu, .controls = arr };
		expect_errno(dev_ioctl(cx->dev, ext_requests[r], &big), EINVAL, "%s with count = 0xffffffff (EX-2)", ext_req_name(ext_requests[r]));
		/* At the limit the count is accepted and the (bad) pointer is what fails. */
		struct v4l2_ext_controls lim = { .which = 0, .count = 1024, .controls = NULL };
		expect_errno(dev_ioctl(cx->dev, ext_requests[r], &lim), EFAULT,
			     "%s with count = 1024 (the limit, allowed) and a NULL array (EX-2, EX-3)", ext_req_name(ext_requests[r]));
	}
	free(arr);
}

static void bad_pointer(const struct check_ctx *cx)
{
	const struct ctrl *p = pick_readable(cx->model, NULL, 0);
	if (!p)
		v_skip("no readable scalar control");
	long pg = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, (size_t)pg * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert(map != MAP_FAILED);
	ck_assert(mprotect(map + pg, (size_t)pg, PROT_NONE) == 0);
	/* Entry 0 valid at the end of the readable page, entry 1 in the hole. */
	struct v4l2_ext_control *edge = (struct v4l2_ext_control *)(map + pg - sizeof(struct v4l2_ext_control));
	memset(edge, 0, sizeof(*edge));
	edge->id = p->q.id;
	struct { const char *what; void *ptr; uint32_t count; } cases[] = {
		{ "NULL", NULL, 1 }, { "0x8", (void *)8, 1 }, { "an unmapped page", map + pg, 1 },
		{ "an array running into an unmapped page", edge, 2 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (int r = 0; r < 3; r++) {
			struct v4l2_ext_controls cs = { .which = 0, .count = cases[i].count, .controls = cases[i].ptr };
			expect_errno(dev_ioctl(cx->dev, ext_requests[r], &cs), EFAULT, "%s with controls = %s, count %u (EX-3)",
				     ext_req_name(ext_requests[r]), cases[i].what, cases[i].count);
		}
	munmap(map, (size_t)pg * 2);
}

/* ---------- reserved fields (EX-17) ---------- */

static void reserved(const struct check_ctx *cx)
{
	const struct ctrl *pick[1];
	const struct ctrl *c = ext_pick_plain(cx->model, 0, NULL, 0, pick, 1) ? pick[0] : pick_readable(cx->model, NULL, 0);
	if (!c)
		v_skip("no readable scalar control");
	int64_t cur = 0, other = 0;
	expect_ok(ctrl_get_scalar(cx->dev, c, &cur), "G of %s", c->q.name);
	bool settable = ext_plain(c) && ctrl_other_value(c, cur, &other);
	for (int dirty = 0; dirty < 2; dirty++)
		for (int r = 0; r < 3; r++) {
			if (r && !settable)
				continue;
			struct v4l2_ext_control ec = { .id = c->q.id };
			struct v4l2_ext_controls cs = { .which = 0, .count = 1, .controls = &ec };
			if (c->q.type == V4L2_CTRL_TYPE_INTEGER64)
				ec.value64 = r ? other : 0;
			else
				ec.value = (int32_t)(r ? other : 0);
			if (dirty) {
				cs.reserved[0] = 0x5a5a5a5a;
				ec.reserved2[0] = 0xa5a5a5a5;
			}
			int e = dev_ioctl(cx->dev, ext_requests[r], &cs);
			int64_t got = c->q.type == V4L2_CTRL_TYPE_INTEGER64 ? ec.value64 : ec.value;
			if (!dirty) {
				expect_ok(e, "%s of %s", ext_req_name(ext_requests[r]), c->q.name);
				ck_assert_msg(cs.reserved[0] == 0 && ec.reserved2[0] == 0,
					      "%s: expected the reserved fields left at 0, got reserved 0x%x, reserved2 0x%x (EX-17: drivers must not write them)",
					      ext_req_name(ext_requests[r]), cs.reserved[0], ec.reserved2[0]);
			} else if (e == EINVAL) {
				v_info("%s with non-zero reserved fields: EINVAL", ext_req_name(ext_requests[r]));
			} else {
				expect_ok(e, "%s with non-zero reserved fields (EX-17: success or EINVAL)", ext_req_name(ext_requests[r]));
			}
			if (e)
				continue;
			if (r == 0)
				expect_eq(got, cur, "G_EXT_CTRLS value%s", dirty ? " with non-zero reserved fields" : "");
			if (r == 2) {
				int64_t now = 0;
				expect_ok(ctrl_get_scalar(cx->dev, c, &now), "G of %s", c->q.name);
				expect_eq(now, other, "the value S_EXT_CTRLS set%s", dirty ? " with non-zero reserved fields" : "");
				if (!dirty) {
					int64_t back = cur;
					expect_ok(ctrl_set_scalar(cx->dev, c, &back), "setting %s back", c->q.name);
				}
			}
		}
}

/* ---------- everything at once (EX-11, SC-15) ---------- */

static bool gettable(const struct ctrl *c)
{
	return ctrl_readable(&c->q) && !(c->q.flags & V4L2_CTRL_FLAG_DISABLED) && ctrl_type_known(c->q.type);
}

static void get_all(const struct check_ctx *cx)
{
	struct ext_batch b;
	ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
	for (size_t i = 0; i < cx->model->n; i++)
		if (gettable(&cx->model->c[i]))
			ext_add(&b, &cx->model->c[i], 0);
	if (!b.count)
		v_skip("no readable control");
	expect_ok(ext_do(cx->dev, VIDIOC_G_EXT_CTRLS, &b), "G_EXT_CTRLS of all %u readable controls at once (mixed classes, EX-11)",
		  b.count);
	char bad[1024] = "";
	size_t o = 0;
	int nbad = 0;
	for (uint32_t i = 0; i < b.count; i++) {
		const struct ctrl *c = b.ctrl[i];
		if (c->q.flags & V4L2_CTRL_FLAG_VOLATILE)
			continue;
		struct ctrl_val one = { 0 }, all;
		int e;
		if (ctrl_is_scalar_int32(&c->q)) {
			int32_t v = 0;
			e = ctrl_get_old(cx->dev, c->q.id, &v);
			one.v = v;
		} else {
			e = ctrl_get(cx->dev, c, V4L2_CTRL_WHICH_CUR_VAL, &one);
		}
		ext_val(&b, i, &all);
		if (e || !ctrl_val_equal(c, &one, &all)) {
			char s1[64], s2[64];
			ctrl_val_str(c, &all, s1, sizeof(s1));
			ctrl_val_str(c, &one, s2, sizeof(s2));
			nbad++;
			if (o < sizeof(bad))
				o += snprintf(bad + o, sizeof(bad) - o, "%s%s: all-at-once %s, alone %s%s", o ? "; " : "", c->q.name,
					      s1, e ? errno_name(e) : s2, ctrl_is_scalar_int32(&c->q) ? " (G_CTRL)" : "");
		}
		ctrl_val_free(&one);
		ctrl_val_free(&all);
	}
	ext_free(&b);
	if (nbad)
		ck_abort_msg("expected G_EXT_CTRLS of everything to agree with G_CTRL / single G_EXT_CTRLS, got %d mismatches: %s (SC-15)",
			     nbad, bad);
	/* Per class with which = class: the same values. */
	uint32_t cls[64];
	size_t ncls = classes_with_ctrl(cx->model, cls, 64);
	for (size_t k = 0; k < ncls; k++) {
		ext_init(&b, cls[k]);
		for (size_t i = 0; i < cx->model->n; i++)
			if (gettable(&cx->model->c[i]) && V4L2_CTRL_ID2WHICH(cx->model->c[i].q.id) == cls[k])
				ext_add(&b, &cx->model->c[i], 0);
		if (b.count)
			expect_ok(ext_do(cx->dev, VIDIOC_G_EXT_CTRLS, &b), "G_EXT_CTRLS with which = class 0x%08x of its %u readable controls (EX-10)",
				  cls[k], b.count);
		ext_free(&b);
	}
}

static bool settable_any(const struct ctrl *c)
{
	return ctrl_settable_scalar(c) || ext_payload_rw(c);
}

static void set_all(const struct check_ctx *cx)
{
	struct ext_batch b;
	struct snapshot s;
	ext_snapshot_take(cx, &s);
	ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
	for (size_t i = 0; i < cx->model->n; i++) {
		const struct ctrl *c = &cx->model->c[i];
		if (!settable_any(c))
			continue;
		/* EX-11: an inactive control may be refused (FL-5): left out. */
		struct v4l2_queryctrl qc = { .id = c->q.id };
		if (dev_ioctl(cx->dev, VIDIOC_QUERYCTRL, &qc) == 0 && (qc.flags & V4L2_CTRL_FLAG_INACTIVE))
			continue;
		struct ctrl_val v = { 0 };
		if (ctrl_get(cx->dev, c, V4L2_CTRL_WHICH_CUR_VAL, &v) == 0)
			ext_add_val(&b, c, &v);
		ctrl_val_free(&v);
	}
	if (!b.count)
		v_skip("no settable control");
	for (int r = 1; r < 3; r++) {
		int e = ext_do(cx->dev, ext_requests[r], &b);
		ck_assert_msg(!e, "%s of all %u settable controls with their current values (mixed classes): expected success, got %s at error_idx %u (%s) (EX-11)",
			      ext_req_name(ext_requests[r]), b.count, errno_name(e), b.cs.error_idx,
			      b.cs.error_idx < b.count ? b.ctrl[b.cs.error_idx]->q.name : "-");
	}
	ext_expect_unchanged(cx, &s, "S_EXT_CTRLS of every control with its current value");
	ext_free(&b);
	/* Now a real change of every plain control in one call. */
	ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
	size_t n = ext_add_changes(&b, cx->dev, cx->model, 0, NULL, 0, 16, NULL);
	int e = n ? ext_do(cx->dev, VIDIOC_S_EXT_CTRLS, &b) : 0;
	if (e == EACCES) {
		/* Switching an auto control on in the same call makes its manual
		 * controls inactive, which a driver may refuse (FL-5; uvcvideo
		 * does): the same changes without the boolean and menu controls
		 * (the auto switches). */
		const struct ctrl *skip[64];
		size_t nskip = 0;
		for (size_t i = 0; i < b.count && nskip < 64; i++)
			if (b.ctrl[i]->q.type == V4L2_CTRL_TYPE_BOOLEAN || ctrl_type_is_menu(b.ctrl[i]->q.type))
				skip[nskip++] = b.ctrl[i];
		ext_free(&b);
		ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
		n = ext_add_changes(&b, cx->dev, cx->model, 0, skip, nskip, 16, NULL);
		v_info("EACCES with the auto controls switched in the same call (FL-5); again without them");
		e = n ? ext_do(cx->dev, VIDIOC_S_EXT_CTRLS, &b) : 0;
	}
	if (n) {
		expect_ok(e, "S_EXT_CTRLS changing %zu controls of mixed classes at once (EX-11)", n);
		for (size_t i = 0; i < n; i++) {
			int64_t now = 0;
			expect_ok(ctrl_get_scalar(cx->dev, b.ctrl[i], &now), "G of %s", b.ctrl[i]->q.name);
			expect_eq(ext_as_ctrl_width(b.ctrl[i], now), ext_as_ctrl_width(b.ctrl[i], ext_scalar(&b, i)),
				  "%s after the S_EXT_CTRLS of many controls (the written-back value, EX-15)", b.ctrl[i]->q.name);
		}
	}
	ext_free(&b);
	snapshot_free(&s);
}

/* ---------- applicability ---------- */

#define APPLIES(fn, expr) \
	static bool fn(const struct ctrl *c, const struct ctrl_model *m, const char **why) { return (expr); }

APPLIES(is_def_val_target, gettable(c) && c->have_qext)
APPLIES(is_read_only, (c->q.flags & V4L2_CTRL_FLAG_READ_ONLY) && !(c->q.flags & V4L2_CTRL_FLAG_DISABLED) &&
	ctrl_type_known(c->q.type))
APPLIES(is_write_only, !ctrl_readable(&c->q) && !(c->q.flags & V4L2_CTRL_FLAG_DISABLED) && ctrl_type_known(c->q.type))
APPLIES(is_int64, c->q.type == V4L2_CTRL_TYPE_INTEGER64 && ctrl_settable_scalar(c) && !ctrl_is_compound(&c->q))

static bool is_clampable(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	const struct v4l2_query_ext_ctrl *q = &c->q;
	if (!c->have_qext || !ctrl_settable_int32(c) ||
	    (q->type != V4L2_CTRL_TYPE_INTEGER && q->type != V4L2_CTRL_TYPE_BOOLEAN && q->type != V4L2_CTRL_TYPE_BITMASK))
		return false;
	if (q->type == V4L2_CTRL_TYPE_INTEGER && q->minimum <= INT32_MIN && q->maximum >= INT32_MAX && q->step <= 1) {
		*why = "every s32 value is valid: nothing to clamp or round";
		return false;
	}
	return true;
}

static bool try_applies(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	if (!c->have_qext)
		return false;
	if (ctrl_settable_scalar(c))
		return true;
	if (ext_payload_rw(c)) {
		if (payload_can_generate(c))
			return true;
		*why = "no generator for this compound type's values";
	}
	return false;
}

static const struct check_def checks[] = {
	{ "ext/count-zero", "EX-1", "count = 0 succeeds for which = 0 and an existing class, EINVAL for a missing class",
	  CHECK_PER_DEVICE, count_zero, .needs = NEEDS_CTRLS },
	{ "ext/def-val-empty", "EX-18", "which = DEF_VAL with count = 0: G succeeds, S and TRY give EINVAL with error_idx = count",
	  CHECK_PER_DEVICE, def_val_empty, .needs = NEEDS_EXT },
	{ "ext/def-val", "EX-18", "G with DEF_VAL gives the default; S/TRY with DEF_VAL give EINVAL, error_idx = count, nothing changes",
	  CHECK_PER_CONTROL, def_val, is_def_val_target, .needs = NEEDS_EXT },
	{ "ext/unknown-which", "EX-20", "an unknown which value gives EINVAL (count 0 and 1, G/TRY/S)",
	  CHECK_PER_DEVICE, unknown_which, .needs = NEEDS_EXT },
	{ "ext/min-max-which", "EX-19", "which = MIN_VAL/MAX_VAL works only with HAS_WHICH_MIN_MAX (never on 6.1); S/TRY refused",
	  CHECK_PER_DEVICE, min_max_which, .needs = NEEDS_EXT },
	{ "ext/class-which", "EX-10", "which = class accepts its own controls; a control of another class gives EINVAL with the right error_idx",
	  CHECK_PER_DEVICE, class_which, .needs = NEEDS_EXT },
	{ "ext/unknown-id", "EX-4", "an unknown id gives EINVAL; error_idx = count for G and S, its index for TRY; nothing applied",
	  CHECK_PER_DEVICE, unknown_ids, .needs = NEEDS_EXT },
	{ "ext/private-base", "EX-5", "old-style PRIVATE_BASE ids are refused by the extended ioctls",
	  CHECK_PER_DEVICE, private_base, .needs = NEEDS_EXT },
	{ "ext/read-only", "EX-8", "TRY/S on a read-only control give EACCES (error_idx index / count); nothing applied",
	  CHECK_PER_CONTROL, read_only, is_read_only, .needs = NEEDS_EXT },
	{ "ext/write-only", "EX-7", "G on a write-only control gives EACCES with error_idx = count",
	  CHECK_PER_CONTROL, write_only, is_write_only, .needs = NEEDS_EXT },
	{ "ext/atomic", "EX-12", "S with valid changes and one invalid entry fails with error_idx = count and changes nothing",
	  CHECK_PER_ITEM, ext_atomic, NULL, ext_atomic_items, .needs = NEEDS_EXT },
	{ "ext/partial", "EX-13", "an invalid payload found while applying: controls may change only when error_idx < count",
	  CHECK_PER_ITEM, ext_partial, NULL, ext_partial_items, .needs = NEEDS_EXT },
	{ "ext/try-no-change", "EX-14", "TRY returns the adjusted value and never changes the current value",
	  CHECK_PER_CONTROL, ext_try_no_change, try_applies, .needs = NEEDS_EXT },
	{ "ext/clamp-agrees", "VA-1", "clamping, rounding and masking through S_EXT/TRY agree with S_CTRL",
	  CHECK_PER_CONTROL, ext_clamp_agrees, is_clampable, .needs = NEEDS_EXT },
	{ "ext/int64", "EX-21", "64-bit values over the whole range through value64, all 64 bits kept",
	  CHECK_PER_CONTROL, ext_int64_range, is_int64, .needs = NEEDS_EXT },
	{ "ext/duplicate-id", "EX-16", "the same control twice in one call: the last value wins (or EINVAL, nothing applied)",
	  CHECK_PER_DEVICE, ext_duplicate_id, .needs = NEEDS_EXT },
	{ "ext/count-limit", "EX-2", "count > 1024 gives EINVAL before the driver runs; 1024 is accepted",
	  CHECK_PER_DEVICE, count_limit, .needs = NEEDS_EXT },
	{ "ext/bad-pointer", "EX-3", "an invalid controls pointer gives EFAULT",
	  CHECK_PER_DEVICE, bad_pointer, .needs = NEEDS_EXT },
	{ "ext/reserved", "EX-17", "drivers leave reserved fields alone; non-zero ones are ignored or refused with EINVAL",
	  CHECK_PER_DEVICE, reserved, .needs = NEEDS_EXT },
	{ "ext/get-all", "SC-15", "G_EXT_CTRLS of every readable control at once works and agrees with G_CTRL",
	  CHECK_PER_DEVICE, get_all, .needs = NEEDS_EXT },
	{ "ext/set-all", "EX-11", "TRY/S of every settable control at once (mixed classes) succeed",
	  CHECK_PER_DEVICE, set_all, .needs = NEEDS_EXT },
};
SUITE(suite_ext, "ext", "G/S/TRY_EXT_CTRLS", checks);
