/* The splits-file rules (src/build/splits.c): '#' comment lines, trailing
 * whitespace refused with the line, an empty file is one region, and
 * hfg_splits_line writes lines that read back as the same keys. */
#include <unistd.h>

#include "build/splits.h"
#include "t.h"

/* Writes text to a private file, loads it, removes the file. */
static int load_text(const char *text, hfg_splits *sp, hfg_err *err) {
  char path[] = "/tmp/hfg_splits_file_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return -100;
  size_t n = strlen(text);
  int w = write(fd, text, n) == (ssize_t)n;
  close(fd);
  memset(err, 0, sizeof *err);
  int rc = w ? hfg_splits_load(path, sp, err) : -100;
  unlink(path);
  return rc;
}

TEST(comments_are_skipped) {
  hfg_splits sp;
  hfg_err err;
  REQUIRE(load_text("# region splits for t\n\\x23x\n#2\n1\n", &sp, &err) == 0);
  REQUIRE(sp.n == 2);
  CHECK(sp.len[0] == 2 && sp.key[0][0] == '#' && sp.key[0][1] == 'x');
  CHECK(sp.len[1] == 1 && sp.key[1][0] == '1');
  hfg_splits_free(&sp);
}

TEST(trailing_whitespace_is_refused_with_the_line) {
  hfg_splits sp;
  hfg_err err;
  CHECK(load_text("1\n2 \n3\n", &sp, &err) == HFG_EPARSE);
  CHECK(strstr(err.msg, "line 2") != NULL);
  CHECK(strstr(err.msg, "space") != NULL && strstr(err.msg, "\\x20") != NULL);
  CHECK(load_text("1\r\n2\t\r\n", &sp, &err) == HFG_EPARSE);
  CHECK(strstr(err.msg, "line 2") != NULL && strstr(err.msg, "TAB") != NULL);
  /* escaped, the same keys are fine */
  REQUIRE(load_text("1\n2\\x20\n3\\x09\n", &sp, &err) == 0);
  REQUIRE(sp.n == 3);
  CHECK(sp.len[1] == 2 && sp.key[1][1] == ' ');
  CHECK(sp.len[2] == 2 && sp.key[2][1] == '\t');
  hfg_splits_free(&sp);
}

TEST(empty_file_is_one_region) {
  hfg_splits sp;
  hfg_err err;
  REQUIRE(load_text("# nothing yet\n\n", &sp, &err) == 0);
  CHECK(sp.n == 0);
  CHECK_EQ_INT(hfg_splits_region(&sp, (const uint8_t *)"x", 1), 0);
  hfg_splits_free(&sp);
}

TEST(lines_read_back_as_the_same_keys) {
  static const struct {
    const char *key;
    size_t len;
    const char *line;
  } cases[] = {
      {"abc", 3, "abc"},
      {"#a", 2, "\\x23a"},
      {"a ", 2, "a\\x20"},
      {"a\t", 2, "a\\x09"},
      {"#", 1, "\\x23"},
      {" ", 1, "\\x20"},
      {"a#b c", 5, "a#b c"},
      {"\x00\xff", 2, "\\x00\\xff"},
  };
  hfg_buf text = HFG_BUF_INIT, line = HFG_BUF_INIT;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    hfg_buf_reset(&line);
    REQUIRE(hfg_splits_line(&line, (const uint8_t *)cases[i].key, cases[i].len) == 0);
    CHECK(line.len == strlen(cases[i].line) && !memcmp(line.p, cases[i].line, line.len));
    if (line.len != strlen(cases[i].line) || memcmp(line.p, cases[i].line, line.len))
      fprintf(stderr, "  case %zu: got '%.*s'\n", i, (int)line.len, (const char *)line.p);
  }
  /* ascending keys written as lines load back as themselves */
  static const char *const keys[] = {" ", "#", "# x", "a\t", "b "};
  for (size_t i = 0; i < 5; i++) {
    REQUIRE(hfg_splits_line(&text, (const uint8_t *)keys[i], strlen(keys[i])) == 0);
    REQUIRE(hfg_buf_append(&text, "\n", 1) == 0);
  }
  REQUIRE(hfg_buf_append(&text, "", 1) == 0);
  hfg_splits sp;
  hfg_err err;
  REQUIRE(load_text((const char *)text.p, &sp, &err) == 0);
  REQUIRE(sp.n == 5);
  for (size_t i = 0; i < 5; i++)
    CHECK(sp.len[i] == strlen(keys[i]) && !memcmp(sp.key[i], keys[i], sp.len[i]));
  hfg_splits_free(&sp);
  hfg_buf_free(&text);
  hfg_buf_free(&line);
}

T_MAIN
