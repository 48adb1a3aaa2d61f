/*
 * The plan's chart (SVG) and HTML report. Layout: a title naming both keys,
 * a line of counts, a legend row whose entries carry each key's skew
 * figures, then the plot: a "nice" row axis (steps of 1, 2, 2.5 or 5 x 10^k)
 * with light grid lines, a dashed line at the mean (the even spread), one
 * group of bars per region (raw key left, scheme right, in the Okabe-Ito
 * orange/blue pair that colour-blind readers can tell apart), region numbers
 * and start keys under the bars. Rows are estimated totals (sampled rows x
 * the plan's scale).
 */
#include "cli/chart_svg.h"

#include <math.h>
#include <string.h>

#include "util/buf.h"
#include "util/escape.h"

#define C_BEFORE "#E69F00"
#define C_BEFORE_TEXT "#9a6700" /* the orange darkened for text on white */
#define C_AFTER "#0072B2"
#define C_TEXT "#222222"
#define C_MUTED "#666666"
#define C_GRID "#e6e6e6"
#define FONT "Helvetica, Arial, DejaVu Sans, sans-serif"

const char *chart_count(double v, int short_form, char buf[32]) {
  if (v < 0) v = 0;
  if (short_form && v >= 1e9) snprintf(buf, 32, "%.3gG", v / 1e9);
  else if (short_form && v >= 1e6) snprintf(buf, 32, "%.3gM", v / 1e6);
  else if (short_form && v >= 1e4) snprintf(buf, 32, "%.3gk", v / 1e3);
  else {
    char raw[32];
    int n = snprintf(raw, sizeof raw, "%.0f", v);
    int o = 0;
    for (int i = 0; i < n && o < 30; i++) {
      if (i && (n - i) % 3 == 0) buf[o++] = ',';
      buf[o++] = raw[i];
    }
    buf[o] = 0;
  }
  return buf;
}

const char *chart_key(const uint8_t *k, size_t n, size_t max, int empty_name, char *buf,
                      size_t cap) {
  if (n == 0 && empty_name) {
    snprintf(buf, cap, "(start)");
    return buf;
  }
  hfg_buf b = HFG_BUF_INIT;
  if (hfg_escape(&b, k, n)) {
    snprintf(buf, cap, "?");
  } else if (b.len > max && max > 3) {
    snprintf(buf, cap, "%.*s...", (int)(max - 3), (const char *)b.p);
  } else {
    snprintf(buf, cap, "%.*s", (int)b.len, b.p ? (const char *)b.p : "");
  }
  hfg_buf_free(&b);
  return buf;
}

/* XML text: the markup characters escaped, control bytes dropped. */
static void xml(FILE *f, const char *s) {
  for (; *s; s++) {
    switch (*s) {
      case '<': fputs("&lt;", f); break;
      case '>': fputs("&gt;", f); break;
      case '&': fputs("&amp;", f); break;
      case '"': fputs("&quot;", f); break;
      case '\'': fputs("&#39;", f); break;
      default:
        if ((unsigned char)*s >= 0x20) fputc(*s, f);
    }
  }
}

/* Smallest "nice" step (1, 2, 2.5, 5 x 10^k) giving at most `ticks` steps to max. */
static double nice_step(double max, int ticks) {
  if (max <= 0) return 1;
  double raw = max / ticks, mag = pow(10, floor(log10(raw)));
  static const double m[] = {1, 2, 2.5, 5, 10};
  for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
    if (m[i] * mag >= raw) return fmax(1, m[i] * mag);
  return 10 * mag;
}

typedef struct geom {
  double w, h, left, top, pw, ph, slot, bar, ymax, step;
  size_t n, label_every;
  int two;
} geom;

static double est(const hfg_plan *p, uint64_t v) { return hfg_plan_est(p, v); }

static void layout(const hfg_plan *p, geom *g) {
  g->n = p->nregions;
  g->two = p->before.regions != NULL;
  g->slot = 900.0 / (double)g->n;
  if (g->slot > 72) g->slot = 72;
  if (g->slot < 3) g->slot = 3;
  g->pw = g->slot * (double)g->n;
  g->ph = 300;
  g->left = 84;
  g->top = 112;
  g->w = g->left + g->pw + 90; /* room for the mean label on the right */
  if (g->w < 960) { /* centre a narrow plot */
    g->left += (960 - g->w) / 2;
    g->w = 960;
  }
  g->h = g->top + g->ph + 92;
  g->bar = g->slot * (g->two ? 0.4 : 0.7);
  double max = 0;
  for (size_t i = 0; i < g->n; i++) {
    max = fmax(max, est(p, p->after.regions[i].rows));
    if (g->two) max = fmax(max, est(p, p->before.regions[i].rows));
  }
  g->step = nice_step(max, 5);
  g->ymax = ceil(max / g->step) * g->step;
  if (g->ymax <= 0) g->ymax = g->step;
  g->label_every = (size_t)ceil(26.0 / g->slot);
}

