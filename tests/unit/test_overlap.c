/* Host unit tests: the concurrency checks' evidence (lib/check/overlap.c):
 * which ioctls count as overlapping, each in-flight ioctl counted once, and
 * when a run ends (goal, fault, cap). The interleavings are scripted, so the
 * counts are exact; one case runs two real threads and one two processes,
 * each with a handshake that forces the overlap. */
#include <check.h>
#include "unit.h"
#include <pthread.h>
#include <semaphore.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check/overlap.h"

static struct ovl_board b;
static const struct ovl_goal goal = { .overlapped = 3, .min_ops = 10, .cap_s = 5 };

/* The negative case: ioctls one after the other never overlap, however many
 * there are, and such a run reaches its cap inconclusive, never enough. */
START_TEST(test_one_after_the_other_never_overlaps)
{
	ovl_init(&b);
	int w = ovl_join(&b, OVL_WRITER, 0), r = ovl_join(&b, OVL_READER, OVL_WRITER);
	for (int i = 0; i < 1000; i++) {
		ovl_begin(&b, w);
		ovl_end(&b, w);
		ovl_begin(&b, r);
		ovl_end(&b, r);
	}
	struct ovl_count c = ovl_read(&b);
	ck_assert_uint_eq(c.ops, 2000);
	ck_assert_uint_eq(c.pairs, 0);
	ck_assert_uint_eq(c.overlapped, 0);
	ck_assert_int_eq(ovl_decide(&goal, &c, 1.0), OVL_RUNNING);
	ck_assert_int_eq(ovl_decide(&goal, &c, 5.0), OVL_INCONCLUSIVE);
}
END_TEST

/* A read that starts while a write is in flight is a pair; a second read
 * during the same write is another pair but not another overlapped write. */
START_TEST(test_read_during_write_counts_once_per_write)
{
	ovl_init(&b);
	int w = ovl_join(&b, OVL_WRITER, 0), r = ovl_join(&b, OVL_READER, OVL_WRITER);
	ovl_begin(&b, w);
	for (int i = 0; i < 2; i++) {
		ovl_begin(&b, r);
		ovl_end(&b, r);
	}
	ovl_end(&b, w);
	struct ovl_count c = ovl_read(&b);
	ck_assert_uint_eq(c.pairs, 2);
	ck_assert_uint_eq(c.overlapped, 1);
	/* The next write is a new ioctl: overlapped again. */
	ovl_begin(&b, w);
	ovl_begin(&b, r);
	ovl_end(&b, r);
	ovl_end(&b, w);
	c = ovl_read(&b);
	ck_assert_uint_eq(c.pairs, 3);
	ck_assert_uint_eq(c.overlapped, 2);
}
END_TEST

/* Only the watched roles count: a write that starts during a read, or a
 * read during another read, is no evidence for a reader-watches-writer run;
 * a read still in flight from before a write began is not a read that
 * started during the write either. */
START_TEST(test_only_watched_roles_count)
{
	ovl_init(&b);
	int w = ovl_join(&b, OVL_WRITER, 0), r1 = ovl_join(&b, OVL_READER, OVL_WRITER),
	    r2 = ovl_join(&b, OVL_READER, OVL_WRITER);
	ovl_begin(&b, r1);
	ovl_begin(&b, r2);	/* read during read */
	ovl_begin(&b, w);	/* write during reads: the writer watches nothing */
	ovl_end(&b, w);
	ovl_end(&b, r2);
	ovl_end(&b, r1);
	struct ovl_count c = ovl_read(&b);
	ck_assert_uint_eq(c.pairs, 0);
	ck_assert_uint_eq(c.overlapped, 0);
	/* Watching every role, the same order counts. */
	ovl_init(&b);
	w = ovl_join(&b, OVL_WRITER, OVL_ANY);
	r1 = ovl_join(&b, OVL_READER, OVL_ANY);
	ovl_begin(&b, r1);
	ovl_begin(&b, w);
	ovl_end(&b, w);
	ovl_end(&b, r1);
	c = ovl_read(&b);
	ck_assert_uint_eq(c.pairs, 1);
	ck_assert_uint_eq(c.overlapped, 1);
}
END_TEST

/* A fault ends the run whatever the counts; the goal needs both its
 * overlaps and its ioctls; the cap decides only what the goal did not. */
