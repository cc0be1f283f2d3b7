/* VIDIOC_G_CTRL / VIDIOC_S_CTRL (spec section 3, values per section 5). */
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_type.h"
#include "ctrl/ctrl_value.h"
#include "ctrl/fw_value.h"
#include "ctrl/rulebook.h"
#include "check/registry.h"
#include "check/verdict.h"
#include <stdio.h>
#include <string.h>

/* ---------- nonexistent ids ---------- */

static const struct { const char *slug; uint32_t id; } fixed_ids[] = {
	{ "id-0", 0 },
	{ "cid-base-minus-1", V4L2_CID_BASE - 1 },
	{ "cid-lastp1", V4L2_CID_LASTP1 },
	{ "class-user-0x1fff", V4L2_CID_USER_BASE + 0xf6ff },
	{ "unused-class", 0x00ff0900 },
	{ "private-base-plus-4095", V4L2_CID_PRIVATE_BASE + 4095 },
	{ "id-mask-max", 0x0fffffff },
	{ "random-0x0579a3c1", 0x0579a3c1 },
	{ "all-ones", 0xffffffff },
};
#define N_FIXED (sizeof(fixed_ids) / sizeof(fixed_ids[0]))

/* The ids to try: the fixed list, a hole inside CID_BASE..LASTP1, and the
 * id just past the last control of each class; any that is a control on
 * this device is left out. The i-th candidate is item i. */
static bool candidate(const struct ctrl_model *m, long want, uint32_t *id, char *slug, size_t len)
{
	long k = 0;
	for (size_t i = 0; i < N_FIXED; i++) {
		if (model_find(m, fixed_ids[i].id & V4L2_CTRL_ID_MASK))
			continue;
		if (k++ == want) {
			*id = fixed_ids[i].id;
			snprintf(slug, len, "%s", fixed_ids[i].slug);
			return true;
		}
	}
	for (uint32_t gap = V4L2_CID_BASE; gap < V4L2_CID_LASTP1; gap++)
		if (!model_find(m, gap)) {
			if (k++ == want) {
				*id = gap;
				snprintf(slug, len, "user-gap-0x%08x", gap);
				return true;
			}
			break;	/* one hole is enough */
		}
	for (size_t c = 0; c < m->n; c++) {
		uint32_t next = m->c[c].q.id + 1;
		bool last_in_class = c + 1 == m->n ||
			V4L2_CTRL_ID2WHICH(m->c[c + 1].q.id) != V4L2_CTRL_ID2WHICH(next - 1);
		if (!last_in_class || model_find(m, next))
			continue;
		if (k++ == want) {
			*id = next;
			snprintf(slug, len, "past-class-end-0x%08x", next);
			return true;
		}
	}
	return false;
}

static bool nonexistent_items(const struct ctrl_model *m, long i, char *slug, size_t len)
{
	uint32_t id;
	return candidate(m, i, &id, slug, len);
}

static void nonexistent(const struct check_ctx *cx)
{
	char slug[64];
	uint32_t id = 0;
	ck_assert(candidate(cx->model, cx->item, &id, slug, sizeof(slug)));
	/* 0xffffffff carries the NEXT flags: as a query it asks for the control
	 * after 0x0fffffff, which cannot exist either. */
	struct v4l2_queryctrl qc = { .id = id };
	expect_errno(dev_ioctl(cx->dev, VIDIOC_QUERYCTRL, &qc), EINVAL, "QUERYCTRL 0x%08x (QC-2)", id);
	struct v4l2_query_ext_ctrl qe = { .id = id };
	int e = dev_ioctl(cx->dev, VIDIOC_QUERY_EXT_CTRL, &qe);
	if (e != ENOTTY)
		expect_errno(e, EINVAL, "QUERY_EXT_CTRL 0x%08x (QC-2)", id);
	struct v4l2_querymenu qm = { .id = id };
	expect_errno(dev_ioctl(cx->dev, VIDIOC_QUERYMENU, &qm), EINVAL, "QUERYMENU 0x%08x", id);
	int32_t v = 0;
	expect_errno(ctrl_get_old(cx->dev, id, &v), EINVAL, "G_CTRL 0x%08x (SC-5)", id);
	v = 0;
	expect_errno(ctrl_set_old(cx->dev, id, &v), EINVAL, "S_CTRL 0x%08x (SC-5)", id);
}

