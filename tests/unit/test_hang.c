/* Host unit tests: a hang costs a bounded number of verdicts (lib/dev/hang.c,
 * lib/ctrl/ctrl_hang.c): which controls a call names, which NEXT queries
 * reach a hung control, what a check process refuses, the model without
 * the hung control, and the skip reason's class. */
#include <check.h>
#include "unit.h"
#include <linux/videodev2.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "check/skip_class.h"
#include "ctrl/ctrl_hang.h"
#include "dev/hang.h"
#include "run/run_batch.h"
#include <stdlib.h>
#include <unistd.h>

#define BRIGHTNESS V4L2_CID_BRIGHTNESS		/* 0x00980900 */
#define NEXT V4L2_CTRL_FLAG_NEXT_CTRL
#define COMPOUND V4L2_CTRL_FLAG_NEXT_COMPOUND

START_TEST(test_call_names_its_controls)
{
	struct hang_call c;
	struct v4l2_queryctrl q = { .id = BRIGHTNESS };
	ck_assert(hang_call_of(VIDIOC_QUERYCTRL, &q, &c));
	ck_assert_uint_eq(c.n, 1);
	ck_assert_uint_eq(c.next, 0);
	ck_assert_uint_eq(c.id[0], BRIGHTNESS);
	q.id = V4L2_CID_USER_CLASS | NEXT;
	ck_assert(hang_call_of(VIDIOC_QUERYCTRL, &q, &c));
	ck_assert_uint_eq(c.next, NEXT);
	ck_assert_uint_eq(c.id[0], V4L2_CID_USER_CLASS);
	struct v4l2_control g = { .id = V4L2_CID_GAIN };
	ck_assert(hang_call_of(VIDIOC_G_CTRL, &g, &c));
	ck_assert_uint_eq(c.id[0], V4L2_CID_GAIN);
	/* Not a control call. */
	ck_assert(!hang_call_of(VIDIOC_STREAMON, &g, &c));
	ck_assert(!hang_call_of(VIDIOC_QUERYCTRL, NULL, &c));
}
END_TEST

/* EX-3's checks pass NULL and bad arrays on purpose: counted, never read. */
START_TEST(test_ext_call_with_a_bad_pointer)
{
	struct hang_call c;
	struct v4l2_ext_control ec[2] = { { .id = BRIGHTNESS }, { .id = V4L2_CID_CONTRAST } };
	struct v4l2_ext_controls x = { .which = V4L2_CTRL_WHICH_CUR_VAL, .count = 2, .controls = ec };
	ck_assert(hang_call_of(VIDIOC_G_EXT_CTRLS, &x, &c));
	ck_assert_uint_eq(c.n, 2);
	ck_assert_uint_eq(c.id[1], V4L2_CID_CONTRAST);
	x.controls = NULL;
	x.count = 1024;
	ck_assert(hang_call_of(VIDIOC_S_EXT_CTRLS, &x, &c));
	ck_assert_uint_eq(c.n, 1024);
	ck_assert_uint_eq(c.id[0], 0);
	x.controls = (struct v4l2_ext_control *)(uintptr_t)0x10;
	x.count = 3;
	ck_assert(hang_call_of(VIDIOC_TRY_EXT_CTRLS, &x, &c));
	ck_assert_uint_eq(c.id[0], 0);
	char buf[160];
	x.controls = ec;
	x.count = 2;
	hang_call_of(VIDIOC_G_EXT_CTRLS, &x, &c);
	ck_assert_str_eq(hang_call_what(&c, buf, sizeof(buf)), "VIDIOC_G_EXT_CTRLS of 0x00980900, 0x00980901");
}
END_TEST

/* Brightness after the user class control (plain), an area control
 * (compound) at 0x009a0901 before a plain one at 0x009a0902. */
static struct hang hung(uint32_t id, bool compound, uint32_t prev_plain, uint32_t prev_compound)
{
	struct hang h = { .req = VIDIOC_QUERYCTRL, .id = id, .compound = compound, .order_known = true,
			  .prev_plain = prev_plain, .prev_compound = prev_compound };
	return h;
}

