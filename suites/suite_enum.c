/* Enumeration: every method, their agreement, and what each description
 * must hold (spec section 1). */
#include "ctrl/ctrl_enum.h"
#include "ctrl/ctrl_type.h"
#include "ctrl/rulebook.h"
#include "dev/codec_kind.h"
#include "check/registry.h"
#include "check/verdict.h"
#include <stdio.h>
#include <string.h>

#define NEXT_BOTH (V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND)

static void check_walk(const struct id_list *l, const char *what, bool compound_allowed,
		       const struct check_ctx *cx)
{
	ck_assert_msg(!l->aborted, "%s: expected strictly ascending ids ending in EINVAL, got a walk that "
		      "stopped increasing after %zu ids (last 0x%08x)", what, l->n, l->n ? l->id[l->n - 1] : 0);
	expect_errno(l->end_err, EINVAL, "%s: the walk must end with EINVAL after the last control", what);
	for (size_t i = 0; i < l->n; i++) {
		uint32_t id = l->id[i];
		ck_assert_msg(!(id & (V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND)),
			      "%s: expected the NEXT flags cleared in the returned id, got 0x%08x", what, id);
		ck_assert_msg(id < V4L2_CID_PRIVATE_BASE,
			      "%s: expected no id >= PRIVATE_BASE, got 0x%08x", what, id);
		if (i)
			ck_assert_msg(id > l->id[i - 1], "%s: expected ascending ids, got 0x%08x after 0x%08x",
				      what, id, l->id[i - 1]);
		if (!compound_allowed) {
			const struct ctrl *c = model_find(cx->model, id);
			ck_assert_msg(!c || !ctrl_is_compound(&c->q),
				      "%s: expected only non-compound controls, got compound 0x%08x (%s)", what,
				      id, c ? c->q.name : "?");
		}
	}
}

static void same_list(const struct id_list *a, const struct id_list *b, const char *what)
{
	ck_assert_msg(a->n == b->n, "%s: expected the same %zu ids, got %zu", what, a->n, b->n);
	for (size_t i = 0; i < a->n; i++)
		ck_assert_msg(a->id[i] == b->id[i], "%s: expected 0x%08x at position %zu, got 0x%08x", what,
			      a->id[i], i, b->id[i]);
}

static void next_ctrl_walk(const struct check_ctx *cx)
{
	struct id_list a, b;
	enum_next_ctrl(cx->dev, &a);
	check_walk(&a, "QUERYCTRL|NEXT_CTRL", false, cx);
	enum_next_ctrl(cx->dev, &b);
	same_list(&a, &b, "a second NEXT_CTRL walk (PE-4)");
	id_list_free(&a);
	id_list_free(&b);
}

static void next_ext_walk(const struct check_ctx *cx)
{
	struct id_list all, simple, compound;
	enum_next_ext(cx->dev, NEXT_BOTH, &all);
	check_walk(&all, "QUERY_EXT_CTRL|NEXT_CTRL|NEXT_COMPOUND", true, cx);
	enum_next_ext(cx->dev, V4L2_CTRL_FLAG_NEXT_CTRL, &simple);
	check_walk(&simple, "QUERY_EXT_CTRL|NEXT_CTRL", false, cx);
	enum_next_ext(cx->dev, V4L2_CTRL_FLAG_NEXT_COMPOUND, &compound);
	check_walk(&compound, "QUERY_EXT_CTRL|NEXT_COMPOUND", true, cx);
	/* NEXT_CTRL and NEXT_COMPOUND split the full walk between them (QC-4). */
	for (size_t i = 0; i < compound.n; i++) {
		const struct ctrl *c = model_find(cx->model, compound.id[i]);
		ck_assert_msg(c && ctrl_is_compound(&c->q),
			      "NEXT_COMPOUND alone: expected only compound controls, got 0x%08x (%s)",
			      compound.id[i], c ? c->q.name : "?");
	}
	ck_assert_msg(simple.n + compound.n == all.n,
		      "expected NEXT_CTRL (%zu) + NEXT_COMPOUND (%zu) walks to cover the full walk (%zu)",
		      simple.n, compound.n, all.n);
	id_list_free(&all);
	id_list_free(&simple);
	id_list_free(&compound);
}

