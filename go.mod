module github.com/paimon-go/paimon-go

go 1.25.0

require (
	github.com/RoaringBitmap/roaring/v2 v2.30.0 // indirect
	github.com/apache/arrow-go/v18 v18.8.0 // indirect
	github.com/bits-and-blooms/bitset v1.24.4 // indirect
	github.com/klauspost/compress v1.20.4 // indirect
	github.com/mschoch/smat v0.2.0 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	github.com/twmb/avro v1.9.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	gocloud.dev v0.46.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
)