START_TEST(test_next_queries_that_reach_it)
{
	struct hang h = hung(BRIGHTNESS, false, V4L2_CID_USER_CLASS, 0);
	ck_assert(hang_reaches(&h, BRIGHTNESS, 0));
	ck_assert(!hang_reaches(&h, V4L2_CID_CONTRAST, 0));
	ck_assert(hang_reaches(&h, V4L2_CID_USER_CLASS, NEXT));
	ck_assert(hang_reaches(&h, V4L2_CID_USER_CLASS + 5, NEXT | COMPOUND));
	ck_assert(!hang_reaches(&h, 0, NEXT));		/* the class control comes first */
	ck_assert(!hang_reaches(&h, BRIGHTNESS, NEXT));	/* from itself: the next one */
	ck_assert(!hang_reaches(&h, V4L2_CID_USER_CLASS, COMPOUND));	/* only compound ones */
	/* A plain control after a compound one: NEXT_CTRL alone skips the
	 * compound one, both flags stop at it. */
	struct hang p = hung(0x009a0902, false, 0x009a0001, 0x009a0901);
	ck_assert(hang_reaches(&p, 0x009a0001, NEXT));
	ck_assert(!hang_reaches(&p, 0x009a0001, NEXT | COMPOUND));
	ck_assert(hang_reaches(&p, 0x009a0901, NEXT | COMPOUND));
	struct hang a = hung(0x009a0901, true, 0x009a0001, 0);
	ck_assert(hang_reaches(&a, 0x00980900, COMPOUND));
	ck_assert(!hang_reaches(&a, 0x009a0001, NEXT));
	/* Before the model knows the order nothing but the exact id. */
	h.order_known = false;
	ck_assert(!hang_reaches(&h, V4L2_CID_USER_CLASS, NEXT));
}
END_TEST

static jmp_buf refused_at;
static char refused_call[160];
static void refuse(const struct hang *h, const char *call)
{
	(void)h;
	snprintf(refused_call, sizeof(refused_call), "%s", call);
	longjmp(refused_at, 1);
}

START_TEST(test_what_is_refused)
{
	hang_reset();
	struct hang *h = hang_add(VIDIOC_QUERYCTRL, BRIGHTNESS, 30, "while building the control model");
	*h = hung(BRIGHTNESS, false, V4L2_CID_USER_CLASS, 0);
	h->secs = 30;
	struct v4l2_query_ext_ctrl qe = { .id = BRIGHTNESS };
	struct v4l2_queryctrl q = { .id = V4L2_CID_USER_CLASS | NEXT };
	struct v4l2_control g = { .id = V4L2_CID_CONTRAST };
	/* The runner: only the ioctl that hung (the model still asks
	 * QUERY_EXT_CTRL for the name). */
	ck_assert_int_eq(hang_before(VIDIOC_QUERY_EXT_CTRL, &qe), 0);
	ck_assert_int_eq(hang_before(VIDIOC_QUERYCTRL, &q), DEV_EHUNG);
	ck_assert_int_eq(hang_before(VIDIOC_G_CTRL, &g), 0);
	/* wedge's probe: NEXT_CTRL from 0 reaches the class control first; with
	 * the hung control first it starts past it. */
	ck_assert_uint_eq(hang_probe_start(), 0);
	h->prev_plain = 0;
	ck_assert_uint_eq(hang_probe_start(), BRIGHTNESS);
	h->prev_plain = V4L2_CID_USER_CLASS;
	/* A check process: the ioctl that hung ends the check, by id or by a
	 * NEXT query that reaches it; the control's other ioctls are asked. */
	hang_strict(refuse);
	ck_assert(hang_in_check());
	if (!setjmp(refused_at)) {
		hang_before(VIDIOC_QUERYCTRL, &q);
		ck_abort_msg("QUERYCTRL reaching a hung control was not refused");
	}
	ck_assert_str_eq(refused_call, "VIDIOC_QUERYCTRL with NEXT_CTRL after 0x00980001");
	ck_assert_int_eq(hang_before(VIDIOC_QUERY_EXT_CTRL, &qe), 0);
	ck_assert_int_eq(hang_before(VIDIOC_G_CTRL, &g), 0);
	hang_strict(NULL);
	ck_assert(!hang_in_check());
	hang_reset();
}
END_TEST

