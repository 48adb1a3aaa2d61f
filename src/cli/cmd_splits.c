/*
 * `hfilegen splits`: split keys for pre-splitting a table, aligned to a
 * rowkey scheme's bucket prefix or by HBase's RegionSplitter algorithms, as a
 * splits file, an hbase shell `create` statement or JSON.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"
#include "cli/cli_flags.h"
#include "cli/cli_rekey_src.h"
#include "cli/cli_util.h"
#include "cli/opts.h"
#include "hfilegen/plan.h"
#include "hfilegen/scheme.h"
#include "build/splits.h"
#include "util/escape.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: hfilegen splits --regions N [--rowkey TEMPLATE] [--algo ALGO]\n"
          "                       [--format lines|shell|json] [-o FILE]\n"
          "                       [--table T] [--family CF] [--codec C] [--bloom none|row|rowcol|rowprefix:N]\n"
          "                       [--block-size N]\n"
          "       hfilegen splits --algo sample --rowkey T --regions N --input FILE... [--sample F]\n"
          "                       [--input-format csv|tsv] [--delimiter C] [--[no-]header] [--columns a,b]\n"
          "                       [--input-format mysql|pg-text|pg-csv] [--null-string S]\n"
          "                       [--fields-terminated-by S] [--fields-enclosed-by C]\n"
          "                       [--fields-escaped-by C] [--lines-terminated-by S] (as for build)\n"
          "       hfilegen splits --algo sample --rowkey T --regions N --from DIR [--snapshot NAME]\n"
          "                       --old-key PATTERN [--raw] [--as-of MILLIS] [--sample F]\n"
          "                       (the old table's rows re-keyed, as hfilegen rekey reads them)\n"
          "\n"
          "  --algo scheme      align to the template's bucket prefix (default with --rowkey)\n"
          "         hex         RegionSplitter HexStringSplit, 00000000..ffffffff (default without)\n"
          "         hex-legacy  HexStringSplit of HBase <= 1.x (range not +1)\n"
          "         decimal     DecimalStringSplit, 00000000..99999999\n"
          "         uniform     UniformSplit, 8 raw bytes\n"
          "         sample      balanced by HFile bytes: quantiles of the template's keys over (a\n"
          "                     --sample fraction of) the --input records (see hfilegen plan)\n"
          "  --format lines     one key per line, bytes escaped (\\\\, \\xNN): a splits file (default);\n"
          "                     in a splits file '#' starts a comment line, and a key starting\n"
          "                     with '#' or ending in a space/TAB is written \\x23, \\x20, \\x09\n"
          "                     (trailing whitespace is refused); an empty file is one region\n"
          "           shell     hbase shell: create 'T', {NAME => 'CF', ...}, SPLITS => [...]\n"
          "           json      {\"algorithm\", \"regions\", \"splits\", \"splits_hex\", \"warnings\"}\n"
          "  shell defaults: --table t --family cf --codec NONE --bloom ROW --block-size 64k\n"
          "                  (build's defaults: pass build's --codec/--bloom/--block-size here too)\n"
          "With --rowkey, split keys the scheme can never produce in order are refused.\n"
          "\n"
          "       hfilegen splits --table T [--zookeeper Q] [--format lines|shell|json] [-o FILE]\n"
          "  without --regions: the live table's split points, from hbase:meta (connection:\n"
          "  --zookeeper host:port[,...] --znode-parent /hbase --hbase-site FILE or\n"
          "  $HBASE_CONF_DIR/hbase-site.xml, --hbase-timeout MS)\n");
}

/* HBase shell COMPRESSION names; hfilegen's codec names map onto them. */
static const char *shell_codec(const char *c) {
  static const char *const map[][2] = {
      {"none", "NONE"}, {"gz", "GZ"},         {"gzip", "GZ"},         {"snappy", "SNAPPY"},
      {"lz4", "LZ4"},   {"zstd", "ZSTD"},     {"zstd-hadoop", "ZSTD"}, {"zstd-hbase", "ZSTD"},
      {"lzo", "LZO"},   {"bzip2", "BZIP2"}};
  char low[32];
  size_t n = strlen(c);
  if (n >= sizeof low) return NULL;
  for (size_t i = 0; i <= n; i++) low[i] = (char)tolower((unsigned char)c[i]);
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (!strcmp(low, map[i][0])) return map[i][1];
  return NULL;
}

