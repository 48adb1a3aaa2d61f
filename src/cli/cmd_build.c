/* hfilegen build: the CLI face of hfg_build_run (include/hfilegen/build.h). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_build_live.h"
#include "cli/cli_checks.h"
#include "cli/cli_signals.h"
#include "cli/cli_util.h"
#include "cli/opts.h"
#include "hfilegen/build.h"

static const char USAGE[] =
    "usage: hfilegen build [--job FILE] --rowkey TEMPLATE --out DIR [options] INPUT...\n"
    "\n"
    "Reads CSV/TSV records (files, '-' for stdin, gzip/zstd/bzip2/xz read transparently), builds each\n"
    "rowkey with TEMPLATE, partitions rows by the region split points, sorts each region\n"
    "within --memory and writes one HFile per region per family as DIR/<family>/<file>,\n"
    "published atomically (_SUCCESS last) for completebulkload.\n"
    "\n"
    "input:   --format csv|tsv  --delimiter C  --no-header  --columns a,b,c\n"
    "         (format: TSV for names ending in .tsv/.tab[.gz|.zst|.bz2|.xz], else CSV;\n"
    "         --columns alone means no header, --header --columns renames the header's)\n"
    "dumps:   --format mysql|pg-text|pg-csv  --null-string S  --fields-terminated-by S\n"
    "         --fields-enclosed-by C  --fields-escaped-by C  --lines-terminated-by S\n"
    "key:     --rowkey TEMPLATE (man hfilegen-build, docs/templates.md)\n"
    "regions: --splits FILE (one escaped key per line)\n"
    "cells:   --family NAME (default cf)  --map COL=FAMILY:QUALIFIER[:ENCODING] | COL=-\n"
    "         --keep-key-columns  --empty skip|store\n"
    "         --empty-row skip|marker[:FAMILY:QUALIFIER]  (a record with no cell: count it\n"
    "         and write nothing, or keep its row with one empty cell, default <family>:_0)\n"
    "         ENCODING: text long int short double float boolean hex base64\n"
    "time:    --timestamp now|MILLIS|column:NAME[:s|ms|us|ns|PATTERN]  (PATTERN e.g.\n"
    "         yyyy-MM-dd HH:mm:ss, UTC, or with an offset: yyyy-MM-dd'T'HH:mm:ssXXX)\n"
    "         --job-timestamp MILLIS (with column:..., the timestamp naming the files)\n"
    "hfile:   --codec none|gz|snappy|lz4|zstd-hadoop|zstd-hbase  --bloom none|row|rowcol|rowprefix:N\n"
    "         --block-size 64k  --checksum crc32c|crc32  --bytes-per-checksum 16k\n"
    "         --max-file-size 10g  --create-time MILLIS\n"
    "         --no-direct-io (write through the page cache, not O_DIRECT: e.g. NFS;\n"
    "         --direct-io, the default, undoes a job file's no_direct_io: true)\n"
    "         --family-option FAMILY:KEY=VALUE  (codec, bloom, block-size, checksum,\n"
    "         bytes-per-checksum for one family)\n"
    "         --encoding none|prefix|diff|fast_diff|row_index_v1 (DATA_BLOCK_ENCODING;\n"
    "         family option encoding)\n"
    "         --gz-impl zlib|isal (GZ engine: zlib gives HBase's bytes; isal, if built\n"
    "         with ISA-L, is several times faster, valid GZ, not HBase's bytes)\n"
    "run:     --memory 1g  --tmp-dir DIR  --spill-compression none|lz4  --threads N\n"
    "         --ingest-chunk 4m (parallel ingest: bytes of a plain file per part)\n"
    "         --on-duplicate error|last|first  (--threads 0, the default: one per core)\n"
    "         --rejects FILE  --max-rejects N  --quiet  --progress plain|none\n"
    "live:    --table NAME instead of --splits: the table's region boundaries and, unless\n"
    "         given, each family's codec, bloom and block size (and MAX_FILESIZE), from a\n"
    "         running HBase: --zookeeper host:port[,...] [--znode-parent /hbase] or\n"
    "         --hbase-site FILE or $HBASE_CONF_DIR/hbase-site.xml; --hbase-timeout MS\n"
    "database: INPUT postgresql://USER@HOST:PORT/DB?table=T (or ?query=SELECT...),\n"
    "         mysql://USER@HOST:PORT/DB?table=T; password from PGPASSWORD/.pgpass,\n"
    "         MYSQL_PWD/option files (man hfilegen-build, docs/database.md)\n"
    "         --incremental append|lastmodified --check-column COL (--last-value N |\n"
    "         --last-value-from DIR); lastmodified: updates too, NULLs as DeleteColumn\n"
    "nightly: --delete-if COL (soft deletes)  --op-column COL (changes file: i/u/d)\n"
    "         --deletes FILE|URI (keys of hard-deleted rows) --deletes-time COL (when each\n"
    "         was deleted, epoch ms; default: --timestamp, the job's)\n";

typedef struct progress_state {
  int quiet;
  int tty;
  double start;        /* monotonic seconds at the start */
  double last;         /* when a plain line was last printed */
  uint64_t total;      /* input bytes as stored, 0 when unknown (stdin) */
} progress_state;

