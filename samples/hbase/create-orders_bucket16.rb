create 'orders_bucket16', {NAME => 'cf', COMPRESSION => 'SNAPPY', BLOOMFILTER => 'ROWCOL', BLOCKSIZE => '65536'}, SPLITS => ["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14", "15"]
exit
