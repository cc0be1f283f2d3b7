/* struct pipe_ops on the real device (pipeline.h): MEDIA_IOC_SETUP_LINK on
 * the media node, the ACTIVE pad formats on each entity's sub-device node,
 * the format of a capture node (single- or multi-planar, from its
 * capabilities), the topology read again for a link's state. */
#include "dev/pipeline.h"
#include "dev/device.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/media.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int entity_index(const struct topo *t, uint32_t id)
{
	for (size_t i = 0; i < t->ne && i < PIPE_MAX; i++)
		if (t->e[i].id == id)
			return (int)i;
	return -1;
}

/* The node of an entity, opened once. */
static int node_fd(struct pipe_dev *d, uint32_t entity)
{
	int i = entity_index(d->t, entity);
	if (i < 0 || !d->t->e[i].devnode[0])
		return -1;
	if (d->fd[i] < 0)
		d->fd[i] = open(d->t->e[i].devnode, O_RDWR | O_CLOEXEC | O_NONBLOCK);
	return d->fd[i];
}

static int pad_fd(struct pipe_dev *d, uint32_t pad, uint32_t *index)
{
	const struct topo_pad *p = topo_pad(d->t, pad);
	if (!p)
		return -1;
	*index = p->index;
	return node_fd(d, p->entity);
}

