/*
 * The bytes of HBase's RPC protocol and of its ZooKeeper payloads, with no I/O
 * (format-specs/hbase-rpc.md): the connection preamble and header, request
 * frames, response frames, and the "PBUF"-prefixed values HBase stores in
 * ZooKeeper and hbase:meta. Every decoder is bounded by its input and fails on
 * truncation; the unit test (tests/unit/test_hbase_wire.c) runs them on bytes
 * captured from a real HBase.
 */
#ifndef HFG_CLIENT_HB_WIRE_H
#define HFG_CLIENT_HB_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "util/err.h"

struct ProtobufCMessage;
struct ProtobufCAllocator;

/* "HBas", RPC version 0, auth method SIMPLE (80). */
#define HB_PREAMBLE_LEN 6
extern const uint8_t hb_preamble[HB_PREAMBLE_LEN];

/* Frames larger than this are refused (a TLS record or garbage read as a length). */
#define HB_MAX_FRAME (256u << 20)

/* Allocator for protobuf-c that goes through util/alloc.h. */
struct ProtobufCAllocator *hb_pb_allocator(void);

/* Preamble, then BE32 length + ConnectionHeader{user_info{effective_user}, service_name}.
 * No cell block codec is announced, so servers answer with protobuf results only. */
int hb_encode_connection_header(hfg_buf *out, const char *user, const char *service);

/* One request frame: BE32 total length, varint-delimited RequestHeader{call_id,
 * method_name, request_param=true, timeout}, varint-delimited param. */
int hb_encode_request(hfg_buf *out, uint32_t call_id, const char *method, uint32_t timeout_ms,
                      const struct ProtobufCMessage *param);

/* A decoded response frame: body points into the frame (the varint-delimited response
 * message, without its length prefix); exception fields are copies. */
typedef struct hb_response {
  uint32_t call_id;
  int has_exception;
  char exception_class[256];
  char exception_msg[512];  /* first line of the stack trace (the exception message) */
  int do_not_retry;
  const uint8_t *body;
  size_t body_len;
} hb_response;

/* Decodes frame[0..len) (the bytes after the BE32 frame length). */
int hb_decode_response(const uint8_t *frame, size_t len, hb_response *out, hfg_err *err);

/* Strips HBase's ZooKeeper metadata (0xFF, BE32 id length, id) and the "PBUF" magic
 * from a znode's data; *pb, *pb_len is the protobuf message. */
int hb_znode_payload(const uint8_t *data, size_t len, const uint8_t **pb, size_t *pb_len,
                     hfg_err *err);

/* Strips the "PBUF" magic from a value stored in hbase:meta (info:regioninfo,
 * table:state). */
int hb_pbuf_value(const uint8_t *data, size_t len, const uint8_t **pb, size_t *pb_len,
                  hfg_err *err);

#endif
