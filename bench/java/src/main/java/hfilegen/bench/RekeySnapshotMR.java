package hfilegen.bench;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.Tag;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.mapreduce.HFileOutputFormat2;
import org.apache.hadoop.hbase.mapreduce.TableMapReduceUtil;
import org.apache.hadoop.hbase.mapreduce.TableMapper;
import org.apache.hadoop.hbase.shaded.protobuf.generated.SnapshotProtos.SnapshotDescription;
import org.apache.hadoop.hbase.snapshot.SnapshotDescriptionUtils;
import org.apache.hadoop.hbase.snapshot.SnapshotManifest;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.hbase.util.MapReduceExtendedCell;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * The MapReduce way to re-key a table offline from its snapshot, in Hadoop's LocalJobRunner
 * without a cluster: bench/rekey.sh's peer of {@code hfilegen rekey}.
 *
 * <pre>
 * RekeySnapshotMR --root DIR --snapshot NAME --restore DIR --output DIR --splits FILE
 *                 [--parallel N] [--tmp DIR]
 * </pre>
 *
 * <ul>
 *   <li>input: {@code TableMapReduceUtil.initTableSnapshotMapperJob} over the snapshot
 *       (TableSnapshotInputFormat: the snapshot restored as links under --restore, one split per
 *       old region, each read by a client-side region scanner over the store files), a scan of
 *       all versions with block caching off, as HBase's docs advise for snapshot jobs;
 *   <li>map: {@link RekeyMapper} parses the old key (the decimal id), builds the new key
 *       {@code floorMod(id, 10)|id} and emits each cell under it, with its family, qualifier,
 *       timestamp, type, value and tags unchanged ({@code MapReduceExtendedCell}, as HBase's
 *       Import tool emits cells);
 *   <li>reduce and output: {@code HFileOutputFormat2.configureIncrementalLoad} with the new
 *       table's descriptor (the snapshot's families, read from its manifest: same codec, bloom,
 *       block size, encoding) and a RegionLocator answering the start keys of --splits: one
 *       reducer per new region, TotalOrderPartitioner over the split points, CellSortReducer,
 *       HBase's own per-family HFile writer.
 * </ul>
 *
 * Settings as ImportTsvLocal (bench/run.sh): N map and N reduce slots (default 2), completion
 * polled every 100 ms, locality-sensitive writing off. Prints {@code mr_seconds=S} (the job
 * alone, without JVM start-up) and the job's counters of rows and cells.
 */
public final class RekeySnapshotMR {
  private RekeySnapshotMR() {}

  /** Counters of the map phase. */
  public enum Rekey { OLD_ROWS, CELLS, REJECTED_ROWS }

  /** Old row {@code id} (decimal text) to new row {@code floorMod(id, 10)|id}, cells unchanged. */
  public static final class RekeyMapper extends TableMapper<ImmutableBytesWritable, MapReduceExtendedCell> {
    @Override
    protected void map(ImmutableBytesWritable key, Result value, Context context)
        throws IOException, InterruptedException {
      String old = new String(key.get(), key.getOffset(), key.getLength(), StandardCharsets.UTF_8);
      long id;
      try {
        id = Long.parseLong(old);
      } catch (NumberFormatException e) {
        context.getCounter(Rekey.REJECTED_ROWS).increment(1);
        return;
      }
      byte[] row = (Math.floorMod(id, 10L) + "|" + old).getBytes(StandardCharsets.UTF_8);
      ImmutableBytesWritable outKey = new ImmutableBytesWritable(row);
      for (Cell c : value.rawCells()) {
        List<Tag> tags = PrivateCellUtil.getTags(c);
        KeyValue kv = new KeyValue(row, 0, row.length,
            c.getFamilyArray(), c.getFamilyOffset(), c.getFamilyLength(),
            c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierLength(),
            c.getTimestamp(), KeyValue.Type.codeToType(c.getTypeByte()),
            c.getValueArray(), c.getValueOffset(), c.getValueLength(), tags);
        context.write(outKey, new MapReduceExtendedCell(kv));
        context.getCounter(Rekey.CELLS).increment(1);
      }
      context.getCounter(Rekey.OLD_ROWS).increment(1);
    }
  }