static double mono_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* On a terminal one line rewritten in place; otherwise a plain line every 10 s. */
static void show_progress(void *ctx, const hfg_build_progress *p) {
  progress_state *ps = ctx;
  if (ps->quiet) return;
  double now = mono_now(), el = now - ps->start;
  if (!ps->tty && now - ps->last < 10.0) return;
  ps->last = now;
  char eta[64] = "";
  if (!strcmp(p->phase, "ingest")) {
    double rate = el > 0 ? (double)p->input_bytes / el : 0;
    if (ps->total && rate > 0 && p->input_bytes <= ps->total)
      snprintf(eta, sizeof eta, ", %.0f%%, ingest ETA %.0fs",
               100.0 * (double)p->input_bytes / (double)ps->total,
               (double)(ps->total - p->input_bytes) / rate);
    fprintf(stderr, "%s[ingest] %llu record%s, %.1f MB read, %.1f MB/s%s%s", ps->tty ? "\r" : "",
            (unsigned long long)p->records, p->records == 1 ? "" : "s",
            (double)p->input_bytes / 1e6, rate / 1e6, eta,
            ps->tty ? "   " : "\n");
  } else {
    fprintf(stderr, "%s[emit] %llu/%llu regions, %.1f MB written, %.1f s%s", ps->tty ? "\r" : "",
            (unsigned long long)p->regions_done, (unsigned long long)p->regions,
            (double)p->output_bytes / 1e6, el, ps->tty ? "   " : "\n");
  }
}

#define S(n) ((n) == 1 ? "" : "s") /* "1 put", "2 puts" */