/* ---------- access: button, read-only, write-only, inactive ---------- */

static void button_get(const struct check_ctx *cx)
{
	int32_t v = 0;
	int e = ctrl_get_old(cx->dev, cx->ctrl->q.id, &v);
	if (e == EINVAL) {
		/* What 2007-era drivers did; today's rule is EACCES. */
		v_warn("G_CTRL on a button gave EINVAL (legacy behaviour); today's rule is EACCES (SC-3)");
		return;
	}
	expect_errno(e, EACCES, "G_CTRL on a button (write-only)");
}

static void button_set(const struct check_ctx *cx)
{
	for (int i = 0; i < 2; i++) {
		int32_t v = i ? 12345 : 0;	/* the value is ignored */
		expect_ok(ctrl_set_old(cx->dev, cx->ctrl->q.id, &v), "S_CTRL #%d on a button performs the action (SC-13)",
			  i + 1);
	}
}

static void read_only_set(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	int32_t before = 0, v, after = 0;
	bool readable = ctrl_readable(&c->q);
	if (readable)
		expect_ok(ctrl_get_old(cx->dev, c->q.id, &before), "G_CTRL on a read-only control works");
	v = before + 1;
	if (c->q.type == V4L2_CTRL_TYPE_BOOLEAN)
		v = !before;
	int e = ctrl_set_old(cx->dev, c->q.id, &v);
	if (e == EINVAL && c->q.type != V4L2_CTRL_TYPE_CTRL_CLASS)
		ck_abort_msg("expected EACCES for S_CTRL on a read-only control (SC-4; EINVAL is the stale flag-table text), got EINVAL");
	expect_errno(e, EACCES, "S_CTRL on a read-only control (SC-4)");
	if (readable && !(c->q.flags & V4L2_CTRL_FLAG_VOLATILE)) {
		expect_ok(ctrl_get_old(cx->dev, c->q.id, &after), "G_CTRL after the refused set");
		expect_eq(after, before, "the value must not change when the set is refused");
	}
}

static void write_only_get(const struct check_ctx *cx)
{
	int32_t v = 0;
	expect_errno(ctrl_get_old(cx->dev, cx->ctrl->q.id, &v), EACCES, "G_CTRL on a write-only control (SC-3)");
}

static void inactive_set(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	int64_t v = ctrl_middle_value(c);
	int e = ctrl_set_scalar(cx->dev, c, &v);
	if (e == EACCES) {
		v_info("the driver refuses writes while inactive (EACCES, allowed by FL-5)");
		return;
	}
	expect_ok(e, "setting an inactive control (FL-5: success or EACCES)");
}

/* ---------- values ---------- */

