package hfilegen.bench;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.TableBuilder;
import org.apache.hadoop.hbase.security.User;

/**
 * The one thing hbase-spark's bulk load asks a cluster: the table's region start keys
 * (RegionLocator.getStartKeys, for its BulkLoadPartitioner). Named by
 * hbase.client.connection.impl, so ConnectionFactory makes it instead of a real client
 * connection; the start keys come from the configuration key hfilegen.bench.splits (the
 * split points, comma separated). getRegionLocation fails, so hbase-spark writes without
 * favored nodes, as it does when a region server cannot be resolved. Everything else of the
 * bulk load (partitioner, repartitionAndSortWithinPartitions, the HFile writers) is
 * hbase-spark's and HBase's own code.
 */
public final class PeerConnection implements Connection {
  private final Configuration conf;
  private boolean closed;

  public PeerConnection(Configuration conf, ExecutorService pool, User user) {
    this.conf = conf;
  }

  public PeerConnection(Configuration conf, ExecutorService pool, User user,
                        Map<String, byte[]> attributes) {
    this.conf = conf;
  }

  static byte[][] startKeys(Configuration conf) {
    String s = conf.get("hfilegen.bench.splits", "");
    String[] sp = s.isEmpty() ? new String[0] : s.split(",");
    byte[][] keys = new byte[sp.length + 1][];
    keys[0] = new byte[0];
    for (int i = 0; i < sp.length; i++) keys[i + 1] = sp[i].getBytes(StandardCharsets.UTF_8);
    return keys;
  }

  @Override public Configuration getConfiguration() { return conf; }

  @Override public RegionLocator getRegionLocator(TableName table) {
    byte[][] keys = startKeys(conf);
    return (RegionLocator) Proxy.newProxyInstance(
        RegionLocator.class.getClassLoader(), new Class<?>[] {RegionLocator.class},
        (proxy, method, margs) -> {
          switch (method.getName()) {
            case "getStartKeys": return keys;
            case "getName": return table;
            case "close": return null;
            case "toString": return "RegionLocator(" + table + ", " + keys.length + " regions)";
            default:
              throw new UnsupportedOperationException("RegionLocator." + method.getName()
                  + ": no cluster in the benchmark");
          }
        });
  }

  @Override public BufferedMutator getBufferedMutator(TableName t) {
    throw new UnsupportedOperationException("no cluster");
  }
  @Override public BufferedMutator getBufferedMutator(BufferedMutatorParams p) {
    throw new UnsupportedOperationException("no cluster");
  }
  @Override public void clearRegionLocationCache() {}
  @Override public Admin getAdmin() throws IOException {
    throw new UnsupportedOperationException("no cluster");
  }
  @Override public void close() { closed = true; }
  @Override public boolean isClosed() { return closed; }
  @Override public TableBuilder getTableBuilder(TableName t, ExecutorService pool) {
    throw new UnsupportedOperationException("no cluster");
  }
  @Override public void abort(String why, Throwable e) { closed = true; }
  @Override public boolean isAborted() { return false; }
}
