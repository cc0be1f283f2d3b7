/* The runner. Each check instance is a Check test of its own under the
 * instance's name, run by lib/run/run_batch.c: most share a test process, checks
 * that start threads or processes get one each (Check's fork mode), so that
 * a crash or a hang costs one verdict, not the run, and a process stuck in
 * the kernel is left behind instead of waited for. One batch per check
 * definition gives progress at that granularity. */
#include "run/runner.h"
#include "ctrl/ctrl_enum.h"
#include "ctrl/ctrl_snapshot.h"
#include "ctrl/ctrl_type.h"
#include "ctrl/rulebook.h"
#include "dev/devlock.h"
#include "ctrl/events.h"
#include "run/journal.h"
#include "run/media_run.h"
#include "run/kmsg.h"
#include "run/kmsg_judge.h"
#include "image/profile.h"
#include "check/docref.h"
#include "check/results.h"
#include "run/run_batch.h"
#include "run/reclog.h"
#include "check/verdict.h"
#include "dev/wedge.h"
#include "dev/hang.h"
#include "run/run_hang.h"
#include "run/run_args.h"
#include "image/probe_node.h"
#include "run/run_pipe.h"
#include "run/run_needs.h"
#include <check.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#ifndef V4L2C_VERSION
#define V4L2C_VERSION "unknown"
#endif

struct instance {
	char *name;
	const struct suite_def *suite;
	const struct check_def *def;
	const struct ctrl *ctrl;
	uint32_t ctrl_id;	/* ctrl's id: a check process's model may move ctrl (model_drop_hung) */
	long item;
	const char *why;	/* not NULL: registered as skipped */
	size_t route1;		/* 1 + the pipeline route its frames come through (0: none) */
};

static struct instance *inst;
static size_t n_inst;
static struct dev g_dev;
static struct ctrl_model g_model;
static struct snapshot g_snap;
static char rec_dir[512];
static int kmsg_fd = -1;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---------- expanding suites into instances ---------- */

static bool selected(const char *name)
{
	if (!g_opts.only)
		return true;
	for (char **g = g_opts.only; *g; g++)
		if (!fnmatch(*g, name, 0))
			return true;
	return false;
}

/* A control the device moved by itself during a before/after comparison:
 * information in the check's verdict, not a change (ctrl_snapshot.h). */
static void note_moved(const char *names)
{
	v_info("not counted as changed: %s (INACTIVE or VOLATILE now: the device may move it by itself)", names);
}

static void add_instance(const struct suite_def *s, const struct check_def *d, const struct ctrl *c,
			 long item, const char *suffix, const char *why)
{
	char name[256];
	if (suffix && *suffix)
		snprintf(name, sizeof(name), "%s/%s", d->name, suffix);
	else
		snprintf(name, sizeof(name), "%s", d->name);
	if (!selected(name))
		return;
	inst = realloc(inst, (n_inst + 1) * sizeof(*inst));
	struct instance *in = &inst[n_inst++];
	memset(in, 0, sizeof(*in));
	in->name = strdup(name);
	in->suite = s;
	in->def = d;
	in->ctrl = c;
	in->ctrl_id = c ? c->q.id : 0;
	in->item = item;
	in->why = why;
}

/* Which of the features in enum check_needs this node lacks (run_needs.c). */
static unsigned int g_missing;

unsigned int runner_missing_features(void)
{
	return g_missing;
}

/* A check that timed out (run_batch's on_timeout): named by the control
 * ioctl it was blocked in, if any (run_hang.c). */
static unsigned int g_timeout_now;	/* the running definition's check timeout */

static int hang_timed_out(int idx, char *msg, size_t len)
{
	return run_hang_timed_out(&g_model, inst[idx].name, g_timeout_now, msg, len);
}

/* The probes only read frames and set the control on cx->dev: they can take
 * their frames from another node. The other streaming checks (lifecycle:
 * open, close, S_FMT, S_INPUT on the node itself) cannot. */
static bool judged_through_pipeline(const struct suite_def *s)
{
	return !strncmp(s->name, "probe", 5);
}

/* A sensor sub-device: each probe once per capture node it reaches,
 * "probe/luma-up/brightness@rgb-yuv-capture" (spec SD-6). */
