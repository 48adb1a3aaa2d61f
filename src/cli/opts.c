#include "cli/opts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

int cli_quiet;

static const char *family_opts[256]; /* --family-option values, in order */
static size_t nfamily_opts;

static char **kept;   /* strings from job files, freed by cli_free_columns */
static size_t nkept;

/* --header or --no-header was given (flag or job file): --columns then names
 * or renames the columns without changing whether the first line is a header.
 * Without either, --columns means there is no header. */
static int header_given;

static const char *keep(const char *s) {
  char **k = realloc(kept, (nkept + 1) * sizeof *k);
  if (!k) return NULL;
  kept = k;
  kept[nkept] = strdup(s);
  return kept[nkept] ? kept[nkept++] : NULL;
}

int cli_parse_size(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || v < 0) return -1;
  uint64_t mul = 1;
  switch (*end) {
    case 'k': case 'K': mul = 1ull << 10; end++; break;
    case 'm': case 'M': mul = 1ull << 20; end++; break;
    case 'g': case 'G': mul = 1ull << 30; end++; break;
    case 't': case 'T': mul = 1ull << 40; end++; break;
    default: break;
  }
  if (*end == 'b' || *end == 'B') end++;
  if (*end) return -1;
  double bytes = v * (double)mul;
  /* NaN, inf and sizes past 2^64 do not convert (undefined behaviour) */
  if (!(bytes >= 0.0 && bytes < 18446744073709551616.0)) return -1;
  *out = (uint64_t)bytes;
  return 0;
}

static int bad(const char *flag, const char *v, const char *why) {
  fprintf(stderr, "hfilegen build: %s %s: %s\n", flag, v ? v : "", why);
  return -1;
}

static void free_list(char **l) {
  if (!l) return;
  for (size_t k = 0; l[k]; k++) free(l[k]);
  free(l);
}

static int split_columns(const char *v, char ***cols, hfg_build_options *o) {
  size_t n = 1;
  for (const char *p = v; *p; p++) n += *p == ',';
  char **c = calloc(n + 1, sizeof *c);
  if (!c) return -1;
  size_t k = 0;
  const char *start = v;
  for (const char *p = v;; p++) {
    if (*p == ',' || !*p) {
      c[k] = strndup(start, (size_t)(p - start));
      if (!c[k]) return -1;
      k++;
      if (!*p) break;
      start = p + 1;
    }
  }
  free_list(*cols);
  *cols = c;
  o->columns = (const char *const *)c;
  o->ncolumns = k;
  if (!header_given) o->header = 0;
  return 0;
}