static void out_of_range(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	const struct v4l2_query_ext_ctrl *q = &c->q;
	struct { const char *what; int64_t v; } probes[] = {
		{ "min-1", q->minimum - 1 }, { "max+1", q->maximum + 1 },
		{ "min-1000", q->minimum - 1000 }, { "max+1000", q->maximum + 1000 },
	};
	int tried = 0;
	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		int64_t want = probes[i].v;
		if (want < INT32_MIN || want > INT32_MAX)
			continue;	/* not representable through S_CTRL */
		tried++;
		int32_t v = (int32_t)want, got = 0;
		int e = ctrl_set_old(cx->dev, q->id, &v);
		v_skip_if_inactive_refused(cx->dev, q->id, e);
		if (e == ERANGE) {
			v_info("%s: ERANGE", probes[i].what);
		} else {
			expect_ok(e, "S_CTRL %s = %lld (SC-6: clamp or ERANGE)", probes[i].what, (long long)want);
			int64_t exp = ctrl_expected_scalar(q, want);
			if (v == want) {
				/* Legacy drivers need not write back (SC-8). */
				v_warn("S_CTRL %s did not write back the clamped value (SC-8)", probes[i].what);
			} else {
				ck_assert_msg(v >= q->minimum && v <= q->maximum,
					      "S_CTRL %s = %lld: expected the written-back value in [%lld, %lld], got %d",
					      probes[i].what, (long long)want, (long long)q->minimum,
					      (long long)q->maximum, v);
				if (v != exp)
					v_warn("S_CTRL %s wrote back %d, the framework would give %lld", probes[i].what,
					       v, (long long)exp);
			}
		}
		expect_ok(ctrl_get_old(cx->dev, q->id, &got), "G_CTRL after %s", probes[i].what);
		ck_assert_msg(got >= q->minimum && got <= q->maximum,
			      "after S_CTRL %s: expected the stored value in [%lld, %lld], got %d (never stored out of range)",
			      probes[i].what, (long long)q->minimum, (long long)q->maximum, got);
		if (e)
			continue;
		/* "The closest valid value": never the opposite end (SC-6). */
		bool below = want < q->minimum, fw = false;
		bool opposite = q->maximum != q->minimum && got == (below ? q->maximum : q->minimum);
		ck_assert_msg(!opposite,
			      "S_CTRL %s = %lld: expected the nearest bound's side, got the %s %d (SC-6)", probes[i].what,
			      (long long)want, below ? "maximum" : "minimum", got);
		if (!fw_allowed(q, want, got, &fw))
			v_warn("S_CTRL %s = %lld stored %d: not the closest valid value (SC-6)", probes[i].what,
			       (long long)want, got);
	}
	if (!tried)
		v_skip("the range covers all of s32: no out-of-range value is representable through S_CTRL");
}

static void off_step(const struct check_ctx *cx)
{
	const struct v4l2_query_ext_ctrl *q = &cx->ctrl->q;
	int64_t reqs[] = { q->minimum + 1, q->minimum + (int64_t)q->step / 2,
			   q->minimum + (int64_t)q->step + (int64_t)q->step / 2 + 1, q->maximum - 1 };
	for (size_t i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++) {
		int64_t want = reqs[i];
		if (want <= q->minimum || want >= q->maximum || (want - q->minimum) % (int64_t)q->step == 0)
			continue;
		int32_t v = (int32_t)want, got = 0;
		int64_t exp = ctrl_expected_scalar(q, want);
		int e = ctrl_set_old(cx->dev, q->id, &v);
		v_skip_if_inactive_refused(cx->dev, q->id, e);
		if (e == ERANGE)
			v_warn("S_CTRL %lld (off the step grid) gave ERANGE; rounding is preferred (SC-7)", (long long)want);
		else
			expect_ok(e, "S_CTRL %lld, off the step grid (SC-7: round or ERANGE)", (long long)want);
		expect_ok(ctrl_get_old(cx->dev, q->id, &got), "G_CTRL after S_CTRL %lld", (long long)want);
		/* An off-grid maximum is a value the driver declared (QC-12). */
		ck_assert_msg((got - q->minimum) % (int64_t)q->step == 0 || (fw_max_off_grid(q) && got == q->maximum),
			      "after S_CTRL %lld: expected a value on the grid min %lld + n * step %llu, got %d",
			      (long long)want, (long long)q->minimum, (unsigned long long)q->step, got);
		if (!e) {
			if (v == want && got != want)
				v_warn("S_CTRL %lld did not write back the stored value %d (SC-8)", (long long)want, got);
			else
				ck_assert_msg(v == got, "expected S_CTRL to write back the stored value %d, got %d", got, v);
			if (got != exp)
				v_warn("S_CTRL %lld stored %d; the framework rounds to %lld", (long long)want, got,
				       (long long)exp);
		}
	}
}