static void expand_routes(const struct suite_def *s, const struct check_def *d)
{
	for (size_t i = 0; i < g_model.n; i++) {
		const struct ctrl *c = &g_model.c[i];
		const char *why = NULL;
		if (c->excluded || (c->q.flags & V4L2_CTRL_FLAG_DISABLED))
			continue;
		bool applies = !d->applies || d->applies(c, &g_model, &why);
		if (!applies && !why)
			continue;
		for (size_t r = 0; r < run_pipe_count(); r++) {
			char suffix[200];
			snprintf(suffix, sizeof(suffix), "%s@%s", c->slug, run_pipe_route(r)->slug);
			size_t before = n_inst;
			add_instance(s, d, c, 0, suffix, applies ? run_hang_skip_reason(c->q.id) : why);
			if (n_inst > before)
				inst[n_inst - 1].route1 = r + 1;
		}
	}
}

static void expand(const struct suite_def *s, const struct check_def *d)
{
	if ((d->needs & NEEDS_SUBDEV_NODE) && !dev_is_subdev(&g_dev))
		return;
	if (d->needs_stream && dev_is_subdev(&g_dev)) {
		if (judged_through_pipeline(s) && run_pipe_count()) {
			expand_routes(s, d);
			return;
		}
		static char why[800];
		snprintf(why, sizeof(why), "a sub-device node streams no frames itself: its controls act on the capture "
			 "node its source pad reaches (dev-subdev.rst; spec SD-3)%s%s",
			 judged_through_pipeline(s) ? ": " : "", judged_through_pipeline(s) ? run_pipe_why() : "");
		add_instance(s, d, NULL, 0, "device", why);
		return;
	}
	if (d->needs_stream && !dev_captures_pictures(&g_dev)) {
		add_instance(s, d, NULL, 0, "device", dev_can_capture(&g_dev)
			     ? "a touch device: its frames are touch-sensor data, not pictures (V4L2_CAP_TOUCH)"
			     : "not a video capture node");
		return;
	}
	/* One skip per check, not per control: the cause is the device's. */
	if (d->needs & g_missing) {
		add_instance(s, d, NULL, 0, "device", run_needs_reason(d->needs & g_missing, g_missing));
		return;
	}
	switch (d->scope) {
	case CHECK_PER_DEVICE:
		add_instance(s, d, NULL, 0, NULL, NULL);
		break;
	case CHECK_PER_ITEM: {
		char slug[128];
		for (long i = 0; d->items(&g_model, i, slug, sizeof(slug)); i++)
			add_instance(s, d, NULL, i, slug, NULL);
		break;
	}
	case CHECK_PER_CONTROL:
		for (size_t i = 0; i < g_model.n; i++) {
			const struct ctrl *c = &g_model.c[i];
			const char *why = NULL;
			if (c->excluded)
				continue;
			if ((c->q.flags & V4L2_CTRL_FLAG_DISABLED) && !d->on_disabled)
				continue;
			if (d->applies && !d->applies(c, &g_model, &why)) {
				if (why)
					add_instance(s, d, c, 0, c->slug, why);
				continue;
			}
			add_instance(s, d, c, 0, c->slug, run_hang_skip_reason(c->q.id));
		}
		break;
	}
}

/* Excluded controls get one 'skip' record each instead of their checks. */
static const struct check_def excluded_def = { "excluded", "-",
	"a control the board profile says must never be written", CHECK_PER_CONTROL };
static const struct suite_def excluded_suite = { "excluded", "excluded controls", &excluded_def, 1 };

static void mark_excluded(void)
{
	for (char **x = g_opts.exclude_ctrls; x && *x; x++) {
		bool found = false;
		for (size_t i = 0; i < g_model.n; i++)
			if (!strcmp(g_model.c[i].slug, *x)) {
				g_model.c[i].excluded = true;
				found = true;
				add_instance(&excluded_suite, &excluded_def, &g_model.c[i], 0, *x,
					     "excluded: never written (--exclude-control)");
			}
		if (!found)
			fprintf(stderr, "v4l2-conform: note: --exclude-control %s: no such control on %s\n", *x,
				g_opts.device);
	}
}

/* ---------- the test process ---------- */

/* The running instance's record lines (verdict.h's sink): the record log. */
static int rec_idx = -1;

