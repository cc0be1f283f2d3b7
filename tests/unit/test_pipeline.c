/* Host unit tests: the paths from a sensor to the capture nodes (spec SD-6,
 * lib/dev/media_topo.c) and making a path stream then putting the pipeline
 * back (SD-7, lib/dev/pipeline.c), on topology tables and a pretend device
 * with injectable faults: the negative cases of the path finding and of
 * the restore check (run/pipeline-restored). */
#include <check.h>
#include "unit.h"
#include <errno.h>
#include <linux/media.h>
#include <linux/media-bus-format.h>
#include <linux/videodev2.h>
#include <string.h>

#include "dev/media_topo.h"
#include "dev/pipeline.h"
#include "run/journal.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define SRC MEDIA_PAD_FL_SOURCE
#define SNK MEDIA_PAD_FL_SINK
#define ON MEDIA_LNK_FL_ENABLED
#define FIX MEDIA_LNK_FL_IMMUTABLE

/* vimc's graph (vimc-core.c): entities 1..9, pads 10x+i, links 100+. */
static struct topo_entity ents[] = {
	{ 1, MEDIA_ENT_F_CAM_SENSOR, "Sensor A", MEDIA_INTF_T_V4L_SUBDEV, 0, 0, "/dev/node1" },
	{ 2, MEDIA_ENT_F_CAM_SENSOR, "Sensor B", MEDIA_INTF_T_V4L_SUBDEV, 0, 0, "/dev/node2" },
	{ 3, MEDIA_ENT_F_PROC_VIDEO_PIXEL_ENC_CONV, "Debayer A", MEDIA_INTF_T_V4L_SUBDEV, 0, 0, "/dev/node3" },
	{ 4, MEDIA_ENT_F_PROC_VIDEO_PIXEL_ENC_CONV, "Debayer B", MEDIA_INTF_T_V4L_SUBDEV, 0, 0, "/dev/node4" },
	{ 5, MEDIA_ENT_F_IO_V4L, "Raw Capture 0", MEDIA_INTF_T_V4L_VIDEO },
	{ 6, MEDIA_ENT_F_IO_V4L, "Raw Capture 1", MEDIA_INTF_T_V4L_VIDEO },
	{ 7, MEDIA_ENT_F_CAM_SENSOR, "RGB/YUV Input", MEDIA_INTF_T_V4L_SUBDEV, 0, 0, "/dev/node5" },
	{ 8, MEDIA_ENT_F_PROC_VIDEO_SCALER, "Scaler", MEDIA_INTF_T_V4L_SUBDEV, 0, 0, "/dev/node6" },
	{ 9, MEDIA_ENT_F_IO_V4L, "RGB/YUV Capture", MEDIA_INTF_T_V4L_VIDEO },
};
static struct topo_pad pads[] = {
	{ 10, 1, 0, SRC }, { 20, 2, 0, SRC }, { 30, 3, 0, SNK }, { 31, 3, 1, SRC }, { 40, 4, 0, SNK },
	{ 41, 4, 1, SRC }, { 50, 5, 0, SNK }, { 60, 6, 0, SNK }, { 70, 7, 0, SRC }, { 80, 8, 0, SNK },
	{ 81, 8, 1, SRC }, { 90, 9, 0, SNK },
};
static struct topo_link vimc_links[] = {
	{ 100, 10, 30, ON | FIX }, { 101, 10, 50, ON | FIX }, { 102, 20, 40, ON | FIX }, { 103, 20, 60, ON | FIX },
	{ 104, 31, 80, ON }, { 105, 41, 80, 0 }, { 106, 70, 80, 0 }, { 107, 81, 90, ON | FIX },
};
static struct topo_link links[8];

static struct topo vimc(void)
{
	memcpy(links, vimc_links, sizeof(links));
	return (struct topo){ ents, 9, pads, 12, links, 8 };
}

static const struct topo_path *to(const struct topo_path *p, int n, uint32_t capture)
{
	for (int i = 0; i < n; i++)
		if (p[i].capture == capture)
			return &p[i];
	return NULL;
}

