/* Making an inactive control active (ctrl_manual.h). */
#include "ctrl/ctrl_manual.h"
#include "ctrl/ctrl_value.h"

#include <errno.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <string.h>

bool ctrl_manual_of(uint32_t id, uint32_t *auto_id, int32_t *manual)
{
	*manual = 0;
	switch (id) {
	case V4L2_CID_EXPOSURE_ABSOLUTE:
	case V4L2_CID_EXPOSURE:
	case V4L2_CID_IRIS_ABSOLUTE:
		*auto_id = V4L2_CID_EXPOSURE_AUTO;
		*manual = V4L2_EXPOSURE_MANUAL;
		return true;
	case V4L2_CID_WHITE_BALANCE_TEMPERATURE:
	case V4L2_CID_RED_BALANCE:
	case V4L2_CID_BLUE_BALANCE:
		*auto_id = V4L2_CID_AUTO_WHITE_BALANCE;
		return true;
	case V4L2_CID_GAIN:
	case V4L2_CID_ANALOGUE_GAIN:
	case V4L2_CID_DIGITAL_GAIN:
		*auto_id = V4L2_CID_AUTOGAIN;
		return true;
	case V4L2_CID_FOCUS_ABSOLUTE:
	case V4L2_CID_FOCUS_RELATIVE:
		*auto_id = V4L2_CID_FOCUS_AUTO;
		return true;
	case V4L2_CID_HUE:
		*auto_id = V4L2_CID_HUE_AUTO;
		return true;
	case V4L2_CID_CHROMA_GAIN:
		*auto_id = V4L2_CID_CHROMA_AGC;
		return true;
	}
	return false;
}

static bool inactive(const struct dev *d, uint32_t id)
{
	uint32_t flags = 0;
	return ctrl_query_flags(d, id, &flags) && (flags & V4L2_CTRL_FLAG_INACTIVE);
}

static int set32(const struct dev *d, uint32_t id, int32_t v)
{
	struct v4l2_ext_control c = { .id = id, .value = v };
	struct v4l2_ext_controls cs = { .which = V4L2_CTRL_WHICH_CUR_VAL, .count = 1, .controls = &c };
	int e = dev_ioctl(d, VIDIOC_S_EXT_CTRLS, &cs);
	if (e == ENOTTY) {	/* no extended controls: the user class through S_CTRL */
		struct v4l2_control o = { id, v };
		e = dev_ioctl(d, VIDIOC_S_CTRL, &o);
	}
	return e;
}

static int get32(const struct dev *d, uint32_t id, int32_t *v)
{
	struct v4l2_control o = { .id = id };
	int e = dev_ioctl(d, VIDIOC_G_CTRL, &o);
	*v = o.value;
	return e;
}

/* A cluster's master (V4L2_CTRL_FLAG_UPDATE), boolean or menu, at each of
 * its other values until id is active; the ones that do not activate it
 * set back. */
static int through_update_masters(const struct dev *d, uint32_t id, char *what, size_t len)
{
	struct v4l2_queryctrl q = { .id = V4L2_CTRL_FLAG_NEXT_CTRL };
	while (!dev_ioctl(d, VIDIOC_QUERYCTRL, &q)) {
		const struct v4l2_queryctrl m = q;
		q.id = m.id | V4L2_CTRL_FLAG_NEXT_CTRL;
		int32_t was;
		if (m.id == id || !(m.flags & V4L2_CTRL_FLAG_UPDATE) || (m.flags & V4L2_CTRL_FLAG_READ_ONLY) ||
		    (m.type != V4L2_CTRL_TYPE_BOOLEAN && m.type != V4L2_CTRL_TYPE_MENU) || get32(d, m.id, &was))
			continue;
		for (int32_t v = m.minimum; v <= m.maximum && v - m.minimum < 64; v++) {
			if (v == was || set32(d, m.id, v))
				continue;
			if (!inactive(d, id)) {
				snprintf(what, len, "'%s' (0x%08x, V4L2_CTRL_FLAG_UPDATE) set to %d", (const char *)m.name,
					 m.id, v);
				return 0;
			}
		}
		set32(d, m.id, was);
	}
	return ENOENT;
}

int ctrl_make_active(const struct dev *d, uint32_t id, char *what, size_t len)
{
	uint32_t aid;
	int32_t manual;
	what[0] = 0;
	if (!inactive(d, id))
		return 0;
	if (ctrl_manual_of(id, &aid, &manual)) {
		struct v4l2_queryctrl q = { .id = aid };
		int e = dev_ioctl(d, VIDIOC_QUERYCTRL, &q);
		if (!e && !(e = set32(d, aid, manual)) && !inactive(d, id)) {
			snprintf(what, len, "'%s' (0x%08x) set to %d (manual)", (const char *)q.name, aid, manual);
			return 0;
		}
		if (e && e != EINVAL) {	/* EINVAL: no such control here */
			snprintf(what, len, "setting its auto control 0x%08x to %d (manual) gave %s", aid, manual,
				 errno_name(e));
			return e;
		}
	}
	if (!through_update_masters(d, id, what, len))
		return 0;
	snprintf(what, len, "no control makes it active (its documented auto control%s, and every "
		 "V4L2_CTRL_FLAG_UPDATE control at its other values)", ctrl_manual_of(id, &aid, &manual) ? " in manual" :
		 ": none documented");
	return ENOENT;
}
