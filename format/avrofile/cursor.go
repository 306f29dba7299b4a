package avrofile

import (
	"errors"

	"github.com/paimon-go/paimon-go/internal/avro"
)

// Values are read with internal/avro's Cursor, the bounds-checked walker of
// the Avro binary encoding that format/manifest decodes with too.

var errIntRange = errors.New("int out of range")

// isNull reads the branch index of the two-branch union n describes and
// reports whether the value is null. Outside a union (n == 0) nothing is
// read.
func isNull(c *avro.Cursor, n nullBranch) (bool, error) {
	if n == 0 {
		return false, nil
	}
	i, err := c.Index(2)
	if err != nil {
		return false, err
	}
	return nullBranch(i+1) == n, nil
}
