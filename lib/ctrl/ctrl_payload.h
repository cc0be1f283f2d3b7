/* Valid payload values for string, integer-array and AREA controls, so
 * that checks can write something other than the current value (spec
 * sections 6 and 7). Codec compound types have no generator. */
#ifndef V4L2C_CTRL_PAYLOAD_H
#define V4L2C_CTRL_PAYLOAD_H
#include <stdbool.h>
#include <stdint.h>
#include "ctrl/ctrl_value.h"

/* A generator exists for this control's type. */
bool payload_can_generate(const struct ctrl *c);
/* Integer array element types (U8, U16, U32, and INTEGER/INTEGER64 arrays). */
bool payload_is_int_array(const struct ctrl *c);
/* Pattern k (0, 1, 2 ...; neighbouring k differ) as a valid value in *out
 * (allocated). elems: element count for a dynamic array (0: the control's
 * current count from the model); ignored otherwise. Strings get a valid
 * length and a buffer of maximum+1 bytes. */
bool payload_pattern(const struct ctrl *c, unsigned k, uint32_t elems, struct ctrl_val *out);
/* A valid value different from cur (same element count). */
bool payload_other(const struct ctrl *c, const struct ctrl_val *cur, struct ctrl_val *out);

/* Integer array element i of buffer p (zero-extended for U8/U16/U32). */
int64_t payload_elem(const struct ctrl *c, const void *p, uint32_t i);
void payload_set_elem(const struct ctrl *c, void *p, uint32_t i, int64_t v);
/* The element count a payload value of `size` bytes holds. */
uint32_t payload_elems(const struct ctrl *c, uint32_t size);
/* String lengths: is len valid for the control (ST-4)? */
bool payload_strlen_valid(const struct ctrl *c, uint64_t len);
#endif