/* Each class with non-compound controls starts with its class control (QC-6). */
static void class_controls(const struct check_ctx *cx)
{
	const struct ctrl_model *m = cx->model;
	for (size_t i = 0; i < m->n; i++) {
		const struct ctrl *c = &m->c[i];
		if (ctrl_is_compound(&c->q) || c->q.type == V4L2_CTRL_TYPE_CTRL_CLASS)
			continue;
		uint32_t cls = V4L2_CTRL_ID2WHICH(c->q.id);
		const struct ctrl *cc = model_find(m, cls | 1);
		ck_assert_msg(cc, "expected a control class 0x%08x for %s (0x%08x), got none", cls | 1,
			      c->q.name, c->q.id);
		ck_assert_msg(cc->q.type == V4L2_CTRL_TYPE_CTRL_CLASS,
			      "expected 0x%08x to be of type ctrl-class, got type %u", cls | 1, cc->q.type);
	}
}

/* PRIVATE_BASE+n aliases the n-th driver-private USER-class integer-type
 * control (QC-7); zero aliases is legal. */
/* A control PRIVATE_BASE+n can alias: a driver-private user-class control
 * that G/S_CTRL can handle (not 64-bit, not a payload), as the framework's
 * find_private_ref() counts them. */
static bool aliasable(const struct v4l2_query_ext_ctrl *q)
{
	return q->id < V4L2_CID_PRIVATE_BASE && V4L2_CTRL_ID2WHICH(q->id) == V4L2_CTRL_CLASS_USER &&
	       V4L2_CTRL_DRIVER_PRIV(q->id) && ctrl_type_is_int32(q->type) && !ctrl_has_payload(q);
}

/* The footnote of vidioc-queryctrl.rst (FL-1): EINVAL cannot be used to skip
 * a private control, because it ends the old-style enumeration early; a
 * driver that offers the aliases at all offers one for each such control,
 * DISABLED ones included. (None at all is legal: uvcvideo has none.) */
static void aliases_complete(const struct check_ctx *cx, uint32_t n_aliases)
{
	size_t want = 0;
	const char *first = NULL;
	for (size_t i = 0; i < cx->model->n; i++)
		if (aliasable(&cx->model->c[i].q)) {
			if (want++ == n_aliases)
				first = cx->model->c[i].q.name;
		}
	if (n_aliases == 0 || n_aliases >= want)
		return;
	ck_abort_msg("expected PRIVATE_BASE+n to reach all %zu driver-private user controls G/S_CTRL can handle, got "
		     "EINVAL after %u: '%s' and the rest are cut off (an EINVAL cannot skip a private control, "
		     "vidioc-queryctrl.rst footnote; QC-7, FL-1)", want, n_aliases, first);
}

static void private_aliases(const struct check_ctx *cx)
{
	for (uint32_t n = 0; n < 64; n++) {
		struct v4l2_queryctrl qc = { .id = V4L2_CID_PRIVATE_BASE + n };
		int e = dev_ioctl(cx->dev, VIDIOC_QUERYCTRL, &qc);
		if (e) {
			expect_errno(e, EINVAL, "QUERYCTRL PRIVATE_BASE+%u after the last alias", n);
			aliases_complete(cx, n);
			return;
		}
		ck_assert_msg(qc.id == V4L2_CID_PRIVATE_BASE + n,
			      "expected PRIVATE_BASE+%u to come back as the alias id, got 0x%08x", n, qc.id);
		bool matched = false;
		for (size_t i = 0; i < cx->model->n && !matched; i++) {
			const struct ctrl *c = &cx->model->c[i];
			matched = c->q.id < V4L2_CID_PRIVATE_BASE && c->q.type == qc.type &&
				  !strncmp(c->q.name, (const char *)qc.name, sizeof(qc.name));
		}
		ck_assert_msg(matched, "expected PRIVATE_BASE+%u ('%.32s') to alias an enumerated control, "
			      "got no control with that name and type", n, (const char *)qc.name);
	}
	ck_abort_msg("expected the PRIVATE_BASE+n aliases to end with EINVAL, got 64 of them");
}

/* QC-2: a query by an id the device does not have is EINVAL. The ids are 0
 * and every unused id of the old user range CID_BASE..LASTP1, the ones a
 * driver with a hand-written switch is most likely to answer. ENOTTY only
 * where the node has no controls at all (or no QUERY_EXT_CTRL). */