int cli_apply_build_flag(hfg_build_options *o, const char *a, const char *v, const char **maps,
                         size_t *nmaps, char ***cols, int *i) {
  uint64_t n;
  /* flags without a value */
  if (!strcmp(a, "--no-header")) { o->header = 0; header_given = 1; return 0; }
  if (!strcmp(a, "--header")) { o->header = 1; header_given = 1; return 0; }
  if (!strcmp(a, "--keep-key-columns")) { o->keep_key_columns = 1; return 0; }
  if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) { cli_quiet = 1; return 0; }
  if (!v) return bad(a, NULL, "unknown flag or missing value");
  (*i)++;
  if (!strcmp(a, "--rowkey")) o->rowkey = v;
  else if (!strcmp(a, "--out")) o->out_dir = v;
  else if (!strcmp(a, "--splits")) o->splits_file = v;
  else if (!strcmp(a, "--tmp-dir")) o->tmp_dir = v;
  else if (!strcmp(a, "--family")) o->family = v;
  else if (!strcmp(a, "--map")) maps[(*nmaps)++] = v;
  else if (!strcmp(a, "--family-option")) {
    if (nfamily_opts >= sizeof family_opts / sizeof *family_opts) return bad(a, v, "too many");
    family_opts[nfamily_opts++] = v;
    o->family_options = family_opts;
    o->nfamily_options = nfamily_opts;
  }
  else if (!strcmp(a, "--rejects")) o->rejects_path = v;
  else if (!strcmp(a, "--columns")) { if (split_columns(v, cols, o)) return bad(a, v, "out of memory"); }
  else if (!strcmp(a, "--format")) {
    if (!strcasecmp(v, "csv")) o->format = HFG_BUILD_CSV;
    else if (!strcasecmp(v, "tsv")) o->format = HFG_BUILD_TSV;
    else return bad(a, v, "expected csv or tsv");
  } else if (!strcmp(a, "--delimiter")) {
    if (!strcmp(v, "\\t") || !strcasecmp(v, "tab")) o->delimiter = '\t';
    else if (strlen(v) == 1 && v[0] != '\n' && v[0] != '\r') o->delimiter = v[0];
    else return bad(a, v, "expected one byte (or \\t)");
  } else if (!strcmp(a, "--spill-compression")) {
    if (!strcmp(v, "none")) o->spill_lz4 = 0;
    else if (!strcmp(v, "lz4")) o->spill_lz4 = 1;
    else return bad(a, v, "expected none or lz4");
  } else if (!strcmp(a, "--empty")) {
    if (!strcmp(v, "skip")) o->empty = HFG_EMPTY_SKIP;
    else if (!strcmp(v, "store")) o->empty = HFG_EMPTY_STORE;
    else return bad(a, v, "expected skip or store");
  } else if (!strcmp(a, "--timestamp")) {
    /* every form replaces the whole setting, a job file's included (flags come after it) */
    o->timestamp = -1;
    o->timestamp_column = NULL;
    o->timestamp_format = NULL;
    if (!strcmp(v, "now")) o->timestamp = -1;
    else if (!strncmp(v, "column:", 7)) {
      /* column:NAME, column:NAME:s|ms|us|ns or column:NAME:PATTERN (the pattern may
       * itself hold ':'; the units are no patterns: pipeline/timestamps.h) */
      const char *c = strchr(v + 7, ':');
      if (c) {
        static char names[16][256];
        static int nnames;
        if ((size_t)(c - v - 7) >= sizeof names[0] || nnames >= 16)
          return bad(a, v, "column name too long");
        snprintf(names[nnames], sizeof names[0], "%.*s", (int)(c - v - 7), v + 7);
        o->timestamp_column = names[nnames++];
        o->timestamp_format = c + 1;
      } else {
        o->timestamp_column = v + 7;
        o->timestamp_format = NULL;
      }
    }
    else {
      char *end;
      long long t = strtoll(v, &end, 10);
      if (end == v || *end || t < 0)
        return bad(a, v, "expected now, epoch milliseconds or column:NAME[:s|ms|us|ns|PATTERN]");
      o->timestamp = t;
    }
  } else if (!strcmp(a, "--on-duplicate")) {
    if (!strcmp(v, "error")) o->on_duplicate = HFG_DUP_ERROR;
    else if (!strcmp(v, "last")) o->on_duplicate = HFG_DUP_LAST;
    else if (!strcmp(v, "first")) o->on_duplicate = HFG_DUP_FIRST;
    else return bad(a, v, "expected error, last or first");
  } else if (!strcmp(a, "--max-rejects")) {
    char *end;
    unsigned long long m = strtoull(v, &end, 10);
    if (*end) return bad(a, v, "expected a number");
    o->max_rejects = m;
  } else if (!strcmp(a, "--memory")) {
    if (cli_parse_size(v, &n) || n < (8u << 20)) return bad(a, v, "expected a size of 8m or more");
    o->memory = (size_t)n;
  } else if (!strcmp(a, "--threads")) {
    o->threads = atoi(v);
    if (o->threads < 0) return bad(a, v, "expected a number of threads");
  } else if (!strcmp(a, "--max-file-size")) {
    if (cli_parse_size(v, &n) || n == 0) return bad(a, v, "expected a size");
    o->max_file_size = n;
  } else if (!strcmp(a, "--codec")) {
    if (!strcasecmp(v, "zstd"))
      return bad(a, v,
                 "ZSTD has two incompatible block framings in HBase deployments: choose "
                 "zstd-hadoop (org.apache.hadoop.io.compress.ZStandardCodec, HBase's default "
                 "class) or zstd-hbase (hbase-compression-zstd's ZstdCodec), matching the "
                 "cluster's hbase.io.compress.zstd.codec");
    if (hfg_codec_parse(v, &o->hfile.codec))
      return bad(a, v, "expected none, gz, snappy, lz4, zstd-hadoop or zstd-hbase");
  } else if (!strcmp(a, "--bloom")) {
    if (hfg_bloom_type_parse(v, &o->hfile.bloom)) return bad(a, v, "expected none, row or rowcol");
  } else if (!strcmp(a, "--checksum")) {
    if (hfg_checksum_type_parse(v, &o->hfile.checksum) || o->hfile.checksum == HFG_CHECKSUM_NULL)
      return bad(a, v, "expected crc32c or crc32");
  } else if (!strcmp(a, "--block-size")) {
    if (cli_parse_size(v, &n) || n == 0 || n > (1u << 30)) return bad(a, v, "expected a size");
    o->hfile.block_size = (uint32_t)n;
  } else if (!strcmp(a, "--bytes-per-checksum")) {
    if (cli_parse_size(v, &n) || n == 0 || n > (1u << 30)) return bad(a, v, "expected a size");
    o->hfile.bytes_per_checksum = (uint32_t)n;
  } else if (!strcmp(a, "--create-time")) {
    o->hfile.create_time = strtoll(v, NULL, 10);
  } else if (!strcmp(a, "--progress")) {
    if (!strcmp(v, "none")) cli_quiet = 1;
    else if (strcmp(v, "plain")) return bad(a, v, "expected plain or none");
  } else if (!strcmp(a, "--job-timestamp")) {
    char *end;
    long long t = strtoll(v, &end, 10);
    if (end == v || *end || t < 0) return bad(a, v, "expected epoch milliseconds");
    o->job_timestamp = t;
  } else if (!strcmp(a, "--empty-row")) {
    /* skip | marker | marker:FAMILY | marker:FAMILY:QUALIFIER (a family holds no ':') */
    if (!strcmp(v, "skip")) o->empty_row = HFG_EMPTY_ROW_SKIP;
    else if (!strcmp(v, "marker") || !strncmp(v, "marker:", 7)) {
      static char fam[256];
      o->empty_row = HFG_EMPTY_ROW_MARKER;
      o->empty_row_family = NULL;
      o->empty_row_qualifier = NULL;
      if (v[6] == ':') {
        const char *c = strchr(v + 7, ':');
        size_t fl = c ? (size_t)(c - v - 7) : strlen(v + 7);
        if (fl >= sizeof fam) return bad(a, v, "family name too long");
        snprintf(fam, sizeof fam, "%.*s", (int)fl, v + 7);
        if (fl) o->empty_row_family = fam;
        if (c) o->empty_row_qualifier = c + 1;
      }
    } else return bad(a, v, "expected skip, marker or marker:FAMILY:QUALIFIER");
  } else {
    (*i)--;
    return bad(a, v, "unknown flag (see hfilegen build --help)");
  }
  return 0;
}

