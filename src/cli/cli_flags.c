/* The commands' flags: see cli_flags.h. */
#include "cli/cli_flags.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cli_command = "build";

/* A name ending in '=' takes a value. Keep these in step with the commands'
 * loops and usage texts (tests/cli/flags_gnu.sh checks every flag a --help
 * names against them). */

/* cli_apply_build_flag (opts.c): build, plan and rekey take all of them */
static const char *const BUILD_FLAGS[] = {
    "--rowkey=", "--out=", "--splits=", "--tmp-dir=", "--family=", "--map=", "--family-option=",
    "--rejects=", "--columns=", "--format=", "--delimiter=", "--spill-compression=", "--empty=",
    "--timestamp=", "--on-duplicate=", "--max-rejects=", "--memory=", "--threads=",
    "--max-file-size=", "--codec=", "--bloom=", "--checksum=", "--block-size=",
    "--bytes-per-checksum=", "--create-time=", "--progress=", "--job-timestamp=", "--empty-row=",
    "--null-string=", "--fields-terminated-by=", "--fields-enclosed-by=", "--fields-escaped-by=",
    "--lines-terminated-by=", "--incremental=", "--check-column=", "--last-value=",
    "--last-value-from=", "--delete-if=", "--op-column=", "--deletes=", "--deletes-time=",
    "--ingest-chunk=", "--encoding=", "--gz-impl=", "--no-header",
    "--header", "--keep-key-columns", "--quiet", "--no-direct-io", "--direct-io", NULL};

/* cli_hbase.h's live-table flags */
static const char *const HBASE_FLAGS[] = {"--table=", "--zookeeper=", "--znode-parent=",
                                          "--hbase-site=", "--hbase-dump=", "--hbase-timeout=",
                                          NULL};

static const char *const BUILD_OWN[] = {"--job=", "--input=", "--help", NULL};
static const char *const PLAN_OWN[] = {"--job=", "--input=", "--regions=", "--sample=",
                                       "--seed=", "--raw-key=", "--hot-field=", "--top=",
                                       "--svg=", "--report=", "--json", "--no-raw-key",
                                       "--help", NULL};
static const char *const REKEY_OWN[] = {"--help", NULL};
/* cli_rekey_src.h: an old table's snapshot as the input of rekey, plan, splits, lint */
static const char *const REKEY_SRC[] = {"--from=", "--snapshot=", "--old-key=", "--as-of=",
                                        "--raw", NULL};
static const char *const SPLITS_OWN[] = {
    "--rowkey=", "--algo=", "--format=", "-o=", "--family=", "--codec=", "--bloom=",
    "--block-size=", "--regions=", "--input=", "--sample=", "--input-format=", "--delimiter=",
    "--no-header", "--header", "--columns=", "--null-string=", "--fields-terminated-by=",
    "--fields-enclosed-by=", "--fields-escaped-by=", "--lines-terminated-by=", "--help", NULL};
static const char *const LINT_OWN[] = {
    "--rowkey=", "--regions=", "--input=", "--delimiter=", "--max-records=", "--format=",
    "--input-format=", "--columns=", "--null-string=", "--fields-terminated-by=",
    "--fields-enclosed-by=", "--fields-escaped-by=", "--lines-terminated-by=", "--help", NULL};
static const char *const KEY_OWN[] = {"--rowkey=", "--table=", "--old-key=", "--help", NULL};
static const char *const SCAN_OWN[] = {"--rowkey=", "--format=", "--table=", "--from=",
                                       "--to=", "--max-ranges=", "--to-inclusive", "--gets",
                                       "--help", NULL};
static const char *const VERIFY_OWN[] = {"--splits=", "--quiet", "--help", NULL};
static const char *const INSPECT_OWN[] = {"--blocks", "--cells", "--tsv", "--stats", "--json",
                                          "--limit=", "--help", NULL};

static const struct command_flags {
  const char *cmd;
  const char *const *lists[4];
} COMMANDS[] = {
    {"build", {BUILD_OWN, BUILD_FLAGS, HBASE_FLAGS}},
    {"plan", {PLAN_OWN, BUILD_FLAGS, HBASE_FLAGS, REKEY_SRC}},
    {"rekey", {REKEY_OWN, BUILD_FLAGS, HBASE_FLAGS, REKEY_SRC}},
    {"splits", {SPLITS_OWN, HBASE_FLAGS, REKEY_SRC}},
    {"lint", {LINT_OWN, REKEY_SRC}},
    {"key", {KEY_OWN, NULL, NULL}},
    {"scan-ranges", {SCAN_OWN, NULL, NULL}},
    {"verify", {VERIFY_OWN, HBASE_FLAGS, NULL}},
    {"inspect", {INSPECT_OWN, NULL, NULL}},
};

