/* VIDIOC_G/S/TRY_EXT_CTRLS: `which`, count, error_idx, atomicity, TRY,
 * clamping through the extended path, 64-bit values, duplicates, limits
 * and bad arguments (spec section 4, values per section 5). Strings and
 * arrays are in suite_payload.c. */
#include "ctrl_payload.h"
#include "ctrl_select.h"
#include "ctrl_snapshot.h"
#include "ctrl_type.h"
#include "ctrl_value.h"
#include "fw_value.h"
#include "ext_ctrls.h"
#include "registry.h"
#include "verdict.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const unsigned long reqs[3] = { VIDIOC_G_EXT_CTRLS, VIDIOC_TRY_EXT_CTRLS, VIDIOC_S_EXT_CTRLS };

/* ---------- helpers ---------- */

static bool readable_scalar(const struct ctrl *c)
{
	return ctrl_readable(&c->q) && !ctrl_has_payload(&c->q) && ctrl_type_known(c->q.type) &&
	       !(c->q.flags & V4L2_CTRL_FLAG_DISABLED);
}

/* A readable scalar control other than skip, non-volatile when possible. */
static const struct ctrl *pick_readable(const struct ctrl_model *m, const struct ctrl *skip, uint32_t cls)
{
	const struct ctrl *vol = NULL;
	for (size_t i = 0; i < m->n; i++) {
		const struct ctrl *c = &m->c[i];
		if (c == skip || !readable_scalar(c) || (cls && V4L2_CTRL_ID2WHICH(c->q.id) != cls))
			continue;
		if (!(c->q.flags & V4L2_CTRL_FLAG_VOLATILE))
			return c;
		if (!vol)
			vol = c;
	}
	return vol;
}

static void snap_or_fail(const struct check_ctx *cx, struct snapshot *s)
{
	snapshot_take(cx->dev, cx->model, s);
}

