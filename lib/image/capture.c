/* Frame capture: format negotiation, mmap streaming or read(), stale-frame
 * discipline (see capture.h). */
#include "image/capture.h"

#include <errno.h>
#include <libv4l2.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_NBUFS 4
#define DEFAULT_TIMEOUT_MS 5000	/* generous: virtual boards stall for seconds under load */

/* Native layouts in order of preference: packed 4:2:2 first (what most
 * devices deliver natively, cheap to convert), then 4:2:0, RGB, grey. */
static const uint32_t preferred[] = {
	V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_UYVY, V4L2_PIX_FMT_YVYU, V4L2_PIX_FMT_VYUY,
	V4L2_PIX_FMT_NV12, V4L2_PIX_FMT_NV21, V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YVU420,
	V4L2_PIX_FMT_NV12M, V4L2_PIX_FMT_NV21M, V4L2_PIX_FMT_YUV420M, V4L2_PIX_FMT_YVU420M,
	V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGR24, V4L2_PIX_FMT_GREY,
};
#define N_PREFERRED (sizeof(preferred) / sizeof(preferred[0]))

static int fail(struct capture *c, int e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct capture *c, int e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
	return e ? e : EINVAL;
}

const char *capture_pipeline_unready(const struct dev *d, int e)
{
	if (!(d->caps & V4L2_CAP_IO_MC))
		return NULL;
	if (e == EPIPE)
		return "the media pipeline is not configured for streaming (STREAMON gives EPIPE: the pad formats "
		       "along it do not match; set them with media-ctl or test the whole graph with -m)";
	if (e == ENOLINK)
		return "the media pipeline has no valid links to stream (STREAMON gives ENOLINK; enable them with "
		       "media-ctl or test the whole graph with -m)";
	return NULL;
}

static bool mplane(const struct capture *c)
{
	return c->buf_type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
}

static uint32_t fmt_fourcc(const struct capture *c, const struct v4l2_format *f)
{
	return mplane(c) ? f->fmt.pix_mp.pixelformat : f->fmt.pix.pixelformat;
}

static void fmt_size(const struct capture *c, const struct v4l2_format *f, unsigned *w, unsigned *h)
{
	*w = mplane(c) ? f->fmt.pix_mp.width : f->fmt.pix.width;
	*h = mplane(c) ? f->fmt.pix_mp.height : f->fmt.pix.height;
}

static void *map_buf(const struct capture *c, size_t len, uint32_t offset)
{
	if (c->via_libv4l2)
		return v4l2_mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, c->d->fd, offset);
	return mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, c->d->fd, offset);
}

static void unmap_buf(const struct capture *c, void *p, size_t len)
{
	if (c->via_libv4l2)
		v4l2_munmap(p, len);
	else
		munmap(p, len);
}

/* ---- format negotiation ---- */

/* Does the node enumerate this pixel format? */
static bool offers(const struct capture *c, uint32_t fourcc)
{
	for (uint32_t i = 0; i < 256; i++) {
		struct v4l2_fmtdesc fd = { .index = i, .type = c->buf_type };
		if (dev_ioctl(c->d, VIDIOC_ENUM_FMT, &fd))
			return false;
		if (fd.pixelformat == fourcc)
			return true;
	}
	return false;
}

static uint32_t first_native_offered(const struct capture *c)
{
	for (size_t i = 0; i < N_PREFERRED; i++)
		if (offers(c, preferred[i]))
			return preferred[i];
	return 0;
}

