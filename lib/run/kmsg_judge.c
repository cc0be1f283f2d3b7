/* Kernel messages to verdicts (see kmsg_judge.h). */
#include "run/kmsg_judge.h"
#include "run/kmsg.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum kind { K_NONE, K_FATAL, K_WARNING, K_END };

static bool starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

static enum kind kind_of(const char *t)
{
	if (starts(t, "BUG:") || starts(t, "kernel BUG at") || starts(t, "Oops") ||
	    starts(t, "general protection fault") || starts(t, "KASAN:") ||
	    (starts(t, "INFO: task ") && strstr(t, " blocked for more than ")))
		return K_FATAL;
	if (starts(t, "WARNING:"))
		return K_WARNING;
	if (strstr(t, "---[ end trace") || starts(t, "</TASK>"))
		return K_END;
	return K_NONE;
}

/* After an Oops' "---[ end trace ]---" x86 dumps the registers again, and
 * the exit of the killed task may add a note: still that report. */
static bool oops_tail(const char *t)
{
	static const char *const p[] = { "RIP: ", "Code: ", "RSP: ", "RAX: ", "RDX: ", "RBP: ", "R10: ", "R13: ",
					 "FS: ", "CS: ", "CR2: ", "PKRU: " };
	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		if (starts(t, p[i]))
			return true;
	return starts(t, "note: ") && strstr(t, " exited with ");
}

/* A frame of a call trace, "  ? func+0x1a/0x50 [module]": the function
 * (with its module), or NULL. */
static bool frame_func(const char *t, char *out, size_t len)
{
	while (*t == ' ' || *t == '?')
		t++;
	if (starts(t, "RIP: ")) {	/* "RIP: 0010:fx_s_ctrl+0x12/0x50 [v4l2c_fixture]" */
		const char *c = strchr(t + 5, ':');
		if (c)
			t = c + 1;
	}
	size_t n = strcspn(t, "+ ");
	if (!n || t[n] != '+' || !strstr(t + n, "/0x"))
		return false;
	const char *mod = strchr(t + n, '[');
	snprintf(out, len, "%.*s%s%.*s", (int)n, t, mod ? " " : "", mod ? (int)strcspn(mod, "\n") : 0, mod ? mod : "");
	return true;
}

/* Scheduler and sleep frames: a hung task's culprit is the first frame
 * below them. */
static bool sleep_frame(const char *f)
{
	static const char *const s[] = { "__schedule", "schedule", "schedule_timeout", "schedule_preempt_disabled",
					 "io_schedule", "msleep", "usleep_range_state", "__mutex_lock", "mutex_lock",
					 "__down", "down", "wait_for_completion", "__wait_for_common", "rwsem_down" };
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		if (!strncmp(f, s[i], strlen(s[i])) && (f[strlen(s[i])] == 0 || f[strlen(s[i])] == ' ' ||
							f[strlen(s[i])] == '.'))
			return true;
	return false;
}

/* A driver module ("[vivid]") or the V4L2 core in a frame. */
static bool media_frame(const char *f)
{
	return strchr(f, '[') || starts(f, "v4l2_") || starts(f, "vb2_") || starts(f, "video_") ||
	       starts(f, "__video_do_ioctl") || starts(f, "v4l_");
}

size_t kjudge_reports(const struct kmsg_rec *r, size_t n, struct kreport *out, size_t max)
{
	size_t k = 0;
	for (size_t i = 0; i < n && k < max; i++) {
		enum kind kd = kind_of(r[i].text);
		if (kd != K_FATAL && kd != K_WARNING)
			continue;
		struct kreport *rep = &out[k++];
		memset(rep, 0, sizeof(*rep));
		rep->first = i;
		rep->kills = starts(r[i].text, "Oops") || starts(r[i].text, "general protection fault") ||
			     starts(r[i].text, "kernel BUG at");
		rep->t = r[i].t;
		char func[160] = "", culprit[160] = "", f[160];
		bool media = false, hung = starts(r[i].text, "INFO: task ");
		/* "WARNING: CPU: 0 PID: 9 at drivers/media/x.c:10 fx_g_ctrl+0x1/0x2 [mod]" names its function. */
		const char *at = kd == K_WARNING ? strstr(r[i].text, " at ") : NULL;
		if (at && (at = strchr(at + 4, ' ')) && frame_func(at + 1, f, sizeof(f))) {
			snprintf(func, sizeof(func), "%s", f);
			media |= media_frame(f) || strstr(r[i].text, "drivers/media/");
		}
		size_t j = i + 1;
		for (; j < n; j++) {
			enum kind kj = kind_of(r[j].text);
			/* "BUG: kernel NULL pointer dereference" is followed by "Oops: 0000 [#1]": one report */
			if ((kj == K_FATAL && !(kd == K_FATAL && starts(r[j].text, "Oops"))) || kj == K_WARNING)
				break;
			if (frame_func(r[j].text, f, sizeof(f))) {
				media |= media_frame(f);
				if (!func[0] && starts(r[j].text + strspn(r[j].text, " "), "RIP: "))
					snprintf(func, sizeof(func), "%s", f);
				/* "? func": a stale address on the stack, not a caller */
				const char *fr = r[j].text + strspn(r[j].text, " ");
				if (!culprit[0] && !sleep_frame(f) && !starts(fr, "RIP: ") && fr[0] != '?')
					snprintf(culprit, sizeof(culprit), "%s", f);
			}
			if (starts(r[j].text, "Oops") || starts(r[j].text, "general protection fault") ||
			    starts(r[j].text, "kernel BUG at"))
				rep->kills = true;
			if (kj == K_END) {
				j++;
				while (j < n && rep->kills && oops_tail(r[j].text))
					j++;
				break;
			}
		}
		rep->end = j;
		if (hung || !func[0])
			snprintf(func, sizeof(func), "%s", culprit);
		rep->fatal = kd == K_FATAL || media;
		snprintf(rep->summary, sizeof(rep->summary), "%.200s%s%.90s", r[i].text, func[0] ? " in " : "", func);
		i = j - 1;
	}
	return k;
}

