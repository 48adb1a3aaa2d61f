create 'orders_md5hex16', {NAME => 'cf', COMPRESSION => 'GZ', BLOOMFILTER => 'ROW', BLOCKSIZE => '65536'}, SPLITS => ["1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
exit
