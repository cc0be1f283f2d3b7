/* Host unit tests: what the probes keep per node and run
 * (lib/image/probe_node.c). A kept noise set is handed only to a probe whose
 * first frame is that set's picture (another scene or frame size measures
 * its own); the first latency kept stays; nothing is kept without a scratch
 * directory, and the runner's clear removes every kept file. */
#include <check.h>
#include "unit.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/run_opts.h"
#include "image/probe_node.h"

static void flat(struct frame *f, unsigned w, unsigned h, uint8_t y)
{
	ck_assert_int_eq(frame_alloc(f, w, h), 0);
	frame_fill(f, y, 128, 128);
	f->has_chroma = true;
}

static char dir[64];

static void scratch(void)
{
	snprintf(dir, sizeof(dir), "/tmp/test_probe_node.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	g_opts.scratch_dir = dir;
}

START_TEST(test_noise_per_scene)
{
	struct frame set[PROBE_NOISE_FRAMES] = { 0 }, got[PROBE_NOISE_FRAMES] = { 0 }, f = { 0 };
	const struct roi r = { 0, 0, 32, 16 };
	scratch();
	for (int i = 0; i < PROBE_NOISE_FRAMES; i++)
		flat(&set[i], 32, 16, (uint8_t)(100 + (i & 1)));	/* a code of noise */
	flat(&f, 32, 16, 100);
	ck_assert(!probe_node_noise(&f, &r, got));
	probe_node_keep_noise(set);
	ck_assert(probe_node_noise(&f, &r, got));
	ck_assert_int_eq(got[1].y[0], 101);
	/* 0.5 + 4 x the mean difference over Y, Cb, Cr samples (4:2:0: 2/3 luma) */
	ck_assert_double_eq_tol(probe_node_tol_diff(got, &r), 0.5 + 4 * 2.0 / 3, 1e-9);
	/* another picture, another size: not this set */
	flat(&f, 32, 16, 120);
	ck_assert(!probe_node_noise(&f, &r, got));
	flat(&f, 64, 16, 100);
	ck_assert(!probe_node_noise(&f, &r, got));
	/* a second scene is kept beside the first */
	for (int i = 0; i < PROBE_NOISE_FRAMES; i++)
		flat(&set[i], 32, 16, 30);
	probe_node_keep_noise(set);
	flat(&f, 32, 16, 30);
	ck_assert(probe_node_noise(&f, &r, got));
	flat(&f, 32, 16, 101);
	ck_assert(probe_node_noise(&f, &r, got));
	probe_node_clear(dir);
	ck_assert(!probe_node_noise(&f, &r, got));
	ck_assert_int_eq(rmdir(dir), 0);	/* nothing left behind */
	for (int i = 0; i < PROBE_NOISE_FRAMES; i++) {
		frame_free(&set[i]);
		frame_free(&got[i]);
	}
	frame_free(&f);
}
END_TEST

START_TEST(test_latency)
{
	scratch();
	ck_assert_int_eq(probe_node_latency(), -1);
	probe_node_keep_latency(2);
	probe_node_keep_latency(5);	/* the first kept stays */
	ck_assert_int_eq(probe_node_latency(), 2);
	probe_node_clear(dir);
	ck_assert_int_eq(probe_node_latency(), -1);
	ck_assert_int_eq(rmdir(dir), 0);
	/* no scratch directory: nothing kept */
	g_opts.scratch_dir = NULL;
	probe_node_keep_latency(1);
	ck_assert_int_eq(probe_node_latency(), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("probe_node");
	TCase *tc = tcase_create("probe_node");
	tcase_add_test(tc, test_noise_per_scene);
	tcase_add_test(tc, test_latency);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
