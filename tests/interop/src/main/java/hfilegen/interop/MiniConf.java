package hfilegen.interop;

import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;

/** The start of every mini cluster's configuration in the checks that run one. */
final class MiniConf {
  private MiniConf() {}

  /**
   * HBaseTestingUtility's data and Hadoop's tmp directories under base, no info servers
   * (no ports to collide with); each check adds its own settings.
   */
  static Configuration create(Path base) {
    System.setProperty("test.build.data.basedirectory", base.toAbsolutePath().toString());
    Configuration conf = HBaseConfiguration.create();
    conf.set("hadoop.tmp.dir", base.resolve("hadoop-tmp").toAbsolutePath().toString());
    conf.setInt("hbase.master.info.port", -1);
    conf.setInt("hbase.regionserver.info.port", -1);
    return conf;
  }
}
