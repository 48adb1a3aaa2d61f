/* The old-table input flags of plan, splits and lint (cli_rekey_src.h). */
#include "cli/cli_rekey_src.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli_util.h"

void cli_rekey_src_init(cli_rekey_src *s) {
  memset(s, 0, sizeof *s);
  hfg_rekey_options_init(&s->ro);
}

int cli_rekey_src_flag(cli_rekey_src *s, int argc, char **argv, int *i, const char *cmd) {
  const char *a = argv[*i];
  if (!strcmp(a, "--raw")) {
    s->ro.raw = 1;
    s->given = 1;
    return 1;
  }
  int takes = !strcmp(a, "--from") || !strcmp(a, "--snapshot") || !strcmp(a, "--old-key") ||
              !strcmp(a, "--as-of");
  if (!takes) return 0;
  if (*i + 1 >= argc) {
    fprintf(stderr, "hfilegen %s: %s needs a value\n", cmd, a);
    return -1;
  }
  const char *v = argv[++*i];
  s->given = 1;
  if (!strcmp(a, "--from")) s->ro.from_dir = v;
  else if (!strcmp(a, "--snapshot")) s->ro.snapshot = v;
  else if (!strcmp(a, "--old-key")) s->ro.old_key = v;
  else {
    uint64_t n;
    if (cli_parse_u64(v, &n) || n > (uint64_t)INT64_MAX) {
      fprintf(stderr, "hfilegen %s: --as-of needs epoch milliseconds, got '%s'\n", cmd, v);
      return -1;
    }
    s->ro.as_of = (int64_t)n;
  }
  return 1;
}

int cli_rekey_src_root_check(const char *cmd, const char *from, const char *snapshot) {
  if (snapshot) return 0;
  char dir[4200];
  struct stat st;
  snprintf(dir, sizeof dir, "%s/.hbase-snapshot", from);
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) return 0;
  char names[512] = "";
  size_t n = 0, used = 0;
  DIR *d = opendir(dir);
  struct dirent *de;
  while (d && (de = readdir(d))) {
    if (de->d_name[0] == '.') continue;
    if (n++ < 8 && used + strlen(de->d_name) + 8 < sizeof names)
      used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "",
                               de->d_name);
  }
  if (d) closedir(d);
  fprintf(stderr, "hfilegen %s: --from %s is an HBase root directory (it holds .hbase-snapshot/): "
          "give --snapshot NAME (%s%s%s); without --snapshot, --from is a directory of family "
          "folders of HFiles\n", cmd, from, n ? "its snapshots: " : "it holds no snapshot",
          names, n > 8 ? ", ..." : "");
  return 2;
}

int cli_rekey_src_check(cli_rekey_src *s, size_t ninputs, const char *cmd) {
  if (!s->given) return 0;
  if (!s->ro.from_dir) {
    fprintf(stderr, "hfilegen %s: --snapshot, --old-key, --raw and --as-of go with --from DIR "
                    "(the old table)\n", cmd);
    return 2;
  }
  if (!s->ro.old_key) {
    fprintf(stderr, "hfilegen %s: --from needs --old-key PATTERN (how to read the old rowkey "
                    "into fields, as for rekey)\n", cmd);
    return 2;
  }
  if (ninputs) {
    fprintf(stderr, "hfilegen %s: --from reads the old table instead of inputs: give one or "
                    "the other\n", cmd);
    return 2;
  }
  if (cli_rekey_src_root_check(cmd, s->ro.from_dir, s->ro.snapshot)) return 2;
  snprintf(s->desc, sizeof s->desc, "%s%s%s", s->ro.from_dir, s->ro.snapshot ? " snapshot " : "",
           s->ro.snapshot ? s->ro.snapshot : "");
  return 0;
}
