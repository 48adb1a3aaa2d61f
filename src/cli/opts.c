#include "cli/opts.h"

#include "cli/cli_flags.h"
#include "cli/cli_util.h"
#include "cli/job_file.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

int cli_quiet;
int cli_no_progress;

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
  /* digits, an optional fraction, an optional unit k/m/g/t and an optional b:
   * nothing else (no sign, space, exponent or hex), and a whole number of bytes */
  const char *p = s;
  uint64_t whole = 0, frac = 0, scale = 1;
  if (*p < '0' || *p > '9') return -1;
  for (; *p >= '0' && *p <= '9'; p++) {
    if (whole > (UINT64_MAX - 9) / 10) return -1;
    whole = whole * 10 + (uint64_t)(*p - '0');
  }
  if (*p == '.') {
    p++;
    if (*p < '0' || *p > '9') return -1;
    for (; *p >= '0' && *p <= '9'; p++) {
      if (scale > UINT64_MAX / 100) return -1; /* more digits than any size needs */
      frac = frac * 10 + (uint64_t)(*p - '0');
      scale *= 10;
    }
  }
  unsigned shift = 0;
  switch (*p) {
    case 'k': case 'K': shift = 10; p++; break;
    case 'm': case 'M': shift = 20; p++; break;
    case 'g': case 'G': shift = 30; p++; break;
    case 't': case 'T': shift = 40; p++; break;
    default: break;
  }
  if (*p == 'b' || *p == 'B') p++;
  if (*p) return -1;
  if (shift && whole > (UINT64_MAX >> shift)) return -1;
  uint64_t bytes = whole << shift;
  if (frac) {
    /* frac/scale of the unit must be a whole number of bytes */
    uint64_t unit = 1ull << shift;
    if (frac > UINT64_MAX / unit || (frac * unit) % scale) return -1;
    uint64_t extra = frac * unit / scale;
    if (bytes > UINT64_MAX - extra) return -1;
    bytes += extra;
  }
  *out = bytes;
  return 0;
}

/* A FIELDS/LINES option value as MySQL's string literal escapes spell it
 * (\t \n \r \b \Z \\, and \xNN for any byte but NUL), kept until
 * cli_free_columns; NULL when malformed. */
static const char *sql_string(const char *v) {
  char buf[256];
  size_t n = 0;
  for (const char *p = v; *p; p++) {
    if (n + 1 >= sizeof buf) return NULL;
    if (*p != '\\') {
      buf[n++] = *p;
      continue;
    }
    p++;
    switch (*p) {
      case 't': buf[n++] = '\t'; break;
      case 'n': buf[n++] = '\n'; break;
      case 'r': buf[n++] = '\r'; break;
      case 'b': buf[n++] = '\b'; break;
      case 'Z': buf[n++] = '\032'; break;
      case '\\': buf[n++] = '\\'; break;
      case '\'': buf[n++] = '\''; break;
      case '"': buf[n++] = '"'; break;
      case 'x': {
        if (!isxdigit((unsigned char)p[1]) || !isxdigit((unsigned char)p[2])) return NULL;
        char hx[3] = {p[1], p[2], 0};
        long x = strtol(hx, NULL, 16);
        if (x == 0) return NULL;
        buf[n++] = (char)x;
        p += 2;
        break;
      }
      default: return NULL;
    }
  }
  buf[n] = '\0';
  return keep(buf);
}

static int bad(const char *flag, const char *v, const char *why) {
  fprintf(stderr, "hfilegen build: %s%s%s: %s\n", flag, v && *v ? " " : "", v ? v : "", why);
  return -1;
}

/* HBase's column family rule (hfg_family_name_check) on name[0..len) of v. */
static int check_family(const char *flag, const char *v, const char *name, size_t len) {
  const char *why;
  if (!hfg_family_name_check(name, len, &why)) return 0;
  fprintf(stderr, "hfilegen build: %s %s: family '%.*s': %s\n", flag, v, (int)len, name, why);
  return -1;
}