static void rec_sink(char tag, const char *text)
{
	reclog_add(rec_idx, tag, text);
}

static void instance_fn(int i)
{
	struct instance *in = &inst[i];
	struct dev d;
	char err[300], line[64];
	rec_idx = i;
	kjudge_check_started(line, sizeof(line));	/* hook: kmsg_judge.c */
	reclog_add(i, 'K', line);
	if (wedge_before_check(g_opts.device, in->name))	/* hook: wedge.c */
		v_skip("%s", wedge_reason());
	/* The start time: the runner derives each check's duration from it,
	 * also for a check that crashed or timed out. */
	snprintf(line, sizeof(line), "%.9f", now_s());
	reclog_add(i, 'T', line);
	/* A control whose ioctl hangs (found earlier in the run): out of this
	 * process's loops and snapshot, its calls refused (run_hang.c). */
	const struct ctrl *ctrl = run_hang_check_start(&g_model, &g_snap, in->def->scope == CHECK_PER_DEVICE,
						       in->ctrl_id);
	if (dev_open(&d, g_opts.device, g_opts.libv4l2, err, sizeof(err)))
		ck_abort_msg("cannot open the device for this check: %s", err);
	/* Every check starts from the device's state before the run, whatever
	 * the previous check did or failed to undo. */
	snapshot_reset(&d, &g_model, &g_snap);
	ev_new_check();
	struct check_ctx cx = { .dev = &d, .ctrl = ctrl, .model = &g_model, .item = in->item,
				.name = in->name, .route = in->route1 ? run_pipe_route(in->route1 - 1) : NULL };
	v_run_check(in->def->fn, &cx);	/* again if a refused inactive control is made active */
	dev_close(&d);
	if (batch_shared())
		return;
	/* Passed. Everything the check recorded is closed, and Check reads a
	 * pass from the exit status alone: leaving without exit()'s handlers
	 * saves more than the check itself costs on an emulated board. */
	_exit(0);
}

/* ---------- collecting verdicts ---------- */

static char *xstrcat(char *a, const char *sep, const char *b)
{
	if (!b || !*b)
		return a;
	size_t la = a ? strlen(a) : 0;
	char *r = malloc(la + strlen(sep) + strlen(b) + 1);
	sprintf(r, "%s%s%s", a ? a : "", la ? sep : "", b);
	free(a);
	return r;
}

/* The check's record lines (the record log of its batch) into r; its start
 * time (0 if none) and, for the kernel-log judge, its pid and start on the
 * kernel log's clock. */
static double read_record(int idx, struct result *r, int *kpid, double *kstart)
{
	double start = 0;
	char text[4096];
	size_t pos = 0;
	struct rec_line l;
	while (reclog_next(&pos, &l)) {
		if (l.idx != idx)
			continue;
		snprintf(text, sizeof(text), "%s", l.text);
		switch (l.tag) {
		case 'W':
			if (r->verdict == VERDICT_PASS)
				r->verdict = VERDICT_WARN;
			r->message = xstrcat(r->message, "; ", xstrcat(strdup("warning: "), "", text));
			break;
		case 'S':
			if (r->verdict != VERDICT_FAIL)
				r->verdict = VERDICT_SKIP;
			r->message = xstrcat(r->message, "; ", text);
			break;
		case 'I':
			r->message = xstrcat(r->message, "; ", text);
			break;
		case 'M': {
			char *name = strtok(text, "\t"), *val = strtok(NULL, "\t"), *unit = strtok(NULL, "\t");
			if (!name || !val)
				break;
			r->m = realloc(r->m, (r->n_m + 1) * sizeof(*r->m));
			r->m[r->n_m].name = strdup(name);
			r->m[r->n_m].value = strtod(val, NULL);
			r->m[r->n_m++].unit = strdup(unit ? unit : "");
			break;
		}
		case 'P': {
			char *series = strtok(text, "\t"), *x = strtok(NULL, "\t"), *y = strtok(NULL, "\t");
			if (!series || !x || !y)
				break;
			r->p = realloc(r->p, (r->n_p + 1) * sizeof(*r->p));
			r->p[r->n_p].series = strdup(series);
			r->p[r->n_p].x = strtod(x, NULL);
			r->p[r->n_p++].y = strtod(y, NULL);
			break;
		}
		case 'A':
			r->artifacts = realloc(r->artifacts, (r->n_art + 1) * sizeof(*r->artifacts));
			r->artifacts[r->n_art++] = strdup(text);
			break;
		case 'T':
			start = strtod(text, NULL);
			break;
		case 'K':
			if (sscanf(text, "%d %lf", kpid, kstart) != 2)
				*kpid = 0, *kstart = 0;
			break;
		}
	}
	return start;
}