static void print_summary(const hfg_build_options *o, const hfg_build_summary *s) {
  double total = s->ingest_seconds + s->emit_seconds + s->publish_seconds;
  printf("hfilegen build: %s\n", o->out_dir);
  printf("  records read      %llu\n", (unsigned long long)s->records_read);
  printf("  records written   %llu\n", (unsigned long long)s->records_written);
  printf("  records rejected  %llu%s%s\n", (unsigned long long)s->records_rejected,
         s->records_rejected ? "  -> " : "", s->records_rejected ? s->rejects_path : "");
  printf("  duplicates dropped %llu\n", (unsigned long long)s->duplicates_dropped);
  printf("  records without cells %llu%s\n", (unsigned long long)s->records_without_cells,
         s->records_without_cells ? "  (every non-key field empty: no row in HBase; "
                                    "--empty-row marker keeps them)"
                                  : "");
  if (o->empty_row == HFG_EMPTY_ROW_MARKER)
    printf("  marker rows       %llu (written with only the cell %s:%s)\n",
           (unsigned long long)s->marker_rows,
           o->empty_row_family ? o->empty_row_family : o->family ? o->family : "cf",
           o->empty_row_qualifier ? o->empty_row_qualifier : "_0");
  if (s->null_values || o->format >= HFG_BUILD_MYSQL || o->null_string)
    printf("  null values       %llu (no cell)\n", (unsigned long long)s->null_values);
  if (s->blank_lines)
    printf("  blank lines       %llu (skipped: not records)\n", (unsigned long long)s->blank_lines);
  if (o->check_column)
    printf("  incremental       %s > %s: largest read %s (next run: --last-value-from %s)\n",
           o->check_column, o->last_value ? o->last_value : "(all rows)",
           s->check_max[0] ? s->check_max : "(none)", o->out_dir);
  if (o->check_column && o->last_value)
    printf("  null check values %llu not loaded (%s is NULL: never > %s)\n",
           (unsigned long long)s->check_nulls_skipped, o->check_column, o->last_value);
  else if (o->check_column)
    printf("  null check values %llu loaded (%s is NULL: a later night's %s > N never selects "
           "such rows)\n", (unsigned long long)s->check_nulls_read, o->check_column,
           o->check_column);
  if (o->incremental_mode == HFG_INCR_LASTMODIFIED || o->delete_if || o->op_column || o->deletes ||
      o->changes)
    printf("  changes           %llu put%s, %llu column delete%s, %llu row%s deleted (%llu "
           "DeleteFamily marker%s)\n",
           (unsigned long long)s->put_cells, S(s->put_cells),
           (unsigned long long)s->column_deletes, S(s->column_deletes),
           (unsigned long long)s->row_deletes, S(s->row_deletes),
           (unsigned long long)s->family_deletes, S(s->family_deletes));
  if (o->deletes)
    printf("  hard deletes      %llu read, %llu dropped (the key is a live row, or repeated)\n",
           (unsigned long long)s->deletes_read, (unsigned long long)s->deletes_superseded);
  printf("  cells             %llu\n", (unsigned long long)s->cells);
  printf("  files             %llu (%.1f MB)\n", (unsigned long long)s->files,
         (double)s->output_bytes / 1e6);
  if (o->timestamp_column)
    printf("  timestamp         from column %s; job timestamp %lld names the files (rerun "
           "with --job-timestamp %lld to reproduce them)\n",
           o->timestamp_column, (long long)s->timestamp, (long long)s->timestamp);
  else
    printf("  timestamp         %lld (rerun with --timestamp %lld to reproduce)\n",
           (long long)s->timestamp, (long long)s->timestamp);
  if (s->long_keys)
    printf("  WARNING: %llu rowkey%s longer than 200 bytes (every cell repeats the key)\n",
           (unsigned long long)s->long_keys, s->long_keys == 1 ? " is" : "s are");
  printf("  spill runs        %zu (%.1f MB)\n", s->spill_runs, (double)s->spilled_bytes / 1e6);
  printf("  time              %.2fs (ingest %.2fs, emit %.2fs, publish %.2fs)", total,
         s->ingest_seconds, s->emit_seconds, s->publish_seconds);
  if (total > 0)
    printf(", %.1f MB/s in, %.0f rows/s", (double)s->input_bytes / 1e6 / total,
           (double)s->records_written / total);
  if (s->ingest_threads)
    printf("\n  ingest            %u thread%s, %llu part%s (%llu read again from their true start)",
           s->ingest_threads, s->ingest_threads == 1 ? "" : "s",
           (unsigned long long)s->ingest_parts, s->ingest_parts == 1 ? "" : "s",
           (unsigned long long)s->ingest_reparsed);
  printf("\n  region       rows        cells      files    MB\n");
  for (size_t r = 0; r < s->nregions; r++)
    printf("  %6zu %10llu %12llu %10u %8.2f\n", r, (unsigned long long)s->regions[r].rows,
           (unsigned long long)s->regions[r].cells, s->regions[r].files,
           (double)s->regions[r].bytes_out / 1e6);
}

