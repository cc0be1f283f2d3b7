/* String, array, compound and dynamic-array controls through the extended
 * ioctls: payload sizes, length rules, whole-array access, element
 * validation and NULL pointers (spec sections 6 and 7). */
#include "ctrl/ctrl_payload.h"
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_type.h"
#include "ctrl/ctrl_value.h"
#include "ctrl/ext_ctrls.h"
#include "check/registry.h"
#include "check/verdict.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SENTINEL 0xa5

/* A readable scalar partner for index 0, so error_idx can tell the bad
 * entry's index (1) from count (2). */
static const struct ctrl *partner(const struct ctrl_model *m, const struct ctrl *skip)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct ctrl *c = &m->c[i];
		if (c != skip && ctrl_readable(&c->q) && !ctrl_has_payload(&c->q) && ctrl_type_known(c->q.type) &&
		    !(c->q.flags & (V4L2_CTRL_FLAG_DISABLED | V4L2_CTRL_FLAG_VOLATILE)))
			return c;
	}
	return NULL;
}

static void get_cur(const struct check_ctx *cx, struct ctrl_val *v)
{
	expect_ok(ctrl_get(cx->dev, cx->ctrl, V4L2_CTRL_WHICH_CUR_VAL, v), "G_EXT_CTRLS of the current value");
}

static void expect_same(const struct check_ctx *cx, const struct ctrl_val *before, const char *after_what)
{
	struct ctrl_val now = { 0 };
	char a[160], b[160];
	get_cur(cx, &now);
	if (!ctrl_val_equal(cx->ctrl, &now, before)) {
		ctrl_val_str(cx->ctrl, &now, a, sizeof(a));
		ctrl_val_str(cx->ctrl, before, b, sizeof(b));
		ck_abort_msg("expected the value unchanged after %s (%s), got %s", after_what, b, a);
	}
	ctrl_val_free(&now);
}

/* One entry (after the partner when with_partner) holding `len` bytes of
 * `fill` then NUL, `size` bytes announced, `alloc` bytes of buffer. */
static int string_call(const struct check_ctx *cx, unsigned long req, bool with_partner, uint32_t size, uint32_t alloc,
		       size_t len, char fill, struct ext_batch *b)
{
	const struct ctrl *p = with_partner ? partner(cx->model, cx->ctrl) : NULL;
	ext_init(b, V4L2_CTRL_WHICH_CUR_VAL);
	if (p) {
		int64_t v = 0;
		ctrl_get_scalar(cx->dev, p, &v);
		ext_add(b, p, v);
	}
	struct v4l2_ext_control *e = ext_add_sized(b, cx->ctrl, size, alloc);
	if (len)
		memset(e->string, fill, len < alloc ? len : alloc);
	return ext_do(cx->dev, req, b);
}

/* ---------- strings (ST-1..ST-5) ---------- */

static void string_get_size(const struct check_ctx *cx)
{
	const struct v4l2_query_ext_ctrl *q = &cx->ctrl->q;
	struct ctrl_val cur = { 0 };
	get_cur(cx, &cur);
	size_t len = strnlen(cur.p, q->elem_size);
	struct ext_batch b;
	uint32_t tries[] = { 0, (uint32_t)len };
	for (size_t t = 0; t < 2; t++) {
		int e = string_call(cx, VIDIOC_G_EXT_CTRLS, true, tries[t], q->elem_size, 0, 0, &b);
		uint32_t idx = b.count - 1;
		expect_errno(e, ENOSPC, "G_EXT_CTRLS of a %zu-character string with size %u (ST-1)", len, tries[t]);
		expect_eq(b.c[idx].size, q->elem_size, "G_EXT_CTRLS with a short size must set size to maximum + 1 (ST-1)");
		expect_eq(b.cs.error_idx, idx, "G_EXT_CTRLS string ENOSPC: error_idx must be the string's index (ST-1)");
		ext_free(&b);
	}
	uint32_t ok_sizes[] = { (uint32_t)len + 1, q->elem_size + 16 };
	for (size_t t = 0; t < 2; t++) {
		int e = string_call(cx, VIDIOC_G_EXT_CTRLS, true, ok_sizes[t], ok_sizes[t], 0, 0, &b);
		uint32_t idx = b.count - 1;
		expect_ok(e, "G_EXT_CTRLS of a %zu-character string with size %u (ST-1: strlen + 1 is enough)", len, ok_sizes[t]);
		expect_eq(b.c[idx].size, ok_sizes[t], "G_EXT_CTRLS string: size must be left as given on success (ST-1)");
		ck_assert_msg(!strcmp(b.c[idx].string, cur.p), "G_EXT_CTRLS with size %u: expected '%s', got '%.*s'",
			      ok_sizes[t], (char *)cur.p, (int)ok_sizes[t], b.c[idx].string);
		ext_free(&b);
	}
	ctrl_val_free(&cur);
}

