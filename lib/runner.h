/* The command-line runner: options, expanding suites into check instances,
 * running them under Check (one forked process per instance), collecting
 * verdicts into results.json. */
#ifndef V4L2C_RUNNER_H
#define V4L2C_RUNNER_H
#include <stdbool.h>
#include "registry.h"

struct run_opts {
	const char *device;
	const char *out_dir;
	const char *profile;		/* board profile (probes), NULL: none */
	char **only;			/* globs; NULL-terminated; NULL: everything */
	char **exclude_ctrls;		/* control slugs never to touch (a vivid 'Disconnect' button) */
	bool libv4l2;
	bool verbose;
	bool list;
	bool bisect;			/* 125 instead of 2 when the device cannot be tested */
	bool isolate;			/* every check in a process of its own */
	unsigned int timeout_s;
};
extern struct run_opts g_opts;

int runner_main(int argc, char **argv);
/* In a test process: the record file and artifact folder of the running instance. */
const char *runner_record_path(void);
const char *runner_artifact_dir(void);
/* enum check_needs bits the driver lacks (found before the checks run), for
 * a check that uses a feature for only part of what it verifies. */
unsigned int runner_missing_features(void);
#endif
