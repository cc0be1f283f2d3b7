/* What the documentation says about codec compound payloads, per control
 * type (spec CP-1..CP-3): the documented defaults, the field values it calls
 * invalid, and the reserved fields "applications and drivers must set to
 * zero". Table-driven: offsets and widths come from the uapi headers the
 * suite is built with (offsetof), so a structure that moves breaks the
 * build or tests/unit/test_compound.c, not a board run. The same statements
 * are in the 6.1 and the 6.12 documentation (ext-ctrls-codec-stateless.rst,
 * same lines); AV1 (6.5+) is not in the build's headers: its rows use the
 * 6.12 uapi's offsets (uapi_av1.h). HDR10's payloads are described in
 * ext-ctrls-colorimetry.rst without any range: only the framework's rows. */
#ifndef V4L2C_COMPOUND_H
#define V4L2C_COMPOUND_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How far a judgement goes: the documentation states it (a deviation
 * fails), or only the framework's code does it (a deviation warns). */
enum cp_source { CP_FRAMEWORK, CP_DOCUMENTED };

/* One field value that makes a payload invalid; with pre_width set, only
 * together with a second field set to pre_value first (the HEVC slice's L1
 * count is bounded in a B slice only, the PPS tile counts with tiles
 * enabled). */
struct cp_bad {
	uint32_t type;
	const char *field;
	uint16_t off;
	uint8_t width;		/* 1, 2, 4 bytes, little-endian unsigned */
	int64_t value;
	enum cp_source src;
	const char *why;	/* the documented range, or the framework's check */
	uint16_t pre_off;
	uint8_t pre_width;	/* 0: no second field; up to 8 */
	uint64_t pre_value;
};

/* A reserved field the documentation says "Applications and drivers must
 * set this to zero". fw_keeps: std_validate_compound does not zero it (HEVC,
 * AV1; 6.1 and 6.12), so a driver on the framework keeps what the
 * application wrote: that warns; where the framework zeroes it (H.264, VP8,
 * MPEG-2, VP9) keeping it fails. */
struct cp_reserved {
	uint32_t type;
	const char *field;
	uint16_t off;
	uint16_t len;
	bool fw_keeps;
};

/* A default: `len` bytes at `off` equal `bytes` (or all `fill` when bytes
 * is NULL), or, when width is set, the integer field & mask == value. */
struct cp_default {
	uint32_t type;
	const char *field;
	uint16_t off;
	uint16_t len;
	uint8_t width;
	uint64_t mask;
	int64_t value;
	const uint8_t *bytes;
	uint8_t fill;
	enum cp_source src;
	const char *why;
};

size_t cp_bad_count(uint32_t type);
const struct cp_bad *cp_bad_at(uint32_t type, size_t i);
size_t cp_reserved_count(uint32_t type);
const struct cp_reserved *cp_reserved_at(uint32_t type, size_t i);
size_t cp_default_count(uint32_t type);
const struct cp_default *cp_default_at(uint32_t type, size_t i);

/* The MPEG-2 default intra quantiser matrix in zigzag scan order (ISO/IEC
 * 13818-2 6.3.11 and 7.3.1), built from the standard's raster matrix. */
const uint8_t *cp_mpeg2_default_intra(void);

/* A payload the framework accepts, for a type whose all-zero default it
 * refuses itself (HDR10 mastering display: primaries below
 * V4L2_HDR10_MASTERING_PRIMARIES_X_LOW, v4l2-ctrls-core.c
 * std_validate_compound): BT.2020 primaries, the D65 white point, 1000 and
 * 0.005 cd/m2, into p (one element of size bytes). False: no such builder
 * for the type (the current value must do). */
bool cp_valid_payload(uint32_t type, void *p, size_t size);

/* Apply bad row b to p: its precondition field, then its field. */
void cp_bad_apply(const struct cp_bad *b, void *p, size_t size);

/* Integer field access of width 1, 2 or 4 at off (size: the payload's). */
uint64_t cp_field_get(const void *p, size_t size, uint16_t off, uint8_t width);
void cp_field_set(void *p, size_t size, uint16_t off, uint8_t width, uint64_t v);

/* Does payload p (one element) hold default d? Writes what it found. */
bool cp_default_holds(const struct cp_default *d, const void *p, size_t size, char *got, size_t n);
/* The first non-zero byte of reserved field r in p, -1 when all zero. */
int cp_reserved_nonzero(const struct cp_reserved *r, const void *p, size_t size);

enum cp_verdict { CPV_PASS, CPV_WARN, CPV_FAIL };
/* CP-2: S (set) or TRY of a payload the documentation (or the framework)
 * calls invalid gave err and error_idx; the control sits at idx of count;
 * changed: its current value differs afterwards. vidioc-g-ext-ctrls.rst:
 * EINVAL; TRY sets error_idx to the failing control; S to count when the
 * validation step failed, or to the failing index when the error came
 * while writing (the framework validates payloads then: the index). */
enum cp_verdict cp_judge_invalid(enum cp_source src, bool set, int err, uint32_t error_idx, uint32_t idx, uint32_t count,
				 bool changed, char *why, size_t n);
/* CP-3: S of a payload with reserved bytes set gave err, then the reserved
 * field read back with first non-zero byte nz (-1: all zero). Refusing
 * (EINVAL: the application broke "must set to zero") and zeroing are both
 * what the documentation allows; keeping the bytes is not. */
enum cp_verdict cp_judge_reserved(int err, int nz, bool fw_keeps, char *why, size_t n);
#endif
