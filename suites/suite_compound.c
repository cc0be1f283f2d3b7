/* Codec compound payloads against the documentation (spec CP-1..CP-3):
 * the documented defaults (DEF_VAL), the values it calls invalid (refused
 * with EINVAL and error_idx, nothing applied) and the reserved fields that
 * "applications and drivers must set to zero". What to judge comes from the
 * control's type and the per-type tables of lib/ctrl/compound.c, never from
 * a driver: the same checks hold on vicodec, visl, hantro or rkvdec. */
#include "ctrl/compound.h"
#include "ctrl/ctrl_type.h"
#include "ctrl/ctrl_value.h"
#include "ctrl/ext_ctrls.h"
#include "check/registry.h"
#include "check/verdict.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The failures of one check, reported together at its end. */
struct fails {
	char text[1024];
	size_t len;
	unsigned n;
};

static void add_fail(struct fails *f, const char *field, const char *what)
{
	if (f->len < sizeof(f->text))
		f->len += (size_t)snprintf(f->text + f->len, sizeof(f->text) - f->len, "%s%s: %s", f->n ? "; " : "", field,
					   what);
	f->n++;
}

static void end_fails(const struct fails *f, const char *rule)
{
	if (f->n)
		ck_abort_msg("%s (%s)", f->text, rule);
}

static void get_which(const struct check_ctx *cx, uint32_t which, struct ctrl_val *v)
{
	expect_ok(ctrl_get(cx->dev, cx->ctrl, which, v), "G_EXT_CTRLS of the %s value",
		  which == V4L2_CTRL_WHICH_DEF_VAL ? "default" : "current");
}

static uint32_t elems_of(const struct ctrl *c, const struct ctrl_val *v)
{
	return c->q.elem_size ? v->size / c->q.elem_size : 0;
}

/* ---------- CP-1: DEF_VAL ---------- */

static void compound_default(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	struct ctrl_val def = { 0 };
	struct fails f = { .n = 0 };
	char got[96], msg[200];
	get_which(cx, V4L2_CTRL_WHICH_DEF_VAL, &def);
	for (uint32_t e = 0; e < elems_of(c, &def); e++)
		for (size_t i = 0; i < cp_default_count(c->q.type); i++) {
			const struct cp_default *d = cp_default_at(c->q.type, i);
			const uint8_t *p = (const uint8_t *)def.p + (size_t)e * c->q.elem_size;
			if (cp_default_holds(d, p, c->q.elem_size, got, sizeof(got)))
				continue;
			snprintf(msg, sizeof(msg), "DEF_VAL element %u: expected %s, got %s", e, d->why, got);
			if (d->src == CP_DOCUMENTED)
				add_fail(&f, d->field, msg);
			else
				v_warn("%s: %s; only the framework's code (std_init_compound) sets this default (CP-1)", d->field,
				       msg);
		}
	ctrl_val_free(&def);
	end_fails(&f, "CP-1");
}

/* ---------- shared by CP-2 and CP-3 ---------- */

static int try_val(const struct check_ctx *cx, const struct ctrl_val *v)
{
	struct ctrl_val t;
	ctrl_val_copy(cx->ctrl, &t, v);
	int e = ctrl_try(cx->dev, cx->ctrl, &t);
	ctrl_val_free(&t);
	return e;
}

/* The current value (cur, what "nothing applied" is judged against) and the
 * valid payload each mutation starts from (base): the current value when TRY
 * accepts it, else, for a type whose zero default the framework refuses
 * itself (HDR10 mastering display), a payload built inside every bound
 * (cp_valid_payload), which TRY must accept. */
static void valid_base(const struct check_ctx *cx, struct ctrl_val *cur, struct ctrl_val *base)
{
	memset(cur, 0, sizeof(*cur));	/* ctrl_get fills a value with no buffer yet */
	get_which(cx, V4L2_CTRL_WHICH_CUR_VAL, cur);
	ctrl_val_copy(cx->ctrl, base, cur);
	int e = try_val(cx, base);
	if (e && cp_valid_payload(cx->ctrl->q.type, base->p, cx->ctrl->q.elem_size)) {
		int e2 = try_val(cx, base);
		if (!e2) {
			v_info("TRY_EXT_CTRLS of the current value gives %s: mutations start from a payload inside "
			       "every framework bound", errno_name(e));
			return;
		}
		e = e2;
	}
	if (e) {
		ctrl_val_free(cur);
		ctrl_val_free(base);
		v_skip("TRY_EXT_CTRLS of the current value gives %s: no valid payload to start from", errno_name(e));
	}
}

/* Put the current value back as it was before the check. */
static void restore(const struct check_ctx *cx, const struct ctrl_val *cur)
{
	struct ctrl_val w;
	ctrl_val_copy(cx->ctrl, &w, cur);
	ctrl_set(cx->dev, cx->ctrl, &w);
	ctrl_val_free(&w);
}

/* One request of a single entry holding v; returns errno, *idx the error_idx. */
static int one(const struct check_ctx *cx, unsigned long req, const struct ctrl_val *v, uint32_t *idx)
{
	struct ext_batch b;
	ext_init(&b, V4L2_CTRL_WHICH_CUR_VAL);
	ext_add_val(&b, cx->ctrl, v);
	int e = ext_do(cx->dev, req, &b);
	*idx = b.cs.error_idx;
	ext_free(&b);
	return e;
}

