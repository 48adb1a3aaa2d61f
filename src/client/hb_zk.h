/*
 * ZooKeeper lookups of HBase's znodes (format-specs/hbase-rpc.md, "ZooKeeper"):
 * <parent>/meta-region-server (MetaRegionServer) and <parent>/master (Master),
 * each "PBUF"-prefixed protobuf behind HBase's ZooKeeper metadata. Uses the
 * ZooKeeper C client (libzookeeper_mt) with its logging silenced.
 */
#ifndef HFG_CLIENT_HB_ZK_H
#define HFG_CLIENT_HB_ZK_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

typedef struct hb_zk hb_zk;

typedef struct hb_server {
  char host[256];
  unsigned port;
} hb_server;

/* Connects to the quorum within timeout_ms (hosts without a port get client_port). */
int hb_zk_open(const char *quorum, unsigned client_port, const char *parent, int timeout_ms,
               const char *dump_dir, hb_zk **out, hfg_err *err);

/* Where hbase:meta is served. */
int hb_zk_meta_server(hb_zk *z, hb_server *out, hfg_err *err);

/* The active master. */
int hb_zk_master(hb_zk *z, hb_server *out, hfg_err *err);

void hb_zk_close(hb_zk *z);

/* Decodes a meta-region-server (master = 0) or master (master = 1) znode's data. */
int hb_decode_server_znode(const uint8_t *data, size_t len, int master, hb_server *out,
                           hfg_err *err);

#endif
