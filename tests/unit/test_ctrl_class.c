/* Host unit tests: is a control an array, does it have a payload, can G/S_CTRL
 * reach it? Decided from flags, elems and dims, never from the type alone.
 * The query results are those of 6.1 and 6.12 vivid (QUERY_EXT_CTRL as
 * v4l2-ctl shows them), including 6.12's INTEGER and INTEGER64 arrays that a
 * type-based rule took for scalars (issue 17). */
#include "ctrl/ctrl_payload.h"
#include "ctrl/ctrl_type.h"
#include <check.h>
#include "unit.h"
#include <string.h>

#define HP V4L2_CTRL_FLAG_HAS_PAYLOAD
#define DYN V4L2_CTRL_FLAG_DYNAMIC_ARRAY

static struct v4l2_query_ext_ctrl qx(uint32_t type, uint32_t flags, uint32_t elem_size, uint32_t nr_of_dims,
				     uint32_t d0, uint32_t d1, uint32_t elems)
{
	struct v4l2_query_ext_ctrl q;
	memset(&q, 0, sizeof(q));
	q.type = type;
	q.flags = flags;
	q.elem_size = elem_size;
	q.nr_of_dims = nr_of_dims;
	q.dims[0] = d0;
	q.dims[1] = d1;
	q.elems = elems;
	q.minimum = 0;
	q.maximum = 100;
	q.step = 1;
	return q;
}

/* 6.12 vivid: "S32 2 Element Array" 0x0098f90f, INTEGER, dims [2], HAS_PAYLOAD. */
START_TEST(s32_array_612)
{
	struct v4l2_query_ext_ctrl q = qx(V4L2_CTRL_TYPE_INTEGER, HP, 4, 1, 2, 0, 2);
	ck_assert(ctrl_type_is_int32(q.type));	/* the element type ... */
	ck_assert(ctrl_is_array(&q));		/* ... of an array */
	ck_assert(ctrl_is_compound(&q));	/* enumerated by NEXT_COMPOUND (QC-4) */
	ck_assert(ctrl_payload_expected(&q));	/* QC-17 wants HAS_PAYLOAD */
	ck_assert(ctrl_has_payload(&q));	/* accessed through ptr + size */
	ck_assert(!ctrl_is_scalar_int32(&q));	/* G/S_CTRL give EINVAL (AR-8) */
	struct ctrl c = { .q = q, .have_qext = true };
	ck_assert(payload_is_int_array(&c));
}
END_TEST

/* 6.12 vivid: "S64 5 Element Array", INTEGER64, dims [5]. */
START_TEST(s64_array_612)
{
	struct v4l2_query_ext_ctrl q = qx(V4L2_CTRL_TYPE_INTEGER64, HP, 8, 1, 5, 0, 5);
	ck_assert(ctrl_is_array(&q));
	ck_assert(ctrl_has_payload(&q));
	ck_assert(!ctrl_is_scalar_int32(&q));
	struct ctrl c = { .q = q, .have_qext = true };
	ck_assert(payload_is_int_array(&c));
}
END_TEST

/* A one-element array is still an array: nr_of_dims 1, dims [1], elems 1
 * (6.1 vivid "U32 1 Element Array"; an INTEGER one must be treated alike). */
START_TEST(one_element_array)
{
	struct v4l2_query_ext_ctrl u = qx(V4L2_CTRL_TYPE_U32, HP, 4, 1, 1, 0, 1);
	struct v4l2_query_ext_ctrl i = qx(V4L2_CTRL_TYPE_INTEGER, HP, 4, 1, 1, 0, 1);
	ck_assert(ctrl_is_array(&u) && ctrl_is_array(&i));
	ck_assert(!ctrl_is_scalar_int32(&i));
	ck_assert(ctrl_payload_expected(&i));
}
END_TEST

