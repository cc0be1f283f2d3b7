/* Host unit tests: which kernel reports fail a check (lib/run/kmsg_judge.c), on
 * logs in the form Debian's 6.1 kernel writes them. */
#include <check.h>
#include "unit.h"
#include <string.h>

#include "run/kmsg_judge.h"

static struct kreport rep[8];

static size_t judge(const char *const *lines, size_t n)
{
	struct kmsg_rec r[64];
	for (size_t i = 0; i < n; i++)
		r[i] = (struct kmsg_rec){ .level = 4, .t = 10.0 + (double)i, .text = lines[i] };
	return kjudge_reports(r, n, rep, 8);
}

#define JUDGE(a) judge(a, sizeof(a) / sizeof(a[0]))

START_TEST(test_null_dereference_is_fatal)
{
	static const char *const log[] = {
		"BUG: kernel NULL pointer dereference, address: 0000000000000000",
		"#PF: supervisor read access in kernel mode",
		"Oops: 0000 [#1] PREEMPT SMP NOPTI",
		"CPU: 0 PID: 311 Comm: v4l2-conform Tainted: G           OE      6.1.0-57-amd64 #1  Debian 6.1.192-3",
		"RIP: 0010:fx_g_ctrl+0x2a/0x90 [v4l2c_fixture]",
		"Call Trace:",
		" <TASK>",
		" __video_do_ioctl+0x1c1/0x430 [videodev]",
		" video_usercopy+0x1a3/0x6f0 [videodev]",
		" </TASK>",
	};
	ck_assert_uint_eq(JUDGE(log), 1);
	ck_assert(rep[0].fatal);
	ck_assert_str_eq(rep[0].summary, "BUG: kernel NULL pointer dereference, address: 0000000000000000 "
			 "in fx_g_ctrl [v4l2c_fixture]");
	ck_assert_uint_eq(rep[0].end, 10);
}
END_TEST

START_TEST(test_driver_warning_is_fatal_other_warning_is_not)
{
	static const char *const log[] = {
		"WARNING: CPU: 0 PID: 320 at /work/fx_ctrl_ioctl.c:210 fx_s_ctrl+0x95/0xe0 [v4l2c_fixture]",
		"Modules linked in: v4l2c_fixture(OE) videobuf2_vmalloc",
		"RIP: 0010:fx_s_ctrl+0x95/0xe0 [v4l2c_fixture]",
		"Call Trace:",
		" <TASK>",
		" __video_do_ioctl+0x1c1/0x430 [videodev]",
		" </TASK>",
		"---[ end trace 0000000000000000 ]---",
		"WARNING: CPU: 1 PID: 12 at kernel/workqueue.c:1448 __queue_work+0x3a1/0x410",
		"RIP: 0010:__queue_work+0x3a1/0x410",
		"Call Trace:",
		" <TASK>",
		" queue_work_on+0x20/0x30",
		" </TASK>",
	};
	ck_assert_uint_eq(JUDGE(log), 2);
	ck_assert(rep[0].fatal);
	ck_assert_msg(strstr(rep[0].summary, " in fx_s_ctrl [v4l2c_fixture]"), "%s", rep[0].summary);
	ck_assert_uint_eq(rep[0].end, 8);
	ck_assert(!rep[1].fatal);
	ck_assert_uint_eq(rep[1].first, 8);
}
END_TEST

START_TEST(test_hung_task_names_the_sleeper)
{
	static const char *const log[] = {
		"INFO: task v4l2-conform:402 blocked for more than 10 seconds.",
		"      Tainted: G           OE      6.1.0-57-amd64 #1 Debian 6.1.192-3",
		"\"echo 0 > /proc/sys/kernel/hung_task_timeout_secs\" disables this message.",
		"task:v4l2-conform    state:D stack:0     pid:402   ppid:401    flags:0x00004002",
		"Call Trace:",
		" <TASK>",
		" __schedule+0x34d/0x9e0",
		" schedule+0x5a/0xd0",
		" schedule_timeout+0x118/0x150",
		" ? __bpf_trace_tick_stop+0x10/0x10",
		" msleep+0x29/0x40",
		" fx_s_ctrl+0x51/0xe0 [v4l2c_fixture]",
		" __video_do_ioctl+0x1c1/0x430 [videodev]",
		" </TASK>",
	};
	ck_assert_uint_eq(JUDGE(log), 1);
	ck_assert(rep[0].fatal);
	ck_assert_msg(strstr(rep[0].summary, "blocked for more than 10 seconds. in fx_s_ctrl [v4l2c_fixture]"), "%s",
		      rep[0].summary);
}
END_TEST

