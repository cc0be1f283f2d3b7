/* A control's minimum and maximum through G_EXT_CTRLS (6.15+):
 * which = V4L2_CTRL_WHICH_MIN_VAL / MAX_VAL, announced per control by
 * V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX, and the V4L2_CTRL_TYPE_RECT payload
 * (7.3 vidioc-g-ext-ctrls.rst lines 341-363, vidioc-queryctrl.rst lines
 * 452-461 and 690-693; the framework: v4l2-ctrls-api.c, -core.c).
 *
 * These rules exist from 6.15 on. On an older kernel the checks are
 * recorded skips: its rule book has no MIN/MAX, and a control there that
 * carries the flag is the flag checks' finding (enum/flags), not ours. */
#include "ctrl/kseries.h"
#include "ctrl/minmax.h"
#include "ctrl/ctrl_type.h"
#include "ctrl/ctrl_value.h"
#include "ctrl/ext_ctrls.h"
#include "check/registry.h"
#include "check/verdict.h"
#include <stdio.h>
#include <string.h>

#define R_FLAG "EX-23"	/* vidioc-g-ext-ctrls.rst 357-363, vidioc-queryctrl.rst 690-693 */
#define R_EQUAL "EX-24"	/* vidioc-g-ext-ctrls.rst 343-346 */
#define R_BETWEEN "EX-25"	/* vidioc-g-ext-ctrls.rst 343-346 with vidioc-queryctrl.rst's minimum/maximum */
#define R_SET "EX-26"	/* vidioc-g-ext-ctrls.rst 352-354; EINVAL for an invalid which: 92, 518-521 */
#define R_RECT "QC-21"	/* vidioc-queryctrl.rst 452-461, vidioc-g-ext-ctrls.rst 205-208 */
#define R_RECT_BOUNDS "EX-28"	/* vidioc-queryctrl.rst 458-461, uvcvideo.rst 268-276 */

static const char *which_name(uint32_t which)
{
	return which == V4L2_CTRL_WHICH_MIN_VAL ? "MIN_VAL" : "MAX_VAL";
}

static bool has_flag(const struct ctrl *c)
{
	return c->q.flags & V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX;
}

/* The control as the device describes it now: a dynamic array's element
 * count moves with every S (AR-5), and MIN/MAX have as many elements. */
static void fresh(const struct check_ctx *cx, struct ctrl *c)
{
	*c = *cx->ctrl;
	model_refresh(cx->dev, c);
}

/* ---------- applicability ---------- */

/* The kernel's rule book first: before 6.15 there is no MIN/MAX to judge. */
static bool kernel_has_rules(const char **why)
{
	if (kseries_has_minmax())
		return true;
	static char buf[160];
	snprintf(buf, sizeof(buf),
		 "the running kernel (%s) predates WHICH_MIN_VAL/MAX_VAL (6.15): its rule book has no MIN/MAX",
		 kseries_str(kseries_running()));
	*why = buf;
	return false;
}

/* Every control but a class control (no value of its own to bound). */
static bool any_valued(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	if (c->q.type == V4L2_CTRL_TYPE_CTRL_CLASS)
		return false;
	return kernel_has_rules(why);
}

static bool settable_valued(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	if (!any_valued(c, m, why))
		return false;
	if (c->excluded) {
		*why = "excluded by the board (--exclude-control): never written";
		return false;
	}
	return true;
}

/* Readable, flagged numeric controls: the ones with a minimum and maximum
 * value that QUERY_EXT_CTRL also reports. */
static bool numeric_flagged(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	if (!minmax_numeric(c->q.type) || !ctrl_readable(&c->q))
		return false;
	if (!kernel_has_rules(why))
		return false;
	return has_flag(c);
}

static bool is_rect(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return c->q.type == V4L2_CTRL_TYPE_RECT && kernel_has_rules(why);
}

