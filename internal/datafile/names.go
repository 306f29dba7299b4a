package datafile

import (
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"sync"
)

// NewUUID returns a random (version 4) UUID in its 36-character form, as
// Java's UUID.randomUUID().toString() prints it. Paimon names data files,
// manifests and commit users with such UUIDs.
func NewUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("datafile: crypto/rand failed: " + err.Error()) // never happens on supported platforms
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var s [36]byte
	hex.Encode(s[0:8], b[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], b[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], b[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], b[8:10])
	s[23] = '-'
	hex.Encode(s[24:36], b[10:16])
	return string(s[:])
}

// FileNames hands out the names of the data files of one bucket directory
// the way Java's DataFilePathFactory does: "<prefix><uuid>-<n><extension>",
// with one random uuid per FileNames and a counter from 0. Java makes one
// factory per writer; a caller that wants several Writers of the same bucket
// to share one uuid passes the same FileNames to all (Options.Names). It is
// safe for concurrent use.
type FileNames struct {
	mu   sync.Mutex
	uuid string
	n    int
}

// NewFileNames returns a FileNames with a fresh uuid.
func NewFileNames() *FileNames { return &FileNames{uuid: NewUUID()} }

// UUID returns the uuid every name of f carries.
func (f *FileNames) UUID() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.init()
	return f.uuid
}

// Next returns the next name with the given prefix ("data-") and extension
// (".parquet", ".zst.parquet", ".avro", ...).
func (f *FileNames) Next(prefix, extension string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.init()
	name := prefix + f.uuid + "-" + strconv.Itoa(f.n) + extension
	f.n++
	return name
}

// init lets the zero FileNames work too.
func (f *FileNames) init() {
	if f.uuid == "" {
		f.uuid = NewUUID()
	}
}
