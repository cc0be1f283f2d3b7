#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_type.h"
#include "ctrl/ctrl_value.h"

bool ctrl_settable_scalar(const struct ctrl *c)
{
	const struct v4l2_query_ext_ctrl *q = &c->q;
	return !c->excluded && ctrl_readable(q) && ctrl_writable(q) && !ctrl_has_payload(q) &&
	       !(q->flags & V4L2_CTRL_FLAG_VOLATILE) && q->type != V4L2_CTRL_TYPE_BUTTON &&
	       ctrl_type_known(q->type);
}

bool ctrl_settable_int32(const struct ctrl *c)
{
	return ctrl_settable_scalar(c) && ctrl_is_scalar_int32(&c->q);
}

int64_t ctrl_menu_first_valid(const struct ctrl *c)
{
	for (size_t i = 0; i < c->n_menu; i++)
		if (!c->menu[i].err)
			return c->menu[i].index;
	return -1;
}

int64_t ctrl_menu_first_skipped(const struct ctrl *c)
{
	for (size_t i = 0; i < c->n_menu; i++)
		if (c->menu[i].err)
			return c->menu[i].index;
	return -1;
}

bool ctrl_other_value(const struct ctrl *c, int64_t cur, int64_t *out)
{
	const struct v4l2_query_ext_ctrl *q = &c->q;
	if (ctrl_type_is_menu(q->type)) {
		for (size_t i = 0; i < c->n_menu; i++)
			if (!c->menu[i].err && c->menu[i].index != cur) {
				*out = c->menu[i].index;
				return true;
			}
		return false;
	}
	if (q->type == V4L2_CTRL_TYPE_BOOLEAN) {
		*out = !cur;
		return true;
	}
	if (q->type == V4L2_CTRL_TYPE_BITMASK) {
		*out = (int64_t)(int32_t)((uint32_t)cur ^ (uint32_t)q->maximum);
		return q->maximum != 0;
	}
	if (q->maximum == q->minimum)
		return false;
	/* The end further away, so the change is as visible as it can be. */
	__int128 dmin = (__int128)cur - q->minimum, dmax = (__int128)q->maximum - cur;
	*out = ctrl_expected_scalar(q, dmax >= dmin ? q->maximum : q->minimum);
	return *out != cur;
}

int64_t ctrl_middle_value(const struct ctrl *c)
{
	const struct v4l2_query_ext_ctrl *q = &c->q;
	if (ctrl_type_is_menu(q->type)) {
		int64_t v = ctrl_menu_first_valid(c);
		for (size_t i = c->n_menu / 2; i < c->n_menu; i++)
			if (!c->menu[i].err)
				return c->menu[i].index;
		return v;
	}
	__int128 mid = ((__int128)q->minimum + q->maximum) / 2;
	return ctrl_expected_scalar(q, (int64_t)mid);
}