static void menu_invalid(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	const struct v4l2_query_ext_ctrl *q = &c->q;
	int32_t before = 0, got = 0, v;
	expect_ok(ctrl_get_old(cx->dev, q->id, &before), "G_CTRL on the menu");
	int64_t skipped = ctrl_menu_first_skipped(c);
	if (skipped >= 0) {
		v = (int32_t)skipped;
		expect_errno(ctrl_set_old(cx->dev, q->id, &v), EINVAL, "S_CTRL to skipped item %lld (SC-10)",
			     (long long)skipped);
		expect_ok(ctrl_get_old(cx->dev, q->id, &got), "G_CTRL after the refused set");
		expect_eq(got, before, "the value must not change when a skipped item is refused");
	}
	int64_t outside[] = { q->maximum + 1, q->minimum - 1 };
	for (size_t i = 0; i < 2; i++) {
		if (outside[i] < INT32_MIN || outside[i] > INT32_MAX)
			continue;
		v = (int32_t)outside[i];
		int e = ctrl_set_old(cx->dev, q->id, &v);
		expect_ok(ctrl_get_old(cx->dev, q->id, &got), "G_CTRL after S_CTRL %lld", (long long)outside[i]);
		if (e == 0) {
			ck_assert_msg(ctrl_value_valid(c, got),
				      "S_CTRL %lld (outside the menu) succeeded: expected a valid item stored, got %d",
				      (long long)outside[i], got);
			v_info("S_CTRL %lld outside the menu succeeded and kept a valid item (accepted by SC-10)",
			       (long long)outside[i]);
		} else {
			expect_errno(e, ERANGE, "S_CTRL %lld, outside [min, max] of the menu (SC-10)",
				     (long long)outside[i]);
			expect_eq(got, before, "the value must not change when the set is refused");
		}
	}
}

static void menu_all_items(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	for (size_t i = 0; i < c->n_menu; i++) {
		if (c->menu[i].err)
			continue;
		int32_t v = (int32_t)c->menu[i].index, got = -1;
		expect_ok(ctrl_set_old(cx->dev, c->q.id, &v), "S_CTRL to valid item %u (SC-10)", c->menu[i].index);
		expect_ok(ctrl_get_old(cx->dev, c->q.id, &got), "G_CTRL after setting item %u", c->menu[i].index);
		expect_eq(got, c->menu[i].index, "G_CTRL after setting item %u", c->menu[i].index);
	}
}

static void boolean_values(const struct check_ctx *cx)
{
	int32_t reqs[] = { 2, -1, 0x100 };
	for (size_t i = 0; i < 3; i++) {
		int32_t v = reqs[i], got = -5;
		int e = ctrl_set_old(cx->dev, cx->ctrl->q.id, &v);
		if (e != ERANGE)
			expect_ok(e, "S_CTRL %d on a boolean (SC-11: 1 or ERANGE)", reqs[i]);
		expect_ok(ctrl_get_old(cx->dev, cx->ctrl->q.id, &got), "G_CTRL after S_CTRL %d", reqs[i]);
		ck_assert_msg(got == 0 || got == 1, "after S_CTRL %d: expected a boolean to hold 0 or 1, got %d",
			      reqs[i], got);
		bool fw = false;
		if (e)
			continue;
		/* 1 (the framework's !!v), or -1 clamped to 0 (the general
		 * "closest valid value" rule: allowed, warn). */
		ck_assert_msg(fw_allowed(&cx->ctrl->q, reqs[i], got, &fw),
			      "S_CTRL %d on a boolean: expected 1%s (SC-11, VA-3), got %d", reqs[i],
			      reqs[i] < 0 ? " or 0 (clamped)" : "", got);
		if (!fw)
			v_warn("S_CTRL %d on a boolean stored %d (clamped); the framework stores 1 (SC-11)", reqs[i], got);
	}
}

