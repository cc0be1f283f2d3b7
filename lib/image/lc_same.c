#include "image/lc_same.h"
#include "image/lifecycle.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void add(char *done, size_t len, const char *fmt, unsigned long long a)
{
	size_t at = strlen(done);
	if (at + 2 >= len)
		return;
	if (at)
		at += (size_t)snprintf(done + at, len - at, ", ");
	snprintf(done + at, len - at, fmt, a);
}

int lc_same_input(const struct dev *d, char *done, size_t len)
{
	unsigned n, cur;
	done[0] = 0;
	int e = lc_inputs(d, &n, &cur);
	if (e)
		return e;
	int x = (int)cur;
	if ((e = dev_ioctl(d, VIDIOC_S_INPUT, &x)))
		return e;
	add(done, len, "S_INPUT %llu (the current one)", cur);
	v4l2_std_id std = 0;
	if (!dev_ioctl(d, VIDIOC_G_STD, &std)) {
		if ((e = dev_ioctl(d, VIDIOC_S_STD, &std)))
			return e;
		add(done, len, "S_STD 0x%016llx (the current one)", (unsigned long long)std);
	}
	struct v4l2_dv_timings t;
	memset(&t, 0, sizeof(t));
	if (!dev_ioctl(d, VIDIOC_G_DV_TIMINGS, &t)) {
		if ((e = dev_ioctl(d, VIDIOC_S_DV_TIMINGS, &t)))
			return e;
		add(done, len, "S_DV_TIMINGS with the current timings (%llu pixels wide)", t.bt.width);
	}
	return 0;
}
