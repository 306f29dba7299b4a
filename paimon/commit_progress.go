package paimon

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	iofs "io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
)

// Commit-progress records keep a commit user's identifiers checkable after
// the snapshots that carried them expired (RELIABILITY.md, "Exactly-once
// across expiration"). They live in commit-progress/ next to snapshot/ in
// the branch's metadata directory, a directory Java neither reads nor
// cleans: its readers and expiration never look there, and its orphan
// cleaning only visits snapshot/, changelog/, manifest/, index/,
// statistics/ and bucket and partition directories (OrphanFilesClean).
const (
	progressDir    = "commit-progress"
	progressPrefix = "user-"
)

// progressRecord is the content of a version of a commit user's record,
// commit-progress/user-<sha256(user)>/v-<n>.
//
// Every commit of User in a snapshot up to Through has an identifier of at
// most Committed (nil: none, or only batch commits). Pending, when set, is
// an identifier whose commit may land in a snapshot after Through: the
// committer writes it before publishing. Expiration folds what it removes
// into Committed and moves Through past it.
//
// A record is updated by creating its next version with create-if-absent:
// the committer and concurrent expirations read-modify-write it, and an
// update made from an outdated version fails and is redone on the newest
// (a plain overwrite lost updates under 8 writers expiring at once).
// After a new version is published the ones before the previous are
// removed.
type progressRecord struct {
	User       string `json:"commitUser"`
	Committed  *int64 `json:"committedIdentifier,omitempty"`
	Pending    *int64 `json:"pendingIdentifier,omitempty"`
	Through    int64  `json:"through"`
	TimeMillis int64  `json:"timeMillis"`

	version int64 // the version it was read from; 0 for a new record
}

const progressVersionPrefix = "v-"

// errProgressRace reports that another process published the version an
// update meant to create: re-read and redo.
var errProgressRace = errors.New("commit-progress record updated concurrently")

func (m *TableMeta) progressPath(user string) string {
	sum := sha256.Sum256([]byte(user))
	return m.branchPath(progressDir, progressPrefix+hex.EncodeToString(sum[:]))
}

// decodeProgress parses a record strictly: every member present with its
// type, nothing else, and the user its directory was derived from.
func decodeProgress(m *TableMeta, dir, path string, b []byte) (*progressRecord, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, corrupt(path, err)
	}
	for _, k := range []string{"commitUser", "through", "timeMillis"} {
		if _, ok := raw[k]; !ok {
			return nil, corrupt(path, fmt.Errorf("member %q is missing", k))
		}
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var r progressRecord
	if err := dec.Decode(&r); err != nil {
		return nil, corrupt(path, err)
	}
	if r.Through < 0 {
		return nil, corrupt(path, errors.New("negative snapshot id"))
	}
	if m.progressPath(r.User) != dir {
		return nil, corrupt(path, fmt.Errorf("the record is for commit user %q, whose record has another name", r.User))
	}
	return &r, nil
}

func encodeProgress(r *progressRecord) []byte {
	b, err := json.Marshal(r)
	if err != nil {
		panic(err) // plain struct: cannot fail
	}
	return b
}

// progressVersions lists the versions present in a record directory,
// ascending.
func progressVersions(ctx context.Context, m *TableMeta, dir string) ([]int64, error) {
	var out []int64
	for fi, err := range m.fsys.List(ctx, dir) {
		if errors.Is(err, iofs.ErrNotExist) {
			break
		}
		if err != nil {
			return nil, err
		}
		n, ok := strings.CutPrefix(fi.Name, progressVersionPrefix)
		if fi.IsDir || !ok {
			continue
		}
		v, err := strconv.ParseInt(n, 10, 64)
		if err != nil || v <= 0 {
			continue // a temporary file of a write in progress
		}
		out = append(out, v)
	}
	slices.Sort(out)
	return out, nil
}

// readProgressDir reads the newest version of the record in dir; nil when
// there is none.
func readProgressDir(ctx context.Context, m *TableMeta, dir string) (*progressRecord, error) {
	for range 10 {
		versions, err := progressVersions(ctx, m, dir)
		if err != nil || len(versions) == 0 {
			return nil, err
		}
		v := versions[len(versions)-1]
		p := fmt.Sprintf("%s/%s%d", dir, progressVersionPrefix, v)
		b, err := m.read(ctx, p)
		if errors.Is(err, iofs.ErrNotExist) {
			continue // superseded and removed meanwhile: list again
		}
		if err != nil {
			return nil, err
		}
		rec, err := decodeProgress(m, dir, p, b)
		if err != nil {
			return nil, err
		}
		rec.version = v
		return rec, nil
	}
	return nil, fmt.Errorf("%w: commit-progress record %s keeps changing", ErrCommitUncertain, dir)
}

