//go:build !nos3

package main

// The s3fs driver (s3://, s3a://) is linked unless the binary is built with
// -tags nos3 (see "Cloud drivers" in doc.go).
import _ "github.com/paimon-go/paimon-go/fs/blobfs/s3fs"