static int set_format(struct capture *c, uint32_t fourcc, unsigned w, unsigned h)
{
	struct v4l2_format f = c->orig_fmt;
	if (mplane(c)) {
		f.fmt.pix_mp.pixelformat = fourcc;
		f.fmt.pix_mp.width = w;
		f.fmt.pix_mp.height = h;
		f.fmt.pix_mp.num_planes = 0;
		memset(f.fmt.pix_mp.plane_fmt, 0, sizeof(f.fmt.pix_mp.plane_fmt));
	} else {
		f.fmt.pix.pixelformat = fourcc;
		f.fmt.pix.width = w;
		f.fmt.pix.height = h;
		f.fmt.pix.bytesperline = 0;
		f.fmt.pix.sizeimage = 0;
	}
	f.type = c->buf_type;
	int e = dev_ioctl(c->d, VIDIOC_S_FMT, &f);
	char s[5];
	if (e)
		return fail(c, e, "VIDIOC_S_FMT %s %ux%u: %s", frame_fourcc_str(fourcc, s), w, h, errno_name(e));
	c->restore_fmt = true;
	if (fmt_fourcc(c, &f) != fourcc)
		return fail(c, EINVAL, "VIDIOC_S_FMT asked %s, driver chose %s", frame_fourcc_str(fourcc, s),
			    frame_fourcc_str(fmt_fourcc(c, &f), (char[5]){ 0 }));
	return 0;
}

/* Pick and set the format on c->d; c->orig_fmt is read here. */
static int negotiate(struct capture *c, const struct capture_opts *o)
{
	memset(&c->orig_fmt, 0, sizeof(c->orig_fmt));
	c->orig_fmt.type = c->buf_type;
	int e = dev_ioctl(c->d, VIDIOC_G_FMT, &c->orig_fmt);
	if (e)
		return fail(c, e, "VIDIOC_G_FMT: %s", errno_name(e));
	unsigned cw, chh;
	fmt_size(c, &c->orig_fmt, &cw, &chh);
	const unsigned w = o->width ? o->width : cw, h = o->height ? o->height : chh;
	const uint32_t cur = fmt_fourcc(c, &c->orig_fmt);
	char s[5];
	if (o->fourcc) {
		if (!frame_layout_native(o->fourcc))
			return fail(c, EINVAL, "format %s is not one the statistics read", frame_fourcc_str(o->fourcc, s));
		if (o->fourcc == cur && w == cw && h == chh)
			return 0;
		return set_format(c, o->fourcc, w, h);
	}
	if (frame_layout_native(cur) && w == cw && h == chh)
		return 0;	/* keep what the device has */
	uint32_t want = frame_layout_native(cur) ? cur : first_native_offered(c);
	if (!want && c->via_libv4l2) {
		/* libv4l2 converts on S_FMT even when it does not list the
		 * converted formats (no ENUM_FMT emulation): YUV420 (what its JPEG
		 * decoder gives), else RGB24 */
		static const uint32_t conv[] = { V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_RGB24 };
		for (size_t i = 0; i < 2 && !want; i++) {
			struct v4l2_format t = c->orig_fmt;
			t.type = c->buf_type;
			t.fmt.pix.pixelformat = conv[i];
			t.fmt.pix.width = w;
			t.fmt.pix.height = h;
			t.fmt.pix.bytesperline = 0;
			if (!dev_ioctl(c->d, VIDIOC_TRY_FMT, &t) && t.fmt.pix.pixelformat == conv[i])
				want = conv[i];
		}
	}
	if (!want)
		return fail(c, ENOTSUP, "no format the statistics read natively (current %s)", frame_fourcc_str(cur, s));
	return set_format(c, want, w, h);
}