static bool rect_flagged(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	if (!is_rect(c, m, why) || !has_flag(c) || !ctrl_readable(&c->q))
		return false;
	if (!minmax_rect_documented(c->q.id)) {
		/* vidioc-queryctrl.rst 460-461: the meaning is the control's
		 * documentation's; without one only EX-23 binds it (vivid's
		 * "Rect" default has top/left outside its maximum's 0/0). */
		*why = "no documentation of this RECT control defines its MIN/MAX (EX-28)";
		return false;
	}
	if (c->q.elem_size != sizeof(struct v4l2_rect)) {
		*why = "elem_size is not sizeof(struct v4l2_rect): minmax/rect-payload's finding";
		return false;
	}
	return true;
}

/* ---------- GX-MINMAX-1: the flag and the readable MIN/MAX go together ---------- */

static void flag_read(const struct check_ctx *cx)
{
	struct ctrl c;
	fresh(cx, &c);
	bool flag = has_flag(&c), wo = c.q.flags & V4L2_CTRL_FLAG_WRITE_ONLY;
	uint32_t whichs[] = { V4L2_CTRL_WHICH_MIN_VAL, V4L2_CTRL_WHICH_MAX_VAL };
	for (size_t i = 0; i < 2; i++) {
		struct ctrl_val v = { 0 };
		int e = ctrl_get(cx->dev, &c, whichs[i], &v);
		ctrl_val_free(&v);
		if (flag && wo)
			/* Nothing of a write-only control is read (EX-7). */
			expect_errno(e, EACCES, "G_EXT_CTRLS with which=%s of a write-only control with HAS_WHICH_MIN_MAX (%s)",
				     which_name(whichs[i]), R_FLAG);
		else if (flag)
			expect_ok(e, "G_EXT_CTRLS with which=%s of a control with HAS_WHICH_MIN_MAX (%s)",
				  which_name(whichs[i]), R_FLAG);
		else if (wo && e == EACCES)
			/* Both errnos are documented; the framework refuses the
			 * which first (prepare_ext_ctrls, 7.3 v4l2-ctrls-api.c:278). */
			v_warn("G_EXT_CTRLS with which=%s of a write-only control without HAS_WHICH_MIN_MAX gave EACCES; "
			       "the framework gives EINVAL (%s)", which_name(whichs[i]), R_FLAG);
		else
			expect_errno(e, EINVAL, "G_EXT_CTRLS with which=%s of a control without HAS_WHICH_MIN_MAX (%s)",
				     which_name(whichs[i]), R_FLAG);
	}
}

/* ---------- GX-MINMAX-2: MIN/MAX are QUERY_EXT_CTRL's minimum/maximum ---------- */

static void get_bound(const struct check_ctx *cx, const struct ctrl *c, uint32_t which, struct ctrl_val *v,
		      const char *rule)
{
	expect_ok(ctrl_get(cx->dev, c, which, v), "G_EXT_CTRLS with which=%s of a control with HAS_WHICH_MIN_MAX (%s)",
		  which_name(which), rule);
}

static void equals_query(const struct check_ctx *cx)
{
	struct ctrl c;
	fresh(cx, &c);
	uint32_t whichs[] = { V4L2_CTRL_WHICH_MIN_VAL, V4L2_CTRL_WHICH_MAX_VAL };
	int64_t want[] = { c.q.minimum, c.q.maximum };
	for (size_t i = 0; i < 2; i++) {
		struct ctrl_val v = { 0 };
		uint32_t bad;
		int64_t badv;
		get_bound(cx, &c, whichs[i], &v, R_EQUAL);
		bool same = minmax_all_equal(&c, &v, want[i], &bad, &badv);
		uint32_t n = minmax_elems(&c, &v);
		ctrl_val_free(&v);
		if (!same)
			ck_abort_msg("expected QUERY_EXT_CTRL's %s %lld in every element, got %lld in element %u of %u "
				     "(G_EXT_CTRLS with which=%s, %s)", i ? "maximum" : "minimum", (long long)want[i],
				     (long long)badv, bad, n, which_name(whichs[i]), R_EQUAL);
	}
}

/* ---------- GX-MINMAX-3: the current value lies between them ---------- */