int cmd_build(int argc, char **argv) {
  hfg_build_options o;
  hfg_build_options_init(&o);
  const char **inputs = NULL, **maps = NULL;
  char **cols = NULL;
  size_t ninputs = 0, nmaps = 0;
  progress_state ps = {0, isatty(2), 0, 0, 0};
  cli_build_live live;
  memset(&live, 0, sizeof live);
  int rc = 2;
  /* the job file is read first so that flags override it */
  cli_job_key_hook(cli_hbase_job_key, &live.hb);
  if (cli_load_job_args(argc, argv, &o, &inputs, &ninputs, &maps, &nmaps)) goto out;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    int hk;
#define NEED()                                                           \
  do {                                                                   \
    if (!v) {                                                            \
      fprintf(stderr, "hfilegen build: %s needs a value\n", a);          \
      goto out;                                                          \
    }                                                                    \
    i++;                                                                 \
  } while (0)
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(USAGE, stdout);
      rc = 0;
      goto out;
    } else if (!strcmp(a, "--job")) {
      NEED();
    } else if (!strcmp(a, "--input")) {
      NEED();
      inputs[ninputs++] = v;
    } else if (a[0] != '-' || !strcmp(a, "-")) {
      inputs[ninputs++] = a;
    } else if ((hk = cli_hbase_flag(&live.hb, argc, argv, &i, 1, "build")) != 0) {
      if (hk < 0) goto out;
    } else if (cli_apply_build_flag(&o, a, v, maps, &nmaps, &cols, &i)) {
      goto out;
    }