START_TEST(test_reason_is_class_hang)
{
	char buf[300];
	struct hang h = hung(BRIGHTNESS, false, 0, 0);
	h.secs = 30;
	snprintf(h.name, sizeof(h.name), "Brightness");
	snprintf(h.where, sizeof(h.where), "in enum/query/brightness");
	ck_assert_str_eq(hang_reason(&h, buf, sizeof(buf)),
			 "VIDIOC_QUERYCTRL of 0x00980900 'Brightness' hangs (did not return in 30 s, in enum/query/brightness)");
	ck_assert_int_eq(skip_class_of(buf), SKIP_HANG);
	/* A NEXT query nobody could resolve is named by where it started. */
	struct hang u = { .req = VIDIOC_QUERY_EXT_CTRL, .from = 0x00980001, .next = NEXT };
	ck_assert_str_eq(hang_what(&u, buf, sizeof(buf)), "VIDIOC_QUERY_EXT_CTRL with NEXT_CTRL after 0x00980001");
}
END_TEST

static struct ctrl mk(uint32_t id, uint32_t type, const char *name)
{
	struct ctrl c;
	memset(&c, 0, sizeof(c));
	c.q.id = id;
	c.q.type = type;
	c.q.elems = 1;
	snprintf(c.q.name, sizeof(c.q.name), "%s", name);
	return c;
}

START_TEST(test_model_learns_and_drops)
{
	struct ctrl cs[] = { mk(V4L2_CID_USER_CLASS, V4L2_CTRL_TYPE_CTRL_CLASS, "User Controls"),
			     mk(BRIGHTNESS, V4L2_CTRL_TYPE_INTEGER, "Brightness"),
			     mk(V4L2_CID_CONTRAST, V4L2_CTRL_TYPE_INTEGER, "Contrast"),
			     mk(0x009a0901, V4L2_CTRL_TYPE_AREA, "Area"),
			     mk(0x009a0902, V4L2_CTRL_TYPE_INTEGER, "Plain") };
	struct ctrl_model m = { .c = cs, .n = 5, .quiet_sentinel = BRIGHTNESS };
	ck_assert_uint_eq(model_next_id(&m, V4L2_CID_USER_CLASS, NEXT), BRIGHTNESS);
	ck_assert_uint_eq(model_next_id(&m, V4L2_CID_CONTRAST, NEXT), 0x009a0902);
	ck_assert_uint_eq(model_next_id(&m, V4L2_CID_CONTRAST, NEXT | COMPOUND), 0x009a0901);
	ck_assert_uint_eq(model_next_id(&m, 0x009a0902, NEXT), 0);

	hang_reset();
	hang_add(VIDIOC_QUERYCTRL, BRIGHTNESS, 30, "while building the control model");
	hang_add(VIDIOC_G_CTRL, 0x009a0902, 30, "in getset/get-in-range/plain");
	hang_learn_model(&m);
	const struct hang *b = hang_find(BRIGHTNESS), *p = hang_find(0x009a0902);
	ck_assert_str_eq(b->name, "Brightness");
	ck_assert(b->order_known && !b->compound);
	ck_assert_uint_eq(b->prev_plain, V4L2_CID_USER_CLASS);
	ck_assert_uint_eq(p->prev_plain, V4L2_CID_CONTRAST);
	ck_assert_uint_eq(p->prev_compound, 0x009a0901);

	struct ctrl_val v[5] = { { .v = 1 }, { .v = 2 }, { .v = 3 }, { .v = 4 }, { .v = 5 } };
	bool saved[5] = { false, true, true, false, true };
	struct snapshot s = { .val = v, .saved = saved, .n = 5 };
	struct snapshot only = { .val = v, .saved = saved, .n = 5 };
	/* The model stays; the snapshot forgets the control whose G_CTRL hung,
	 * not the one whose QUERYCTRL did (its value is still put back). */
	snapshot_drop_hung(&m, &only);
	ck_assert(saved[1] && saved[2] && !saved[4]);
	ck_assert_uint_eq(m.n, 5);
	ck_assert(!hang_blocks_values(BRIGHTNESS));
	ck_assert(hang_blocks_values(0x009a0902));

	model_drop_hung(&m, &s);
	ck_assert_uint_eq(m.n, 3);
	ck_assert_uint_eq(m.n_hidden, 2);
	ck_assert_uint_eq(s.n, 5);	/* indexed like the whole array */
	ck_assert_uint_eq(m.c[1].q.id, V4L2_CID_CONTRAST);
	ck_assert_int_eq(s.val[1].v, 3);
	ck_assert(s.saved[1]);
	ck_assert_uint_eq(m.c[2].q.id, 0x009a0901);
	ck_assert_int_eq(s.val[2].v, 4);
	ck_assert_uint_eq(m.c[3].q.id, BRIGHTNESS);
	ck_assert_int_eq(s.val[3].v, 2);
	ck_assert(s.saved[3]);
	ck_assert(!s.saved[4]);
	ck_assert_int_eq(m.quiet_sentinel, 0);
	/* Out of the loops, still known: not an id the device lacks. */
	ck_assert_ptr_nonnull(model_find(&m, BRIGHTNESS));
	model_drop_hung(&m, &s);	/* again: nothing moves */
	ck_assert_uint_eq(m.n, 3);
	ck_assert_uint_eq(m.c[2].q.id, 0x009a0901);
	ck_assert_uint_eq(m.c[4].q.id, 0x009a0902);
	hang_reset();
}
END_TEST

