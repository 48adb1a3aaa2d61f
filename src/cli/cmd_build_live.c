/*
 * build --table: what HFileOutputFormat2.configureIncrementalLoad(job, table,
 * regionLocator) takes from a live table, applied to the build options: the
 * region start keys as split points, and per family the codec, bloom and block
 * size unless the command line (or the job file) chose them. The table's
 * MAX_FILESIZE becomes --max-file-size unless given. Each family's
 * DATA_BLOCK_ENCODING is written too (HFileOutputFormat2 writes the family's
 * encoding), unless --encoding (or the job file's encoding) or a
 * --family-option FAMILY:encoding= chooses one; an encoding hfilegen does not
 * write (PREFIX_TREE) fails the job unless one of those chooses another.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_build_live.h"
#include "cli/opts.h"

static int flag_given(int argc, char **argv, const char *flag) {
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], flag)) return 1;
  return 0;
}

/* A --family-option FAMILY:KEY=... (or its alias spelling) for this family. */
static int family_option_given(const hfg_build_options *o, const char *fam, const char *key,
                               const char *alias) {
  size_t fl = strlen(fam);
  for (size_t i = 0; i < o->nfamily_options; i++) {
    const char *s = o->family_options[i];
    if (strncmp(s, fam, fl) || s[fl] != ':') continue;
    const char *k = s + fl + 1, *eq = strchr(k, '=');
    if (!eq) continue;
    size_t kl = (size_t)(eq - k);
    if ((strlen(key) == kl && !strncmp(k, key, kl)) ||
        (alias && strlen(alias) == kl && !strncmp(k, alias, kl)))
      return 1;
  }
  return 0;
}