static void bitmask_values(const struct check_ctx *cx)
{
	const struct v4l2_query_ext_ctrl *q = &cx->ctrl->q;
	uint32_t outside = ~(uint32_t)q->maximum;
	if (!outside)
		v_skip("every bit is valid");
	int32_t v = (int32_t)(outside | ((uint32_t)q->maximum & 1u)), got = 0;
	int e = ctrl_set_old(cx->dev, q->id, &v);
	if (e != ERANGE)
		expect_ok(e, "S_CTRL with bits outside max 0x%llx (SC-12: masked or ERANGE)", (long long)q->maximum);
	expect_ok(ctrl_get_old(cx->dev, q->id, &got), "G_CTRL");
	ck_assert_msg(!((uint32_t)got & outside), "expected no bits outside max 0x%llx stored, got 0x%x",
		      (long long)q->maximum, (uint32_t)got);
}

/* From 6.15 a driver without a control handler never sees G/S_CTRL: the
 * core hands it one extended control with a bare 32-bit value and a size
 * it never sets (7.3 v4l2-ioctl.c:2361-2374, :2392-2406; zero on Debian's
 * CONFIG_INIT_STACK_ALL_ZERO builds), which the driver cannot tell from
 * G/S_EXT_CTRLS (QC-23). What it then answers is what the extended ioctls
 * answer for one control of size 0, as the 7.3 framework's own do
 * (v4l2-ctrls-api.c): success for a 64-bit value, ENOSPC for a payload to
 * get (:302-304, :318-325), EFAULT for an array or payload to set
 * (:312-313, :330), ERANGE for a string to set (:155-156). The core's
 * choice, against the documentation (SC-2): a warning. */
static bool core_answered(bool core, int e)
{
	return core && (e == 0 || e == ENOSPC || e == EFAULT || e == ERANGE);
}

static const char *core_outcome(int e)
{
	return e ? errno_name(e) : "success";
}

static void old_ioctl_refused(const struct check_ctx *cx)
{
	const struct v4l2_query_ext_ctrl *q = &cx->ctrl->q;
	int32_t v = 0;
	int e = ctrl_get_old(cx->dev, q->id, &v);
	bool wo = q->flags & V4L2_CTRL_FLAG_WRITE_ONLY, ro = q->flags & V4L2_CTRL_FLAG_READ_ONLY;
	bool core = rb_core_answers_old_ioctls(rb_running());
	if (core_answered(core, e))
		v_warn("G_CTRL on a %s gave %s: the kernel's core answers G_CTRL through the driver's G_EXT_CTRLS "
		       "with one control of unset size (QC-23, 7.3 v4l2-ioctl.c:2354-2383) instead of refusing it (SC-2)",
		       ctrl_type_name(q->type), core_outcome(e));
	else
		ck_assert_msg(e == EINVAL || (wo && e == EACCES),
			      "expected EINVAL for G_CTRL on a %s (SC-2/AR-8), got %s", ctrl_type_name(q->type), errno_name(e));
	v = 0;
	e = ctrl_set_old(cx->dev, q->id, &v);
	if (core_answered(core, e))
		v_warn("S_CTRL on a %s gave %s: the kernel's core answers S_CTRL through the driver's S_EXT_CTRLS "
		       "with one control of unset size (QC-23, 7.3 v4l2-ioctl.c:2385-2412) instead of refusing it (SC-2)",
		       ctrl_type_name(q->type), core_outcome(e));
	else
		ck_assert_msg(e == EINVAL || (ro && e == EACCES),
			      "expected EINVAL for S_CTRL on a %s (SC-2/AR-8), got %s", ctrl_type_name(q->type), errno_name(e));
}