static const char ZSTD_FRAMINGS[] =
    "ZSTD has two incompatible block framings in HBase deployments: choose "
    "zstd-hadoop (org.apache.hadoop.io.compress.ZStandardCodec, HBase's default "
    "class) or zstd-hbase (hbase-compression-zstd's ZstdCodec), matching the "
    "cluster's hbase.io.compress.zstd.codec";

/* FAMILY:KEY=VALUE, all of it: the family's name, the key and its value, each
 * named in the message (the build would check the key and the value only
 * once it runs, exit 1). Whether a column goes to the family is checked after
 * all flags (cli_checks.h cli_check_family_options). */
static int check_family_option(const char *flag, const char *v) {
  const char *colon = strchr(v, ':');
  const char *eq = colon ? strchr(colon, '=') : NULL;
  if (!colon || !eq) {
    fprintf(stderr, "hfilegen %s: %s %s: expected FAMILY:KEY=VALUE (e.g. d:codec=gz)\n",
            cli_command, flag, v);
    return -1;
  }
  if (check_family(flag, v, v, (size_t)(colon - v))) return -1;
  size_t klen = (size_t)(eq - colon - 1);
  const char *key = colon + 1, *val = eq + 1;
  const char *why = NULL;
  uint64_t n;
  hfg_writer_options w;
  memset(&w, 0, sizeof w);
#define KEY_IS(k) (klen == strlen(k) && !strncmp(key, k, klen))
  if (KEY_IS("codec")) {
    if (!strcasecmp(val, "zstd")) why = ZSTD_FRAMINGS;
    else if (hfg_codec_parse(val, &w.codec))
      why = "expected none, gz, snappy, lz4, zstd-hadoop or zstd-hbase";
  } else if (KEY_IS("bloom")) {
    if (hfg_bloom_spec_parse(val, &w.bloom, &w.bloom_prefix_length))
      why = !strncasecmp(val, "rowprefix:", 10)
                ? "expected rowprefix:N with a prefix length N of 1..32767 bytes"
                : "expected none, row, rowcol or rowprefix:N";
  } else if (KEY_IS("checksum")) {
    if (hfg_checksum_type_parse(val, &w.checksum) || w.checksum == HFG_CHECKSUM_NULL)
      why = "expected crc32c or crc32";
  } else if (KEY_IS("block-size") || KEY_IS("block_size") || KEY_IS("bytes-per-checksum") ||
             KEY_IS("bytes_per_checksum")) {
    if (cli_parse_size(val, &n) || n == 0 || n > (1u << 30))
      why = "expected a size from 1 to 1g (e.g. 64k)";
  } else if (KEY_IS("encoding") || KEY_IS("data_block_encoding")) {
    if (hfg_encoding_parse(val, &w.encoding))
      why = "expected none, prefix, diff, fast_diff or row_index_v1";
  } else {
    fprintf(stderr, "hfilegen %s: %s %s: family '%.*s', key '%.*s': unknown key (codec, bloom, "
            "block-size, checksum, bytes-per-checksum, encoding)\n", cli_command, flag, v,
            (int)(colon - v), v, (int)klen, key);
    return -1;
  }
#undef KEY_IS
  if (!why) return 0;
  fprintf(stderr, "hfilegen %s: %s %s: family '%.*s', key '%.*s', value '%s': %s\n", cli_command,
          flag, v, (int)(colon - v), v, (int)klen, key, val, why);
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

/* ---- incremental loads ---- */

static int incremental;             /* --incremental append|lastmodified given */
static const char *last_from;       /* the manifest --last-value-from read */
static char from_column[256];       /* its check column */
static char from_value[64];         /* its last value; "" for null */

static int is_integer(const char *v) {
  size_t i = v[0] == '-';
  if (!v[i] || strlen(v + i) > 40) return 0;
  for (; v[i]; i++)
    if (!isdigit((unsigned char)v[i])) return 0;
  return 1;
}

/* A JSON string at *p as the manifest writes it (JSON escapes around the
 * util/escape.h form: \\ for a backslash, \\xNN for a byte), decoded into
 * out; advances *p. -1 when it is not such a string or does not fit. */
static int manifest_str(const char **p, char *out, size_t cap) {
  const char *s = *p;
  if (*s != '"') return -1;
  size_t k = 0;
  for (s++; *s != '"'; s++) {
    if (!*s || k + 1 >= cap) return -1;
    int c = (unsigned char)*s;
    if (c == '\\') {
      s++;
      if (*s == '"') c = '"';
      else if (*s == '\\' && s[1] == '\\' && s[2] == '\\') c = '\\', s += 2;
      else if (*s == '\\' && s[1] == 'x' && isxdigit((unsigned char)s[2]) &&
               isxdigit((unsigned char)s[3])) {
        char hx[3] = {s[2], s[3], 0};
        c = (int)strtol(hx, NULL, 16);
        s += 3;
      } else return -1;
    }
    out[k++] = (char)c;
  }
  out[k] = '\0';
  *p = s + 1;
  return 0;
}

/* --last-value-from PREVIOUS_OUT/manifest.json (or the directory): the
 * "incremental" object of the previous run's manifest. */
static int last_value_from(hfg_build_options *o, const char *path) {
  char file[4200];
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) snprintf(file, sizeof file, "%s/manifest.json", path);
  else snprintf(file, sizeof file, "%s", path);
  FILE *f = fopen(file, "r");
  if (!f) return bad("--last-value-from", file, strerror(errno));
  static char text[1 << 16];
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = '\0';
  const char *p = strstr(text, "\"incremental\": {");
  const char *c = p ? strstr(p, "\"check_column\": ") : NULL;
  const char *l = p ? strstr(p, "\"last_value\": ") : NULL;
  if (!p || !c || !l)
    return bad("--last-value-from", file,
               "no \"incremental\" record (was the previous run an incremental build?)");
  c += strlen("\"check_column\": ");
  l += strlen("\"last_value\": ");
  if (manifest_str(&c, from_column, sizeof from_column))
    return bad("--last-value-from", file, "unreadable check_column");
  if (!strncmp(l, "null", 4)) from_value[0] = '\0';
  else if (manifest_str(&l, from_value, sizeof from_value) || !is_integer(from_value))
    return bad("--last-value-from", file, "unreadable last_value");
  last_from = keep(file);
  o->last_value = from_value[0] ? from_value : NULL;
  if (!o->check_column) o->check_column = from_column;
  return 0;
}

