create 'orders_salt10', {NAME => 'cf', COMPRESSION => 'LZ4', BLOOMFILTER => 'ROW', BLOCKSIZE => '65536'}, SPLITS => ["1", "2", "3", "4", "5", "6", "7", "8", "9"]
exit
