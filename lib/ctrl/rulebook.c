/* The rule book's series and since which kernel each control-interface
 * constant exists. Sources: spec/uapi-6.1.txt, uapi-6.12.txt, uapi-7.3.txt
 * (the uapi headers of each series) and spec/controls-checklist.md section 15.
 * Since-versions finer than the rule books: AV1 (6.5) and the MIN/MAX
 * additions and RECT (6.15) from the kernel's history as issue 33 records
 * it; HEVC_EXT_SPS_{ST,LT}_RPS are in 7.3's headers and not in 6.12.118's,
 * the first release between is not established (interval 6.13..7.3). */
#include "ctrl/rulebook.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

const rb_ver rb_series[] = { RB_VER(6, 1), RB_VER(6, 12), RB_VER(7, 3) };
const size_t rb_n_series = sizeof(rb_series) / sizeof(rb_series[0]);

#define OLD 0, RB_VER(6, 1)		/* in every rule book */
#define AT(x, y) RB_VER(x, y), RB_VER(x, y)

static const struct rb_const consts[] = {
	{ RB_FLAG, 0x0001, "V4L2_CTRL_FLAG_DISABLED", OLD, "FL-1" },
	{ RB_FLAG, 0x0002, "V4L2_CTRL_FLAG_GRABBED", OLD, "FL-2" },
	{ RB_FLAG, 0x0004, "V4L2_CTRL_FLAG_READ_ONLY", OLD, "FL-3" },
	{ RB_FLAG, 0x0008, "V4L2_CTRL_FLAG_UPDATE", OLD, "FL-4" },
	{ RB_FLAG, 0x0010, "V4L2_CTRL_FLAG_INACTIVE", OLD, "FL-5" },
	{ RB_FLAG, 0x0020, "V4L2_CTRL_FLAG_SLIDER", OLD, "FL-6" },
	{ RB_FLAG, 0x0040, "V4L2_CTRL_FLAG_WRITE_ONLY", OLD, "FL-7" },
	{ RB_FLAG, 0x0080, "V4L2_CTRL_FLAG_VOLATILE", OLD, "FL-8" },
	{ RB_FLAG, 0x0100, "V4L2_CTRL_FLAG_HAS_PAYLOAD", OLD, "FL-9" },
	{ RB_FLAG, 0x0200, "V4L2_CTRL_FLAG_EXECUTE_ON_WRITE", OLD, "FL-10" },
	{ RB_FLAG, 0x0400, "V4L2_CTRL_FLAG_MODIFY_LAYOUT", OLD, "FL-11" },
	{ RB_FLAG, 0x0800, "V4L2_CTRL_FLAG_DYNAMIC_ARRAY", OLD, "FL-12" },
	{ RB_FLAG, 0x1000, "V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX", AT(6, 15), "FL-13" },
	{ RB_TYPE, 1, "V4L2_CTRL_TYPE_INTEGER", OLD, "QC-11" },
	{ RB_TYPE, 2, "V4L2_CTRL_TYPE_BOOLEAN", OLD, "QC-11" },
	{ RB_TYPE, 3, "V4L2_CTRL_TYPE_MENU", OLD, "QC-11" },
	{ RB_TYPE, 4, "V4L2_CTRL_TYPE_BUTTON", OLD, "QC-11" },
	{ RB_TYPE, 5, "V4L2_CTRL_TYPE_INTEGER64", OLD, "QC-11" },
	{ RB_TYPE, 6, "V4L2_CTRL_TYPE_CTRL_CLASS", OLD, "QC-11" },
	{ RB_TYPE, 7, "V4L2_CTRL_TYPE_STRING", OLD, "QC-11" },
	{ RB_TYPE, 8, "V4L2_CTRL_TYPE_BITMASK", OLD, "QC-11" },
	{ RB_TYPE, 9, "V4L2_CTRL_TYPE_INTEGER_MENU", OLD, "QC-11" },
	{ RB_TYPE, 0x0100, "V4L2_CTRL_TYPE_U8", OLD, "QC-16" },
	{ RB_TYPE, 0x0101, "V4L2_CTRL_TYPE_U16", OLD, "QC-16" },
	{ RB_TYPE, 0x0102, "V4L2_CTRL_TYPE_U32", OLD, "QC-16" },
	{ RB_TYPE, 0x0106, "V4L2_CTRL_TYPE_AREA", OLD, "VA-7" },
	{ RB_TYPE, 0x0107, "V4L2_CTRL_TYPE_RECT", AT(6, 15), "QC-21" },
	{ RB_TYPE, 0x0110, "V4L2_CTRL_TYPE_HDR10_CLL_INFO", OLD, "QC-16" },
	{ RB_TYPE, 0x0111, "V4L2_CTRL_TYPE_HDR10_MASTERING_DISPLAY", OLD, "QC-16" },
	{ RB_TYPE, 0x0200, "V4L2_CTRL_TYPE_H264_SPS", OLD, "QC-16" },
	{ RB_TYPE, 0x0201, "V4L2_CTRL_TYPE_H264_PPS", OLD, "QC-16" },
	{ RB_TYPE, 0x0202, "V4L2_CTRL_TYPE_H264_SCALING_MATRIX", OLD, "QC-16" },
	{ RB_TYPE, 0x0203, "V4L2_CTRL_TYPE_H264_SLICE_PARAMS", OLD, "QC-16" },
	{ RB_TYPE, 0x0204, "V4L2_CTRL_TYPE_H264_DECODE_PARAMS", OLD, "QC-16" },
	{ RB_TYPE, 0x0205, "V4L2_CTRL_TYPE_H264_PRED_WEIGHTS", OLD, "QC-16" },
	{ RB_TYPE, 0x0220, "V4L2_CTRL_TYPE_FWHT_PARAMS", OLD, "QC-16" },
	{ RB_TYPE, 0x0240, "V4L2_CTRL_TYPE_VP8_FRAME", OLD, "QC-16" },
	{ RB_TYPE, 0x0250, "V4L2_CTRL_TYPE_MPEG2_QUANTISATION", OLD, "CP-1" },
	{ RB_TYPE, 0x0251, "V4L2_CTRL_TYPE_MPEG2_SEQUENCE", OLD, "CP-2" },
	{ RB_TYPE, 0x0252, "V4L2_CTRL_TYPE_MPEG2_PICTURE", OLD, "CP-2" },
	{ RB_TYPE, 0x0260, "V4L2_CTRL_TYPE_VP9_COMPRESSED_HDR", OLD, "QC-16" },
	{ RB_TYPE, 0x0261, "V4L2_CTRL_TYPE_VP9_FRAME", OLD, "CP-2" },
	{ RB_TYPE, 0x0270, "V4L2_CTRL_TYPE_HEVC_SPS", OLD, "QC-16" },
	{ RB_TYPE, 0x0271, "V4L2_CTRL_TYPE_HEVC_PPS", OLD, "QC-16" },
	{ RB_TYPE, 0x0272, "V4L2_CTRL_TYPE_HEVC_SLICE_PARAMS", OLD, "QC-16" },
	{ RB_TYPE, 0x0273, "V4L2_CTRL_TYPE_HEVC_SCALING_MATRIX", OLD, "QC-16" },
	{ RB_TYPE, 0x0274, "V4L2_CTRL_TYPE_HEVC_DECODE_PARAMS", OLD, "QC-16" },
	{ RB_TYPE, 0x0275, "V4L2_CTRL_TYPE_HEVC_EXT_SPS_ST_RPS", RB_VER(6, 13), RB_VER(7, 3), "CP-4" },
	{ RB_TYPE, 0x0276, "V4L2_CTRL_TYPE_HEVC_EXT_SPS_LT_RPS", RB_VER(6, 13), RB_VER(7, 3), "CP-4" },
	{ RB_TYPE, 0x0280, "V4L2_CTRL_TYPE_AV1_SEQUENCE", AT(6, 5), "CP-1" },
	{ RB_TYPE, 0x0281, "V4L2_CTRL_TYPE_AV1_TILE_GROUP_ENTRY", AT(6, 5), "QC-16" },
	{ RB_TYPE, 0x0282, "V4L2_CTRL_TYPE_AV1_FRAME", AT(6, 5), "CP-3" },
	{ RB_TYPE, 0x0283, "V4L2_CTRL_TYPE_AV1_FILM_GRAIN", AT(6, 5), "CP-2" },
	{ RB_WHICH, 0x00000000, "V4L2_CTRL_WHICH_CUR_VAL", OLD, "EX-11" },
	{ RB_WHICH, 0x0f000000, "V4L2_CTRL_WHICH_DEF_VAL", OLD, "EX-18" },
	{ RB_WHICH, 0x0f010000, "V4L2_CTRL_WHICH_REQUEST_VAL", OLD, "RQ-1" },
	{ RB_WHICH, 0x0f020000, "V4L2_CTRL_WHICH_MIN_VAL", AT(6, 15), "EX-23" },
	{ RB_WHICH, 0x0f030000, "V4L2_CTRL_WHICH_MAX_VAL", AT(6, 15), "EX-23" },
	{ RB_EVENT, 1, "V4L2_EVENT_VSYNC", OLD, "EV-1" },
	{ RB_EVENT, 2, "V4L2_EVENT_EOS", OLD, "EV-1" },
	{ RB_EVENT, 3, "V4L2_EVENT_CTRL", OLD, "EV-1" },
	{ RB_EVENT, 4, "V4L2_EVENT_FRAME_SYNC", OLD, "EV-1" },
	{ RB_EVENT, 5, "V4L2_EVENT_SOURCE_CHANGE", OLD, "EV-1" },
	{ RB_EVENT, 6, "V4L2_EVENT_MOTION_DET", OLD, "EV-1" },
	{ RB_EVENT_CH, 0x1, "V4L2_EVENT_CTRL_CH_VALUE", OLD, "EV-4" },
	{ RB_EVENT_CH, 0x2, "V4L2_EVENT_CTRL_CH_FLAGS", OLD, "EV-7" },
	{ RB_EVENT_CH, 0x4, "V4L2_EVENT_CTRL_CH_RANGE", OLD, "EV-7" },
	{ RB_EVENT_CH, 0x8, "V4L2_EVENT_CTRL_CH_DIMENSIONS", OLD, "EV-7" },
	{ RB_SUB_FL, 0x1, "V4L2_EVENT_SUB_FL_SEND_INITIAL", OLD, "EV-2" },
	{ RB_SUB_FL, 0x2, "V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK", OLD, "EV-4" },
};

