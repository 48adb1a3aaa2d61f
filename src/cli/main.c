#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "cli/cli.h"
#include "cli/cli_flags.h"

struct command {
  const char *name;
  int (*fn)(int, char **);
  const char *summary;
};

static const struct command COMMANDS[] = {
    {"build", cmd_build, "records -> rowkey scheme -> regions -> sorted HFiles for completebulkload"},
    {"rekey", cmd_rekey, "an HBase table's snapshot re-keyed offline into HFiles for the new table"},
    {"inspect", cmd_inspect, "show an HFile's trailer, file info, index, blocks, cells, stats"},
    {"verify", cmd_verify, "check HFiles (checksums, order, index, bloom) and region boundaries"},
    {"splits", cmd_splits, "split keys for a rowkey scheme or RegionSplitter algorithm (lines, shell, json)"},
    {"plan", cmd_plan, "dry run: rows, bytes and skew per region, raw key vs scheme (table, SVG, HTML)"},
    {"lint", cmd_lint, "check a rowkey template (and sample records) against the rowkey red lines"},
    {"key", cmd_key, "the rowkey a template builds from field values (text, shell, Java)"},
    {"scan-ranges", cmd_scan_ranges, "start/stop rows covering a field range under a rowkey template"},
};

static void usage(FILE *f) {
  fprintf(f, "usage: hfilegen <command> [options]\n\ncommands:\n");
  for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
    fprintf(f, "  %-12s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
  fprintf(f, "\n'hfilegen <command> --help' (or 'hfilegen help <command>') describes a command;\n"
             "'hfilegen --version' prints the version.\n");
}

int main(int argc, char **argv) {
#ifdef __GLIBC__
  /* glibc raises its mmap threshold to the size of each large block freed (up
   * to 32 MiB); from then on such blocks come from the arenas (one a thread)
   * and stay resident when freed. With several threads and a small --memory
   * (many spill runs, a part reader and merge buffers each) that held peak RSS
   * 18 MB above the budget. A fixed threshold (the default 128 KiB, which also
   * fixes the trim threshold) gives them back to the system when freed. */
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V") || !strcmp(argv[1], "version")) {
    printf("hfilegen %s\n", HFG_VERSION);
    return 0;
  }
  if (!strcmp(argv[1], "help") && argc > 2) {
    /* help COMMAND: the command's own --help */
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
      if (!strcmp(argv[2], COMMANDS[i].name)) {
        char *args[] = {argv[2], "--help", NULL};
        return COMMANDS[i].fn(2, args);
      }
    char hint[512];
    fprintf(stderr, "hfilegen: unknown command '%s'%s\n", argv[2],
            cli_command_suggest(argv[2], hint, sizeof hint));
    usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    usage(stdout);
    return 0;
  }
  for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
    if (!strcmp(argv[1], COMMANDS[i].name)) {
      /* --flag=value as --flag value, for every command (cli_flags.h) */
      int nargc;
      char **nargv;
      int rc = cli_flags_normalize(COMMANDS[i].name, argc - 1, argv + 1, &nargc, &nargv);
      if (rc) return rc;
      rc = COMMANDS[i].fn(nargc, nargv);
      free(nargv);
      return rc;
    }
  char hint[512];
  fprintf(stderr, "hfilegen: unknown command '%s'%s\n", argv[1],
          cli_command_suggest(argv[1], hint, sizeof hint));
  usage(stderr);
  return 2;
}
