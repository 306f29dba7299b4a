package testtable

import (
	"crypto/rand"
	"encoding/hex"
	"strconv"
)

// newUUID returns a random (version 4) UUID in its 36-character form, as
// Java's UUID.randomUUID().toString() prints it.
func newUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("testtable: crypto/rand failed: " + err.Error()) // never happens on supported platforms
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

// nameSeq hands out "<prefix><uuid>-<n><suffix>" names: one uuid per
// sequence and a counter from 0, like Java's FileStorePathFactory (manifest
// files and lists) and DataFilePathFactory (data files of one partition and
// bucket).
type nameSeq struct {
	uuid string
	n    int
}

func (s *nameSeq) next(prefix, suffix string) string {
	if s.uuid == "" {
		s.uuid = newUUID()
	}
	name := prefix + s.uuid + "-" + strconv.Itoa(s.n) + suffix
	s.n++
	return name
}