const struct rb_const *rb_const_at(size_t i)
{
	return i < sizeof(consts) / sizeof(consts[0]) ? &consts[i] : NULL;
}

const struct rb_const *rb_find(enum rb_kind kind, uint32_t value)
{
	for (size_t i = 0; i < sizeof(consts) / sizeof(consts[0]); i++)
		if (consts[i].kind == kind && consts[i].value == value)
			return &consts[i];
	return NULL;
}

rb_ver rb_newest(void)
{
	return rb_series[rb_n_series - 1];
}

const char *rb_ver_str(rb_ver v, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u", v / 1000, v % 1000);
	return buf;
}

rb_ver rb_parse_release(const char *release)
{
	char *end;
	if (!release || release[0] < '0' || release[0] > '9')
		return 0;
	unsigned long x = strtoul(release, &end, 10);
	if (*end != '.' || end[1] < '0' || end[1] > '9')
		return 0;
	unsigned long y = strtoul(end + 1, &end, 10);
	if (x == 0 || x > 999 || y > 999)
		return 0;
	return RB_VER(x, y);
}

void rb_kernel_from_release(struct rb_kernel *k, const char *release)
{
	memset(k, 0, sizeof(*k));
	snprintf(k->release, sizeof(k->release), "%s", release ? release : "");
	k->ver = rb_parse_release(release);
	k->book = k->ver ? rb_series[0] : rb_newest();
	for (size_t i = 0; k->ver && i < rb_n_series; i++)
		if (rb_series[i] <= k->ver)
			k->book = rb_series[i];
}