static const struct command_flags *find_command(const char *cmd) {
  for (size_t c = 0; c < sizeof COMMANDS / sizeof COMMANDS[0]; c++)
    if (!strcmp(COMMANDS[c].cmd, cmd)) return &COMMANDS[c];
  return NULL;
}

/* The table entry of flag[0..len) in cmd, or NULL. */
static const char *find_flag(const char *cmd, const char *flag, size_t len) {
  const struct command_flags *c = find_command(cmd);
  for (int l = 0; c && l < 4 && c->lists[l]; l++)
    for (const char *const *f = c->lists[l]; *f; f++) {
      size_t n = strcspn(*f, "=");
      if (n == len && !strncmp(*f, flag, len)) return *f;
    }
  return NULL;
}

int cli_flag_takes_value(const char *cmd, const char *flag) {
  const char *f = find_flag(cmd, flag, strlen(flag));
  return !f ? -1 : f[strlen(f) - 1] == '=';
}

/* "--name=..." with a name of letters, digits, '-' and '_': the length of
 * "--name", else 0. */
static size_t eq_flag(const char *w) {
  if (w[0] != '-' || w[1] != '-') return 0;
  size_t n = 2;
  while ((w[n] >= 'a' && w[n] <= 'z') || (w[n] >= 'A' && w[n] <= 'Z') ||
         (w[n] >= '0' && w[n] <= '9') || w[n] == '-' || w[n] == '_')
    n++;
  return n > 2 && w[n] == '=' ? n : 0;
}

int cli_flags_normalize(const char *cmd, int argc, char **argv, int *out_argc, char ***out) {
  cli_command = cmd;
  size_t chars = 0;
  for (int i = 0; i < argc; i++) chars += strlen(argv[i]) + 1;
  /* at most two words for each, then the copied names */
  char **nv = malloc((2 * (size_t)argc + 1) * sizeof *nv + chars);
  if (!nv) {
    fprintf(stderr, "hfilegen %s: out of memory\n", cmd);
    return 1;
  }
  char *names = (char *)(nv + 2 * (size_t)argc + 1);
  int n = 0, i = 0;
  if (argc > 0) nv[n++] = argv[i++];
  for (; i < argc; i++) {
    const char *w = argv[i];
    if (!strcmp(w, "--")) { /* the end of the flags: the rest as it is */
      while (i < argc) nv[n++] = argv[i++];
      break;
    }
    size_t k = eq_flag(w);
    if (k) {
      const char *f = find_flag(cmd, w, k);
      if (f && f[strlen(f) - 1] != '=') {
        fprintf(stderr, "hfilegen %s: %.*s takes no value (got '%s'): give %.*s alone\n", cmd,
                (int)k, w, w, (int)k, w);
        free(nv);
        return 2;
      }
      memcpy(names, w, k);
      names[k] = '\0';
      nv[n++] = names;
      nv[n++] = (char *)w + k + 1;
      names += k + 1;
      continue;
    }
    nv[n++] = argv[i];
    /* a flag's value stays as it is, whatever it looks like */
    if (w[0] == '-' && cli_flag_takes_value(cmd, w) == 1 && i + 1 < argc) nv[n++] = argv[++i];
  }
  nv[n] = NULL;
  *out_argc = n;
  *out = nv;
  return 0;
}

/* Optimal string alignment distance (Levenshtein with adjacent swaps) of a and
 * b, both at most 63 bytes; 99 for longer ones. */
static int distance(const char *a, size_t la, const char *b, size_t lb) {
  if (la > 63 || lb > 63) return 99;
  int d[64][64];
  for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
  for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
  for (size_t i = 1; i <= la; i++)
    for (size_t j = 1; j <= lb; j++) {
      int cost = a[i - 1] != b[j - 1];
      int v = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
      if (d[i - 1][j - 1] + cost < v) v = d[i - 1][j - 1] + cost;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
          d[i - 2][j - 2] + 1 < v)
        v = d[i - 2][j - 2] + 1;
      d[i][j] = v;
    }
  return d[la][lb];
}

