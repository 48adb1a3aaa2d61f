/*
 * `hfilegen plan`: a build's dry run (include/hfilegen/plan.h) on the
 * terminal (a before/after table with bars, skew figures, hottest regions,
 * heaviest values, findings), as JSON, as an SVG chart and as an HTML report
 * (chart_svg.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/chart_svg.h"
#include "cli/cli.h"
#include "cli/cli_hbase.h"
#include "cli/cli_checks.h"
#include "cli/cli_rekey_src.h"
#include "cli/cli_util.h"
#include "cli/opts.h"
#include "hfilegen/plan.h"
#include "scheme/lists.h"
#include "input/source_db.h"

static const char USAGE[] =
    "usage: hfilegen plan [--job FILE] --rowkey TEMPLATE (--splits FILE | --regions N)\n"
    "                     [--sample FRACTION] [--raw-key TEMPLATE | --no-raw-key]\n"
    "                     [--hot-field COLUMN] [--top N] [--seed N]\n"
    "                     [--svg FILE] [--report FILE.html] [--json] [input options] INPUT...\n"
    "\n"
    "Dry run of 'hfilegen build': reads the input (or a sampled fraction) as build would,\n"
    "places every row under the split keys and shows per region rows, input MB and the\n"
    "estimated HFile MB, the skew (max/mean, coefficient of variation), the hottest regions\n"
    "and the heaviest values of the scheme's bucket field - beside the same rows under the\n"
    "raw key (the first column, or --raw-key) against the same regions. Nothing is written\n"
    "but the --svg chart and the --report page.\n"
    "\n"
    "  --splits FILE      split keys (one escaped key per line), as build takes them\n"
    "  --table T          instead: the live table's regions (--zookeeper host:port[,...]\n"
    "                     --znode-parent P --hbase-site FILE or $HBASE_CONF_DIR)\n"
    "  --regions N        without --splits: keys aligned to the scheme's buckets\n"
    "  --sample F         analyse a deterministic random fraction F of the records (0 < F <= 1)\n"
    "  --seed N           sampling seed (default 0)\n"
    "  --raw-key T        the comparison key (default: the first column's bytes)\n"
    "  --no-raw-key       no comparison\n"
    "  --hot-field COL    column whose heaviest values are counted (default: the first\n"
    "                     column the rowkey reads, i.e. a salted scheme's bucket field)\n"
    "  --top N            hottest regions / heaviest values listed (default 5)\n"
    "  --svg FILE         the before/after chart as SVG\n"
    "  --report FILE      a self-contained HTML report (chart + tables)\n"
    "  --json             the plan as JSON on stdout instead of the table\n"
    "  --codec C          also compress a sorted sample of cells with C to measure the ratio\n"
    "input:   --format csv|tsv  --delimiter C  --no-header  --columns a,b,c\n"
    "         (format: TSV for names ending in .tsv/.tab[.gz|.zst|.bz2|.xz], else CSV;\n"
    "         --columns alone means no header, --header --columns renames the header's)\n"
    "dumps:   --format mysql|pg-text|pg-csv  --null-string S  --fields-terminated-by S\n"
    "         --fields-enclosed-by C  --fields-escaped-by C  --lines-terminated-by S\n"
    "cells:   --family NAME  --map COL=FAMILY:QUALIFIER[:ENCODING] | COL=-  --keep-key-columns\n"
    "         --empty skip|store  --block-size N\n"
    CLI_REKEY_SRC_USAGE
    "         (--raw-key defaults to the old rowkey; --hot-field names an old key's field)\n"
    "Estimated HFile bytes per cell = 12 + 8 + rowkey + family + qualifier + value + 3\n"
    "(a v3 KeyValue with tags length and mvcc), data blocks only, before compression.\n";

#define BAR 14

static double est(const hfg_plan *p, uint64_t v) { return hfg_plan_est(p, v); }

static void bar(int width, int last) {
  for (int i = 0; i < BAR && (!last || i < width); i++) putchar(i < width ? '#' : ' ');
}

static void side_cols(const hfg_plan *p, const hfg_plan_side *s, size_t i, double max, int last) {
  char a[32];
  const hfg_plan_region *r = &s->regions[i];
  double rows = est(p, r->rows), total = est(p, s->rows);
  printf("%9s %5.1f%% %7.2f %8.2f ", chart_count(rows, 0, a), total > 0 ? 100 * rows / total : 0,
         est(p, r->input_bytes) / 1e6, est(p, r->kv_bytes) / 1e6);
  bar(max > 0 ? (int)lround(BAR * rows / max) : 0, last);
}

static void hottest(const hfg_plan *p, const hfg_plan_side *s) {
  for (size_t i = 0; i < s->nhottest; i++) {
    size_t r = s->hottest[i];
    printf("%s%zu (%.1f%%)", i ? ", " : "", r,
           s->rows ? 100.0 * (double)s->regions[r].rows / (double)s->rows : 0.0);
  }
  putchar('\n');
}

static void print_text(const hfg_plan *p, const char *inputs) {
  char a[32], b[32], k[64];
  int two = p->before.regions != NULL;
  printf("hfilegen plan: %s\n", inputs);
  printf("  records    %s read, %s analysed", chart_count((double)p->records_read, 0, a),
         chart_count((double)p->records_sampled, 0, b));
  if (p->fraction < 1)
    printf(" (sample %.3g%%: rows and MB below are estimates, x%.2f)", 100 * p->fraction, p->scale);
  if (p->rejected) printf(", %s rejected", chart_count((double)p->rejected, 0, a));
  if (p->without_cells)
    printf(", %s without cells (no row, as build writes none)",
           chart_count((double)p->without_cells, 0, a));
  if (p->deletes_read)
    printf(", %s of them hard deletes (--deletes: a DeleteFamily per family each)",
           chart_count((double)p->deletes_read, 0, a));
  printf("\n  rowkey     %s   (after)\n", p->rowkey);
  if (two) printf("  raw key    %s   (before: the same rows and regions without the scheme)\n", p->before.key);
  printf("  regions    %zu, %s\n", p->nregions, p->splits_source);
  double cpr = p->after.rows ? (double)p->after.cells / (double)p->after.rows : 0;
  printf("  HFile est. per cell 12 + 8 + rowkey + family + qualifier + value + 3 bytes (KeyValue\n"
         "             with tags length and mvcc; data blocks, uncompressed): %.2f cells/row, "
         "%.1f B/row after",
         cpr, p->after.rows ? (double)p->after.kv_bytes / (double)p->after.rows : 0);
  if (two) printf(", %.1f B/row before", p->before.rows ? (double)p->before.kv_bytes / (double)p->before.rows : 0);
  printf("\n\n");
  double max = p->after.rows_skew.max;
  if (two && p->before.rows_skew.max > max) max = p->before.rows_skew.max;
  max *= p->scale;
  printf("%-6s %-12s ", "", "");
  if (two) printf("| %-*s ", BAR + 34, "BEFORE: raw key");
  printf("| %s\n", "AFTER: scheme");
  printf("%-6s %-12s ", "region", "start key");
  for (int s = two ? 0 : 1; s < 2; s++)
    printf("| %9s %6s %7s %8s%-*s", "rows", "share", "MB", "HFile MB", s ? 0 : BAR + 2, "");
  putchar('\n');
  for (size_t i = 0; i < p->nregions; i++) {
    const hfg_plan_region *r = &p->after.regions[i];
    printf("%6zu %-12s ", i, chart_key(r->start, r->start_len, 12, 1, k, sizeof k));
    if (two) {
      printf("| ");
      side_cols(p, &p->before, i, max, 0);
    }
    printf("%s| ", two ? " " : "");
    side_cols(p, &p->after, i, max, 1);
    putchar('\n');
  }
  printf("%6s %-12s ", "total", "");
  const hfg_plan_side *sides[2] = {&p->before, &p->after};
  for (int s = two ? 0 : 1; s < 2; s++)
    printf("| %9s %5.1f%% %7.2f %8.2f%-*s", chart_count(est(p, sides[s]->rows), 0, a), 100.0,
           est(p, sides[s]->input_bytes) / 1e6, est(p, sides[s]->kv_bytes) / 1e6, s ? 0 : BAR + 2, "");
  printf("\n\nskew                               %s after (scheme)\n", two ? "before (raw key)" : "");
  const hfg_plan_skew *sb = &p->before.rows_skew, *sa = &p->after.rows_skew;
  printf("  %-32s ", "max / mean rows");
  if (two) printf("%-17.2f", sb->max_over_mean);
  printf("%.2f\n", sa->max_over_mean);
  printf("  %-32s ", "coefficient of variation (rows)");
  if (two) printf("%-17.2f", sb->cv);
  printf("%.2f\n", sa->cv);
  printf("  %-32s ", "max / mean HFile bytes");
  if (two) printf("%-17.2f", p->before.bytes_skew.max_over_mean);
  printf("%.2f\n", p->after.bytes_skew.max_over_mean);
  printf("  %-32s ", "empty regions");
  if (two) printf("%-17zu", sb->empty);
  printf("%zu\n", sa->empty);
  printf("  %-32s ", "regions over 2x the mean");
  if (two) printf("%-17zu", sb->over_2x);
  printf("%zu\n", sa->over_2x);
  printf("\nhottest regions (share of rows)\n");
  if (two) {
    printf("  before: ");
    hottest(p, &p->before);
  }
  printf("  after:  ");
  hottest(p, &p->after);
  if (p->hot_field) {
    printf("\nheaviest values of %s%s\n", p->hot_field,
           p->hot_is_bucket_field ? " (the scheme's bucket field: all rows of a value share a bucket)" : "");
    if (p->nhot && p->hot[0].rows - p->hot[0].error <= 1) {
      if (p->hot_exact)
        printf("  every value occurs once in the %s analysed rows\n", chart_count((double)p->after.rows, 0, a));
      else
        printf("  every value is rare: none holds more than %s of the %s analysed rows (%.3f%%)\n",
               chart_count((double)p->hot[0].rows, 0, a), chart_count((double)p->after.rows, 0, b),
               100.0 * (double)p->hot[0].rows / (double)(p->after.rows ? p->after.rows : 1));
    } else {
      printf("  %-24s %12s %8s %13s  %s\n", "value", "rows", "share", "x region mean", "region");
      for (size_t i = 0; i < p->nhot; i++) {
        const hfg_plan_value *v = &p->hot[i];
        double lo = (double)(v->rows - v->error);
        if (lo <= 1) break;
        char rows[40];
        snprintf(rows, sizeof rows, "%s%s", v->error ? ">= " : "", chart_count(est(p, (uint64_t)lo), 0, a));
        printf("  %-24s %12s %7.2f%% %13.2f  ", chart_key(v->value, v->len, 24, 0, k, sizeof k), rows,
               p->after.rows ? 100 * lo / (double)p->after.rows : 0, sa->mean > 0 ? lo / sa->mean : 0);
        if (v->spread) printf("spread over regions\n");
        else printf("%zu\n", v->region);
      }
    }
  }
  if (p->measured) {
    double ratio = p->measured_raw ? (double)p->measured_compressed / (double)p->measured_raw : 1;
    printf("\ncompression (%s, measured on %s sorted sample rows in blocks): %.2f MB -> %.2f MB, "
           "ratio %.3f\n  est. compressed HFile data: %.2f MB after (%.2f MB uncompressed)\n",
           hfg_codec_name(p->codec), chart_count((double)p->measured_rows, 0, a),
           (double)p->measured_raw / 1e6, (double)p->measured_compressed / 1e6, ratio,
           est(p, p->after.kv_bytes) * ratio / 1e6, est(p, p->after.kv_bytes) / 1e6);
  }
  size_t nf = hfg_findings_count(p->findings);
  printf("\n%s\n", nf ? "findings" : "findings: none");
  for (size_t i = 0; i < nf; i++) {
    const hfg_finding *x = hfg_findings_get(p->findings, i);
    printf("  %s [%s] %s\n      why: %s\n      fix: %s\n", hfg_severity_name(x->severity), x->code,
           x->message, x->why, x->fix);
  }
}

/* ---- JSON ---- */

