/* One run per node: the suite re-executes itself with -d NODE --out
 * OUT/ENTITY and every other option as given, so a node's run is exactly
 * what -d on that node gives (its own lock, journal, records). The per-node
 * directory carries the entity's name ("sensor-a"), not the device number,
 * so that a lab's expectations stay when numbers move between boots.
 * OUT/nodes.status lists 'DIR EXIT T0 T1' a node, as the board harness reads. */
#include "run/media_run.h"
#include "check/results.h"
#include "check/run_opts.h"
#include "dev/device.h"
#include "dev/media.h"
#include <errno.h>
#include <linux/media.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void add_result(struct result_set *rs, const char *name, const char *rule, const char *summary,
		       enum verdict v, const char *msg)
{
	struct result *r = results_add(rs);
	r->name = strdup(name);
	r->suite = "graph";
	r->rule = rule;
	r->summary = summary;
	r->verdict = v;
	r->message = msg && *msg ? strdup(msg) : NULL;
}

/* MC-1 and MC-2 of one interface (media_node_agrees). */
static void graph_checks(struct result_set *rs, const struct media_node *n)
{
	char name[160], why[512];
	enum media_node_agreement a = media_node_agrees(n, why, sizeof(why));
	snprintf(name, sizeof(name), "graph/node-exists/%s", n->slug);
	add_result(rs, name, "MC-1", "every interface the graph lists is a device node that exists (major:minor)",
		   a == MEDIA_NODE_MISSING ? VERDICT_FAIL : VERDICT_PASS, a == MEDIA_NODE_MISSING ? why : NULL);
	snprintf(name, sizeof(name), "graph/node-is-entity/%s", n->slug);
	const char *sum = "the node is of the interface's kind and names the entity the graph links it to";
	if (a == MEDIA_NODE_MISSING)
		add_result(rs, name, "MC-2", sum, VERDICT_SKIP, "no node (graph/node-exists)");
	else
		add_result(rs, name, "MC-2", sum, a == MEDIA_NODE_WRONG ? VERDICT_FAIL : VERDICT_PASS, why);
}

/* The child's arguments: ours without -m/--media and -o/--out, then -d and --out. */
static char **child_argv(int argc, char **argv, const char *node, const char *out)
{
	char **a = calloc((size_t)argc + 6, sizeof(char *));
	int k = 0;
	a[k++] = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		if (!strcmp(s, "-m") || !strcmp(s, "--media") || !strcmp(s, "-o") || !strcmp(s, "--out")) {
			i++;
			continue;
		}
		if (!strncmp(s, "--media=", 8) || !strncmp(s, "--out=", 6) ||
		    (s[0] == '-' && (s[1] == 'm' || s[1] == 'o') && s[2]))
			continue;
		a[k++] = argv[i];
	}
	a[k++] = "-d";
	a[k++] = (char *)node;
	a[k++] = "--out";
	a[k++] = (char *)out;
	return a;
}

int media_run_main(int argc, char **argv, const char *media)
{
	struct media_graph g;
	char err[400];
	if (media_graph_read(media, &g, err, sizeof(err))) {
		fprintf(stderr, "v4l2-conform: %s\n", err);
		return 2;
	}
	const char *out = g_opts.out_dir;
	if (mkdir(out, 0755) && errno != EEXIST) {
		fprintf(stderr, "v4l2-conform: cannot create %s: %s\n", out, strerror(errno));
		return 2;
	}
	/* Two interfaces of one entity name (rare) get -2, -3 ... */
	for (size_t i = 0; i < g.count; i++)
		for (size_t j = 0, k = 2; j < i; j++)
			if (!strcmp(g.n[i].slug, g.n[j].slug)) {
				char s[80];
				snprintf(s, sizeof(s), "%.60s-%zu", g.n[i].slug, k++);
				copy_cut(g.n[i].slug, sizeof(g.n[i].slug), s);
				j = (size_t)-1;
			}
	printf("v4l2-conform: %s (%s, %s): %zu interfaces\n", media, g.driver, g.model, g.count);
	struct result_set rs = { 0 };
	double t0 = mono_s();
	for (size_t i = 0; i < g.count; i++)
		if (media_intf_is_v4l(g.n[i].intf_type))
			graph_checks(&rs, &g.n[i]);
	char path[1024];
	snprintf(path, sizeof(path), "%s/graph", out);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/graph/results.json", out);
	struct run_info ri = { .device = media, .driver = g.driver, .card = g.model, .bus_info = g.bus_info,
			       .node_kind = "media device", .kernel = "", .suite_version = V4L2C_VERSION,
			       .started = "", .host = "", .duration_s = mono_s() - t0 };
	results_write_json(path, &rs, &ri);
	size_t c[4];
	results_counts(&rs, c);
	int status = c[VERDICT_FAIL] ? 1 : 0, tested = 0;
	snprintf(path, sizeof(path), "%s/nodes.status", out);
	FILE *st = fopen(path, "w");
	if (st)
		fprintf(st, "graph %d %.3f %.3f\n", status, t0, mono_s());
	printf("== graph: %zu checks, %zu fail\n", rs.n, c[VERDICT_FAIL]);
	for (size_t i = 0; i < g.count; i++) {
		const struct media_node *n = &g.n[i];
		if (!media_intf_is_v4l(n->intf_type) || !n->devnode[0])
			continue;
		char dir[1024];
		snprintf(dir, sizeof(dir), "%s/%s", out, n->slug);
		printf("== %s (%s):\n", n->devnode, n->entity);
		fflush(stdout);
		double n0 = mono_s();
		pid_t pid = fork();
		if (pid == 0) {
			execv("/proc/self/exe", child_argv(argc, argv, n->devnode, dir));
			_exit(2);
		}
		int ws = 0, rc = 2;
		if (pid > 0 && waitpid(pid, &ws, 0) == pid && WIFEXITED(ws))
			rc = WEXITSTATUS(ws);
		if (st)
			fprintf(st, "%s %d %.3f %.3f\n", n->slug, rc, n0, mono_s());
		if (rc == 0 || rc == 1)
			tested++;
		if (rc == 1 || (rc != 0 && status == 0))
			status = 1;
	}
	if (st)
		fclose(st);
	media_graph_free(&g);
	return tested ? status : 2;
}
