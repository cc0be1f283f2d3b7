/* VIDIOC_QUERYMENU (spec section 2). */
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_type.h"
#include "ctrl/ctrl_value.h"
#include "check/registry.h"
#include "check/verdict.h"
#include <string.h>

static int querymenu(const struct check_ctx *cx, uint32_t index, struct v4l2_querymenu *qm)
{
	memset(qm, 0xff, sizeof(*qm));	/* fields other than id/index are output only */
	qm->id = cx->ctrl->q.id;
	qm->index = index;
	return dev_ioctl(cx->dev, VIDIOC_QUERYMENU, qm);
}

static void items(const struct check_ctx *cx)
{
	const struct v4l2_query_ext_ctrl *q = &cx->ctrl->q;
	size_t valid = 0;
	bool default_valid = false;
	ck_assert_msg(q->maximum - q->minimum <= 1023, "expected a menu of at most 1024 items, got %lld..%lld",
		      (long long)q->minimum, (long long)q->maximum);
	for (int64_t i = q->minimum; i <= q->maximum; i++) {
		struct v4l2_querymenu qm;
		int e = querymenu(cx, (uint32_t)i, &qm);
		if (e) {
			expect_errno(e, EINVAL, "QUERYMENU index %lld: a skipped item must give EINVAL (QM-3)",
				     (long long)i);
			continue;
		}
		ck_assert_msg(qm.id == q->id && qm.index == (uint32_t)i,
			      "expected id 0x%08x index %lld unchanged, got 0x%08x index %u (QM-4)", q->id,
			      (long long)i, qm.id, qm.index);
		ck_assert_msg(qm.reserved == 0, "expected reserved 0 at index %lld (QM-4), got 0x%x",
			      (long long)i, qm.reserved);
		if (q->type == V4L2_CTRL_TYPE_MENU)
			ck_assert_msg(memchr(qm.name, 0, sizeof(qm.name)) && qm.name[0],
				      "expected a non-empty NUL-terminated name at index %lld (QM-3/QM-4)",
				      (long long)i);
		valid++;
		if (i == q->default_value)
			default_valid = true;
	}
	ck_assert_msg(valid >= 1, "expected at least one valid item (QM-5), got none");
	ck_assert_msg(default_valid, "expected the default %lld to be a valid item (QM-5), got it skipped",
		      (long long)q->default_value);
}

static void out_of_range(const struct check_ctx *cx)
{
	const struct v4l2_query_ext_ctrl *q = &cx->ctrl->q;
	struct v4l2_querymenu qm;
	expect_errno(querymenu(cx, (uint32_t)(q->maximum + 1), &qm), EINVAL, "QUERYMENU index max+1 = %lld",
		     (long long)q->maximum + 1);
	expect_errno(querymenu(cx, (uint32_t)(q->maximum + 100), &qm), EINVAL, "QUERYMENU index max+100");
	if (q->minimum > 0)
		expect_errno(querymenu(cx, (uint32_t)(q->minimum - 1), &qm), EINVAL,
			     "QUERYMENU index min-1 = %lld", (long long)q->minimum - 1);
	expect_errno(querymenu(cx, 0xffffffffu, &qm), EINVAL, "QUERYMENU index 0xffffffff");
}

static void int_values(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	for (size_t i = 0; i < c->n_menu; i++) {
		if (c->menu[i].err)
			continue;
		for (size_t j = 0; j < i; j++)
			if (!c->menu[j].err && c->menu[j].value == c->menu[i].value)
				v_warn("items %u and %u have the same value %lld", c->menu[j].index,
				       c->menu[i].index, (long long)c->menu[i].value);
		struct v4l2_querymenu qm;
		expect_ok(querymenu(cx, c->menu[i].index, &qm), "QUERYMENU index %u", c->menu[i].index);
		ck_assert_msg(qm.value == c->menu[i].value,
			      "expected the same value %lld for index %u on a second query, got %lld",
			      (long long)c->menu[i].value, c->menu[i].index, (long long)qm.value);
	}
}

static void non_menu(const struct check_ctx *cx)
{
	struct v4l2_querymenu qm;
	int e = querymenu(cx, 0, &qm);
	ck_assert_msg(e == EINVAL || e == ENOTTY, "expected EINVAL (QM-1) for QUERYMENU on a %s, got %s",
		      ctrl_type_name(cx->ctrl->q.type), errno_name(e));
	e = querymenu(cx, 1, &qm);
	ck_assert_msg(e == EINVAL || e == ENOTTY, "expected EINVAL (QM-1) for QUERYMENU index 1 on a %s, got %s",
		      ctrl_type_name(cx->ctrl->q.type), errno_name(e));
}

static void current_valid(const struct check_ctx *cx)
{
	int64_t v;
	expect_ok(ctrl_get_scalar(cx->dev, cx->ctrl, &v), "getting the current item");
	ck_assert_msg(ctrl_value_valid(cx->ctrl, v), "expected the current value to be a valid item (QM-6), got %lld",
		      (long long)v);
}

static bool is_menu(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return ctrl_type_is_menu(c->q.type);
}

static bool is_int_menu(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return c->q.type == V4L2_CTRL_TYPE_INTEGER_MENU;
}

static bool is_readable_menu(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return is_menu(c, m, why) && ctrl_readable(&c->q);
}

static bool not_menu(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return !ctrl_type_is_menu(c->q.type);
}

static const struct check_def checks[] = {
	{ "menu/items", "QM-3", "every index in [min, max] answers or gives EINVAL; names valid; default valid",
	  CHECK_PER_CONTROL, items, is_menu },
	{ "menu/out-of-range", "QM-2", "indexes below min and above max give EINVAL",
	  CHECK_PER_CONTROL, out_of_range, is_menu },
	{ "menu/int-values", "QM-4", "an integer menu returns each item's value, the same every time",
	  CHECK_PER_CONTROL, int_values, is_int_menu },
	{ "menu/non-menu", "QM-1", "QUERYMENU on a control that is not a menu gives EINVAL",
	  CHECK_PER_CONTROL, non_menu, not_menu },
	{ "menu/current-valid", "QM-6", "the current value of a menu is a valid item",
	  CHECK_PER_CONTROL, current_valid, is_readable_menu },
};
SUITE(suite_menu, "menu", "VIDIOC_QUERYMENU", checks);