START_TEST(test_sensor_and_capture_kinds)
{
	struct topo t = vimc();
	ck_assert(topo_is_sensor(&t, 1) && topo_is_sensor(&t, 7));
	ck_assert(!topo_is_sensor(&t, 3) && !topo_is_sensor(&t, 8) && !topo_is_sensor(&t, 5));
	ck_assert(topo_is_capture(&t, 5) && topo_is_capture(&t, 9) && !topo_is_capture(&t, 8));
}
END_TEST

/* Sensor A: both capture nodes through enabled links, nothing to change. */
START_TEST(test_enabled_paths_need_no_change)
{
	struct topo t = vimc();
	struct topo_path p[8];
	int n = topo_paths(&t, 1, p, 8);
	ck_assert_int_eq(n, 2);
	const struct topo_path *raw = to(p, n, 5), *rgb = to(p, n, 9);
	ck_assert(raw && rgb);
	ck_assert_int_eq(raw->nhops, 1);
	ck_assert_int_eq(rgb->nhops, 3);
	ck_assert_int_eq(rgb->hop[0].link, 100);
	ck_assert_int_eq(rgb->hop[1].link, 104);
	ck_assert_int_eq(rgb->hop[2].link, 107);
	ck_assert_int_eq(raw->nenable + raw->ndisable + rgb->nenable + rgb->ndisable, 0);
}
END_TEST

/* Sensor B to the scaler: its link is off, and Debayer A's holds the
 * scaler's sink pad: enable one, disable the other. */
START_TEST(test_disabled_link_enabled_and_other_disabled)
{
	struct topo t = vimc();
	struct topo_path p[8];
	int n = topo_paths(&t, 2, p, 8);
	const struct topo_path *rgb = to(p, n, 9);
	ck_assert_int_eq(n, 2);
	ck_assert_ptr_nonnull(rgb);
	ck_assert_int_eq(rgb->nenable, 1);
	ck_assert_int_eq(rgb->enable[0], 105);
	ck_assert_int_eq(rgb->ndisable, 1);
	ck_assert_int_eq(rgb->disable[0], 104);
	ck_assert_ptr_null(to(p, n, 5));	/* Raw Capture 0 is Sensor A's */
}
END_TEST

/* An enabled path wins over a shorter one that needs a link enabled. */
START_TEST(test_enabled_path_preferred_over_shorter)
{
	struct topo_entity e[] = { { 1, 0, "S", MEDIA_INTF_T_V4L_SUBDEV }, { 2, 0, "P", MEDIA_INTF_T_V4L_SUBDEV },
				   { 3, MEDIA_ENT_F_IO_V4L, "C", MEDIA_INTF_T_V4L_VIDEO } };
	struct topo_pad pd[] = { { 10, 1, 0, SRC }, { 20, 2, 0, SNK }, { 21, 2, 1, SRC }, { 30, 3, 0, SNK } };
	struct topo_link lk[] = { { 100, 10, 30, 0 }, { 101, 10, 20, ON }, { 102, 21, 30, ON } };
	struct topo t = { e, 3, pd, 4, lk, 3 };
	struct topo_path p[2];
	ck_assert_int_eq(topo_paths(&t, 1, p, 2), 1);
	ck_assert_int_eq(p[0].nhops, 2);
	ck_assert_int_eq(p[0].nenable, 0);
	lk[1].flags = 0;	/* now both need one link: the shorter */
	ck_assert_int_eq(topo_paths(&t, 1, p, 2), 1);
	ck_assert_int_eq(p[0].nhops, 1);
	ck_assert_int_eq(p[0].enable[0], 100);
}
END_TEST

/* No way through: an immutable disabled link, or a sink pad held by an
 * immutable enabled link from elsewhere. */