enum rb_verdict rb_judge(const struct rb_kernel *k, enum rb_kind kind, uint32_t value, const struct rb_const **out)
{
	const struct rb_const *c = rb_find(kind, value);
	if (out)
		*out = c;
	if (!c)	/* a release we cannot read is judged as the newest rule book's */
		return k->ver > rb_newest() ? RB_NEWER : RB_UNKNOWN;
	if (!k->ver || k->ver >= c->sure)
		return RB_KNOWN;
	return k->ver >= c->first ? RB_MAY : RB_CANNOT;
}

bool rb_fails(enum rb_verdict v)
{
	return v == RB_CANNOT || v == RB_UNKNOWN;
}

const char *rb_kind_name(enum rb_kind kind)
{
	static const char *const n[] = { "flag", "type", "which", "event type", "event change bit",
					 "subscription flag" };
	return kind <= RB_SUB_FL ? n[kind] : "constant";
}

const char *rb_why(const struct rb_kernel *k, enum rb_kind kind, uint32_t value, char *buf, size_t len)
{
	const struct rb_const *c;
	char kb[16], nb[16], fb[16], sb[16];
	enum rb_verdict v = rb_judge(k, kind, value, &c);
	rb_ver_str(k->book, kb, sizeof(kb));
	rb_ver_str(rb_newest(), nb, sizeof(nb));
	switch (v) {
	case RB_CANNOT:
		if (c->first == c->sure)
			snprintf(buf, len, "%s (0x%x) exists since %s: kernel %s (rule book %s) cannot have it (%s)",
				 c->name, value, rb_ver_str(c->first, fb, sizeof(fb)), k->release, kb, c->rule);
		else
			snprintf(buf, len, "%s (0x%x) exists from a kernel after %s (at or before %s): kernel %s "
				 "(rule book %s) cannot have it (%s)", c->name, value,
				 rb_ver_str(c->first - 1, fb, sizeof(fb)), rb_ver_str(c->sure, sb, sizeof(sb)),
				 k->release, kb, c->rule);
		break;
	case RB_NEWER:
		snprintf(buf, len, "%s 0x%x: newer than this suite's rule book (covers up to %s; kernel %s)",
			 rb_kind_name(kind), value, nb, k->release);
		break;
	case RB_UNKNOWN:
		snprintf(buf, len, "%s 0x%x is in no rule book, and kernel %s is covered by rule book %s",
			 rb_kind_name(kind), value, k->release, kb);
		break;
	default:
		snprintf(buf, len, "%s (0x%x): known to rule book %s", c->name, value, kb);
	}
	return buf;
}

const char *rb_banner(const struct rb_kernel *k, char *buf, size_t len)
{
	char b[16];
	snprintf(buf, len, "rule book: %s (kernel %s)", rb_ver_str(k->book, b, sizeof(b)), k->release);
	return buf;
}

static struct rb_kernel running;
static bool running_set;

void rb_set_running(const char *release)
{
	rb_kernel_from_release(&running, release);
	running_set = true;
}

const struct rb_kernel *rb_running(void)
{
	if (!running_set) {
		struct utsname u;
		rb_set_running(uname(&u) ? "" : u.release);
	}
	return &running;
}
