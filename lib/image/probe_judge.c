/* Probe decisions (see probe_judge.h); the capturing is in suites/suite_probe.c. */
#include "image/probe_judge.h"
#include "ctrl/ctrl_value.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum judge_scope judge_scope_of(uint32_t id)
{
	switch (id) {
	case V4L2_CID_BRIGHTNESS: case V4L2_CID_CONTRAST: case V4L2_CID_SATURATION: case V4L2_CID_HUE:
	case V4L2_CID_HFLIP: case V4L2_CID_VFLIP: case V4L2_CID_GAMMA: case V4L2_CID_SHARPNESS:
	case V4L2_CID_COLORFX: case V4L2_CID_COLORFX_CBCR: case V4L2_CID_TEST_PATTERN:
		return JUDGE_PICTURE;
	case V4L2_CID_GAIN: case V4L2_CID_ANALOGUE_GAIN: case V4L2_CID_DIGITAL_GAIN: case V4L2_CID_AUTOGAIN:
	case V4L2_CID_EXPOSURE: case V4L2_CID_EXPOSURE_ABSOLUTE: case V4L2_CID_EXPOSURE_AUTO:
	case V4L2_CID_EXPOSURE_AUTO_PRIORITY: case V4L2_CID_AUTO_EXPOSURE_BIAS:
	case V4L2_CID_AUTO_WHITE_BALANCE: case V4L2_CID_DO_WHITE_BALANCE: case V4L2_CID_RED_BALANCE:
	case V4L2_CID_BLUE_BALANCE: case V4L2_CID_WHITE_BALANCE_TEMPERATURE:
	case V4L2_CID_AUTO_N_PRESET_WHITE_BALANCE: case V4L2_CID_POWER_LINE_FREQUENCY:
	case V4L2_CID_BACKLIGHT_COMPENSATION: case V4L2_CID_CHROMA_AGC: case V4L2_CID_CHROMA_GAIN:
	case V4L2_CID_BAND_STOP_FILTER: case V4L2_CID_ISO_SENSITIVITY: case V4L2_CID_ISO_SENSITIVITY_AUTO:
	case V4L2_CID_IRIS_ABSOLUTE: case V4L2_CID_IRIS_RELATIVE: case V4L2_CID_FOCUS_ABSOLUTE:
	case V4L2_CID_FOCUS_RELATIVE: case V4L2_CID_FOCUS_AUTO: case V4L2_CID_ZOOM_ABSOLUTE:
	case V4L2_CID_ZOOM_RELATIVE: case V4L2_CID_ZOOM_CONTINUOUS: case V4L2_CID_SCENE_MODE:
	case V4L2_CID_WIDE_DYNAMIC_RANGE: case V4L2_CID_IMAGE_STABILIZATION: case V4L2_CID_3A_LOCK:
		return JUDGE_SOURCE;
	default:
		return JUDGE_OTHER;
	}
}

bool judge_effect_required(uint32_t id, bool profile_requires, const char **why)
{
	if (judge_scope_of(id) != JUDGE_SOURCE || profile_requires)
		return true;
	*why = "skipped: the effect of this control depends on the scene the source delivers (gain, exposure, "
	       "white balance, power line frequency show none on a pattern generator or a TV input); a board "
	       "profile can require it ('require-effect = NAME')";
	return false;
}

int judge_sweep_values(const struct v4l2_query_ext_ctrl *q, int64_t *v)
{
	int n = 0;
	for (int i = 0; i < JUDGE_SWEEP_POINTS; i++) {
		double t = (double)i / (JUDGE_SWEEP_POINTS - 1);
		int64_t want = q->minimum + (int64_t)llround(t * ((double)q->maximum - (double)q->minimum));
		int64_t x = ctrl_expected_scalar(q, want);	/* on a step */
		if (n && x <= v[n - 1])
			continue;
		v[n++] = x;
	}
	return n;
}

void judge_noise_of(const double *s, int n, double floor_, struct judge_noise *out)
{
	double sum = 0, var = 0;
	for (int i = 0; i < n; i++)
		sum += s[i];
	out->mean = sum / n;
	for (int i = 0; i < n; i++)
		var += (s[i] - out->mean) * (s[i] - out->mean);
	out->sd = n > 1 ? sqrt(var / (n - 1)) : 0;
	out->tol = floor_ + JUDGE_NOISE_K * out->sd;
}

bool judge_step_excused(enum judge_kind k, const struct judge_point *a, const struct judge_point *b, double tol,
			bool decrease)
{
	const double all = 1 - JUDGE_PCT_OUTLIERS / 100;
	const bool a_white = a->p_lo >= JUDGE_Y_WHITE - tol, b_black = b->p_hi <= JUDGE_Y_BLACK + tol;
	switch (k) {
	case JUDGE_LUMA:
		/* mean luma cannot rise from an all-white region, nor show in an all-black one */
		return !decrease && (a_white || b_black);
	case JUDGE_SPREAD:
		/* spread can only shrink or stall while more of the region clips */
		return b->luma_clip > a->luma_clip + JUDGE_PCT_OUTLIERS / 100 || (!decrease && b->luma_clip >= all);
	case JUDGE_CHROMA:
		/* colour cannot grow where it is clipped, nor in white or black */
		return !decrease && (a->chroma_clip >= all || a_white || b_black);
	}
	return false;
}