START_TEST(test_no_path_through_immutable_links)
{
	struct topo t = vimc();
	struct topo_path p[8];
	links[5].flags = FIX;	/* Debayer B -> Scaler: immutable, off */
	ck_assert_ptr_null(to(p, topo_paths(&t, 2, p, 8), 9));
	t = vimc();
	links[4].flags = ON | FIX;	/* Debayer A holds the scaler for good */
	ck_assert_ptr_null(to(p, topo_paths(&t, 2, p, 8), 9));
	ck_assert_ptr_null(to(p, topo_paths(&t, 7, p, 8), 9));
	ck_assert_int_eq(topo_paths(&t, 7, p, 8), 0);
}
END_TEST

/* ---------- a pretend device for the set-up and the restore ---------- */

static struct fake {
	bool on[8];		/* per link 100+i */
	struct v4l2_mbus_framefmt fmt[128];	/* per pad id */
	struct pipe_pix pix[10];	/* per capture entity */
	bool bug_link_stuck;	/* SETUP_LINK succeeds but changes nothing on link 104 */
	bool bug_sink_ignores;	/* S_FMT on the scaler's sink pad keeps its format */
	int refuse_link;	/* SETUP_LINK on this link: EBUSY */
	uint32_t refuse_pad;	/* S_FMT on this pad: refuse_errno */
	int refuse_errno;
	bool bug_sink_echoes;	/* S_FMT on the scaler's sink pad answers the request, keeps its format */
} fk;

static int f_setup_link(void *ctx, const struct topo_link *l, bool enable)
{
	if ((int)l->id == fk.refuse_link)
		return EBUSY;
	if (l->flags & FIX)
		return EINVAL;
	if (!(fk.bug_link_stuck && l->id == 104))
		fk.on[l->id - 100] = enable;
	return 0;
}

static int f_link_enabled(void *ctx, uint32_t link, bool *on)
{
	*on = fk.on[link - 100];
	return 0;
}

static int f_get_fmt(void *ctx, uint32_t pad, struct v4l2_mbus_framefmt *f)
{
	*f = fk.fmt[pad];
	return 0;
}

static bool bayer(uint32_t c)
{
	return c == MEDIA_BUS_FMT_SBGGR8_1X8 || c == MEDIA_BUS_FMT_SRGGB8_1X8;
}

/* Sensors take any code; a debayer's sink takes Bayer only and its source
 * follows it as RGB; the scaler's source follows its sink. */
static int f_set_fmt(void *ctx, uint32_t pad, struct v4l2_mbus_framefmt *f)
{
	if (pad == fk.refuse_pad)
		return fk.refuse_errno;
	if (pad == 80 && fk.bug_sink_echoes)
		return 0;
	if (pad == 30 || pad == 40) {
		if (!bayer(f->code))
			f->code = MEDIA_BUS_FMT_SRGGB8_1X8;
		fk.fmt[pad] = *f;
		fk.fmt[pad + 1] = *f;
		fk.fmt[pad + 1].code = MEDIA_BUS_FMT_RGB888_1X24;
	} else if (pad == 31 || pad == 41 || pad == 81) {
		*f = fk.fmt[pad];	/* a source pad follows its sink */
	} else if (pad == 80) {
		if (fk.bug_sink_ignores) {
			*f = fk.fmt[pad];
			return 0;
		}
		fk.fmt[80] = fk.fmt[81] = *f;
	} else {
		fk.fmt[pad] = *f;
	}
	return 0;
}

static int f_enum_code(void *ctx, uint32_t pad, uint32_t index, uint32_t *code)
{
	static const uint32_t deb[] = { MEDIA_BUS_FMT_SBGGR8_1X8, MEDIA_BUS_FMT_SRGGB8_1X8 };
	if ((pad != 30 && pad != 40) || index >= 2)
		return EINVAL;
	*code = deb[index];
	return 0;
}

static int f_cap_get(void *ctx, uint32_t e, struct pipe_pix *p)
{
	*p = fk.pix[e];
	return 0;
}

static int f_cap_set(void *ctx, uint32_t e, struct pipe_pix *p)
{
	fk.pix[e] = *p;
	return 0;
}

