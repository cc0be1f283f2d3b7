/* A probe's frames from another node than its control's (spec SD-6): a
 * sensor sub-device's control, judged on a capture node its source pad
 * reaches. The pipeline is made to stream for the probe (links, pad
 * formats, the capture node's format: dev/pipeline.h) and put back after
 * it; the probe's decisions are the same as on a video node. */
#ifndef V4L2C_PROBE_ROUTE_H
#define V4L2C_PROBE_ROUTE_H
#include <stdbool.h>
#include "dev/device.h"
#include "image/capture.h"
#include "check/registry.h"

struct probe_route {
	const struct pipe_route *r;
	struct dev node;	/* the capture node */
	bool node_open;
	bool set_up;		/* the pipeline was changed: restore it */
	/* The sensor's source pad format while the path streams (ACTIVE,
	 * VIDIOC_SUBDEV_G_FMT; code 0 when it cannot be read): what the
	 * capture node's frames were made from (a Bayer mosaic the path
	 * debayers, judge_mosaic_of). */
	uint32_t src_code, src_width, src_height;
};

/* The node to capture from: cx->dev, or (cx->route) the capture node with
 * the pipeline set up for it, o sized to keep the format the pipeline
 * gives. Skips naming the step and its errno when the path cannot be made
 * to stream or its frames are in no format the statistics read. */
const struct dev *probe_route_open(struct probe_route *pr, const struct check_ctx *cx, struct capture_opts *o);
/* Close the node and put the pipeline back (a warning if it is not). */
void probe_route_close(struct probe_route *pr);
#endif
