/* Shared by the host unit tests: run one suite, exit status for make. */
#ifndef V4L2C_UNIT_H
#define V4L2C_UNIT_H
#include <check.h>
int unit_run(Suite *s);
#endif