static int f_cap_fourcc(void *ctx, uint32_t e, uint32_t code, uint32_t *fourcc)
{
	*fourcc = code == MEDIA_BUS_FMT_RGB888_1X24 ? V4L2_PIX_FMT_RGB24 : bayer(code) ? V4L2_PIX_FMT_SBGGR8 : 0;
	return *fourcc ? 0 : EINVAL;
}

static const struct pipe_ops ops = { NULL, f_setup_link, f_link_enabled, f_get_fmt, f_set_fmt, f_enum_code,
				     f_cap_get, f_cap_set, f_cap_fourcc };

static void fake_reset(void)
{
	memset(&fk, 0, sizeof(fk));
	for (int i = 0; i < 8; i++)
		fk.on[i] = vimc_links[i].flags & ON;
	struct v4l2_mbus_framefmt rgb = { .width = 640, .height = 480, .code = MEDIA_BUS_FMT_RGB888_1X24,
					  .field = V4L2_FIELD_NONE, .colorspace = V4L2_COLORSPACE_SRGB };
	struct v4l2_mbus_framefmt raw = rgb;
	raw.code = MEDIA_BUS_FMT_SRGGB8_1X8;
	fk.fmt[10] = fk.fmt[20] = fk.fmt[70] = rgb;	/* vimc-sensor.c fmt_default */
	fk.fmt[30] = fk.fmt[40] = raw;			/* vimc-debayer.c sink_fmt_default */
	fk.fmt[31] = fk.fmt[41] = fk.fmt[80] = fk.fmt[81] = rgb;
	for (int e = 5; e <= 9; e++)
		fk.pix[e] = (struct pipe_pix){ 640, 480, V4L2_PIX_FMT_RGB24, V4L2_FIELD_NONE, V4L2_COLORSPACE_SRGB };
}

static char why[600];

/* Sensor B to RGB/YUV Capture: the sensor's RGB does not go into the
 * debayer, a Bayer code it enumerates does; links switched; the capture
 * node set to the scaler's output; all back afterwards, read back. */
START_TEST(test_setup_then_restore_reads_back_as_found)
{
	struct topo t = vimc();
	struct topo_path p[8];
	int n = topo_paths(&t, 2, p, 8);
	fake_reset();
	struct pipe_saved s;
	ck_assert_int_eq(pipe_save(&t, p, n, &ops, &s, why, sizeof(why)), 0);
	const struct topo_path *rgb = to(p, n, 9);
	struct pipe_pix pix;
	ck_assert_msg(!pipe_setup(&t, rgb, &ops, &s, 0, 0, &pix, NULL, why, sizeof(why)), "%s", why);
	ck_assert(fk.on[5] && !fk.on[4]);
	ck_assert(bayer(fk.fmt[20].code) && bayer(fk.fmt[40].code));
	ck_assert_int_eq(pix.fourcc, V4L2_PIX_FMT_RGB24);
	ck_assert_int_ne(pipe_verify(&t, &ops, &s, why, sizeof(why)), 0);	/* changed */
	ck_assert_msg(!pipe_restore(&t, &ops, &s, why, sizeof(why)), "%s", why);
	ck_assert_msg(!pipe_verify(&t, &ops, &s, why, sizeof(why)), "%s", why);
	ck_assert(!fk.on[5] && fk.on[4]);
	ck_assert_int_eq(fk.fmt[20].code, MEDIA_BUS_FMT_RGB888_1X24);
}
END_TEST

/* The raw node: STREAMON validates the whole connected pipeline, so the
 * sensor also has to suit the debayer it feeds: Bayer, which the raw node
 * then stores; the RGB/YUV node behind the debayer is set to match too. */
