package fs

import (
	"fmt"
	iofs "io/fs"
)

// ValidName reports whether name is acceptable as a file name: a valid
// io/fs path (see [io/fs.ValidPath]) other than the root ".". Such names
// cannot escape the root of an FS: they are never absolute and never
// contain ".." elements.
func ValidName(name string) bool {
	return name != "." && iofs.ValidPath(name)
}

// ValidDir reports whether dir is acceptable where a directory is expected:
// a valid file name or "." for the root.
func ValidDir(dir string) bool {
	return iofs.ValidPath(dir)
}

// CheckName returns nil if name is a valid file name (see [ValidName]) and
// otherwise a *io/fs.PathError for op wrapping [ErrInvalidName].
// Implementations call it first in every operation on a file.
func CheckName(op, name string) error {
	if ValidName(name) {
		return nil
	}
	return PathErr(op, name, invalidReason(name))
}

// CheckDir is [CheckName] for operations on directories, which also accept
// "." for the root.
func CheckDir(op, dir string) error {
	if ValidDir(dir) {
		return nil
	}
	return PathErr(op, dir, invalidReason(dir))
}

// invalidReason explains why a name was rejected; a bare "invalid argument"
// is hard to act on when the name came from a table path.
func invalidReason(name string) error {
	var why string
	switch {
	case name == "":
		why = "empty name"
	case name == ".":
		why = `the root "." is not a file`
	case name[0] == '/':
		why = "absolute names are not allowed; names are relative to the file system root"
	case name[len(name)-1] == '/':
		why = "trailing slash"
	default:
		why = `names must not contain ".", ".." or empty elements`
	}
	return fmt.Errorf("%w: %s", ErrInvalidName, why)
}

// Join joins a directory and a relative name, treating "." (or "") as the
// root. Both are assumed valid. Unlike path.Join it never cleans, so a valid
// input always yields the expected name.
func Join(dir, name string) string {
	switch {
	case dir == "." || dir == "":
		return name
	case name == "." || name == "":
		return dir
	default:
		return dir + "/" + name
	}
}