static void current_between(const struct check_ctx *cx)
{
	struct ctrl c;
	fresh(cx, &c);
	struct ctrl_val lo = { 0 }, hi = { 0 }, cur = { 0 };
	get_bound(cx, &c, V4L2_CTRL_WHICH_MIN_VAL, &lo, R_BETWEEN);
	get_bound(cx, &c, V4L2_CTRL_WHICH_MAX_VAL, &hi, R_BETWEEN);
	expect_ok(ctrl_get(cx->dev, &c, V4L2_CTRL_WHICH_CUR_VAL, &cur), "G_EXT_CTRLS of the current value");
	uint32_t n = minmax_elems(&c, &cur);
	expect_eq(minmax_elems(&c, &lo), n, "elements of MIN_VAL against the current value's (%s)", R_BETWEEN);
	expect_eq(minmax_elems(&c, &hi), n, "elements of MAX_VAL against the current value's (%s)", R_BETWEEN);
	for (uint32_t i = 0; i < n; i++) {
		int64_t a = minmax_elem(&c, &lo, i), b = minmax_elem(&c, &hi, i), v = minmax_elem(&c, &cur, i);
		if (!minmax_elem_between(c.q.type, a, b, v))
			ck_abort_msg("expected the current value between MIN_VAL and MAX_VAL, got %lld outside %lld..%lld%s "
				     "in element %u of %u (%s)", (long long)v, (long long)a, (long long)b,
				     c.q.type == V4L2_CTRL_TYPE_BITMASK ? " (bits)" : "", i, n, R_BETWEEN);
	}
	ctrl_val_free(&lo);
	ctrl_val_free(&hi);
	ctrl_val_free(&cur);
}

/* ---------- GX-MINMAX-4: S/TRY with which=MIN_VAL/MAX_VAL are refused ---------- */

static void set_refused(const struct check_ctx *cx)
{
	struct ctrl c;
	fresh(cx, &c);
	bool readable = ctrl_readable(&c.q);
	struct ctrl_val before = { 0 };
	if (readable)
		expect_ok(ctrl_get(cx->dev, &c, V4L2_CTRL_WHICH_CUR_VAL, &before), "G_EXT_CTRLS of the current value");
	unsigned long reqs[] = { VIDIOC_TRY_EXT_CTRLS, VIDIOC_S_EXT_CTRLS };
	uint32_t whichs[] = { V4L2_CTRL_WHICH_MIN_VAL, V4L2_CTRL_WHICH_MAX_VAL };
	for (size_t r = 0; r < 2; r++)
		for (size_t w = 0; w < 2; w++) {
			struct ext_batch b;
			ext_init(&b, whichs[w]);
			/* The current value: a driver that took the call as a set
			 * would store what is there, refused or not. */
			if (readable)
				ext_add_val(&b, &c, &before);
			else
				ext_add(&b, &c, 0);
			int e = ext_do(cx->dev, reqs[r], &b);
			uint32_t idx = b.cs.error_idx;
			ext_free(&b);
			expect_errno(e, EINVAL, "%s with which=%s: the minimum and maximum cannot be set or tried (%s)",
				     ext_req_name(reqs[r]), which_name(whichs[w]), R_SET);
			/* Refused before any control is looked at (check_ext_ctrls,
			 * 7.3 v4l2-ioctl.c:896-902): not one entry's fault. */
			expect_eq(idx, 1, "error_idx after %s with which=%s (count 1): count (%s)", ext_req_name(reqs[r]),
				  which_name(whichs[w]), R_SET);
		}
	ctrl_val_free(&before);
}

/* ---------- GX-MINMAX-5: RECT is a struct v4l2_rect payload ---------- */