void kjudge_check_started(char *line, size_t len)
{
	snprintf(line, len, "%d %.9f", (int)getpid(), kmsg_clock());
}

/* The pid a report names: "CPU: 0 PID: 830 Comm: ..." (Oops, WARNING) or
 * "INFO: task v4l2-conform:1492 blocked" (hung task); 0 if none. */
static int report_pid(const struct kmsg_rec *r, const struct kreport *rep)
{
	for (size_t i = rep->first; i < rep->end; i++) {
		const char *t = r[i].text, *p = strstr(t, " PID: ");
		if (p)
			return atoi(p + 6);
		if (starts(t, "INFO: task ") && (p = strchr(t + 11, ':')))
			return atoi(p + 1);
	}
	return 0;
}

int kjudge_apply(int fd, struct result *res, const int *pid, const double *start, size_t n, char *other,
		 size_t len)
{
	struct kmsg_rec *r = NULL;
	size_t nr = kmsg_read(fd, &r);
	size_t o = 0;
	int lines = 0;
	if (len)
		other[0] = 0;
	struct kreport *rep = calloc(nr ? nr : 1, sizeof(*rep));
	size_t nrep = kjudge_reports(r, nr, rep, nr);
	bool *in_fatal = calloc(nr ? nr : 1, sizeof(bool));
	for (size_t k = 0; k < nrep; k++) {
		if (!rep[k].fatal)
			continue;
		for (size_t i = rep[k].first; i < rep[k].end; i++)
			in_fatal[i] = true;
		/* The check whose process it names (checks that share a test
		 * process: the one of them running when it was logged); else
		 * the last one started before it (a helper process or thread
		 * of a check); else the first that ran. */
		size_t who = n;
		int p = report_pid(r, &rep[k]);
		for (size_t i = 0; p && i < n; i++)
			if (pid[i] == p && (who == n || (start[i] && start[i] <= rep[k].t)))
				who = i;
		/* An Oops kills the process it names: no later check ran in
		 * it, so it is the last one that started there (the kernel's
		 * and the runner's clocks differ by more than a quick check
		 * lasts). */
		for (size_t i = 0; p && rep[k].kills && i < n; i++)
			if (pid[i] == p)
				who = i;
		for (size_t i = 0; who == n && i < n; i++)
			if (start[i] && start[i] <= rep[k].t && (i + 1 == n || !start[i + 1] || start[i + 1] > rep[k].t))
				who = i;
		for (size_t i = 0; who == n && i < n; i++)
			if (res[i].verdict != VERDICT_SKIP)
				who = i;
		if (who == n)
			continue;
		struct result *x = &res[who];
		char msg[400];
		snprintf(msg, sizeof(msg), "kernel: %s", rep[k].summary);
		x->verdict = VERDICT_FAIL;
		if (x->message && strstr(x->message, msg))
			continue;	/* the same report again (a WARN_ON in a loop) */
		size_t ml = x->message ? strlen(x->message) : 0;
		char *m = malloc(strlen(msg) + ml + 3);
		sprintf(m, "%s%s%s", ml ? x->message : "", ml ? "; " : "", msg);
		free(x->message);
		x->message = m;
	}
	for (size_t i = 0; i < nr; i++) {
		if (in_fatal[i] || r[i].level > 4)
			continue;
		lines++;
		if (o + 1 < len)
			o += (size_t)snprintf(other + o, len - o, "%s\n", r[i].text);
	}
	free(in_fatal);
	free(rep);
	kmsg_free(r, nr);
	return lines;
}