START_TEST(test_decide)
{
	struct ovl_count c = { .ops = 100, .overlapped = 3 };
	ck_assert_int_eq(ovl_decide(&goal, &c, 0.1), OVL_ENOUGH);
	ck_assert_int_eq(ovl_decide(&goal, &c, 99), OVL_ENOUGH);
	c.problems = 1;
	ck_assert_int_eq(ovl_decide(&goal, &c, 0.1), OVL_FOUND);
	c = (struct ovl_count){ .ops = 9, .overlapped = 50 };
	ck_assert_int_eq(ovl_decide(&goal, &c, 0.1), OVL_RUNNING);
	ck_assert_int_eq(ovl_decide(&goal, &c, 5.1), OVL_INCONCLUSIVE);
	c = (struct ovl_count){ .ops = 1000000, .pairs = 1000000, .overlapped = 2 };
	ck_assert_int_eq(ovl_decide(&goal, &c, 4.9), OVL_RUNNING);
	ck_assert_int_eq(ovl_decide(&goal, &c, 5.0), OVL_INCONCLUSIVE);
}
END_TEST

START_TEST(test_describe)
{
	struct ovl_count c = { .ops = 40211, .pairs = 2208, .overlapped = 31 };
	char s[200];
	ovl_describe(&c, 0.4249, "S_EXT_CTRLS", "G_EXT_CTRLS", s, sizeof(s));
	ck_assert_str_eq(s, "31 S_EXT_CTRLS overlapped by G_EXT_CTRLS (2208 pairs), 40211 ioctls in 0.42 s");
}
END_TEST

/* Two real threads: the writer holds its "ioctl" open until the reader has
 * done one; then the judge's watch ends the run as enough. */
static sem_t in_flight, read_done;
static int wr, rd;

static void *writer(void *arg)
{
	ovl_begin(&b, wr);
	sem_post(&in_flight);
	sem_wait(&read_done);
	ovl_end(&b, wr);
	while (!ovl_stopped(&b))
		usleep(100);
	return NULL;
}

START_TEST(test_threads_and_watch)
{
	ovl_init(&b);
	wr = ovl_join(&b, OVL_WRITER, 0);
	rd = ovl_join(&b, OVL_READER, OVL_WRITER);
	sem_init(&in_flight, 0, 0);
	sem_init(&read_done, 0, 0);
	pthread_t t;
	ck_assert_int_eq(pthread_create(&t, NULL, writer, NULL), 0);
	sem_wait(&in_flight);
	ovl_begin(&b, rd);
	ovl_end(&b, rd);
	sem_post(&read_done);
	const struct ovl_goal g = { .overlapped = 1, .min_ops = 2, .cap_s = 30 };
	double el = -1;
	ck_assert_int_eq(ovl_watch(&b, &g, &el), OVL_ENOUGH);
	ck_assert(el >= 0 && el < 30);
	pthread_join(t, NULL);
	ck_assert_uint_eq(ovl_read(&b).overlapped, 1);
	/* Nothing overlaps after: the watch reaches a short cap. */
	ovl_init(&b);
	const struct ovl_goal g2 = { .overlapped = 1, .min_ops = 0, .cap_s = 0.05 };
	ck_assert_int_eq(ovl_watch(&b, &g2, &el), OVL_INCONCLUSIVE);
	ck_assert(el >= 0.05);
	ck_assert(ovl_stopped(&b));
}
END_TEST

/* In MAP_SHARED memory the board works between processes (conc/processes). */
START_TEST(test_processes)
{
	struct ovl_board *sb = mmap(NULL, sizeof(*sb), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert(sb != MAP_FAILED);
	ovl_init(sb);
	int w = ovl_join(sb, OVL_WRITER, 0), r = ovl_join(sb, OVL_READER, OVL_WRITER);
	ovl_begin(sb, w);
	pid_t p = fork();
	if (p == 0) {
		ovl_begin(sb, r);
		ovl_end(sb, r);
		ovl_problem(sb);
		_exit(0);
	}
	int st;
	waitpid(p, &st, 0);
	ovl_end(sb, w);
	struct ovl_count c = ovl_read(sb);
	ck_assert_uint_eq(c.overlapped, 1);
	ck_assert_int_eq(ovl_decide(&goal, &c, 0), OVL_FOUND);
	munmap(sb, sizeof(*sb));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("overlap");
	TCase *tc = tcase_create("overlap");
	tcase_add_test(tc, test_one_after_the_other_never_overlaps);
	tcase_add_test(tc, test_read_during_write_counts_once_per_write);
	tcase_add_test(tc, test_only_watched_roles_count);
	tcase_add_test(tc, test_decide);
	tcase_add_test(tc, test_describe);
	tcase_add_test(tc, test_threads_and_watch);
	tcase_add_test(tc, test_processes);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