static void rect_payload(const struct check_ctx *cx)
{
	struct ctrl c;
	fresh(cx, &c);
	expect_eq(c.q.elem_size, sizeof(struct v4l2_rect), "elem_size of a RECT control: sizeof(struct v4l2_rect) (%s)",
		  R_RECT);
	ck_assert_msg(c.q.flags & V4L2_CTRL_FLAG_HAS_PAYLOAD,
		      "expected HAS_PAYLOAD on a RECT control (its value is in p_rect), got flags 0x%x (%s)", c.q.flags,
		      R_RECT);
	if (!ctrl_readable(&c.q))
		return;
	struct ctrl_val cur = { 0 };
	uint32_t size = c.q.elem_size * c.q.elems;
	expect_ok(ctrl_get(cx->dev, &c, V4L2_CTRL_WHICH_CUR_VAL, &cur),
		  "G_EXT_CTRLS of a RECT control through p_rect, size %u (%s)", size, R_RECT);
	expect_eq(cur.size, size, "size after G_EXT_CTRLS of a RECT control (%s)", R_RECT);
	ctrl_val_free(&cur);
}

/* ---------- GX-MINMAX-6: a RECT control's MIN/MAX bound its size ---------- */

static void rect_bounds(const struct check_ctx *cx)
{
	struct ctrl c;
	fresh(cx, &c);
	struct ctrl_val lo = { 0 }, hi = { 0 }, cur = { 0 };
	get_bound(cx, &c, V4L2_CTRL_WHICH_MIN_VAL, &lo, R_RECT_BOUNDS);
	get_bound(cx, &c, V4L2_CTRL_WHICH_MAX_VAL, &hi, R_RECT_BOUNDS);
	expect_ok(ctrl_get(cx->dev, &c, V4L2_CTRL_WHICH_CUR_VAL, &cur), "G_EXT_CTRLS of the current value");
	char why[160];
	uint32_t n = c.q.elem_size ? cur.size / c.q.elem_size : 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct v4l2_rect *a = (const struct v4l2_rect *)lo.p + i, *b = (const struct v4l2_rect *)hi.p + i,
				       *v = (const struct v4l2_rect *)cur.p + i;
		/* uvcvideo.rst 275-276: MIN/MAX give the range of sizes;
		 * left and top are not bounded by them. */
		if (!minmax_rect_between(a, b, v, why, sizeof(why)))
			ck_abort_msg("expected the rectangle's size between MIN_VAL and MAX_VAL, got: %s (element %u, %s)",
				     why, i, R_RECT_BOUNDS);
	}
	ctrl_val_free(&lo);
	ctrl_val_free(&hi);
	ctrl_val_free(&cur);
}

static const struct check_def checks[] = {
	{ "minmax/flag-read", R_FLAG,
	  "HAS_WHICH_MIN_MAX set: G_EXT_CTRLS with which=MIN_VAL and MAX_VAL succeed; clear: both give EINVAL",
	  CHECK_PER_CONTROL, flag_read, any_valued, .needs = NEEDS_EXT },
	{ "minmax/equals-query", R_EQUAL,
	  "MIN_VAL and MAX_VAL are QUERY_EXT_CTRL's minimum and maximum, in every element of an array",
	  CHECK_PER_CONTROL, equals_query, numeric_flagged, .needs = NEEDS_EXT },
	{ "minmax/current-between", R_BETWEEN, "every element of the current value lies between MIN_VAL and MAX_VAL",
	  CHECK_PER_CONTROL, current_between, numeric_flagged, .needs = NEEDS_EXT },
	{ "minmax/set-refused", R_SET, "S_EXT_CTRLS and TRY_EXT_CTRLS with which=MIN_VAL or MAX_VAL give EINVAL",
	  CHECK_PER_CONTROL, set_refused, settable_valued, .needs = NEEDS_EXT },
	{ "minmax/rect-payload", R_RECT,
	  "a RECT control has elem_size sizeof(struct v4l2_rect), HAS_PAYLOAD, and reads through p_rect",
	  CHECK_PER_CONTROL, rect_payload, is_rect, .needs = NEEDS_EXT },
	{ "minmax/rect-bounds", R_RECT_BOUNDS,
	  "a documented RECT control with HAS_WHICH_MIN_MAX (uvcvideo's ROI): its size lies between MIN_VAL's and MAX_VAL's",
	  CHECK_PER_CONTROL, rect_bounds, rect_flagged, .needs = NEEDS_EXT },
};
SUITE(suite_minmax, "minmax", "WHICH_MIN_VAL / MAX_VAL and RECT (6.15+)", checks);