static void json_skew(const hfg_plan_skew *k) {
  printf("{\"total\": %.0f, \"mean\": %.3f, \"max\": %.0f, \"min\": %.0f, \"max_region\": %zu, "
         "\"max_over_mean\": %.4f, \"cv\": %.4f, \"empty\": %zu, \"over_2x\": %zu}",
         k->total, k->mean, k->max, k->min, k->max_region, k->max_over_mean, k->cv, k->empty,
         k->over_2x);
}

static void json_side(const hfg_plan *p, const hfg_plan_side *s) {
  printf("{\"key\": ");
  cli_json_str(stdout, s->key);
  printf(", \"rows\": %llu, \"cells\": %llu, \"input_bytes\": %llu, \"kv_bytes\": %llu, "
         "\"key_bytes\": %llu,\n    \"rows_skew\": ",
         (unsigned long long)s->rows, (unsigned long long)s->cells,
         (unsigned long long)s->input_bytes, (unsigned long long)s->kv_bytes,
         (unsigned long long)s->key_bytes);
  json_skew(&s->rows_skew);
  printf(",\n    \"bytes_skew\": ");
  json_skew(&s->bytes_skew);
  printf(",\n    \"hottest\": [");
  for (size_t i = 0; i < s->nhottest; i++) printf("%s%zu", i ? ", " : "", s->hottest[i]);
  printf("],\n    \"regions\": [");
  for (size_t i = 0; i < p->nregions; i++) {
    const hfg_plan_region *r = &s->regions[i];
    printf("%s\n      {\"region\": %zu, \"start\": ", i ? "," : "", i);
    cli_json_bytes(stdout, r->start, r->start_len);
    printf(", \"end\": ");
    cli_json_bytes(stdout, r->end, r->end_len);
    printf(", \"rows\": %llu, \"cells\": %llu, \"input_bytes\": %llu, \"kv_bytes\": %llu, "
           "\"est_rows\": %.0f, \"est_hfile_bytes\": %.0f}",
           (unsigned long long)r->rows, (unsigned long long)r->cells,
           (unsigned long long)r->input_bytes, (unsigned long long)r->kv_bytes, est(p, r->rows),
           est(p, r->kv_bytes));
  }
  printf("]}");
}