/* build's --bloom (none, row, rowcol, rowprefix:N) as the shell's BLOOMFILTER;
 * *prefix gets N of rowprefix:N, which HBase needs in the family's
 * CONFIGURATION (BloomFilterUtil.getBloomFilterParam throws without it). */
static const char *shell_bloom(const char *b, uint32_t *prefix) {
  hfg_bloom_type t;
  return hfg_bloom_spec_parse(b, &t, prefix) ? NULL : hfg_bloom_type_name(t);
}

int cmd_splits(int argc, char **argv) {
  if (cmd_splits_live_wanted(argc, argv)) return cmd_splits_live(argc, argv);
  const char *tmpl = NULL, *algo_s = NULL, *fmt = "lines", *outp = NULL;
  const char *table = "t", *family = "cf", *codec = "NONE", *bloom = "ROW"; /* build's defaults */
  uint64_t regions = 0, block = 65536;
  int have_regions = 0;
  /* --algo sample: the input, read as build reads it */
  hfg_build_options bo;
  hfg_build_options_init(&bo);
  hfg_plan_options po;
  hfg_plan_options_init(&po);
  const char **inputs = calloc((size_t)argc + 1, sizeof *inputs);
  char **cols = NULL;
  int rc = 2;
  cli_rekey_src rk;
  cli_rekey_src_init(&rk);
  if (!inputs) {
    fprintf(stderr, "hfilegen splits: out of memory\n");
    return 2;
  }
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      rc = 0;
      goto done;
    }
    int rkf = cli_rekey_src_flag(&rk, argc, argv, &i, "splits");
    if (rkf < 0) goto done;
    if (rkf) continue;
    if (!strcmp(a, "--input") || !strcmp(a, "--sample") || !strcmp(a, "--input-format") ||
        !strcmp(a, "--delimiter") || !strcmp(a, "--no-header") || !strcmp(a, "--columns") ||
        !strcmp(a, "--header") || !strcmp(a, "--null-string") ||
        !strcmp(a, "--fields-terminated-by") || !strcmp(a, "--fields-enclosed-by") ||
        !strcmp(a, "--fields-escaped-by") || !strcmp(a, "--lines-terminated-by")) {
      int no_value = !strcmp(a, "--no-header") || !strcmp(a, "--header");
      if (no_value) cli_apply_build_flag(&bo, a, NULL, NULL, NULL, &cols, &i);
      else if (!v) fprintf(stderr, "hfilegen splits: %s needs a value\n", a);
      else if (!strcmp(a, "--input")) inputs[bo.ninputs++] = argv[++i];
      else if (!strcmp(a, "--sample")) {
        char *end;
        po.sample = strtod(argv[++i], &end);
        if (!(v[0] == '.' || (v[0] >= '0' && v[0] <= '9')) || *end ||
            !(po.sample > 0 && po.sample <= 1)) {
          fprintf(stderr, "hfilegen splits: bad --sample '%s' (a fraction in (0, 1])\n", v);
          goto done;
        }
      } else if (cli_apply_build_flag(&bo, !strcmp(a, "--input-format") ? "--format" : a, v, NULL,
                                      NULL, &cols, &i)) {
        goto done;
      }
      if (!v && !no_value) goto done;
      continue;
    }
    int takes = !strcmp(a, "--rowkey") || !strcmp(a, "--algo") || !strcmp(a, "--format") ||
                !strcmp(a, "-o") || !strcmp(a, "--table") || !strcmp(a, "--family") ||
                !strcmp(a, "--codec") || !strcmp(a, "--bloom") || !strcmp(a, "--block-size") ||
                !strcmp(a, "--regions");
    if (!takes) {
      cli_flag_unknown("splits", a);
      usage(stderr);
      goto done;
    }
    if (!v) {
      fprintf(stderr, "hfilegen splits: %s needs a value\n", a);
      goto done;
    }
    i++;
    if (!strcmp(a, "--rowkey")) tmpl = v;
    else if (!strcmp(a, "--algo")) algo_s = v;
    else if (!strcmp(a, "--format")) fmt = v;
    else if (!strcmp(a, "-o")) outp = v;
    else if (!strcmp(a, "--table")) table = v;
    else if (!strcmp(a, "--family")) family = v;
    else if (!strcmp(a, "--codec")) codec = v;
    else if (!strcmp(a, "--bloom")) bloom = v;
    else if (!strcmp(a, "--block-size")) {
      if (cli_parse_size(v, &block) || block == 0 || block > (1u << 30)) {
        fprintf(stderr, "hfilegen splits: bad --block-size '%s' (a size from 1 to 1g, e.g. 64k)\n", v);
        goto done;
      }
    } else {
      if (cli_parse_u64(v, &regions) || regions == 0) {
        fprintf(stderr, "hfilegen splits: bad --regions '%s' (a count >= 1)\n", v);
        goto done;
      }
      have_regions = 1;
    }
  }
  if (!have_regions) {
    fprintf(stderr, "hfilegen splits: --regions is required\n");
    usage(stderr);
    goto done;
  }
  if (strcmp(fmt, "lines") && strcmp(fmt, "shell") && strcmp(fmt, "json")) {
    fprintf(stderr, "hfilegen splits: unknown --format '%s' (lines, shell, json)\n", fmt);
    goto done;
  }
  int sampled = algo_s && !strcmp(algo_s, "sample");
  hfg_split_algo algo = tmpl ? HFG_SPLIT_SCHEME : HFG_SPLIT_HEX;
  if (!sampled && algo_s && hfg_split_algo_parse(algo_s, &algo)) {
    fprintf(stderr, "hfilegen splits: unknown --algo '%s' (scheme, hex, hex-legacy, decimal, uniform, sample)\n", algo_s);
    goto done;
  }
  if (sampled != (bo.ninputs > 0 || rk.given) || (sampled && !tmpl)) {
    fprintf(stderr, "hfilegen splits: --algo sample needs --rowkey and --input (or --from) (and "
                    "--input or --from only goes with it)\n");
    goto done;
  }
  if (cli_rekey_src_check(&rk, bo.ninputs, "splits")) goto done;
  uint32_t prefix_len = 0;
  const char *sc = shell_codec(codec), *sb = shell_bloom(bloom, &prefix_len);
  if (!sc || !sb) {
    fprintf(stderr, "hfilegen splits: unknown %s '%s'%s\n", sc ? "--bloom" : "--codec",
            sc ? bloom : codec,
            sc ? " (none, row, rowcol or rowprefix:N, N the prefix length in bytes, as for build)"
               : "");
    goto done;
  }
  char err[1024];
  hfg_scheme *s = NULL;
  if (tmpl && hfg_scheme_compile(tmpl, NULL, 0, &s, err, sizeof err)) {
    fprintf(stderr, "hfilegen splits: --rowkey: %s\n", err);
    goto done;
  }
  hfg_keylist *l = NULL;
  hfg_findings *w = NULL;
  bo.inputs = inputs;
  bo.rowkey = tmpl;
  po.build = &bo;
  if (rk.given) { /* the old table's rows, re-keyed */
    rk.ro.build = bo;
    po.build = &rk.ro.build;
    po.rekey = &rk.ro;
  }
  rc = sampled ? hfg_plan_sample_splits(&po, regions, 0, &l, &w, err, sizeof err)
               : hfg_splits_compute(s, algo, regions, &l, &w, err, sizeof err);
  for (size_t i = 0; i < hfg_findings_count(w); i++) {
    const hfg_finding *x = hfg_findings_get(w, i);
    fprintf(stderr, "warning: %s (%s; %s)\n", x->message, x->why, x->fix);
  }
  if (rc) {
    fprintf(stderr, "hfilegen splits: %s\n", err);
    hfg_findings_free(w);
    hfg_scheme_free(s);
    rc = !sampled && rc == HFG_EINVAL ? 2 : 1; /* the flags do not fit, or the sample failed */
    goto done;
  }
  FILE *f = stdout;
  if (outp && !(f = fopen(outp, "w"))) {
    fprintf(stderr, "hfilegen splits: %s: %s\n", outp, strerror(errno));
    rc = 1;
    goto out;
  }
  size_t n = hfg_keylist_count(l);
  if (!strcmp(fmt, "lines")) {
    hfg_buf line = HFG_BUF_INIT;
    for (size_t i = 0; i < n && rc == 0; i++) {
      size_t len;
      const uint8_t *k = hfg_keylist_get(l, i, &len);
      hfg_buf_reset(&line);
      /* the line reads back as k (a leading '#' or trailing space escaped) */
      if (hfg_splits_line(&line, k, len)) {
        fprintf(stderr, "hfilegen splits: out of memory\n");
        rc = 1;
        break;
      }
      fwrite(line.p, 1, line.len, f);
      fputc('\n', f);
    }
    hfg_buf_free(&line);
  } else if (!strcmp(fmt, "shell")) {
    fputs("create ", f);
    cli_ruby_sq(f, table);
    fputs(", {NAME => ", f);
    cli_ruby_sq(f, family);
    fprintf(f, ", COMPRESSION => '%s', BLOOMFILTER => '%s', BLOCKSIZE => '%llu'", sc, sb,
            (unsigned long long)block);
    if (prefix_len)
      fprintf(f, ", CONFIGURATION => {'RowPrefixBloomFilter.prefix_length' => '%u'}", prefix_len);
    fputc('}', f);
    if (n) {
      fputs(", SPLITS => [", f);
      for (size_t i = 0; i < n; i++) {
        size_t len;
        const uint8_t *k = hfg_keylist_get(l, i, &len);
        char *q;
        if (hfg_key_format(k, len, HFG_KEYFMT_SHELL, &q)) {
          fprintf(stderr, "hfilegen splits: out of memory\n");
          rc = 1;
          break;
        }
        fprintf(f, "%s%s", i ? ", " : "", q);
        hfg_scheme_buf_free(q);
      }
      fputc(']', f);
    }
    fputc('\n', f);
  } else {
    fprintf(f, "{\"algorithm\": \"%s\", \"regions\": %llu, ",
            sampled ? "sample" : hfg_split_algo_name(algo),
            (unsigned long long)regions);
    if (s) {
      fputs("\"template\": ", f);
      cli_json_str(f, hfg_scheme_template(s));
      fputs(", ", f);
    }
    fputs("\"splits\": [", f);
    for (size_t i = 0; i < n; i++) {
      size_t len;
      const uint8_t *k = hfg_keylist_get(l, i, &len);
      fputs(i ? ", " : "", f);
      cli_json_bytes(f, k, len);
    }
    fputs("], \"splits_hex\": [", f);
    for (size_t i = 0; i < n; i++) {
      size_t len;
      const uint8_t *k = hfg_keylist_get(l, i, &len);
      fputs(i ? ", \"" : "\"", f);
      for (size_t j = 0; j < len; j++) fprintf(f, "%02x", k[j]);
      fputc('"', f);
    }
    fputs("], \"warnings\": [", f);
    for (size_t i = 0; i < hfg_findings_count(w); i++) {
      fputs(i ? ", " : "", f);
      cli_json_str(f, hfg_findings_get(w, i)->message);
    }
    fputs("]}\n", f);
  }
  if (f != stdout && fclose(f)) {
    fprintf(stderr, "hfilegen splits: %s: %s\n", outp, strerror(errno));
    rc = 1;
  }
out:
  hfg_keylist_free(l);
  hfg_findings_free(w);
  hfg_scheme_free(s);
done:
  free(inputs);
  cli_free_columns(cols, &bo);
  return rc;
}