/* vivid's timing complaint under TCG: a stack dump, but no report header. */
START_TEST(test_plain_stack_dump_is_not_a_report)
{
	static const char *const log[] = {
		"schedule_timeout: wrong timeout value fffffffffffffffe",
		"CPU: 0 PID: 98 Comm: vivid-000-vid-c Not tainted 6.1.0-57-amd64 #1  Debian 6.1.192-3",
		"Call Trace:",
		" <TASK>",
		" dump_stack_lvl+0x44/0x5c",
		" vivid_thread_vid_cap+0x16f/0x2f0 [vivid]",
		" </TASK>",
	};
	ck_assert_uint_eq(JUDGE(log), 0);
}
END_TEST

START_TEST(test_kasan_is_fatal)
{
	static const char *const log[] = {
		"BUG: KASAN: slab-out-of-bounds in fx_payload_from_user+0x1d/0x80 [v4l2c_fixture]",
		"Read of size 4 at addr ffff888003a1c0c0 by task v4l2-conform/350",
		"Call Trace:",
		" <TASK>",
		" dump_stack_lvl+0x44/0x5c",
		" kasan_report+0xb9/0xf0",
		" fx_payload_from_user+0x1d/0x80 [v4l2c_fixture]",
		" </TASK>",
	};
	ck_assert_uint_eq(JUDGE(log), 1);
	ck_assert(rep[0].fatal);
	ck_assert_msg(strstr(rep[0].summary, "BUG: KASAN: slab-out-of-bounds"), "%s", rep[0].summary);
}
END_TEST

/* Debian 6.1 on the board (bug=g-ctrl-null-deref): after the end of the
 * trace the registers come again, then the killed task's exit note; none of
 * it is a kernel warning of its own. */
START_TEST(test_oops_register_dump_after_the_trace)
{
	static const char *const log[] = {
		"BUG: kernel NULL pointer dereference, address: 0000000000000060",
		"Oops: 0000 [#1] PREEMPT SMP NOPTI",
		"CPU: 0 PID: 141 Comm: v4l2-conform Tainted: G           OE      6.1.0-57-amd64 #1  Debian 6.1.192-3",
		"RIP: 0010:fx_wedge_g_ctrl.cold+0xf/0x3dd [v4l2c_fixture]",
		"Call Trace:",
		" <TASK>",
		" fx_g_ctrl+0xbc/0x100 [v4l2c_fixture]",
		" </TASK>",
		"Modules linked in: v4l2c_fixture(OE) videodev mc",
		"CR2: 0000000000000060",
		"---[ end trace 0000000000000000 ]---",
		"RIP: 0010:fx_wedge_g_ctrl.cold+0xf/0x3dd [v4l2c_fixture]",
		"Code: 95 c3 c9 48 c7 c7 80 60 3e c0 <48> 8b 43 60 5b c3",
		"RSP: 0018:ff5ec270005b3a40 EFLAGS: 00000246",
		"RAX: 000000000000004f RBX: 0000000000000000 RCX: c0000000ffffefff",
		"FS:  000000001e7bb3c0(0000) GS:ff2dc1c17e200000(0000) knlGS:0000000000000000",
		"CR2: 0000000000000060 CR3: 00000000026c4000 CR4: 0000000000751ef0",
		"PKRU: 55555554",
		"note: v4l2-conform[141] exited with irqs disabled",
		"v4l2c-fixture: an unrelated line",
	};
	ck_assert_uint_eq(JUDGE(log), 1);
	ck_assert(rep[0].fatal && rep[0].kills);
	ck_assert_uint_eq(rep[0].end, 19);
	ck_assert_msg(strstr(rep[0].summary, "in fx_wedge_g_ctrl.cold [v4l2c_fixture]"), "%s", rep[0].summary);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kmsg_judge");
	TCase *tc = tcase_create("reports");
	tcase_add_test(tc, test_null_dereference_is_fatal);
	tcase_add_test(tc, test_driver_warning_is_fatal_other_warning_is_not);
	tcase_add_test(tc, test_hung_task_names_the_sleeper);
	tcase_add_test(tc, test_plain_stack_dump_is_not_a_report);
	tcase_add_test(tc, test_kasan_is_fatal);
	tcase_add_test(tc, test_oops_register_dump_after_the_trace);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