void judge_sweep(enum judge_kind k, const struct judge_point *pts, int np, double tol, double baseline,
		 double back, struct judge_sweep_result *r)
{
	memset(r, 0, sizeof(*r));
	r->verdict = JUDGE_PASS;
	r->step = -1;
	if (k == JUDGE_CHROMA && np > 0 && pts[0].stat > tol) {
		r->verdict = JUDGE_FAIL_NOT_GREY;
		return;
	}
	for (int i = 0; i + 1 < np; i++) {
		const double d = pts[i + 1].stat - pts[i].stat;
		if (d > tol) {
			r->rises++;
			continue;
		}
		const bool decrease = d < -tol;
		if (judge_step_excused(k, &pts[i], &pts[i + 1], tol, decrease)) {
			r->excused++;
			continue;
		}
		r->verdict = decrease ? JUDGE_FAIL_INVERTED : JUDGE_FAIL_NO_EFFECT;
		r->step = i;
		return;
	}
	if (!r->rises) {
		r->verdict = JUDGE_INCONCLUSIVE;
		return;
	}
	if (fabs(back - baseline) > tol)
		r->verdict = JUDGE_FAIL_NOT_BACK;
}

bool judge_pixel_stable(const struct judge_pixel_noise *n, size_t i)
{
	return n->hi[i] - n->lo[i] <= 1 + JUDGE_NOISE_K * n->pix_sigma;
}

bool judge_tone_curve(const struct frame *before, const struct frame *after, const struct roi *r,
		      const struct judge_pixel_noise *n, struct judge_tone_break *br)
{
	/* [input level][output level]: 256 KiB, too big for a test's stack */
	uint32_t(*h)[256] = calloc(256, sizeof(*h));
	uint32_t cnt[256] = { 0 };
	bool ok = true;
	if (!h)
		abort();
	for (unsigned y = 0; y < r->h; y++) {
		const uint8_t *a = before->y + (size_t)(r->y + y) * before->width + r->x;
		const uint8_t *b = after->y + (size_t)(r->y + y) * after->width + r->x;
		for (unsigned x = 0; x < r->w; x++) {
			if (!judge_pixel_stable(n, (size_t)y * r->w + x))
				continue;
			h[a[x]][b[x]]++;
			cnt[a[x]]++;
		}
	}
	const uint64_t total = (uint64_t)r->w * r->h;
	const uint64_t min_count = (uint64_t)ceil(total * JUDGE_PCT_OUTLIERS / 100.0);
	int prev = -1, prev_med = 0;
	for (int v = 0; v < 256 && ok; v++) {
		if (cnt[v] < min_count || !cnt[v])
			continue;
		uint64_t acc = 0;
		int med = 0;
		while (med < 255 && (acc += h[v][med]) * 2 < cnt[v])
			med++;
		if (prev >= 0) {
			/* standard error of a median: 1.25 sigma / sqrt(count) */
			double tol = 2 * JUDGE_HALF_CODE + JUDGE_NOISE_K * 1.2533 * n->pix_sigma *
				     (1 / sqrt((double)cnt[prev]) + 1 / sqrt((double)cnt[v]));
			if (med < prev_med - tol) {
				*br = (struct judge_tone_break){ (unsigned)prev, (unsigned)v, prev_med, med };
				ok = false;
			}
		}
		prev = v;
		prev_med = med;
	}
	free(h);
	return ok;
}

double judge_wrap180(double a)
{
	a = fmod(a + 180.0, 360.0);
	if (a < 0)
		a += 360.0;
	return a - 180.0;
}

void judge_hue(const int64_t *vals, const double *rot, int np, int64_t orig, double tol, double back,
	       struct judge_hue_result *r)
{
	int sense[2] = { 0, 0 };	/* below, above the original value */
	memset(r, 0, sizeof(*r));
	r->verdict = JUDGE_PASS;
	r->at = -1;
	for (int side = 0; side < 2; side++) {
		double prev = 0;
		int64_t prev_v = orig;
		for (int k = 0; k < np; k++) {
			const int i = side ? k : np - 1 - k;	/* outwards from the original */
			if (side ? vals[i] <= orig : vals[i] >= orig)
				continue;
			const double u = prev + judge_wrap180(rot[i] - prev);
			const double step = u - prev;
			const int s = step > tol ? 1 : step < -tol ? -1 : 0;
			if (!s || (sense[side] && s != sense[side])) {
				r->verdict = JUDGE_FAIL_NO_EFFECT;
				r->at = i;
				r->from = prev_v;
				r->from_rot = prev;
				r->at_rot = u;
				r->turned_back = s != 0;
				return;
			}
			sense[side] = s;
			r->unwrapped[i] = u;
			r->have[i] = true;
			prev = u;
			prev_v = vals[i];
		}
	}
	if (sense[0] && sense[1] && sense[0] == sense[1])
		r->verdict = JUDGE_FAIL_SAME_SENSE;
	else if (!sense[0] && !sense[1])
		r->verdict = JUDGE_INCONCLUSIVE;
	else if (fabs(back) > tol)
		r->verdict = JUDGE_FAIL_NOT_BACK;
}