START_TEST(test_raw_path_sets_the_whole_pipeline)
{
	struct topo t = vimc();
	struct topo_path p[8];
	int n = topo_paths(&t, 1, p, 8);
	fake_reset();
	fk.pix[5].fourcc = V4L2_PIX_FMT_YUYV;	/* the capture node elsewhere */
	struct pipe_saved s;
	struct pipe_pix pix;
	ck_assert_int_eq(pipe_save(&t, p, n, &ops, &s, why, sizeof(why)), 0);
	ck_assert_msg(!pipe_setup(&t, to(p, n, 5), &ops, &s, 0, 0, &pix, NULL, why, sizeof(why)), "%s", why);
	ck_assert(bayer(fk.fmt[10].code) && bayer(fk.fmt[30].code));
	ck_assert_int_eq(pix.fourcc, V4L2_PIX_FMT_SBGGR8);
	ck_assert_int_eq(fk.pix[5].fourcc, V4L2_PIX_FMT_SBGGR8);
	ck_assert_int_eq(fk.pix[9].fourcc, V4L2_PIX_FMT_RGB24);
	ck_assert(!pipe_restore(&t, &ops, &s, why, sizeof(why)) && !pipe_verify(&t, &ops, &s, why, sizeof(why)));
	ck_assert_int_eq(fk.pix[5].fourcc, V4L2_PIX_FMT_YUYV);
}
END_TEST

/* Negative cases of the restore check: a link that does not go back, a pad
 * format the driver does not take back. */
START_TEST(test_restore_check_catches_a_stuck_link)
{
	struct topo t = vimc();
	struct topo_path p[8];
	int n = topo_paths(&t, 2, p, 8);
	fake_reset();
	struct pipe_saved s;
	struct pipe_pix pix;
	ck_assert_int_eq(pipe_save(&t, p, n, &ops, &s, why, sizeof(why)), 0);
	ck_assert(!pipe_setup(&t, to(p, n, 9), &ops, &s, 0, 0, &pix, NULL, why, sizeof(why)));
	fk.bug_link_stuck = true;
	pipe_restore(&t, &ops, &s, why, sizeof(why));
	ck_assert_int_ne(pipe_verify(&t, &ops, &s, why, sizeof(why)), 0);
	ck_assert_msg(strstr(why, "'Debayer A':1 -> 'Scaler':0 is disabled, was enabled"), "%s", why);
}
END_TEST

START_TEST(test_restore_check_catches_a_pad_format)
{
	struct topo t = vimc();
	struct topo_path p[8];
	int n = topo_paths(&t, 2, p, 8);
	fake_reset();
	struct pipe_saved s;
	struct pipe_pix pix;
	fk.fmt[80].width = fk.fmt[81].width = 320;	/* found at 320, the path makes it 640 */
	ck_assert_int_eq(pipe_save(&t, p, n, &ops, &s, why, sizeof(why)), 0);
	ck_assert(!pipe_setup(&t, to(p, n, 9), &ops, &s, 0, 0, &pix, NULL, why, sizeof(why)));
	ck_assert_int_eq(fk.fmt[80].width, 640);
	fk.bug_sink_ignores = true;	/* S_FMT back to 320 is ignored */
	pipe_restore(&t, &ops, &s, why, sizeof(why));
	ck_assert_int_ne(pipe_verify(&t, &ops, &s, why, sizeof(why)), 0);
	ck_assert_msg(strstr(why, "pad 'Scaler':0: now code 0x100a 640x480"), "%s", why);
}
END_TEST

/* A path that cannot be made to stream says which step and which errno. */
START_TEST(test_setup_failure_names_step_and_errno)
{
	struct topo t = vimc();
	struct topo_path p[8];
	int n = topo_paths(&t, 2, p, 8);
	fake_reset();
	fk.refuse_link = 105;
	struct pipe_saved s;
	struct pipe_pix pix;
	ck_assert_int_eq(pipe_save(&t, p, n, &ops, &s, why, sizeof(why)), 0);
	ck_assert_int_eq(pipe_setup(&t, to(p, n, 9), &ops, &s, 0, 0, &pix, NULL, why, sizeof(why)), EBUSY);
	ck_assert_msg(strstr(why, "enabling link 'Debayer B':1 -> 'Scaler':0 (MEDIA_IOC_SETUP_LINK): EBUSY"), "%s",
		      why);
}
END_TEST

