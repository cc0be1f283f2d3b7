/* Result records and results.json. The JSON is written by hand: the device
 * side has no Python and no JSON library, and the format is small. */
#include "check/results.h"
#include "check/skip_class.h"
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

const char *verdict_name(enum verdict v)
{
	static const char *const n[] = { "pass", "fail", "warn", "skip" };
	return v <= VERDICT_SKIP ? n[v] : "fail";
}

struct result *results_add(struct result_set *rs)
{
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? rs->cap * 2 : 256;
		rs->r = realloc(rs->r, rs->cap * sizeof(*rs->r));
		if (!rs->r)
			abort();
	}
	struct result *r = &rs->r[rs->n++];
	memset(r, 0, sizeof(*r));
	return r;
}

void results_counts(const struct result_set *rs, size_t counts[4])
{
	memset(counts, 0, 4 * sizeof(*counts));
	for (size_t i = 0; i < rs->n; i++)
		counts[rs->r[i].verdict]++;
}

/* Length of the valid UTF-8 sequence starting at p (lead byte >= 0x80), 0 if
 * invalid: strict RFC 3629, as a JSON reader decodes it (no overlong forms,
 * no surrogates U+D800..DFFF, nothing above U+10FFFF). */
size_t utf8_len(const unsigned char *p)
{
	size_t n = (*p & 0xe0) == 0xc0 ? 2 : (*p & 0xf0) == 0xe0 ? 3 : (*p & 0xf8) == 0xf0 ? 4 : 0;
	if (!n || (n == 2 && *p < 0xc2) || *p > 0xf4)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	if ((p[0] == 0xe0 && p[1] < 0xa0) ||		/* overlong 3-byte */
	    (p[0] == 0xed && p[1] >= 0xa0) ||		/* surrogate */
	    (p[0] == 0xf0 && p[1] < 0x90) ||		/* overlong 4-byte */
	    (p[0] == 0xf4 && p[1] >= 0x90))		/* above U+10FFFF */
		return 0;
	return n;
}

void results_file_name(const char *name, char *out, size_t len)
{
	size_t o = 0;
	if (!len)
		return;
	for (const unsigned char *p = (const unsigned char *)name; *p && o + 1 < len; p++) {
		bool safe = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
			    *p == '-' || *p == '_' || (*p == '.' && o);
		out[o++] = safe ? (char)*p : '_';
	}
	out[o] = 0;
	if (!o)
		snprintf(out, len, "_");
}

void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		default: {
			size_t n = *p >= 0x80 ? utf8_len(p) : 0;
			if (n) {		/* valid UTF-8 ("§18") goes through as it is */
				fwrite(p, 1, n, f);
				p += n - 1;
			} else if (*p < 0x20 || *p >= 0x7f) {	/* driver strings may be anything */
				fprintf(f, "\\u%04x", *p);
			} else {
				fputc(*p, f);
			}
		}
		}
	}
	fputc('"', f);
}

static void json_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	else
		fputs("null", f);
}

static void write_result(FILE *f, const struct result *r)
{
	fputs("    {\"name\": ", f); json_str(f, r->name);
	fputs(", \"suite\": ", f); json_str(f, r->suite);
	fputs(", \"rule\": ", f); json_str(f, r->rule);
	fputs(", \"verdict\": ", f); json_str(f, verdict_name(r->verdict));
	fprintf(f, ", \"ctrl_id\": %u, \"ctrl_id_hex\": \"0x%08x\", \"ctrl_name\": ", r->ctrl_id, r->ctrl_id);
	json_str(f, r->ctrl_id ? r->ctrl_name : NULL);
	fputs(", \"message\": ", f); json_str(f, r->message);
	fputs(", \"summary\": ", f); json_str(f, r->summary);
	fputs(", \"duration_s\": ", f); json_num(f, r->duration_s);
	fputs(", \"measurements\": [", f);
	for (size_t i = 0; i < r->n_m; i++) {
		fputs(i ? ", {\"name\": " : "{\"name\": ", f); json_str(f, r->m[i].name);
		fputs(", \"value\": ", f); json_num(f, r->m[i].value);
		fputs(", \"unit\": ", f); json_str(f, r->m[i].unit);
		fputc('}', f);
	}
	fputs("], \"series\": {", f);
	/* Points grouped by series name, in recorded order. */
	bool first_series = true;
	for (size_t i = 0; i < r->n_p; i++) {
		bool seen = false;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(r->p[j].series, r->p[i].series))
				seen = true;
		if (seen)
			continue;
		if (!first_series)
			fputs(", ", f);
		first_series = false;
		json_str(f, r->p[i].series);
		fputs(": [", f);
		bool first = true;
		for (size_t j = i; j < r->n_p; j++) {
			if (strcmp(r->p[j].series, r->p[i].series))
				continue;
			fputs(first ? "[" : ", [", f);
			first = false;
			json_num(f, r->p[j].x); fputs(", ", f); json_num(f, r->p[j].y);
			fputc(']', f);
		}
		fputc(']', f);
	}
	fputs("}, \"artifacts\": [", f);
	for (size_t i = 0; i < r->n_art; i++) {
		if (i)
			fputs(", ", f);
		json_str(f, r->artifacts[i]);
	}
	fputs("]}", f);
}