static void query_unknown(const struct dev *d, uint32_t id, bool qc_works, bool qext_works)
{
	struct v4l2_queryctrl qc = { .id = id };
	int e = dev_ioctl(d, VIDIOC_QUERYCTRL, &qc);
	if (qc_works || e != ENOTTY)
		expect_errno(e, EINVAL, "QUERYCTRL of the unknown id 0x%08x (came back as 0x%08x '%.32s')",
			     id, qc.id, (const char *)qc.name);
	struct v4l2_query_ext_ctrl q = { .id = id };
	e = dev_ioctl(d, VIDIOC_QUERY_EXT_CTRL, &q);
	if (qext_works || e != ENOTTY)
		expect_errno(e, EINVAL, "QUERY_EXT_CTRL of the unknown id 0x%08x (came back as 0x%08x '%.32s')",
			     id, q.id, q.name);
}

static void unknown_id(const struct check_ctx *cx)
{
	const struct ctrl_model *m = cx->model;
	query_unknown(cx->dev, 0, m->n > 0, m->qext_works);
	for (uint32_t id = V4L2_CID_BASE; id < V4L2_CID_LASTP1; id++)
		if (!model_find(m, id))
			query_unknown(cx->dev, id, m->n > 0, m->qext_works);
}

/* QC-5 (extended-controls.rst, "Enumerating Extended Controls"): the NEXT
 * walk never reaches the old PRIVATE_BASE range, so a query of
 * PRIVATE_BASE with a NEXT flag fails with EINVAL: the aliases are only
 * found by exact id (QC-7). A driver that keeps handing out its private
 * controls from there makes the doc's mixed enumeration loop forever. */
static void private_next(const struct check_ctx *cx)
{
	static const uint32_t flags[] = { V4L2_CTRL_FLAG_NEXT_CTRL, NEXT_BOTH };
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		uint32_t id = V4L2_CID_PRIVATE_BASE | flags[i];
		struct v4l2_queryctrl qc = { .id = id };
		int e = dev_ioctl(cx->dev, VIDIOC_QUERYCTRL, &qc);
		ck_assert_msg(e == EINVAL, "expected QUERYCTRL 0x%08x (PRIVATE_BASE with NEXT flags) to give EINVAL "
			      "(QC-5), got %s (id 0x%08x '%.32s')", id, e ? strerror(e) : "success", qc.id,
			      (const char *)qc.name);
		struct v4l2_query_ext_ctrl qe = { .id = id };
		e = dev_ioctl(cx->dev, VIDIOC_QUERY_EXT_CTRL, &qe);
		if (e != ENOTTY)
			ck_assert_msg(e == EINVAL, "expected QUERY_EXT_CTRL 0x%08x to give EINVAL (QC-5), got %s (id 0x%08x)",
				      id, e ? strerror(e) : "success", qe.id);
	}
}

static bool name_ok(const char *name, size_t len)
{
	return memchr(name, 0, len) && name[0];
}

static void query(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	struct v4l2_query_ext_ctrl q;
	memset(&q, 0xff, sizeof(q));	/* QC-19: fields other than id are ignored */
	q.id = c->q.id;
	int e = dev_ioctl(cx->dev, VIDIOC_QUERY_EXT_CTRL, &q);
	if (e == ENOTTY) {
		struct v4l2_queryctrl qc;
		memset(&qc, 0xff, sizeof(qc));
		qc.id = c->q.id;
		expect_ok(dev_ioctl(cx->dev, VIDIOC_QUERYCTRL, &qc), "QUERYCTRL 0x%08x", c->q.id);
		ck_assert_msg(qc.id == c->q.id, "expected id 0x%08x back, got 0x%08x", c->q.id, qc.id);
		ck_assert_msg(name_ok((const char *)qc.name, sizeof(qc.name)),
			      "expected a non-empty NUL-terminated name within 32 bytes");
		v_info("no QUERY_EXT_CTRL: checked through QUERYCTRL");
		return;
	}
	expect_ok(e, "QUERY_EXT_CTRL by exact id 0x%08x", c->q.id);
	ck_assert_msg(q.id == c->q.id, "expected id 0x%08x back, got 0x%08x", c->q.id, q.id);
	ck_assert_msg(name_ok(q.name, sizeof(q.name)),
		      "expected a non-empty name NUL-terminated within 32 bytes (QC-10)");
	/* QC-22: a type no rule book knows fails on a kernel the rule book
	 * covers and is one warning (enum/newer-constant) on a newer one; a
	 * type the running kernel cannot have yet fails. */
	char why[300];
	enum rb_verdict tv = rb_judge(rb_running(), RB_TYPE, q.type, NULL);
	ck_assert_msg(!rb_fails(tv), "expected a control type the rule book knows for this kernel (QC-22), got %u: %s",
		      q.type, rb_why(rb_running(), RB_TYPE, q.type, why, sizeof(why)));
	for (size_t i = 0; i < sizeof(q.reserved) / sizeof(q.reserved[0]); i++)
		ck_assert_msg(!q.reserved[i], "expected reserved[%zu] = 0 (QC-9), got 0x%x", i, q.reserved[i]);
	uint32_t low = q.id & 0xffff;
	if (q.type == V4L2_CTRL_TYPE_CTRL_CLASS)
		ck_assert_msg(low == 1, "expected a class control id ending in 0x0001 (QC-14), got 0x%08x", q.id);
	else
		ck_assert_msg(low >= 0x900, "expected id & 0xffff >= 0x900 (QC-14), got 0x%08x", q.id);
	ck_assert_msg(memcmp(&q, &c->q, sizeof(q)) == 0 || (q.flags & (V4L2_CTRL_FLAG_VOLATILE |
		      V4L2_CTRL_FLAG_UPDATE | V4L2_CTRL_FLAG_INACTIVE | V4L2_CTRL_FLAG_GRABBED)) ||
		      (c->q.flags & V4L2_CTRL_FLAG_INACTIVE),
		      "expected the same description as at enumeration (PE-4), got a different one");
}