static void string_size_zero(const struct check_ctx *cx)
{
	struct ctrl_val cur = { 0 };
	struct ext_batch b;
	get_cur(cx, &cur);
	for (int r = 0; r < 2; r++) {
		unsigned long req = r ? VIDIOC_S_EXT_CTRLS : VIDIOC_TRY_EXT_CTRLS;
		int e = string_call(cx, req, false, 0, cx->ctrl->q.elem_size, (size_t)cx->ctrl->q.maximum, 'z', &b);
		expect_errno(e, ERANGE, "%s of a string with size 0 (ST-2)", ext_req_name(req));
		ext_free(&b);
		expect_same(cx, &cur, "the refused size-0 set");
	}
	ctrl_val_free(&cur);
}

static void string_too_long(const struct check_ctx *cx)
{
	const struct v4l2_query_ext_ctrl *q = &cx->ctrl->q;
	struct ctrl_val cur = { 0 };
	struct ext_batch b;
	get_cur(cx, &cur);
	/* max + 1 characters: no NUL within the max + 1 bytes the driver reads. */
	uint32_t sizes[] = { q->elem_size, q->elem_size + 16 };
	for (int r = 0; r < 2; r++)
		for (size_t s = 0; s < 2; s++) {
			unsigned long req = r ? VIDIOC_S_EXT_CTRLS : VIDIOC_TRY_EXT_CTRLS;
			int e = string_call(cx, req, false, sizes[s], q->elem_size + 16, q->elem_size, 'L', &b);
			expect_errno(e, ERANGE, "%s of a %u-character string (maximum %lld), size %u (ST-3)", ext_req_name(req),
				     q->elem_size, (long long)q->maximum, sizes[s]);
			ext_free(&b);
			expect_same(cx, &cur, "the refused over-long string");
		}
	/* A valid string in a buffer bigger than max + 1 is fine (ST-3). */
	struct ctrl_val v;
	ck_assert(payload_pattern(cx->ctrl, 1, 0, &v));
	size_t len = strlen(v.p);
	int e = string_call(cx, VIDIOC_S_EXT_CTRLS, false, q->elem_size + 16, q->elem_size + 16, len, ((char *)v.p)[0], &b);
	expect_ok(e, "S_EXT_CTRLS of a valid %zu-character string with size maximum + 17 (ST-3: only max + 1 bytes are read)", len);
	ext_free(&b);
	struct ctrl_val now = { 0 };
	get_cur(cx, &now);
	ck_assert_msg(!strcmp(now.p, v.p), "after S_EXT_CTRLS '%s' with a large size: expected it read back, got '%s'",
		      (char *)v.p, (char *)now.p);
	ctrl_val_free(&v);
	ctrl_val_free(&now);
	ctrl_val_free(&cur);
}