/* Fails naming the controls that changed since the snapshot. */
static void expect_unchanged(const struct check_ctx *cx, const struct snapshot *s, const char *what)
{
	char rep[1024];
	int n = snapshot_diff(cx->dev, cx->model, s, rep, sizeof(rep));
	if (n)
		ck_abort_msg("expected no control to change after %s, got %d changed: %s", what, n, rep);
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

/* An id that is not a control: a hole in the user class, else id 0. */
static uint32_t unknown_id(const struct ctrl_model *m, int which)
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

static int64_t as32(const struct ctrl *c, int64_t v)
{
	return c->q.type == V4L2_CTRL_TYPE_INTEGER64 ? v : (int64_t)(int32_t)v;
}

/* ---------- count = 0, which (EX-1, EX-18, EX-19, EX-20) ---------- */

static void count_zero(const struct check_ctx *cx)
{
	uint32_t cls[64];
	size_t ncls = classes_with_ctrl(cx->model, cls, 64);
	for (int r = 0; r < 3; r++) {
		struct v4l2_ext_controls cs = { .which = V4L2_CTRL_WHICH_CUR_VAL };
		expect_ok(dev_ioctl(cx->dev, reqs[r], &cs), "%s with which = CUR_VAL and count = 0 (EX-1)",
			  ext_req_name(reqs[r]));
		ck_assert_msg(cs.which == 0 && cs.count == 0 && cs.reserved[0] == 0,
			      "%s count = 0: expected which, count and reserved left at 0, got which 0x%x count %u reserved 0x%x (EX-1)",
			      ext_req_name(reqs[r]), cs.which, cs.count, cs.reserved[0]);
		for (size_t k = 0; k < ncls; k++) {
			struct v4l2_ext_controls cc = { .which = cls[k] };
			expect_ok(dev_ioctl(cx->dev, reqs[r], &cc), "%s with which = class 0x%08x (it exists) and count = 0 (EX-1)",
				  ext_req_name(reqs[r]), cls[k]);
			ck_assert_msg(cc.which == cls[k] && cc.count == 0,
				      "%s count = 0: expected which 0x%08x and count 0 unchanged, got 0x%x and %u (EX-1)",
				      ext_req_name(reqs[r]), cls[k], cc.which, cc.count);
		}
		uint32_t none = unused_class(cx->model);
		struct v4l2_ext_controls cn = { .which = none };
		expect_errno(dev_ioctl(cx->dev, reqs[r], &cn), EINVAL,
			     "%s with which = class 0x%08x, which the device does not have, and count = 0 (EX-1)",
			     ext_req_name(reqs[r]), none);
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
		expect_errno(dev_ioctl(cx->dev, reqs[r], &c2), EINVAL,
			     "%s with which = DEF_VAL and count = 0: defaults cannot be changed (EX-18)", ext_req_name(reqs[r]));
		expect_eq(c2.error_idx, 0, "%s DEF_VAL count = 0: error_idx must be count (EX-18)", ext_req_name(reqs[r]));
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
		expect_eq(as32(c, def.v), as32(c, q->default_value),
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
		int e = ext_do(cx->dev, reqs[r], &b);
		expect_errno(e, EINVAL, "%s with which = DEF_VAL: defaults cannot be changed (EX-18)", ext_req_name(reqs[r]));
		expect_eq(b.cs.error_idx, 1, "%s with which = DEF_VAL: error_idx must be count (EX-18)", ext_req_name(reqs[r]));
		ext_free(&b);
		ctrl_val_free(&other);
		if (compare) {
			expect_ok(ctrl_get(cx->dev, c, V4L2_CTRL_WHICH_CUR_VAL, &after), "G_EXT_CTRLS after the refused %s",
				  ext_req_name(reqs[r]));
			if (!ctrl_val_equal(c, &after, &cur)) {
				ctrl_val_str(c, &after, buf, sizeof(buf));
				ck_abort_msg("expected the current value unchanged by the refused %s DEF_VAL, got %s (EX-18)",
					     ext_req_name(reqs[r]), buf);
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
			expect_errno(dev_ioctl(cx->dev, reqs[r], &cs), EINVAL, "%s with unknown which 0x%08x, count = 0 (EX-20)",
				     ext_req_name(reqs[r]), whichs[w]);
			if (!p)
				continue;
			struct ext_batch b;
			ext_init(&b, whichs[w]);
			int64_t v = 0;
			ctrl_get_scalar(cx->dev, p, &v);
			ext_add(&b, p, v);
			expect_errno(ext_do(cx->dev, reqs[r], &b), EINVAL, "%s with unknown which 0x%08x on %s (EX-20)",
				     ext_req_name(reqs[r]), whichs[w], p->q.name);
			ext_free(&b);
		}
}

/* MIN_VAL/MAX_VAL: only for controls with HAS_WHICH_MIN_MAX (mainline);
 * 6.1 knows neither, so both are unknown `which` values there. */
#define WHICH_MIN_VAL 0x0f020000u
#define WHICH_MAX_VAL 0x0f030000u
#define FLAG_HAS_WHICH_MIN_MAX 0x1000u

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
		if (any)
			expect_ok(e, "G_EXT_CTRLS %s with count = 0 on a device with HAS_WHICH_MIN_MAX controls (EX-19)", wn);
		else
			expect_errno(e, EINVAL, "G_EXT_CTRLS %s with count = 0: no control has HAS_WHICH_MIN_MAX (EX-19)", wn);
		for (size_t i = 0; i < cx->model->n; i++) {
			const struct ctrl *c = &cx->model->c[i];
			if (!readable_scalar(c))
				continue;
			tried++;
			struct ext_batch b;
			ext_init(&b, which);
			ext_add(&b, c, 0);
			e = ext_do(cx->dev, VIDIOC_G_EXT_CTRLS, &b);
			if (c->q.flags & FLAG_HAS_WHICH_MIN_MAX) {
				expect_ok(e, "G_EXT_CTRLS %s on %s, which has HAS_WHICH_MIN_MAX (EX-19)", wn, c->q.name);
				expect_eq(as32(c, ext_scalar(&b, 0)), as32(c, mm ? c->q.maximum : c->q.minimum),
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
				expect_errno(ext_do(cx->dev, reqs[r], &b), EINVAL, "%s %s on %s (EX-19: never settable)",
					     ext_req_name(reqs[r]), wn, c->q.name);
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
			if (readable_scalar(&cx->model->c[i]) && V4L2_CTRL_ID2WHICH(cx->model->c[i].q.id) != cls[k])
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
			int e = ext_do(cx->dev, reqs[r], &b);
			expect_errno(e, EINVAL, "%s with which = class 0x%08x and %s of class 0x%08x at index 1 (EX-10)",
				     ext_req_name(reqs[r]), cls[k], f->q.name, (unsigned)V4L2_CTRL_ID2WHICH(f->q.id));
			uint32_t ei = b.cs.error_idx;
			if (reqs[r] == VIDIOC_TRY_EXT_CTRLS)
				ck_assert_msg(ei < 2, "TRY_EXT_CTRLS class mismatch: expected error_idx < count (the bad index), got %u (EX-10)",
					      ei);
			else if (ei != 2)
				ck_assert_msg(ei <= 2, "%s class mismatch: expected error_idx = count 2, got %u (EX-10)",
					      ext_req_name(reqs[r]), ei);
			if (reqs[r] != VIDIOC_TRY_EXT_CTRLS && ei != 2)
				v_warn("%s class mismatch gave error_idx %u; count (2) is preferred (EX-10)", ext_req_name(reqs[r]), ei);
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
		uint32_t bad = unknown_id(cx->model, u);
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
			int e = ext_do(cx->dev, reqs[r], &b);
			expect_errno(e, EINVAL, "%s with unknown id 0x%08x at index %u (EX-4)", ext_req_name(reqs[r]), bad, idx);
			uint32_t ei = b.cs.error_idx;
			if (reqs[r] == VIDIOC_TRY_EXT_CTRLS)
				expect_eq(ei, idx, "TRY_EXT_CTRLS unknown id 0x%08x: error_idx must be its index (EX-4)", bad);
			else if (reqs[r] == VIDIOC_S_EXT_CTRLS)
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
			expect_errno(ext_do(cx->dev, reqs[r], &b), EINVAL,
				     "%s with the old-style private id 0x%08x%s (EX-5: aliases exist only for G/S_CTRL)",
				     ext_req_name(reqs[r]), ids[i], aliased ? ", which G_CTRL accepts as an alias" : "");
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
		int e = ext_do(cx->dev, reqs[r], &b);
		expect_errno(e, EACCES, "%s on a read-only control at index %u (EX-8)", ext_req_name(reqs[r]), idx);
		if (reqs[r] == VIDIOC_TRY_EXT_CTRLS)
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

/* ---------- atomicity (EX-12, EX-13) ---------- */

enum bad_kind { BAD_UNKNOWN, BAD_READ_ONLY, BAD_MENU_SKIPPED, BAD_MENU_RANGE, BAD_PAYLOAD_SIZE, BAD_CLASS, BAD_N };
static const char *const bad_names[] = { "unknown-id", "read-only", "menu-skipped-item", "menu-out-of-range",
					 "payload-size", "class-mismatch" };

static const struct ctrl *bad_ctrl(const struct ctrl_model *m, enum bad_kind k)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct ctrl *c = &m->c[i];
		switch (k) {
		case BAD_READ_ONLY:
			if ((c->q.flags & V4L2_CTRL_FLAG_READ_ONLY) && c->q.type != V4L2_CTRL_TYPE_CTRL_CLASS &&
			    !(c->q.flags & V4L2_CTRL_FLAG_DISABLED) && !ctrl_has_payload(&c->q))
				return c;
			break;
		case BAD_MENU_SKIPPED:
			if (ctrl_type_is_menu(c->q.type) && ctrl_settable_scalar(c) && ctrl_menu_first_skipped(c) >= 0)
				return c;
			break;
		case BAD_MENU_RANGE:
			if (ctrl_type_is_menu(c->q.type) && ctrl_settable_scalar(c) && c->q.maximum < INT32_MAX)
				return c;
			break;
		case BAD_PAYLOAD_SIZE:
			if (ext_payload_rw(c) && c->q.type != V4L2_CTRL_TYPE_STRING &&
			    !(c->q.flags & V4L2_CTRL_FLAG_DYNAMIC_ARRAY) && c->q.elem_size * c->q.elems > 1)
				return c;
			break;
		default:
			return NULL;
		}
	}
	return NULL;
}

static bool bad_available(const struct ctrl_model *m, enum bad_kind k)
{
	const struct ctrl *pick[2];
	if (k == BAD_UNKNOWN)
		return ext_pick_plain(m, 0, NULL, 0, pick, 1) > 0;
	if (k == BAD_CLASS) {
		/* A plain control in one class and any control in another. */
		if (!ext_pick_plain(m, 0, NULL, 0, pick, 1))
			return false;
		for (size_t i = 0; i < m->n; i++)
			if (readable_scalar(&m->c[i]) && V4L2_CTRL_ID2WHICH(m->c[i].q.id) != V4L2_CTRL_ID2WHICH(pick[0]->q.id))
				return true;
		return false;
	}
	const struct ctrl *b = bad_ctrl(m, k);
	return b && ext_pick_plain(m, 0, &b, 1, pick, 1) > 0;
}

static bool atomic_items(const struct ctrl_model *m, long i, char *slug, size_t len)
{
	long n = 0;
	for (int k = 0; k < BAD_N; k++)
		if (bad_available(m, (enum bad_kind)k) && n++ == i) {
			snprintf(slug, len, "%s", bad_names[k]);
			return true;
		}
	return false;
}

static enum bad_kind atomic_kind(const struct check_ctx *cx)
{
	long n = 0;
	for (int k = 0; k < BAD_N; k++)
		if (bad_available(cx->model, (enum bad_kind)k) && n++ == cx->item)
			return (enum bad_kind)k;
	ck_abort_msg("no such item");
	return BAD_N;
}

static void atomic(const struct check_ctx *cx)
{
	enum bad_kind k = atomic_kind(cx);
	const struct ctrl *bad = bad_ctrl(cx->model, k);
	struct snapshot s;
	struct ext_batch b;
	uint32_t cls = 0;
	int want[3] = { 0 };
	const char *what = bad_names[k];
	if (k == BAD_CLASS) {
		const struct ctrl *pick[1];
		ext_pick_plain(cx->model, 0, NULL, 0, pick, 1);
		cls = V4L2_CTRL_ID2WHICH(pick[0]->q.id);
	}
	snap_or_fail(cx, &s);
	ext_init(&b, cls ? cls : V4L2_CTRL_WHICH_CUR_VAL);
	size_t np = ext_add_changes(&b, cx->dev, cx->model, cls, bad ? &bad : NULL, bad ? 1 : 0, 4, NULL);
	ck_assert_msg(np > 0, "no control whose value can be changed");
	switch (k) {
	case BAD_UNKNOWN:
		ext_add_id(&b, unknown_id(cx->model, 0));
		want[0] = EINVAL;
		break;
	case BAD_READ_ONLY: {
		int64_t v = 0;
		if (ctrl_readable(&bad->q))
			ctrl_get_scalar(cx->dev, bad, &v);
		ext_add(&b, bad, v);
		want[0] = EACCES;
		break;
	}
	case BAD_MENU_SKIPPED:
		ext_add(&b, bad, ctrl_menu_first_skipped(bad));
		want[0] = EINVAL;
		break;
	case BAD_MENU_RANGE:
		ext_add(&b, bad, bad->q.maximum + 1);
		want[0] = ERANGE;
		break;
	case BAD_PAYLOAD_SIZE: {
		uint32_t need = bad->q.elem_size * bad->q.elems;
		ext_add_sized(&b, bad, need - 1, need);
		want[0] = EFAULT, want[1] = EINVAL, want[2] = ENOSPC;	/* AR-2 */
		break;
	}
	case BAD_CLASS:
		for (size_t i = 0; i < cx->model->n; i++) {
			const struct ctrl *c = &cx->model->c[i];
			if (readable_scalar(c) && V4L2_CTRL_ID2WHICH(c->q.id) != cls) {
				int64_t v = 0;
				ctrl_get_scalar(cx->dev, c, &v);
				ext_add(&b, c, v);
				break;
			}
		}
		want[0] = EINVAL;
		break;
	default:
		break;
	}
	uint32_t n = b.count;
	int e = ext_do(cx->dev, VIDIOC_S_EXT_CTRLS, &b);
	char msg[200];
	snprintf(msg, sizeof(msg), "S_EXT_CTRLS of %zu valid changes followed by a %s entry", np, what);
	ck_assert_msg(e == want[0] || (want[1] && e == want[1]) || (want[2] && e == want[2]),
		      "%s: expected %s%s%s%s%s, got %s (EX-12)", msg, errno_name(want[0]), want[1] ? " or " : "",
		      want[1] ? errno_name(want[1]) : "", want[2] ? " or " : "", want[2] ? errno_name(want[2]) : "",
		      errno_name(e));
	ck_assert_msg(b.cs.error_idx == n,
		      "%s: expected error_idx = count %u (a validation error: nothing applied), got %u (EX-12)", msg, n,
		      b.cs.error_idx);
	expect_unchanged(cx, &s, msg);
	ext_free(&b);
	snapshot_free(&s);
}

/* Payload contents are checked per cluster while applying: a driver may
 * apply earlier controls, but then must say so with error_idx < count. */
enum partial_kind { PART_STRING_LONG, PART_STRING_SHORT, PART_AREA_ZERO, PART_N };
static const char *const part_names[] = { "string-too-long", "string-too-short", "area-zero" };

static const struct ctrl *partial_ctrl(const struct ctrl_model *m, enum partial_kind k)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct ctrl *c = &m->c[i];
		if (!ext_payload_rw(c))
			continue;
		if (k == PART_STRING_LONG && c->q.type == V4L2_CTRL_TYPE_STRING && c->q.maximum < 4096)
			return c;
		if (k == PART_STRING_SHORT && c->q.type == V4L2_CTRL_TYPE_STRING && c->q.minimum > 0)
			return c;
		if (k == PART_AREA_ZERO && c->q.type == V4L2_CTRL_TYPE_AREA)
			return c;
	}
	return NULL;
}

static bool partial_items(const struct ctrl_model *m, long i, char *slug, size_t len)
{
	long n = 0;
	const struct ctrl *pick[1];
	if (!ext_pick_plain(m, 0, NULL, 0, pick, 1))
		return false;
	for (int k = 0; k < PART_N; k++)
		if (partial_ctrl(m, (enum partial_kind)k) && n++ == i) {
			snprintf(slug, len, "%s", part_names[k]);
			return true;
		}
	return false;
}

static void partial(const struct check_ctx *cx)
{
	long n = 0;
	enum partial_kind k = PART_N;
	for (int j = 0; j < PART_N; j++)
		if (partial_ctrl(cx->model, (enum partial_kind)j) && n++ == cx->item)
			k = (enum partial_kind)j;
	ck_assert(k != PART_N);
	const struct ctrl *bad = partial_ctrl(cx->model, k);
	struct snapshot s;
	snap_or_fail(cx, &s);
	struct ext_batch b;
	ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
	size_t np = ext_add_changes(&b, cx->dev, cx->model, 0, &bad, 1, 3, NULL);
	struct v4l2_ext_control *e;
	switch (k) {
	case PART_STRING_LONG:
		e = ext_add_sized(&b, bad, bad->q.elem_size + 8, bad->q.elem_size + 8);
		memset(e->string, 'x', bad->q.elem_size);	/* max+1 characters, NUL after them */
		break;
	case PART_STRING_SHORT:
		e = ext_add_sized(&b, bad, bad->q.elem_size, bad->q.elem_size);
		memset(e->string, 'x', (size_t)bad->q.minimum - 1);
		break;
	default: {
		e = ext_add_sized(&b, bad, sizeof(struct v4l2_area), sizeof(struct v4l2_area));
		struct v4l2_area a = { .width = 0, .height = 480 };
		memcpy(e->ptr, &a, sizeof(a));
		break;
	}
	}
	uint32_t cnt = b.count;
	int err = ext_do(cx->dev, VIDIOC_S_EXT_CTRLS, &b);
	char msg[200];
	snprintf(msg, sizeof(msg), "S_EXT_CTRLS of %zu valid changes then an invalid %s (%s)", np, part_names[k], bad->q.name);
	ck_assert_msg(err != 0, "%s: expected an error, got success (%s)", msg,
		      k == PART_AREA_ZERO ? "VA-7" : k == PART_STRING_LONG ? "ST-3" : "ST-4");
	uint32_t ei = b.cs.error_idx;
	ck_assert_msg(ei <= cnt, "%s: expected error_idx <= count %u, got %u (EX-13)", msg, cnt, ei);
	char rep[1024];
	int changed = snapshot_diff(cx->dev, cx->model, &s, rep, sizeof(rep));
	if (ei == cnt) {
		if (changed)
			ck_abort_msg("%s failed with error_idx = count (nothing applied), but %d control(s) changed: %s (EX-13)", msg,
				     changed, rep);
		v_info("%s: validated up front (error_idx = count, nothing changed)", errno_name(err));
	} else {
		v_info("%s: error_idx %u < count %u, %d control(s) applied before it%s%s", errno_name(err), ei, cnt, changed,
		       changed ? ": " : "", changed ? rep : "");
	}
	ext_free(&b);
	snapshot_free(&s);
}

/* ---------- TRY (EX-14) ---------- */

static void try_scalar(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	const struct v4l2_query_ext_ctrl *q = &c->q;
	int64_t cur = 0, other;
	expect_ok(ctrl_get_scalar(cx->dev, c, &cur), "G of the current value");
	int64_t reqv[6];
	size_t nr = 0;
	if (ctrl_other_value(c, cur, &other))
		reqv[nr++] = other;
	if (q->type == V4L2_CTRL_TYPE_INTEGER || q->type == V4L2_CTRL_TYPE_INTEGER64) {
		int64_t lo = q->type == V4L2_CTRL_TYPE_INTEGER ? INT32_MIN : INT64_MIN;
		int64_t hi = q->type == V4L2_CTRL_TYPE_INTEGER ? INT32_MAX : INT64_MAX;
		if (q->minimum > lo)
			reqv[nr++] = q->minimum - 1;
		if (q->maximum < hi)
			reqv[nr++] = q->maximum + 1;
		if (q->step > 1)
			reqv[nr++] = q->minimum + 1;
	} else if (q->type == V4L2_CTRL_TYPE_BOOLEAN) {
		reqv[nr++] = 2;
	} else if (q->type == V4L2_CTRL_TYPE_BITMASK && (uint32_t)q->maximum != 0xffffffffu) {
		reqv[nr++] = (int32_t)0xffffffffu;
	}
	if (!nr)
		v_skip("the control has a single valid value");
	for (size_t i = 0; i < nr; i++) {
		struct ctrl_val v = { .v = reqv[i] };
		int e = ctrl_try(cx->dev, c, &v);
		bool valid_req = ctrl_value_valid(c, reqv[i]);
		if (!valid_req && e == ERANGE) {
			v_info("TRY %lld: ERANGE", (long long)reqv[i]);
		} else {
			expect_ok(e, "TRY_EXT_CTRLS %lld (EX-14)", (long long)reqv[i]);
			int64_t exp = valid_req ? reqv[i] : ctrl_expected_scalar(q, reqv[i]);
			ck_assert_msg(ctrl_value_valid(c, v.v),
				      "TRY_EXT_CTRLS %lld: expected the adjusted (valid) value returned, got %lld (EX-14)",
				      (long long)reqv[i], (long long)v.v);
			if (as32(c, v.v) != as32(c, exp)) {
				if (valid_req)
					ck_abort_msg("TRY_EXT_CTRLS of the valid value %lld: expected it returned as is, got %lld (EX-14)",
						     (long long)reqv[i], (long long)v.v);
				v_warn("TRY_EXT_CTRLS %lld returned %lld; the framework gives %lld (VA-1)", (long long)reqv[i],
				       (long long)v.v, (long long)exp);
			}
		}
		int64_t now = 0;
		expect_ok(ctrl_get_scalar(cx->dev, c, &now), "G after TRY");
		expect_eq(now, cur, "TRY_EXT_CTRLS %lld must not change the current value (EX-14)", (long long)reqv[i]);
	}
	if (!ctrl_type_is_menu(q->type))
		return;
	/* Menus are refused, never adjusted (VA-4), by TRY as by S. */
	struct { int64_t v; int want; const char *what; } bad[2] = {
		{ ctrl_menu_first_skipped(c), EINVAL, "a skipped item" }, { q->maximum + 1, ERANGE, "maximum + 1" } };
	for (int i = 0; i < 2; i++) {
		if (bad[i].v < 0 || bad[i].v > INT32_MAX)
			continue;
		struct ctrl_val v = { .v = bad[i].v };
		expect_errno(ctrl_try(cx->dev, c, &v), bad[i].want, "TRY_EXT_CTRLS of %s (%lld) on a menu (VA-4)", bad[i].what,
			     (long long)bad[i].v);
		int64_t now = 0;
		expect_ok(ctrl_get_scalar(cx->dev, c, &now), "G after TRY");
		expect_eq(now, cur, "the refused TRY_EXT_CTRLS of %s must not change the current value", bad[i].what);
	}
}

static void try_payload(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	struct ctrl_val cur = { 0 }, other = { 0 }, now = { 0 };
	char buf[256];
	expect_ok(ctrl_get(cx->dev, c, V4L2_CTRL_WHICH_CUR_VAL, &cur), "G of the current value");
	bool dyn = c->q.flags & V4L2_CTRL_FLAG_DYNAMIC_ARRAY;
	uint32_t cur_elems = payload_elems(c, cur.size);
	if (dyn) {
		/* A different element count: TRY must not change elems (AR-5). */
		uint32_t n = cur_elems == 1 ? 2 : 1;
		if (n > c->q.dims[0])
			n = cur_elems;
		ck_assert(payload_pattern(c, 1, n, &other));
		if (ctrl_val_equal(c, &other, &cur)) {
			ctrl_val_free(&other);
			ck_assert(payload_pattern(c, 2, n, &other));
		}
	} else if (!payload_other(c, &cur, &other)) {
		v_skip("no second value to try");
	}
	struct ctrl_val t;
	ctrl_val_copy(c, &t, &other);
	expect_ok(ctrl_try(cx->dev, c, &t), "TRY_EXT_CTRLS of a valid value (EX-14)");
	if (!ctrl_val_equal(c, &t, &other)) {
		ctrl_val_str(c, &t, buf, sizeof(buf));
		ck_abort_msg("TRY_EXT_CTRLS of a valid value: expected it returned unchanged, got %s (EX-14)", buf);
	}
	expect_ok(ctrl_get(cx->dev, c, V4L2_CTRL_WHICH_CUR_VAL, &now), "G after TRY");
	if (!ctrl_val_equal(c, &now, &cur)) {
		ctrl_val_str(c, &now, buf, sizeof(buf));
		ck_abort_msg("TRY_EXT_CTRLS must not change the current value (EX-14), got %s", buf);
	}
	if (dyn) {
		struct v4l2_query_ext_ctrl q = { .id = c->q.id };
		expect_ok(dev_ioctl(cx->dev, VIDIOC_QUERY_EXT_CTRL, &q), "QUERY_EXT_CTRL");
		expect_eq(q.elems, cur_elems, "TRY of a dynamic array with another element count must not change elems (AR-5)");
	}
	ctrl_val_free(&t);
	ctrl_val_free(&cur);
	ctrl_val_free(&other);
	ctrl_val_free(&now);
}

static void try_no_change(const struct check_ctx *cx)
{
	if (ctrl_has_payload(&cx->ctrl->q))
		try_payload(cx);
	else
		try_scalar(cx);
}

/* ---------- clamping through the extended path (VA-1, VA-3, VA-5, EX-15) ---------- */

struct outcome { int e; int64_t wb, got; };

static struct outcome one_path(const struct check_ctx *cx, int path, int64_t base, int64_t req)
{
	const struct ctrl *c = cx->ctrl;
	struct outcome o = { 0 };
	int32_t b32 = (int32_t)base;
	int e = ctrl_set_old(cx->dev, c->q.id, &b32);
	v_skip_if_inactive_refused(cx->dev, c->q.id, e);
	expect_ok(e, "S_CTRL %lld (the starting value)", (long long)base);
	if (path == 0) {
		int32_t v = (int32_t)req;
		o.e = ctrl_set_old(cx->dev, c->q.id, &v);
		o.wb = v;
	} else {
		struct ctrl_val v = { .v = req };
		o.e = path == 1 ? ctrl_set(cx->dev, c, &v) : ctrl_try(cx->dev, c, &v);
		o.wb = v.v;
	}
	int32_t g = 0;
	expect_ok(ctrl_get_old(cx->dev, c->q.id, &g), "G_CTRL");
	o.got = g;
	return o;
}

static void clamp_agrees(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	const struct v4l2_query_ext_ctrl *q = &c->q;
	int64_t probes[8];
	size_t np = 0;
	if (q->type == V4L2_CTRL_TYPE_INTEGER) {
		int64_t cand[] = { q->minimum - 1, q->maximum + 1, (int64_t)INT32_MIN, (int64_t)INT32_MAX,
				   q->minimum + 1, q->minimum + (int64_t)q->step / 2, ctrl_middle_value(c) + 1 };
		for (size_t i = 0; i < sizeof(cand) / sizeof(cand[0]); i++)
			if (cand[i] >= INT32_MIN && cand[i] <= INT32_MAX && !ctrl_value_valid(c, cand[i]))
				probes[np++] = cand[i];
	} else if (q->type == V4L2_CTRL_TYPE_BOOLEAN) {
		probes[np++] = 2, probes[np++] = -1;
	} else {
		probes[np++] = (int32_t)0xffffffffu, probes[np++] = (int32_t)~(uint32_t)q->maximum;
	}
	ck_assert(np > 0);
	int64_t base = q->type == V4L2_CTRL_TYPE_BITMASK ? 0 : ctrl_middle_value(c);
	static const char *const pn[] = { "S_CTRL", "S_EXT_CTRLS", "TRY_EXT_CTRLS" };
	for (size_t i = 0; i < np; i++) {
		struct outcome o[3];
		for (int p = 0; p < 3; p++)
			o[p] = one_path(cx, p, base, probes[i]);
		for (int p = 1; p < 3; p++) {
			ck_assert_msg(o[p].e == o[0].e, "request %lld: expected %s to give %s like S_CTRL, got %s (VA-1)",
				      (long long)probes[i], pn[p], errno_name(o[0].e), errno_name(o[p].e));
			if (o[0].e)
				continue;
			/* Compared with what S_CTRL stored, not with what it wrote
			 * back: a missing S_CTRL write-back is SC-8's warning
			 * (getset), not an ext-path failure. */
			ck_assert_msg(o[p].wb == o[0].got,
				      "request %lld: expected %s to write back %lld (the value S_CTRL stores), got %lld (VA-1, EX-15)",
				      (long long)probes[i], pn[p], (long long)o[0].got, (long long)o[p].wb);
		}
		if (o[0].e) {
			v_info("%lld: %s on every path", (long long)probes[i], errno_name(o[0].e));
			continue;
		}
		ck_assert_msg(ctrl_value_valid(c, o[0].got) && ctrl_value_valid(c, o[1].got),
			      "request %lld: expected a valid value stored (clamped, on the step grid), got %lld after S_CTRL and %lld after S_EXT_CTRLS (VA-1)",
			      (long long)probes[i], (long long)o[0].got, (long long)o[1].got);
		expect_eq(o[1].got, o[0].got, "request %lld: the value stored by S_EXT_CTRLS and by S_CTRL (VA-1)",
			  (long long)probes[i]);
		expect_eq(o[1].got, o[1].wb, "request %lld: S_EXT_CTRLS must write back the stored value (EX-15)",
			  (long long)probes[i]);
		expect_eq(o[2].got, base, "request %lld: TRY_EXT_CTRLS must not change the value (EX-14)", (long long)probes[i]);
	}
}

/* ---------- 64-bit values (EX-21) ---------- */

static void int64_range(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	const struct v4l2_query_ext_ctrl *q = &c->q;
	int64_t vals[] = { q->minimum, q->maximum, q->default_value, ctrl_middle_value(c),
			   (int64_t)0x5555555555555555ll, (int64_t)0xaaaaaaaaaaaaaaaaull, (int64_t)0x0000000180000001ll,
			   -(int64_t)0x0000000180000001ll, (int64_t)0x7ffffffe00000000ll, INT64_MIN, INT64_MAX };
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		int64_t want = vals[i], exp = ctrl_expected_scalar(q, want);
		bool valid = ctrl_value_valid(c, want);
		struct ctrl_val v = { .v = want };
		int e = ctrl_set(cx->dev, c, &v);
		if (!valid && e == ERANGE) {
			v_info("0x%016" PRIx64 ": ERANGE", (uint64_t)want);
			continue;
		}
		expect_ok(e, "S_EXT_CTRLS value64 = 0x%016" PRIx64 " (EX-21)", (uint64_t)want);
		if (valid)
			ck_assert_msg(v.v == want, "S_EXT_CTRLS value64 = 0x%016" PRIx64 ": expected it written back as is, got 0x%016" PRIx64 " (EX-21)",
				      (uint64_t)want, (uint64_t)v.v);
		else if (v.v != exp)
			ck_assert_msg(ctrl_value_valid(c, v.v) || fw_allowed(q, want, v.v, &(bool){ false }),
				      "S_EXT_CTRLS value64 = 0x%016" PRIx64 " (out of range): expected a valid value written back, got 0x%016" PRIx64 " (VA-1)",
				      (uint64_t)want, (uint64_t)v.v);
		struct ctrl_val g = { 0 };
		expect_ok(ctrl_get(cx->dev, c, V4L2_CTRL_WHICH_CUR_VAL, &g), "G_EXT_CTRLS");
		ck_assert_msg(g.v == v.v, "after S_EXT_CTRLS 0x%016" PRIx64 ": expected G to give 0x%016" PRIx64 ", got 0x%016" PRIx64 " (EX-21: all 64 bits kept)",
			      (uint64_t)want, (uint64_t)v.v, (uint64_t)g.v);
		if (!valid && v.v != exp)
			v_warn("0x%016" PRIx64 " was stored as 0x%016" PRIx64 "; the framework gives 0x%016" PRIx64 " (VA-1)",
			       (uint64_t)want, (uint64_t)v.v, (uint64_t)exp);
	}
}

/* ---------- the same control twice (EX-16) ---------- */

static void duplicate_id(const struct check_ctx *cx)
{
	const struct ctrl *pick[1];
	if (!ext_pick_plain(cx->model, 0, NULL, 0, pick, 1))
		v_skip("no control whose value can be changed");
	const struct ctrl *c = pick[0];
	int64_t cur = 0, v1, v2;
	expect_ok(ctrl_get_scalar(cx->dev, c, &cur), "G of %s", c->q.name);
	ck_assert(ctrl_other_value(c, cur, &v1));
	v2 = v1;
	if (!ctrl_other_value(c, v1, &v2) || v2 == cur) {
		/* Two-valued control: the second entry puts the value back. */
		v2 = cur;
	}
	for (int r = 0; r < 3; r++) {
		struct ext_batch b;
		ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
		ext_add(&b, c, r ? v1 : 0);
		ext_add(&b, c, r ? v2 : 0);
		int e = ext_do(cx->dev, reqs[r], &b);
		int64_t now = 0;
		expect_ok(ctrl_get_scalar(cx->dev, c, &now), "G of %s", c->q.name);
		if (e == EINVAL) {
			v_info("%s with %s twice: EINVAL", ext_req_name(reqs[r]), c->q.name);
			if (reqs[r] == VIDIOC_S_EXT_CTRLS && b.cs.error_idx == 2)
				expect_eq(now, cur, "S_EXT_CTRLS refused the duplicate with error_idx = count, so nothing may change (EX-16, EX-12)");
		} else {
			expect_ok(e, "%s with %s twice (EX-16: last wins, or EINVAL)", ext_req_name(reqs[r]), c->q.name);
			if (reqs[r] == VIDIOC_G_EXT_CTRLS) {
				expect_eq(ext_scalar(&b, 0), cur, "G_EXT_CTRLS with the control twice: entry 0");
				expect_eq(ext_scalar(&b, 1), cur, "G_EXT_CTRLS with the control twice: entry 1");
			} else if (reqs[r] == VIDIOC_TRY_EXT_CTRLS) {
				expect_eq(now, cur, "TRY_EXT_CTRLS with the control twice must change nothing (EX-14)");
			} else {
				expect_eq(now, v2, "S_EXT_CTRLS %s = %lld then = %lld: the last value must win (EX-16)", c->q.name,
					  (long long)v1, (long long)v2);
			}
		}
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
		expect_errno(dev_ioctl(cx->dev, reqs[r], &cs), EINVAL, "%s with count = 1025 > V4L2_CID_MAX_CTRLS (EX-2)",
			     ext_req_name(reqs[r]));
		ck_assert_msg(cs.error_idx == EXT_IDX_UNSET,
			      "%s count = 1025: expected the call refused before the driver ran (error_idx untouched), got error_idx %u (EX-2)",
			      ext_req_name(reqs[r]), cs.error_idx);
		struct v4l2_ext_controls big = { .which = 0, .count = 0xffffffffu, .controls = arr };
		expect_errno(dev_ioctl(cx->dev, reqs[r], &big), EINVAL, "%s with count = 0xffffffff (EX-2)", ext_req_name(reqs[r]));
		/* At the limit the count is accepted and the (bad) pointer is what fails. */
		struct v4l2_ext_controls lim = { .which = 0, .count = 1024, .controls = NULL };
		expect_errno(dev_ioctl(cx->dev, reqs[r], &lim), EFAULT,
			     "%s with count = 1024 (the limit, allowed) and a NULL array (EX-2, EX-3)", ext_req_name(reqs[r]));
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
			expect_errno(dev_ioctl(cx->dev, reqs[r], &cs), EFAULT, "%s with controls = %s, count %u (EX-3)",
				     ext_req_name(reqs[r]), cases[i].what, cases[i].count);
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
			int e = dev_ioctl(cx->dev, reqs[r], &cs);
			int64_t got = c->q.type == V4L2_CTRL_TYPE_INTEGER64 ? ec.value64 : ec.value;
			if (!dirty) {
				expect_ok(e, "%s of %s", ext_req_name(reqs[r]), c->q.name);
				ck_assert_msg(cs.reserved[0] == 0 && ec.reserved2[0] == 0,
					      "%s: expected the reserved fields left at 0, got reserved 0x%x, reserved2 0x%x (EX-17: drivers must not write them)",
					      ext_req_name(reqs[r]), cs.reserved[0], ec.reserved2[0]);
			} else if (e == EINVAL) {
				v_info("%s with non-zero reserved fields: EINVAL", ext_req_name(reqs[r]));
			} else {
				expect_ok(e, "%s with non-zero reserved fields (EX-17: success or EINVAL)", ext_req_name(reqs[r]));
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
	snap_or_fail(cx, &s);
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
		int e = ext_do(cx->dev, reqs[r], &b);
		ck_assert_msg(!e, "%s of all %u settable controls with their current values (mixed classes): expected success, got %s at error_idx %u (%s) (EX-11)",
			      ext_req_name(reqs[r]), b.count, errno_name(e), b.cs.error_idx,
			      b.cs.error_idx < b.count ? b.ctrl[b.cs.error_idx]->q.name : "-");
	}
	expect_unchanged(cx, &s, "S_EXT_CTRLS of every control with its current value");
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
			expect_eq(as32(b.ctrl[i], now), as32(b.ctrl[i], ext_scalar(&b, i)),
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
	  CHECK_PER_DEVICE, count_zero },
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
	  CHECK_PER_ITEM, atomic, NULL, atomic_items, .needs = NEEDS_EXT },
	{ "ext/partial", "EX-13", "an invalid payload found while applying: controls may change only when error_idx < count",
	  CHECK_PER_ITEM, partial, NULL, partial_items, .needs = NEEDS_EXT },
	{ "ext/try-no-change", "EX-14", "TRY returns the adjusted value and never changes the current value",
	  CHECK_PER_CONTROL, try_no_change, try_applies, .needs = NEEDS_EXT },
	{ "ext/clamp-agrees", "VA-1", "clamping, rounding and masking through S_EXT/TRY agree with S_CTRL",
	  CHECK_PER_CONTROL, clamp_agrees, is_clampable, .needs = NEEDS_EXT },
	{ "ext/int64", "EX-21", "64-bit values over the whole range through value64, all 64 bits kept",
	  CHECK_PER_CONTROL, int64_range, is_int64, .needs = NEEDS_EXT },
	{ "ext/duplicate-id", "EX-16", "the same control twice in one call: the last value wins (or EINVAL, nothing applied)",
	  CHECK_PER_DEVICE, duplicate_id, .needs = NEEDS_EXT },
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