static void range(const struct check_ctx *cx)
{
	const struct v4l2_query_ext_ctrl *q = &cx->ctrl->q;
	switch (q->type) {
	case V4L2_CTRL_TYPE_INTEGER:
	case V4L2_CTRL_TYPE_INTEGER64:
	case V4L2_CTRL_TYPE_U8:
	case V4L2_CTRL_TYPE_U16:
	case V4L2_CTRL_TYPE_U32:
		ck_assert_msg(q->minimum <= q->default_value && q->default_value <= q->maximum,
			      "expected min <= default <= max, got %lld <= %lld <= %lld",
			      (long long)q->minimum, (long long)q->default_value, (long long)q->maximum);
		ck_assert_msg(q->step >= 1, "expected step >= 1, got %llu", (unsigned long long)q->step);
		if (q->maximum > q->minimum)
			ck_assert_msg((__int128)q->step <= (__int128)q->maximum - q->minimum,
				      "expected step <= max - min (QC-12), got step %llu for %lld..%lld",
				      (unsigned long long)q->step, (long long)q->minimum, (long long)q->maximum);
		ck_assert_msg(((__int128)q->default_value - q->minimum) % (__int128)q->step == 0,
			      "expected (default - min) a multiple of step, got default %lld, min %lld, step %llu",
			      (long long)q->default_value, (long long)q->minimum, (unsigned long long)q->step);
		if (((__int128)q->maximum - q->minimum) % (__int128)q->step)
			v_warn("(max - min) = %lld is not a multiple of step %llu (QC-12)",
			       (long long)(q->maximum - q->minimum), (unsigned long long)q->step);
		break;
	case V4L2_CTRL_TYPE_BOOLEAN:
		ck_assert_msg(q->minimum == 0 && q->maximum == 1 && q->step == 1,
			      "expected a boolean range 0..1 step 1, got %lld..%lld step %llu",
			      (long long)q->minimum, (long long)q->maximum, (unsigned long long)q->step);
		ck_assert_msg(q->default_value == 0 || q->default_value == 1,
			      "expected a boolean default 0 or 1, got %lld", (long long)q->default_value);
		break;
	case V4L2_CTRL_TYPE_MENU:
	case V4L2_CTRL_TYPE_INTEGER_MENU:
		ck_assert_msg(q->minimum >= 0 && q->minimum <= q->default_value &&
			      q->default_value <= q->maximum,
			      "expected 0 <= min <= default <= max, got %lld, %lld, %lld", (long long)q->minimum,
			      (long long)q->default_value, (long long)q->maximum);
		ck_assert_msg(q->step == 1, "expected a menu to report step 1, got %llu",
			      (unsigned long long)q->step);
		break;
	case V4L2_CTRL_TYPE_BITMASK:
		ck_assert_msg(q->minimum == 0 && q->step == 0 && q->maximum != 0,
			      "expected a bitmask min 0, step 0, max != 0, got %lld, %llu, 0x%llx",
			      (long long)q->minimum, (unsigned long long)q->step, (long long)q->maximum);
		ck_assert_msg(!((uint64_t)q->default_value & ~(uint64_t)q->maximum),
			      "expected default bits within max 0x%llx, got 0x%llx", (long long)q->maximum,
			      (long long)q->default_value);
		break;
	case V4L2_CTRL_TYPE_BUTTON:
	case V4L2_CTRL_TYPE_CTRL_CLASS:
		ck_assert_msg(!q->minimum && !q->maximum && !q->step && !q->default_value,
			      "expected min/max/step/default all 0 for a %s, got %lld/%lld/%llu/%lld",
			      ctrl_type_name(q->type), (long long)q->minimum, (long long)q->maximum,
			      (unsigned long long)q->step, (long long)q->default_value);
		break;
	case V4L2_CTRL_TYPE_STRING:
		ck_assert_msg(q->minimum >= 0 && q->minimum <= q->maximum && q->step >= 1 &&
			      q->default_value == 0,
			      "expected a string 0 <= min <= max, step >= 1, default 0, got %lld..%lld step %llu default %lld",
			      (long long)q->minimum, (long long)q->maximum, (unsigned long long)q->step,
			      (long long)q->default_value);
		break;
	default:
		break;
	}
	/* QC-16: element size and count. */
	uint32_t want = 0;
	switch (q->type) {
	case V4L2_CTRL_TYPE_INTEGER64: want = 8; break;
	case V4L2_CTRL_TYPE_STRING: want = (uint32_t)q->maximum + 1; break;
	case V4L2_CTRL_TYPE_U8: want = 1; break;
	case V4L2_CTRL_TYPE_U16: want = 2; break;
	case V4L2_CTRL_TYPE_U32: want = 4; break;
	default: if (ctrl_type_is_int32(q->type) || q->type == V4L2_CTRL_TYPE_CTRL_CLASS) want = 4;
	}
	if (!want)	/* a compound type: the size of its uapi structure */
		want = (uint32_t)ctrl_type_struct_size(q->type);
	if (want && cx->ctrl->have_qext)
		ck_assert_msg(q->elem_size == want, "expected elem_size %u for a %s, got %u", want,
			      ctrl_type_name(q->type), q->elem_size);
	if (cx->ctrl->have_qext) {
		uint64_t elems = 1;
		for (uint32_t i = 0; i < q->nr_of_dims && i < V4L2_CTRL_MAX_DIMS; i++) {
			ck_assert_msg(q->dims[i], "expected dims[%u] != 0 for nr_of_dims %u", i, q->nr_of_dims);
			elems *= q->dims[i];
		}
		for (uint32_t i = q->nr_of_dims; i < V4L2_CTRL_MAX_DIMS; i++)
			ck_assert_msg(!q->dims[i], "expected dims[%u] = 0 past nr_of_dims %u", i, q->nr_of_dims);
		ck_assert_msg(q->elems >= 1, "expected elems >= 1, got %u", q->elems);
		if (!(q->flags & V4L2_CTRL_FLAG_DYNAMIC_ARRAY))
			ck_assert_msg(q->elems == elems, "expected elems = product of dims = %llu, got %u",
				      (unsigned long long)elems, q->elems);
	}
}