static bool changed_from(const struct check_ctx *cx, const struct ctrl_val *before)
{
	struct ctrl_val now = { 0 };
	get_which(cx, V4L2_CTRL_WHICH_CUR_VAL, &now);
	bool ch = now.size != before->size || memcmp(now.p, before->p, now.size);
	ctrl_val_free(&now);
	return ch;
}

/* ---------- CP-2: invalid payloads ---------- */

static void compound_invalid(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	struct ctrl_val cur, base;
	struct fails f = { .n = 0 };
	char why[200], field[96];
	valid_base(cx, &cur, &base);
	for (size_t i = 0; i < cp_bad_count(c->q.type); i++) {
		const struct cp_bad *m = cp_bad_at(c->q.type, i);
		struct ctrl_val v;
		ctrl_val_copy(c, &v, &base);
		cp_bad_apply(m, v.p, c->q.elem_size);
		snprintf(field, sizeof(field), "%s = %lld", m->field, (long long)m->value);
		for (int r = 0; r < 2; r++) {
			bool set = r;
			uint32_t idx = 0;
			int e = one(cx, set ? VIDIOC_S_EXT_CTRLS : VIDIOC_TRY_EXT_CTRLS, &v, &idx);
			bool ch = changed_from(cx, &cur);
			enum cp_verdict vd = cp_judge_invalid(m->src, set, e, idx, 0, 1, ch, why, sizeof(why));
			if (vd == CPV_FAIL)
				add_fail(&f, field, why);
			else if (vd == CPV_WARN)
				v_warn("%s (%s): %s%s (CP-2)", field, m->why, why,
				       m->src == CP_FRAMEWORK && !e ? "; only the framework's code refuses it" : "");
			if (ch)	/* put the value back for the next mutation */
				restore(cx, &cur);
		}
		ctrl_val_free(&v);
	}
	ctrl_val_free(&cur);
	ctrl_val_free(&base);
	end_fails(&f, "CP-2");
}

/* ---------- CP-3: reserved fields ---------- */

static void compound_reserved(const struct check_ctx *cx)
{
	const struct ctrl *c = cx->ctrl;
	struct ctrl_val cur, base;
	struct fails f = { .n = 0 };
	char why[200];
	valid_base(cx, &cur, &base);
	for (size_t i = 0; i < cp_reserved_count(c->q.type); i++) {
		const struct cp_reserved *r = cp_reserved_at(c->q.type, i);
		struct ctrl_val v;
		ctrl_val_copy(c, &v, &base);
		memset((uint8_t *)v.p + r->off, 0x5a, r->len);
		uint32_t idx = 0;
		int e = one(cx, VIDIOC_S_EXT_CTRLS, &v, &idx);
		int nz = -1;
		if (!e) {
			struct ctrl_val now = { 0 };
			get_which(cx, V4L2_CTRL_WHICH_CUR_VAL, &now);
			nz = cp_reserved_nonzero(r, now.p, now.size);
			ctrl_val_free(&now);
		}
		enum cp_verdict vd = cp_judge_reserved(e, nz, r->fw_keeps, why, sizeof(why));
		if (vd == CPV_FAIL)
			add_fail(&f, r->field, why);
		else if (vd == CPV_WARN)
			v_warn("%s: %s (CP-3)", r->field, why);
		else
			v_info("%s: %s", r->field, why);
		ctrl_val_free(&v);
	}
	restore(cx, &cur);	/* back to the value it had */
	ctrl_val_free(&cur);
	ctrl_val_free(&base);
	end_fails(&f, "CP-3");
}

/* ---------- applicability ---------- */

/* A codec compound control whose elements are the uapi structure this suite
 * was built with: the offsets of the tables hold (QC-16 judges the size). */
static bool laid_out(const struct ctrl *c, const char **why)
{
	if (!c->have_qext || (c->q.flags & V4L2_CTRL_FLAG_DISABLED) || !ctrl_readable(&c->q))
		return false;
	size_t sz = ctrl_type_struct_size(c->q.type);
	if (!sz || c->q.elem_size != sz) {
		if (sz)
			*why = "elem_size is not the size of the uapi structure (QC-16): field offsets unknown";
		return false;
	}
	return true;
}

static bool has_default(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return cp_default_count(c->q.type) && laid_out(c, why);
}

static bool has_bad(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return cp_bad_count(c->q.type) && laid_out(c, why) && ext_payload_rw(c);
}

static bool has_reserved(const struct ctrl *c, const struct ctrl_model *m, const char **why)
{
	return cp_reserved_count(c->q.type) && laid_out(c, why) && ext_payload_rw(c);
}

static const struct check_def checks[] = {
	{ "compound/default", "CP-1", "DEF_VAL of a codec compound control holds the documented defaults",
	  CHECK_PER_CONTROL, compound_default, has_default, .needs = NEEDS_EXT },
	{ "compound/invalid", "CP-2", "a payload the documentation calls invalid: EINVAL, error_idx per request, nothing applied",
	  CHECK_PER_CONTROL, compound_invalid, has_bad, .needs = NEEDS_EXT },
	{ "compound/reserved", "CP-3", "reserved fields set non-zero are refused or read back zero",
	  CHECK_PER_CONTROL, compound_reserved, has_reserved, .needs = NEEDS_EXT },
};
SUITE(suite_compound, "compound", "Codec compound payloads against the documentation (EXT_CTRLS)", checks);
