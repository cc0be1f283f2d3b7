/* v4l2-conform: the one entry point, on the device itself (the virtual
 * board, a lab board, a laptop). Everything is in lib/run/runner.c. */
#include "run/runner.h"

int main(int argc, char **argv)
{
	return runner_main(argc, argv);
}
