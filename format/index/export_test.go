package index

// DenseCount exposes denseCount to the black-box tests: the number of 32-bit
// bitmaps a 64-bit vector writes.
func DenseCount(dv *DeletionVector) int64 { return dv.denseCount() }