int results_write_json(const char *path, const struct result_set *rs, const struct run_info *in)
{
	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return -1;
	size_t c[4];
	results_counts(rs, c);
	fputs("{\n  \"format\": \"v4l2-conform-results/1\",\n  \"run\": {\"device\": ", f);
	json_str(f, in->device);
	fputs(", \"driver\": ", f); json_str(f, in->driver);
	fputs(", \"card\": ", f); json_str(f, in->card);
	fputs(", \"bus_info\": ", f); json_str(f, in->bus_info);
	fprintf(f, ", \"driver_version\": \"%u.%u.%u\"", in->driver_version >> 16,
		(in->driver_version >> 8) & 0xff, in->driver_version & 0xff);
	/* QUERYCAP device_caps: what kind of node this was (a board with many). */
	fprintf(f, ", \"device_caps\": \"0x%08x\"", in->device_caps);
	if (in->node_kind) {
		fputs(", \"node_kind\": ", f); json_str(f, in->node_kind);
	}
	fputs(", \"kernel\": ", f); json_str(f, in->kernel);
	if (in->rule_book) {
		fputs(", \"rule_book\": ", f); json_str(f, in->rule_book);
	}
	fputs(", \"suite_version\": ", f); json_str(f, in->suite_version);
	fputs(", \"started\": ", f); json_str(f, in->started);
	fputs(", \"host\": ", f); json_str(f, in->host);
	fputs(", \"duration_s\": ", f); json_num(f, in->duration_s);
	fprintf(f, "},\n  \"summary\": {\"total\": %zu, \"pass\": %zu, \"fail\": %zu, \"warn\": %zu, \"skip\": %zu},\n",
		rs->n, c[VERDICT_PASS], c[VERDICT_FAIL], c[VERDICT_WARN], c[VERDICT_SKIP]);
	/* Skips by reason class (issue 21): what the run did not judge, and why. */
	size_t sk[SKIP_CLASSES] = { 0 };
	for (size_t i = 0; i < rs->n; i++)
		if (rs->r[i].verdict == VERDICT_SKIP)
			sk[skip_class_of(rs->r[i].message)]++;
	fputs("  \"skips\": {", f);
	for (int k = 0; k < SKIP_CLASSES; k++)
		fprintf(f, "%s\"%s\": %zu", k ? ", " : "", skip_class_name((enum skip_class)k), sk[k]);
	fputs("},\n", f);
	fputs("  \"results\": [\n", f);
	for (size_t i = 0; i < rs->n; i++) {
		write_result(f, &rs->r[i]);
		fputs(i + 1 < rs->n ? ",\n" : "\n", f);
	}
	fputs("  ]\n}\n", f);
	if (fclose(f))
		return -1;
	return rename(tmp, path);
}

void results_free(struct result_set *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		struct result *r = &rs->r[i];
		free(r->name);
		free(r->message);
		for (size_t j = 0; j < r->n_m; j++) {
			free(r->m[j].name);
			free(r->m[j].unit);
		}
		free(r->m);
		for (size_t j = 0; j < r->n_p; j++)
			free(r->p[j].series);
		free(r->p);
		for (size_t j = 0; j < r->n_art; j++)
			free(r->artifacts[j]);
		free(r->artifacts);
	}
	free(rs->r);
	memset(rs, 0, sizeof(*rs));
}
