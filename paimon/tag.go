package paimon

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"slices"
	"strings"
	"time"

	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
)

// ErrTagExists reports creating a tag whose name is already taken. Errors
// wrapping it name the tag.
var ErrTagExists = errors.New("paimon: tag already exists")

// ErrInvalidTagName reports a tag name that is blank or cannot be a file
// name (it contains a slash or is "." or "..").
var ErrInvalidTagName = errors.New("paimon: invalid tag name")

// optTagDefaultTimeRetained is the retention CreateTag gives a tag when the
// caller names none (Java CoreOptions.TAG_DEFAULT_TIME_RETAINED).
const optTagDefaultTimeRetained = coreoptions.TagDefaultTimeRetained

// CreateTagOptions tunes CreateTag. A nil *CreateTagOptions tags the latest
// snapshot with the table's default retention.
type CreateTagOptions struct {
	// SnapshotID is the snapshot to tag; 0 means the latest. A snapshot
	// that has expired can still be tagged while another tag holds it, as
	// Java's AbstractFileStoreTable.findSnapshot allows.
	SnapshotID int64
	// TimeRetained is how long the tag should live, counted from its
	// creation; 0 takes the table option tag.default-time-retained. With
	// neither, the tag has no retention and its file is exactly the
	// snapshot's JSON, which Paimon 0.7 and older can read too.
	TimeRetained time.Duration
	// Now is the clock of tagCreateTime, a zone-less wall-clock time: the
	// file gets the wall-clock fields of the time's own location, which for
	// time.Now (used when nil) is the local time zone, as Java's
	// LocalDateTime.now().
	Now func() time.Time
}

// CreateTag writes tag/tag-<name> for a snapshot of the table's branch, as
// Java's TagManager.createTag does: the tag file is the snapshot's JSON,
// followed by tagCreateTime and tagTimeRetained when the tag has a
// retention. The file is published with create-if-absent, so of two
// concurrent creators of one name exactly one succeeds; the other, like any
// attempt on an existing name, gets an error wrapping ErrTagExists. A
// missing snapshot yields ErrSnapshotNotFound.
//
// Deviation from Java: auto-tag names are not checked against
// tag.automatic-creation (Java refuses a second auto-tag for a snapshot),
// and no tag callbacks (Iceberg compatibility) run.
func (t *Table) CreateTag(ctx context.Context, name string, opts *CreateTagOptions) (*snapshot.Tag, error) {
	if opts == nil {
		opts = &CreateTagOptions{}
	}
	if err := checkTagName(name); err != nil {
		return nil, err
	}
	path := t.meta.TagPath(name)
	exists, err := fs.Exists(ctx, t.meta.fsys, path)
	if err != nil {
		return nil, fmt.Errorf("paimon: create tag %q: %w", name, err)
	}
	if exists {
		return nil, fmt.Errorf("%w: %q in %s", ErrTagExists, name, t.meta.Root())
	}
	s, err := t.tagSource(ctx, opts.SnapshotID)
	if err != nil {
		return nil, fmt.Errorf("paimon: create tag %q: %w", name, err)
	}
	retained := opts.TimeRetained
	if retained == 0 {
		if retained, err = tableOptions(t.schema.Options).duration(optTagDefaultTimeRetained, 0); err != nil {
			return nil, fmt.Errorf("paimon: create tag %q: %w", name, err)
		}
	}
	tag := &snapshot.Tag{Snapshot: *s}
	if retained > 0 {
		now := time.Now
		if opts.Now != nil {
			now = opts.Now
		}
		created := now()
		tag.CreateTime, tag.TimeRetained = &created, &retained
	}
	err = fs.WriteFile(ctx, t.meta.fsys, path, tag.Encode(), &fs.CreateOptions{IfNotExist: true})
	if errors.Is(err, fs.ErrUnsupported) {
		// A store without an atomic create-if-absent: Java checks and then
		// overwrites, which is what the check above already did.
		err = fs.WriteFile(ctx, t.meta.fsys, path, tag.Encode(), nil)
	}
	if errors.Is(err, iofs.ErrExist) {
		return nil, fmt.Errorf("%w: %q in %s (created concurrently)", ErrTagExists, name, t.meta.Root())
	}
	if err != nil {
		return nil, fmt.Errorf("paimon: create tag %q: write %s: %w", name, path, err)
	}
	return tag, nil
}