static void print_json(const hfg_plan *p) {
  printf("{\"records_read\": %llu, \"records_sampled\": %llu, \"rejected\": %llu, "
         "\"without_cells\": %llu, \"raw_unkeyed\": %llu, \"deletes_read\": %llu, "
         "\"input_bytes\": %llu, \"fraction\": %g, \"scale\": %.6f,\n",
         (unsigned long long)p->records_read, (unsigned long long)p->records_sampled,
         (unsigned long long)p->rejected, (unsigned long long)p->without_cells,
         (unsigned long long)p->raw_unkeyed, (unsigned long long)p->deletes_read,
         (unsigned long long)p->input_bytes, p->fraction, p->scale);
  printf(" \"rowkey\": ");
  cli_json_str(stdout, p->rowkey);
  printf(", \"splits\": ");
  cli_json_str(stdout, p->splits_source);
  printf(", \"regions\": %zu,\n \"hfile_estimate\": \"per cell 12 + 8 + rowkey + family + "
         "qualifier + value + 3 bytes; data blocks, uncompressed\",\n \"after\": ",
         p->nregions);
  json_side(p, &p->after);
  printf(",\n \"before\": ");
  if (p->before.regions) json_side(p, &p->before);
  else printf("null");
  printf(",\n \"hot_field\": ");
  if (p->hot_field) cli_json_str(stdout, p->hot_field);
  else printf("null");
  printf(", \"hot_is_bucket_field\": %s, \"hot_exact\": %s, \"hot\": [",
         p->hot_is_bucket_field ? "true" : "false", p->hot_exact ? "true" : "false");
  for (size_t i = 0; i < p->nhot; i++) {
    const hfg_plan_value *v = &p->hot[i];
    printf("%s\n   {\"value\": ", i ? "," : "");
    cli_json_bytes(stdout, v->value, v->len);
    printf(", \"rows\": %llu, \"error\": %llu, \"region\": %zu, \"spread\": %s}",
           (unsigned long long)v->rows, (unsigned long long)v->error, v->region,
           v->spread ? "true" : "false");
  }
  printf("],\n \"compression\": ");
  if (p->measured)
    printf("{\"codec\": \"%s\", \"rows\": %llu, \"raw\": %llu, \"compressed\": %llu}",
           hfg_codec_name(p->codec), (unsigned long long)p->measured_rows,
           (unsigned long long)p->measured_raw, (unsigned long long)p->measured_compressed);
  else
    printf("null");
  printf(",\n \"findings\": [");
  for (size_t i = 0; i < hfg_findings_count(p->findings); i++) {
    const hfg_finding *x = hfg_findings_get(p->findings, i);
    printf("%s\n   {\"severity\": \"%s\", \"code\": \"%s\", \"message\": ", i ? "," : "",
           hfg_severity_name(x->severity), x->code);
    cli_json_str(stdout, x->message);
    printf(", \"why\": ");
    cli_json_str(stdout, x->why);
    printf(", \"fix\": ");
    cli_json_str(stdout, x->fix);
    printf("}");
  }
  printf("]}\n");
}