int cli_check_incremental(hfg_build_options *o) {
  if (o->deletes_time_column && !o->deletes)
    return bad("--deletes-time", o->deletes_time_column,
               "goes with --deletes FILE|URI (when each of its hard-deleted rows was deleted); "
               "without it there are no deletes to time");
  if (o->deletes && o->on_duplicate == HFG_DUP_FIRST)
    return bad("--on-duplicate", "first",
               "with --deletes: a hard delete goes with a key's last live record of the night, "
               "which first drops, and the delete with it; give --on-duplicate last (a changes "
               "file's last record is the row's state) or error");
  if (!incremental && !o->check_column && !o->last_value && !last_from) return 0;
  const char *mode = o->incremental_mode == HFG_INCR_LASTMODIFIED ? "lastmodified" : "append";
  if (!incremental)
    return bad("--check-column/--last-value", "", "go with --incremental append|lastmodified");
  if (!o->check_column) return bad("--incremental", mode, "needs --check-column");
  if (last_from && strcmp(o->check_column, from_column)) {
    fprintf(stderr,
            "hfilegen build: --last-value-from %s: the previous run checked column '%s', not '%s'\n",
            last_from, from_column, o->check_column);
    return -1;
  }
  for (size_t i = 0; i < o->ninputs; i++)
    if (strncmp(o->inputs[i], "postgresql://", 13) && strncmp(o->inputs[i], "postgres://", 11) &&
        strncmp(o->inputs[i], "mysql://", 8) && strncmp(o->inputs[i], "mariadb://", 10))
      return bad("--incremental", mode,
                 "reads database inputs only (postgresql://, mysql://): a dump file holds the "
                 "rows it was written with, export only the new ones");
  return 0;
}