static double ypos(const geom *g, double v) { return g->top + g->ph - g->ph * v / g->ymax; }

static void swatch(FILE *f, double x, double y, const char *color) {
  fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"13\" height=\"13\" rx=\"2\" fill=\"%s\"/>", x,
          y - 11, color);
}

/* Title, counts, and the legend row with each key's skew figures. */
static void title(FILE *f, const hfg_plan *p, const geom *g) {
  char a[32], b[32];
  fprintf(f, "<text x=\"24\" y=\"34\" font-size=\"19\" font-weight=\"bold\" fill=\"%s\">", C_TEXT);
  if (g->two) {
    fputs("Rows per region: raw key ", f);
    xml(f, p->before.key);
    fputs(" vs rowkey scheme ", f);
  } else {
    fputs("Rows per region under rowkey scheme ", f);
  }
  xml(f, p->rowkey);
  fputs("</text>\n", f);
  fprintf(f, "<text x=\"24\" y=\"58\" font-size=\"13\" fill=\"%s\">%zu regions, %s rows%s, "
             "ideal %s per region. Skew: max/mean rows per region and coefficient of "
             "variation (CV).</text>\n",
          C_MUTED, p->nregions, chart_count(est(p, p->after.rows), 0, a),
          p->fraction < 1 ? " (estimated from a sample)" : "",
          chart_count(p->after.rows_skew.mean * p->scale, 0, b));
  double x = 24, y = 88;
  if (g->two) {
    swatch(f, x, y, C_BEFORE);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" fill=\"%s\"><tspan "
               "font-weight=\"bold\">before</tspan> (raw key): max/mean %.2f, CV %.2f</text>\n",
            x + 19, y, C_TEXT, p->before.rows_skew.max_over_mean, p->before.rows_skew.cv);
    x += 335;
  }
  swatch(f, x, y, C_AFTER);
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" fill=\"%s\"><tspan "
             "font-weight=\"bold\">after</tspan> (scheme): max/mean %.2f, CV %.2f</text>\n",
          x + 19, y, C_TEXT, p->after.rows_skew.max_over_mean, p->after.rows_skew.cv);
  x += 335;
  fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
             "stroke-width=\"1.5\" stroke-dasharray=\"5 4\"/>",
          x, y - 4.5, x + 18, y - 4.5, C_MUTED);
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" fill=\"%s\">mean (even spread)</text>\n",
          x + 24, y, C_TEXT);
}

static void axes(FILE *f, const geom *g) {
  char a[32];
  for (double v = 0; v <= g->ymax + g->step / 2; v += g->step) {
    double y = ypos(g, v);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>", g->left, y,
            g->left + g->pw, y, v == 0 ? C_MUTED : C_GRID);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\" fill=\"%s\">%s</text>\n",
            g->left - 8, y + 4, C_MUTED, chart_count(v, 1, a));
  }
  fprintf(f, "<text transform=\"translate(%.1f %.1f) rotate(-90)\" font-size=\"12\" "
             "text-anchor=\"middle\" fill=\"%s\">rows</text>\n",
          g->left - 56, g->top + g->ph / 2, C_MUTED);
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\" fill=\"%s\">"
             "region (start key)</text>\n",
          g->left + g->pw / 2, g->top + g->ph + 58, C_MUTED);
}

static void bar(FILE *f, const geom *g, double x, double v, const char *color) {
  double y = ypos(g, v), h = g->top + g->ph - y;
  if (v > 0 && h < 1) h = 1, y = g->top + g->ph - 1;
  fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>", x, y,
          g->bar, h, color);
}

static void share_label(FILE *f, const geom *g, double x, double v, double total, const char *color) {
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" font-weight=\"bold\" "
             "text-anchor=\"middle\" fill=\"%s\">%.1f%%</text>",
          x + g->bar / 2, ypos(g, v) - 5, color, total > 0 ? 100.0 * v / total : 0.0);
}