static struct result *new_result(struct result_set *rs, const struct instance *in)
{
	struct result *r = results_add(rs);
	r->name = strdup(in->name);
	r->suite = in->suite->name;
	r->rule = in->def->rule;
	r->summary = in->def->summary;
	if (in->ctrl) {
		r->ctrl_id = in->ctrl->q.id;
		snprintf(r->ctrl_name, sizeof(r->ctrl_name), "%.31s", in->ctrl->q.name);
	}
	return r;
}

static void print_result(const struct result *r)
{
	static const char *const tag[] = { "PASS", "FAIL", "WARN", "SKIP" };
	printf("  %s %s [%s]%s%s\n", tag[r->verdict], r->name, r->rule ? r->rule : "-",
	       r->message ? ": " : "", r->message ? r->message : "");
}

/* Checks that stream, start threads or processes of their own (a failed
 * assertion in a thread cannot end a check that shares its process) run
 * in a process of their own each; the rest share one (run_batch.h). */
static bool own_process(const struct check_def *d)
{
	return g_opts.isolate || d->needs_stream || d->own_process;
}

/* Run the instances [first, end) of one check definition. */
static void run_def(struct result_set *rs, size_t first, size_t end)
{
	const struct check_def *d = inst[first].def;
	size_t n_run = 0, before = rs->n;
	double t0 = now_s();
	/* A control found hung by an earlier check: its checks are skipped. */
	for (size_t i = first; i < end; i++)
		if (!inst[i].why && inst[i].ctrl_id && hang_find(inst[i].ctrl_id))
			inst[i].why = run_hang_skip_reason(inst[i].ctrl_id);
	for (size_t i = first; i < end; i++)
		n_run += !inst[i].why;
	/* The verdict of each instance that runs, in the order they run. */
	struct outcome *out = calloc(n_run + 1, sizeof(*out));
	unsigned int timeout = d->timeout_s ? d->timeout_s : g_opts.timeout_s;
	if (n_run) {
		int *idx = calloc(n_run, sizeof(*idx));
		const char **names = calloc(n_run, sizeof(*names));
		size_t k = 0;
		for (size_t i = first; i < end; i++)
			if (!inst[i].why) {
				idx[k] = (int)i;
				names[k++] = inst[i].name;
			}
		struct batch b = { idx, names, n_run, instance_fn, timeout, own_process(d), hang_timed_out };
		g_timeout_now = timeout;
		batch_run(&b, out);
		free(idx);
		free(names);
	}
	int k = 0;
	double t_end = now_s(), *start = calloc(end - first + 1, sizeof(double));
	double *kstart = calloc(end - first + 1, sizeof(double));
	int *kpid = calloc(end - first + 1, sizeof(int));
	for (size_t i = first; i < end; i++) {
		struct result *r = new_result(rs, &inst[i]);
		if (inst[i].why) {
			r->verdict = VERDICT_SKIP;
			r->message = strdup(inst[i].why);
			continue;
		}
		struct outcome *o = &out[k++];
		switch (o->rtype) {
		case CK_PASS:
			r->verdict = VERDICT_PASS;
			break;
		case CK_FAILURE:
			r->verdict = VERDICT_FAIL;
			r->message = strdup(o->msg ? o->msg : "");
			break;
		case CK_ERROR:
			r->verdict = VERDICT_FAIL;
			r->message = xstrcat(strdup("error: "), "", o->msg);
			break;
		default:
			r->verdict = VERDICT_FAIL;
			r->message = strdup("no result from Check (runner error)");
			break;
		}
		free(o->msg);
		start[i - first] = read_record((int)i, r, &kpid[i - first], &kstart[i - first]);
	}
	/* Each check lasted until the next one started (fork and restore
	 * included); the last one until the def ended. */
	for (size_t i = first, j = before; i < end; i++, j++) {
		if (!start[i - first])
			continue;
		double next = t_end;
		for (size_t n = i + 1; n < end; n++)
			if (start[n - first]) {
				next = start[n - first];
				break;
			}
		rs->r[j].duration_s = next - start[i - first];
	}
	/* Hook (kmsg_judge.c): an Oops, BUG, hung task or a driver's WARNING
	 * fails the check it was logged in; the other messages go to klog. */
	char klog[4096];
	int klines = kjudge_apply(kmsg_fd, &rs->r[before], kpid, kstart, end - first, klog, sizeof(klog));
	if (reclog_dropped())
		fprintf(stderr, "v4l2-conform: %s: %zu record lines lost (the record log is full)\n", d->name,
			reclog_dropped());
	free(kpid);
	free(kstart);
	free(start);
	free(out);

	size_t c[4] = { 0 };
	for (size_t i = before; i < rs->n; i++)
		c[rs->r[i].verdict]++;
	printf("%-34s %4zu checks: %zu pass, %zu fail, %zu warn, %zu skip (%.1f s)\n", d->name,
	       rs->n - before, c[0], c[1], c[2], c[3], now_s() - t0);
	for (size_t i = before; i < rs->n; i++)
		if (g_opts.verbose || rs->r[i].verdict == VERDICT_FAIL || rs->r[i].verdict == VERDICT_WARN)
			print_result(&rs->r[i]);
	/* Kernel warnings while these checks ran: shown and kept with them. */
	if (klines) {
		static const struct check_def kdef = { "kernel", "-",
			"the kernel logged no warning while the checks ran", CHECK_PER_DEVICE };
		static const struct suite_def ksuite = { "kernel", "kernel log", &kdef, 1 };
		struct instance ki = { .suite = &ksuite, .def = &kdef };
		char name[300];
		snprintf(name, sizeof(name), "kernel/%s", d->name);
		ki.name = name;
		struct result *r = new_result(rs, &ki);
		r->verdict = VERDICT_WARN;
		for (char *l = strtok(klog, "\n"); l; l = strtok(NULL, "\n"))
			r->message = xstrcat(r->message, " | ", l);
		print_result(r);
	}
	fflush(stdout);
}

