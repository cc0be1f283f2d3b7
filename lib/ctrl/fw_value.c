/* The framework's value rules, bit for bit (see fw_value.h). Read from
 * v4l2-ctrls-core.c of 6.1.192 and 6.12.118: std_validate_elem() and the
 * ROUND_TO_RANGE macro are the same in both. The kernel is built with
 * -fno-strict-overflow, so its signed additions wrap; here they are done in
 * unsigned arithmetic of the same width to get the same results without
 * undefined behaviour. */
#include "ctrl/fw_value.h"
#include <errno.h>

/* ROUND_TO_RANGE(val, offset_type, ctrl) for a value held in `width` bits:
 *   if (max >= 0 && val >= max - (s32)(step / 2)) val = max;
 *   else val += (s32)(step / 2);              (wraps in the value's type)
 *   val = clamp_t(typeof(val), val, min, max); (min, max cut to that type)
 *   offset = val - min;                       (offset_type: u32, u8, u16)
 *   offset = step * (offset / (u32)step);
 *   val = min + offset;
 * For INTEGER the value is an s32 and the offset a u32; for U8/U16/U32 value
 * and offset are the same unsigned width. `is_signed` says how to compare and
 * clamp; results are returned sign- or zero-extended accordingly. */
static int64_t round_to_range(const struct v4l2_query_ext_ctrl *q, int64_t in, unsigned width, bool is_signed)
{
	uint64_t m = width == 64 ? ~0ull : (1ull << width) - 1;
	int64_t half = (int32_t)(uint32_t)(q->step / 2);	/* (s32)(step / 2) */
	uint64_t val = (uint64_t)in & m;
#define AS_S(x) (is_signed ? (int64_t)((x) << (64 - width)) >> (64 - width) : (int64_t)(x))
	/* The comparison is done in s64 (the type of ctrl->maximum). */
	if (q->maximum >= 0 && AS_S(val) >= q->maximum - half)
		val = (uint64_t)q->maximum & m;
	else
		val = (val + (uint64_t)half) & m;
	uint64_t lo = (uint64_t)q->minimum & m, hi = (uint64_t)q->maximum & m;
	if (is_signed) {
		if (AS_S(val) < AS_S(lo))
			val = lo;
		if (AS_S(val) > AS_S(hi))
			val = hi;
	} else {
		if (val < lo)
			val = lo;
		if (val > hi)
			val = hi;
	}
	uint64_t off = (val - lo) & m;
	uint32_t d = (uint32_t)q->step;	/* a step that is a multiple of 2^32 divides by 0 in the kernel */
	off = (q->step * (d ? off / d : off)) & m;
	val = ((uint64_t)q->minimum + off) & m;
	return AS_S(val);
#undef AS_S
}

/* The INTEGER64 case of std_validate_elem: the same steps in s64, with
 * do_div() (a 32-bit divisor) instead of the macro. */
static int64_t round_s64(const struct v4l2_query_ext_ctrl *q, int64_t in)
{
	int64_t half = (int64_t)(q->step / 2);
	int64_t val = in;
	if (q->maximum >= 0 && val >= q->maximum - half)
		val = q->maximum;
	else
		val = (int64_t)((uint64_t)val + (uint64_t)half);
	if (val < q->minimum)
		val = q->minimum;
	if (val > q->maximum)
		val = q->maximum;
	uint64_t off = (uint64_t)val - (uint64_t)q->minimum;
	uint32_t d = (uint32_t)q->step;
	if (d)
		off /= d;
	return (int64_t)((uint64_t)q->minimum + off * q->step);
}

static bool menu_item_refused(const struct menu_item *menu, size_t n_menu, int64_t v)
{
	for (size_t i = 0; menu && i < n_menu; i++)
		if (menu[i].index == (uint32_t)v)
			return menu[i].err != 0;
	return false;
}

int fw_validate(const struct v4l2_query_ext_ctrl *q, const struct menu_item *menu, size_t n_menu, int64_t in,
		int64_t *out)
{
	int32_t s = (int32_t)(uint32_t)in;
	switch (q->type) {
	case V4L2_CTRL_TYPE_INTEGER:
		*out = round_to_range(q, in, 32, true);
		return 0;
	case V4L2_CTRL_TYPE_INTEGER64:
		*out = round_s64(q, in);
		return 0;
	case V4L2_CTRL_TYPE_U8:
		*out = round_to_range(q, in, 8, false);
		return 0;
	case V4L2_CTRL_TYPE_U16:
		*out = round_to_range(q, in, 16, false);
		return 0;
	case V4L2_CTRL_TYPE_U32:
		*out = round_to_range(q, in, 32, false);
		return 0;
	case V4L2_CTRL_TYPE_BOOLEAN:
		*out = s != 0;
		return 0;
	case V4L2_CTRL_TYPE_MENU:
	case V4L2_CTRL_TYPE_INTEGER_MENU:
		/* Masked items (skip mask, checked for items below 64 only)
		 * and unnamed MENU items: both are what QUERYMENU refuses. */
		if (s < q->minimum || s > q->maximum)
			return -ERANGE;
		if (menu_item_refused(menu, n_menu, s))
			return -EINVAL;
		*out = s;
		return 0;
	case V4L2_CTRL_TYPE_BITMASK:
		*out = (int32_t)((uint32_t)s & (uint32_t)q->maximum);
		return 0;
	case V4L2_CTRL_TYPE_BUTTON:
	case V4L2_CTRL_TYPE_CTRL_CLASS:
		*out = 0;
		return 0;
	default:
		*out = in;	/* strings and compound types: not a number */
		return 0;
	}
}

static bool is_integer(uint32_t type)
{
	return type == V4L2_CTRL_TYPE_INTEGER || type == V4L2_CTRL_TYPE_INTEGER64 || type == V4L2_CTRL_TYPE_U8 ||
	       type == V4L2_CTRL_TYPE_U16 || type == V4L2_CTRL_TYPE_U32;
}

int64_t fw_grid_below(const struct v4l2_query_ext_ctrl *q, int64_t v)
{
	__int128 step = q->step ? (__int128)q->step : 1;
	return (int64_t)(q->minimum + step * (((__int128)v - q->minimum) / step));
}

bool fw_max_off_grid(const struct v4l2_query_ext_ctrl *q)
{
	return q->step > 1 && ((__int128)q->maximum - q->minimum) % (__int128)q->step != 0;
}

bool fw_allowed(const struct v4l2_query_ext_ctrl *q, int64_t want, int64_t got, bool *framework)
{
	int64_t fw = 0;
	*framework = fw_validate(q, NULL, 0, want, &fw) == 0 && fw == got;
	if (*framework)
		return true;
	if (q->type == V4L2_CTRL_TYPE_BOOLEAN)	/* SC-11: 1, or clamped to [0, 1] */
		return want < 0 ? got == 0 : false;
	if (!is_integer(q->type) || got < q->minimum || got > q->maximum)
		return false;
	bool off_grid_max = fw_max_off_grid(q);
	if (want <= q->minimum)
		return got == q->minimum;
	if (want >= q->maximum)
		return got == q->maximum || (off_grid_max && got == fw_grid_below(q, q->maximum));
	int64_t below = fw_grid_below(q, want);
	if (below == want)
		return got == want;
	__int128 above = (__int128)below + (q->step ? q->step : 1);
	return got == below || (above <= q->maximum && got == (int64_t)above) ||
	       (off_grid_max && got == q->maximum && want > fw_grid_below(q, q->maximum));
}
