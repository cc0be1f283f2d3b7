/* The options of the run, as the command line set them (lib/run/runner.c
 * parses them). Here, below the runner, because checks read them too: the
 * probes load the board profile it names. */
#ifndef V4L2C_RUN_OPTS_H
#define V4L2C_RUN_OPTS_H
#include <stdbool.h>

struct run_opts {
	const char *device;
	const char *media;		/* -m: every interface node of this media graph */
	const char *out_dir;
	/* The run's own directory on local storage, made fresh for each run and
	 * emptied at its end: what checks (each in a process of its own) keep
	 * for the checks after them (lib/image/probe_node.h). NULL: none. */
	const char *scratch_dir;
	const char *profile;		/* board profile (probes), NULL: none */
	char **only;			/* globs; NULL-terminated; NULL: everything */
	char **exclude_ctrls;		/* control slugs never to touch (a vivid 'Disconnect' button) */
	bool libv4l2;
	bool verbose;
	bool list;
	bool bisect;			/* 125 instead of 2 when the device cannot be tested */
	bool isolate;			/* every check in a process of its own */
	bool wait;			/* --wait: wait while another run holds the device lock */
	bool restore;			/* --restore: restore from an interrupted run's journal, then exit */
	unsigned int timeout_s;
};
extern struct run_opts g_opts;
#endif
