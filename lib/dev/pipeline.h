/* Making a path of the media graph stream, and putting the pipeline back
 * (spec SD-6, SD-7): the links a path needs enabled (and the links that
 * hold its sink pads from elsewhere disabled), the source pad's format
 * propagated to the next sink pad hop by hop (VIDIOC_SUBDEV_S_FMT, ACTIVE),
 * the capture node's format set to match the last source pad (VIDIOC_S_FMT,
 * the pixel format from VIDIOC_ENUM_FMT with that media bus code), and the
 * state found before (every mutable data link, every pad and capture format
 * of the paths) set again and read back. The device is reached through
 * struct pipe_ops, so the unit tests give it a pipeline of their own. */
#ifndef V4L2C_PIPELINE_H
#define V4L2C_PIPELINE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/v4l2-subdev.h>
#include "dev/media_topo.h"

/* A capture node's format, as far as streaming compares it. */
struct pipe_pix {
	uint32_t width, height, fourcc, field, colorspace, ycbcr_enc, quantization, xfer_func;
};

struct pipe_ops {
	void *ctx;
	int (*setup_link)(void *ctx, const struct topo_link *l, bool enable);	/* MEDIA_IOC_SETUP_LINK */
	int (*link_enabled)(void *ctx, uint32_t link, bool *on);		/* read back */
	int (*get_fmt)(void *ctx, uint32_t pad, struct v4l2_mbus_framefmt *f);	/* SUBDEV_G_FMT, active */
	int (*set_fmt)(void *ctx, uint32_t pad, struct v4l2_mbus_framefmt *f);	/* SUBDEV_S_FMT: in, out */
	int (*enum_code)(void *ctx, uint32_t pad, uint32_t index, uint32_t *code);
	int (*cap_get)(void *ctx, uint32_t entity, struct pipe_pix *f);	/* VIDIOC_G_FMT */
	int (*cap_set)(void *ctx, uint32_t entity, struct pipe_pix *f);	/* VIDIOC_S_FMT: in, out */
	/* VIDIOC_ENUM_FMT with mbus_code; EOPNOTSUPP: not a V4L2_CAP_IO_MC node */
	int (*cap_fourcc)(void *ctx, uint32_t entity, uint32_t code, uint32_t *fourcc);
};

#define PIPE_MAX 64
struct pipe_saved {
	uint32_t link[PIPE_MAX];
	bool on[PIPE_MAX];
	int nlinks;
	uint32_t pad[PIPE_MAX];		/* in path order: a source pad before the sink it feeds */
	struct v4l2_mbus_framefmt fmt[PIPE_MAX];
	int npads;
	uint32_t cap[8];
	struct pipe_pix pix[8];
	int ncaps;
};

/* Save what the paths would change. 0, or an errno with why. */
int pipe_save(const struct topo *t, const struct topo_path *paths, int n, const struct pipe_ops *o,
	      struct pipe_saved *s, char *why, size_t len);
/* From the saved state, make the path stream: links, then (width and
 * height not 0) that size asked for on the sensor's source pad, then the
 * formats of every enabled link downstream of the sensor, then each of
 * those links read back (both ends alike). 0 with the capture node's
 * format in *pix, or an errno with why naming the step ("enabling link
 * 'A':1 -> 'B':0 (MEDIA_IOC_SETUP_LINK): EBUSY"), and in *rule (may be
 * NULL) the rule the refusal breaks where the kernel's documentation says
 * the request was valid (a driver bug: the caller fails), or NULL where the
 * documentation allows the refusal (the caller skips):
 *   MC-3  MEDIA_IOC_SETUP_LINK refused on a mutable link while nothing
 *         streams and no other enabled link holds its sink pad;
 *   SD-8  VIDIOC_SUBDEV_S_FMT refused (not EBUSY, ENOTTY, EPERM): it must
 *         adjust the format, not refuse it;
 *   SD-9  a pad's format read back (G_FMT) is not the one S_FMT answered. */
