/*
 * Rendering of a plan (include/hfilegen/plan.h) for people: the before/after
 * rows-per-region chart as SVG, and a self-contained HTML report (the chart
 * inline, the tables, the findings; no external resources). Used by
 * `hfilegen plan`; the text and JSON output live in cmd_plan.c.
 */
#ifndef HFG_CLI_CHART_SVG_H
#define HFG_CLI_CHART_SVG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hfilegen/plan.h"

/* The chart: one group <g class="region" data-region="i"> per region holding
 * a bar per key (raw key, scheme), a shared row axis, the mean line, region
 * labels with start keys, a legend and a title naming the scheme with the
 * skew figures. A standalone SVG document (XML declaration, xmlns); the same
 * text is valid inline in HTML5. Returns 0, or -1 when writing failed. */
int chart_svg_write(FILE *f, const hfg_plan *p);

/* The HTML report; `inputs` names the input for the heading. 0 or -1. */
int chart_html_write(FILE *f, const hfg_plan *p, const char *inputs);

/* Shared formatting: a count with thousands separators ("1,111,111"),
 * rounded; "1.1M"/"250k" style when short is set. */
const char *chart_count(double v, int short_form, char buf[32]);
/* Escaped key (util/escape.h form), cut to max characters with "..." when
 * longer; "(start)" for the empty key when empty_name is set. */
const char *chart_key(const uint8_t *k, size_t n, size_t max, int empty_name, char *buf,
                      size_t cap);

#endif