static int read_back_format(struct capture *c)
{
	memset(&c->fmt, 0, sizeof(c->fmt));
	c->fmt.type = c->buf_type;
	int e = dev_ioctl(c->d, VIDIOC_G_FMT, &c->fmt);
	if (e)
		return fail(c, e, "VIDIOC_G_FMT after negotiation: %s", errno_name(e));
	c->fourcc = fmt_fourcc(c, &c->fmt);
	fmt_size(c, &c->fmt, &c->width, &c->height);
	memset(c->stride, 0, sizeof(c->stride));
	if (mplane(c)) {
		const struct v4l2_pix_format_mplane *mp = &c->fmt.fmt.pix_mp;
		c->nplanes = mp->num_planes ? mp->num_planes : 1;
		if (c->nplanes > 3)
			return fail(c, EINVAL, "%u memory planes", c->nplanes);
		c->sizeimage = 0;
		for (unsigned i = 0; i < c->nplanes; i++) {
			c->stride[i] = mp->plane_fmt[i].bytesperline;
			c->sizeimage += mp->plane_fmt[i].sizeimage;
		}
	} else {
		c->nplanes = 1;
		c->stride[0] = c->fmt.fmt.pix.bytesperline;
		c->sizeimage = c->fmt.fmt.pix.sizeimage;
	}
	char s[5];
	if (!frame_layout_native(c->fourcc))
		return fail(c, ENOTSUP, "driver reports format %s", frame_fourcc_str(c->fourcc, s));
	if (!c->width || !c->height)
		return fail(c, EINVAL, "driver reports a %ux%u frame", c->width, c->height);
	if (c->stride[0] && c->stride[0] < frame_natural_stride(c->fourcc, c->width))
		return fail(c, EINVAL, "bytesperline %u below the minimum %u for %s %u pixels wide", c->stride[0],
			    frame_natural_stride(c->fourcc, c->width), frame_fourcc_str(c->fourcc, s), c->width);
	if (!c->sizeimage)
		c->sizeimage = frame_image_size(c->fourcc, c->width, c->height, c->stride[0]);
	return 0;
}

static unsigned frame_interval_ms(const struct capture *c)
{
	struct v4l2_streamparm p = { .type = c->buf_type };
	if (dev_ioctl(c->d, VIDIOC_G_PARM, &p) || !p.parm.capture.timeperframe.denominator)
		return 0;
	uint64_t ms = 1000ull * p.parm.capture.timeperframe.numerator / p.parm.capture.timeperframe.denominator;
	return ms > 60000 ? 60000 : (unsigned)ms;
}

/* Ask for `fps` frames a second when the driver takes a frame interval
 * (best effort: the driver picks the nearest it has). */
static void set_frame_rate(struct capture *c, unsigned fps)
{
	struct v4l2_streamparm p = { .type = c->buf_type };
	if (dev_ioctl(c->d, VIDIOC_G_PARM, &p) || !(p.parm.capture.capability & V4L2_CAP_TIMEPERFRAME))
		return;
	c->orig_parm = p;
	p.parm.capture.timeperframe.numerator = 1;
	p.parm.capture.timeperframe.denominator = fps;
	if (!dev_ioctl(c->d, VIDIOC_S_PARM, &p))
		c->restore_parm = true;
}

/* ---- buffers ---- */

static int queue_buf(struct capture *c, unsigned index)
{
	struct v4l2_plane planes[VIDEO_MAX_PLANES];
	struct v4l2_buffer b = { .index = index, .type = c->buf_type, .memory = V4L2_MEMORY_MMAP };
	if (mplane(c)) {
		memset(planes, 0, sizeof(planes));
		b.m.planes = planes;
		b.length = c->nplanes;
	}
	int e = dev_ioctl(c->d, VIDIOC_QBUF, &b);
	if (e)
		return fail(c, e, "VIDIOC_QBUF %u: %s", index, errno_name(e));
	c->queued++;
	return 0;
}

static void release_buffers(struct capture *c)
{
	for (unsigned i = 0; i < c->nbufs; i++)
		for (unsigned p = 0; p < VIDEO_MAX_PLANES; p++)
			if (c->bufs[i].start[p]) {
				unmap_buf(c, c->bufs[i].start[p], c->bufs[i].length[p]);
				c->bufs[i].start[p] = NULL;
			}
	if (c->nbufs) {
		struct v4l2_requestbuffers rb = { .count = 0, .type = c->buf_type, .memory = V4L2_MEMORY_MMAP };
		dev_ioctl(c->d, VIDIOC_REQBUFS, &rb);
	}
	c->nbufs = 0;
	c->queued = 0;
}

