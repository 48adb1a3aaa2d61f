/*
 * HBase RPC framing and payload prefixes (format-specs/hbase-rpc.md, "Framing").
 * Encoders build whole frames in a buffer; decoders never read past their input.
 */
#include "client/hb_wire.h"

#include <stdio.h>
#include <string.h>

#include "hbase-rpc.pb-c.h"
#include "util/alloc.h"
#include "util/coding.h"

/* HConstants.RPC_HEADER "HBas", RPC_CURRENT_VERSION 0, AuthMethod.SIMPLE code 80. */
const uint8_t hb_preamble[HB_PREAMBLE_LEN] = {'H', 'B', 'a', 's', 0, 80};

static void *pb_alloc(void *data, size_t n) {
  (void)data;
  return hfg_malloc(n ? n : 1);
}
static void pb_free(void *data, void *p) {
  (void)data;
  hfg_free(p);
}
static ProtobufCAllocator PB_ALLOC = {pb_alloc, pb_free, NULL};

struct ProtobufCAllocator *hb_pb_allocator(void) { return &PB_ALLOC; }

static int append_packed(hfg_buf *out, const ProtobufCMessage *m) {
  size_t n = protobuf_c_message_get_packed_size(m);
  if (hfg_buf_reserve(out, n)) return HFG_ENOMEM;
  protobuf_c_message_pack(m, out->p + out->len);
  out->len += n;
  return 0;
}

static int append_delimited(hfg_buf *out, const ProtobufCMessage *m) {
  size_t n = protobuf_c_message_get_packed_size(m);
  if (hfg_buf_put_varint(out, n)) return HFG_ENOMEM;
  return append_packed(out, m);
}

int hb_encode_connection_header(hfg_buf *out, const char *user, const char *service) {
  Hfg__Hbrpc__UserInformation ui = HFG__HBRPC__USER_INFORMATION__INIT;
  Hfg__Hbrpc__ConnectionHeader h = HFG__HBRPC__CONNECTION_HEADER__INIT;
  ui.effective_user = (char *)user;
  h.user_info = &ui;
  h.service_name = (char *)service;
  size_t start = out->len;
  if (hfg_buf_append(out, hb_preamble, HB_PREAMBLE_LEN) || hfg_buf_put_be32(out, 0) ||
      append_packed(out, &h.base)) {
    out->len = start;
    return HFG_ENOMEM;
  }
  size_t body = out->len - start - HB_PREAMBLE_LEN - 4;
  hfg_put_be32(out->p + start + HB_PREAMBLE_LEN, (uint32_t)body);
  return 0;
}

int hb_encode_request(hfg_buf *out, uint32_t call_id, const char *method, uint32_t timeout_ms,
                      const ProtobufCMessage *param) {
  Hfg__Hbrpc__RequestHeader h = HFG__HBRPC__REQUEST_HEADER__INIT;
  h.has_call_id = 1;
  h.call_id = call_id;
  h.method_name = (char *)method;
  h.has_request_param = 1;
  h.request_param = 1;
  if (timeout_ms) {
    h.has_timeout = 1;
    h.timeout = timeout_ms;
  }
  size_t start = out->len;
  if (hfg_buf_put_be32(out, 0) || append_delimited(out, &h.base) ||
      append_delimited(out, param)) {
    out->len = start;
    return HFG_ENOMEM;
  }
  hfg_put_be32(out->p + start, (uint32_t)(out->len - start - 4));
  return 0;
}

/* The server puts the exception's toString() and stack into stack_trace; its first
 * line is "<class>: <message>". */
static void first_line(char *dst, size_t cap, const char *s) {
  size_t n = 0;
  while (s[n] && s[n] != '\n' && s[n] != '\r') n++;
  if (n >= cap) n = cap - 1;
  memcpy(dst, s, n);
  dst[n] = '\0';
}

int hb_decode_response(const uint8_t *frame, size_t len, hb_response *out, hfg_err *err) {
  memset(out, 0, sizeof *out);
  const uint8_t *p = frame, *end = frame + len;
  uint64_t hlen;
  size_t k = hfg_get_varint(p, end, &hlen);
  if (!k || hlen > (uint64_t)(end - p - (ptrdiff_t)k))
    return hfg_err_set(err, HFG_ECORRUPT, "response frame of %zu bytes: truncated header", len);
  p += k;
  Hfg__Hbrpc__ResponseHeader *h =
      hfg__hbrpc__response_header__unpack(&PB_ALLOC, (size_t)hlen, p);
  if (!h) return hfg_err_set(err, HFG_ECORRUPT, "response frame: malformed ResponseHeader");
  p += hlen;
  out->call_id = h->has_call_id ? h->call_id : 0;
  if (h->exception) {
    out->has_exception = 1;
    snprintf(out->exception_class, sizeof out->exception_class, "%s",
             h->exception->exception_class_name ? h->exception->exception_class_name
                                                : "(unnamed exception)");
    if (h->exception->stack_trace) first_line(out->exception_msg, sizeof out->exception_msg,
                                              h->exception->stack_trace);
    out->do_not_retry = h->exception->has_do_not_retry && h->exception->do_not_retry;
  }
  int cell_block = h->cell_block_meta && h->cell_block_meta->has_length &&
                   h->cell_block_meta->length;
  hfg__hbrpc__response_header__free_unpacked(h, &PB_ALLOC);
  if (cell_block)
    return hfg_err_set(err, HFG_EUNSUPPORTED,
                       "response carries a cell block, which this client never asks for");
  if (out->has_exception) return 0;
  uint64_t blen;
  k = hfg_get_varint(p, end, &blen);
  if (!k || blen > (uint64_t)(end - p - (ptrdiff_t)k))
    return hfg_err_set(err, HFG_ECORRUPT, "response frame of %zu bytes: truncated message", len);
  out->body = p + k;
  out->body_len = (size_t)blen;
  return 0;
}

static const uint8_t PBUF[4] = {'P', 'B', 'U', 'F'};

int hb_pbuf_value(const uint8_t *data, size_t len, const uint8_t **pb, size_t *pb_len,
                  hfg_err *err) {
  if (len < 4 || memcmp(data, PBUF, 4))
    return hfg_err_set(err, HFG_ECORRUPT, "value of %zu bytes does not start with \"PBUF\"", len);
  *pb = data + 4;
  *pb_len = len - 4;
  return 0;
}

int hb_znode_payload(const uint8_t *data, size_t len, const uint8_t **pb, size_t *pb_len,
                     hfg_err *err) {
  /* ZKMetadata.appendMetaData: 0xFF, BE32 id length, id (process id + salt), data */
  if (len >= 5 && data[0] == 0xFF) {
    uint32_t idlen = hfg_get_be32(data + 1);
    if (idlen > len - 5)
      return hfg_err_set(err, HFG_ECORRUPT, "znode data of %zu bytes: id length %u too long", len,
                         idlen);
    data += 5 + idlen;
    len -= 5 + (size_t)idlen;
  }
  return hb_pbuf_value(data, len, pb, pb_len, err);
}