static int job_apply(const char *path, unsigned long line, const char *key, const char *val,
                     hfg_build_options *o, const char **inputs, size_t *ninputs, const char **maps,
                     size_t *nmaps, size_t cap, char ***cols) {
  const char *v = keep(val);
  if (!v) return -1;
  if (!strcmp(key, "inputs") || !strcmp(key, "input")) {
    if (*ninputs >= cap) return -1;
    inputs[(*ninputs)++] = v;
    return 0;
  }
  if (!strcmp(key, "map") && *nmaps >= cap) return -1;
  char flag[128];
  snprintf(flag, sizeof flag, "--%s", key);
  for (char *p = flag; *p; p++)
    if (*p == '_') *p = '-';
  int dummy = 0;
  int is_bool = !strcmp(flag, "--header") || !strcmp(flag, "--keep-key-columns") ||
                !strcmp(flag, "--quiet");
  if (is_bool) {
    int on = !strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcmp(v, "1");
    if (!strcmp(flag, "--header")) o->header = on, header_given = 1;
    else if (!strcmp(flag, "--keep-key-columns")) o->keep_key_columns = on;
    else cli_quiet = on;
    return 0;
  }
  if (cli_apply_build_flag(o, flag, v, maps, nmaps, cols, &dummy)) {
    fprintf(stderr, "hfilegen build: %s line %lu: key '%s'\n", path, line, key);
    return -1;
  }
  return 0;
}

static char **job_cols;

