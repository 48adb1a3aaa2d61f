/*
 * The HBase client's wire layer (src/client/) on bytes captured from a real HBase
 * 2.6.4 mini cluster (tests/unit/data/hbase/, written by `hfilegen splits --table
 * live --format shell --hbase-dump DIR` against tests/interop's LiveTableCheck
 * table): the meta-region-server and master znodes, a ClientService.Scan answer
 * of hbase:meta, a MasterService.GetTableDescriptors answer, and the Scan answer
 * for a disabled table. Also: the request bytes we send, every truncation of the
 * captures, hbase-site.xml, and the connection's refusals (TLS, SASL, silence)
 * against a local socket.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "client/hb_conn.h"
#include "client/hb_table.h"
#include "client/hb_wire.h"
#include "client/hb_zk.h"
#include "hbase-rpc.pb-c.h"
#include "hfilegen/hbase.h"
#include "t.h"
#include "util/buf.h"
#include "util/coding.h"

#define DATA HFG_SOURCE_DIR "/tests/unit/data/hbase/"

static uint8_t *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  uint8_t *p = malloc(1 << 20);
  *n = fread(p, 1, 1 << 20, f);
  fclose(f);
  return p;
}

/* A .frame file: BE32 length, then the frame. */
static uint8_t *frame(const char *path, size_t *n) {
  size_t len;
  uint8_t *p = slurp(path, &len);
  if (!p || len < 4 || hfg_get_be32(p) != len - 4) {
    free(p);
    return NULL;
  }
  memmove(p, p + 4, len - 4);
  *n = len - 4;
  return p;
}

TEST(preamble_and_connection_header) {
  hfg_buf b = HFG_BUF_INIT;
  REQUIRE(hb_encode_connection_header(&b, "u", "ClientService") == 0);
  static const uint8_t want[] = {'H', 'B', 'a', 's', 0, 80, 0, 0, 0, 20, 0x0a, 3, 0x0a, 1, 'u',
                                 0x12, 13, 'C', 'l', 'i', 'e', 'n', 't', 'S', 'e', 'r', 'v', 'i',
                                 'c', 'e'};
  CHECK_EQ_INT(b.len, sizeof want);
  CHECK_MEM(b.p, want, sizeof want);
  hfg_buf_free(&b);
}

TEST(request_frame) {
  hfg_buf b = HFG_BUF_INIT;
  Hfg__Hbrpc__ScanRequest req = HFG__HBRPC__SCAN_REQUEST__INIT;
  req.has_number_of_rows = 1;
  req.number_of_rows = 5;
  REQUIRE(hb_encode_request(&b, 7, "Scan", 0, &req.base) == 0);
  /* BE32 14 | varint 10, RequestHeader{call_id 7, method "Scan", request_param true} |
   * varint 2, ScanRequest{number_of_rows 5} */
  static const uint8_t want[] = {0, 0, 0, 14, 10, 0x08, 7, 0x1a, 4, 'S', 'c', 'a', 'n', 0x20, 1,
                                 2, 0x20, 5};
  CHECK_EQ_INT(b.len, sizeof want);
  CHECK_MEM(b.p, want, sizeof want);
  hfg_buf_free(&b);
}

