package jackson

// OneEdit reports whether a and b differ by exactly one changed, inserted
// or removed byte. Readers of Java's metadata use it to tell a damaged key
// (one flipped bit changes one character) from a member of a newer version:
// Jackson would ignore the former as unknown while the member it was goes
// missing.
func OneEdit(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	switch len(b) - len(a) {
	case 0:
		diff := 0
		for i := range len(a) {
			if a[i] != b[i] {
				diff++
			}
		}
		return diff == 1
	case 1:
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		return a[i:] == b[i+1:]
	}
	return false
}