static void string_length(const struct check_ctx *cx)
{
	const struct v4l2_query_ext_ctrl *q = &cx->ctrl->q;
	struct ctrl_val cur = { 0 };
	get_cur(cx, &cur);
	size_t bad[4];
	size_t nb = 0;
	if (q->minimum > 0)
		bad[nb++] = (size_t)q->minimum - 1;
	if (q->minimum > 1)
		bad[nb++] = 0;
	if (q->step > 1) {
		for (uint64_t l = (uint64_t)q->minimum + 1; l < (uint64_t)q->maximum && nb < 4; l++)
			if ((l - (uint64_t)q->minimum) % q->step) {
				bad[nb++] = l;
				break;
			}
	}
	if (!nb)
		v_skip("minimum 0 and step 1: every length up to the maximum is valid");
	for (size_t i = 0; i < nb; i++)
		for (int r = 0; r < 2; r++) {
			unsigned long req = r ? VIDIOC_S_EXT_CTRLS : VIDIOC_TRY_EXT_CTRLS;
			struct ext_batch b;
			int e = string_call(cx, req, false, q->elem_size, q->elem_size, bad[i], 's', &b);
			expect_errno(e, ERANGE, "%s of a %zu-character string (length rules: min %lld, max %lld, step %llu) (ST-4)",
				     ext_req_name(req), bad[i], (long long)q->minimum, (long long)q->maximum,
				     (unsigned long long)q->step);
			ext_free(&b);
			expect_same(cx, &cur, "the refused string");
		}
	ctrl_val_free(&cur);
}

static void string_valid(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	const struct v4l2_query_ext_ctrl *q = &c->q;
	struct ctrl_val cur = { 0 };
	get_cur(cx, &cur);
	size_t len = strnlen(cur.p, q->elem_size);
	ck_assert_msg(payload_strlen_valid(c, len),
		      "expected the current string length %zu within [%lld, %lld] on step %llu (ST-5)", len,
		      (long long)q->minimum, (long long)q->maximum, (unsigned long long)q->step);
	/* Shortest and longest valid strings round-trip. */
	uint64_t step = q->step ? q->step : 1;
	uint64_t lens[2] = { (uint64_t)q->minimum,
			     (uint64_t)q->minimum + step * (((uint64_t)q->maximum - (uint64_t)q->minimum) / step) };
	for (int i = 0; i < 2; i++) {
		struct ctrl_val v = { .size = q->elem_size, .p = calloc(1, q->elem_size) };
		memset(v.p, i ? 'M' : 'm', lens[i]);
		struct ctrl_val w;
		ctrl_val_copy(c, &w, &v);
		expect_ok(ctrl_set(cx->dev, c, &w), "S_EXT_CTRLS of a %llu-character string (ST-5)", (unsigned long long)lens[i]);
		struct ctrl_val now = { 0 };
		get_cur(cx, &now);
		ck_assert_msg(!strcmp(now.p, v.p), "after setting '%s': expected it read back, got '%s' (ST-5)", (char *)v.p,
			      (char *)now.p);
		ctrl_val_free(&now);
		ctrl_val_free(&w);
		ctrl_val_free(&v);
	}
	ctrl_val_free(&cur);
}

/* ---------- arrays and compound controls (AR-1..AR-4, AR-7, VA-7) ---------- */

static uint32_t need_size(const struct ctrl *c)
{
	return c->q.elem_size * (c->q.elems ? c->q.elems : 1);
}

static void get_size(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	const struct ctrl *p = partner(cx->model, c);
	uint32_t need = need_size(c);
	uint32_t tries[3] = { 0, need - 1, need > c->q.elem_size ? need - c->q.elem_size : 0 };
	for (int t = 0; t < 3; t++) {
		if (t && tries[t] == 0)
			continue;
		struct ext_batch b;
		ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
		if (p)
			ext_add(&b, p, 0);
		ext_add_sized(&b, c, tries[t], need);
		uint32_t idx = b.count - 1;
		int e = ext_do(cx->dev, VIDIOC_G_EXT_CTRLS, &b);
		expect_errno(e, ENOSPC, "G_EXT_CTRLS of %u bytes (elems %u x elem_size %u) with size %u (AR-1)", need,
			     c->q.elems, c->q.elem_size, tries[t]);
		expect_eq(b.c[idx].size, need, "G_EXT_CTRLS with a short size must set size to the size needed (AR-1)");
		expect_eq(b.cs.error_idx, b.count, "G_EXT_CTRLS array ENOSPC: error_idx must be count (AR-1)");
		ext_free(&b);
	}
	/* A bigger buffer: accepted, size rewritten, nothing written past it. */
	struct ext_batch b;
	ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
	struct v4l2_ext_control *e = ext_add_sized(&b, c, need + 64, need + 64);
	memset(e->ptr, SENTINEL, need + 64);
	expect_ok(ext_do(cx->dev, VIDIOC_G_EXT_CTRLS, &b), "G_EXT_CTRLS with size %u > %u needed (AR-1)", need + 64, need);
	expect_eq(b.c[0].size, need, "G_EXT_CTRLS with a larger size must rewrite size to the exact size (AR-1)");
	const unsigned char *bytes = b.c[0].ptr;
	for (uint32_t i = need; i < need + 64; i++)
		if (bytes[i] != SENTINEL)
			ck_abort_msg("G_EXT_CTRLS wrote past the %u bytes of the value: byte %u changed from 0x%02x to 0x%02x (AR-3)",
				     need, i, SENTINEL, bytes[i]);
	ext_free(&b);
}