static void class_control(const struct check_ctx *cx)
{
	int32_t v = 0;
	int e = ctrl_get_old(cx->dev, cx->ctrl->q.id, &v);
	ck_assert_msg(e == EACCES || e == EINVAL, "expected EACCES or EINVAL for G_CTRL on a class control (SC-2), got %s",
		      errno_name(e));
	e = ctrl_set_old(cx->dev, cx->ctrl->q.id, &v);
	ck_assert_msg(e == EACCES || e == EINVAL, "expected EACCES or EINVAL for S_CTRL on a class control (SC-2), got %s",
		      errno_name(e));
}

/* SC-9, SC-15, SC-8: min, max, default and a middle value survive a round trip. */
static void roundtrip(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	const struct v4l2_query_ext_ctrl *q = &c->q;
	struct { const char *what; int64_t v; } vals[] = {
		{ "min", q->minimum }, { "max", q->maximum }, { "default", q->default_value },
		{ "middle", ctrl_middle_value(c) },
	};
	for (size_t i = 0; i < 4; i++) {
		int64_t want = vals[i].v;
		if (ctrl_type_is_menu(q->type) && !ctrl_value_valid(c, want))
			continue;	/* a skipped menu item at min or max */
		if (q->type == V4L2_CTRL_TYPE_BITMASK && i == 0)
			want = 0;
		/* A default outside [min, max] is the driver's error in its
		 * description (enum/range, ext/def-val: QC-11); writing it back
		 * proves nothing about G/S. */
		if (q->type != V4L2_CTRL_TYPE_BITMASK && !ctrl_type_is_menu(q->type) &&
		    (want < q->minimum || want > q->maximum)) {
			v_info("%s = %lld is outside [%lld, %lld]: not written back (enum/range reports it)", vals[i].what,
			       (long long)want, (long long)q->minimum, (long long)q->maximum);
			continue;
		}
		/* 32-bit controls: a bitmask max of 0x80402010 is negative as s32. */
		want = (int32_t)want;
		int32_t v = (int32_t)want, got = 0;
		int e = ctrl_set_old(cx->dev, q->id, &v);
		v_skip_if_inactive_refused(cx->dev, q->id, e);
		if (e == EIO || e == EILSEQ) {
			v_warn("S_CTRL %s gave %s (hardware error, SC-20)", vals[i].what, errno_name(e));
			continue;
		}
		expect_ok(e, "S_CTRL %s = %lld (SC-9)", vals[i].what, (long long)want);
		expect_ok(ctrl_get_old(cx->dev, q->id, &got), "G_CTRL after S_CTRL %s", vals[i].what);
		if (got != want) {
			/* Only a request off the step grid may come back changed:
			 * a maximum (or default) with (max - min) not a multiple
			 * of step (QC-12). The framework rounds it onto the grid
			 * from the minimum; keeping it is allowed too. */
			bool fw = false;
			ck_assert_msg(fw_allowed(q, want, got, &fw),
				      "G_CTRL after S_CTRL %s = %lld: expected %lld (SC-15)%s, got %d", vals[i].what,
				      (long long)want, (long long)want,
				      fw_max_off_grid(q) ? " or a grid neighbour (QC-12: off the step grid)" : "", got);
			if (!fw)
				v_warn("S_CTRL %s = %lld stored %d; the framework stores %lld (QC-12, VA-1)", vals[i].what,
				       (long long)want, got, (long long)ctrl_expected_scalar(q, want));
			else
				v_info("S_CTRL %s = %lld is off the step grid: stored as %d, as the framework does (QC-12, VA-1)",
				       vals[i].what, (long long)want, got);
		}
		if (v != got) {
			if (v == want)
				v_warn("S_CTRL %s did not write back the stored value %d (SC-8)", vals[i].what, got);
			else
				ck_abort_msg("S_CTRL %s: expected the written-back value %d (the value stored, SC-8), got %d",
					     vals[i].what, got, v);
		}
		want = got;
		struct ctrl_val ev = { 0 };
		if (c->have_qext) {
			expect_ok(ctrl_get(cx->dev, c, V4L2_CTRL_WHICH_CUR_VAL, &ev), "G_EXT_CTRLS after S_CTRL %s",
				  vals[i].what);
			expect_eq(ev.v, want, "G_EXT_CTRLS after S_CTRL %s must agree with G_CTRL (SC-15)", vals[i].what);
			ctrl_val_free(&ev);
		}
	}
}

