/* The rule book as the checks need it: the kernel series this suite has
 * rules for (spec/controls-checklist.md: 6.1, 6.12, 7.3), which one judges
 * the running kernel (the newest covered series at or below it), and since
 * which kernel each constant of the control interface exists (flags, types,
 * `which` values, event types, event change bits, subscription flags).
 * A constant newer than the rule book is the suite's ignorance, not the
 * driver's bug; one the running kernel cannot have is the driver's. */
#ifndef V4L2C_RULEBOOK_H
#define V4L2C_RULEBOOK_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rb_kind { RB_FLAG, RB_TYPE, RB_WHICH, RB_EVENT, RB_EVENT_CH, RB_SUB_FL };

/* A kernel version as X * 1000 + Y (6.12 -> 6012); 0: not known. */
typedef unsigned int rb_ver;
#define RB_VER(x, y) ((rb_ver)(x) * 1000u + (rb_ver)(y))

struct rb_const {
	enum rb_kind kind;
	uint32_t value;		/* a flag's bit, a type, a which, ... */
	const char *name;	/* "V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX" */
	/* No kernel before `first` has it; every kernel from `sure` on has
	 * it. Equal when the first kernel is known; a kernel in between "may
	 * have it" (HEVC_EXT_SPS_*: after 6.12, at or before 7.3). first 0:
	 * older than every rule book (in 6.1 already). */
	rb_ver first, sure;
	const char *rule;	/* the rule that governs it, "FL-13" */
};

/* The kernel under test and the rule book that judges it. */
struct rb_kernel {
	char release[128];	/* uname -r */
	rb_ver ver;		/* X.Y of the release; 0: unparsable */
	rb_ver book;		/* the rule book's series */
};

/* The covered series, oldest first, and the newest one. */
extern const rb_ver rb_series[];
extern const size_t rb_n_series;
rb_ver rb_newest(void);
/* "6.12" into buf. */
const char *rb_ver_str(rb_ver v, char *buf, size_t len);
/* X.Y of a release ("7.3.4+deb13-amd64" -> 7003); 0 if it does not start so. */
rb_ver rb_parse_release(const char *release);
/* The rule book for a release: the newest covered series <= its X.Y; the
 * oldest one for an older kernel, the newest one for an unparsable release. */
void rb_kernel_from_release(struct rb_kernel *k, const char *release);

enum rb_verdict {
	RB_KNOWN,	/* the kernel has it: judged by its rules */
	RB_MAY,		/* the kernel may have it (inside the constant's interval) */
	RB_CANNOT,	/* the rule book says this kernel cannot have it: a failure */
	RB_NEWER,	/* no rule book knows it and the kernel is newer than the newest: a warning */
	RB_UNKNOWN,	/* no rule book knows it on a kernel a rule book covers: a failure */
};
enum rb_verdict rb_judge(const struct rb_kernel *k, enum rb_kind kind, uint32_t value, const struct rb_const **c);
bool rb_fails(enum rb_verdict v);
const struct rb_const *rb_find(enum rb_kind kind, uint32_t value);
/* Each rb_const; NULL past the end (unit tests, the coverage test). */
const struct rb_const *rb_const_at(size_t i);
const char *rb_kind_name(enum rb_kind kind);	/* "flag", "type", ... */
/* One line saying why a constant fails or warns: what it is, the kernel,
 * the rule book and the rule ("V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX (0x1000)
 * exists since 6.15: kernel 6.1.0-57-amd64 (rule book 6.1) cannot have it
 * (FL-13)"). */
const char *rb_why(const struct rb_kernel *k, enum rb_kind kind, uint32_t value, char *buf, size_t len);
/* "rule book: 7.3 (kernel 7.3.4+deb13-amd64)" */
const char *rb_banner(const struct rb_kernel *k, char *buf, size_t len);

/* The running kernel (uname), set once by the runner before the checks are
 * expanded; the test processes inherit it. Unset: read from uname. */
const struct rb_kernel *rb_running(void);
void rb_set_running(const char *release);
#endif