  public static void main(String[] args) throws Exception {
    String root = null, snapshot = null, restore = null, output = null, splits = null, tmp = null;
    int parallel = 2;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--root": root = args[i + 1]; break;
        case "--snapshot": snapshot = args[i + 1]; break;
        case "--restore": restore = args[i + 1]; break;
        case "--output": output = args[i + 1]; break;
        case "--splits": splits = args[i + 1]; break;
        case "--tmp": tmp = args[i + 1]; break;
        case "--parallel": parallel = Integer.parseInt(args[i + 1]); break;
        default: throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (root == null || snapshot == null || restore == null || output == null || splits == null) {
      System.err.println("usage: RekeySnapshotMR --root DIR --snapshot NAME --restore DIR "
          + "--output DIR --splits FILE [--parallel N] [--tmp DIR]");
      System.exit(2);
    }

    Configuration conf = HBaseConfiguration.create();
    conf.set("mapreduce.framework.name", "local");
    conf.set("fs.defaultFS", "file:///");
    CommonFSUtils.setRootDir(conf, new Path("file://" + root));
    conf.setInt("mapreduce.local.map.tasks.maximum", parallel);
    conf.setInt("mapreduce.local.reduce.tasks.maximum", parallel);
    conf.setInt("mapreduce.client.completion.pollinterval", 100);
    conf.setBoolean("hbase.bulkload.locality.sensitive.enabled", false);
    if (tmp != null) {
      // HFileOutputFormat2's partitions file (default /user/$USER/hbase-staging)
      conf.set("hbase.fs.tmp.dir", tmp);
    }

    // the new table: the snapshot's own families under another name
    FileSystem fs = FileSystem.get(conf);
    Path rootDir = CommonFSUtils.getRootDir(conf);
    Path snapDir = SnapshotDescriptionUtils.getCompletedSnapshotDir(snapshot, rootDir);
    SnapshotDescription sd = SnapshotDescriptionUtils.readSnapshotInfo(fs, snapDir);
    TableDescriptor oldDesc = SnapshotManifest.open(conf, fs, snapDir, sd).getTableDescriptor();
    TableName table = TableName.valueOf("rekeyed");
    TableDescriptor desc = TableDescriptorBuilder.newBuilder(table)
        .setColumnFamilies(List.of(oldDesc.getColumnFamilies())).build();
    byte[][] startKeys = ImportTsvLocal.startKeys(splits);
    RegionLocator locator = (RegionLocator) Proxy.newProxyInstance(
        RegionLocator.class.getClassLoader(), new Class<?>[] {RegionLocator.class},
        (proxy, method, margs) -> {
          switch (method.getName()) {
            case "getStartKeys": return startKeys;
            case "getName": return table;
            case "close": return null;
            case "toString": return "RegionLocator(" + table + ", " + startKeys.length + " regions)";
            default:
              throw new UnsupportedOperationException("RegionLocator." + method.getName());
          }
        });

    Job job = Job.getInstance(conf, "rekey_snapshot_" + snapshot);
    job.setJarByClass(RekeyMapper.class);
    Scan scan = new Scan().readAllVersions().setCacheBlocks(false);
    TableMapReduceUtil.initTableSnapshotMapperJob(snapshot, scan, RekeyMapper.class,
        ImmutableBytesWritable.class, MapReduceExtendedCell.class, job, false,
        new Path("file://" + restore));
    FileOutputFormat.setOutputPath(job, new Path("file://" + output));
    HFileOutputFormat2.configureIncrementalLoad(job, desc, locator);

    long t0 = System.nanoTime();
    boolean ok = job.waitForCompletion(false);
    double secs = (System.nanoTime() - t0) / 1e9;
    if (!ok) {
      System.err.println("RekeySnapshotMR: job failed");
      System.exit(1);
    }
    System.out.printf("mr_seconds=%.3f%n", secs);
    System.out.printf("maps=%d%n", job.getCounters()
        .findCounter(org.apache.hadoop.mapreduce.JobCounter.TOTAL_LAUNCHED_MAPS).getValue());
    System.out.printf("reducers=%d%n", job.getNumReduceTasks());
    System.out.printf("old_rows=%d%n", job.getCounters().findCounter(Rekey.OLD_ROWS).getValue());
    System.out.printf("cells=%d%n", job.getCounters().findCounter(Rekey.CELLS).getValue());
    System.out.printf("rejected_rows=%d%n",
        job.getCounters().findCounter(Rekey.REJECTED_ROWS).getValue());
  }
}
