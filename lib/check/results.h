/* Result records and their machine-readable form (results.json). */
#ifndef V4L2C_RESULTS_H
#define V4L2C_RESULTS_H
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

enum verdict { VERDICT_PASS, VERDICT_FAIL, VERDICT_WARN, VERDICT_SKIP };
const char *verdict_name(enum verdict v);

struct measure { char *name; double value; char *unit; };
struct point { char *series; double x, y; };

struct result {
	char *name;		/* "getset/out-of-range/brightness" */
	const char *suite;
	const char *rule;
	const char *summary;
	uint32_t ctrl_id;	/* 0 for device-level checks */
	char ctrl_name[32];
	enum verdict verdict;
	char *message;		/* expected vs got, warnings, skip reason */
	double duration_s;
	struct measure *m; size_t n_m;
	struct point *p; size_t n_p;
	char **artifacts; size_t n_art;
};

struct run_info {
	const char *device, *driver, *card, *bus_info;
	unsigned int driver_version;
	unsigned int device_caps;
	const char *node_kind;		/* "video node", "sub-device node" (dev_kind_name) */
	const char *kernel, *suite_version, *started, *host;
	/* The rule book the run judged by (ctrl/rulebook.h): its series, "7.3";
	 * NULL: none (a media graph's own checks). */
	const char *rule_book;
	double duration_s;
};

struct result_set { struct result *r; size_t n, cap; };
struct result *results_add(struct result_set *rs);
void results_counts(const struct result_set *rs, size_t counts[4]);
int results_write_json(const char *path, const struct result_set *rs, const struct run_info *info);
void results_free(struct result_set *rs);
/* JSON string with escapes, for the writers: control characters and bytes
 * that are not strict UTF-8 become \\u00XX, so the file always parses. */
void json_str(FILE *f, const char *s);
size_t utf8_len(const unsigned char *p);
/* One file name made from a check name, for artifacts: letters, digits, '-',
 * '_' and '.' (not first) kept, everything else ('/', a NUL-less driver
 * name's bytes, "..") '_', so it never leaves the artifact folder. */
void results_file_name(const char *name, char *out, size_t len);
#endif
