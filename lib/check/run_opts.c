/* The run's options and their defaults (check/run_opts.h). */
#include "check/run_opts.h"

struct run_opts g_opts = { .out_dir = "v4l2-conform-out", .timeout_s = 30 };