static int setup_mmap(struct capture *c, unsigned want)
{
	struct v4l2_requestbuffers rb = { .count = want, .type = c->buf_type, .memory = V4L2_MEMORY_MMAP };
	int e = dev_ioctl(c->d, VIDIOC_REQBUFS, &rb);
	if (e)
		return fail(c, e, "VIDIOC_REQBUFS %u mmap: %s", want, errno_name(e));
	if (rb.count == 0)
		return fail(c, ENOMEM, "VIDIOC_REQBUFS gave no buffers");
	/* A driver may give more than asked: the extra ones stay unused
	 * (REQBUFS 0 at the end frees them all). */
	c->nbufs = rb.count < CAPTURE_MAX_BUFS ? rb.count : CAPTURE_MAX_BUFS;
	for (unsigned i = 0; i < c->nbufs; i++) {
		struct v4l2_plane planes[VIDEO_MAX_PLANES];
		struct v4l2_buffer b = { .index = i, .type = c->buf_type, .memory = V4L2_MEMORY_MMAP };
		if (mplane(c)) {
			memset(planes, 0, sizeof(planes));
			b.m.planes = planes;
			b.length = VIDEO_MAX_PLANES;
		}
		e = dev_ioctl(c->d, VIDIOC_QUERYBUF, &b);
		if (e)
			return fail(c, e, "VIDIOC_QUERYBUF %u: %s", i, errno_name(e));
		unsigned np = mplane(c) ? b.length : 1;
		if (np == 0 || np > VIDEO_MAX_PLANES)
			return fail(c, EINVAL, "VIDIOC_QUERYBUF %u: %u planes", i, np);
		for (unsigned p = 0; p < np; p++) {
			size_t len = mplane(c) ? planes[p].length : b.length;
			uint32_t off = mplane(c) ? planes[p].m.mem_offset : b.m.offset;
			void *m = map_buf(c, len, off);
			if (m == MAP_FAILED)
				return fail(c, errno, "mmap buffer %u plane %u (%zu bytes): %s", i, p, len, strerror(errno));
			c->bufs[i].start[p] = m;
			c->bufs[i].length[p] = len;
		}
	}
	for (unsigned i = 0; i < c->nbufs; i++)
		if ((e = queue_buf(c, i)))
			return e;
	int type = (int)c->buf_type;
	e = dev_ioctl(c->d, VIDIOC_STREAMON, &type);
	if (e)
		return fail(c, e, "VIDIOC_STREAMON: %s", errno_name(e));
	c->streaming = true;
	return 0;
}

static int setup_read(struct capture *c)
{
	c->rbuf_len = c->sizeimage ? c->sizeimage : frame_image_size(c->fourcc, c->width, c->height, c->stride[0]);
	c->rbuf = malloc(c->rbuf_len);
	if (!c->rbuf)
		return fail(c, ENOMEM, "read buffer of %zu bytes", c->rbuf_len);
	return 0;
}

/* ---- open / close ---- */

static int start(struct capture *c, const struct capture_opts *o)
{
	c->buf_type = (c->d->caps & V4L2_CAP_VIDEO_CAPTURE) ? V4L2_BUF_TYPE_VIDEO_CAPTURE
							     : V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
	int e = negotiate(c, o);
	if (!e)
		e = read_back_format(c);
	if (e)
		return e;
	if (o->fps)
		set_frame_rate(c, o->fps);
	unsigned fi = frame_interval_ms(c);
	c->timeout_ms = o->timeout_ms ? o->timeout_ms : DEFAULT_TIMEOUT_MS + 3 * fi;
	bool can_stream = c->d->caps & V4L2_CAP_STREAMING, can_read = c->d->caps & V4L2_CAP_READWRITE;
	if (can_stream && !(o->force_read && can_read)) {
		c->io = CAPTURE_MMAP;
		e = setup_mmap(c, o->nbufs ? o->nbufs : DEFAULT_NBUFS);
		if (e && can_read && !c->streaming) {	/* e.g. EINVAL: no mmap: read instead */
			release_buffers(c);
			c->io = CAPTURE_READ;
			e = setup_read(c);
		}
		return e;
	}
	if (can_read) {
		c->io = CAPTURE_READ;
		return setup_read(c);
	}
	return fail(c, ENOTSUP, "%s neither streams nor reads", c->d->path);
}