/* Across processes (run_batch): a check blocked in G_CTRL of Brightness
 * times out; the runner's on_timeout reads the call from the shared page,
 * fails the check naming it and records the control; the next check, in a
 * fresh process, is refused that call instead of waiting for it. */
static char seen[256];
static void refuse_note(const struct hang *h, const char *call)
{
	FILE *f = fopen(seen, "a");
	fprintf(f, "refused %s\n", call);
	fclose(f);
	batch_end_check();
}

static void three_checks(int i)
{
	struct v4l2_control g = { .id = BRIGHTNESS };
	if (i == 1) {
		hang_ioctl_begin(VIDIOC_G_CTRL, &g);	/* and the driver never answers */
		pause();
	}
	if (i == 2) {
		hang_strict(refuse_note);
		hang_before(VIDIOC_G_CTRL, &g);
		ck_abort_msg("not refused");
	}
}

static int on_timeout(int idx, char *msg, size_t len)
{
	struct hang_call c;
	char what[160];
	if (!hang_take_call(&c))
		return CK_ERROR;
	hang_add(c.req, c.id[0], 1, "in check 1");
	snprintf(msg, len, "%s did not return in 1 s (check %d)", hang_call_what(&c, what, sizeof(what)), idx);
	return CK_FAILURE;
}

START_TEST(test_timeout_names_the_call_and_the_next_check_is_refused)
{
	char dir[] = "/tmp/v4l2c-hang-XXXXXX";
	ck_assert(mkdtemp(dir));
	snprintf(seen, sizeof(seen), "%s/seen", dir);
	hang_init();
	int idx[3] = { 0, 1, 2 };
	const char *names[3] = { "a", "b", "c" };
	struct outcome out[3] = { { 0 } };
	struct batch b = { idx, names, 3, three_checks, 1, false, on_timeout };
	batch_run(&b, out);
	ck_assert_int_eq(out[0].rtype, CK_PASS);
	ck_assert_int_eq(out[1].rtype, CK_FAILURE);
	ck_assert_str_eq(out[1].msg, "VIDIOC_G_CTRL of 0x00980900 did not return in 1 s (check 1)");
	ck_assert_msg(out[2].rtype == CK_PASS, "%s", out[2].msg ? out[2].msg : "");
	FILE *f = fopen(seen, "r");
	char line[200] = "";
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	fclose(f);
	ck_assert_str_eq(line, "refused VIDIOC_G_CTRL of 0x00980900\n");
	ck_assert_uint_eq(hang_count(), 1);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	hang_reset();
}
END_TEST