TEST(captured_znodes) {
  size_t n;
  uint8_t *p = slurp(DATA "live/zk-meta-region-server.bin", &n);
  REQUIRE(p);
  hb_server s;
  hfg_err e = {0};
  CHECK_EQ_INT(hb_decode_server_znode(p, n, 0, &s, &e), 0);
  CHECK(!strcmp(s.host, "localhost"));
  CHECK(s.port > 1024 && s.port < 65536);
  /* the same bytes are no Master message with a host (field 1 is a ServerName either way,
   * so they decode); a cut payload is refused */
  for (size_t k = 0; k < n; k++) {
    hfg_err_clear(&e);
    hb_server t;
    int rc = hb_decode_server_znode(p, k, 0, &t, &e);
    CHECK(rc != 0 || k > 20); /* short prefixes lack the PBUF magic or the host */
    if (rc) CHECK(e.msg[0]);
  }
  free(p);
  p = slurp(DATA "live/zk-master.bin", &n);
  REQUIRE(p);
  hfg_err_clear(&e);
  CHECK_EQ_INT(hb_decode_server_znode(p, n, 1, &s, &e), 0);
  CHECK(!strcmp(s.host, "localhost") && s.port > 1024);
  /* no PBUF magic after the metadata */
  p[5 + hfg_get_be32(p + 1)] = 'X';
  hfg_err_clear(&e);
  CHECK(hb_decode_server_znode(p, n, 1, &s, &e) == HFG_ECORRUPT && strstr(e.msg, "PBUF"));
  free(p);
}

static int scan_capture(const char *path, const char *table, hfg_hbase_table *t, hfg_err *e) {
  size_t n;
  uint8_t *p = frame(path, &n);
  if (!p) return -100;
  hb_response r;
  int rc = hb_decode_response(p, n, &r, e);
  if (!rc && (r.has_exception || r.call_id != 1)) rc = -101;
  hb_meta_acc a;
  hb_meta_init(&a, t, table);
  int more = 1, has_id = 0;
  uint64_t id = 0;
  if (!rc) rc = hb_meta_add_response(&a, r.body, r.body_len, &more, &id, &has_id, e);
  if (!rc && more) rc = -102;
  if (!rc) rc = hb_meta_finish(&a, e);
  free(p);
  return rc;
}

TEST(captured_meta_scan) {
  hfg_hbase_table t;
  memset(&t, 0, sizeof t);
  hfg_err e = {0};
  CHECK_EQ_INT(scan_capture(DATA "live/000-Scan.frame", "live", &t, &e), 0);
  REQUIRE(t.nregions == 16);
  CHECK_EQ_INT(t.regions[0].start_len, 0);
  CHECK_EQ_INT(t.regions[15].end_len, 0);
  for (size_t i = 1; i < 16; i++) {
    char k[16];
    snprintf(k, sizeof k, "k%05zu", i * 2000);
    CHECK(t.regions[i].start_len == 6 && !memcmp(t.regions[i].start, k, 6));
    CHECK(t.regions[i - 1].end_len == 6 && !memcmp(t.regions[i - 1].end, k, 6));
  }
  CHECK_EQ_INT(hfg_hbase_region_of(&t, (const uint8_t *)"", 0), 0);
  CHECK_EQ_INT(hfg_hbase_region_of(&t, (const uint8_t *)"k01999", 6), 0);
  CHECK_EQ_INT(hfg_hbase_region_of(&t, (const uint8_t *)"k02000", 6), 1);
  CHECK_EQ_INT(hfg_hbase_region_of(&t, (const uint8_t *)"k30000", 6), 15);
  CHECK_EQ_INT(hfg_hbase_region_of(&t, (const uint8_t *)"z", 1), 15);
  hfg_hbase_table_free(&t);
  /* the same rows are not another table's: "liv" sees none of them */
  memset(&t, 0, sizeof t);
  hfg_err_clear(&e);
  CHECK_EQ_INT(scan_capture(DATA "live/000-Scan.frame", "liv", &t, &e), HFG_EINVAL);
  CHECK(strstr(e.msg, "not found") != NULL);
  hfg_hbase_table_free(&t);
}

/* HBase 2.5.13, after Admin split the region at k10000 at k11000 and merged the regions
 * at k18000 and k20000: the split parent stays in meta (split = offline = true) and is
 * left out, as RegionLocator leaves it out; the merged parents are gone. */
