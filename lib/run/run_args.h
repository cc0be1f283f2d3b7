/* The command line of v4l2-conform (lib/run/run_args.c). */
#ifndef V4L2C_RUN_ARGS_H
#define V4L2C_RUN_ARGS_H

/* Fill g_opts from argv; --help and --version print and exit 0, bad usage
 * exits 2 with one line naming the problem. */
void run_parse_args(int argc, char **argv);

/* "v4l2-conform: <message>" on stderr and exit 2. */
void run_die_usage(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

#endif
