/*
 * One RPC connection to an HBase server (region server or master) for one
 * service, with a deadline on every step. Calls are synchronous: one
 * outstanding request, whose response must carry the same call id.
 *
 *   hb_conn_open  (hb_conn_call)*  hb_conn_close
 *
 * Errors: HFG_EIO for network failures and timeouts (message names host:port
 * and what did not happen in time), HFG_EUNSUPPORTED when the server asks for
 * what this client does not speak (SASL, TLS), HFG_ECORRUPT for malformed
 * frames. A remote exception is not an error of hb_conn_call: it returns 0 with
 * resp->has_exception set, and the caller decides.
 */
#ifndef HFG_CLIENT_HB_CONN_H
#define HFG_CLIENT_HB_CONN_H

#include <stdint.h>

#include "client/hb_wire.h"
#include "util/buf.h"
#include "util/err.h"

typedef struct hb_conn hb_conn;

/* Connects to host:port within timeout_ms and sends the preamble and the
 * ConnectionHeader for `service` ("ClientService", "MasterService"). With
 * dump_dir set, every response frame is also written there (tests). */
int hb_conn_open(const char *host, unsigned port, const char *service, const char *user,
                 int timeout_ms, const char *dump_dir, hb_conn **out, hfg_err *err);

/* Sends `param` as a call of `method` and reads its response frame into the
 * connection's buffer: resp->body is valid until the next call or close. */
int hb_conn_call(hb_conn *c, const char *method, const struct ProtobufCMessage *param,
                 hb_response *resp, hfg_err *err);

void hb_conn_close(hb_conn *c);

#endif
