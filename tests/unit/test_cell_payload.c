/* build/cell_payload: typed cells through the sort payload — every field
 * back as written (types, timestamps, tags, empty parts), and a payload cut
 * or with a length run past its end is refused, never read beyond. */
#include "build/cell_payload.h"
#include "t.h"
#include "util/coding.h"

static hfg_cell mk(const char *q, int64_t ts, uint8_t type, const char *tags, size_t tlen,
                   const char *v) {
  hfg_cell c;
  memset(&c, 0, sizeof c);
  c.qualifier = (const uint8_t *)q;
  c.qualifier_len = strlen(q);
  c.timestamp = ts;
  c.type = type;
  c.tags = (const uint8_t *)tags;
  c.tags_len = tlen;
  c.value = (const uint8_t *)v;
  c.value_len = strlen(v);
  return c;
}

TEST(round_trip) {
  hfg_buf pl = HFG_BUF_INIT;
  CHECK_EQ_INT(hfg_cell_payload_begin(&pl, 7, 123456789012ull, 513), 0);
  hfg_cell in[4] = {
      mk("", INT64_MAX, HFG_TYPE_DELETE_FAMILY, NULL, 0, ""),
      mk("a", 1720695600000, HFG_TYPE_PUT, "\x00\x03\x08\x00\x01", 5, "value"),
      mk("a", -5, HFG_TYPE_DELETE_COLUMN, NULL, 0, ""),
      mk("qq", 0, HFG_TYPE_DELETE_FAMILY_VERSION, NULL, 0, "x")};
  uint16_t fams[4] = {0, 0, 0, 300};
  for (int i = 0; i < 4; i++) CHECK_EQ_INT(hfg_cell_payload_add(&pl, fams[i], &in[i]), 0);
  CHECK_EQ_INT(hfg_get_be64(pl.p), 7);
  CHECK_EQ_INT(hfg_get_be64(pl.p + 8), 123456789012ull);
  CHECK_EQ_INT(hfg_get_be16(pl.p + 16), 513);
  hfg_cell_cursor cc;
  hfg_cell_cursor_init(&cc, pl.p, pl.len);
  for (int i = 0; i < 4; i++) {
    hfg_cell c;
    memset(&c, 0, sizeof c);
    uint16_t f = 9999;
    CHECK_EQ_INT(hfg_cell_cursor_next(&cc, &f, &c), 1);
    CHECK_EQ_INT(f, fams[i]);
    CHECK_EQ_INT(c.timestamp, in[i].timestamp);
    CHECK_EQ_INT(c.type, in[i].type);
    CHECK_EQ_INT(c.qualifier_len, in[i].qualifier_len);
    CHECK(!memcmp(c.qualifier, in[i].qualifier, c.qualifier_len));
    CHECK_EQ_INT(c.tags_len, in[i].tags_len);
    CHECK(c.tags_len == 0 ? c.tags == NULL : !memcmp(c.tags, in[i].tags, c.tags_len));
    CHECK_EQ_INT(c.value_len, in[i].value_len);
    CHECK(!memcmp(c.value, in[i].value, c.value_len));
  }
  hfg_cell c;
  uint16_t f;
  CHECK_EQ_INT(hfg_cell_cursor_next(&cc, &f, &c), 0);
  hfg_buf_free(&pl);
}

TEST(header_only_has_no_cells) {
  hfg_buf pl = HFG_BUF_INIT;
  CHECK_EQ_INT(hfg_cell_payload_begin(&pl, 0, 1, 0), 0);
  CHECK_EQ_INT(pl.len, HFG_CELL_PAYLOAD_HEADER);
  hfg_cell_cursor cc;
  hfg_cell_cursor_init(&cc, pl.p, pl.len);
  hfg_cell c;
  uint16_t f;
  CHECK_EQ_INT(hfg_cell_cursor_next(&cc, &f, &c), 0);
  hfg_buf_free(&pl);
}

TEST(cut_or_lying_payload_refused) {
  hfg_buf pl = HFG_BUF_INIT;
  hfg_cell_payload_begin(&pl, 0, 1, 0);
  hfg_cell in = mk("qual", 5, HFG_TYPE_PUT, "\x00\x02\x08\x01", 4, "some value");
  hfg_cell_payload_add(&pl, 1, &in);
  size_t full = pl.len;
  /* every cut inside the cell */
  for (size_t cut = HFG_CELL_PAYLOAD_HEADER + 1; cut < full; cut++) {
    hfg_cell_cursor cc;
    hfg_cell_cursor_init(&cc, pl.p, cut);
    hfg_cell c;
    uint16_t f;
    CHECK_EQ_INT(hfg_cell_cursor_next(&cc, &f, &c), HFG_ECORRUPT);
  }
  /* each length field one more than the bytes there */
  const size_t offs[3] = {2, 17, 15}; /* qlen, vlen (be32), tlen (be16) */
  for (int k = 0; k < 3; k++) {
    uint8_t *p = pl.p + HFG_CELL_PAYLOAD_HEADER + offs[k];
    if (k < 2) hfg_put_be32(p, hfg_get_be32(p) + (uint32_t)(full - HFG_CELL_PAYLOAD_HEADER));
    else hfg_put_be16(p, (uint16_t)(hfg_get_be16(p) + 200));
    hfg_cell_cursor cc;
    hfg_cell_cursor_init(&cc, pl.p, pl.len);
    hfg_cell c;
    uint16_t f;
    CHECK_EQ_INT(hfg_cell_cursor_next(&cc, &f, &c), HFG_ECORRUPT);
    pl.len = 0;
    hfg_cell_payload_begin(&pl, 0, 1, 0);
    hfg_cell_payload_add(&pl, 1, &in);
  }
  hfg_buf_free(&pl);
}

TEST(too_big_parts_refused) {
  hfg_buf pl = HFG_BUF_INIT;
  hfg_cell_payload_begin(&pl, 0, 1, 0);
  hfg_cell c = mk("q", 1, HFG_TYPE_PUT, NULL, 0, "v");
  c.tags_len = 65536;
  CHECK_EQ_INT(hfg_cell_payload_add(&pl, 0, &c), HFG_ETOOBIG);
  CHECK_EQ_INT(pl.len, HFG_CELL_PAYLOAD_HEADER);
  hfg_buf_free(&pl);
}

T_MAIN