static int op_setup_link(void *ctx, const struct topo_link *l, bool enable)
{
	struct pipe_dev *d = ctx;
	const struct topo_pad *s = topo_pad(d->t, l->source), *k = topo_pad(d->t, l->sink);
	struct media_link_desc ld;
	memset(&ld, 0, sizeof(ld));
	ld.source.entity = s->entity;
	ld.source.index = (uint16_t)s->index;
	ld.source.flags = MEDIA_PAD_FL_SOURCE;
	ld.sink.entity = k->entity;
	ld.sink.index = (uint16_t)k->index;
	ld.sink.flags = MEDIA_PAD_FL_SINK;
	ld.flags = enable ? MEDIA_LNK_FL_ENABLED : 0;
	int fd = open(d->media, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return errno;
	int e = xioctl(fd, MEDIA_IOC_SETUP_LINK, &ld);
	close(fd);
	return e;
}

static int op_link_enabled(void *ctx, uint32_t link, bool *on)
{
	struct pipe_dev *d = ctx;
	struct topo now;
	char err[300];
	if (topo_read(d->media, &now, err, sizeof(err)))
		return EIO;
	const struct topo_link *l = topo_link(&now, link);
	int e = l ? 0 : ENOENT;
	if (l)
		*on = l->flags & MEDIA_LNK_FL_ENABLED;
	topo_free(&now);
	return e;
}

/* VIDIOC_SUBDEV_G_FMT or S_FMT of a pad's ACTIVE format; *f in (S_FMT) and
 * out (what the driver answered). */
static int pad_fmt(void *ctx, uint32_t pad, struct v4l2_mbus_framefmt *f, unsigned long req)
{
	uint32_t idx;
	int fd = pad_fd(ctx, pad, &idx);
	if (fd < 0)
		return ENODEV;
	struct v4l2_subdev_format sf;
	memset(&sf, 0, sizeof(sf));
	sf.which = V4L2_SUBDEV_FORMAT_ACTIVE;
	sf.pad = idx;
	if (req == VIDIOC_SUBDEV_S_FMT)
		sf.format = *f;
	int e = xioctl(fd, req, &sf);
	if (!e)
		*f = sf.format;
	return e;
}

static int op_get_fmt(void *ctx, uint32_t pad, struct v4l2_mbus_framefmt *f)
{
	return pad_fmt(ctx, pad, f, VIDIOC_SUBDEV_G_FMT);
}

static int op_set_fmt(void *ctx, uint32_t pad, struct v4l2_mbus_framefmt *f)
{
	return pad_fmt(ctx, pad, f, VIDIOC_SUBDEV_S_FMT);
}

static int op_enum_code(void *ctx, uint32_t pad, uint32_t index, uint32_t *code)
{
	uint32_t idx;
	int fd = pad_fd(ctx, pad, &idx);
	if (fd < 0)
		return ENODEV;
	struct v4l2_subdev_mbus_code_enum ce;
	memset(&ce, 0, sizeof(ce));
	ce.which = V4L2_SUBDEV_FORMAT_ACTIVE;
	ce.pad = idx;
	ce.index = index;
	int e = xioctl(fd, VIDIOC_SUBDEV_ENUM_MBUS_CODE, &ce);
	if (!e)
		*code = ce.code;
	return e;
}

uint32_t pipe_cap_type(int fd)
{
	struct v4l2_capability c;
	memset(&c, 0, sizeof(c));
	if (xioctl(fd, VIDIOC_QUERYCAP, &c))
		return V4L2_BUF_TYPE_VIDEO_CAPTURE;
	uint32_t caps = (c.capabilities & V4L2_CAP_DEVICE_CAPS) ? c.device_caps : c.capabilities;
	return (caps & V4L2_CAP_VIDEO_CAPTURE_MPLANE) && !(caps & V4L2_CAP_VIDEO_CAPTURE)
		       ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE
		       : V4L2_BUF_TYPE_VIDEO_CAPTURE;
}

static void to_pix(const struct v4l2_format *f, struct pipe_pix *p)
{
	if (f->type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE) {
		const struct v4l2_pix_format_mplane *m = &f->fmt.pix_mp;
		*p = (struct pipe_pix){ m->width, m->height, m->pixelformat, m->field, m->colorspace, m->ycbcr_enc,
					m->quantization, m->xfer_func };
	} else {
		const struct v4l2_pix_format *m = &f->fmt.pix;
		*p = (struct pipe_pix){ m->width, m->height, m->pixelformat, m->field, m->colorspace, m->ycbcr_enc,
					m->quantization, m->xfer_func };
	}
}

static int op_cap_get(void *ctx, uint32_t entity, struct pipe_pix *p)
{
	int fd = node_fd(ctx, entity);
	if (fd < 0)
		return ENODEV;
	struct v4l2_format f;
	memset(&f, 0, sizeof(f));
	f.type = pipe_cap_type(fd);
	int e = xioctl(fd, VIDIOC_G_FMT, &f);
	if (!e)
		to_pix(&f, p);
	return e;
}

static int op_cap_set(void *ctx, uint32_t entity, struct pipe_pix *p)
{
	int fd = node_fd(ctx, entity);
	if (fd < 0)
		return ENODEV;
	struct v4l2_format f;
	memset(&f, 0, sizeof(f));
	f.type = pipe_cap_type(fd);
	int e = xioctl(fd, VIDIOC_G_FMT, &f);	/* the rest (planes, strides) as the driver has it */
	if (e)
		return e;
	if (f.type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE) {
		struct v4l2_pix_format_mplane *m = &f.fmt.pix_mp;
		m->width = p->width, m->height = p->height, m->pixelformat = p->fourcc, m->field = p->field;
		m->colorspace = p->colorspace, m->ycbcr_enc = p->ycbcr_enc, m->quantization = p->quantization;
		m->xfer_func = p->xfer_func;
		for (unsigned i = 0; i < VIDEO_MAX_PLANES; i++)
			m->plane_fmt[i].bytesperline = 0, m->plane_fmt[i].sizeimage = 0;
	} else {
		struct v4l2_pix_format *m = &f.fmt.pix;
		m->width = p->width, m->height = p->height, m->pixelformat = p->fourcc, m->field = p->field;
		m->colorspace = p->colorspace, m->ycbcr_enc = p->ycbcr_enc, m->quantization = p->quantization;
		m->xfer_func = p->xfer_func, m->bytesperline = 0, m->sizeimage = 0;
	}
	e = xioctl(fd, VIDIOC_S_FMT, &f);
	if (!e)
		to_pix(&f, p);
	return e;
}

/* VIDIOC_ENUM_FMT with mbus_code (V4L2_CAP_IO_MC, vidioc-enum-fmt.rst):
 * the pixel formats the node can store that bus code in; the first one.
 * EOPNOTSUPP on a node without V4L2_CAP_IO_MC ("drivers shall ignore the
 * value of the field"). */
static int op_cap_fourcc(void *ctx, uint32_t entity, uint32_t code, uint32_t *fourcc)
{
	int fd = node_fd(ctx, entity);
	if (fd < 0)
		return ENODEV;
	struct v4l2_capability c;
	memset(&c, 0, sizeof(c));
	if (!xioctl(fd, VIDIOC_QUERYCAP, &c) &&
	    !(((c.capabilities & V4L2_CAP_DEVICE_CAPS) ? c.device_caps : c.capabilities) & V4L2_CAP_IO_MC))
		return EOPNOTSUPP;	/* video-node-centric: mbus_code is ignored, the driver sets the pipeline */
	struct v4l2_fmtdesc fd_;
	memset(&fd_, 0, sizeof(fd_));
	fd_.type = pipe_cap_type(fd);
	fd_.mbus_code = code;
	int e = xioctl(fd, VIDIOC_ENUM_FMT, &fd_);
	if (!e)
		*fourcc = fd_.pixelformat;
	return e;
}

void pipe_dev_init(struct pipe_dev *d, const struct topo *t, const char *media, struct pipe_ops *o)
{
	memset(d, 0, sizeof(*d));
	d->t = t;
	copy_cut(d->media, sizeof(d->media), media);
	for (int i = 0; i < PIPE_MAX; i++)
		d->fd[i] = -1;
	*o = (struct pipe_ops){ d, op_setup_link, op_link_enabled, op_get_fmt, op_set_fmt, op_enum_code,
				op_cap_get, op_cap_set, op_cap_fourcc };
}

void pipe_dev_close(struct pipe_dev *d)
{
	for (int i = 0; i < PIPE_MAX; i++)
		if (d->fd[i] >= 0) {
			close(d->fd[i]);
			d->fd[i] = -1;
		}
}

int pipe_route_setup(const struct pipe_route *r, unsigned width, unsigned height, struct pipe_pix *pix,
		     const char **rule, char *why, size_t len)
{
	struct pipe_dev d;
	struct pipe_ops o;
	pipe_dev_init(&d, r->t, r->media, &o);
	int e = pipe_setup(r->t, r->path, &o, r->saved, width, height, pix, rule, why, len);
	pipe_dev_close(&d);
	return e;
}

int pipe_route_restore(const struct pipe_route *r, char *why, size_t len)
{
	struct pipe_dev d;
	struct pipe_ops o;
	pipe_dev_init(&d, r->t, r->media, &o);
	int e = pipe_restore(r->t, &o, r->saved, why, len);
	if (!e && pipe_verify(r->t, &o, r->saved, why, len))
		e = EIO;
	pipe_dev_close(&d);
	return e;
}

int pipe_route_verify(const struct pipe_route *r, char *why, size_t len)
{
	struct pipe_dev d;
	struct pipe_ops o;
	pipe_dev_init(&d, r->t, r->media, &o);
	int e = pipe_verify(r->t, &o, r->saved, why, len);
	pipe_dev_close(&d);
	return e;
}

int pipe_route_toggle(const struct pipe_route *r, char *why, size_t len)
{
	struct pipe_dev d;
	struct pipe_ops o;
	pipe_dev_init(&d, r->t, r->media, &o);
	int e = pipe_toggle_links(r->t, r->path, &o, why, len);
	pipe_dev_close(&d);
	return e;
}

int pipe_route_odd_size(const struct pipe_route *r, unsigned *width, unsigned *height)
{
	struct pipe_dev d;
	struct pipe_ops o;
	uint32_t idx;
	struct v4l2_mbus_framefmt f;
	pipe_dev_init(&d, r->t, r->media, &o);
	int fd = pad_fd(&d, r->path->hop[0].source, &idx), e = fd < 0 ? ENODEV : op_get_fmt(&d, r->path->hop[0].source, &f);
	uint64_t best = 0;
	for (uint32_t i = 0; !e && i < 64; i++) {
		struct v4l2_subdev_frame_size_enum fse;
		memset(&fse, 0, sizeof(fse));
		fse.which = V4L2_SUBDEV_FORMAT_ACTIVE;
		fse.pad = idx;
		fse.index = i;
		fse.code = f.code;
		if (xioctl(fd, VIDIOC_SUBDEV_ENUM_FRAME_SIZE, &fse))
			break;
		uint64_t area = (uint64_t)fse.min_width * fse.min_height;
		if (fse.min_width && fse.min_height && (!best || area < best)) {
			best = area;
			*width = fse.min_width + 1;
			*height = fse.min_height + 1;
		}
	}
	pipe_dev_close(&d);
	return e ? e : best ? 0 : ENOTTY;
}