static void stop(struct capture *c)
{
	if (c->streaming) {
		int type = (int)c->buf_type;
		dev_ioctl(c->d, VIDIOC_STREAMOFF, &type);
		c->streaming = false;
	}
	release_buffers(c);
	free(c->rbuf);
	c->rbuf = NULL;
	if (c->restore_parm && c->d) {
		struct v4l2_streamparm p = c->orig_parm;
		dev_ioctl(c->d, VIDIOC_S_PARM, &p);
		c->restore_parm = false;
	}
	if (c->restore_fmt && c->d) {
		struct v4l2_format f = c->orig_fmt;
		dev_ioctl(c->d, VIDIOC_S_FMT, &f);
		c->restore_fmt = false;
	}
}

/* Streaming happens on a file handle of our own on the same node: closing
 * it releases whatever the driver tied to it (vb2 keeps a read() queue
 * until the handle that read is closed), so the caller's handle and the
 * device are left as found. Controls are per device, so the caller keeps
 * setting them on its own handle. */
static int open_own(struct capture *c, const struct dev *d, bool libv4l2)
{
	char why[256];
	if (dev_open(&c->own, d->path, libv4l2, why, sizeof(why)))
		return fail(c, ENODEV, "%s", why);
	c->own_open = true;
	c->d = &c->own;
	c->via_libv4l2 = libv4l2;
	return 0;
}

static void close_own(struct capture *c)
{
	if (c->own_open) {
		dev_close(&c->own);
		c->own_open = false;
	}
	c->d = NULL;
}

int capture_open(struct capture *c, const struct dev *d, const struct capture_opts *opts)
{
	static const struct capture_opts defaults;
	const struct capture_opts *o = opts ? opts : &defaults;
	memset(c, 0, sizeof(*c));
	c->own.fd = -1;
	if (!(d->caps & (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VIDEO_CAPTURE_MPLANE)))
		return fail(c, ENOTSUP, "%s is not a video capture node", d->path);
	int e = open_own(c, d, d->libv4l2);
	if (!e)
		e = start(c, o);
	if (e == ENOTSUP && !d->libv4l2 && !o->no_libv4l2 && !o->fourcc && (d->caps & V4L2_CAP_VIDEO_CAPTURE)) {
		/* Nothing native: let libv4l2 convert (it offers RGB24/YUV420). */
		char first[sizeof(c->err)];
		snprintf(first, sizeof(first), "%s", c->err);
		stop(c);
		close_own(c);
		c->err[0] = 0;
		e = open_own(c, d, true);
		if (!e)
			e = start(c, o);
		if (e) {
			char second[sizeof(c->err)];
			snprintf(second, sizeof(second), "%s", c->err);
			/* Still nothing the statistics read (libv4l2 cannot convert
			 * the device's formats either, e.g. a touch node's TD16):
			 * the frames are not pictures for us, not a driver fault. */
			if (strstr(first, "no format the statistics read"))
				e = ENOTSUP;
			fail(c, e, "%s; through libv4l2: %s", first, second);
		}
	}
	if (e) {
		char keep[sizeof(c->err)];
		snprintf(keep, sizeof(keep), "%s", c->err);
		capture_close(c);
		snprintf(c->err, sizeof(c->err), "%s", keep);
		return e;
	}
	return 0;
}

void capture_close(struct capture *c)
{
	if (!c->d)
		return;
	stop(c);
	close_own(c);
}

/* ---- frames ---- */