/* Which refusals are driver bugs (the documentation says the request was
 * valid: the rule) and which it allows (no rule: a skip). */
START_TEST(test_setup_refusals_name_their_rule)
{
	struct topo t = vimc();
	struct topo_path p[8];
	int n = topo_paths(&t, 2, p, 8);
	struct pipe_saved s;
	struct pipe_pix pix;
	const char *rule;
	fake_reset();
	ck_assert_int_eq(pipe_save(&t, p, n, &ops, &s, why, sizeof(why)), 0);
	fk.refuse_link = 105;	/* a mutable link, its sink pad freed first */
	ck_assert_int_eq(pipe_setup(&t, to(p, n, 9), &ops, &s, 0, 0, &pix, &rule, why, sizeof(why)), EBUSY);
	ck_assert_str_eq(rule, "MC-3");
	fake_reset();
	fk.refuse_pad = 80, fk.refuse_errno = EINVAL;	/* S_FMT must adjust, not refuse */
	ck_assert_int_eq(pipe_setup(&t, to(p, n, 9), &ops, &s, 0, 0, &pix, &rule, why, sizeof(why)), EINVAL);
	ck_assert_str_eq(rule, "SD-8");
	ck_assert_msg(strstr(why, "VIDIOC_SUBDEV_S_FMT on 'Scaler':0: EINVAL"), "%s", why);
	fake_reset();
	fk.refuse_pad = 80, fk.refuse_errno = EBUSY;	/* the pad streams: allowed */
	ck_assert_int_eq(pipe_setup(&t, to(p, n, 9), &ops, &s, 0, 0, &pix, &rule, why, sizeof(why)), EBUSY);
	ck_assert_ptr_null(rule);
	fake_reset();
	fk.fmt[80].width = fk.fmt[81].width = 320;
	ck_assert_int_eq(pipe_save(&t, p, n, &ops, &s, why, sizeof(why)), 0);
	fk.bug_sink_echoes = true;	/* answered 640, kept 320 */
	ck_assert_int_eq(pipe_setup(&t, to(p, n, 9), &ops, &s, 0, 0, &pix, &rule, why, sizeof(why)), EIO);
	ck_assert_str_eq(rule, "SD-9");
	ck_assert_msg(strstr(why, "VIDIOC_SUBDEV_G_FMT then reads code 0x100a 320x480 there"), "%s", why);
}
END_TEST

/* The path's mutable enabled links go off and on; a refusal is the errno. */
START_TEST(test_toggle_links)
{
	struct topo t = vimc();
	struct topo_path p[8];
	int n = topo_paths(&t, 1, p, 8);
	fake_reset();
	ck_assert_int_eq(pipe_toggle_links(&t, to(p, n, 9), &ops, why, sizeof(why)), 0);
	ck_assert(fk.on[4]);
	fk.refuse_link = 104;
	ck_assert_int_eq(pipe_toggle_links(&t, to(p, n, 9), &ops, why, sizeof(why)), EBUSY);
	ck_assert_msg(strstr(why, "disabling link 'Debayer A':1 -> 'Scaler':0 (MEDIA_IOC_SETUP_LINK): EBUSY"), "%s",
		      why);
	ck_assert_int_eq(pipe_toggle_links(&t, to(p, n, 5), &ops, why, sizeof(why)), 0);	/* immutable only */
}
END_TEST

/* The restore journal's pipeline part: the state found, written before the
 * first change, read back and set again after a run that was killed with
 * the path set up (lib/run/journal_pipe.c); a damaged part is refused. */