static void region_label(FILE *f, const geom *g, size_t i, const hfg_plan_region *r, double cx) {
  char k[64];
  double y = g->top + g->ph + 17;
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\" fill=\"%s\">%zu</text>",
          cx, y, C_TEXT, i);
  double room = g->slot * (double)g->label_every / 6.5; /* characters of 10px text */
  if (room < 5) return;
  chart_key(r->start, r->start_len, (size_t)room - 2, 0, k, sizeof k);
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"middle\" fill=\"%s\">",
          cx, y + 15, C_MUTED);
  if (r->start_len) {
    fputs("'", f);
    xml(f, k);
    fputs("'", f);
  } else {
    fputs("(empty)", f);
  }
  fputs("</text>", f);
}

static void regions(FILE *f, const hfg_plan *p, const geom *g) {
  char k[64], a[32], b[32];
  double tb = g->two ? est(p, p->before.rows) : 0, ta = est(p, p->after.rows);
  for (size_t i = 0; i < g->n; i++) {
    const hfg_plan_region *ra = &p->after.regions[i];
    double x0 = g->left + g->slot * (double)i;
    double xb = x0 + (g->slot - (g->two ? 2 : 1) * g->bar) / 2, xa = g->two ? xb + g->bar : xb;
    double va = est(p, ra->rows), vb = g->two ? est(p, p->before.regions[i].rows) : 0;
    fprintf(f, "<g class=\"region\" data-region=\"%zu\"><title>region %zu, start ", i, i);
    xml(f, chart_key(ra->start, ra->start_len, 40, 1, k, sizeof k));
    if (g->two) fprintf(f, ": before %s rows (%.1f%%), ", chart_count(vb, 0, b), tb > 0 ? 100 * vb / tb : 0);
    else fputs(": ", f);
    fprintf(f, "after %s rows (%.1f%%)</title>", chart_count(va, 0, a), ta > 0 ? 100 * va / ta : 0);
    if (g->two) bar(f, g, xb, vb, C_BEFORE);
    bar(f, g, xa, va, C_AFTER);
    /* the fullest region of each key, when it stands out */
    if (g->two && i == p->before.rows_skew.max_region && p->before.rows_skew.max_over_mean >= 1.1)
      share_label(f, g, xb, vb, tb, C_BEFORE_TEXT);
    if (i == p->after.rows_skew.max_region && p->after.rows_skew.max_over_mean >= 1.1)
      share_label(f, g, xa, va, ta, C_AFTER);
    if (i % g->label_every == 0) region_label(f, g, i, ra, x0 + g->slot / 2);
    fputs("</g>\n", f);
  }
}

static void mean_line(FILE *f, const hfg_plan *p, const geom *g) {
  char a[32];
  double m = p->after.rows_skew.mean * p->scale, y = ypos(g, m);
  fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
             "stroke-width=\"1.5\" stroke-dasharray=\"5 4\"/>",
          g->left, y, g->left + g->pw, y, C_MUTED);
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"%s\">mean %s</text>\n",
          g->left + g->pw + 6, y + 4, C_MUTED, chart_count(m, 1, a));
}

int chart_svg_write(FILE *f, const hfg_plan *p) {
  geom g;
  layout(p, &g);
  fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
             "viewBox=\"0 0 %.0f %.0f\" font-family=\"%s\" role=\"img\">\n",
          g.w, g.h, g.w, g.h, FONT);
  fputs("<title>hfilegen plan: rows per region, raw key vs rowkey scheme</title>\n", f);
  fputs("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n", f);
  title(f, p, &g);
  axes(f, &g);
  regions(f, p, &g);
  mean_line(f, p, &g);
  fprintf(f, "<text x=\"24\" y=\"%.1f\" font-size=\"11\" fill=\"%s\">", g.h - 10, C_MUTED);
  if (g.two) fputs("Same rows, same split keys; only the rowkey differs. ", f);
  fputs("hfilegen plan", f);
  if (p->fraction < 1) fprintf(f, ", sample %.3g%% of %s records", 100 * p->fraction,
                               chart_count((double)p->records_read, 0, (char[32]){0}));
  fputs("</text>\n</svg>\n", f);
  return ferror(f) ? -1 : 0;
}

/* ---- HTML report ---- */