int cli_apply_build_flag(hfg_build_options *o, const char *a, const char *v, const char **maps,
                         size_t *nmaps, char ***cols, int *i) {
  uint64_t n;
  /* flags without a value */
  if (!strcmp(a, "--no-header")) { o->header = 0; header_given = 1; return 0; }
  if (!strcmp(a, "--header")) { o->header = 1; header_given = 1; return 0; }
  if (!strcmp(a, "--keep-key-columns")) { o->keep_key_columns = 1; return 0; }
  if (!strcmp(a, "--no-direct-io")) { o->hfile.direct_io = 0; return 0; }
  if (!strcmp(a, "--direct-io")) { o->hfile.direct_io = 1; return 0; } /* over a job file */
  if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) { cli_quiet = 1; return 0; }
  if (!v && cli_flag_takes_value(cli_command, a) == 1) {
    fprintf(stderr, "hfilegen %s: %s needs a value\n", cli_command, a);
    return -1;
  }
  if (!v) { /* a flag the tables do not know, or one of theirs whose value is missing */
    char hint[512];
    if (!*cli_flag_suggest(cli_command, a, hint, sizeof hint))
      cli_flag_elsewhere(cli_command, a, hint, sizeof hint);
    fprintf(stderr, "hfilegen %s: unknown option '%s'%s, or it needs a value\n", cli_command, a,
            hint);
    return -1;
  }
  (*i)++;
  if (!strcmp(a, "--rowkey")) o->rowkey = v;
  else if (!strcmp(a, "--out")) o->out_dir = v;
  else if (!strcmp(a, "--splits")) o->splits_file = v;
  else if (!strcmp(a, "--tmp-dir")) o->tmp_dir = v;
  else if (!strcmp(a, "--family")) {
    if (check_family(a, v, v, strlen(v))) return -1;
    o->family = v;
  }
  else if (!strcmp(a, "--map")) {
    /* COL=FAMILY:QUALIFIER[:ENCODING] or COL=-: the family is checked here */
    const char *eq = strchr(v, '=');
    const char *fam = eq ? eq + 1 : NULL;
    const char *colon = fam ? strchr(fam, ':') : NULL;
    if (colon && check_family(a, v, fam, (size_t)(colon - fam))) return -1;
    maps[(*nmaps)++] = v;
  }
  else if (!strcmp(a, "--family-option")) {
    if (check_family_option(a, v)) return -1;
    if (nfamily_opts >= sizeof family_opts / sizeof *family_opts) return bad(a, v, "too many");
    family_opts[nfamily_opts++] = v;
    o->family_options = family_opts;
    o->nfamily_options = nfamily_opts;
  }
  else if (!strcmp(a, "--rejects")) {
    /* '-' would be a file named '-' (the rejects file is created, rewound and removed) */
    if (!strcmp(v, "-") || !*v) return bad(a, v, "expected a file path (rejects go to a file, not stdout)");
    o->rejects_path = v;
  }
  else if (!strcmp(a, "--columns")) { if (split_columns(v, cols, o)) return bad(a, v, "out of memory"); }
  else if (!strcmp(a, "--format")) {
    if (!strcasecmp(v, "csv")) o->format = HFG_BUILD_CSV;
    else if (!strcasecmp(v, "tsv")) o->format = HFG_BUILD_TSV;
    else if (!strcasecmp(v, "mysql")) o->format = HFG_BUILD_MYSQL;
    else if (!strcasecmp(v, "pg-text")) o->format = HFG_BUILD_PG_TEXT;
    else if (!strcasecmp(v, "pg-csv")) o->format = HFG_BUILD_PG_CSV;
    else return bad(a, v, "expected csv, tsv, mysql, pg-text or pg-csv");
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
       * itself hold ':'; the units are no patterns: build/timestamps.h) */
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
    if (cli_parse_u64(v, &n)) return bad(a, v, "expected a whole number of records (0 or more)");
    o->max_rejects = n;
  } else if (!strcmp(a, "--memory")) {
    if (cli_parse_size(v, &n) || n < (8u << 20)) return bad(a, v, "expected a size of 8m or more");
    o->memory = (size_t)n;
  } else if (!strcmp(a, "--threads")) {
    if (cli_parse_u64(v, &n) || n > 1024)
      return bad(a, v, "expected a number of threads from 0 (all cores) to 1024");
    o->threads = (int)n;
  } else if (!strcmp(a, "--max-file-size")) {
    if (cli_parse_size(v, &n) || n == 0) return bad(a, v, "expected a size (e.g. 10g)");
    o->max_file_size = n;
  } else if (!strcmp(a, "--codec")) {
    if (!strcasecmp(v, "zstd")) return bad(a, v, ZSTD_FRAMINGS);
    if (hfg_codec_parse(v, &o->hfile.codec))
      return bad(a, v, "expected none, gz, snappy, lz4, zstd-hadoop or zstd-hbase");
  } else if (!strcmp(a, "--bloom")) {
    if (hfg_bloom_spec_parse(v, &o->hfile.bloom, &o->hfile.bloom_prefix_length))
      return bad(a, v, !strncasecmp(v, "rowprefix:", 10)
                           ? "expected rowprefix:N with a prefix length N of 1..32767 bytes"
                           : "expected none, row, rowcol or rowprefix:N");
  } else if (!strcmp(a, "--checksum")) {
    if (hfg_checksum_type_parse(v, &o->hfile.checksum) || o->hfile.checksum == HFG_CHECKSUM_NULL)
      return bad(a, v, "expected crc32c or crc32");
  } else if (!strcmp(a, "--block-size")) {
    if (cli_parse_size(v, &n) || n == 0 || n > (1u << 30))
      return bad(a, v, "expected a size from 1 to 1g (e.g. 64k)");
    o->hfile.block_size = (uint32_t)n;
  } else if (!strcmp(a, "--bytes-per-checksum")) {
    if (cli_parse_size(v, &n) || n == 0 || n > (1u << 30))
      return bad(a, v, "expected a size from 1 to 1g (e.g. 16k)");
    o->hfile.bytes_per_checksum = (uint32_t)n;
  } else if (!strcmp(a, "--create-time")) {
    if (cli_parse_u64(v, &n) || n > INT64_MAX)
      return bad(a, v, "expected epoch milliseconds (a whole number, 0 or more)");
    o->hfile.create_time = (int64_t)n;
  } else if (!strcmp(a, "--progress")) {
    if (!strcmp(v, "none")) cli_no_progress = 1;
    else if (!strcmp(v, "plain")) cli_no_progress = 0;
    else return bad(a, v, "expected plain or none");
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
  } else if (!strcmp(a, "--null-string")) {
    if (!(o->null_string = keep(v))) return bad(a, v, "out of memory");
  } else if (!strcmp(a, "--fields-terminated-by") || !strcmp(a, "--fields-enclosed-by") ||
             !strcmp(a, "--fields-escaped-by") || !strcmp(a, "--lines-terminated-by")) {
    const char *s = sql_string(v);
    if (!s) return bad(a, v, "expected bytes with \\t \\n \\r \\\\ \\xNN escapes, no NUL");
    int one = !strcmp(a, "--fields-enclosed-by") || !strcmp(a, "--fields-escaped-by");
    if (one && strlen(s) > 1) return bad(a, v, "expected one byte, or '' for none");
    if (!one && !*s) return bad(a, v, "expected at least one byte");
    if (!strcmp(a, "--fields-terminated-by")) o->fields_terminated_by = s;
    else if (!strcmp(a, "--fields-enclosed-by")) o->fields_enclosed_by = s;
    else if (!strcmp(a, "--fields-escaped-by")) o->fields_escaped_by = s;
    else o->lines_terminated_by = s;
  } else if (!strcmp(a, "--incremental")) {
    /* nightly loads (format-specs/nightly-loads.md): lastmodified, --delete-if, --op-column
     * and --deletes write rows as their whole state (Puts, DeleteColumn, DeleteFamily) */
    if (!strcmp(v, "lastmodified")) o->incremental_mode = HFG_INCR_LASTMODIFIED;
    else if (!strcmp(v, "append")) o->incremental_mode = HFG_INCR_APPEND;
    else
      return bad(a, v, "expected append (new rows only: --check-column above --last-value) or "
                       "lastmodified (new and updated rows, NULLs as DeleteColumn markers)");
    incremental = 1;
  } else if (!strcmp(a, "--delete-if") || !strcmp(a, "--op-column")) {
    if (!*v) return bad(a, v, "expected a column name");
    if (!strcmp(a, "--delete-if")) o->delete_if = v;
    else o->op_column = v;
  } else if (!strcmp(a, "--deletes")) {
    if (!*v) return bad(a, v, "expected a file or a database URI holding the deleted keys");
    o->deletes = v;
  } else if (!strcmp(a, "--deletes-time")) {
    if (!*v) return bad(a, v, "expected a column of the deletes source (epoch ms)");
    o->deletes_time_column = v;
  } else if (!strcmp(a, "--check-column")) {
    if (!*v) return bad(a, v, "expected a column name");
    o->check_column = v;
  } else if (!strcmp(a, "--last-value")) {
    if (!is_integer(v)) return bad(a, v, "expected an integer");
    o->last_value = v;
    last_from = NULL;
  } else if (!strcmp(a, "--last-value-from")) {
    if (last_value_from(o, v)) return -1;
  } else if (!strcmp(a, "--ingest-chunk")) {
    uint64_t c;
    if (cli_parse_size(v, &c) || c < 1024 || c > ((uint64_t)1 << 30))
      return bad(a, v, "expected a size from 1k to 1g (e.g. 4m)");
    o->ingest_chunk = (size_t)c;
  } else if (!strcmp(a, "--encoding")) {
    if (hfg_encoding_parse(v, &o->hfile.encoding))
      return bad(a, v, "expected none, prefix, diff, fast_diff or row_index_v1");
  } else if (!strcmp(a, "--gz-impl")) {
    if (!strcasecmp(v, "zlib")) o->hfile.gz_impl = HFG_GZ_ZLIB;
    else if (!strcasecmp(v, "isal") || !strcasecmp(v, "isa-l")) o->hfile.gz_impl = HFG_GZ_ISAL;
    else return bad(a, v, "expected zlib (HBase's bytes, the default) or isal");
  } else {
    (*i)--;
    cli_flag_unknown(cli_command, a);
    return -1;
  }
  return 0;
}