int cli_load_job(const char *path, hfg_build_options *o, const char **inputs, size_t *ninputs,
                 const char **maps, size_t *nmaps, size_t cap) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "hfilegen build: job file %s: %s\n", path, strerror(errno));
    return -1;
  }
  yaml_parser_t p;
  yaml_document_t doc;
  if (!yaml_parser_initialize(&p)) {
    fclose(f);
    return -1;
  }
  yaml_parser_set_input_file(&p, f);
  int rc = -1;
  if (!yaml_parser_load(&p, &doc)) {
    fprintf(stderr, "hfilegen build: job file %s line %lu: %s\n", path,
            (unsigned long)p.problem_mark.line + 1, p.problem ? p.problem : "YAML error");
    goto out;
  }
  yaml_node_t *root = yaml_document_get_root_node(&doc);
  if (!root || root->type != YAML_MAPPING_NODE) {
    fprintf(stderr, "hfilegen build: job file %s: expected a mapping of settings\n", path);
    goto doc;
  }
  rc = 0;
  for (yaml_node_pair_t *pr = root->data.mapping.pairs.start;
       !rc && pr < root->data.mapping.pairs.top; pr++) {
    yaml_node_t *k = yaml_document_get_node(&doc, pr->key);
    yaml_node_t *v = yaml_document_get_node(&doc, pr->value);
    unsigned long line = (unsigned long)k->start_mark.line + 1;
    if (k->type != YAML_SCALAR_NODE) {
      fprintf(stderr, "hfilegen build: job file %s line %lu: keys must be scalars\n", path, line);
      rc = -1;
      break;
    }
    const char *key = (const char *)k->data.scalar.value;
    if (v->type == YAML_SCALAR_NODE) {
      if (!strcmp(key, "columns")) {
        rc = split_columns((const char *)v->data.scalar.value, &job_cols, o);
      } else {
        rc = job_apply(path, line, key, (const char *)v->data.scalar.value, o, inputs, ninputs,
                       maps, nmaps, cap, &job_cols);
      }
    } else if (v->type == YAML_SEQUENCE_NODE) {
      if (!strcmp(key, "columns")) {
        /* join into the comma form */
        char buf[8192] = "";
        for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top;
             it++) {
          yaml_node_t *e = yaml_document_get_node(&doc, *it);
          if (e->type != YAML_SCALAR_NODE) continue;
          if (buf[0]) strncat(buf, ",", sizeof buf - strlen(buf) - 1);
          strncat(buf, (const char *)e->data.scalar.value, sizeof buf - strlen(buf) - 1);
        }
        rc = split_columns(buf, &job_cols, o);
        continue;
      }
      for (yaml_node_item_t *it = v->data.sequence.items.start;
           !rc && it < v->data.sequence.items.top; it++) {
        yaml_node_t *e = yaml_document_get_node(&doc, *it);
        if (e->type != YAML_SCALAR_NODE) {
          fprintf(stderr, "hfilegen build: job file %s line %lu: lists hold scalars only\n", path,
                  (unsigned long)e->start_mark.line + 1);
          rc = -1;
          break;
        }
        rc = job_apply(path, line, key, (const char *)e->data.scalar.value, o, inputs, ninputs,
                       maps, nmaps, cap, &job_cols);
      }
    } else {
      fprintf(stderr, "hfilegen build: job file %s line %lu: '%s' must be a scalar or a list\n",
              path, line, key);
      rc = -1;
    }
  }
doc:
  yaml_document_delete(&doc);
out:
  yaml_parser_delete(&p);
  fclose(f);
  return rc;
}

int cli_load_job_args(int argc, char **argv, hfg_build_options *o, const char **inputs,
                      size_t *ninputs, const char **maps, size_t *nmaps) {
  const char *job_file = NULL;
  for (int i = 1; i + 1 < argc; i++)
    if (!strcmp(argv[i], "--job")) job_file = argv[i + 1];
  if (!job_file) return 0;
  return cli_load_job(job_file, o, inputs, ninputs, maps, nmaps, (size_t)argc);
}

void cli_free_columns(char **cols, hfg_build_options *o) {
  free_list(cols);
  if (job_cols != cols) free_list(job_cols);
  job_cols = NULL;
  if (o) {
    o->columns = NULL;
    o->ncolumns = 0;
  }
  for (size_t k = 0; k < nkept; k++) free(kept[k]);
  free(kept);
  kept = NULL;
  nkept = 0;
  header_given = 0;
  nfamily_opts = 0; /* the next parse starts its own list (src/cli/bind.c parses many) */
}