static void get_in_range(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	int32_t v = 0;
	expect_ok(ctrl_get_old(cx->dev, c->q.id, &v), "G_CTRL on a readable %s control (SC-1)",
		  ctrl_type_name(c->q.type));
	if (c->q.type == V4L2_CTRL_TYPE_BITMASK)
		ck_assert_msg(!((uint32_t)v & ~(uint32_t)c->q.maximum), "expected bits within max, got 0x%x", v);
	else if (c->q.type != V4L2_CTRL_TYPE_BUTTON)
		ck_assert_msg(v >= c->q.minimum && v <= c->q.maximum, "expected G_CTRL in [%lld, %lld] (SC-16), got %d",
			      (long long)c->q.minimum, (long long)c->q.maximum, v);
	if (c->have_qext && !(c->q.flags & V4L2_CTRL_FLAG_VOLATILE)) {
		struct ctrl_val ev = { 0 };
		expect_ok(ctrl_get(cx->dev, c, V4L2_CTRL_WHICH_CUR_VAL, &ev), "G_EXT_CTRLS");
		expect_eq(ev.v, v, "G_EXT_CTRLS must agree with G_CTRL (SC-15)");
	}
	if (c->q.type == V4L2_CTRL_TYPE_INTEGER && c->q.step > 1 && (v - c->q.minimum) % (int64_t)c->q.step)
		v_warn("current value %d is off the step grid (SC-16)", v);
}

/* ---------- applicability ---------- */

#define APPLIES(fn, expr) \
	static bool fn(const struct ctrl *c, const struct ctrl_model *m, const char **why) { return (expr); }

APPLIES(is_button, c->q.type == V4L2_CTRL_TYPE_BUTTON)
APPLIES(is_read_only, (c->q.flags & V4L2_CTRL_FLAG_READ_ONLY) && ctrl_is_scalar_int32(&c->q) &&
	c->q.type != V4L2_CTRL_TYPE_CTRL_CLASS)
APPLIES(is_write_only, (c->q.flags & V4L2_CTRL_FLAG_WRITE_ONLY) && c->q.type != V4L2_CTRL_TYPE_BUTTON &&
	ctrl_is_scalar_int32(&c->q) && c->q.type != V4L2_CTRL_TYPE_CTRL_CLASS)
APPLIES(is_inactive, (c->q.flags & V4L2_CTRL_FLAG_INACTIVE) && ctrl_writable(&c->q) &&
	!ctrl_has_payload(&c->q) && c->q.type != V4L2_CTRL_TYPE_BUTTON)
APPLIES(is_settable_integer, c->q.type == V4L2_CTRL_TYPE_INTEGER && ctrl_settable_int32(c))
APPLIES(has_step, c->q.type == V4L2_CTRL_TYPE_INTEGER && ctrl_settable_int32(c) && c->q.step > 1)
APPLIES(is_settable_menu, ctrl_type_is_menu(c->q.type) && ctrl_settable_int32(c))
APPLIES(is_settable_bool, c->q.type == V4L2_CTRL_TYPE_BOOLEAN && ctrl_settable_int32(c))
APPLIES(is_settable_bitmask, c->q.type == V4L2_CTRL_TYPE_BITMASK && ctrl_settable_int32(c))
APPLIES(not_int32, !ctrl_is_scalar_int32(&c->q) && c->q.type != V4L2_CTRL_TYPE_CTRL_CLASS &&
	ctrl_type_known(c->q.type))
APPLIES(is_class, c->q.type == V4L2_CTRL_TYPE_CTRL_CLASS)
APPLIES(is_readable_int32, ctrl_is_scalar_int32(&c->q) && ctrl_readable(&c->q) &&
	!(c->q.flags & V4L2_CTRL_FLAG_DISABLED))

