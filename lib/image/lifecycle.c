#include "image/lifecycle.h"
#include "ctrl/ctrl_select.h"
#include "ctrl/ctrl_value.h"
#include "image/frame.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>

bool lc_documented(const struct ctrl *c)
{
	const uint32_t id = c->q.id, low = id & 0xffff;
	switch (V4L2_CTRL_ID2WHICH(id)) {
	case V4L2_CTRL_CLASS_USER:
	case V4L2_CTRL_CLASS_CAMERA:
	case V4L2_CTRL_CLASS_IMAGE_SOURCE:
	case V4L2_CTRL_CLASS_IMAGE_PROC:
		return low >= 0x900 && low < 0x1000;
	}
	return false;
}

size_t lc_set_others(const struct dev *d, const struct ctrl_model *m, struct lc_watch *w, unsigned *refused)
{
	w->n = 0;
	if (refused)
		*refused = 0;
	for (size_t i = 0; i < m->n && w->n < LC_MAX_WATCH; i++) {
		const struct ctrl *c = &m->c[i];
		int64_t cur, v;
		if (!ctrl_settable_scalar(c) || !lc_documented(c) || ctrl_get_scalar(d, c, &cur) ||
		    !ctrl_other_value(c, cur, &v))
			continue;
		if (ctrl_set_scalar(d, c, &v)) {
			if (refused)
				(*refused)++;
			continue;
		}
		w->c[w->n++] = c;
	}
	/* What reads back once every set is done: setting one control may
	 * legitimately move another (an auto switch, a cluster). */
	for (size_t i = 0; i < w->n; i++)
		if (ctrl_get_scalar(d, w->c[i], &w->v[i]))
			w->c[i--] = w->c[--w->n];
	return w->n;
}

int lc_apply(const struct dev *d, const struct lc_watch *w, const int64_t *v)
{
	for (size_t i = 0; i < w->n; i++) {
		int64_t x = v[i];
		int e = ctrl_set_scalar(d, w->c[i], &x);
		if (e)
			return e;
	}
	return 0;
}

/* Append ", item" (no comma first) to a report. */
static void append(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t at = strlen(buf);
	if (at && at + 2 < len)
		strcpy(buf + at, ", "), at += 2;
	if (at + 1 >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + at, len - at, fmt, ap);
	va_end(ap);
}

int lc_changed(const struct dev *d, const struct lc_watch *w, char *report, size_t len)
{
	int n = 0;
	report[0] = 0;
	for (size_t i = 0; i < w->n; i++) {
		int64_t got = 0;
		int e = ctrl_get_scalar(d, w->c[i], &got);
		if (e) {
			append(report, len, "%s: G gave %s", w->c[i]->slug, errno_name(e));
			n++;
		} else if (got != w->v[i] && !ctrl_moves_by_itself(d, w->c[i])) {
			append(report, len, "%s %lld -> %lld", w->c[i]->slug, (long long)w->v[i], (long long)got);
			n++;
		}
	}
	return n;
}

void lc_describe(const struct lc_watch *w, char *buf, size_t len)
{
	buf[0] = 0;
	for (size_t i = 0; i < w->n; i++)
		append(buf, len, "%s = %lld", w->c[i]->slug, (long long)w->v[i]);
}

/* ---------- formats ---------- */

static bool mplane(const struct dev *d)
{
	return !(d->caps & V4L2_CAP_VIDEO_CAPTURE) && (d->caps & V4L2_CAP_VIDEO_CAPTURE_MPLANE);
}

int lc_get_format(const struct dev *d, struct v4l2_format *f)
{
	memset(f, 0, sizeof(*f));
	f->type = mplane(d) ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE : V4L2_BUF_TYPE_VIDEO_CAPTURE;
	return dev_ioctl(d, VIDIOC_G_FMT, f);
}

int lc_set_format(const struct dev *d, struct v4l2_format *f)
{
	return dev_ioctl(d, VIDIOC_S_FMT, f);
}

struct fmt_key {
	uint32_t fourcc, w, h;
};

static struct fmt_key key_of(const struct v4l2_format *f)
{
	if (f->type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE)
		return (struct fmt_key){ f->fmt.pix_mp.pixelformat, f->fmt.pix_mp.width, f->fmt.pix_mp.height };
	return (struct fmt_key){ f->fmt.pix.pixelformat, f->fmt.pix.width, f->fmt.pix.height };
}

bool lc_format_same(const struct v4l2_format *a, const struct v4l2_format *b)
{
	struct fmt_key x = key_of(a), y = key_of(b);
	return x.fourcc == y.fourcc && x.w == y.w && x.h == y.h;
}

const char *lc_format_str(const struct v4l2_format *f, char *buf, size_t len)
{
	struct fmt_key k = key_of(f);
	char s[5];
	snprintf(buf, len, "%s %ux%u", frame_fourcc_str(k.fourcc, s), k.w, k.h);
	return buf;
}

