/* Frame capture for the probes: format negotiation, streaming with mmap
 * buffers (read() when that is all the device offers), and the stale-frame
 * discipline of spec section 18. Every wait is bounded by a timeout.
 *
 * Typical use:
 *	struct capture cap;
 *	if (capture_open(&cap, dev, NULL)) -> cap.err says why
 *	capture_next(&cap, &frame);                  reference frame
 *	set a control
 *	capture_settle_after_change(&cap, 0, &frame); first frame made after the set
 *	capture_close(&cap);                         streaming off, buffers freed, format restored
 */
#ifndef V4L2C_CAPTURE_H
#define V4L2C_CAPTURE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dev/device.h"
#include "image/frame.h"

#define CAPTURE_MAX_BUFS 16
/* read() has no sequence numbers and hides the driver's queue: after a
 * change this many frames are treated as stale (vb2's read emulation keeps
 * at most this many buffers in flight). */
#define CAPTURE_READ_STALE_FRAMES 4

struct capture_opts {
	unsigned width, height;		/* 0: keep the device's current size */
	uint32_t fourcc;		/* 0: choose (see capture_open) */
	unsigned nbufs;			/* mmap buffers to request; 0: 4 */
	unsigned fps;			/* frame rate to ask for (S_PARM), restored at close; 0: keep */
	unsigned timeout_ms;		/* longest wait for one frame; 0: 5 s + 3 frame intervals */
	bool force_read;		/* read() even when streaming is offered */
	bool no_libv4l2;		/* never fall back to a libv4l2 handle */
};

enum capture_io { CAPTURE_MMAP = 1, CAPTURE_READ = 2 };

struct capture_buf {
	void *start[VIDEO_MAX_PLANES];
	size_t length[VIDEO_MAX_PLANES];
};

struct capture {
	const struct dev *d;		/* the handle that streams (&own while open, else NULL) */
	struct dev own;			/* our own handle on the node (libv4l2 when converting) */
	bool own_open;
	bool via_libv4l2;		/* buffers are mapped and read through libv4l2 */
	enum capture_io io;
	uint32_t buf_type;		/* V4L2_BUF_TYPE_VIDEO_CAPTURE(_MPLANE) */
	struct v4l2_format orig_fmt;	/* restored by capture_close() when restore_fmt */
	bool restore_fmt;
	struct v4l2_streamparm orig_parm;	/* restored when restore_parm */
	bool restore_parm;
	struct v4l2_format fmt;		/* what the driver gave us */
	uint32_t fourcc;
	unsigned width, height;
	unsigned nplanes;		/* memory planes (mplane API), 1 otherwise */
	unsigned stride[VIDEO_MAX_PLANES];
	size_t sizeimage;
	struct capture_buf bufs[CAPTURE_MAX_BUFS];
	unsigned nbufs;
	unsigned queued;		/* buffers currently owned by the driver */
	bool streaming;
	uint8_t *rbuf;			/* read() buffer */
	size_t rbuf_len;
	uint32_t last_seq;		/* newest sequence number seen */
	bool have_seq;
	uint32_t counter;		/* read(): our own sequence */
	unsigned timeout_ms;
	unsigned long frames;		/* frames dequeued */
	unsigned long error_frames;	/* buffers flagged V4L2_BUF_FLAG_ERROR (dropped) */
	char err[256];			/* why the last call failed */
	/* Frames interpolated from a mosaic on the way (a debayered path):
	 * every frame's clip map widened by this many pixels (frame.h). */
	unsigned clip_reach;
};

/* Negotiate a format and start capturing. Format choice, in order: opts
 * fourcc; the device's current format when frame_layout_native() reads it
 * (and the size fits opts); the first native layout the device enumerates
 * (YUYV, UYVY, NV12, YUV420, RGB24, BGR24, GREY ... in that preference);
 * otherwise a libv4l2 handle on the same node converting to a native layout
 * (MJPEG webcams, vendor formats). A format set here is restored by
 * capture_close(). Streaming with mmap buffers when the device streams,
 * read() when it only reads, always on a file handle of its own (opened on
 * d's node, through libv4l2 when d is), so that closing it releases the
 * queue; set controls on d as usual. Returns 0, or an errno with c->err
 * set; on failure the device is left as found. opts may be NULL. */
int capture_open(struct capture *c, const struct dev *d, const struct capture_opts *opts);
/* When capture_open() failed with e because the node's media pipeline is
 * not set up to stream -- STREAMON gives EPIPE (pad formats along the
 * pipeline do not match) or ENOLINK (no valid link configuration), which
 * vidioc-streamon.rst allows only for a node configured through the media
 * controller (V4L2_CAP_IO_MC) -- the skip reason; else NULL. That is the
 * device's state, not a control bug (spec SD-5). */
const char *capture_pipeline_unready(const struct dev *d, int e);
/* Stop streaming, unmap and free the buffers (REQBUFS 0), restore the
 * format, close the own handle. Safe on a failed or closed capture. */
void capture_close(struct capture *c);

/* The next frame, converted into f (allocated as needed), with the
 * driver's sequence number and timestamp. 0, ETIMEDOUT (nothing within
 * timeout_ms), EIO (only error buffers) or the ioctl's errno; c->err says. */
int capture_next(struct capture *c, struct frame *f);
/* Discard n frames (no conversion). 0 or as capture_next. */
int capture_skip(struct capture *c, unsigned n);

/* Call right after a control set returned: takes every frame already done
 * (without waiting), and returns the stale-frame mark, the newest sequence
 * seen. A frame with sequence > mark + c->queued (capture_stale_limit())
 * was started after the set. For latency measurements: frames after the
 * change = frame.sequence - mark. */
uint32_t capture_mark(struct capture *c);
uint32_t capture_stale_limit(const struct capture *c, uint32_t mark);
/* Spec section 18 discipline in one call: mark, then discard frames until
 * sequence > mark + queued buffers + extra_frames (extra_frames: a
 * control's measured latency beyond the queue), and return that first fresh
 * frame in f. 0 or as capture_next. */
int capture_settle_after_change(struct capture *c, unsigned extra_frames, struct frame *f);

/* "YUYV 640x360, mmap x4" / "RGB24 640x480 via libv4l2, read" */
const char *capture_describe(const struct capture *c, char *buf, size_t len);
#endif