// tagSource is the snapshot CreateTag tags: the latest for id 0, else
// snapshot id, else the snapshot of a tag that still holds id.
func (t *Table) tagSource(ctx context.Context, id int64) (*snapshot.Snapshot, error) {
	if id == 0 {
		latest, ok, err := t.meta.LatestSnapshotID(ctx)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("%w: table %s has no snapshot to tag", ErrSnapshotNotFound, t.meta.Root())
		}
		id = latest
	}
	if id < 0 {
		return nil, fmt.Errorf("%w: invalid snapshot id %d", ErrSnapshotNotFound, id)
	}
	s, err := t.meta.ReadSnapshot(ctx, id)
	if !errors.Is(err, ErrSnapshotNotFound) {
		return s, err
	}
	tags, terr := readTags(ctx, t.meta)
	if terr != nil {
		return nil, terr
	}
	for _, nt := range tags {
		if nt.tag.ID == id {
			return &nt.tag.Snapshot, nil
		}
	}
	return nil, err
}

// DeleteTag removes tag/tag-<name>. A missing tag yields an error wrapping
// ErrTagNotFound (Java only logs a warning).
//
// Java's TagManager.deleteTag removes only the tag file while the tagged
// snapshot still exists, or while another tag holds the same snapshot:
// every file the tag references is then still referenced by that snapshot
// or tag. Otherwise Java also deletes the data files, manifests and index
// files that only the tag referenced. That cleanup is not implemented here:
// such a tag is refused with an error wrapping ErrUnsupported and left in
// place, so no file is ever orphaned by this call.
func (t *Table) DeleteTag(ctx context.Context, name string) error {
	if err := checkTagName(name); err != nil {
		return err
	}
	tag, err := t.meta.ReadTag(ctx, name)
	if err != nil {
		return err
	}
	alive, err := fs.Exists(ctx, t.meta.fsys, t.meta.SnapshotPath(tag.ID))
	if err != nil {
		return fmt.Errorf("paimon: delete tag %q: %w", name, err)
	}
	if !alive {
		tags, err := readTags(ctx, t.meta)
		if err != nil {
			return fmt.Errorf("paimon: delete tag %q: %w", name, err)
		}
		shared := slices.ContainsFunc(tags, func(nt namedTag) bool { return nt.name != name && nt.tag.ID == tag.ID })
		if !shared {
			return fmt.Errorf("%w: delete tag %q: its snapshot %d has expired and the tag alone references its files; "+
				"deleting them is not implemented (Java's delete_tag does it)", ErrUnsupported, name, tag.ID)
		}
	}
	err = t.meta.fsys.Remove(ctx, t.meta.TagPath(name))
	if errors.Is(err, iofs.ErrNotExist) {
		return fmt.Errorf("%w: %q in %s (deleted concurrently): %w", ErrTagNotFound, name, t.meta.Root(), err)
	}
	if err != nil {
		return fmt.Errorf("paimon: delete tag %q: %w", name, err)
	}
	return nil
}

// namedTag is a tag with its name.
type namedTag struct {
	name string
	tag  *snapshot.Tag
}

// readTags reads every tag of the branch, by name; tags deleted while
// listing are skipped.
func readTags(ctx context.Context, m *TableMeta) ([]namedTag, error) {
	names, err := m.TagNames(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]namedTag, 0, len(names))
	for _, n := range names {
		tag, err := m.ReadTag(ctx, n)
		if errors.Is(err, ErrTagNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, namedTag{name: n, tag: tag})
	}
	return out, nil
}

// checkTagName refuses what Java refuses (a blank name) and what cannot be
// one file name in tag/.
func checkTagName(name string) error {
	if strings.TrimSpace(name) == "" {
		return fmt.Errorf("%w: tag name is blank", ErrInvalidTagName)
	}
	if strings.ContainsAny(name, `/\`) || name == "." || name == ".." || !fs.ValidName(tagPrefix+name) {
		return fmt.Errorf("%w: %q cannot be a file name", ErrInvalidTagName, name)
	}
	return nil
}
