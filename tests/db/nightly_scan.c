/*
 * The table a full scan of HBase would return after bulk-loading some nights'
 * outputs in order (tests/db/nightly.sh): the store scan (src/input/store_scan.h,
 * HBase's read path: format-specs/scan-semantics.md) over one family's HFiles of
 * every output directory given, each night's files named as completebulkload
 * names them (_SeqId_<night>_), so later loads win ties as they do in HBase.
 *
 *   hfg_nightly_scan FAMILY VERSIONS OUT_DIR...
 *
 * Prints one line per visible cell: row TAB qualifier TAB timestamp TAB value
 * (bytes escaped as \xNN outside printable ASCII), in HBase order.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "hfilegen/reader.h"
#include "input/store_scan.h"

static void put_bytes(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\') putchar(p[i]);
    else printf("\\x%02x", p[i]);
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: hfg_nightly_scan FAMILY VERSIONS OUT_DIR...\n");
    return 2;
  }
  struct timeval tv;
  gettimeofday(&tv, NULL);
  hfg_store_scan_options so = HFG_STORE_SCAN_OPTIONS_INIT;
  so.versions = atoi(argv[2]);
  so.as_of_ms = (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
  so.family = (const uint8_t *)argv[1];
  so.family_len = strlen(argv[1]);
  hfg_store_scan *sc = NULL;
  if (hfg_store_scan_create(&so, &sc)) {
    fprintf(stderr, "scan: %s\n", sc ? hfg_store_scan_errmsg(sc) : "cannot create");
    return 1;
  }
  hfg_reader *rs[1024];
  size_t nr = 0;
  for (int k = 3; k < argc; k++) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", argv[k], argv[1]);
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
      if (e->d_name[0] == '.' || e->d_name[0] == '_') continue;
      if (nr == sizeof rs / sizeof *rs) return fprintf(stderr, "too many files\n"), 1;
      char p[8192], name[600];
      snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
      if (hfg_reader_open(p, &rs[nr])) {
        fprintf(stderr, "%s: %s\n", p, rs[nr] ? hfg_reader_errmsg(rs[nr]) : "cannot open");
        return 1;
      }
      snprintf(name, sizeof name, "%.500s_SeqId_%d_", e->d_name, k - 2);
      hfg_store_file f;
      memset(&f, 0, sizeof f);
      f.reader = rs[nr++];
      f.name = name;
      if (hfg_store_scan_describe(sc, &f) || hfg_store_scan_add(sc, &f)) {
        fprintf(stderr, "%s: %s\n", p, hfg_store_scan_errmsg(sc));
        return 1;
      }
    }
    if (d) closedir(d);
  }
  const hfg_cell *cells;
  size_t n;
  int rc;
  while ((rc = hfg_store_scan_next_row(sc, &cells, &n)) == 1)
    for (size_t i = 0; i < n; i++) {
      put_bytes(cells[i].row, cells[i].row_len);
      putchar('\t');
      put_bytes(cells[i].qualifier, cells[i].qualifier_len);
      printf("\t%lld\t", (long long)cells[i].timestamp);
      put_bytes(cells[i].value, cells[i].value_len);
      putchar('\n');
    }
  if (rc < 0) fprintf(stderr, "scan: %s\n", hfg_store_scan_errmsg(sc));
  hfg_store_scan_free(sc);
  for (size_t i = 0; i < nr; i++) hfg_reader_close(rs[i]);
  return rc < 0;
}