static int wait_readable(struct capture *c, int timeout_ms)
{
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd p = { .fd = c->d->fd, .events = POLLIN | POLLRDNORM };
		int r = poll(&p, 1, timeout_ms);
		if (r > 0) {
			if (p.revents & (POLLIN | POLLRDNORM))
				return 0;
			return fail(c, EIO, "poll: %s%s%s", p.revents & POLLERR ? "POLLERR" : "",
				    p.revents & POLLHUP ? " POLLHUP" : "", p.revents & POLLNVAL ? " POLLNVAL" : "");
		}
		if (r == 0)
			return fail(c, ETIMEDOUT, "no frame within %d ms", timeout_ms);
		if (errno != EINTR)
			return fail(c, errno, "poll: %s", strerror(errno));
		clock_gettime(CLOCK_MONOTONIC, &t1);
		long spent = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
		if (spent >= timeout_ms)
			return fail(c, ETIMEDOUT, "no frame within %d ms", timeout_ms);
		timeout_ms -= (int)spent;
		t0 = t1;
	}
}

static void note_seq(struct capture *c, uint32_t seq)
{
	c->last_seq = seq;
	c->have_seq = true;
	c->frames++;
}

/* One mmap frame: dequeue (waiting up to wait_ms), optionally convert,
 * requeue. Error-flagged buffers are requeued and skipped. */
static int mmap_frame(struct capture *c, struct frame *f, int wait_ms)
{
	for (unsigned tries = 0; tries <= 4 * CAPTURE_MAX_BUFS; tries++) {
		int e = wait_readable(c, wait_ms);
		if (e)
			return e;
		struct v4l2_plane planes[VIDEO_MAX_PLANES];
		struct v4l2_buffer b = { .type = c->buf_type, .memory = V4L2_MEMORY_MMAP };
		if (mplane(c)) {
			memset(planes, 0, sizeof(planes));
			b.m.planes = planes;
			b.length = c->nplanes;
		}
		e = dev_ioctl(c->d, VIDIOC_DQBUF, &b);
		if (e == EAGAIN)
			continue;
		if (e)
			return fail(c, e, "VIDIOC_DQBUF: %s", errno_name(e));
		if (c->queued)
			c->queued--;
		if (b.index >= c->nbufs)
			return fail(c, EIO, "VIDIOC_DQBUF returned index %u of %u buffers", b.index, c->nbufs);
		note_seq(c, b.sequence);
		if (b.flags & V4L2_BUF_FLAG_ERROR) {
			c->error_frames++;
			if ((e = queue_buf(c, b.index)))
				return e;
			continue;
		}
		e = 0;
		if (f) {
			struct raw_image r = { .fourcc = c->fourcc, .width = c->width, .height = c->height };
			const struct capture_buf *cb = &c->bufs[b.index];
			if (mplane(c)) {
				r.nplanes = c->nplanes;
				for (unsigned p = 0; p < c->nplanes; p++) {
					size_t used = planes[p].bytesused ? planes[p].bytesused : cb->length[p];
					size_t off = planes[p].data_offset < used ? planes[p].data_offset : 0;
					r.plane[p] = (const uint8_t *)cb->start[p] + off;
					r.len[p] = (used < cb->length[p] ? used : cb->length[p]) - off;
					r.stride[p] = c->stride[p];
				}
			} else {
				r.nplanes = 1;
				r.plane[0] = cb->start[0];
				r.len[0] = b.bytesused && b.bytesused < cb->length[0] ? b.bytesused : cb->length[0];
				r.stride[0] = c->stride[0];
			}
			e = frame_convert(f, &r);
			if (e)
				fail(c, e, "frame %u: cannot convert (%s, %zu bytes)", b.sequence,
				     e == EMSGSIZE ? "buffer shorter than the format" : "bad layout", r.len[0]);
			else
				frame_clip_widen(f, c->clip_reach);
			f->sequence = b.sequence;
			f->timestamp_us = (uint64_t)b.timestamp.tv_sec * 1000000u + (uint64_t)b.timestamp.tv_usec;
			f->seq_from_driver = true;
		}
		int qe = queue_buf(c, b.index);
		return e ? e : qe;
	}
	return fail(c, EIO, "only error-flagged buffers (%lu)", c->error_frames);
}

