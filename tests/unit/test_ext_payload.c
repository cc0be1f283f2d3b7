/* Host unit tests of the helpers behind the EXT_CTRLS, payload, event and
 * concurrency suites: payload patterns are valid and distinct, element
 * access round-trips, batches keep their entries, events print. */
#include "ctrl/ctrl_payload.h"
#include "ctrl/events.h"
#include "ctrl/ext_ctrls.h"
#include <check.h>
#include "unit.h"
#include <stdlib.h>
#include <string.h>

static struct ctrl mk(uint32_t type, int64_t min, int64_t max, uint64_t step, uint32_t elem_size, uint32_t elems,
		      uint32_t dims0, uint32_t flags)
{
	struct ctrl c;
	memset(&c, 0, sizeof(c));
	c.q.id = 0x98f000 + type;
	c.q.type = type;
	c.q.minimum = min;
	c.q.maximum = max;
	c.q.step = step;
	c.q.elem_size = elem_size;
	c.q.elems = elems;
	c.q.flags = flags | V4L2_CTRL_FLAG_HAS_PAYLOAD;
	if (dims0) {
		c.q.nr_of_dims = 1;
		c.q.dims[0] = dims0;
	}
	c.have_qext = true;
	return c;
}

START_TEST(string_patterns)
{
	struct ctrl c = mk(V4L2_CTRL_TYPE_STRING, 2, 4, 1, 5, 1, 0, 0);
	struct ctrl_val a, b;
	ck_assert(payload_can_generate(&c));
	for (unsigned k = 0; k < 8; k++) {
		ck_assert(payload_pattern(&c, k, 0, &a));
		ck_assert_uint_eq(a.size, 5);
		ck_assert(payload_strlen_valid(&c, strlen(a.p)));
		ck_assert(payload_pattern(&c, k + 1, 0, &b));
		ck_assert(!ctrl_val_equal(&c, &a, &b));
		ctrl_val_free(&a);
		ctrl_val_free(&b);
	}
	ck_assert(!payload_strlen_valid(&c, 1));
	ck_assert(!payload_strlen_valid(&c, 5));
	struct ctrl s2 = mk(V4L2_CTRL_TYPE_STRING, 2, 8, 2, 9, 1, 0, 0);
	ck_assert(payload_strlen_valid(&s2, 4));
	ck_assert(!payload_strlen_valid(&s2, 5));
}
END_TEST

START_TEST(array_patterns)
{
	/* vivid's U16 8x16 matrix: 0x10..0x2000 */
	struct ctrl c = mk(V4L2_CTRL_TYPE_U16, 0x10, 0x2000, 1, 2, 128, 8, 0);
	struct ctrl_val a, b;
	ck_assert(payload_is_int_array(&c));
	ck_assert(payload_pattern(&c, 0, 0, &a));
	ck_assert_uint_eq(a.size, 256);
	for (uint32_t i = 0; i < 128; i++) {
		int64_t e = payload_elem(&c, a.p, i);
		ck_assert(e >= 0x10 && e <= 0x2000);
	}
	ck_assert(payload_other(&c, &a, &b));
	ck_assert(!ctrl_val_equal(&c, &a, &b));
	payload_set_elem(&c, a.p, 3, 0xffff);
	ck_assert_int_eq(payload_elem(&c, a.p, 3), 0xffff);
	ctrl_val_free(&a);
	ctrl_val_free(&b);
	/* Step grid from the minimum. */
	struct ctrl s = mk(V4L2_CTRL_TYPE_U8, 3, 30, 9, 1, 16, 16, 0);
	ck_assert(payload_pattern(&s, 2, 0, &a));
	for (uint32_t i = 0; i < 16; i++)
		ck_assert_int_eq((payload_elem(&s, a.p, i) - 3) % 9, 0);
	ctrl_val_free(&a);
	/* Dynamic array: the element count asked for, capped at dims[0]. */
	struct ctrl d = mk(V4L2_CTRL_TYPE_U32, 10, 90, 1, 4, 1, 100, V4L2_CTRL_FLAG_DYNAMIC_ARRAY);
	ck_assert(payload_pattern(&d, 1, 7, &a));
	ck_assert_uint_eq(payload_elems(&d, a.size), 7);
	ctrl_val_free(&a);
	ck_assert(payload_pattern(&d, 1, 500, &a));
	ck_assert_uint_eq(payload_elems(&d, a.size), 100);
	ctrl_val_free(&a);
	/* Codec compound types have no generator. */
	struct ctrl h = mk(0x0200, 0, 0, 0, 1040, 1, 0, 0);
	ck_assert(!payload_can_generate(&h));
}
END_TEST

START_TEST(area_patterns)
{
	struct ctrl c = mk(V4L2_CTRL_TYPE_AREA, 0, 0, 0, sizeof(struct v4l2_area), 1, 0, 0);
	struct ctrl_val a;
	ck_assert(payload_pattern(&c, 0, 0, &a));
	struct v4l2_area ar;
	memcpy(&ar, a.p, sizeof(ar));
	ck_assert(ar.width && ar.height);
	ctrl_val_free(&a);
}
END_TEST

START_TEST(batch_entries)
{
	struct ctrl i64 = mk(V4L2_CTRL_TYPE_INTEGER64, INT64_MIN, INT64_MAX, 1, 8, 1, 0, 0);
	i64.q.flags = 0;
	struct ctrl str = mk(V4L2_CTRL_TYPE_STRING, 0, 7, 1, 8, 1, 0, 0);
	struct ext_batch b;
	ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
	for (int i = 0; i < 20; i++)
		ext_add(&b, &i64, (int64_t)0xaaaaaaaaaaaaaaaaull + i);
	ext_add(&b, &str, 0);
	ext_add_id(&b, 0);
	ck_assert_uint_eq(b.count, 22);
	ck_assert(ext_scalar(&b, 19) == (int64_t)0xaaaaaaaaaaaaaaaaull + 19);
	ck_assert_uint_eq(b.c[20].size, 8);
	ck_assert_ptr_nonnull(b.c[20].string);
	ck_assert_uint_eq(b.c[21].id, 0);
	ck_assert_uint_eq(b.error_idx_in, EXT_IDX_UNSET);
	ext_free(&b);
}
END_TEST

START_TEST(event_strings)
{
	char buf[64];
	ck_assert_str_eq(ev_changes_str(V4L2_EVENT_CTRL_CH_VALUE | V4L2_EVENT_CTRL_CH_FLAGS, buf, sizeof(buf)), "value|flags");
	ck_assert_str_eq(ev_changes_str(0, buf, sizeof(buf)), "none");
	ck_assert_str_eq(ev_changes_str(V4L2_EVENT_CTRL_CH_DIMENSIONS, buf, sizeof(buf)), "dimensions");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ext_payload");
	TCase *tc = tcase_create("helpers");
	tcase_add_test(tc, string_patterns);
	tcase_add_test(tc, array_patterns);
	tcase_add_test(tc, area_patterns);
	tcase_add_test(tc, batch_entries);
	tcase_add_test(tc, event_strings);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