TEST(captured_meta_scan_after_split_and_merge) {
  hfg_hbase_table t;
  memset(&t, 0, sizeof t);
  hfg_err e = {0};
  CHECK_EQ_INT(scan_capture(DATA "after-split-2.5/000-Scan.frame", "live", &t, &e), 0);
  CHECK_EQ_INT(t.skipped_split_parents, 1);
  REQUIRE(t.nregions == 16);
  const char *want[] = {"k02000", "k04000", "k06000", "k08000", "k10000", "k11000", "k12000",
                        "k14000", "k16000", "k18000", "k22000", "k24000", "k26000", "k28000",
                        "k30000"};
  for (size_t i = 1; i < 16; i++)
    CHECK(t.regions[i].start_len == 6 && !memcmp(t.regions[i].start, want[i - 1], 6));
  CHECK(t.regions[10].end_len == 6 && !memcmp(t.regions[10].end, "k22000", 6));
  size_t n;
  uint8_t *p = slurp(DATA "after-split-2.5/zk-meta-region-server.bin", &n);
  hb_server s;
  CHECK(p && hb_decode_server_znode(p, n, 0, &s, &e) == 0 && !strcmp(s.host, "localhost"));
  free(p);
  hfg_hbase_table_free(&t);
}

TEST(captured_disabled_table) {
  hfg_hbase_table t;
  memset(&t, 0, sizeof t);
  hfg_err e = {0};
  CHECK_EQ_INT(scan_capture(DATA "disabled/000-Scan.frame", "live_disabled", &t, &e), HFG_ESTATE);
  CHECK(strstr(e.msg, "DISABLED") != NULL);
  hfg_hbase_table_free(&t);
}

TEST(captured_table_descriptor) {
  size_t n;
  uint8_t *p = frame(DATA "live/000-GetTableDescriptors.frame", &n);
  REQUIRE(p);
  hb_response r;
  hfg_err e = {0};
  REQUIRE(hb_decode_response(p, n, &r, &e) == 0 && !r.has_exception);
  hfg_hbase_table t;
  memset(&t, 0, sizeof t);
  CHECK_EQ_INT(hb_schema_decode(r.body, r.body_len, "live", &t, &e), 0);
  REQUIRE(t.nfamilies == 3);
  static const struct {
    const char *name, *codec, *bloom, *enc;
    uint32_t bs;
  } want[] = {{"a", "GZ", "ROW", "NONE", 8192},
              {"b", "SNAPPY", "ROWCOL", "FAST_DIFF", 65536},
              {"c", "LZ4", "NONE", "NONE", 4096}};
  for (size_t i = 0; i < 3; i++) {
    const hfg_hbase_family *f = &t.families[i];
    CHECK(!strcmp(f->name, want[i].name));
    CHECK(!strcmp(f->compression, want[i].codec));
    CHECK(!strcmp(f->bloom, want[i].bloom));
    CHECK(!strcmp(f->encoding, want[i].enc));
    CHECK_EQ_INT(f->block_size, want[i].bs);
  }
  CHECK_EQ_INT(t.max_file_size, 0);
  hfg_hbase_table_free(&t);
  memset(&t, 0, sizeof t);
  hfg_err_clear(&e);
  CHECK_EQ_INT(hb_schema_decode(r.body, r.body_len, "other:live", &t, &e), HFG_EINVAL);
  hfg_hbase_table_free(&t);
  free(p);
}

/* DATA_BLOCK_ENCODING -> the encoding build --table writes: the captured descriptor
 * (family b is FAST_DIFF, a and c leave it unset), then a descriptor with every
 * name HBase has had; PREFIX_TREE (1.x) and an unknown name are refused. */