int pipe_setup(const struct topo *t, const struct topo_path *p, const struct pipe_ops *o,
	       const struct pipe_saved *s, unsigned width, unsigned height, struct pipe_pix *pix,
	       const char **rule, char *why, size_t len);
/* Every mutable link of the path that is enabled now, turned off and on
 * again with MEDIA_IOC_SETUP_LINK (nothing streams, and the link held its
 * sink pad, so media-ioc-setup-link.rst allows no refusal: MC-3). 0, or the
 * errno with why; the link is left as it was where the driver allows. */
int pipe_toggle_links(const struct topo *t, const struct topo_path *p, const struct pipe_ops *o, char *why,
		      size_t len);
/* The refusals the documentation allows of VIDIOC_SUBDEV_S_FMT on a valid
 * pad and ACTIVE: EBUSY (the pad streams), ENOTTY (no pad-level formats),
 * EPERM (a read-only sub-device node, SD-4); and ENODEV, the suite's own:
 * no node to ask (pipe_dev.c). */
bool pipe_fmt_refusal_allowed(int e);
/* Set the saved state again: the links, then the pads in path order, then
 * the capture formats. 0, or the first errno with why (it goes on). */
int pipe_restore(const struct topo *t, const struct pipe_ops *o, const struct pipe_saved *s, char *why,
		 size_t len);
/* Read everything back: 0 when it is as saved, else -1 with the first
 * difference. */
int pipe_verify(const struct topo *t, const struct pipe_ops *o, const struct pipe_saved *s, char *why,
		size_t len);

/* The real device: a media node and the nodes of its entities. */
struct pipe_dev {
	const struct topo *t;
	char media[64];
	int fd[PIPE_MAX];		/* per entity index, opened on first use (-1) */
};
void pipe_dev_init(struct pipe_dev *d, const struct topo *t, const char *media, struct pipe_ops *o);
void pipe_dev_close(struct pipe_dev *d);

/* One capture node a sensor sub-device's controls are judged on: the path
 * to it and the state to return to (the run finds them, lib/run/run_pipe.c;
 * a check gets one in check_ctx.route). */
struct pipe_route {
	const struct topo *t;
	const struct topo_path *path;
	const struct pipe_saved *saved;
	const char *media;
	char capture_node[128];		/* /dev/videoN */
	char capture_name[64];		/* its entity's name */
	char slug[64];			/* "rgb-yuv-capture": in the check's name */
};
/* On the real device: pipe_setup, pipe_restore, and pipe_verify after it. */
int pipe_route_setup(const struct pipe_route *r, unsigned width, unsigned height, struct pipe_pix *pix,
		     const char **rule, char *why, size_t len);
int pipe_route_restore(const struct pipe_route *r, char *why, size_t len);
/* What the device has now against the state found (no change made). */
int pipe_route_verify(const struct pipe_route *r, char *why, size_t len);
/* pipe_toggle_links on the real device. */
int pipe_route_toggle(const struct pipe_route *r, char *why, size_t len);
/* A size the route's sensor must adjust: one pixel more each way than the
 * smallest it enumerates for its current code (VIDIOC_SUBDEV_ENUM_FRAME_SIZE
 * on its source pad); 0, or an errno (no sizes enumerated). */
int pipe_route_odd_size(const struct pipe_route *r, unsigned *width, unsigned *height);
/* The buffer type of a capture node's fd: multi-planar only when it has no
 * single-planar capture. */
uint32_t pipe_cap_type(int fd);
/* lib/dev/pipe_stream.c: REQBUFS, QBUF and STREAMON on a capture node as
 * the pipeline is now, then STREAMOFF and REQBUFS 0: the STREAMON errno (0:
 * it streams), or that of the step before it with why naming the step. */
int pipe_stream_try(const char *node, bool *streamon_ran, char *why, size_t len);
#endif