#undef NEED
  }
  cli_hbase_job_precedence(&live.hb, &o.splits_file, argc, argv, "build");
  o.inputs = inputs;
  o.ninputs = ninputs;
  o.mappings = maps;
  o.nmappings = nmaps;
  if (!ninputs || !o.rowkey || !o.out_dir) {
    /* the first line as the Spark driver gives it (python/hfilegen/core.py) */
    fprintf(stderr, "hfilegen build: needs --rowkey, --out and at least one input\n"
            "hfilegen build: missing: %s%s%s%s%s\n%s",
            o.rowkey ? "" : "--rowkey", !o.rowkey && (!o.out_dir || !ninputs) ? ", " : "",
            o.out_dir ? "" : "--out", !o.out_dir && !ninputs ? ", " : "", ninputs ? "" : "an input",
            USAGE);
    goto out;
  }
  if (live.hb.table && (rc = cli_build_live_apply(&live, &o, argc, argv, "build"))) goto out;
  rc = 2;
  if (cli_check_rowkey_columns("build", o.rowkey) || cli_check_family_options("build", &o) ||
      cli_check_db_format("build", &o))
    goto out;
  const char *job_file = NULL;
  for (int i = 1; i + 1 < argc; i++)
    if (!strcmp(argv[i], "--job")) job_file = argv[i + 1];
  if ((rc = cli_check_inputs(inputs, ninputs, job_file)) != 0) goto out;
  if ((rc = cli_check_deletes(&o)) != 0) goto out;
  if ((rc = cli_check_header_as_data("build", &o)) != 0) goto out;
  if ((rc = cli_check_headers("build", &o)) != 0) goto out;
  cli_warn_unnamed_columns(&o);
  cli_warn_mysql_crlf(&o);
  if ((rc = cli_check_rejects_path(&o, job_file)) != 0) goto out;
  if ((rc = cli_check_work_paths("build", &o)) != 0) goto out; /* before the output is taken */
  rc = 2;
  cli_warn_splits("build", o.splits_file);
  if (cli_check_incremental(&o)) goto out;
  o.progress = show_progress;
  o.progress_ctx = &ps;
  ps.start = mono_now();
  ps.last = ps.start;
  for (size_t k = 0; k < ninputs; k++) {
    struct stat st;
    if (!strcmp(inputs[k], "-") || stat(inputs[k], &st) != 0) {
      ps.total = 0;
      break;
    }
    ps.total += (uint64_t)st.st_size;
  }
  ps.quiet = cli_quiet || cli_no_progress; /* --progress none: the summary stays */
  o.cancel = &cli_interrupted;
  cli_signals_begin("build", &o);
  hfg_build_summary s;
  int r = hfg_build_run(&o, &s);
  cli_signals_end();
  if (ps.tty && !ps.quiet) fputc('\n', stderr);
  if (s.stale_bytes) /* also with --quiet: it removed files */
    fprintf(stderr,
            "hfilegen build: removed a killed job's staging directory %s with its spill runs "
            "(%.1f MB)\n",
            s.staging, (double)s.stale_bytes / 1e6);
  if (r == HFG_ECANCELED && cli_interrupted) {
    fprintf(stderr,
            "hfilegen build: interrupted by %s (%s): removed the temporary HFiles and spill "
            "runs (%.1f MB)%s%s; nothing was published in %s (%llu record%s read)\n",
            cli_signal_name(cli_interrupted), s.error, (double)s.removed_bytes / 1e6,
            s.staging[0] ? " and the staging directory " : "", s.staging, o.out_dir,
            (unsigned long long)s.records_read, s.records_read == 1 ? "" : "s");
    rc = 128 + cli_interrupted;
  } else if (r) {
    fprintf(stderr, "hfilegen build: FAILED: %s\n", s.error);
    cli_splits_hint(stderr, "build", o.splits_file, s.error);
    fprintf(stderr, "hfilegen build: nothing was published in %s (%llu record%s read, %llu "
                    "rejected)\n",
            o.out_dir, (unsigned long long)s.records_read, s.records_read == 1 ? "" : "s",
            (unsigned long long)s.records_rejected);
    /* a template the input's columns refuse is a usage error, as the pre-check's are */
    rc = r == HFG_EINVAL && cli_is_usage_error(s.error) ? 2 : 1;
  } else {
    if (!cli_quiet) print_summary(&o, &s);
    if (!cli_quiet && !o.splits_file && !o.nsplit_keys && !live.hb.table && s.records_written)
      fprintf(stderr, "hfilegen build: note: no --splits or --table: one region, so each file "
                      "spans every key; completebulkload splits such files at a pre-split "
                      "table's region boundaries (give --splits FILE or --table NAME)\n");
    /* rows no night of this load will ever select: said, also with --quiet */
    if (s.check_nulls_skipped)
      fprintf(stderr, "hfilegen build: warning: %llu row%s whose %s is NULL %s not loaded "
                      "(%s > %s never holds for NULL): only a first night without --last-value "
                      "loads such rows; set their %s, or load them with a full build\n",
              (unsigned long long)s.check_nulls_skipped, s.check_nulls_skipped == 1 ? "" : "s",
              o.check_column, s.check_nulls_skipped == 1 ? "was" : "were", o.check_column,
              o.last_value, o.check_column);
    else if (s.check_nulls_read)
      fprintf(stderr, "hfilegen build: warning: %llu row%s whose %s is NULL %s loaded (no "
                      "--last-value: every row), but a later night selects %s > N: rows added "
                      "with a NULL %s will not be loaded\n",
              (unsigned long long)s.check_nulls_read, s.check_nulls_read == 1 ? "" : "s",
              o.check_column, s.check_nulls_read == 1 ? "was" : "were", o.check_column,
              o.check_column);
    if (s.records_read == 0 && o.check_column && o.last_value) /* a quiet night */
      fprintf(stderr, "hfilegen build: warning: no records were read (no row has %s > %s): %s "
                      "holds no HFiles\n", o.check_column, o.last_value, o.out_dir);
    else if (s.records_read == 0) /* also with --quiet: a nightly job may be handed an empty file */
      fprintf(stderr, "hfilegen build: warning: no records were read (the inputs hold no more "
                      "than a header): %s holds no HFiles\n", o.out_dir);
    else if (s.records_written == 0) /* every record rejected (within --max-rejects) or without a cell */
      fprintf(stderr, "hfilegen build: warning: %llu record%s read, none written (%llu rejected, "
                      "%llu without cells, %llu duplicate%s dropped): %s holds no HFiles\n",
              (unsigned long long)s.records_read, S(s.records_read),
              (unsigned long long)s.records_rejected, (unsigned long long)s.records_without_cells,
              (unsigned long long)s.duplicates_dropped, S(s.duplicates_dropped), o.out_dir);
    else if (s.records_rejected && cli_quiet) /* the summary says it otherwise */
      fprintf(stderr, "hfilegen build: warning: %llu record%s rejected (--max-rejects %llu), "
                      "written to %s\n",
              (unsigned long long)s.records_rejected, S(s.records_rejected),
              (unsigned long long)o.max_rejects, s.rejects_path);
    if (cli_interrupted)
      fprintf(stderr, "hfilegen build: %s arrived while publishing: the output is complete\n",
              cli_signal_name(cli_interrupted));
    rc = 0;
  }
  hfg_build_summary_free(&s);
out:
  cli_build_live_free(&live);
  free(inputs);
  free(maps);
  cli_free_columns(cols, &o);
  return rc;
}
