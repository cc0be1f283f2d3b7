/* The command line: --help, the options into g_opts (lib/check/run_opts.h),
 * and the one-line, exit-2 answer to bad usage. Moved out of runner.c,
 * which runs what these options ask for. */
#include "run/run_args.h"
#include "check/run_opts.h"
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef V4L2C_VERSION
#define V4L2C_VERSION "unknown"
#endif

void run_die_usage(const char *fmt, ...)
{
	va_list ap;
	fputs("v4l2-conform: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: v4l2-conform -d /dev/videoN [options]\n"
		"       v4l2-conform --list [-d /dev/videoN]\n"
		"Checks the V4L2 control interface of a device; each check cites its spec rule.\n"
		"  -d, --device PATH    device node to test\n"
		"  -m, --media PATH     every interface node of this media graph (/dev/mediaN), one\n"
		"                       results directory each, named by its entity (docs/subdev.md)\n"
		"  -o, --out DIR        where results.json and artifacts go (default %s)\n"
		"  -l, --list           list the checks (templates without -d, instances with it)\n"
		"  -O, --only GLOB      run only checks whose name matches (repeatable, comma-separated)\n"
		"  -p, --profile FILE   board profile (region of interest, scene set-up, known no-effect controls)\n"
		"  -t, --timeout SEC    per-check timeout (default %u)\n"
		"  -x, --exclude-control SLUG  never write this control (a destructive button such as\n"
		"                       vivid's 'disconnect'); repeatable, comma-separated\n"
		"      --libv4l2        go through libv4l2 (format conversion) instead of raw ioctls\n"
		"      --bisect         exit 125 instead of 2 when the device cannot be tested\n"
		"      --isolate        every check in a process of its own (slower; by default checks\n"
		"                       that leave nothing behind share one)\n"
		"      --wait           wait while another run holds the device (default: exit 2)\n"
		"      --restore        put back the controls an interrupted run left changed (its journal)\n"
		"  -v, --verbose        print every verdict, not only failures and warnings\n"
		"  -V, --version        print the suite version\n"
		"Exit status: 0 all checks passed (warnings and skips allowed), 1 a check failed,\n"
		"2 bad usage or an unusable device (125 with --bisect).\n",
		g_opts.out_dir, g_opts.timeout_s);
}

/* Append the comma-separated words of arg to a NULL-terminated list. */
static void add_words(char ***list, const char *arg)
{
	size_t n = 0;
	while (*list && (*list)[n])
		n++;
	char *copy = strdup(arg), *save = NULL;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		*list = realloc(*list, (n + 2) * sizeof(char *));
		(*list)[n++] = strdup(t);
		(*list)[n] = NULL;
	}
	free(copy);
}

void run_parse_args(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "device", required_argument, 0, 'd' }, { "media", required_argument, 0, 'm' }, { "out", required_argument, 0, 'o' },
		{ "list", no_argument, 0, 'l' }, { "only", required_argument, 0, 'O' },
		{ "profile", required_argument, 0, 'p' }, { "timeout", required_argument, 0, 't' },
		{ "libv4l2", no_argument, 0, 1 }, { "isolate", no_argument, 0, 3 }, { "exclude-control", required_argument, 0, 'x' },
		{ "bisect", no_argument, 0, 2 }, { "wait", no_argument, 0, 4 }, { "restore", no_argument, 0, 5 },
		{ "verbose", no_argument, 0, 'v' }, { "version", no_argument, 0, 'V' },
		{ "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
	int o;
	opterr = 0;
	while ((o = getopt_long(argc, argv, ":d:m:o:lO:p:t:x:vVh", lo, NULL)) != -1) {
		switch (o) {
		case 'd': g_opts.device = optarg; break;
		case 'm': g_opts.media = optarg; break;
		case 'o': g_opts.out_dir = optarg; break;
		case 'l': g_opts.list = true; break;
		case 'O': add_words(&g_opts.only, optarg); break;
		case 'x': add_words(&g_opts.exclude_ctrls, optarg); break;
		case 'p': g_opts.profile = optarg; break;
		case 't': {
			char *end;
			long t = strtol(optarg, &end, 10);
			if (*end || t <= 0 || t > 3600)
				run_die_usage("--timeout: '%s' is not a number of seconds (1-3600)", optarg);
			g_opts.timeout_s = (unsigned)t;
			break;
		}
		case 1: g_opts.libv4l2 = true; break;
		case 2: g_opts.bisect = true; break;
		case 3: g_opts.isolate = true; break;
		case 4: g_opts.wait = true; break;
		case 5: g_opts.restore = true; break;
		case 'v': g_opts.verbose = true; break;
		case 'V': printf("v4l2-conform %s\n", V4L2C_VERSION); exit(0);
		case 'h': usage(stdout); exit(0);
		case ':': run_die_usage("option '%s' needs an argument (see --help)", argv[optind - 1]);
		default:
			run_die_usage("unknown option '%s' (see --help)", argv[optind - 1]);
		}
	}
	if (optind < argc)
		run_die_usage("unexpected argument '%s' (see --help)", argv[optind]);
}