static int read_frame(struct capture *c, struct frame *f)
{
	int e = wait_readable(c, (int)c->timeout_ms);
	if (e)
		return e;
	ssize_t n;
	do
		n = c->via_libv4l2 ? v4l2_read(c->d->fd, c->rbuf, c->rbuf_len) : read(c->d->fd, c->rbuf, c->rbuf_len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return fail(c, errno, "read: %s", strerror(errno));
	if (n == 0)
		return fail(c, EIO, "read: end of file");
	uint32_t seq = c->counter++;
	note_seq(c, seq);
	if (!f)
		return 0;
	struct raw_image r = { .fourcc = c->fourcc, .width = c->width, .height = c->height, .nplanes = 1 };
	r.plane[0] = c->rbuf;
	r.len[0] = (size_t)n;
	r.stride[0] = c->stride[0];
	e = frame_convert(f, &r);
	if (e)
		return fail(c, e, "read frame %u: cannot convert (%zd bytes)", seq, n);
	frame_clip_widen(f, c->clip_reach);
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	f->sequence = seq;
	f->timestamp_us = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000;
	f->seq_from_driver = false;
	return 0;
}

static int get_frame(struct capture *c, struct frame *f)
{
	if (!c->d)
		return fail(c, EBADF, "capture not open");
	return c->io == CAPTURE_MMAP ? mmap_frame(c, f, (int)c->timeout_ms) : read_frame(c, f);
}

int capture_next(struct capture *c, struct frame *f)
{
	return get_frame(c, f);
}

int capture_skip(struct capture *c, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		int e = get_frame(c, NULL);
		if (e)
			return e;
	}
	return 0;
}

uint32_t capture_mark(struct capture *c)
{
	if (c->d && c->io == CAPTURE_MMAP && c->streaming) {
		/* Take what is already done, without waiting; bounded by the buffer count. */
		for (unsigned i = 0; i < c->nbufs; i++) {
			struct pollfd p = { .fd = c->d->fd, .events = POLLIN | POLLRDNORM };
			if (poll(&p, 1, 0) != 1 || !(p.revents & (POLLIN | POLLRDNORM)))
				break;
			if (mmap_frame(c, NULL, 0))
				break;
		}
	}
	return c->have_seq ? c->last_seq : (uint32_t)-1;
}

static unsigned stale_frames(const struct capture *c)
{
	return c->io == CAPTURE_MMAP ? c->queued : CAPTURE_READ_STALE_FRAMES;
}

uint32_t capture_stale_limit(const struct capture *c, uint32_t mark)
{
	return mark + stale_frames(c);
}

int capture_settle_after_change(struct capture *c, unsigned extra_frames, struct frame *f)
{
	const uint32_t mark = capture_mark(c);
	const unsigned stale = stale_frames(c);
	const uint32_t limit = mark + stale + extra_frames;
	/* Fresh when the sequence says so and, in any case, once every buffer
	 * that was queued at the mark has come back (count-based, robust to
	 * drivers whose sequence numbers do not advance); bounded. */
	const unsigned need = stale + extra_frames;
	int e = capture_skip(c, need);	/* certainly stale: not converted */
	for (unsigned got = need; !e; got++) {
		e = get_frame(c, f);
		if (e)
			break;
		bool seq_fresh = (int32_t)(f->sequence - limit) > 0 || !f->seq_from_driver;
		if (seq_fresh || got >= need + CAPTURE_MAX_BUFS)
			return 0;
	}
	return e;
}

const char *capture_describe(const struct capture *c, char *buf, size_t len)
{
	char s[5];
	if (!c->d) {
		snprintf(buf, len, "not capturing");
		return buf;
	}
	snprintf(buf, len, "%s %ux%u%s, %s", frame_fourcc_str(c->fourcc, s), c->width, c->height,
		 c->via_libv4l2 ? " via libv4l2" : "",
		 c->io == CAPTURE_MMAP ? "mmap" : "read");
	if (c->io == CAPTURE_MMAP) {
		size_t n = strlen(buf);
		snprintf(buf + n, len - n, " x%u", c->nbufs);
	}
	return buf;
}