static void flags(const struct check_ctx *cx)
{
	const struct v4l2_query_ext_ctrl *q = &cx->ctrl->q;
	char fs[200];
	ctrl_flags_str(q->flags, fs, sizeof(fs));
	/* FL-14, QC-22: each flag bit is one the rule book of the running
	 * kernel knows and the kernel can have; a bit newer than every rule
	 * book is reported once by enum/newer-constant, not here. */
	for (unsigned b = 0; b < 32; b++) {
		char why[300];
		if (!(q->flags & (1u << b)))
			continue;
		enum rb_verdict v = rb_judge(rb_running(), RB_FLAG, 1u << b, NULL);
		ck_assert_msg(!rb_fails(v), "expected only flags the rule book knows for this kernel (FL-14), got 0x%x (%s): %s",
			      q->flags, fs, rb_why(rb_running(), RB_FLAG, 1u << b, why, sizeof(why)));
	}
	if (q->type == V4L2_CTRL_TYPE_CTRL_CLASS) {
		ck_assert_msg((q->flags & (V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_WRITE_ONLY)) ==
			      (V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_WRITE_ONLY),
			      "expected a class control to be read-only|write-only, got %s", fs);
		return;
	}
	ck_assert_msg((q->flags & (V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_WRITE_ONLY)) !=
		      (V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_WRITE_ONLY),
		      "expected not both read-only and write-only, got %s", fs);
	if (q->type == V4L2_CTRL_TYPE_BUTTON)
		ck_assert_msg((q->flags & V4L2_CTRL_FLAG_WRITE_ONLY) && !(q->flags & V4L2_CTRL_FLAG_READ_ONLY),
			      "expected a button to be write-only and not read-only, got %s", fs);
	if (q->flags & V4L2_CTRL_FLAG_SLIDER)
		ck_assert_msg(q->type == V4L2_CTRL_TYPE_INTEGER || q->type == V4L2_CTRL_TYPE_INTEGER64,
			      "expected the slider flag only on integer types, got it on a %s",
			      ctrl_type_name(q->type));
	/* DISABLED is allowed at any time: the documentation describes it as
	 * a driver's way to keep an unsupported control (FL-1, footnote of
	 * vidioc-queryctrl.rst); flags/disabled-* check how it behaves. */
	ck_assert_msg(!(q->flags & V4L2_CTRL_FLAG_GRABBED),
		      "expected grabbed clear while idle (QC-13), got %s", fs);
	if (cx->ctrl->have_qext)
		ck_assert_msg(!!(q->flags & V4L2_CTRL_FLAG_HAS_PAYLOAD) == ctrl_payload_expected(q),
			      "expected has-payload %s for a %s%s control with %u dims, %u elems (QC-17), got %s",
			      ctrl_payload_expected(q) ? "set" : "clear", ctrl_type_name(q->type),
			      ctrl_is_array(q) ? " array" : "", q->nr_of_dims, q->elems, fs);
	if (q->flags & V4L2_CTRL_FLAG_DYNAMIC_ARRAY)
		ck_assert_msg(q->nr_of_dims == 1 && q->elems >= 1 && q->elems <= q->dims[0],
			      "expected a dynamic array to have 1 dim and 1 <= elems <= dims[0] (FL-12), got "
			      "%u dims, %u elems", q->nr_of_dims, q->elems);
}