static char **job_cols; /* a job file's columns */

/* Room for one more entry in *list (holding n of *cap); prints why not. */
static int job_room(const char *path, unsigned long line, const char *key, const char ***list,
                    size_t n, size_t *cap, int grow) {
  if (n < *cap) return 0;
  if (!grow) {
    fprintf(stderr, "hfilegen: job file %s line %lu: more than %zu '%s' entries\n", path, line,
            *cap, key);
    return -1;
  }
  size_t ncap = *cap ? *cap * 2 : 16;
  const char **l = realloc((void *)*list, ncap * sizeof *l);
  if (!l) {
    fprintf(stderr, "hfilegen: job file %s: out of memory\n", path);
    return -1;
  }
  *list = l;
  *cap = ncap;
  return 0;
}

static cli_job_key_fn job_key_fn; /* cli_job_key_hook */
static void *job_key_ctx;

void cli_job_key_hook(cli_job_key_fn fn, void *ctx) {
  job_key_fn = fn;
  job_key_ctx = ctx;
}

int cli_job_apply(const char *path, unsigned long line, const char *key, const char *val,
                  hfg_build_options *o, cli_job_lists *jl) {
  const char *v = keep(val);
  if (!v) {
    fprintf(stderr, "hfilegen: job file %s: out of memory\n", path);
    return -1;
  }
  if (!strcmp(key, "columns")) {
    if (!split_columns(v, &job_cols, o)) return 0;
    fprintf(stderr, "hfilegen: job file %s: out of memory\n", path);
    return -1;
  }
  if (!strcmp(key, "inputs") || !strcmp(key, "input")) {
    if (job_room(path, line, key, jl->inputs, *jl->ninputs, &jl->cap_inputs, jl->grow)) return -1;
    (*jl->inputs)[(*jl->ninputs)++] = v;
    return 0;
  }
  if (!strcmp(key, "map") &&
      job_room(path, line, key, jl->maps, *jl->nmaps, &jl->cap_maps, jl->grow))
    return -1;
  char flag[128];
  snprintf(flag, sizeof flag, "--%s", key);
  for (char *p = flag; *p; p++)
    if (*p == '_') *p = '-';
  int taken = job_key_fn ? job_key_fn(job_key_ctx, flag, v) : 0;
  if (taken < 0) {
    fprintf(stderr, "hfilegen: job file %s line %lu: key '%s'\n", path, line, key);
    return -1;
  }
  if (taken) return 0;
  int dummy = 0;
  if (cli_flag_takes_value("build", flag) == 0) { /* header: true, quiet: false, ... */
    int on = !strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcasecmp(v, "on") ||
             !strcmp(v, "1");
    int off = !strcasecmp(v, "false") || !strcasecmp(v, "no") || !strcasecmp(v, "off") ||
              !strcmp(v, "0");
    if (!on && !off) {
      fprintf(stderr, "hfilegen %s: job file %s line %lu: key '%s': expected true or false, "
              "got '%s'\n", cli_command, path, line, key, v);
      return -1;
    }
    if (!strcmp(flag, "--header") || !strcmp(flag, "--no-header"))
      o->header = on == !strcmp(flag, "--header"), header_given = 1;
    else if (!strcmp(flag, "--keep-key-columns")) o->keep_key_columns = on;
    else if (!strcmp(flag, "--quiet")) cli_quiet = on;
    else if (!strcmp(flag, "--direct-io") || !strcmp(flag, "--no-direct-io"))
      o->hfile.direct_io = on == !strcmp(flag, "--direct-io");
    else if (on) v = NULL; /* another such flag: given, as on the command line */
    else return 0;
    if (v) return 0;
  }
  if (cli_apply_build_flag(o, flag, v, *jl->maps, jl->nmaps, &job_cols, &dummy)) {
    fprintf(stderr, "hfilegen %s: job file %s line %lu: key '%s'\n", cli_command, path, line,
            key);
    return -1;
  }
  return 0;
}