enum judge_verdict judge_mirror(double same, double right, double wrong, double back, double tol, double site)
{
	if (same <= tol)
		return JUDGE_FAIL_NO_EFFECT;
	if (right > tol + site)
		return wrong <= tol ? JUDGE_FAIL_WRONG_AXIS : JUDGE_FAIL_NOT_MIRROR;
	if (wrong <= tol)
		return JUDGE_INCONCLUSIVE;	/* both mirror images alike: the axis cannot be told */
	if (back > tol)
		return JUDGE_FAIL_NOT_BACK;
	return JUDGE_PASS;
}

double judge_luma_clip(const struct frame *f, const struct roi *r)
{
	if (!roi_fits(r, f))
		return NAN;
	double sum = 0;
	for (unsigned y = r->y; y < r->y + r->h; y++)
		for (unsigned x = r->x; x < r->x + r->w; x++) {
			const int v = f->y[(size_t)y * f->width + x];
			sum += v <= JUDGE_Y_BLACK || v >= JUDGE_Y_WHITE ? 1 : frame_src_clip_share(f, x, y);
		}
	return sum / ((double)r->w * r->h);
}

/* Any pixel of chroma sample (cx, cy)'s block clipped in the source. */
static bool block_src_clipped(const struct frame *f, unsigned cx, unsigned cy)
{
	for (unsigned y = 2 * cy; y < 2 * cy + 2 && y < f->height; y++)
		for (unsigned x = 2 * cx; x < 2 * cx + 2 && x < f->width; x++)
			if (frame_src_clipped(f, x, y))
				return true;
	return false;
}

double judge_chroma_clip(const struct frame *f, const struct roi *r)
{
	if (!roi_fits(r, f))
		return NAN;
	const unsigned cx0 = r->x / 2, cy0 = r->y / 2, cx1 = (r->x + r->w + 1) / 2, cy1 = (r->y + r->h + 1) / 2;
	uint64_t n = 0, clip = 0;
	for (unsigned y = cy0; y < cy1; y++)
		for (unsigned x = cx0; x < cx1; x++) {
			const int b = f->cb[(size_t)y * f->cw + x], c = f->cr[(size_t)y * f->cw + x];
			n++;
			clip += b <= JUDGE_C_MIN || b >= JUDGE_C_MAX || c <= JUDGE_C_MIN || c >= JUDGE_C_MAX ||
				block_src_clipped(f, x, y);
		}
	return n ? (double)clip / n : 0;
}

/* Media bus codes 0x3001..0x3fff are the Bayer formats
 * (include/uapi/linux/media-bus-format.h, "Bayer - next is ..."). */
static bool mbus_is_bayer(uint32_t code)
{
	return code > 0x3000 && code < 0x4000;
}

enum judge_mosaic judge_mosaic_of(uint32_t fourcc, uint32_t src_code)
{
	if (frame_layout_mosaic(fourcc))
		return MOSAIC_BINNED;
	return mbus_is_bayer(src_code) ? MOSAIC_DEBAYERED : MOSAIC_NONE;
}

unsigned judge_site_radius(enum judge_mosaic m, unsigned frame_px, unsigned sensor_px)
{
	switch (m) {
	case MOSAIC_NONE:
		return 0;
	case MOSAIC_BINNED:
		return 1;	/* half a pixel, rounded up */
	case MOSAIC_DEBAYERED:
		break;
	}
	if (!sensor_px || frame_px <= sensor_px)
		return 1;
	return (frame_px + sensor_px - 1) / sensor_px;
}

void judge_site_allowance(const struct frame *ref, const struct roi *r, enum mirror m, enum judge_mosaic mo,
			  unsigned radius, double *luma, double *hist)
{
	*luma = *hist = 0;
	if (mo == MOSAIC_NONE || !radius)
		return;
	double s[3];
	stats_site_spread(ref, r, m, radius, s);
	if (!isfinite(s[0]))
		return;
	*luma = s[0];
	*hist = s[0] > s[1] ? (s[0] > s[2] ? s[0] : s[2]) : (s[1] > s[2] ? s[1] : s[2]);
}