// readProgress reads the user's record; nil when there is none.
func readProgress(ctx context.Context, m *TableMeta, user string) (*progressRecord, error) {
	return readProgressDir(ctx, m, m.progressPath(user))
}

// writeProgress publishes r as the version after the one it was read
// from, failing with errProgressRace when that version exists; it then
// removes the versions before r's.
func writeProgress(ctx context.Context, m *TableMeta, r *progressRecord) error {
	dir := m.progressPath(r.User)
	next := r.version + 1
	p := fmt.Sprintf("%s/%s%d", dir, progressVersionPrefix, next)
	err := fs.WriteFile(ctx, m.fsys, p, encodeProgress(r), &fs.CreateOptions{IfNotExist: true})
	switch {
	case errors.Is(err, iofs.ErrExist):
		return errProgressRace
	case errors.Is(err, fs.ErrUnsupported):
		// A store without create-if-absent cannot commit either, except
		// through a catalog that publishes snapshots: last writer wins.
		err = fs.WriteFile(ctx, m.fsys, p, encodeProgress(r), nil)
	}
	if err != nil {
		return fmt.Errorf("paimon: write commit-progress record %s: %w", p, err)
	}
	r.version = next
	if next > 2 {
		versions, err := progressVersions(ctx, m, dir)
		if err == nil {
			for _, v := range versions {
				if v < next-1 {
					_ = m.fsys.Remove(ctx, fmt.Sprintf("%s/%s%d", dir, progressVersionPrefix, v))
				}
			}
		}
	}
	return nil
}

// lastIdentifierOf is the exactly-once check of a committer: the newest
// identifier user committed, from its record and the snapshots after the
// record's Through, or from the retained snapshots alone (as Java's
// SnapshotManager.latestSnapshotOfUser) without a record. It fails with
// ErrCommitUncertain when a pending identifier may have landed in a
// snapshot that expired without being recorded.
//
// A concurrent expiration records what it removes before deleting it, so a
// check that saw snapshots vanish reads the record again and starts over
// when it changed: the record it read first may predate that expiration.
func lastIdentifierOf(ctx context.Context, m *TableMeta, user string) (*int64, error) {
	rec, err := readProgress(ctx, m, user)
	if err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		last, vanished, err := lastIdentifierWith(ctx, m, user, rec)
		if (err == nil && !vanished) || attempt == 20 {
			return last, err
		}
		if err != nil && !errors.Is(err, ErrCommitUncertain) {
			return nil, err
		}
		again, rerr := readProgress(ctx, m, user)
		if rerr != nil {
			return nil, rerr
		}
		if sameProgress(rec, again) {
			return last, err
		}
		rec = again
	}
}

func sameProgress(a, b *progressRecord) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.version == b.version && bytes.Equal(encodeProgress(a), encodeProgress(b))
}

// lastIdentifierWith is one pass of lastIdentifierOf with record rec;
// vanished reports that snapshots the pass needed were expired meanwhile
// (or before, without a record of them).
func lastIdentifierWith(ctx context.Context, m *TableMeta, user string, rec *progressRecord) (_ *int64, vanished bool, _ error) {
	latest, ok, err := m.LatestSnapshotID(ctx)
	if err != nil {
		return nil, false, err
	}
	if !ok {
		if rec != nil {
			return rec.Committed, false, nil
		}
		return nil, false, nil
	}
	earliest, ok, err := m.EarliestSnapshotID(ctx)
	if err != nil || !ok {
		return nil, false, err
	}
	lowest := earliest
	if rec != nil {
		lowest = max(earliest, rec.Through+1)
	}
	var found *int64
	for id := latest; id >= lowest; id-- {
		s, err := m.ReadSnapshot(ctx, id)
		if errors.Is(err, ErrSnapshotNotFound) {
			// Expired while we scan: what is left to see is gone.
			vanished = true
			if earliest, _, err = m.EarliestSnapshotID(ctx); err != nil {
				return nil, false, err
			}
			break
		}
		if err != nil {
			return nil, false, err
		}
		if s.CommitUser == user {
			v := s.CommitIdentifier
			found = &v
			break
		}
	}
	if rec == nil {
		return found, vanished, nil
	}
	last := maxIdentifier(rec.Committed, found)
	if rec.Pending != nil && (last == nil || *rec.Pending > *last) &&
		earliest > rec.Through+1 && latest > rec.Through {
		return nil, true, fmt.Errorf("%w: commit user %q may have committed identifier %d in a snapshot after %d, but snapshots %d..%d expired without a record of it (expired by another program?)",
			ErrCommitUncertain, user, *rec.Pending, rec.Through, rec.Through+1, earliest-1)
	}
	return last, vanished, nil
}

func maxIdentifier(a, b *int64) *int64 {
	switch {
	case a == nil:
		return b
	case b == nil || *a >= *b:
		return a
	default:
		return b
	}
}

