package hfilegen.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.ChecksumType;

/**
 * HBase's own HFile writer at its best: StoreFileWriter, configured as
 * HFileOutputFormat2's record writer configures it (HFile v3 with tags, ROW
 * bloom, the family's codec, 64 KB blocks, CRC32C per 16 KB, the family's data
 * block encoding (--encoding, default NONE: HFileOutputFormat2 passes the family's
 * DATA_BLOCK_ENCODING into the HFileContext), the bulk-load file-info entries), fed the
 * already sorted cells of
 * one region from memory in a tight loop.
 *
 * <p>Reading the region's rows (a TSV slice as ImportTsv reads it), building
 * the KeyValues and sorting them happen before the clock starts. Each codec gets
 * untimed warm-up runs (at least one, until 5 s of the loop have run, at most
 * six) so that the JIT has compiled the loop, then --reps timed runs; a run is writer
 * creation, every append, the file-info entries and close. The file system is
 * Hadoop's RawLocalFileSystem (no .crc side files), the cheapest Hadoop path to
 * a local disk.
 *
 * <pre>
 * WriterBench --input REGION.tsv --columns HBASE_ROW_KEY,cf:a,... --timestamp MILLIS
 *             --codecs lz4,gz,none [--encoding none|prefix|diff|fast_diff|row_index_v1]
 *             --reps 3 --out DIR
 * </pre>
 *
 * Prints one line per timed run: {@code codec run wall_s thread_cpu_s process_cpu_s
 * rows cells file_bytes path}, tab-separated, after a header line; the last run's
 * file of each codec is kept for the cell comparison.
 */
public final class WriterBench {
  private WriterBench() {}