int cli_build_live_apply(cli_build_live *lv, hfg_build_options *o, int argc, char **argv,
                         const char *cmd) {
  hfg_hbase_table *t = &lv->table;
  if (o->splits_file) {
    fprintf(stderr, "hfilegen %s: --splits and --table exclude each other\n", cmd);
    return 2;
  }
  int rc = cli_hbase_fetch(&lv->hb, 1, t, cmd);
  if (rc) return rc;
  hfg_build_options dflt;
  hfg_build_options_init(&dflt);
  /* given on the command line, or set by the job file (differs from the default) */
  int codec_given = flag_given(argc, argv, "--codec") || o->hfile.codec != dflt.hfile.codec;
  int bloom_given = flag_given(argc, argv, "--bloom") || o->hfile.bloom != dflt.hfile.bloom;
  int block_given = flag_given(argc, argv, "--block-size") ||
                    o->hfile.block_size != dflt.hfile.block_size;
  int size_given = flag_given(argc, argv, "--max-file-size") ||
                   o->max_file_size != dflt.max_file_size;
  int enc_given = flag_given(argc, argv, "--encoding") ||
                  o->hfile.encoding != dflt.hfile.encoding;

  size_t n = t->nregions ? t->nregions - 1 : 0;
  lv->keys = calloc(n + 1, sizeof *lv->keys);
  lv->lens = calloc(n + 1, sizeof *lv->lens);
  lv->fams = calloc(t->nfamilies + 1, sizeof *lv->fams);
  if (!lv->keys || !lv->lens || !lv->fams) {
    fprintf(stderr, "hfilegen %s: out of memory\n", cmd);
    return 1;
  }
  for (size_t i = 0; i < n; i++) {
    lv->keys[i] = t->regions[i + 1].start;
    lv->lens[i] = t->regions[i + 1].start_len;
  }
  o->split_keys = lv->keys;
  o->split_key_lens = lv->lens;
  o->nsplit_keys = n;
  o->splits_source = lv->hb.source;
  int bad = 0;
  for (size_t k = 0; k < t->nfamilies; k++) {
    const hfg_hbase_family *f = &t->families[k];
    hfg_build_family *b = &lv->fams[k];
    b->name = f->name;
    const char *codec = cli_hbase_codec(&lv->hb, f), *bloom = cli_hbase_bloom(f);
    char bloom_name[32];
    /* a --family-option for this family wins over the table as the flag does */
    int fcodec = codec_given || family_option_given(o, f->name, "codec", NULL);
    int fbloom = bloom_given || family_option_given(o, f->name, "bloom", NULL);
    int fblock = block_given || family_option_given(o, f->name, "block-size", "block_size");
    if (!fcodec) {
      if (!codec || hfg_codec_parse(codec, &b->codec)) {
        fprintf(stderr,
                "hfilegen %s: table '%s' family '%s' has COMPRESSION %s, which hfilegen does "
                "not write (none, gz, snappy, lz4, zstd): choose one with --codec or "
                "--family-option %s:codec=...\n",
                cmd, lv->hb.table, f->name, f->compression, f->name);
        bad = 1;
      }
      b->has_codec = 1;
    }
    if (!fbloom) {
      int ok = bloom && !hfg_bloom_type_parse(bloom, &b->bloom);
      if (ok && b->bloom == HFG_BLOOM_ROWPREFIX) { /* its prefix length from the family */
        b->bloom_prefix_length = cli_hbase_bloom_prefix_length(f);
        ok = b->bloom_prefix_length > 0;
        snprintf(bloom_name, sizeof bloom_name, "rowprefix:%u", b->bloom_prefix_length);
        bloom = bloom_name;
      }
      if (!ok) {
        fprintf(stderr,
                "hfilegen %s: table '%s' family '%s' has BLOOMFILTER %s%s%s, which hfilegen does "
                "not write (none, row, rowcol, ROWPREFIX_FIXED_LENGTH with a prefix length of "
                "1..32767): choose one with --bloom or --family-option %s:bloom=...\n",
                cmd, lv->hb.table, f->name, f->bloom,
                f->bloom_prefix_length ? " with prefix length " : "",
                f->bloom_prefix_length ? f->bloom_prefix_length : "", f->name);
        bad = 1;
      }
      b->has_bloom = 1;
    }
    if (!block_given) b->block_size = f->block_size;
    int fam_enc_given = family_option_given(o, f->name, "encoding", "data_block_encoding");
    int enc_ok = 0;
    if (!enc_given && !fam_enc_given) {
      if (!(enc_ok = !hfg_hbase_family_encoding(f, &b->encoding))) {
        fprintf(stderr,
                "hfilegen %s: table '%s' family '%s' has DATA_BLOCK_ENCODING %s, which hfilegen "
                "does not write (none, prefix, diff, fast_diff, row_index_v1): choose one with "
                "--encoding or --family-option %s:encoding=...\n",
                cmd, lv->hb.table, f->name, f->encoding, f->name);
        bad = 1;
      }
      b->has_encoding = 1;
    }
    char block[32];
    if (fblock && !block_given) snprintf(block, sizeof block, "(command line)");
    else snprintf(block, sizeof block, "%u%s", block_given ? o->hfile.block_size : f->block_size,
                  block_given ? " (command line)" : "");
    if (!cli_quiet)
      fprintf(stderr,
              "hfilegen %s: table '%s' family '%s': codec %s, bloom %s, block size %s, "
              "encoding %s\n",
              cmd, lv->hb.table, f->name,
              fcodec ? "(command line)" : codec ? codec : f->compression,
              fbloom ? "(command line)" : bloom ? bloom : f->bloom, block,
              enc_given || fam_enc_given ? "(command line)"
              : enc_ok                   ? hfg_encoding_name(b->encoding)
                                          : f->encoding);
  }
  o->table_families = lv->fams;
  o->ntable_families = t->nfamilies;
  if (!size_given && t->max_file_size) o->max_file_size = t->max_file_size;
  if (!cli_quiet) fprintf(stderr, "hfilegen %s: regions from %s\n", cmd, lv->hb.source);
  return bad ? 1 : 0;
}

void cli_build_live_free(cli_build_live *lv) {
  free(lv->keys);
  free(lv->lens);
  free(lv->fams);
  hfg_hbase_table_free(&lv->table);
}