/* S_FMT with cur's fields but this fourcc and size; 0 when the driver
 * chose a format other than cur. */
static int try_other(const struct dev *d, const struct v4l2_format *cur, struct fmt_key k, struct v4l2_format *got)
{
	*got = *cur;
	if (got->type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE) {
		got->fmt.pix_mp.pixelformat = k.fourcc;
		got->fmt.pix_mp.width = k.w;
		got->fmt.pix_mp.height = k.h;
		got->fmt.pix_mp.num_planes = 0;
		memset(got->fmt.pix_mp.plane_fmt, 0, sizeof(got->fmt.pix_mp.plane_fmt));
	} else {
		got->fmt.pix.pixelformat = k.fourcc;
		got->fmt.pix.width = k.w;
		got->fmt.pix.height = k.h;
		got->fmt.pix.bytesperline = 0;
		got->fmt.pix.sizeimage = 0;
	}
	int e = lc_set_format(d, got);
	return e ? e : lc_format_same(got, cur) ? ENOENT : 0;
}

int lc_format_other(const struct dev *d, const struct v4l2_format *cur, struct v4l2_format *got)
{
	const struct fmt_key k = key_of(cur);
	for (uint32_t i = 0; i < 64; i++) {
		struct v4l2_fmtdesc fd = { .index = i, .type = cur->type };
		if (dev_ioctl(d, VIDIOC_ENUM_FMT, &fd))
			break;
		if (fd.pixelformat != k.fourcc && !try_other(d, cur, (struct fmt_key){ fd.pixelformat, k.w, k.h }, got))
			return 0;
	}
	for (uint32_t i = 0; i < 64; i++) {
		struct v4l2_frmsizeenum fs = { .index = i, .pixel_format = k.fourcc };
		if (dev_ioctl(d, VIDIOC_ENUM_FRAMESIZES, &fs))
			break;
		struct fmt_key o = { k.fourcc, fs.discrete.width, fs.discrete.height };
		if (fs.type != V4L2_FRMSIZE_TYPE_DISCRETE) {
			o.w = fs.stepwise.min_width;
			o.h = fs.stepwise.min_height;
		}
		if ((o.w != k.w || o.h != k.h) && !try_other(d, cur, o, got))
			return 0;
		if (fs.type != V4L2_FRMSIZE_TYPE_DISCRETE)
			break;
	}
	return ENOENT;
}

/* ---------- inputs ---------- */

int lc_inputs(const struct dev *d, unsigned *n, unsigned *cur)
{
	*n = 0;
	for (unsigned i = 0; i < 64; i++) {
		struct v4l2_input in = { .index = i };
		if (dev_ioctl(d, VIDIOC_ENUMINPUT, &in))
			break;
		(*n)++;
	}
	int x = 0;
	int e = dev_ioctl(d, VIDIOC_G_INPUT, &x);
	*cur = (unsigned)x;
	return *n ? e : ENOTTY;
}

/* ---------- runtime PM ---------- */

static bool read_line(const char *dir, const char *name, char *buf, size_t len)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "r");
	buf[0] = 0;
	if (!f)
		return false;
	bool ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return ok;
}

void lc_power_of(const struct dev *d, struct lc_power *p)
{
	struct stat st;
	char buf[32];
	p->dir[0] = 0;
	p->delay_ms = -1;
	if (fstat(d->fd, &st) || !S_ISCHR(st.st_mode))
		return;
	snprintf(p->dir, sizeof(p->dir), "/sys/dev/char/%u:%u/device/power", major(st.st_rdev), minor(st.st_rdev));
	/* EIO when the driver does not use autosuspend. */
	if (read_line(p->dir, "autosuspend_delay_ms", buf, sizeof(buf)) && sscanf(buf, "%d", &p->delay_ms) != 1)
		p->delay_ms = -1;
}

void lc_runtime_status(const struct lc_power *p, char *buf, size_t len)
{
	if (!p->dir[0] || !read_line(p->dir, "runtime_status", buf, len))
		buf[0] = 0;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts))
		;
}

unsigned lc_wait_suspend(const struct lc_power *p, unsigned default_ms, bool *suspended, const char **src)
{
	unsigned waited = p->delay_ms >= 0 ? (unsigned)p->delay_ms + (unsigned)p->delay_ms / 2 + 100 : default_ms;
	*src = p->delay_ms >= 0 ? "power/autosuspend_delay_ms" : "the default (no autosuspend delay in sysfs)";
	sleep_ms(waited);
	char st[32];
	lc_runtime_status(p, st, sizeof(st));
	for (unsigned k = 0; !strcmp(st, "active") && k < 20; k++) {
		sleep_ms(100);
		waited += 100;
		lc_runtime_status(p, st, sizeof(st));
	}
	*suspended = !strcmp(st, "suspended");
	return waited;
}
