/* Suites and checks. A suite is a table of check definitions; at start-up
 * every definition is expanded into instances, one per applicable control
 * (or per item, or once per device), each with a stable name such as
 * "getset/out-of-range/brightness". Applicability is decided here, before
 * Check runs anything: Check has no SKIP, so what does not apply is either
 * silently absent (wrong type) or recorded as 'skip' with a reason. */
#ifndef V4L2C_REGISTRY_H
#define V4L2C_REGISTRY_H
#include <stddef.h>
#include <stdbool.h>
#include "ctrl/ctrl_model.h"

struct pipe_route;
struct check_ctx {
	const struct dev *dev;		/* this test's own file handle, opened in the test process */
	/* Frames from another node: a sensor sub-device's control judged on a
	 * capture node its source pad reaches (dev/pipeline.h; NULL: dev). */
	const struct pipe_route *route;
	const struct ctrl *ctrl;	/* the control under test, NULL for device-level checks */
	const struct ctrl_model *model;
	long item;			/* CHECK_PER_ITEM: the item index */
	const char *name;		/* instance name */
};
typedef void (*check_fn)(const struct check_ctx *cx);

enum check_scope { CHECK_PER_CONTROL, CHECK_PER_DEVICE, CHECK_PER_ITEM };

/* Driver features a check depends on. Where the driver lacks one (the ioctl
 * gives ENOTTY) its checks are recorded as 'skip' with the reason, and the
 * one check that requires the feature (ext/count-zero, events/supported)
 * fails once: one failure that names the cause, not a wall of them. */
enum check_needs {
	NEEDS_EXT = 1 << 0,	/* G/S/TRY_EXT_CTRLS */
	NEEDS_EVENTS = 1 << 1,	/* SUBSCRIBE_EVENT / DQEVENT for V4L2_EVENT_CTRL */
	/* The node has control ioctls at all. A node without a control
	 * handler (most SoC capture nodes, vimc's) gives ENOTTY for every one
	 * of them (spec NC-1): the checks of how a handler answers do not
	 * apply, nor do extended controls or control events. */
	NEEDS_CTRLS = 1 << 2,
	/* A video, VBI, radio, SDR, touch or metadata node, not a sub-device
	 * node: priorities, inputs (spec SD-3). Streaming is needs_stream. */
	NEEDS_VIDEO_NODE = 1 << 3,
	/* A sub-device node: what it shares with the other nodes of its media
	 * graph (spec SD-2). On any other node the check is absent, as a
	 * check of a control type the device lacks is. */
	NEEDS_SUBDEV_NODE = 1 << 4,
};

/* Applicability of a per-control check. Return true to run it. Return false
 * with *why left NULL when the check has no meaning for the control (wrong
 * type); with *why set, the pair is reported as 'skip' with that reason. */
typedef bool (*applies_fn)(const struct ctrl *c, const struct ctrl_model *m, const char **why);
/* CHECK_PER_ITEM: describe item i (its name suffix into slug); false past the end. */
typedef bool (*item_fn)(const struct ctrl_model *m, long i, char *slug, size_t len);

struct check_def {
	const char *name;		/* "getset/out-of-range" */
	const char *rule;		/* spec rule id, "SC-6" */
	const char *summary;		/* one line: what must hold */
	enum check_scope scope;
	check_fn fn;
	applies_fn applies;		/* CHECK_PER_CONTROL (NULL: every control) */
	item_fn items;			/* CHECK_PER_ITEM */
	unsigned int timeout_s;		/* 0: the run's default */
	bool needs_stream;		/* streams frames: needs a capture node */
	unsigned int needs;		/* enum check_needs bits */
	bool own_process;		/* starts threads or processes: never shares a test process */
	/* CHECK_PER_CONTROL: also on DISABLED controls. The documentation tells
	 * applications to ignore a DISABLED control (FL-1), so the other
	 * checks leave it out; these are the ones about how it is reported
	 * and refused (enumeration, flags/disabled-*). */
	bool on_disabled;
};

struct suite_def {
	const char *name;		/* "getset" */
	const char *title;		/* "G_CTRL / S_CTRL" */
	const struct check_def *checks;
	size_t n_checks;
};
#define SUITE(var, nm, ttl, tbl) \
	const struct suite_def var = { nm, ttl, tbl, sizeof(tbl) / sizeof((tbl)[0]) }

/* The suites compiled into the binary (suites/suites.c). */
extern const struct suite_def *const all_suites[];
extern const size_t n_all_suites;
#endif
