/* The pipeline routes of a sensor sub-device's run (run_pipe.h). */
#include "run/run_pipe.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "dev/media.h"

#define MAX_ROUTES 8

static struct topo g_topo;
static char g_media[64];
static struct topo_path g_paths[MAX_ROUTES];
static struct pipe_route g_routes[MAX_ROUTES];
static struct pipe_saved g_saved;
static size_t g_n;
static char g_why[600] = "not a sub-device node";

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