START_TEST(test_journal_restores_the_pipeline)
{
	struct topo t = vimc();
	struct topo_path p[8];
	int n = topo_paths(&t, 2, p, 8);
	struct pipe_saved s;
	struct pipe_pix pix;
	fake_reset();
	fk.fmt[80].width = fk.fmt[81].width = 320;
	fk.pix[9].ycbcr_enc = 3;
	ck_assert_int_eq(pipe_save(&t, p, n, &ops, &s, why, sizeof(why)), 0);
	struct ctrl_model m = { 0 };
	struct snapshot snap = { 0 };
	struct journal_pipe jp = { "/dev/media0", &s };
	char path[] = "/tmp/journal-pipe-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(journal_write(path, "/dev/v4l-subdev1", &m, &snap, &jp), 0);
	ck_assert(!pipe_setup(&t, to(p, n, 9), &ops, &s, 0, 0, &pix, NULL, why, sizeof(why)));	/* then killed */
	ck_assert(pipe_verify(&t, &ops, &s, why, sizeof(why)));
	struct journal j;
	ck_assert_msg(!journal_read(path, &j, why, sizeof(why)), "%s", why);
	unlink(path);
	ck_assert_str_eq(j.media, "/dev/media0");
	ck_assert_ptr_nonnull(j.pipe);
	ck_assert_int_eq(j.pipe->nlinks, s.nlinks);
	ck_assert_int_eq(j.pipe->npads, s.npads);
	ck_assert_int_eq(j.pipe->ncaps, s.ncaps);
	ck_assert_msg(!journal_pipe_apply(&j, &t, &ops, why, sizeof(why)), "%s", why);
	ck_assert_msg(!pipe_verify(&t, &ops, &s, why, sizeof(why)), "%s", why);
	ck_assert_int_eq(fk.fmt[80].width, 320);
	ck_assert(fk.on[4] && !fk.on[5]);
	/* a link that does not go back is said */
	ck_assert(!pipe_setup(&t, to(p, n, 9), &ops, &s, 0, 0, &pix, NULL, why, sizeof(why)));
	fk.bug_link_stuck = true;
	ck_assert_int_eq(journal_pipe_apply(&j, &t, &ops, why, sizeof(why)), EIO);
	ck_assert_msg(strstr(why, "'Debayer A':1 -> 'Scaler':0 is disabled, was enabled"), "%s", why);
	/* a graph without the journal's ids (the driver reloaded) is left alone */
	j.pipe->link[0] = 999;
	ck_assert_int_eq(journal_pipe_apply(&j, &t, &ops, why, sizeof(why)), ENOENT);
	journal_free(&j);
	/* damaged pipeline lines refuse the whole journal */
	const char *bad[] = { "v4l2-conform-journal 1\nlink 0x65 1\n",
			      "v4l2-conform-journal 1\nmedia /dev/media0\nlink 0x65 2\n",
			      "v4l2-conform-journal 1\nmedia /dev/media0\npad 0x50 1 2 3\n",
			      "v4l2-conform-journal 1\nmedia /dev/media0\ncap 0x9 1 2 3 4 5 6 7 8 9\n" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		FILE *f = fmemopen((void *)bad[i], strlen(bad[i]), "r");
		ck_assert_msg(journal_parse(f, &j, why, sizeof(why)) == -1, "%s", bad[i]);
		fclose(f);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pipeline");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_sensor_and_capture_kinds);
	tcase_add_test(tc, test_enabled_paths_need_no_change);
	tcase_add_test(tc, test_disabled_link_enabled_and_other_disabled);
	tcase_add_test(tc, test_enabled_path_preferred_over_shorter);
	tcase_add_test(tc, test_no_path_through_immutable_links);
	tcase_add_test(tc, test_setup_then_restore_reads_back_as_found);
	tcase_add_test(tc, test_raw_path_sets_the_whole_pipeline);
	tcase_add_test(tc, test_restore_check_catches_a_stuck_link);
	tcase_add_test(tc, test_restore_check_catches_a_pad_format);
	tcase_add_test(tc, test_setup_failure_names_step_and_errno);
	tcase_add_test(tc, test_setup_refusals_name_their_rule);
	tcase_add_test(tc, test_toggle_links);
	tcase_add_test(tc, test_journal_restores_the_pipeline);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(suite());
}