/* The controls found hung before any check ran (the model, the snapshot):
 * one failure each, first in the results (run_hang.c). */
static void add_hang_failure(const char *name, const struct ctrl *c, const char *msg, void *arg)
{
	static const struct check_def hdef = { "run/hang", "-",
		"every control ioctl returns (a sleep until killed costs one timeout)", CHECK_PER_CONTROL };
	static const struct suite_def hsuite = { "run", "run", &hdef, 1 };
	struct instance hi = { .name = (char *)name, .suite = &hsuite, .def = &hdef, .ctrl = c };
	struct result *r = new_result(arg, &hi);
	r->verdict = VERDICT_FAIL;
	r->message = strdup(msg);
	print_result(r);
}

/* ---------- a wedged device (wedge.c) ---------- */

static bool wedged;

/* After a definition: if the device stopped answering, one run/device-wedged
 * failure and every instance from `next` on recorded as skipped. */
static bool wedge_end_run(struct result_set *rs, size_t next)
{
	char msg[800];
	if (!wedge_detected(msg, sizeof(msg)))
		return false;
	static const struct check_def wdef = { "run/device-wedged", "-",
		"the device answers after a check timed out", CHECK_PER_DEVICE };
	static const struct suite_def wsuite = { "run", "run", &wdef, 1 };
	struct instance wi = { .name = "run/device-wedged", .suite = &wsuite, .def = &wdef };
	struct result *r = new_result(rs, &wi);
	r->verdict = VERDICT_FAIL;
	r->message = strdup(msg);
	print_result(r);
	for (size_t k = next; k < n_inst; k++) {
		r = new_result(rs, &inst[k]);
		r->verdict = VERDICT_SKIP;
		r->message = xstrcat(strdup("not run: "), "", msg);
	}
	wedged = true;
	return true;
}

/* ---------- listing, options, main ---------- */

/* One --list line: name, rule id, summary, and the documentation line the
 * rule comes from (spec/coverage.tsv), last so that readers of the first two
 * columns are unaffected. */
