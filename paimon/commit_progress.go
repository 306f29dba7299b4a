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

// progressRecord is the content of commit-progress/user-<sha256(user)>.
//
// Every commit of User in a snapshot up to Through has an identifier of at
// most Committed (nil: none, or only batch commits). Pending, when set, is
// an identifier whose commit may land in a snapshot after Through: the
// committer writes it before publishing. Expiration folds what it removes
// into Committed and moves Through past it.
type progressRecord struct {
	User       string `json:"commitUser"`
	Committed  *int64 `json:"committedIdentifier,omitempty"`
	Pending    *int64 `json:"pendingIdentifier,omitempty"`
	Through    int64  `json:"through"`
	TimeMillis int64  `json:"timeMillis"`
}

func (m *TableMeta) progressPath(user string) string {
	sum := sha256.Sum256([]byte(user))
	return m.branchPath(progressDir, progressPrefix+hex.EncodeToString(sum[:]))
}

// decodeProgress parses a record strictly: every member present with its
// type, nothing else, and the user its name was derived from.
func decodeProgress(m *TableMeta, path string, b []byte) (*progressRecord, error) {
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
	if m.progressPath(r.User) != path {
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

// readProgress reads the user's record; nil when there is none.
func readProgress(ctx context.Context, m *TableMeta, user string) (*progressRecord, error) {
	p := m.progressPath(user)
	b, err := m.read(ctx, p)
	if errors.Is(err, iofs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return decodeProgress(m, p, b)
}

// writeProgress replaces the user's record.
func writeProgress(ctx context.Context, m *TableMeta, r *progressRecord) error {
	p := m.progressPath(r.User)
	if err := fs.WriteFile(ctx, m.fsys, p, encodeProgress(r), nil); err != nil {
		return fmt.Errorf("paimon: write commit-progress record %s: %w", p, err)
	}
	return nil
}

// lastIdentifierOf is the exactly-once check of a committer: the newest
// identifier user committed, from its record and the snapshots after the
// record's Through, or from the retained snapshots alone (as Java's
// SnapshotManager.latestSnapshotOfUser) without a record. It fails with
// ErrCommitUncertain when a pending identifier may have landed in a
// snapshot that expired without being recorded.
func lastIdentifierOf(ctx context.Context, m *TableMeta, user string) (*int64, error) {
	rec, err := readProgress(ctx, m, user)
	if err != nil {
		return nil, err
	}
	latest, ok, err := m.LatestSnapshotID(ctx)
	if err != nil {
		return nil, err
	}
	if !ok {
		if rec != nil {
			return rec.Committed, nil
		}
		return nil, nil
	}
	earliest, ok, err := m.EarliestSnapshotID(ctx)
	if err != nil || !ok {
		return nil, err
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
			if earliest, _, err = m.EarliestSnapshotID(ctx); err != nil {
				return nil, err
			}
			break
		}
		if err != nil {
			return nil, err
		}
		if s.CommitUser == user {
			v := s.CommitIdentifier
			found = &v
			break
		}
	}
	if rec == nil {
		return found, nil
	}
	last := maxIdentifier(rec.Committed, found)
	if rec.Pending != nil && (last == nil || *rec.Pending > *last) &&
		earliest > rec.Through+1 && latest > rec.Through {
		return nil, fmt.Errorf("%w: commit user %q may have committed identifier %d in a snapshot after %d, but snapshots %d..%d expired without a record of it (expired by another program?)",
			ErrCommitUncertain, user, *rec.Pending, rec.Through, rec.Through+1, earliest-1)
	}
	return last, nil
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
	v := identifier
	return writeProgress(ctx, c.meta, &progressRecord{
		User: c.user, Committed: last, Pending: &v, Through: through, TimeMillis: c.cfg.now().UnixMilli(),
	})
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
		if fi.IsDir || !strings.HasPrefix(fi.Name, progressPrefix) {
			continue
		}
		p := dir + "/" + fi.Name
		b, err := e.meta.read(ctx, p)
		if errors.Is(err, iofs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		rec, err := decodeProgress(e.meta, p, b)
		if err != nil {
			return err
		}
		seen[rec.User] = true
		if err := e.foldRecord(ctx, rec, newest, covered, end); err != nil {
			return err
		}
	}
	for user, id := range newest {
		if seen[user] {
			continue
		}
		v := id
		rec := &progressRecord{User: user, Committed: &v, Through: end - 1, TimeMillis: e.cfg.now().UnixMilli()}
		if !covered(snapshot.FirstSnapshotID - 1) {
			rec.Through = 0 // earlier snapshots vanished without a record: the scan decides
		}
		err := fs.WriteFile(ctx, e.fsys, e.meta.progressPath(user), encodeProgress(rec), &fs.CreateOptions{IfNotExist: true})
		switch {
		case errors.Is(err, iofs.ErrExist):
			// The committer wrote its first record meanwhile.
			if rec, err = readProgress(ctx, e.meta, user); err != nil {
				return err
			}
			if err := e.foldRecord(ctx, rec, newest, covered, end); err != nil {
				return err
			}
		case errors.Is(err, fs.ErrUnsupported):
			if err := writeProgress(ctx, e.meta, rec); err != nil {
				return err
			}
		case err != nil:
			return fmt.Errorf("paimon: write commit-progress record: %w", err)
		}
	}
	return nil
}

func (e *expirer) foldRecord(ctx context.Context, rec *progressRecord, newest map[string]int64, covered func(int64) bool, end int64) error {
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
	if !changed {
		return nil
	}
	rec.TimeMillis = e.cfg.now().UnixMilli()
	return writeProgress(ctx, e.meta, rec)
}
