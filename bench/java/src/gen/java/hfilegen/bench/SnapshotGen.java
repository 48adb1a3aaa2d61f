package hfilegen.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The old table of bench/rekey.sh and its snapshot, made by a real HBase: a mini cluster on the
 * local file system (no DFS, as tests/interop's RekeyCheck runs it), so its root directory is a
 * plain directory both contenders read after the cluster has stopped.
 *
 * <pre>
 * SnapshotGen --base DIR --hfiles DIR --splits FILE --snapshot NAME [--compact true|false]
 * </pre>
 *
 * Creates table {@code old} (one family {@code cf}: LZ4, ROW bloom, 64 KB blocks; pre-split at
 * the lines of --splits; no automatic splits), bulk-loads --hfiles (what {@code hfilegen build
 * --rowkey '{id}'} wrote: auto-increment ids as decimal text keys), then by default
 * major-compacts it and waits until every store file has been rewritten, so the snapshot holds
 * files written by HBase's own writer (the region server's compaction), not by hfilegen.
 * Snapshots the table as NAME and stops the cluster without removing its directories. Compiled
 * by bench/rekey.sh against the interop harness's classpath (it needs the mini cluster, which
 * bench/java's pom does not bring).
 *
 * <p>Prints {@code key=value} lines on stdout: root (the HBase root directory), regions,
 * store_files, store_bytes, and the seconds of each phase.
 */
public final class SnapshotGen {
  private static final TableName OLD = TableName.valueOf("old");
  private static final byte[] CF = Bytes.toBytes("cf");

  private SnapshotGen() {}

  public static void main(String[] args) throws Exception {
    String base = null, hfiles = null, splits = null, snapshot = null;
    boolean compact = true;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--base": base = args[i + 1]; break;
        case "--hfiles": hfiles = args[i + 1]; break;
        case "--splits": splits = args[i + 1]; break;
        case "--snapshot": snapshot = args[i + 1]; break;
        case "--compact": compact = Boolean.parseBoolean(args[i + 1]); break;
        default: throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (base == null || hfiles == null || splits == null || snapshot == null) {
      System.err.println("usage: SnapshotGen --base DIR --hfiles DIR --splits FILE "
          + "--snapshot NAME [--compact true|false]");
      System.exit(2);
    }
    try {
      run(base, hfiles, splits, snapshot, compact);
    } catch (Throwable t) {
      t.printStackTrace();
      System.out.println("error=" + t);
      System.out.flush();
      Runtime.getRuntime().halt(1);
    }
    System.out.flush();
    // the cluster's non-daemon threads can outlive shutdown; the work is on disk by now
    Runtime.getRuntime().halt(0);
  }

  private static void run(String base, String hfiles, String splitsFile, String snapshot,
      boolean compact) throws Exception {
    Files.createDirectories(Paths.get(base));
    System.setProperty("test.build.data.basedirectory", Paths.get(base).toAbsolutePath().toString());
    Configuration conf = HBaseConfiguration.create();
    conf.set("hadoop.tmp.dir", Paths.get(base, "hadoop-tmp").toAbsolutePath().toString());
    conf.setInt("hbase.master.info.port", -1);
    conf.setInt("hbase.regionserver.info.port", -1);
    conf.setInt("hbase.catalogjanitor.interval", 3600000);
    // both cores for the major compactions (one region each)
    conf.setInt("hbase.regionserver.thread.compaction.large", 2);
    conf.setInt("hbase.regionserver.thread.compaction.small", 2);
    conf.setInt("hbase.hstore.blockingStoreFiles", 1000);
    HBaseTestingUtility util = new HBaseTestingUtility(conf);
    long t0 = System.nanoTime();
    util.startMiniZKCluster();
    util.startMiniHBaseCluster(StartMiniClusterOption.builder().numMasters(1)
        .numRegionServers(1).build());
    Admin admin = util.getAdmin();
    admin.balancerSwitch(false, true);
    admin.catalogJanitorSwitch(false);
    long t1 = System.nanoTime();

    List<byte[]> split = new ArrayList<>();
    for (String line : Files.readAllLines(Paths.get(splitsFile), StandardCharsets.UTF_8)) {
      if (!line.isEmpty()) split.add(Bytes.toBytesBinary(line));
    }
    TableDescriptor desc = TableDescriptorBuilder.newBuilder(OLD)
        .setMaxFileSize(100L << 30)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(CF)
            .setCompressionType(Compression.Algorithm.LZ4)
            .setBloomFilterType(BloomType.ROW)
            .setBlocksize(64 * 1024)
            .build())
        .build();
    admin.createTable(desc, split.toArray(new byte[0][]));
    util.waitTableAvailable(OLD);
    Configuration lc = new Configuration(util.getConfiguration());
    lc.setBoolean("hbase.loadincremental.fail.if.need.split.hfile", true);
    if (BulkLoadHFiles.create(lc).bulkLoad(OLD,
        new org.apache.hadoop.fs.Path(Paths.get(hfiles).toAbsolutePath().toUri())).isEmpty()) {
      throw new IllegalStateException("bulk load of " + hfiles + " loaded nothing");
    }
    admin.flush(OLD);
    long t2 = System.nanoTime();

    if (compact) {
      Set<String> loaded = storeFileNames(util);
      admin.majorCompact(OLD);
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(20);
      while (true) {
        Thread.sleep(500);
        Set<String> now = storeFileNames(util);
        boolean rewritten = now.stream().noneMatch(loaded::contains);
        if (rewritten && admin.getCompactionState(OLD) == CompactionState.NONE) break;
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("major compaction did not finish in 20 minutes");
        }
      }
    }
    long t3 = System.nanoTime();

    admin.snapshot(snapshot, OLD);
    long t4 = System.nanoTime();
    long files = 0, bytes = 0;
    for (HRegion r : util.getHBaseCluster().getRegions(OLD)) {
      for (HStoreFile f : r.getStore(CF).getStorefiles()) {
        files++;
        bytes += f.getReader().length();
      }
    }
    String root = util.getDefaultRootDirPath().toUri().getPath();
    System.out.println("root=" + root);
    System.out.println("regions=" + admin.getRegions(OLD).size());
    System.out.println("store_files=" + files);
    System.out.println("store_bytes=" + bytes);
    System.out.printf("start_seconds=%.3f%n", (t1 - t0) / 1e9);
    System.out.printf("load_seconds=%.3f%n", (t2 - t1) / 1e9);
    System.out.printf("compact_seconds=%.3f%n", (t3 - t2) / 1e9);
    System.out.printf("snapshot_seconds=%.3f%n", (t4 - t3) / 1e9);
    System.out.flush();

    // stop the cluster, keep its directories (shutdownMiniCluster would delete them)
    Thread stop = new Thread(() -> {
      try {
        util.shutdownMiniHBaseCluster();
        util.shutdownMiniZKCluster();
      } catch (Exception e) {
        System.err.println("SnapshotGen: shutdown: " + e);
      }
    });
    stop.setDaemon(true);
    stop.start();
    stop.join(TimeUnit.SECONDS.toMillis(90));
    System.out.println("stopped=" + !stop.isAlive());
  }

  private static Set<String> storeFileNames(HBaseTestingUtility util) {
    Set<String> names = new HashSet<>();
    for (HRegion r : util.getHBaseCluster().getRegions(OLD)) {
      for (HStoreFile f : r.getStore(CF).getStorefiles()) {
        names.add(f.getPath().getName());
      }
    }
    return names;
  }
}