static void print_listed(const char *name, int width, const char *rule, const char *summary)
{
	const char *doc = docref_of(rule);
	printf("%-*s %-7s %s%s%s%s\n", width, name, rule, summary, doc ? "  [doc " : "", doc ? doc : "", doc ? "]" : "");
}

static void list_templates(void)
{
	for (size_t s = 0; s < n_all_suites; s++) {
		const struct suite_def *su = all_suites[s];
		for (size_t i = 0; i < su->n_checks; i++) {
			const struct check_def *d = &su->checks[i];
			const char *suffix = d->scope == CHECK_PER_CONTROL ? "/<control>"
					   : d->scope == CHECK_PER_ITEM ? "/<item>" : "";
			char name[256];
			snprintf(name, sizeof(name), "%s%s", d->name, suffix);
			if (selected(d->name) || selected(name))
				print_listed(name, 44, d->rule, d->summary);
		}
	}
}

static void run_info(struct run_info *ri, const char *started, double dur)
{
	static struct utsname u;
	static char kernel[200];
	uname(&u);
	snprintf(kernel, sizeof(kernel), "%s %s %s", u.sysname, u.release, u.machine);
	ri->device = g_opts.device;
	ri->driver = (const char *)g_dev.cap.driver;
	ri->card = (const char *)g_dev.cap.card;
	ri->bus_info = (const char *)g_dev.cap.bus_info;
	ri->driver_version = g_dev.cap.version;
	ri->device_caps = g_dev.caps;
	ri->node_kind = dev_kind_name(&g_dev);
	ri->kernel = kernel;
	static char book[16];
	ri->rule_book = rb_ver_str(rb_running()->book, book, sizeof(book));
	ri->suite_version = V4L2C_VERSION;
	ri->started = started;
	ri->host = u.nodename;
	ri->duration_s = dur;
}

