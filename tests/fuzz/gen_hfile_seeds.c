/*
 * Writes the HFile seeds of the fuzz corpus (tests/fuzz/corpus/hfile/) with
 * our writer: each codec, ROW/ROWCOL/no bloom, CRC32 and CRC32C with small
 * checksum chunks, multi-level indexes from tiny block and index sizes, delete
 * cells (delete-family bloom), tags, an empty file; plus truncated and
 * bit-flipped variants of two of them. The corpus is committed; this program
 * documents how it was made and regenerates it:
 *   gen_hfile_seeds DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hfilegen/writer.h"

typedef struct seed {
  const char *name;
  hfg_codec codec;
  hfg_bloom_type bloom;
  hfg_checksum_type checksum;
  uint32_t bytes_per_checksum, block_size, index_max;
  int cells, deletes, tags;
} seed;

static const seed SEEDS[] = {
    {"w_none_row_3level", HFG_CODEC_NONE, HFG_BLOOM_ROW, HFG_CHECKSUM_CRC32C, 16384, 256, 128, 150, 0, 0},
    {"w_gz_rowcol", HFG_CODEC_GZ, HFG_BLOOM_ROWCOL, HFG_CHECKSUM_CRC32C, 16384, 512, 256, 300, 0, 0},
    {"w_lz4_row_crc32", HFG_CODEC_LZ4, HFG_BLOOM_ROW, HFG_CHECKSUM_CRC32, 64, 512, 4096, 200, 0, 0},
    {"w_snappy_nobloom", HFG_CODEC_SNAPPY, HFG_BLOOM_NONE, HFG_CHECKSUM_CRC32C, 128, 1024, 4096, 200, 0, 0},
    {"w_zstdhadoop_row", HFG_CODEC_ZSTD_HADOOP, HFG_BLOOM_ROW, HFG_CHECKSUM_CRC32C, 16384, 512, 256, 200, 0, 0},
    {"w_zstdhbase_rowcol", HFG_CODEC_ZSTD_HBASE, HFG_BLOOM_ROWCOL, HFG_CHECKSUM_CRC32C, 16384, 512, 256, 200, 0, 0},
    {"w_none_deletes_tags", HFG_CODEC_NONE, HFG_BLOOM_ROW, HFG_CHECKSUM_CRC32C, 16384, 1024, 4096, 120, 1, 1},
    {"w_empty", HFG_CODEC_NONE, HFG_BLOOM_ROW, HFG_CHECKSUM_CRC32C, 16384, 65536, 131072, 0, 0, 0},
    {"w_single_cell", HFG_CODEC_GZ, HFG_BLOOM_ROWCOL, HFG_CHECKSUM_CRC32C, 16384, 65536, 131072, 1, 0, 0},
};

static int write_seed(const seed *s, const char *dir, uint8_t **data, size_t *len) {
  hfg_writer_options wo = HFG_WRITER_OPTIONS_INIT;
  wo.codec = s->codec;
  wo.bloom = s->bloom;
  wo.checksum = s->checksum;
  wo.bytes_per_checksum = s->bytes_per_checksum;
  wo.block_size = s->block_size;
  wo.index_block_max_size = s->index_max;
  wo.index_min_entries = 2;
  wo.bloom_block_size = 128;
  wo.bulkload_timestamp = 1720695600000;
  hfg_writer *w = NULL;
  int rc = hfg_writer_open_mem("cf", &wo, &w);
  for (int i = 0; !rc && i < s->cells; i++) {
    char row[32], val[48];
    int rl = snprintf(row, sizeof row, "row%06d", i);
    int vl = snprintf(val, sizeof val, "v%d", i * 7919);
    if (s->deletes && i % 10 == 3) {
      hfg_cell d = {(const uint8_t *)row, (size_t)rl, (const uint8_t *)"cf", 2, NULL, 0,
                    1720695600000, HFG_TYPE_DELETE_FAMILY, NULL, 0, NULL, 0};
      rc = hfg_writer_append(w, &d);
    }
    static const uint8_t tag[] = {0, 4, 8, 'a', 'c', 'l'};
    for (int q = 0; !rc && q < 2; q++) {
      hfg_cell c = {(const uint8_t *)row, (size_t)rl, (const uint8_t *)"cf", 2,
                    (const uint8_t *)(q ? "q2" : "q1"), 2, 1720695600000 - q, HFG_TYPE_PUT,
                    (const uint8_t *)val, (size_t)vl, s->tags ? tag : NULL, s->tags ? sizeof tag : 0};
      rc = hfg_writer_append(w, &c);
    }
  }
  if (!rc) rc = hfg_writer_finish(w);
  if (rc) {
    fprintf(stderr, "%s: %s\n", s->name, hfg_writer_errmsg(w));
    hfg_writer_free(w);
    return rc;
  }
  const uint8_t *p = hfg_writer_mem_data(w, len);
  *data = malloc(*len);
  memcpy(*data, p, *len);
  hfg_writer_free(w);
  char path[4096];
  snprintf(path, sizeof path, "%s/seed_%s.hfile", dir, s->name);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(*data, 1, *len, f) != *len) return -1;
  fclose(f);
  return 0;
}

static void put(const char *dir, const char *name, const uint8_t *p, size_t n) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (f) {
    fwrite(p, 1, n, f);
    fclose(f);
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: gen_hfile_seeds DIR\n");
    return 2;
  }
  int bad = 0;
  for (size_t i = 0; i < sizeof SEEDS / sizeof *SEEDS; i++) {
    uint8_t *p;
    size_t n;
    if (write_seed(&SEEDS[i], argv[1], &p, &n)) {
      bad++;
      continue;
    }
    if (i < 2) {
      /* truncated: mid-file, inside the load-on-open section, inside the trailer */
      size_t cuts[] = {n / 2, n - 4096 - 40, n - 100};
      for (size_t k = 0; k < 3; k++) {
        char name[128];
        snprintf(name, sizeof name, "seed_%s.cut%zu", SEEDS[i].name, cuts[k]);
        put(argv[1], name, p, cuts[k]);
      }
      /* bit flips: a data block header, a data payload, the root index, the trailer */
      size_t at[] = {10, 200, n - 4096 - 60, n - 4096 + 20};
      for (size_t k = 0; k < 4; k++) {
        char name[128];
        snprintf(name, sizeof name, "seed_%s.flip%zu", SEEDS[i].name, at[k]);
        p[at[k]] ^= 0x10;
        put(argv[1], name, p, n);
        p[at[k]] ^= 0x10;
      }
    }
    free(p);
  }
  return bad ? 1 : 0;
}
