/* What VIDIOC_S/TRY_EXT_CTRLS apply (spec section 4, values per section
 * 5): all or nothing on a validation error and error_idx < count for a
 * partial apply (EX-12, EX-13), TRY adjusts without changing (EX-14),
 * clamping through the extended path agrees with S_CTRL (VA-1, EX-15),
 * 64-bit values kept whole (EX-21), the same control twice (EX-16). The
 * check table is in suite_ext.c. */
#include "ctrl/ctrl_payload.h"
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_snapshot.h"
#include "ctrl/ctrl_type.h"
#include "ctrl/ctrl_value.h"
#include "ctrl/fw_value.h"
#include "ctrl/ext_ctrls.h"
#include "check/registry.h"
#include "suite_ext.h"
#include "check/verdict.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

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
			if (ext_readable_scalar(&m->c[i]) && V4L2_CTRL_ID2WHICH(m->c[i].q.id) != V4L2_CTRL_ID2WHICH(pick[0]->q.id))
				return true;
		return false;
	}
	const struct ctrl *b = bad_ctrl(m, k);
	return b && ext_pick_plain(m, 0, &b, 1, pick, 1) > 0;
}

bool ext_atomic_items(const struct ctrl_model *m, long i, char *slug, size_t len)
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

void ext_atomic(const struct check_ctx *cx)
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
	ext_snapshot_take(cx, &s);
	ext_init(&b, cls ? cls : V4L2_CTRL_WHICH_CUR_VAL);
	size_t np = ext_add_changes(&b, cx->dev, cx->model, cls, bad ? &bad : NULL, bad ? 1 : 0, 4, NULL);
	ck_assert_msg(np > 0, "no control whose value can be changed");
	switch (k) {
	case BAD_UNKNOWN:
		ext_add_id(&b, ext_unknown_id(cx->model, 0));
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
			if (ext_readable_scalar(c) && V4L2_CTRL_ID2WHICH(c->q.id) != cls) {
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
	ext_expect_unchanged(cx, &s, msg);
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

bool ext_partial_items(const struct ctrl_model *m, long i, char *slug, size_t len)
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

void ext_partial(const struct check_ctx *cx)
{
	long n = 0;
	enum partial_kind k = PART_N;
	for (int j = 0; j < PART_N; j++)
		if (partial_ctrl(cx->model, (enum partial_kind)j) && n++ == cx->item)
			k = (enum partial_kind)j;
	ck_assert(k != PART_N);
	const struct ctrl *bad = partial_ctrl(cx->model, k);
	struct snapshot s;
	ext_snapshot_take(cx, &s);
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
			if (ext_as_ctrl_width(c, v.v) != ext_as_ctrl_width(c, exp)) {
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

void ext_try_no_change(const struct check_ctx *cx)
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

void ext_clamp_agrees(const struct check_ctx *cx)
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

void ext_int64_range(const struct check_ctx *cx)
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

void ext_duplicate_id(const struct check_ctx *cx)
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
		int e = ext_do(cx->dev, ext_requests[r], &b);
		int64_t now = 0;
		expect_ok(ctrl_get_scalar(cx->dev, c, &now), "G of %s", c->q.name);
		if (e == EINVAL) {
			v_info("%s with %s twice: EINVAL", ext_req_name(ext_requests[r]), c->q.name);
			if (ext_requests[r] == VIDIOC_S_EXT_CTRLS && b.cs.error_idx == 2)
				expect_eq(now, cur, "S_EXT_CTRLS refused the duplicate with error_idx = count, so nothing may change (EX-16, EX-12)");
		} else {
			expect_ok(e, "%s with %s twice (EX-16: last wins, or EINVAL)", ext_req_name(ext_requests[r]), c->q.name);
			if (ext_requests[r] == VIDIOC_G_EXT_CTRLS) {
				expect_eq(ext_scalar(&b, 0), cur, "G_EXT_CTRLS with the control twice: entry 0");
				expect_eq(ext_scalar(&b, 1), cur, "G_EXT_CTRLS with the control twice: entry 1");
			} else if (ext_requests[r] == VIDIOC_TRY_EXT_CTRLS) {
				expect_eq(now, cur, "TRY_EXT_CTRLS with the control twice must change nothing (EX-14)");
			} else {
				expect_eq(now, v2, "S_EXT_CTRLS %s = %lld then = %lld: the last value must win (EX-16)", c->q.name,
					  (long long)v1, (long long)v2);
			}
		}
		ext_free(&b);
	}
}