/* ---- the command ---- */

static int write_file(const char *path, const hfg_plan *p, const char *inputs, int html) {
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "hfilegen plan: %s: %s\n", path, strerror(errno));
    return -1;
  }
  int rc = html ? chart_html_write(f, p, inputs) : chart_svg_write(f, p);
  if (fclose(f) || rc) {
    fprintf(stderr, "hfilegen plan: %s: write failed\n", path);
    return -1;
  }
  return 0;
}

static int parse_fraction(const char *v, double *out) {
  char *end;
  errno = 0;
  if (!(v[0] == '.' || (v[0] >= '0' && v[0] <= '9'))) return -1; /* no space, sign, inf, nan */
  double d = strtod(v, &end);
  if (*end == '%') d /= 100, end++;
  if (end == v || *end || errno || !(d > 0 && d <= 1)) return -1;
  *out = d;
  return 0;
}

int cmd_plan(int argc, char **argv) {
  hfg_build_options o;
  hfg_build_options_init(&o);
  hfg_plan_options po;
  hfg_plan_options_init(&po);
  po.build = &o;
  const char **inputs = NULL, **maps = NULL;
  char **cols = NULL;
  size_t ninputs = 0, nmaps = 0;
  const char *svg = NULL, *report = NULL;
  int json = 0, rc = 2, codec_given = 0;
  hfg_plan *p = NULL;
  cli_hbase_args hb;
  memset(&hb, 0, sizeof hb);
  hfg_hbase_table live;
  memset(&live, 0, sizeof live);
  hfg_keylist *live_keys = NULL;
  cli_rekey_src rk;
  cli_rekey_src_init(&rk);
  cli_job_key_hook(cli_hbase_job_key, &hb);
  if (cli_load_job_args(argc, argv, &o, &inputs, &ninputs, &maps, &nmaps)) goto out;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    int rkf = cli_rekey_src_flag(&rk, argc, argv, &i, "plan");
    if (rkf < 0) goto out;
    if (rkf) continue;
    int takes = !strcmp(a, "--job") || !strcmp(a, "--input") || !strcmp(a, "--regions") ||
                !strcmp(a, "--sample") || !strcmp(a, "--seed") || !strcmp(a, "--raw-key") ||
                !strcmp(a, "--hot-field") || !strcmp(a, "--top") || !strcmp(a, "--svg") ||
                !strcmp(a, "--report");
    if (takes && !v) {
      fprintf(stderr, "hfilegen plan: %s needs a value\n", a);
      goto out;
    }
    uint64_t n;
    int hk = takes ? 0 : cli_hbase_flag(&hb, argc, argv, &i, 1, "plan");
    if (hk < 0) goto out;
    if (hk) continue;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(USAGE, stdout);
      rc = 0;
      goto out;
    } else if (!strcmp(a, "--json")) {
      json = 1;
    } else if (!strcmp(a, "--no-raw-key")) {
      po.no_raw_key = 1;
    } else if (takes) {
      i++;
      if (!strcmp(a, "--input")) inputs[ninputs++] = v;
      else if (!strcmp(a, "--raw-key")) po.raw_key = v;
      else if (!strcmp(a, "--hot-field")) po.hot_field = v;
      else if (!strcmp(a, "--svg")) svg = v;
      else if (!strcmp(a, "--report")) report = v;
      else if (!strcmp(a, "--sample")) {
        if (parse_fraction(v, &po.sample)) {
          fprintf(stderr, "hfilegen plan: bad --sample '%s' (a fraction in (0, 1], e.g. 0.01 or 1%%)\n", v);
          goto out;
        }
      } else if (!strcmp(a, "--job")) {
        /* read above */
      } else {
        if (cli_parse_u64(v, &n) || (n == 0 && strcmp(a, "--seed"))) {
          fprintf(stderr, "hfilegen plan: bad %s '%s' (a number%s)\n", a, v,
                  strcmp(a, "--seed") ? " >= 1" : "");
          goto out;
        }
        if (!strcmp(a, "--regions")) po.regions = n;
        else if (!strcmp(a, "--seed")) po.seed = n;
        else po.top = (size_t)n;
      }
    } else if (a[0] != '-' || !strcmp(a, "-")) {
      inputs[ninputs++] = a;
    } else {
      if (!strcmp(a, "--codec")) codec_given = 1;
      if (cli_apply_build_flag(&o, a, v, maps, &nmaps, &cols, &i)) goto out;
    }
  }
  o.inputs = inputs;
  o.ninputs = ninputs;
  o.mappings = maps;
  o.nmappings = nmaps;
  po.measure_codec = codec_given;
  if ((!ninputs && !rk.given) || !o.rowkey) {
    fprintf(stderr, "hfilegen plan: needs --rowkey and at least one input\n%s", USAGE);
    goto out;
  }
  if (cli_check_rowkey_syntax("plan", o.rowkey) || cli_check_family_options("plan", &o) ||
      cli_check_db_format("plan", &o))
    goto out;
  if (cli_rekey_src_check(&rk, ninputs, "plan")) goto out;
  cli_hbase_job_precedence(&hb, &o.splits_file, argc, argv, "plan");
  if (o.splits_file && po.regions) {
    fprintf(stderr, "hfilegen plan: --splits and --regions exclude each other\n");
    goto out;
  }
  if (hb.table) {
    if (o.splits_file || po.regions) {
      fprintf(stderr, "hfilegen plan: --table excludes --splits and --regions\n");
      goto out;
    }
    if ((rc = cli_hbase_fetch(&hb, 0, &live, "plan"))) goto out;
    rc = 1;
    if (!(live_keys = keylist_new())) goto out;
    for (size_t k = 1; k < live.nregions; k++)
      if (keylist_add(live_keys, live.regions[k].start, live.regions[k].start_len)) goto out;
    po.splits = live_keys;
    po.splits_desc = hb.source;
    rc = 2;
  }
  if ((rc = cli_check_header_as_data("plan", &o)) != 0) goto out;
  rc = 2;
  cli_warn_splits("plan", o.splits_file);
  if (cli_check_incremental(&o)) goto out;
  char err[1024];
  if (rk.given) { /* the old table's rows, re-keyed */
    rk.ro.build = o;
    po.build = &rk.ro.build;
    po.rekey = &rk.ro;
  }
  if (hfg_plan_run(&po, &p, err, sizeof err)) {
    fprintf(stderr, "hfilegen plan: %s\n", err);
    cli_splits_hint(stderr, "plan", o.splits_file, err);
    rc = cli_is_usage_error(err) ? 2 : 1; /* a flag the columns refuse: usage */
    goto out;
  }
  char desc[512];
  size_t dl = 0;
  desc[0] = 0;
  for (size_t i = 0; i < ninputs && dl < sizeof desc - 1; i++) {
    char shown[512]; /* a database URI without its password */
    hfg_db_redact(inputs[i], shown, sizeof shown);
    dl += (size_t)snprintf(desc + dl, sizeof desc - dl, "%s%s", i ? ", " : "", shown);
  }
  if (rk.given) snprintf(desc, sizeof desc, "%.500s", rk.desc);
  rc = 0;
  if (json) print_json(p);
  else print_text(p, desc);
  if (svg && write_file(svg, p, desc, 0)) rc = 1;
  if (report && write_file(report, p, desc, 1)) rc = 1;
  if (!json && (svg || report) && !rc)
    printf("\nwrote%s%s%s%s\n", svg ? " " : "", svg ? svg : "", report ? " " : "", report ? report : "");
out:
  hfg_keylist_free(live_keys);
  hfg_hbase_table_free(&live);
  hfg_plan_free(p);
  free(inputs);
  free(maps);
  cli_free_columns(cols, &o);
  return rc;
}
