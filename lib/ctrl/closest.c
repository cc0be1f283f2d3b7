#include "ctrl/closest.h"
#include "ctrl/fw_value.h"

void ctrl_closest_valid(const struct v4l2_query_ext_ctrl *q, int64_t req, int64_t *a, int64_t *b)
{
	const __int128 min = q->minimum, max = q->maximum, r = req;
	const __int128 step = q->step ? (__int128)q->step : 1;
	if (r <= min || r >= max) {
		*a = *b = (int64_t)(r <= min ? min : max);
		return;
	}
	__int128 lo = min + (r - min) / step * step, hi = lo + step > max ? max : lo + step;
	__int128 dlo = r - lo, dhi = hi - r;
	*a = (int64_t)(dlo <= dhi ? lo : hi);
	*b = (int64_t)(dlo < dhi ? lo : hi);
}

bool ctrl_closest_taken(const struct v4l2_query_ext_ctrl *q, int64_t req, int64_t got, bool *framework)
{
	int64_t a, b, fw;
	*framework = fw_validate(q, NULL, 0, req, &fw) == 0 && got == fw;
	ctrl_closest_valid(q, req, &a, &b);
	return got == a || got == b || *framework;
}