TEST(descriptor_encoding_mapping) {
  size_t n;
  uint8_t *p = frame(DATA "live/000-GetTableDescriptors.frame", &n);
  REQUIRE(p);
  hb_response r;
  hfg_err e = {0};
  REQUIRE(hb_decode_response(p, n, &r, &e) == 0 && !r.has_exception);
  hfg_hbase_table t;
  memset(&t, 0, sizeof t);
  REQUIRE(hb_schema_decode(r.body, r.body_len, "live", &t, &e) == 0 && t.nfamilies == 3);
  hfg_encoding enc = HFG_ENCODING_COUNT_;
  CHECK_EQ_INT(hfg_hbase_family_encoding(&t.families[0], &enc), 0);
  CHECK_EQ_INT(enc, HFG_ENCODING_NONE);
  CHECK_EQ_INT(hfg_hbase_family_encoding(&t.families[1], &enc), 0);
  CHECK_EQ_INT(enc, HFG_ENCODING_FAST_DIFF);
  hfg_hbase_table_free(&t);
  free(p);

  static const struct {
    const char *attr; /* NULL: no DATA_BLOCK_ENCODING attribute */
    int rc;
    hfg_encoding want;
  } cases[] = {{NULL, 0, HFG_ENCODING_NONE},
               {"NONE", 0, HFG_ENCODING_NONE},
               {"PREFIX", 0, HFG_ENCODING_PREFIX},
               {"DIFF", 0, HFG_ENCODING_DIFF},
               {"FAST_DIFF", 0, HFG_ENCODING_FAST_DIFF},
               {"ROW_INDEX_V1", 0, HFG_ENCODING_ROW_INDEX_V1},
               {"fast_diff", 0, HFG_ENCODING_FAST_DIFF},
               {"PREFIX_TREE", HFG_EUNSUPPORTED, HFG_ENCODING_COUNT_},
               {"ROW_INDEX_V2", HFG_EUNSUPPORTED, HFG_ENCODING_COUNT_},
               {"", HFG_EUNSUPPORTED, HFG_ENCODING_COUNT_}};
  enum { NC = sizeof cases / sizeof *cases };
  Hfg__Hbrpc__ColumnFamilySchema cfs[NC], *cfp[NC];
  Hfg__Hbrpc__BytesBytesPair attrs[NC], *attrp[NC];
  char names[NC][8];
  for (size_t i = 0; i < NC; i++) {
    hfg__hbrpc__column_family_schema__init(&cfs[i]);
    hfg__hbrpc__bytes_bytes_pair__init(&attrs[i]);
    snprintf(names[i], sizeof names[i], "f%zu", i);
    cfs[i].name.data = (uint8_t *)names[i];
    cfs[i].name.len = strlen(names[i]);
    attrs[i].first.data = (uint8_t *)"DATA_BLOCK_ENCODING";
    attrs[i].first.len = strlen("DATA_BLOCK_ENCODING");
    attrs[i].second.data = (uint8_t *)(cases[i].attr ? cases[i].attr : "");
    attrs[i].second.len = cases[i].attr ? strlen(cases[i].attr) : 0;
    attrp[i] = &attrs[i];
    cfs[i].n_attributes = cases[i].attr ? 1 : 0;
    cfs[i].attributes = &attrp[i];
    cfp[i] = &cfs[i];
  }
  Hfg__Hbrpc__TableName tn = HFG__HBRPC__TABLE_NAME__INIT;
  tn.namespace_.data = (uint8_t *)"default";
  tn.namespace_.len = 7;
  tn.qualifier.data = (uint8_t *)"enc";
  tn.qualifier.len = 3;
  Hfg__Hbrpc__TableSchema ts = HFG__HBRPC__TABLE_SCHEMA__INIT, *tsp = &ts;
  ts.table_name = &tn;
  ts.n_column_families = NC;
  ts.column_families = cfp;
  Hfg__Hbrpc__GetTableDescriptorsResponse resp = HFG__HBRPC__GET_TABLE_DESCRIPTORS_RESPONSE__INIT;
  resp.n_table_schema = 1;
  resp.table_schema = &tsp;
  size_t len = hfg__hbrpc__get_table_descriptors_response__get_packed_size(&resp);
  uint8_t *body = malloc(len);
  hfg__hbrpc__get_table_descriptors_response__pack(&resp, body);
  memset(&t, 0, sizeof t);
  REQUIRE(hb_schema_decode(body, len, "enc", &t, &e) == 0 && t.nfamilies == NC);
  for (size_t i = 0; i < NC; i++) {
    enc = HFG_ENCODING_COUNT_;
    int rc = hfg_hbase_family_encoding(&t.families[i], &enc);
    CHECK_EQ_INT(rc, cases[i].rc);
    if (!cases[i].rc) CHECK_EQ_INT(enc, cases[i].want);
    if (cases[i].rc) CHECK_EQ_INT(enc, HFG_ENCODING_COUNT_); /* left as it was */
  }
  hfg_hbase_table_free(&t);
  free(body);
}

