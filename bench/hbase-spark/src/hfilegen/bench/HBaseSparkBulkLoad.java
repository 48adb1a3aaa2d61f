package hfilegen.bench;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.spark.ByteArrayWrapper;
import org.apache.hadoop.hbase.spark.FamiliesQualifiersValues;
import org.apache.hadoop.hbase.spark.FamilyHFileWriteOptions;
import org.apache.hadoop.hbase.spark.JavaHBaseContext;
import org.apache.hadoop.hbase.util.Pair;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.LongAccumulator;

/**
 * The hbase-spark (hbase-connectors 1.0.1) peer of hfilegen.spark: HBaseContext's
 * bulkLoadThinRows (its faster bulk load, for rows of fewer than ~1000 columns: one shuffle
 * record per row) on Spark local mode, writing HFiles without a cluster (PeerConnection
 * answers the region start keys).
 *
 * <pre>
 * HBaseSparkBulkLoad --input TSV --output DIR --splits 1,2,...,9 --codec lz4|gz|none
 *                    --columns HBASE_ROW_KEY,cf:a,cf:b,... [--master local[2]]
 * </pre>
 *
 * The TSV is ImportTsv's (bench/gen_orders.c --tsv): the first field is the rowkey, the
 * others the columns' cells; an empty field makes no cell (as hfilegen's default and
 * ImportTsv's skip.empty.columns). Families: ROW bloom, 64 KB blocks, no encoding, the codec.
 * Prints {@code hbase_spark_seconds=S cells=N} (the bulk load alone, without JVM and
 * SparkContext start-up, which are printed as {@code startup_seconds}).
 */
public final class HBaseSparkBulkLoad {
  private HBaseSparkBulkLoad() {}

  public static void main(String[] args) throws Exception {
    String input = null, output = null, splits = "", codec = "lz4", columns = null;
    String master = "local[2]";
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--input": input = args[i + 1]; break;
        case "--output": output = args[i + 1]; break;
        case "--splits": splits = args[i + 1]; break;
        case "--codec": codec = args[i + 1]; break;
        case "--columns": columns = args[i + 1]; break;
        case "--master": master = args[i + 1]; break;
        default: throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (input == null || output == null || columns == null) {
      System.err.println("usage: HBaseSparkBulkLoad --input TSV --output DIR --splits K1,K2 "
          + "--codec C --columns HBASE_ROW_KEY,cf:a,... [--master M]");
      System.exit(2);
    }
    long t0 = System.nanoTime();
    SparkConf sconf = new SparkConf().setMaster(master).setAppName("hbase-spark-bulkload")
        .set("spark.ui.enabled", "false");
    JavaSparkContext jsc = new JavaSparkContext(sconf);
    jsc.setLogLevel("ERROR");
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.client.connection.impl", PeerConnection.class.getName());
    conf.set("hfilegen.bench.splits", splits);
    JavaHBaseContext hbase = new JavaHBaseContext(jsc, conf);
    long t1 = System.nanoTime();

    String[] cols = columns.split(",");
    byte[][] fam = new byte[cols.length][], qual = new byte[cols.length][];
    Map<byte[], FamilyHFileWriteOptions> options = new HashMap<>();
    String alg = codec.equals("gz") ? "GZ" : codec.equals("none") ? "NONE" : codec.toUpperCase();
    for (int c = 1; c < cols.length; c++) {
      String[] fq = cols[c].split(":", 2);
      fam[c] = fq[0].getBytes(StandardCharsets.UTF_8);
      qual[c] = fq[1].getBytes(StandardCharsets.UTF_8);
      options.put(fam[c], new FamilyHFileWriteOptions(alg, "ROW", 64 * 1024, "NONE"));
    }
    LongAccumulator cells = jsc.sc().longAccumulator("cells");
    JavaRDD<String> lines = jsc.textFile(input);
    hbase.bulkLoadThinRows(lines, TableName.valueOf("orders_salt10"), line -> {
      String[] f = line.split("\t", -1);
      FamiliesQualifiersValues fqv = new FamiliesQualifiersValues();
      for (int c = 1; c < cols.length && c < f.length; c++) {
        if (f[c].isEmpty()) continue;
        fqv.add(fam[c], qual[c], f[c].getBytes(StandardCharsets.UTF_8));
        cells.add(1);
      }
      return new Pair<>(new ByteArrayWrapper(f[0].getBytes(StandardCharsets.UTF_8)), fqv);
    }, output, options, false, 10L * 1024 * 1024 * 1024);
    long t2 = System.nanoTime();
    System.out.printf("hbase_spark_seconds=%.3f startup_seconds=%.3f cells=%d%n",
        (t2 - t1) / 1e9, (t1 - t0) / 1e9, cells.value());
    jsc.stop();
  }
}
