/* The pipeline routes of a sensor sub-device's run (run_pipe.h). */
#include "run/run_pipe.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "dev/media.h"
#include "run/journal.h"

#define MAX_ROUTES 8

static struct topo g_topo;
static char g_media[64];
static struct topo_path g_paths[MAX_ROUTES];
static struct pipe_route g_routes[MAX_ROUTES];
static struct pipe_saved g_saved;
static size_t g_n;
static char g_why[600] = "not a sub-device node";

const struct pipe_saved *run_pipe_saved(const char **media)
{
	*media = g_n ? g_media : NULL;
	return g_n ? &g_saved : NULL;
}

size_t run_pipe_count(void)
{
	return g_n;
}

const struct pipe_route *run_pipe_route(size_t i)
{
	return i < g_n ? &g_routes[i] : NULL;
}

const char *run_pipe_why(void)
{
	return g_why;
}

void run_pipe_find(const struct dev *d)
{
	struct stat st;
	char err[400];
	if (!dev_is_subdev(d))
		return;
	if (stat(d->path, &st) || !S_ISCHR(st.st_mode)) {
		snprintf(g_why, sizeof(g_why), "%s: not a character device node", d->path);
		return;
	}
	uint32_t ma = major(st.st_rdev), mi = minor(st.st_rdev);
	/* An interrupted run's pipeline first: the state saved below is the
	 * one to return to. */
	journal_recover_pipeline(d->path);
	if (topo_find_media(ma, mi, g_media, sizeof(g_media), &g_topo, err, sizeof(err))) {
		snprintf(g_why, sizeof(g_why), "no media graph to find a capture node in: %s", err);
		return;
	}
	const struct topo_entity *me = topo_entity_of_node(&g_topo, ma, mi);
	if (!topo_is_sensor(&g_topo, me->id)) {
		snprintf(g_why, sizeof(g_why), "'%s' is not a sensor (an entity with a source pad and no sink pad, in "
			 "%s): only a sensor's controls are judged on a capture node's frames (spec SD-6)", me->name,
			 g_media);
		return;
	}
	int n = topo_paths(&g_topo, me->id, g_paths, MAX_ROUTES);
	if (!n) {
		snprintf(g_why, sizeof(g_why), "no capture node is reachable from the source pad of '%s' through links "
			 "that are or can be enabled (%s, MEDIA_IOC_G_TOPOLOGY; spec SD-6)", me->name, g_media);
		return;
	}
	struct pipe_dev pd;
	struct pipe_ops o;
	pipe_dev_init(&pd, &g_topo, g_media, &o);
	int e = pipe_save(&g_topo, g_paths, n, &o, &g_saved, err, sizeof(err));
	pipe_dev_close(&pd);
	if (e) {
		snprintf(g_why, sizeof(g_why), "cannot read the pipeline's state to restore it afterwards: %s", err);
		return;
	}
	for (int i = 0; i < n; i++) {
		struct pipe_route *r = &g_routes[g_n++];
		const struct topo_entity *c = topo_entity(&g_topo, g_paths[i].capture);
		r->t = &g_topo;
		r->path = &g_paths[i];
		r->saved = &g_saved;
		r->media = g_media;
		copy_cut(r->capture_node, sizeof(r->capture_node), c->devnode);
		copy_cut(r->capture_name, sizeof(r->capture_name), c->name);
		media_slugify(c->name, r->slug, sizeof(r->slug));
	}
	g_why[0] = 0;
}

/* One route: does its path stream when configured as the documentation
 * says (SD-6), and does the driver take what the documentation says it
 * must (MC-3 links, SD-8 and SD-9 pad formats)? A refusal the documentation
 * allows is a skip naming the step and its errno. */
static void streams(const struct pipe_route *rt, struct result *r)
{
	char why[600], msg[2400];
	const char *rule = NULL;
	unsigned w = 0, h = 0;
	struct pipe_pix pix;
	bool ran;
	int e;
	r->rule = "SD-6";
	r->verdict = VERDICT_PASS;
	if (pipe_route_restore(rt, why, sizeof(why))) {
		r->verdict = VERDICT_SKIP;
		snprintf(msg, sizeof(msg), "the pipeline cannot be set to the state found first: %s", why);
	} else if ((e = pipe_route_toggle(rt, why, sizeof(why)))) {
		r->verdict = VERDICT_FAIL;
		r->rule = "MC-3";
		snprintf(msg, sizeof(msg), "expected a mutable link that holds its sink pad, with nothing streaming, to "
			 "turn off and on again (media-ioc-setup-link.rst), got: %s", why);
	} else if (pipe_route_odd_size(rt, &w, &h), (e = pipe_route_setup(rt, w, h, &pix, &rule, why, sizeof(why)))) {
		r->verdict = rule ? VERDICT_FAIL : VERDICT_SKIP;
		r->rule = rule ? rule : "SD-6";
		snprintf(msg, sizeof(msg), "%s (size asked of the sensor: %ux%u): %s",
			 rule ? "expected the pipeline to take the formats dev-subdev.rst's negotiation sets, got"
			      : "the pipeline cannot be configured, as the documentation allows",
			 w, h, why);
	} else if ((e = pipe_stream_try(rt->capture_node, &ran, why, sizeof(why))) && ran &&
		   (e == EPIPE || e == ENOLINK)) {
		char path[600];
		topo_path_describe(rt->t, rt->path, path, sizeof(path));
		r->verdict = VERDICT_FAIL;
		snprintf(msg, sizeof(msg), "expected STREAMON to accept the pipeline configured as dev-subdev.rst says "
			 "(every enabled link's two ends alike, read back; '%s' in the format VIDIOC_ENUM_FMT gives for its "
			 "bus code at that size: %ux%u fourcc 0x%08x; %s), got: %s", rt->capture_name, pix.width,
			 pix.height, pix.fourcc, path, why);
	} else if (e) {
		r->verdict = VERDICT_SKIP;
		snprintf(msg, sizeof(msg), "the pipeline is configured, but: %s", why);
	} else {
		snprintf(msg, sizeof(msg), "'%s' streams %ux%u fourcc 0x%08x, %ux%u asked of the sensor", rt->capture_name,
			 pix.width, pix.height, pix.fourcc, w, h);
	}
	r->message = strdup(msg);
	pipe_route_restore(rt, why, sizeof(why));	/* run/pipeline-restored judges it */
}

void run_pipe_streams(struct result_set *rs, void (*print)(const struct result *))
{
	for (size_t i = 0; i < g_n; i++) {
		char name[160];
		struct result *r = results_add(rs);
		snprintf(name, sizeof(name), "run/pipeline-streams@%s", g_routes[i].slug);
		r->name = strdup(name);
		r->suite = "run";
		r->summary = "the path to the capture node streams once configured as the documentation says, and the "
			     "driver takes each documented request on the way (links, pad formats)";
		streams(&g_routes[i], r);
		print(r);
	}
}

const struct result *run_pipe_restored(struct result_set *rs)
{
	if (!g_n)
		return NULL;
	char why[600], msg[700];
	struct result *r = results_add(rs);
	r->name = strdup("run/pipeline-restored");
	r->suite = "run";
	r->rule = "SD-7";
	r->summary = "the pipeline's links, pad formats and capture formats are back as they were before the run";
	r->verdict = VERDICT_PASS;
	if (pipe_route_restore(&g_routes[0], why, sizeof(why))) {
		snprintf(msg, sizeof(msg), "expected the pipeline as found, got: %s", why);
		r->verdict = VERDICT_FAIL;
		r->message = strdup(msg);
	}
	return r;
}