const char *cli_flag_suggest(const char *cmd, const char *flag, char *buf, size_t cap) {
  if (cap) buf[0] = '\0';
  const struct command_flags *c = find_command(cmd);
  if (!c || cap < 64) return buf;
  const char *name = flag;
  while (*name == '-') name++;
  size_t ln = strcspn(name, "=");
  /* one edit for short names, two from six letters on: --split -> --splits */
  int best = ln >= 6 ? 2 : 1;
  const char *pick[8];
  size_t npick = 0;
  for (int l = 0; l < 4 && c->lists[l]; l++)
    for (const char *const *f = c->lists[l]; *f; f++) {
      const char *fn = *f;
      while (*fn == '-') fn++;
      size_t lf = strcspn(fn, "=");
      if (lf == ln && !strncmp(fn, name, ln)) continue; /* itself, with a dash too many */
      int d = distance(name, ln, fn, lf);
      if (d > best) continue;
      if (d < best) npick = 0, best = d;
      int dup = 0; /* in two lists (--rowkey is build's and splits') */
      for (size_t k = 0; k < npick && !dup; k++)
        dup = strcspn(pick[k], "=") == strcspn(*f, "=") &&
              !strncmp(pick[k], *f, strcspn(*f, "="));
      if (!dup && npick < sizeof pick / sizeof *pick) pick[npick++] = *f;
    }
  size_t used = 0;
  for (size_t k = 0; k < npick && used + 64 < cap; k++)
    used += (size_t)snprintf(buf + used, cap - used, "%s%.*s", k ? " or " : " (did you mean ",
                             (int)strcspn(pick[k], "="), pick[k]);
  if (used) snprintf(buf + used, cap - used, "?)");
  return buf;
}

const char *cli_flag_elsewhere(const char *cmd, const char *flag, char *buf, size_t cap) {
  if (cap) buf[0] = '\0';
  const struct command_flags *c = find_command(cmd);
  if (!c || cap < 64) return buf;
  size_t used = 0, nother = 0;
  for (size_t o = 0; o < sizeof COMMANDS / sizeof COMMANDS[0]; o++) {
    if (&COMMANDS[o] == c || !find_flag(COMMANDS[o].cmd, flag, strcspn(flag, "="))) continue;
    if (used + 64 >= cap) break;
    used += (size_t)snprintf(buf + used, cap - used, "%s%s", nother++ ? ", " : " (a flag of ",
                             COMMANDS[o].cmd);
  }
  if (!used) return buf;
  used += (size_t)snprintf(buf + used, used < cap ? cap - used : 0, ", not of %s", cmd);
  if (strcspn(flag, "=") == 9 && !strncmp(flag, "--regions", 9) && find_flag(cmd, "--splits", 8) &&
      used < cap)
    used += (size_t)snprintf(buf + used, cap - used,
                             ": %s takes the split keys, --splits FILE from 'hfilegen splits "
                             "--rowkey T --regions N > FILE', or --table NAME", cmd);
  if (used < cap) snprintf(buf + used, cap - used, ")");
  return buf;
}

const char *cli_command_suggest(const char *word, char *buf, size_t cap) {
  if (cap) buf[0] = '\0';
  if (cap < 64) return buf;
  if (word[0] == '-') { /* a flag first: the command was left out */
    size_t used = 0, n = 0;
    for (size_t o = 0; o < sizeof COMMANDS / sizeof COMMANDS[0] && used + 40 < cap; o++)
      if (find_flag(COMMANDS[o].cmd, word, strcspn(word, "=")))
        used += (size_t)snprintf(buf + used, cap - used, "%s%s", n++ ? ", " : "", COMMANDS[o].cmd);
    if (n) {
      char cmds[256];
      snprintf(cmds, sizeof cmds, "%s", buf);
      if (n == 1) snprintf(buf, cap, " (the command comes first: hfilegen %s %s ...)", cmds, word);
      else snprintf(buf, cap, " (the command comes first: hfilegen COMMAND %s ..., where %s take it)",
                    word, cmds);
    }
    return buf;
  }
  size_t lw = strlen(word);
  int best = 2;
  const char *pick = NULL;
  for (size_t o = 0; o < sizeof COMMANDS / sizeof COMMANDS[0]; o++) {
    int d = distance(word, lw, COMMANDS[o].cmd, strlen(COMMANDS[o].cmd));
    if (d <= best && (d < best || !pick)) best = d, pick = COMMANDS[o].cmd;
  }
  if (pick) snprintf(buf, cap, " (did you mean %s?)", pick);
  return buf;
}

void cli_flag_unknown(const char *cmd, const char *flag) {
  char hint[512];
  if (*cli_flag_suggest(cmd, flag, hint, sizeof hint) ||
      *cli_flag_elsewhere(cmd, flag, hint, sizeof hint))
    fprintf(stderr, "hfilegen %s: unknown option '%s'%s\n", cmd, flag, hint);
  else
    fprintf(stderr, "hfilegen %s: unknown option '%s' (see hfilegen %s --help)\n", cmd, flag, cmd);
}