  public static void main(String[] args) throws Exception {
    String input = null, columns = null, out = null;
    String[] codecs = {"lz4"};
    DataBlockEncoding encoding = DataBlockEncoding.NONE;
    long ts = -1;
    int reps = 3;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--input": input = args[i + 1]; break;
        case "--columns": columns = args[i + 1]; break;
        case "--timestamp": ts = Long.parseLong(args[i + 1]); break;
        case "--codecs": codecs = args[i + 1].split(","); break;
        case "--reps": reps = Integer.parseInt(args[i + 1]); break;
        case "--out": out = args[i + 1]; break;
        case "--encoding": encoding = DataBlockEncoding.valueOf(args[i + 1].toUpperCase()); break;
        default: throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (input == null || columns == null || out == null || ts < 0) {
      System.err.println("usage: WriterBench --input TSV --columns HBASE_ROW_KEY,cf:q,... "
          + "--timestamp MILLIS --codecs lz4,gz,none --reps N --out DIR");
      System.exit(2);
    }

    String[] cols = columns.split(",");
    if (!cols[0].equals("HBASE_ROW_KEY")) throw new IllegalArgumentException("row key first");
    byte[] family = Bytes.toBytes(cols[1].split(":")[0]);
    byte[][] qualifiers = new byte[cols.length][];
    for (int c = 1; c < cols.length; c++) qualifiers[c] = Bytes.toBytes(cols[c].split(":")[1]);

    // Load and sort: not timed.
    long l0 = System.nanoTime();
    byte[] data = Files.readAllBytes(Paths.get(input));
    List<Cell> cells = new ArrayList<>();
    long rows = 0;
    int pos = 0;
    while (pos < data.length) {
      int eol = pos;
      while (eol < data.length && data[eol] != '\n') eol++;
      if (eol > pos) {
        int[] start = new int[cols.length], end = new int[cols.length];
        int f = 0, s = pos;
        for (int k = pos; k <= eol && f < cols.length; k++) {
          if (k == eol || data[k] == '\t') {
            start[f] = s;
            end[f] = k;
            f++;
            s = k + 1;
          }
        }
        if (f != cols.length) throw new IllegalStateException("bad line at byte " + pos);
        byte[] row = Arrays.copyOfRange(data, start[0], end[0]);
        for (int c = 1; c < cols.length; c++) {
          if (end[c] == start[c]) continue; // empty fields are skipped, as by both loaders
          cells.add(new KeyValue(row, 0, row.length, family, 0, family.length, qualifiers[c], 0,
              qualifiers[c].length, ts, KeyValue.Type.Put, data, start[c], end[c] - start[c]));
        }
        rows++;
      }
      pos = eol + 1;
    }
    data = null;
    cells.sort(CellComparator.getInstance());
    System.err.printf("WriterBench: %d rows, %d cells loaded and sorted in %.1f s%n", rows,
        cells.size(), (System.nanoTime() - l0) / 1e9);

    Configuration conf = HBaseConfiguration.create();
    FileSystem fs = new RawLocalFileSystem();
    fs.initialize(URI.create("file:///"), conf);
    fs.setWriteChecksum(false);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    System.out.println("codec\trun\twall_s\tthread_cpu_s\tprocess_cpu_s\trows\tcells\tfile_bytes\tpath");
    for (String codec : codecs) {
      // Warm-up, not timed: until the JIT has seen at least 5 s of this loop (1 to 6 runs).
      long warm0 = System.nanoTime();
      for (int k = 0; k < 6 && (k == 0 || System.nanoTime() - warm0 < 5_000_000_000L); k++) {
        Path path = new Path(out, codec + "/warmup");
        writeOne(conf, fs, path, family, codec, encoding, cells);
        fs.delete(path, false);
      }
      for (int run = 1; run <= reps; run++) {
        Path path = new Path(out, codec + "/run" + run);
        fs.delete(path, false);
        long w0 = System.nanoTime();
        long t0 = threads.getCurrentThreadCpuTime();
        long p0 = os.getProcessCpuTime();
        writeOne(conf, fs, path, family, codec, encoding, cells);
        long p1 = os.getProcessCpuTime();
        long t1 = threads.getCurrentThreadCpuTime();
        long w1 = System.nanoTime();
        long size = fs.getFileStatus(path).getLen();
        System.out.printf("%s\t%d\t%.4f\t%.4f\t%.4f\t%d\t%d\t%d\t%s%n", codec, run, (w1 - w0) / 1e9,
            (t1 - t0) / 1e9, (p1 - p0) / 1e9, rows, cells.size(), size, path.toUri().getPath());
        if (run < reps) fs.delete(path, false);
      }
    }
  }

  private static void writeOne(Configuration conf, FileSystem fs, Path path, byte[] family,
      String codec, DataBlockEncoding encoding, List<Cell> cells) throws Exception {
    HFileContext ctx = new HFileContextBuilder()
        .withCompression(Codecs.algorithm(codec))
        .withDataBlockEncoding(encoding)
        .withChecksumType(ChecksumType.CRC32C)
        .withBytesPerCheckSum(16 * 1024)
        .withBlockSize(64 * 1024)
        .withColumnFamily(family)
        .withTableName(TableName.valueOf("orders_salt10").getName())
        .withCreateTime(System.currentTimeMillis())
        .withIncludesTags(true)
        .build();
    StoreFileWriter w = new StoreFileWriter.Builder(conf, CacheConfig.DISABLED, fs)
        .withFilePath(path).withBloomType(BloomType.ROW).withFileContext(ctx).build();
    for (int i = 0, n = cells.size(); i < n; i++) w.append(cells.get(i));
    w.appendFileInfo(HStoreFile.BULKLOAD_TIME_KEY, Bytes.toBytes(System.currentTimeMillis()));
    w.appendFileInfo(HStoreFile.BULKLOAD_TASK_KEY, Bytes.toBytes("writer-bench"));
    w.appendFileInfo(HStoreFile.MAJOR_COMPACTION_KEY, Bytes.toBytes(true));
    w.appendFileInfo(HStoreFile.EXCLUDE_FROM_MINOR_COMPACTION_KEY, Bytes.toBytes(false));
    w.appendTrackedTimestampsToMetadata();
    w.close();
  }
}