static void set_size(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	uint32_t need = need_size(c);
	struct ctrl_val cur = { 0 }, other = { 0 };
	get_cur(cx, &cur);
	bool have_other = payload_other(c, &cur, &other);
	for (int r = 0; r < 2; r++) {
		unsigned long req = r ? VIDIOC_S_EXT_CTRLS : VIDIOC_TRY_EXT_CTRLS;
		struct ext_batch b;
		ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
		struct v4l2_ext_control *e = ext_add_sized(&b, c, need - 1, need);
		if (have_other)
			memcpy(e->ptr, other.p, need);
		int err = ext_do(cx->dev, req, &b);
		ck_assert_msg(err == EFAULT || err == EINVAL || err == ENOSPC,
			      "%s with size %u < %u needed: expected EFAULT (or EINVAL/ENOSPC), got %s (AR-2)", ext_req_name(req),
			      need - 1, need, errno_name(err));
		ext_free(&b);
		expect_same(cx, &cur, "the refused short-size set");
	}
	if (!have_other) {
		v_info("no generator for this type's values: only the short size was tried");
		ctrl_val_free(&cur);
		return;
	}
	struct ext_batch b;
	ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
	struct v4l2_ext_control *e = ext_add_sized(&b, c, need + 64, need + 64);
	memcpy(e->ptr, other.p, need);
	expect_ok(ext_do(cx->dev, VIDIOC_S_EXT_CTRLS, &b), "S_EXT_CTRLS with size %u > %u needed (AR-2: larger is accepted)",
		  need + 64, need);
	ext_free(&b);
	struct ctrl_val now = { 0 };
	get_cur(cx, &now);
	ck_assert_msg(ctrl_val_equal(c, &now, &other), "after S_EXT_CTRLS with a larger size: expected the new value read back");
	ctrl_val_free(&now);
	ctrl_val_free(&cur);
	ctrl_val_free(&other);
}

static void array_roundtrip(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	char a[200], b[200];
	for (unsigned k = 0; k < 3; k++) {
		struct ctrl_val v, w, now = { 0 };
		ck_assert(payload_pattern(c, k, 0, &v));
		ctrl_val_copy(c, &w, &v);
		expect_ok(ctrl_set(cx->dev, c, &w), "S_EXT_CTRLS of pattern %u (AR-3)", k);
		ck_assert_msg(ctrl_val_equal(c, &w, &v), "S_EXT_CTRLS of valid pattern %u: expected it written back unchanged (EX-15)", k);
		get_cur(cx, &now);
		if (!ctrl_val_equal(c, &now, &v)) {
			uint32_t first = 0;
			if (payload_is_int_array(c))
				for (first = 0; first < payload_elems(c, v.size); first++)
					if (payload_elem(c, now.p, first) != payload_elem(c, v.p, first))
						break;
			ctrl_val_str(c, &v, a, sizeof(a));
			ctrl_val_str(c, &now, b, sizeof(b));
			ck_abort_msg("after S_EXT_CTRLS of pattern %u: expected the whole value read back %s, got %s (first difference at element %u) (AR-3)",
				     k, a, b, first);
		}
		ctrl_val_free(&v);
		ctrl_val_free(&w);
		ctrl_val_free(&now);
	}
}

/* The range of the element type itself. */
static int64_t elem_type_max(const struct ctrl *c)
{
	switch (c->q.type) {
	case V4L2_CTRL_TYPE_INTEGER: return INT32_MAX;
	case V4L2_CTRL_TYPE_INTEGER64: return INT64_MAX;
	default: return c->q.elem_size == 1 ? 0xff : c->q.elem_size == 2 ? 0xffff : 0xffffffffll;
	}
}