static void html_side_cells(FILE *f, const hfg_plan *p, const hfg_plan_side *s, size_t i,
                            double max, const char *color) {
  char a[32];
  const hfg_plan_region *r = &s->regions[i];
  double rows = est(p, r->rows), total = est(p, s->rows);
  fprintf(f, "<td class=\"n\">%s</td><td class=\"n\">%.1f%%</td><td class=\"n\">%.2f</td>"
             "<td class=\"n\">%.2f</td>",
          chart_count(rows, 0, a), total > 0 ? 100 * rows / total : 0,
          est(p, r->input_bytes) / 1e6, est(p, r->kv_bytes) / 1e6);
  fprintf(f, "<td class=\"bar\"><div style=\"width:%.1f%%;background:%s\"></div></td>",
          max > 0 ? 100 * rows / max : 0, color);
}

static void html_skew_row(FILE *f, const char *name, const char *fmt, double b, double a, int two) {
  fprintf(f, "<tr><th>%s</th>", name);
  if (two) {
    fputs("<td class=\"n\">", f);
    fprintf(f, fmt, b);
    fputs("</td>", f);
  }
  fputs("<td class=\"n\">", f);
  fprintf(f, fmt, a);
  fputs("</td></tr>\n", f);
}

int chart_html_write(FILE *f, const hfg_plan *p, const char *inputs) {
  char a[32], b[32], k[128];
  int two = p->before.regions != NULL;
  fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>hfilegen plan: ",
        f);
  xml(f, p->rowkey);
  fputs("</title>\n<style>\n"
        "body{font-family:" FONT ";color:#222;margin:24px auto;max-width:1200px;padding:0 16px}\n"
        "h1{font-size:22px}h2{font-size:17px;margin-top:28px}\n"
        "table{border-collapse:collapse;font-size:13px}td,th{padding:3px 8px;text-align:left}\n"
        "tr:nth-child(even){background:#f6f6f6}th{font-weight:600}.n{text-align:right}\n"
        "td.bar{width:160px}td.bar div{height:10px}code{background:#f2f2f2;padding:1px 4px}\n"
        ".warning{color:#a33}.info{color:#555}.error{color:#a00;font-weight:bold}\n"
        "dl{display:grid;grid-template-columns:max-content auto;gap:4px 16px}dd{margin:0}\n"
        "</style></head><body>\n<h1>hfilegen plan</h1>\n<dl>\n<dt>input</dt><dd>", f);
  xml(f, inputs);
  fprintf(f, "</dd>\n<dt>records</dt><dd>%s read, %s analysed", chart_count((double)p->records_read, 0, a),
          chart_count((double)p->records_sampled, 0, b));
  if (p->fraction < 1) fprintf(f, " (sample %.3g%%; figures scaled by %.3f)", 100 * p->fraction, p->scale);
  if (p->rejected) fprintf(f, ", %s rejected", chart_count((double)p->rejected, 0, a));
  fputs("</dd>\n<dt>rowkey (after)</dt><dd><code>", f);
  xml(f, p->rowkey);
  fputs("</code></dd>\n", f);
  if (two) {
    fputs("<dt>raw key (before)</dt><dd><code>", f);
    xml(f, p->before.key);
    fputs("</code> &mdash; same rows, same regions, no scheme</dd>\n", f);
  }
  fprintf(f, "<dt>regions</dt><dd>%zu, ", p->nregions);
  xml(f, p->splits_source);
  fputs("</dd>\n<dt>HFile size</dt><dd>estimated per cell as a KeyValue of 12 + 8 + rowkey + "
        "family + qualifier + value + 3 bytes (key infrastructure, lengths, tags length, mvcc); "
        "data blocks only, uncompressed",
        f);
  if (p->measured)
    fprintf(f, "; %s measured on %s sorted sample rows: compressed/raw = %.3f", hfg_codec_name(p->codec),
            chart_count((double)p->measured_rows, 0, a),
            p->measured_raw ? (double)p->measured_compressed / (double)p->measured_raw : 1.0);
  fputs("</dd>\n</dl>\n", f);
  chart_svg_write(f, p);
  fputs("<h2>Skew</h2>\n<table><tr><th></th>", f);
  if (two) fputs("<th class=\"n\">before (raw key)</th>", f);
  fputs("<th class=\"n\">after (scheme)</th></tr>\n", f);
  const hfg_plan_skew *sb = &p->before.rows_skew, *sa = &p->after.rows_skew;
  html_skew_row(f, "max / mean rows", "%.2f", sb->max_over_mean, sa->max_over_mean, two);
  html_skew_row(f, "coefficient of variation (rows)", "%.2f", sb->cv, sa->cv, two);
  html_skew_row(f, "max / mean HFile bytes", "%.2f", p->before.bytes_skew.max_over_mean,
                p->after.bytes_skew.max_over_mean, two);
  html_skew_row(f, "fullest region", "%.0f", (double)sb->max_region, (double)sa->max_region, two);
  html_skew_row(f, "empty regions", "%.0f", (double)sb->empty, (double)sa->empty, two);
  html_skew_row(f, "regions over 2&times; the mean", "%.0f", (double)sb->over_2x,
                (double)sa->over_2x, two);
  fputs("</table>\n<h2>Regions</h2>\n<table><tr><th>region</th><th>start key</th>", f);
  const char *cols = "<th class=\"n\">rows</th><th class=\"n\">share</th><th class=\"n\">input MB</th>"
                     "<th class=\"n\">est. HFile MB</th><th>%s</th>";
  if (two) fprintf(f, cols, "before (raw key)");
  fprintf(f, cols, "after (scheme)");
  fputs("</tr>\n", f);
  double max = sa->max * p->scale;
  if (two && sb->max * p->scale > max) max = sb->max * p->scale;
  for (size_t i = 0; i < p->nregions; i++) {
    const hfg_plan_region *r = &p->after.regions[i];
    fprintf(f, "<tr><td class=\"n\">%zu</td><td><code>", i);
    xml(f, chart_key(r->start, r->start_len, 40, 1, k, sizeof k));
    fputs("</code></td>", f);
    if (two) html_side_cells(f, p, &p->before, i, max, C_BEFORE);
    html_side_cells(f, p, &p->after, i, max, C_AFTER);
    fputs("</tr>\n", f);
  }
  fputs("</table>\n", f);
  if (p->hot_field) {
    fputs("<h2>Heaviest values of <code>", f);
    xml(f, p->hot_field);
    fprintf(f, "</code>%s</h2>\n", p->hot_is_bucket_field ? " (the scheme's bucket field)" : "");
  }
  if (p->hot_field && p->nhot && p->hot[0].rows - p->hot[0].error <= 1) {
    fprintf(f, "<p>Every value is rare: none holds more than %s of the %s analysed rows.</p>\n",
            chart_count((double)p->hot[0].rows, 0, a), chart_count((double)p->after.rows, 0, b));
  } else if (p->hot_field) {
    fputs("<table><tr><th>value</th><th class=\"n\">rows</th><th class=\"n\">share</th>"
          "<th class=\"n\">&times; region mean</th><th>region</th></tr>\n",
          f);
    for (size_t i = 0; i < p->nhot; i++) {
      const hfg_plan_value *v = &p->hot[i];
      double lo = (double)(v->rows - v->error);
      fputs("<tr><td><code>", f);
      xml(f, chart_key(v->value, v->len, 40, 0, k, sizeof k));
      fprintf(f, "</code></td><td class=\"n\">%s%s</td><td class=\"n\">%.2f%%</td>"
                 "<td class=\"n\">%.2f</td><td>",
              v->error ? "&ge; " : "", chart_count(est(p, (uint64_t)lo), 0, a),
              p->after.rows ? 100 * lo / (double)p->after.rows : 0,
              sa->mean > 0 ? lo / sa->mean : 0);
      if (v->spread) fputs("spread over regions", f);
      else fprintf(f, "%zu", v->region);
      fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
  }
  fputs("<h2>Findings</h2>\n<ul>\n", f);
  for (size_t i = 0; i < hfg_findings_count(p->findings); i++) {
    const hfg_finding *x = hfg_findings_get(p->findings, i);
    fprintf(f, "<li><span class=\"%s\">%s</span> <code>%s</code> ", hfg_severity_name(x->severity),
            hfg_severity_name(x->severity), x->code);
    xml(f, x->message);
    fputs("<br><small>why: ", f);
    xml(f, x->why);
    fputs("; fix: ", f);
    xml(f, x->fix);
    fputs("</small></li>\n", f);
  }
  if (!hfg_findings_count(p->findings)) fputs("<li>none</li>\n", f);
  fputs("</ul>\n</body></html>\n", f);
  return ferror(f) ? -1 : 0;
}