/* QC-20, QC-15: QUERYCTRL is QUERY_EXT_CTRL seen through the old struct. */
static void qc_vs_qext(const struct check_ctx *cx)
{
	const struct v4l2_query_ext_ctrl *q = &cx->ctrl->q;
	struct v4l2_queryctrl qc;
	memset(&qc, 0xff, sizeof(qc));
	qc.id = q->id;
	expect_ok(dev_ioctl(cx->dev, VIDIOC_QUERYCTRL, &qc), "QUERYCTRL by exact id 0x%08x", q->id);
	ck_assert_msg(qc.id == q->id, "expected id 0x%08x back, got 0x%08x", q->id, qc.id);
	ck_assert_msg(qc.type == q->type, "expected type %u as QUERY_EXT_CTRL says, got %u", q->type, qc.type);
	ck_assert_msg(!strncmp((const char *)qc.name, q->name, sizeof(qc.name)),
		      "expected name '%.32s' as QUERY_EXT_CTRL says, got '%.32s'", q->name, (const char *)qc.name);
	ck_assert_msg(qc.flags == q->flags || (q->flags & V4L2_CTRL_FLAG_VOLATILE),
		      "expected flags 0x%x as QUERY_EXT_CTRL says, got 0x%x", q->flags, qc.flags);
	ck_assert_msg(!qc.reserved[0] && !qc.reserved[1], "expected QUERYCTRL reserved[] zero, got %u %u",
		      qc.reserved[0], qc.reserved[1]);
	bool full = ctrl_type_is_int32(q->type) || q->type == V4L2_CTRL_TYPE_STRING;
	full = full && q->type != V4L2_CTRL_TYPE_BUTTON;
	/* The old struct has 32-bit fields: a bitmask maximum of 0x80402010
	 * reads back negative there, which is the same value. */
	int32_t mn = full ? (int32_t)q->minimum : 0, mx = full ? (int32_t)q->maximum : 0,
		st = full ? (int32_t)q->step : 0, df = full ? (int32_t)q->default_value : 0;
	ck_assert_msg(qc.minimum == mn && qc.maximum == mx && qc.step == st && qc.default_value == df,
		      "expected min/max/step/default %d/%d/%d/%d (QC-20, QC-15), got %d/%d/%d/%d", mn, mx,
		      st, df, qc.minimum, qc.maximum, qc.step, qc.default_value);
}