static int64_t elem_type_min(const struct ctrl *c)
{
	switch (c->q.type) {
	case V4L2_CTRL_TYPE_INTEGER: return INT32_MIN;
	case V4L2_CTRL_TYPE_INTEGER64: return INT64_MIN;
	default: return 0;
	}
}

static void element_clamp(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	const struct v4l2_query_ext_ctrl *q = &c->q;
	struct { const char *what; int64_t v; } probes[2];
	int np = 0;
	if (q->maximum < elem_type_max(c)) {
		probes[np].what = "maximum + 1";
		probes[np++].v = q->maximum + 1;
	}
	if (q->minimum > elem_type_min(c)) {
		probes[np].what = "minimum - 1";
		probes[np++].v = q->minimum - 1;
	}
	ck_assert(np > 0);
	for (int i = 0; i < np; i++) {
		struct ctrl_val v, w, now = { 0 };
		ck_assert(payload_pattern(c, 1, 0, &v));
		uint32_t n = payload_elems(c, v.size), at = n / 2;
		payload_set_elem(c, v.p, at, probes[i].v);
		ctrl_val_copy(c, &w, &v);
		int e = ctrl_set(cx->dev, c, &w);
		if (e == ERANGE) {
			v_info("element %s: ERANGE", probes[i].what);
		} else {
			expect_ok(e, "S_EXT_CTRLS with element %u = %s (%lld) (AR-4: clamp or ERANGE)", at, probes[i].what,
				  (long long)probes[i].v);
			get_cur(cx, &now);
			int64_t got = payload_elem(c, now.p, at);
			ck_assert_msg(got >= q->minimum && got <= q->maximum,
				      "element %u set to %s: expected it clamped into [%lld, %lld], got %lld (AR-4)", at, probes[i].what,
				      (long long)q->minimum, (long long)q->maximum, (long long)got);
			int64_t exp = ctrl_expected_scalar(q, probes[i].v);
			if (got != exp)
				v_warn("element %u set to %lld was stored as %lld; the framework gives %lld (VA-1)", at,
				       (long long)probes[i].v, (long long)got, (long long)exp);
			for (uint32_t j = 0; j < n; j++)
				if (j != at && payload_elem(c, now.p, j) != payload_elem(c, v.p, j))
					ck_abort_msg("element %u: expected %lld (only element %u was out of range), got %lld (AR-4)", j,
						     (long long)payload_elem(c, v.p, j), at, (long long)payload_elem(c, now.p, j));
		}
		ctrl_val_free(&v);
		ctrl_val_free(&w);
		ctrl_val_free(&now);
	}
}

static void area_zero(const struct check_ctx *cx)
{
	struct ctrl_val cur = { 0 };
	get_cur(cx, &cur);
	struct v4l2_area bad[2] = { { .width = 0, .height = 480 }, { .width = 640, .height = 0 } };
	for (int i = 0; i < 2; i++)
		for (int r = 0; r < 2; r++) {
			unsigned long req = r ? VIDIOC_S_EXT_CTRLS : VIDIOC_TRY_EXT_CTRLS;
			struct ext_batch b;
			ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
			struct v4l2_ext_control *e = ext_add_sized(&b, cx->ctrl, sizeof(bad[i]), sizeof(bad[i]));
			memcpy(e->ptr, &bad[i], sizeof(bad[i]));
			expect_errno(ext_do(cx->dev, req, &b), EINVAL, "%s of an area %ux%u (VA-7: zero width or height)",
				     ext_req_name(req), bad[i].width, bad[i].height);
			ext_free(&b);
			expect_same(cx, &cur, "the refused area");
		}
	ctrl_val_free(&cur);
}

static void null_pointer(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	uint32_t size = c->q.type == V4L2_CTRL_TYPE_STRING ? c->q.elem_size : need_size(c);
	bool writable = ctrl_writable(&c->q);
	for (int r = 0; r < 3; r++) {
		unsigned long req = r == 0 ? VIDIOC_G_EXT_CTRLS : r == 1 ? VIDIOC_TRY_EXT_CTRLS : VIDIOC_S_EXT_CTRLS;
		if (r && !writable)
			continue;
		struct v4l2_ext_control ec = { .id = c->q.id, .size = size, .ptr = NULL };
		struct v4l2_ext_controls cs = { .which = 0, .count = 1, .controls = &ec };
		int e = dev_ioctl(cx->dev, req, &cs);
		expect_errno(e, EFAULT, "%s with a NULL payload pointer and size %u (AR-7)", ext_req_name(req), size);
	}
}