/* 6.1 vivid "U32 Dynamic Array": dims [100], elems 1 while it holds one element. */
START_TEST(dynamic_array)
{
	struct v4l2_query_ext_ctrl q = qx(V4L2_CTRL_TYPE_U32, HP | DYN, 4, 1, 100, 0, 1);
	ck_assert(ctrl_is_array(&q));
	ck_assert(ctrl_has_payload(&q));
	/* Even a driver forgetting nr_of_dims: the flag makes it an array. */
	struct v4l2_query_ext_ctrl f = qx(V4L2_CTRL_TYPE_INTEGER, DYN, 4, 0, 0, 0, 1);
	ck_assert(ctrl_is_array(&f));
	ck_assert(!ctrl_is_scalar_int32(&f));
}
END_TEST

/* Scalars: an INTEGER without dims is one value; G/S_CTRL reach it. */
START_TEST(scalars)
{
	struct v4l2_query_ext_ctrl b = qx(V4L2_CTRL_TYPE_INTEGER, V4L2_CTRL_FLAG_SLIDER, 4, 0, 0, 0, 1);
	ck_assert(!ctrl_is_array(&b) && !ctrl_is_compound(&b) && !ctrl_has_payload(&b));
	ck_assert(ctrl_is_scalar_int32(&b));
	struct v4l2_query_ext_ctrl i64 = qx(V4L2_CTRL_TYPE_INTEGER64, 0, 8, 0, 0, 0, 1);
	ck_assert(!ctrl_has_payload(&i64) && !ctrl_is_scalar_int32(&i64));
	struct v4l2_query_ext_ctrl m = qx(V4L2_CTRL_TYPE_MENU, 0, 4, 0, 0, 0, 1);
	ck_assert(ctrl_is_scalar_int32(&m));
	struct ctrl c = { .q = b, .have_qext = true };
	ck_assert(!payload_is_int_array(&c));
}
END_TEST

/* A scalar type that reports HAS_PAYLOAD without dims is a driver bug for
 * QC-17, but the value must still be accessed the way the flag says. */
START_TEST(flag_without_structure)
{
	struct v4l2_query_ext_ctrl q = qx(V4L2_CTRL_TYPE_INTEGER, HP, 4, 0, 0, 0, 1);
	ck_assert(!ctrl_payload_expected(&q));
	ck_assert(ctrl_has_payload(&q));
	ck_assert(!ctrl_is_scalar_int32(&q));
}
END_TEST

/* Strings and compound types: payload without being an array. */
START_TEST(strings_and_compound)
{
	struct v4l2_query_ext_ctrl s = qx(V4L2_CTRL_TYPE_STRING, HP, 5, 0, 0, 0, 1);
	ck_assert(!ctrl_is_array(&s) && !ctrl_is_compound(&s));
	ck_assert(ctrl_payload_expected(&s) && ctrl_has_payload(&s));
	struct v4l2_query_ext_ctrl a = qx(V4L2_CTRL_TYPE_AREA, HP, 8, 0, 0, 0, 1);
	ck_assert(!ctrl_is_array(&a) && ctrl_is_compound(&a) && ctrl_payload_expected(&a));
	/* 6.12 RECT-like unknown compound type (0x107): compound by its number. */
	struct v4l2_query_ext_ctrl r = qx(0x107, HP, 16, 0, 0, 0, 1);
	ck_assert(ctrl_is_compound(&r) && ctrl_has_payload(&r));
}
END_TEST

/* 6.1 vivid's U8 2x3x4x5 array: four dims, 120 elements. */
START_TEST(multi_dim)
{
	struct v4l2_query_ext_ctrl q = qx(V4L2_CTRL_TYPE_U8, HP, 1, 4, 2, 3, 120);
	q.dims[2] = 4;
	q.dims[3] = 5;
	ck_assert(ctrl_is_array(&q) && ctrl_has_payload(&q));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ctrl-class");
	TCase *tc = tcase_create("pure");
	tcase_add_test(tc, s32_array_612);
	tcase_add_test(tc, s64_array_612);
	tcase_add_test(tc, one_element_array);
	tcase_add_test(tc, dynamic_array);
	tcase_add_test(tc, scalars);
	tcase_add_test(tc, flag_without_structure);
	tcase_add_test(tc, strings_and_compound);
	tcase_add_test(tc, multi_dim);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