static void found_by_all(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	bool compound = ctrl_is_compound(&c->q);
	if (cx->model->qext_works)
		ck_assert_msg(c->found_by & EM_NEXT_EXT,
			      "expected QUERY_EXT_CTRL|NEXT_CTRL|NEXT_COMPOUND to find 0x%08x, got it missing", c->q.id);
	if (!compound)
		ck_assert_msg(c->found_by & EM_NEXT_CTRL,
			      "expected QUERYCTRL|NEXT_CTRL to find 0x%08x, got it missing (QC-3)", c->q.id);
	else
		ck_assert_msg(!(c->found_by & EM_NEXT_CTRL),
			      "expected QUERYCTRL|NEXT_CTRL to skip compound 0x%08x (QC-3), got it listed", c->q.id);
	if (c->q.id >= V4L2_CID_BASE && c->q.id < V4L2_CID_LASTP1)
		ck_assert_msg(c->found_by & EM_ID_LOOP,
			      "expected the CID_BASE..LASTP1 id loop to find 0x%08x (QC-7), got it missing", c->q.id);
	else
		ck_assert_msg(!(c->found_by & EM_ID_LOOP) || c->q.id >= V4L2_CID_PRIVATE_BASE,
			      "expected only ids in CID_BASE..LASTP1 from the id loop, got 0x%08x", c->q.id);
}

/* ---------- constants newer than the rule book (QC-22) ---------- */

/* The i-th distinct flag bit or type of the model that is newer than every
 * rule book on this kernel (rb_judge RB_NEWER), in the model's order. */
static bool newer_constant(const struct ctrl_model *m, long want, enum rb_kind *kind, uint32_t *value)
{
	uint32_t seen_flags = 0, seen_types[64];
	size_t n_types = 0;
	long k = 0;
	for (size_t i = 0; i < m->n; i++) {
		const struct v4l2_query_ext_ctrl *q = &m->c[i].q;
		for (unsigned b = 0; b < 32; b++) {
			uint32_t bit = 1u << b;
			if (!(q->flags & bit) || (seen_flags & bit) ||
			    rb_judge(rb_running(), RB_FLAG, bit, NULL) != RB_NEWER)
				continue;
			seen_flags |= bit;
			if (k++ == want) {
				*kind = RB_FLAG, *value = bit;
				return true;
			}
		}
		bool seen = false;
		for (size_t t = 0; t < n_types; t++)
			seen |= seen_types[t] == q->type;
		if (seen || n_types == 64 || rb_judge(rb_running(), RB_TYPE, q->type, NULL) != RB_NEWER)
			continue;
		seen_types[n_types++] = q->type;
		if (k++ == want) {
			*kind = RB_TYPE, *value = q->type;
			return true;
		}
	}
	return false;
}

static bool newer_items(const struct ctrl_model *m, long i, char *slug, size_t len)
{
	enum rb_kind kind;
	uint32_t value;
	if (!newer_constant(m, i, &kind, &value))
		return false;
	snprintf(slug, len, "%s-0x%x", kind == RB_FLAG ? "flag" : "type", value);
	return true;
}

/* One warning per constant, naming the controls that carry it: the suite
 * does not know the constant, so it cannot judge it (issue 33). */
static void newer_const(const struct check_ctx *cx)
{
	enum rb_kind kind;
	uint32_t value;
	char why[300], names[400] = "";
	size_t n = 0, o = 0;
	ck_assert_msg(newer_constant(cx->model, cx->item, &kind, &value), "the constant went away");
	for (size_t i = 0; i < cx->model->n; i++) {
		const struct v4l2_query_ext_ctrl *q = &cx->model->c[i].q;
		if (kind == RB_FLAG ? !(q->flags & value) : q->type != value)
			continue;
		if (n++ < 4 && o < sizeof(names))
			o += snprintf(names + o, sizeof(names) - o, "%s'%s'", o ? ", " : "", q->name);
	}
	v_warn("%s, on %zu control(s): %s%s (QC-22)", rb_why(rb_running(), kind, value, why, sizeof(why)), n, names,
	       n > 4 ? ", ..." : "");
}