/* Every cut of a captured frame is refused or decodes to fewer rows; none crashes. */
TEST(captured_frames_truncated) {
  const char *files[] = {DATA "live/000-Scan.frame", DATA "live/000-GetTableDescriptors.frame"};
  for (size_t f = 0; f < 2; f++) {
    size_t n;
    uint8_t *p = frame(files[f], &n);
    REQUIRE(p);
    size_t refused = 0;
    for (size_t k = 0; k < n; k++) {
      uint8_t *cut = malloc(k ? k : 1);
      memcpy(cut, p, k);
      hb_response r;
      hfg_err e = {0};
      if (hb_decode_response(cut, k, &r, &e)) refused++;
      free(cut);
    }
    CHECK_EQ_INT(refused, n); /* the body length prefix makes every cut detectable */
    free(p);
  }
}

TEST(table_names) {
  char row[64], ns[64], q[64];
  CHECK(hb_table_name("t", row, 64, ns, 64, q, 64) == 0 && !strcmp(row, "t") &&
        !strcmp(ns, "default") && !strcmp(q, "t"));
  CHECK(hb_table_name("default:t", row, 64, ns, 64, q, 64) == 0 && !strcmp(row, "t"));
  CHECK(hb_table_name("ns1:t.x-y_z", row, 64, ns, 64, q, 64) == 0 && !strcmp(row, "ns1:t.x-y_z") &&
        !strcmp(ns, "ns1"));
  const char *bad[] = {"", ":t", "ns:", "a:b:c", "t,1", "-t", ".t", "t y", "n-s:t"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    CHECK(hb_table_name(bad[i], row, 64, ns, 64, q, 64) != 0);
}

static const char *write_tmp(const char *text) {
  static char path[64];
  snprintf(path, sizeof path, "/tmp/hfg_site_XXXXXX");
  int fd = mkstemp(path);
  if (fd < 0) return NULL;
  if (write(fd, text, strlen(text)) < 0) path[0] = '\0';
  close(fd);
  return path;
}

TEST(hbase_site) {
  hfg_hbase_site s;
  char err[512];
  const char *p = write_tmp(
      "<?xml version=\"1.0\"?>\n<configuration>\n"
      "  <property><name>hbase.zookeeper.quorum</name><value> zk1,zk2:2182 </value></property>\n"
      "  <property>\n    <name>hbase.zookeeper.property.clientPort</name>\n"
      "    <value>2281</value>\n    <description>x &amp; y</description>\n  </property>\n"
      "  <property><name>zookeeper.znode.parent</name><value>/hbase-unsecure</value>"
      "<final>true</final></property>\n"
      "  <property><name>hbase.io.compress.zstd.codec</name>"
      "<value>org.apache.hadoop.hbase.io.compress.zstd.ZstdCodec</value></property>\n"
      "</configuration>\n");
  REQUIRE(p);
  CHECK_EQ_INT(hfg_hbase_site_load(p, &s, err, sizeof err), 0);
  CHECK(!strcmp(s.quorum, "zk1,zk2:2182"));
  CHECK_EQ_INT(s.client_port, 2281);
  CHECK(!strcmp(s.znode_parent, "/hbase-unsecure"));
  CHECK(strstr(s.zstd_codec, "ZstdCodec") != NULL);
  CHECK(hfg_hbase_site_unsupported(&s) == NULL);
  unlink(p);
  p = write_tmp("<configuration><property><name>hbase.security.authentication</name>"
                "<value>kerberos</value></property></configuration>");
  CHECK_EQ_INT(hfg_hbase_site_load(p, &s, err, sizeof err), 0);
  CHECK(hfg_hbase_site_unsupported(&s) && strstr(hfg_hbase_site_unsupported(&s), "Kerberos"));
  unlink(p);
  p = write_tmp("<configuration><property><name>hbase.rpc.tls.enabled</name>"
                "<value>true</value></property></configuration>");
  CHECK_EQ_INT(hfg_hbase_site_load(p, &s, err, sizeof err), 0);
  CHECK(hfg_hbase_site_unsupported(&s) && strstr(hfg_hbase_site_unsupported(&s), "TLS"));
  unlink(p);
  p = write_tmp("<configuration>\n<property><name>hbase.zookeeper.quorum</name>"
                "<value>a</value>\n</configuration>");
  CHECK(hfg_hbase_site_load(p, &s, err, sizeof err) != 0 && strstr(err, "line 3"));
  unlink(p);
  p = write_tmp("<configuration><property><name>hbase.zookeeper.quorum</name>"
                "<value>${zk.hosts}</value></property></configuration>");
  CHECK(hfg_hbase_site_load(p, &s, err, sizeof err) != 0 && strstr(err, "${"));
  unlink(p);
  p = write_tmp("<configuration><property><name>hbase.zookeeper.property.clientPort</name>"
                "<value>99999</value></property></configuration>");
  CHECK(hfg_hbase_site_load(p, &s, err, sizeof err) != 0 && strstr(err, "clientPort"));
  unlink(p);
  CHECK(hfg_hbase_site_load("/nonexistent/hbase-site.xml", &s, err, sizeof err) != 0 &&
        strstr(err, "/nonexistent/hbase-site.xml"));
}

/* ---- a local server that answers in one canned way ---- */

typedef struct fake {
  int lfd;
  unsigned port;
  const uint8_t *reply;
  size_t reply_len;
  int silent_ms;       /* stay silent this long, then close */
} fake;

static void *fake_run(void *arg) {
  fake *f = arg;
  int c = accept(f->lfd, NULL, NULL);
  if (c < 0) return NULL;
  uint8_t buf[4096];
  /* the preamble + header, then one request; read what arrives within 200 ms */
  struct timeval tv = {0, 200000};
  setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  while (recv(c, buf, sizeof buf, 0) > 0) {
  }
  if (f->reply_len && send(c, f->reply, f->reply_len, MSG_NOSIGNAL) < 0) f->reply_len = 0;
  if (f->silent_ms) {
    struct timespec t = {f->silent_ms / 1000, (f->silent_ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
  }
  close(c);
  return NULL;
}

static int fake_start(fake *f, pthread_t *th) {
  f->lfd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t al = sizeof a;
  if (bind(f->lfd, (struct sockaddr *)&a, sizeof a) || listen(f->lfd, 1) ||
      getsockname(f->lfd, (struct sockaddr *)&a, &al))
    return -1;
  f->port = ntohs(a.sin_port);
  return pthread_create(th, NULL, fake_run, f);
}

static double call_secs; /* how long the last call_fake's hb_conn_call took */

static double mono(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int call_fake(fake *f, int timeout_ms, hb_response *r, hfg_err *e) {
  pthread_t th;
  if (fake_start(f, &th)) return -100;
  hb_conn *c = NULL;
  Hfg__Hbrpc__ScanRequest req = HFG__HBRPC__SCAN_REQUEST__INIT;
  int rc = hb_conn_open("127.0.0.1", f->port, "ClientService", "t", timeout_ms, NULL, &c, e);
  double t0 = mono();
  if (!rc) rc = hb_conn_call(c, "Scan", &req.base, r, e);
  call_secs = mono() - t0;
  hb_conn_close(c);
  pthread_join(th, NULL);
  close(f->lfd);
  return rc;
}

TEST(conn_refuses_tls) {
  static const uint8_t alert[] = {0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28};
  fake f = {0, 0, alert, sizeof alert, 0};
  hb_response r;
  hfg_err e = {0};
  CHECK_EQ_INT(call_fake(&f, 2000, &r, &e), HFG_EUNSUPPORTED);
  CHECK(strstr(e.msg, "TLS") != NULL);
}

TEST(conn_refuses_sasl) {
  /* what ServerRpcConnection sends a SIMPLE client of a secure server: a response to
   * call -1 (here 0) carrying the fatal exception, then it closes */
  Hfg__Hbrpc__ExceptionResponse ex = HFG__HBRPC__EXCEPTION_RESPONSE__INIT;
  ex.exception_class_name = "org.apache.hadoop.hbase.security.AccessDeniedException";
  ex.stack_trace = "org.apache.hadoop.hbase.security.AccessDeniedException: Authentication is "
                   "required\n\tat ...";
  Hfg__Hbrpc__ResponseHeader h = HFG__HBRPC__RESPONSE_HEADER__INIT;
  h.has_call_id = 1;
  h.call_id = 0;
  h.exception = &ex;
  uint8_t out[1024];
  size_t hl = protobuf_c_message_get_packed_size(&h.base);
  size_t vl = hfg_put_varint(out + 4, hl);
  protobuf_c_message_pack(&h.base, out + 4 + vl);
  hfg_put_be32(out, (uint32_t)(vl + hl));
  fake f = {0, 0, out, 4 + vl + hl, 0};
  hb_response r;
  hfg_err e = {0};
  CHECK_EQ_INT(call_fake(&f, 2000, &r, &e), HFG_EUNSUPPORTED);
  CHECK(strstr(e.msg, "SASL") != NULL && strstr(e.msg, "Authentication is required"));
}

TEST(conn_times_out_on_silence) {
  fake f = {0, 0, NULL, 0, 1500};
  hb_response r;
  hfg_err e = {0};
  CHECK_EQ_INT(call_fake(&f, 300, &r, &e), HFG_EIO);
  CHECK(strstr(e.msg, "no answer within 300 ms") != NULL);
  CHECK(call_secs < 1.2); /* the deadline, not the server's 1.5 s + 0.2 s, ended the call */
}

TEST(conn_reads_a_captured_answer) {
  size_t n;
  uint8_t *p = slurp(DATA "live/000-Scan.frame", &n);
  REQUIRE(p);
  fake f = {0, 0, p, n, 0};
  hb_response r;
  hfg_err e = {0};
  CHECK_EQ_INT(call_fake(&f, 2000, &r, &e), 0);
  CHECK(!r.has_exception && r.call_id == 1 && r.body_len > 1000);
  free(p);
}

TEST(conn_refused_port) {
  fake f = {0, 0, NULL, 0, 0};
  pthread_t th;
  REQUIRE(fake_start(&f, &th) == 0);
  /* connect once so the thread ends, then the port is closed */
  hb_conn *c = NULL;
  hfg_err e = {0};
  hb_conn_open("127.0.0.1", f.port, "ClientService", "t", 1000, NULL, &c, &e);
  hb_conn_close(c);
  pthread_join(th, NULL);
  close(f.lfd);
  hfg_err_clear(&e);
  CHECK_EQ_INT(hb_conn_open("127.0.0.1", f.port, "ClientService", "t", 1000, NULL, &c, &e),
               HFG_EIO);
  CHECK(strstr(e.msg, "connect") != NULL);
}

T_MAIN