// writeIntent records, before the commit of identifier is published on top
// of snapshot through, that it may land after through.
func (c *TableCommit) writeIntent(ctx context.Context, identifier, through int64) error {
	last, err := c.loadLastIdentifier(ctx)
	if err != nil {
		return err
	}
	for range 50 {
		rec, err := readProgress(ctx, c.meta, c.user)
		if err != nil {
			return err
		}
		v := identifier
		next := &progressRecord{User: c.user, Committed: last, Pending: &v, Through: through,
			TimeMillis: c.cfg.now().UnixMilli()}
		if rec != nil {
			// The record only moves forward: what an expiration folded
			// in meanwhile stays. Snapshots up to its Through exist or
			// existed, so the commit cannot land there.
			next.Committed = maxIdentifier(last, rec.Committed)
			next.Through = max(through, rec.Through)
			next.version = rec.version
		}
		if err = writeProgress(ctx, c.meta, next); !errors.Is(err, errProgressRace) {
			return err
		}
	}
	return fmt.Errorf("%w: commit-progress record of commit user %q keeps changing", ErrCommitUncertain, c.user)
}

// recordExpiring folds the identifiers of the snapshots an expiration is
// about to remove into the commit-progress records, before any file is
// deleted: for every commit user with non-batch identifiers among them,
// its record gets the newest one (created if missing), and a record whose
// pending identifier is not among them moves its Through past them when
// they are all of the snapshots after it.
func (e *expirer) recordExpiring(ctx context.Context, expiring []*snapshot.Snapshot, end int64) error {
	if len(expiring) == 0 {
		return nil
	}
	newest := map[string]int64{}
	for _, s := range expiring {
		if s.CommitIdentifier == BatchCommitIdentifier {
			continue
		}
		if v, ok := newest[s.CommitUser]; !ok || s.CommitIdentifier > v {
			newest[s.CommitUser] = s.CommitIdentifier
		}
	}
	present := map[int64]bool{}
	for _, s := range expiring {
		present[s.ID] = true
	}
	// covered reports whether every snapshot in (through, end) is being
	// removed now (none vanished before without a record).
	covered := func(through int64) bool {
		for id := through + 1; id < end; id++ {
			if !present[id] {
				return false
			}
		}
		return true
	}
	dir := e.meta.branchPath(progressDir)
	seen := map[string]bool{}
	for fi, err := range e.fsys.List(ctx, dir) {
		if errors.Is(err, iofs.ErrNotExist) {
			break
		}
		if err != nil {
			return err
		}
		if !fi.IsDir || !strings.HasPrefix(fi.Name, progressPrefix) {
			continue
		}
		user, err := e.foldRecord(ctx, dir+"/"+fi.Name, "", newest, covered, end)
		if err != nil {
			return err
		}
		seen[user] = true
	}
	for user := range newest {
		if !seen[user] {
			if _, err := e.foldRecord(ctx, e.meta.progressPath(user), user, newest, covered, end); err != nil {
				return err
			}
		}
	}
	return nil
}

// foldRecord folds the expiring snapshots into the record in dir (of
// user, when known: it is created if missing), redoing the update when a
// concurrent one won. It returns the record's user.
func (e *expirer) foldRecord(ctx context.Context, dir, user string, newest map[string]int64, covered func(int64) bool, end int64) (string, error) {
	for range 50 {
		rec, err := readProgressDir(ctx, e.meta, dir)
		if err != nil {
			return "", err
		}
		if rec == nil {
			if user == "" {
				return "", nil // an empty directory
			}
			v, ok := newest[user]
			if !ok {
				return user, nil
			}
			rec = &progressRecord{User: user, Committed: &v, Through: end - 1}
			if !covered(snapshot.FirstSnapshotID - 1) {
				rec.Through = 0 // earlier snapshots vanished without a record: the scan decides
			}
		} else if !foldInto(rec, newest, covered, end) {
			return rec.User, nil
		}
		rec.TimeMillis = e.cfg.now().UnixMilli()
		if err = writeProgress(ctx, e.meta, rec); !errors.Is(err, errProgressRace) {
			return rec.User, err
		}
	}
	return "", fmt.Errorf("%w: commit-progress record %s keeps changing", ErrCommitUncertain, dir)
}

// foldInto applies an expiration to rec and reports whether it changed.
func foldInto(rec *progressRecord, newest map[string]int64, covered func(int64) bool, end int64) bool {
	changed := false
	if v, ok := newest[rec.User]; ok && (rec.Committed == nil || v > *rec.Committed) {
		rec.Committed = &v
		changed = true
	}
	if rec.Pending != nil && rec.Committed != nil && *rec.Pending <= *rec.Committed {
		rec.Pending = nil
		changed = true
	}
	if (changed || rec.Pending != nil) && rec.Through < end-1 && covered(rec.Through) {
		rec.Through = end - 1
		changed = true
	}
	return changed
}