/* A call naming several controls did not return: each is asked alone, in
 * order, until one does not return; it is pinned only while the device
 * still answers another control (hang_pin). */
static uint32_t sleeper;
static bool all_sleep;
static size_t n_tried;
static uint32_t tried[16];

static int alone(uint32_t id, void *arg)
{
	(void)arg;
	tried[n_tried++] = id;
	if (!all_sleep && id != sleeper)
		return 0;
	hang_add(VIDIOC_TRY_EXT_CTRLS, id, 5, "in ext/set-all, asked alone");	/* as hang_ioctl_end does */
	return DEV_EHUNG;
}

START_TEST(test_pin_a_call_of_several_controls)
{
	struct hang_call c = { .req = VIDIOC_TRY_EXT_CTRLS, .n = 4,
			       .id = { BRIGHTNESS, V4L2_CID_CONTRAST, V4L2_CID_SATURATION, V4L2_CID_HUE } };
	hang_reset();
	sleeper = V4L2_CID_CONTRAST, all_sleep = false, n_tried = 0;
	ck_assert_int_eq(hang_pin(&c, alone, NULL), 1);
	/* Brightness answered, Contrast did not, Saturation proved the device
	 * still answers; Hue was never asked. */
	ck_assert_uint_eq(n_tried, 3);
	ck_assert_uint_eq(tried[2], V4L2_CID_SATURATION);
	ck_assert_uint_eq(hang_count(), 1);
	ck_assert_uint_eq(hang_find(V4L2_CID_CONTRAST)->req, VIDIOC_TRY_EXT_CTRLS);
	/* The last one: the one before it is asked again. */
	hang_reset();
	sleeper = V4L2_CID_HUE, n_tried = 0;
	ck_assert_int_eq(hang_pin(&c, alone, NULL), 3);
	ck_assert_uint_eq(tried[4], V4L2_CID_SATURATION);
	/* None hangs alone: nothing pinned. */
	hang_reset();
	sleeper = 0, n_tried = 0;
	ck_assert_int_eq(hang_pin(&c, alone, NULL), -1);
	ck_assert_uint_eq(n_tried, 4);
	ck_assert_uint_eq(hang_count(), 0);
	/* Every call hangs: the device, not one control; two waits, and the
	 * registry forgets what the tries added. */
	all_sleep = true, n_tried = 0;
	ck_assert_int_eq(hang_pin(&c, alone, NULL), -1);
	ck_assert_uint_eq(n_tried, 2);
	ck_assert_uint_eq(hang_count(), 0);
	/* A call of many controls notes them all (HANG_IDS), names the first. */
	struct v4l2_ext_control ec[20];
	memset(ec, 0, sizeof(ec));
	for (int i = 0; i < 20; i++)
		ec[i].id = BRIGHTNESS + (uint32_t)i;
	struct v4l2_ext_controls x = { .which = V4L2_CTRL_WHICH_CUR_VAL, .count = 20, .controls = ec };
	struct hang_call many;
	ck_assert(hang_call_of(VIDIOC_TRY_EXT_CTRLS, &x, &many));
	ck_assert_uint_eq(many.id[19], BRIGHTNESS + 19);
	char buf[300];
	ck_assert(strstr(hang_call_what(&many, buf, sizeof(buf)), "0x00980907 (and 12 more)"));
	hang_reset();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hang");
	TCase *tc = tcase_create("hang");
	tcase_add_test(tc, test_call_names_its_controls);
	tcase_add_test(tc, test_ext_call_with_a_bad_pointer);
	tcase_add_test(tc, test_next_queries_that_reach_it);
	tcase_add_test(tc, test_what_is_refused);
	tcase_add_test(tc, test_reason_is_class_hang);
	tcase_add_test(tc, test_model_learns_and_drops);
	tcase_add_test(tc, test_timeout_names_the_call_and_the_next_check_is_refused);
	tcase_add_test(tc, test_pin_a_call_of_several_controls);
	tcase_set_timeout(tc, 20);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