/* ---------- dynamic arrays (AR-5) ---------- */

static uint32_t query_elems(const struct check_ctx *cx)
{
	struct v4l2_query_ext_ctrl q = { .id = cx->ctrl->q.id };
	expect_ok(dev_ioctl(cx->dev, VIDIOC_QUERY_EXT_CTRL, &q), "QUERY_EXT_CTRL");
	return q.elems;
}

static void dyn_elems(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	uint32_t es = c->q.elem_size, max = c->q.dims[0];
	uint32_t counts[3] = { max >= 3 ? 3 : max, 1, max };
	for (int i = 0; i < 3; i++) {
		uint32_t n = counts[i];
		struct ctrl_val v, w;
		ck_assert(payload_pattern(c, (unsigned)i + 1, n, &v));
		ctrl_val_copy(c, &w, &v);
		expect_ok(ctrl_set(cx->dev, c, &w), "S_EXT_CTRLS of %u elements (AR-5)", n);
		expect_eq(w.size, n * es, "S_EXT_CTRLS of %u elements: the size written back", n);
		expect_eq(query_elems(cx), n, "QUERY_EXT_CTRL elems after setting %u elements (AR-5)", n);
		/* G into a big buffer: exact size, nothing written past it. */
		struct ext_batch b;
		ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
		struct v4l2_ext_control *e = ext_add_sized(&b, c, max * es + 64, max * es + 64);
		memset(e->ptr, SENTINEL, max * es + 64);
		expect_ok(ext_do(cx->dev, VIDIOC_G_EXT_CTRLS, &b), "G_EXT_CTRLS with room for %u elements", max);
		expect_eq(b.c[0].size, n * es, "G_EXT_CTRLS of %u elements must give size = elems x elem_size (AR-5)", n);
		ck_assert_msg(!memcmp(b.c[0].ptr, v.p, n * es), "G_EXT_CTRLS after setting %u elements: expected them read back (AR-5)",
			      n);
		for (uint32_t k = n * es; k < max * es + 64; k++)
			if (((unsigned char *)b.c[0].ptr)[k] != SENTINEL)
				ck_abort_msg("G_EXT_CTRLS of %u elements wrote past %u bytes: byte %u changed (AR-5)", n, n * es, k);
		ext_free(&b);
		/* Too small for the current count: ENOSPC with the size needed. */
		if (n > 1) {
			ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
			ext_add_sized(&b, c, (n - 1) * es, n * es);
			expect_errno(ext_do(cx->dev, VIDIOC_G_EXT_CTRLS, &b), ENOSPC, "G_EXT_CTRLS of %u elements with room for %u (AR-5)",
				     n, n - 1);
			expect_eq(b.c[0].size, n * es, "G_EXT_CTRLS ENOSPC must give the size needed (AR-5)");
			ext_free(&b);
		}
		/* DEF_VAL: the default for the current count (EX-18). */
		struct ctrl_val def = { 0 };
		expect_ok(ctrl_get(cx->dev, c, V4L2_CTRL_WHICH_DEF_VAL, &def), "G_EXT_CTRLS DEF_VAL");
		expect_eq(def.size, n * es, "G_EXT_CTRLS DEF_VAL of a dynamic array: defaults for the current %u elements (EX-18)", n);
		ctrl_val_free(&def);
		/* TRY with another count changes nothing. */
		struct ctrl_val t;
		uint32_t tn = n == 1 ? 2 : 1;
		ck_assert(payload_pattern(c, 7, tn, &t));
		expect_ok(ctrl_try(cx->dev, c, &t), "TRY_EXT_CTRLS of %u elements", tn);
		expect_eq(query_elems(cx), n, "QUERY_EXT_CTRL elems after TRY of %u elements must stay %u (AR-5)", tn, n);
		ctrl_val_free(&t);
		ctrl_val_free(&v);
		ctrl_val_free(&w);
	}
}

