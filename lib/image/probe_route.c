/* A probe's frames from a capture node its sensor reaches (probe_route.h). */
#include "image/probe_route.h"
#include "dev/pipeline.h"
#include "check/verdict.h"
#include "image/frame.h"
#include <linux/v4l2-subdev.h>
#include <stdio.h>
#include <string.h>

/* The sensor's source pad (the path's first hop) as it streams now. */
static void read_source_format(struct probe_route *pr, const struct check_ctx *cx)
{
	const struct topo_pad *pad = pr->r->path->nhops > 0 ? topo_pad(pr->r->t, pr->r->path->hop[0].source) : NULL;
	struct v4l2_subdev_format f = { .which = V4L2_SUBDEV_FORMAT_ACTIVE };
	if (!pad)
		return;
	f.pad = pad->index;
	if (dev_ioctl(cx->dev, VIDIOC_SUBDEV_G_FMT, &f))
		return;
	pr->src_code = f.format.code;
	pr->src_width = f.format.width;
	pr->src_height = f.format.height;
}

const struct dev *probe_route_open(struct probe_route *pr, const struct check_ctx *cx, struct capture_opts *o)
{
	memset(pr, 0, sizeof(*pr));
	if (!cx->route)
		return cx->dev;
	const struct pipe_route *r = pr->r = cx->route;
	char why[600], path[600], fc[5];
	topo_path_describe(r->t, r->path, path, sizeof(path));
	if (!r->capture_node[0])
		v_skip("'%s' has no device node (sysfs names none for its interface)", r->capture_name);
	struct pipe_pix pix;
	pr->set_up = true;
	/* The profile's capture size is asked of the sensor: the pipeline
	 * decides the capture node's size from there. */
	const char *rule;
	int e = pipe_route_setup(r, o->width, o->height, &pix, &rule, why, sizeof(why));
	/* A refusal the documentation does not allow is judged once, by
	 * run/pipeline-streams@CAPTURE (lib/run/run_pipe.c); here it only
	 * keeps the probe from running. */
	if (e && (probe_route_close(pr), 1))
		v_skip("cannot make the path to '%s' stream (%s): %s%s%s%s", r->capture_name, path, why,
		       rule ? " (against spec " : "", rule ? rule : "", rule ? ": run/pipeline-streams fails)" : "");
	if (dev_open(&pr->node, r->capture_node, false, why, sizeof(why)) && (probe_route_close(pr), 1))
		v_skip("cannot open the capture node of '%s': %s", r->capture_name, why);
	pr->node_open = true;
	/* The pipeline decides the format: a Bayer or packed raw format from a
	 * sensor is what the capture node then stores (V4L2_CAP_IO_MC). */
	if (!frame_layout_native(pix.fourcc) && (probe_route_close(pr), 1))
		v_skip("'%s' stores the sensor's frames as %s (%ux%u, the format the path gives, %s): a layout the "
		       "picture statistics do not read, so the control's effect cannot be measured there",
		       r->capture_name, frame_fourcc_str(pix.fourcc, fc), pix.width, pix.height, path);
	read_source_format(pr, cx);
	o->width = pix.width;
	o->height = pix.height;
	o->fourcc = pix.fourcc;
	o->fps = 0;
	o->no_libv4l2 = true;
	v_info("frames from %s ('%s') through %s", r->capture_node, r->capture_name, path);
	return &pr->node;
}

void probe_route_close(struct probe_route *pr)
{
	if (pr->node_open)
		dev_close(&pr->node);
	pr->node_open = false;
	if (pr->set_up) {
		char why[600];
		pr->set_up = false;
		if (pipe_route_restore(pr->r, why, sizeof(why)))
			v_warn("the pipeline is not back as it was: %s", why);
	}
}