int cli_load_job(const char *path, hfg_build_options *o, const char **inputs, size_t *ninputs,
                 const char **maps, size_t *nmaps, size_t cap) {
  cli_job_lists jl = {&inputs, &maps, ninputs, nmaps, cap, cap, 0};
  return cli_job_yaml_load(path, o, &jl);
}

int cli_load_job_args(int argc, char **argv, hfg_build_options *o, const char ***inputs,
                      size_t *ninputs, const char ***maps, size_t *nmaps) {
  const char *job_file = NULL;
  for (int i = 1; i + 1 < argc; i++)
    if (!strcmp(argv[i], "--job")) job_file = argv[i + 1];
  *inputs = NULL;
  *maps = NULL;
  *ninputs = *nmaps = 0;
  cli_job_lists jl = {inputs, maps, ninputs, nmaps, 0, 0, 1};
  int rc = job_file ? cli_job_yaml_load(job_file, o, &jl) : 0;
  job_key_fn = NULL;
  if (rc) return -1;
  /* then room for every word of the command line */
  size_t ci = *ninputs + (size_t)argc + 1, cm = *nmaps + (size_t)argc + 1;
  const char **in = realloc((void *)*inputs, ci * sizeof *in);
  if (in) *inputs = in;
  const char **mp = in ? realloc((void *)*maps, cm * sizeof *mp) : NULL;
  if (mp) *maps = mp;
  if (!in || !mp) {
    fprintf(stderr, "hfilegen: out of memory\n");
    return -1;
  }
  return 0;
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
