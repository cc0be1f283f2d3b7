/* The command-line runner: parsing options (into check/run_opts.h), expanding suites into check instances,
 * running them under Check (one forked process per instance), collecting
 * verdicts into results.json. */
#ifndef V4L2C_RUNNER_H
#define V4L2C_RUNNER_H
#include <stdbool.h>
#include "check/registry.h"
#include "check/run_opts.h"


int runner_main(int argc, char **argv);
/* enum check_needs bits the driver lacks (found before the checks run), for
 * a check that uses a feature for only part of what it verifies. */
unsigned int runner_missing_features(void);
#endif