static void dyn_limits(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	uint32_t es = c->q.elem_size, max = c->q.dims[0];
	struct ctrl_val cur = { 0 };
	get_cur(cx, &cur);
	uint32_t cur_n = payload_elems(c, cur.size);
	for (int r = 0; r < 2; r++) {
		unsigned long req = r ? VIDIOC_S_EXT_CTRLS : VIDIOC_TRY_EXT_CTRLS;
		struct ext_batch b;
		/* More than dims[0] elements. */
		ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
		struct ctrl_val big;
		ck_assert(payload_pattern(c, 3, max, &big));
		struct v4l2_ext_control *e = ext_add_sized(&b, c, (max + 1) * es, (max + 1) * es);
		memcpy(e->ptr, big.p, big.size);
		memcpy((char *)e->ptr + max * es, big.p, es);
		ctrl_val_free(&big);
		expect_errno(ext_do(cx->dev, req, &b), ENOSPC, "%s of %u elements, dims[0] = %u (AR-5)", ext_req_name(req), max + 1,
			     max);
		expect_eq(b.c[0].size, max * es, "%s with too many elements must give size = dims[0] x elem_size (AR-5)",
			  ext_req_name(req));
		ext_free(&b);
		/* Less than one element. */
		uint32_t small[2] = { 0, es - 1 };
		for (int s = 0; s < 2; s++) {
			if (s && es < 2)
				continue;
			ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
			ext_add_sized(&b, c, small[s], es);
			expect_errno(ext_do(cx->dev, req, &b), EFAULT, "%s with size %u < elem_size %u (AR-5)", ext_req_name(req),
				     small[s], es);
			ext_free(&b);
		}
		expect_same(cx, &cur, "the refused sizes");
		expect_eq(query_elems(cx), cur_n, "QUERY_EXT_CTRL elems after the refused sizes");
	}
	/* A size that is not a multiple of elem_size is rounded down. */
	if (es > 1 && max >= 2) {
		struct ctrl_val v;
		ck_assert(payload_pattern(c, 5, 2, &v));
		struct ext_batch b;
		ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
		struct v4l2_ext_control *e = ext_add_sized(&b, c, 2 * es + 1, 3 * es);
		memcpy(e->ptr, v.p, 2 * es);
		expect_ok(ext_do(cx->dev, VIDIOC_S_EXT_CTRLS, &b), "S_EXT_CTRLS with size 2 x elem_size + 1 (AR-5)");
		expect_eq(b.c[0].size, 2 * es, "S_EXT_CTRLS size 2 x elem_size + 1 must be rounded down (AR-5)");
		expect_eq(query_elems(cx), 2, "QUERY_EXT_CTRL elems after S_EXT_CTRLS of 2 elements and a byte (AR-5)");
		ext_free(&b);
		ctrl_val_free(&v);
	}
	ctrl_val_free(&cur);
}

/* ---------- applicability ---------- */

#define APPLIES(fn, expr) \
	static bool fn(const struct ctrl *c, const struct ctrl_model *m, const char **why) { return (expr); }

static bool usable(const struct ctrl *c)
{
	return c->have_qext && !(c->q.flags & V4L2_CTRL_FLAG_DISABLED) && ctrl_type_known(c->q.type) && c->q.elem_size;
}
static bool is_dyn(const struct ctrl *c)
{
	return c->q.flags & V4L2_CTRL_FLAG_DYNAMIC_ARRAY;
}

APPLIES(str_readable, usable(c) && c->q.type == V4L2_CTRL_TYPE_STRING && ctrl_readable(&c->q))
APPLIES(str_rw, usable(c) && c->q.type == V4L2_CTRL_TYPE_STRING && ext_payload_rw(c) && payload_can_generate(c))
APPLIES(arr_readable, usable(c) && ctrl_is_compound(&c->q) && ctrl_readable(&c->q) && !is_dyn(c))
APPLIES(arr_writable, usable(c) && ctrl_is_compound(&c->q) && ext_payload_rw(c) && !is_dyn(c))
APPLIES(arr_generated, usable(c) && ctrl_is_compound(&c->q) && ext_payload_rw(c) && payload_can_generate(c))
APPLIES(is_area, usable(c) && c->q.type == V4L2_CTRL_TYPE_AREA && ext_payload_rw(c))
APPLIES(payload_any, usable(c) && ctrl_has_payload(&c->q) && ctrl_readable(&c->q))
APPLIES(dyn_rw, usable(c) && is_dyn(c) && ext_payload_rw(c) && payload_can_generate(c) && c->q.nr_of_dims == 1)