int runner_main(int argc, char **argv)
{
	char err[512];
	int untestable = 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	run_parse_args(argc, argv);
	if (g_opts.bisect)
		untestable = 125;
	if (g_opts.list && !g_opts.device) {
		list_templates();
		return 0;
	}
	if (g_opts.media && g_opts.device)
		run_die_usage("-d and -m: give one node or one media graph");
	if (g_opts.media && !g_opts.list)
		return media_run_main(argc, argv, g_opts.media);
	if (!g_opts.device)
		run_die_usage("no device given: use -d /dev/videoN (or --list; see --help)");
	/* A malformed profile is bad input: one line, exit 2, before any device work. */
	profile_load_or_exit(g_opts.profile);
	if (dev_open(&g_dev, g_opts.device, g_opts.libv4l2, err, sizeof(err))) {
		fprintf(stderr, "v4l2-conform: %s\n", err);
		return untestable;
	}
	/* One run per device, from before the model is read (another run may be
	 * changing the controls) until this process and its checks are gone. */
	if (!g_opts.list && devlock_acquire(g_opts.device, g_opts.wait, NULL, err, sizeof(err)) < 0) {
		fprintf(stderr, "v4l2-conform: %s\n", err);
		return untestable;
	}
	/* The runner's own device work is bounded: a control whose query
	 * sleeps until killed costs one timeout here, not the run (hang.h). */
	hang_init();
	hang_bound(g_opts.timeout_s);
	hang_set_where("while building the control model");
	if (model_build(&g_dev, &g_model, err, sizeof(err))) {
		fprintf(stderr, "v4l2-conform: %s: %s\n", g_opts.device, err);
		return untestable;
	}
	if (g_opts.restore)	/* hook: journal.c */
		return journal_restore_main(&g_dev, &g_model, g_opts.device);
	hang_learn_model(&g_model);
	/* The rule book that judges this kernel, before the checks are
	 * expanded (enum/newer-constant's items depend on it). */
	{
		struct utsname u;
		rb_set_running(uname(&u) ? "" : u.release);
	}
	hang_set_where("while preparing the checks");
	mark_excluded();
	g_missing = run_needs_missing(&g_dev, &g_model);
	run_pipe_find(&g_dev);	/* a sensor sub-device: the capture nodes it reaches */
	for (size_t s = 0; s < n_all_suites; s++)
		for (size_t i = 0; i < all_suites[s]->n_checks; i++)
			expand(all_suites[s], &all_suites[s]->checks[i]);
	if (g_opts.list) {
		for (size_t i = 0; i < n_inst; i++)
			print_listed(inst[i].name, 52, inst[i].def->rule,
				     inst[i].why ? inst[i].why : inst[i].def->summary);
		return 0;
	}
	if (!n_inst) {
		fprintf(stderr, "v4l2-conform: no check matches --only on %s\n", g_opts.device);
		return untestable;
	}
	/* Before the snapshot: picking the sentinel changes a control and puts
	 * it back. Only when a check that proves "no event" will run. */
	for (size_t i = 0; i < n_inst; i++)
		if (!inst[i].why && (inst[i].def->needs & NEEDS_EVENTS)) {
			g_model.quiet_sentinel = ev_pick_sentinel(&g_dev, &g_model);
			const struct ctrl *sc = model_find(&g_model, g_model.quiet_sentinel);
			printf("events: 'no event' is proved by %s\n",
			       sc ? sc->q.name : "a timed wait (no control qualifies as the sentinel)");
			break;
		}
	if (mkdir(g_opts.out_dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "v4l2-conform: cannot create %s: %s\n", g_opts.out_dir, strerror(errno));
		return 2;
	}
	/* The run's scratch files (the probes' node latency and noise) go to
	 * local temporary storage, not to an output dir that may be a slow
	 * network share (the virtual board's 9p, a lab's NFS). */
	const char *tmp = getenv("TMPDIR");
	snprintf(rec_dir, sizeof(rec_dir), "%s/v4l2-conform.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(rec_dir)) {
		snprintf(rec_dir, sizeof(rec_dir), "%s/.records", g_opts.out_dir);
		mkdir(rec_dir, 0755);
	}
	g_opts.scratch_dir = rec_dir;
	char artifacts[1024];
	snprintf(artifacts, sizeof(artifacts), "%s/artifacts", g_opts.out_dir);
	mkdir(artifacts, 0755);
	verdict_bind_artifacts(artifacts);
	verdict_bind_end(batch_end_check);	/* v_skip() ends the check the batch way */
	verdict_bind_sink(rec_sink);
	if (reclog_init()) {
		fprintf(stderr, "v4l2-conform: cannot map the record log: %s\n", strerror(errno));
		return 2;
	}

	char started[64];
	time_t t = time(NULL);
	strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	double t0 = now_s();
	bool had_journal;	/* hooks: journal.c */
	journal_recover(&g_dev, &g_model, g_opts.device, &had_journal);
	snapshot_on_moved = note_moved;
	snapshot_take(&g_dev, &g_model, &g_snap);
	journal_save(g_opts.device, g_opts.out_dir, &g_model, &g_snap);
	wedge_init();	/* hook: wedge.c */
	kmsg_fd = kmsg_open();
	hang_bound(0);
	/* The runner holds no handle while checks run: 'every handle closed'
	 * must really mean every handle (persist/reopen). */
	dev_close(&g_dev);
	char banner[200];
	rb_banner(rb_running(), banner, sizeof(banner));
	printf("v4l2-conform %s: %s (%s, %s), %zu controls, %zu checks; %s\n", V4L2C_VERSION, g_opts.device,
	       (const char *)g_dev.cap.driver, (const char *)g_dev.cap.card, g_model.n, n_inst, banner);

	struct result_set rs = { 0 };
	struct run_info ri;
	char json[1024];
	snprintf(json, sizeof(json), "%s/results.json", g_opts.out_dir);
	const struct suite_def *cur = NULL;
	double last_write = 0;
	run_hang_failures(&g_model, add_hang_failure, &rs);
	for (size_t i = 0; i < n_inst;) {
		size_t j = i;
		while (j < n_inst && inst[j].def == inst[i].def)
			j++;
		if (inst[i].suite != cur) {
			cur = inst[i].suite;
			printf("== %s: %s\n", cur->name, cur->title);
		}
		run_def(&rs, i, j);
		/* Partial results survive a runner killed by a board timeout;
		 * rewriting the whole file after every check family would cost
		 * more than the quick families themselves on a network share. */
		if (now_s() - last_write > 2.0) {
			run_info(&ri, started, now_s() - t0);
			results_write_json(json, &rs, &ri);
			last_write = now_s();
		}
		i = j;
		if (wedge_end_run(&rs, i))	/* hook: wedge.c */
			break;
	}
	batch_finish();
	/* The last check has no next check to find the device wedged: ask now,
	 * before the restore opens it (a wedged device would hang the runner). */
	const pid_t *stuck;
	size_t n_stuck = batch_abandoned(&stuck);
	if (!wedged && wedge_after_run(g_opts.device, n_stuck > 0))	/* hook: wedge.c */
		wedge_end_run(&rs, n_inst);
	if (n_stuck) {
		printf("note: %zu test process(es) did not end after SIGKILL (asleep in the kernel) and were left behind:",
		       n_stuck);
		for (size_t k = 0; k < n_stuck && k < 64; k++)
			printf(" %d", (int)stuck[k]);
		printf("\n");
	}
	if (wedged) {
		run_info(&ri, started, now_s() - t0);
		results_write_json(json, &rs, &ri);
		printf("summary: the device stopped answering; run/restore skipped (the journal stays: "
		       "v4l2-conform --restore -d %s once it answers); results in %s\n", g_opts.device, json);
		return 1;
	}

	/* Leave the device as it was found. */
	char report[2048];
	run_pipe_streams(&rs, print_result);	/* SD-6, MC-3, SD-8, SD-9 */
	const struct result *pr = run_pipe_restored(&rs);	/* SD-7 */
	if (pr)
		print_result(pr);
	struct instance restore_inst = { .name = "run/restore" };
	static const struct check_def restore_def = { "run/restore", "PE-1",
		"every control is back to its value from before the run", CHECK_PER_DEVICE, 0, 0, 0, 0, 0 };
	static const struct suite_def run_suite = { "run", "run", &restore_def, 1 };
	restore_inst.def = &restore_def;
	restore_inst.suite = &run_suite;
	struct result *r = new_result(&rs, &restore_inst);
	/* A hung control is not restored: the restore would hang on it too. */
	model_drop_hung(&g_model, &g_snap);
	hang_bound(g_opts.timeout_s);
	hang_set_where("while restoring the controls");
	if (dev_open(&g_dev, g_opts.device, g_opts.libv4l2, err, sizeof(err))) {
		/* The device went away (a camera unplugged): every verdict so
		 * far still goes to results.json, with restore failing. */
		fprintf(stderr, "v4l2-conform: cannot reopen %s to restore it: %s\n", g_opts.device, err);
		char msg[700];
		snprintf(msg, sizeof(msg), "expected the device back to restore its controls, got: %s", err);
		r->verdict = VERDICT_FAIL;
		r->message = strdup(msg);
		print_result(r);
		run_info(&ri, started, now_s() - t0);
		if (results_write_json(json, &rs, &ri))
			fprintf(stderr, "v4l2-conform: cannot write %s: %s\n", json, strerror(errno));
		probe_node_clear(rec_dir);
		rmdir(rec_dir);
		return 1;
	}
	int left = snapshot_restore(&g_dev, &g_model, &g_snap, report, sizeof(report));
	r->verdict = left ? VERDICT_FAIL : VERDICT_PASS;
	if (!left)	/* hook: journal.c */
		journal_done(g_opts.device, g_opts.out_dir);
	if (left) {
		char msg[2300];
		snprintf(msg, sizeof(msg), "expected every control restored, got %d still changed: %s", left, report);
		r->message = strdup(msg);
	}
	print_result(r);

	size_t c[4];
	results_counts(&rs, c);
	run_info(&ri, started, now_s() - t0);
	if (results_write_json(json, &rs, &ri))
		fprintf(stderr, "v4l2-conform: cannot write %s: %s\n", json, strerror(errno));
	probe_node_clear(rec_dir);
	rmdir(rec_dir);
	printf("summary: %zu checks: %zu pass, %zu fail, %zu warn, %zu skip in %.1f s; %s; results in %s\n", rs.n,
	       c[VERDICT_PASS], c[VERDICT_FAIL], c[VERDICT_WARN], c[VERDICT_SKIP], now_s() - t0, banner, json);
	snapshot_free(&g_snap);
	dev_close(&g_dev);
	return c[VERDICT_FAIL] ? 1 : 0;
}
