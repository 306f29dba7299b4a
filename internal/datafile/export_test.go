package datafile

// SetParquetEstimates replaces the per-column bound of Parquet encoder
// memory and the least row group a Budget cuts, until restore is called.
func SetParquetEstimates(pageBound, minRowGroup int64) (restore func()) {
	p, m := parquetPageBound, minRowGroupMemory
	parquetPageBound, minRowGroupMemory = pageBound, minRowGroup
	return func() { parquetPageBound, minRowGroupMemory = p, m }
}
