//go:build !noazure

package main

// The azurefs driver (azblob://) is linked unless the binary is built with
// -tags noazure (see "Cloud drivers" in doc.go).
import _ "github.com/paimon-go/paimon-go/fs/blobfs/azurefs"
