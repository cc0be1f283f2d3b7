/* The request API as control checks need it (spec section 10, RQ-n): the
 * media device a video node belongs to, whether a queue of the node takes
 * requests, allocating, queueing, re-initialising and waiting for a request,
 * and the one buffer a request must carry to be queued at all
 * (media-request-ioc-queue.rst: a request without a buffer gives ENOENT).
 *
 *	struct rq_dev r;
 *	if (rq_open(dev, &r)) -> r.why says why there are no requests
 *	int req = rq_alloc(&r);                       a request fd, or -errno
 *	ext batch with which = REQUEST_VAL, request_fd = req; S_EXT_CTRLS
 *	rq_stream_start(&r); rq_queue_buffer(&r, req); rq_queue(req);
 *	rq_wait(req, ms);                             completed
 *	rq_close(&r);
 */
#ifndef V4L2C_REQUEST_H
#define V4L2C_REQUEST_H
#include <stdbool.h>
#include <stdint.h>
#include "dev/device.h"

#define RQ_MAX_BUFS 4

struct rq_dev {
	const struct dev *d;
	int media_fd;			/* the node's media device, -1 when it has none */
	char media_path[64];
	uint32_t buf_type;		/* the queue that takes requests (0: none) */
	bool supports;			/* V4L2_BUF_CAP_SUPPORTS_REQUESTS on buf_type */
	unsigned nbufs;			/* MMAP buffers allocated by rq_stream_start */
	unsigned next_buf;
	bool streaming;
	char why[160];			/* when !supports: what the device reported */
};

/* Find the media device (sysfs: the node's device folder holds mediaN) and
 * ask each buffer queue of the node for its capabilities (REQBUFS count 0).
 * Returns 0 with r->supports telling; the caller still calls rq_close. */
int rq_open(const struct dev *d, struct rq_dev *r);
void rq_close(struct rq_dev *r);
/* MEDIA_IOC_REQUEST_ALLOC: the request fd, or -errno. */
int rq_alloc(const struct rq_dev *r);
/* MEDIA_REQUEST_IOC_QUEUE / _REINIT: 0 or the errno. */
int rq_queue(int req);
int rq_reinit(int req);
/* poll() for POLLPRI (the request completed) at most ms: 0, ETIMEDOUT or the errno. */
int rq_wait(int req, int ms);
/* Allocate buffers on the request queue and, for a capture queue, start
 * streaming (vb2 lets requests carry buffers queued before STREAMON):
 * 0 or the errno with r->why set. */
int rq_stream_start(struct rq_dev *r);
/* Queue the next free buffer with V4L2_BUF_FLAG_REQUEST_FD = req: 0 or the errno. */
int rq_queue_buffer(struct rq_dev *r, int req);
/* Streaming off and buffers freed (completes or cancels pending requests). */
void rq_stream_stop(struct rq_dev *r);
#endif
