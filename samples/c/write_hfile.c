/*
 * A program on the installed library: writes one HFile of N rows (family cf,
 * one LZ4-compressed cell per row, row bloom) with the public writer API, then
 * reads it back with the public reader. Build it through pkg-config:
 *
 *   cc -o write_hfile write_hfile.c $(pkg-config --cflags --libs hfilegen)
 *   ./write_hfile out.hfile 1000 && hfilegen verify out.hfile
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hfilegen/reader.h>
#include <hfilegen/writer.h>

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s OUT.hfile ROWS\n", argv[0]);
    return 2;
  }
  long rows = strtol(argv[2], NULL, 10);
  hfg_writer_options o = HFG_WRITER_OPTIONS_INIT;
  o.codec = HFG_CODEC_LZ4;
  o.bulkload_timestamp = 1700000000000;
  hfg_writer *w = NULL;
  int rc = hfg_writer_open(argv[1], "cf", &o, &w);
  for (long i = 0; rc == 0 && i < rows; i++) {
    char row[32], val[32];
    int rl = snprintf(row, sizeof row, "row%08ld", i); /* zero-padded: byte order = i's order */
    int vl = snprintf(val, sizeof val, "%ld", i * i);
    hfg_put p = {(const uint8_t *)"v", 1, (const uint8_t *)val, (size_t)vl};
    rc = hfg_writer_append_puts(w, (const uint8_t *)row, (size_t)rl, 1700000000000, &p, 1);
  }
  if (rc == 0) rc = hfg_writer_finish(w);
  if (rc) {
    fprintf(stderr, "write %s: %s\n", argv[1], w ? hfg_writer_errmsg(w) : hfg_strerror(rc));
    hfg_writer_free(w);
    return 1;
  }
  hfg_writer_free(w);

  hfg_reader *r = NULL;
  if (hfg_reader_open(argv[1], &r)) {
    fprintf(stderr, "read %s: %s\n", argv[1], r ? hfg_reader_errmsg(r) : "out of memory");
    hfg_reader_close(r);
    return 1;
  }
  const hfg_trailer *t = hfg_reader_trailer(r);
  printf("wrote %s: HFile v%d.%d, %" PRIu64 " cells, %" PRIu64 " bytes\n", argv[1],
         t->major_version, t->minor_version, t->entry_count, t->file_size);
  hfg_reader_close(r);
  return 0;
}