static bool roundtrip_applies(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	if (ctrl_settable_int32(c))
		return true;
	if (ctrl_is_scalar_int32(&c->q) && (c->q.flags & V4L2_CTRL_FLAG_VOLATILE) && ctrl_writable(&c->q) &&
	    c->q.type != V4L2_CTRL_TYPE_BUTTON)
		*why = "volatile: the value read back is the hardware's, not the one set";
	return false;
}

static const struct check_def checks[] = {
	{ "getset/nonexistent", "SC-5", "a nonexistent id gives EINVAL on QUERYCTRL, QUERY_EXT_CTRL, QUERYMENU, G_CTRL and S_CTRL",
	  CHECK_PER_ITEM, nonexistent, NULL, nonexistent_items, .needs = NEEDS_CTRLS },
	{ "getset/get-in-range", "SC-16", "G_CTRL works on readable integer-type controls, in range, equal to G_EXT_CTRLS",
	  CHECK_PER_CONTROL, get_in_range, is_readable_int32 },
	{ "getset/button-get", "SC-3", "G_CTRL on a button gives EACCES (EINVAL, the 2007 behaviour: warning)",
	  CHECK_PER_CONTROL, button_get, is_button },
	{ "getset/button-set", "SC-13", "S_CTRL on a button succeeds every time",
	  CHECK_PER_CONTROL, button_set, is_button },
	{ "getset/read-only-set", "SC-4", "S_CTRL on a read-only control gives EACCES and changes nothing; G_CTRL works",
	  CHECK_PER_CONTROL, read_only_set, is_read_only },
	{ "getset/write-only-get", "SC-3", "G_CTRL on a write-only control gives EACCES",
	  CHECK_PER_CONTROL, write_only_get, is_write_only },
	{ "getset/inactive-set", "FL-5", "an inactive control can still be set (or EACCES)",
	  CHECK_PER_CONTROL, inactive_set, is_inactive },
	{ "getset/out-of-range", "SC-6", "an out-of-range value is clamped or gives ERANGE, never stored out of range",
	  CHECK_PER_CONTROL, out_of_range, is_settable_integer },
	{ "getset/off-step", "SC-7", "a value off the step grid is rounded (or ERANGE), never stored off the grid",
	  CHECK_PER_CONTROL, off_step, has_step },
	{ "getset/menu-invalid", "SC-10", "a skipped item gives EINVAL, outside [min, max] ERANGE; the value is unchanged",
	  CHECK_PER_CONTROL, menu_invalid, is_settable_menu },
	{ "getset/menu-all-items", "SC-10", "every valid menu item can be set and read back",
	  CHECK_PER_CONTROL, menu_all_items, is_settable_menu },
	{ "getset/boolean-values", "SC-11", "a boolean stores a non-zero value as 1, a negative one as 1 or 0 (clamped, warn), or gives ERANGE",
	  CHECK_PER_CONTROL, boolean_values, is_settable_bool },
	{ "getset/bitmask-values", "SC-12", "bits outside a bitmask's maximum are dropped (or ERANGE)",
	  CHECK_PER_CONTROL, bitmask_values, is_settable_bitmask },
	{ "getset/old-ioctl-refused", "SC-2", "64-bit, string, array and compound controls are refused by G/S_CTRL",
	  CHECK_PER_CONTROL, old_ioctl_refused, not_int32 },
	{ "getset/class-control", "SC-2", "G/S_CTRL on a class control is refused",
	  CHECK_PER_CONTROL, class_control, is_class },
	{ "getset/roundtrip", "SC-9", "min, max, default and a middle value are written back and read back (G_CTRL and G_EXT)",
	  CHECK_PER_CONTROL, roundtrip, roundtrip_applies },
};
SUITE(suite_getset, "getset", "G_CTRL / S_CTRL", checks);
