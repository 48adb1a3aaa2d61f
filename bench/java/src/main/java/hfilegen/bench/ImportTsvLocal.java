package hfilegen.bench;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.mapreduce.CellCreator;
import org.apache.hadoop.hbase.mapreduce.HFileOutputFormat2;
import org.apache.hadoop.hbase.mapreduce.ImportTsv;
import org.apache.hadoop.hbase.mapreduce.PutCombiner;
import org.apache.hadoop.hbase.mapreduce.PutSortReducer;
import org.apache.hadoop.hbase.mapreduce.TsvImporterMapper;
import org.apache.hadoop.hbase.mapreduce.VisibilityExpressionResolver;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * HBase's ImportTsv with bulk output (-Dimporttsv.bulk.output), run in Hadoop's
 * LocalJobRunner without a cluster.
 *
 * <p>ImportTsv.createSubmittableJob opens a cluster connection only to look up
 * the table's descriptor and region start keys, then hands both to
 * HFileOutputFormat2.configureIncrementalLoad. This driver builds the same job
 * (TextInputFormat, TsvImporterMapper, Put map output, PutCombiner,
 * PutSortReducer, the importtsv.* settings) and gives configureIncrementalLoad a
 * table descriptor built here and a RegionLocator that answers only the start
 * keys of the pre-split table. Everything that runs in the job (partitioning
 * with TotalOrderPartitioner over the split points, one reducer per region,
 * sorting, the HFile writer configured per family) is HBase's and Hadoop's own
 * code, unchanged.
 *
 * <pre>
 * ImportTsvLocal --input TSV --output DIR --codec lz4|gz|none --timestamp MILLIS
 *                --splits FILE --columns HBASE_ROW_KEY,cf:a,... [--parallel N]
 * </pre>
 *
 * Prints one line on stdout: {@code importtsv_seconds=S} (the job alone, without
 * JVM start-up).
 */
public final class ImportTsvLocal {
  private ImportTsvLocal() {}

  public static void main(String[] args) throws Exception {
    String input = null, output = null, codec = "lz4", splits = null, columns = null;
    long ts = -1;
    int parallel = 2;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--input": input = args[i + 1]; break;
        case "--output": output = args[i + 1]; break;
        case "--codec": codec = args[i + 1]; break;
        case "--timestamp": ts = Long.parseLong(args[i + 1]); break;
        case "--splits": splits = args[i + 1]; break;
        case "--columns": columns = args[i + 1]; break;
        case "--parallel": parallel = Integer.parseInt(args[i + 1]); break;
        default: throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (input == null || output == null || splits == null || columns == null || ts < 0) {
      System.err.println("usage: ImportTsvLocal --input TSV --output DIR --codec C "
          + "--timestamp MILLIS --splits FILE --columns HBASE_ROW_KEY,cf:q,...");
      System.exit(2);
    }

    Configuration conf = HBaseConfiguration.create();
    conf.set("mapreduce.framework.name", "local");
    conf.set("fs.defaultFS", "file:///");
    // Use both cores: LocalJobRunner runs one map and one reduce task at a time
    // unless told otherwise.
    conf.setInt("mapreduce.local.map.tasks.maximum", parallel);
    conf.setInt("mapreduce.local.reduce.tasks.maximum", parallel);
    // The client polls for completion every 5 s by default; poll often so the
    // measured time is the job's, not the poll interval's.
    conf.setInt("mapreduce.client.completion.pollinterval", 100);
    // No region servers to ask for favored nodes.
    conf.setBoolean("hbase.bulkload.locality.sensitive.enabled", false);
    conf.set(ImportTsv.COLUMNS_CONF_KEY, columns);
    conf.setLong(ImportTsv.TIMESTAMP_CONF_KEY, ts);
    conf.set(ImportTsv.BULK_OUTPUT_CONF_KEY, output);
    // hfilegen skips empty fields by default; ask ImportTsv to do the same so
    // both write the same cells.
    conf.setBoolean(ImportTsv.SKIP_EMPTY_COLUMNS, true);
    conf.setBoolean(ImportTsv.SKIP_LINES_CONF_KEY, false);
    // No cluster to read visibility labels from (see NoLabelsResolver).
    conf.setClass(CellCreator.VISIBILITY_EXP_RESOLVER_CLASS, NoLabelsResolver.class,
        VisibilityExpressionResolver.class);

    TableName table = TableName.valueOf("orders_salt10");
    String family = columns.split(",")[1].split(":")[0];
    TableDescriptor desc = TableDescriptorBuilder.newBuilder(table)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes(family))
            .setCompressionType(Codecs.algorithm(codec))
            .setBloomFilterType(BloomType.ROW)
            .setBlocksize(64 * 1024)
            .build())
        .build();
    byte[][] startKeys = startKeys(splits);
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

    Job job = Job.getInstance(conf, "importtsv_bench_" + table.getNameAsString());
    job.setJarByClass(TsvImporterMapper.class);
    FileInputFormat.setInputPaths(job, new Path(input));
    job.setInputFormatClass(TextInputFormat.class);
    job.setMapperClass(TsvImporterMapper.class);
    job.setMapOutputKeyClass(ImmutableBytesWritable.class);
    job.setMapOutputValueClass(Put.class);
    job.setCombinerClass(PutCombiner.class);
    job.setReducerClass(PutSortReducer.class);
    FileOutputFormat.setOutputPath(job, new Path(output));
    HFileOutputFormat2.configureIncrementalLoad(job, desc, locator);

    long t0 = System.nanoTime();
    boolean ok = job.waitForCompletion(false);
    double secs = (System.nanoTime() - t0) / 1e9;
    if (!ok) {
      System.err.println("ImportTsvLocal: job failed");
      System.exit(1);
    }
    System.out.printf("importtsv_seconds=%.3f%n", secs);
    System.out.printf("reducers=%d%n", job.getNumReduceTasks());
  }

  /** The region start keys: the empty key, then one split point per line. */
  static byte[][] startKeys(String splitsFile) throws IOException {
    List<byte[]> keys = new ArrayList<>();
    keys.add(HConstants.EMPTY_BYTE_ARRAY);
    for (String line : Files.readAllLines(Paths.get(splitsFile), StandardCharsets.UTF_8)) {
      if (!line.isEmpty()) keys.add(Bytes.toBytesBinary(line));
    }
    return keys.toArray(new byte[0][]);
  }
}