static bool arr_clampable(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	if (!usable(c) || !ext_payload_rw(c) || !payload_is_int_array(c) || is_dyn(c))
		return false;
	if (c->q.maximum >= elem_type_max(c) && c->q.minimum <= elem_type_min(c)) {
		*why = "the element range covers the whole element type: no out-of-range element exists";
		return false;
	}
	return true;
}

static bool str_length_applies(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	if (!str_rw(c, m, why))
		return false;
	if (c->q.minimum == 0 && c->q.step <= 1) {
		*why = "minimum 0 and step 1: every length up to the maximum is valid";
		return false;
	}
	return true;
}

static const struct check_def checks[] = {
	{ "payload/string-get-size", "ST-1", "G of a string with size < strlen + 1 gives ENOSPC, size = maximum + 1, error_idx = index",
	  CHECK_PER_CONTROL, string_get_size, str_readable, .needs = NEEDS_EXT },
	{ "payload/string-size-zero", "ST-2", "S/TRY of a string with size 0 give ERANGE and change nothing",
	  CHECK_PER_CONTROL, string_size_zero, str_rw, .needs = NEEDS_EXT },
	{ "payload/string-too-long", "ST-3", "a string longer than maximum gives ERANGE; a larger buffer with a valid string is fine",
	  CHECK_PER_CONTROL, string_too_long, str_rw, .needs = NEEDS_EXT },
	{ "payload/string-length", "ST-4", "a string shorter than minimum or off the length step gives ERANGE",
	  CHECK_PER_CONTROL, string_length, str_length_applies, .needs = NEEDS_EXT },
	{ "payload/string-valid", "ST-5", "the current length obeys the rules; the shortest and longest valid strings round-trip",
	  CHECK_PER_CONTROL, string_valid, str_rw, .needs = NEEDS_EXT },
	{ "payload/get-size", "AR-1", "G with size < elems x elem_size gives ENOSPC, the size needed and error_idx = count; larger is rewritten",
	  CHECK_PER_CONTROL, get_size, arr_readable, .needs = NEEDS_EXT },
	{ "payload/set-size", "AR-2", "S/TRY with a short size are refused (EFAULT) and change nothing; a larger size is accepted",
	  CHECK_PER_CONTROL, set_size, arr_writable, .needs = NEEDS_EXT },
	{ "payload/roundtrip", "AR-3", "whole arrays and compound values are written and read back exactly",
	  CHECK_PER_CONTROL, array_roundtrip, arr_generated, .needs = NEEDS_EXT },
	{ "payload/element-clamp", "AR-4", "an out-of-range element is clamped (or ERANGE); the other elements are kept",
	  CHECK_PER_CONTROL, element_clamp, arr_clampable, .needs = NEEDS_EXT },
	{ "payload/area-zero", "VA-7", "an area with zero width or height gives EINVAL and changes nothing",
	  CHECK_PER_CONTROL, area_zero, is_area, .needs = NEEDS_EXT },
	{ "payload/null-pointer", "AR-7", "a NULL payload pointer gives EFAULT",
	  CHECK_PER_CONTROL, null_pointer, payload_any, .needs = NEEDS_EXT },
	{ "payload/dyn-array-elems", "AR-5", "S sets the element count (QUERY_EXT_CTRL elems, G size), TRY does not, G writes only elems",
	  CHECK_PER_CONTROL, dyn_elems, dyn_rw, .needs = NEEDS_EXT },
	{ "payload/dyn-array-limits", "AR-5", "more than dims[0] elements gives ENOSPC, less than one EFAULT, sizes round down",
	  CHECK_PER_CONTROL, dyn_limits, dyn_rw, .needs = NEEDS_EXT },
};
SUITE(suite_payload, "payload", "Strings, arrays and compound controls (EXT_CTRLS)", checks);
