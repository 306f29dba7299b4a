package snapshot

import (
	"bytes"
	"fmt"
	"strconv"
)

// Names of the hint files in a snapshot/ or changelog/ directory
// (HintFileUtils.EARLIEST, HintFileUtils.LATEST).
const (
	EarliestHint = "EARLIEST"
	LatestHint   = "LATEST"
)

// ParseHint parses the content of an EARLIEST or LATEST hint file: a decimal
// id as written by String.valueOf(long). Surrounding white space is tolerated
// (Java's Long.parseLong is stricter). Java treats an unparsable hint as
// missing after three attempts; this function reports it as ErrCorrupt and
// leaves the policy to the caller. Hints are accelerators only: the caller must
// still check that the snapshot they name exists, as HintFileUtils does.
func ParseHint(data []byte) (int64, error) {
	text := bytes.TrimSpace(data)
	id, err := strconv.ParseInt(string(text), 10, 64)
	if err != nil {
		if len(text) > 32 {
			text = append(text[:32:32], "..."...)
		}
		return 0, fmt.Errorf("%w: hint %q is not a snapshot id", ErrCorrupt, text)
	}
	return id, nil
}

// FormatHint returns the content Java writes to a hint file for id: the
// decimal digits, no newline (HintFileUtils.commitHint).
func FormatHint(id int64) []byte {
	return strconv.AppendInt(nil, id, 10)
}