/* QC-24 (7.3 control.rst:290-302): the control a stateful codec must have. */
static void codec_min_buffers(const struct check_ctx *cx)
{
	const struct rb_kernel *k = rb_running();
	if (dev_is_subdev(cx->dev))
		v_skip("a sub-device node has no buffer queues: it is no codec");
	const enum codec_kind kind = codec_kind_probe(cx->dev);
	if (kind != CODEC_STATEFUL_DECODER && kind != CODEC_STATEFUL_ENCODER)
		v_skip("the node is no stateful codec (%s: M2M caps and its queues' compressed formats)",
		       codec_kind_name(kind));
	char book[16];
	if (k->book < RB_VER(7, 3))
		v_skip("the rule book %s's control.rst does not require MIN_BUFFERS of a %s (7.3's does, lines 290-302)",
		       rb_ver_str(k->book, book, sizeof(book)), codec_kind_name(kind));
	const bool dec = kind == CODEC_STATEFUL_DECODER;
	const uint32_t id = dec ? V4L2_CID_MIN_BUFFERS_FOR_CAPTURE : V4L2_CID_MIN_BUFFERS_FOR_OUTPUT;
	ck_assert_msg(model_find(cx->model, id), "expected the %s to have %s (control.rst:%s: \"This control is required "
		      "for stateful %s\"), got no such control", codec_kind_name(kind),
		      dec ? "MIN_BUFFERS_FOR_CAPTURE" : "MIN_BUFFERS_FOR_OUTPUT", dec ? "294-295" : "301-302",
		      dec ? "decoders" : "encoders");
}

static bool not_compound(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return !ctrl_is_compound(&c->q) && c->have_qext;
}

static const struct check_def checks[] = {
	{ "enum/next-ctrl-walk", "QC-3", "QUERYCTRL|NEXT_CTRL walks strictly ascending non-compound ids and ends with EINVAL",
	  CHECK_PER_DEVICE, next_ctrl_walk, .needs = NEEDS_CTRLS },
	{ "enum/next-ext-walk", "QC-4", "QUERY_EXT_CTRL walks: full, NEXT_CTRL-only and NEXT_COMPOUND-only agree",
	  CHECK_PER_DEVICE, next_ext_walk, .needs = NEEDS_CTRLS },
	{ "enum/class-controls", "QC-6", "every class with controls has its class control",
	  CHECK_PER_DEVICE, class_controls },
	{ "enum/private-aliases", "QC-7", "PRIVATE_BASE+n aliases driver-private user controls and ends with EINVAL",
	  CHECK_PER_DEVICE, private_aliases, .needs = NEEDS_CTRLS },
	{ "enum/unknown-id", "QC-2", "QUERYCTRL and QUERY_EXT_CTRL of id 0 and of unused ids in CID_BASE..LASTP1 give EINVAL",
	  CHECK_PER_DEVICE, unknown_id },
	{ "enum/private-next", "QC-5", "PRIVATE_BASE with NEXT_CTRL (and NEXT_COMPOUND) gives EINVAL: the walk never reaches it",
	  CHECK_PER_DEVICE, private_next, .needs = NEEDS_CTRLS },
	{ "enum/found-by-every-method", "QC-7", "the control is found by every enumeration method that covers it",
	  CHECK_PER_CONTROL, found_by_all, .on_disabled = true },
	{ "enum/query", "QC-1", "an exact-id query returns the control: same id, valid name, known type, reserved 0",
	  CHECK_PER_CONTROL, query, .on_disabled = true },
	{ "enum/range", "QC-11", "min/max/step/default and element size invariants of the type",
	  CHECK_PER_CONTROL, range, .on_disabled = true },
	{ "enum/flags", "QC-13", "flags consistent with the type",
	  CHECK_PER_CONTROL, flags, .on_disabled = true },
	{ "enum/newer-constant", "QC-22", "a flag bit or type newer than every rule book (a kernel past the newest one) is one warning per constant",
	  CHECK_PER_ITEM, newer_const, .items = newer_items },
	{ "enum/codec-min-buffers", "QC-24", "a stateful decoder has MIN_BUFFERS_FOR_CAPTURE, a stateful encoder MIN_BUFFERS_FOR_OUTPUT (7.3)",
	  CHECK_PER_DEVICE, codec_min_buffers },
	{ "enum/qc-vs-qext", "QC-20", "QUERYCTRL agrees with QUERY_EXT_CTRL on every non-compound control",
	  CHECK_PER_CONTROL, qc_vs_qext, not_compound, .on_disabled = true },
};
SUITE(suite_enum, "enum", "Enumeration (QUERYCTRL, QUERY_EXT_CTRL)", checks);
