package snapshot

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/paimon-go/paimon-go/internal/jackson"
)

// Snapshot format versions (Java Snapshot's class comment).
const (
	// VersionLegacy is the version of snapshots written by Paimon <= 0.2,
	// which have no "version" member; Decode reports it for such files.
	VersionLegacy int32 = 1
	// CurrentVersion is Snapshot.CURRENT_VERSION, written by Paimon 0.4
	// through 2.0 (version 2 was Paimon 0.3).
	CurrentVersion int32 = 3
)

// FirstSnapshotID is the id of a table's first snapshot
// (Snapshot.FIRST_SNAPSHOT_ID).
const FirstSnapshotID int64 = 1

// BatchCommitIdentifier is the commit identifier of batch (non-streaming)
// commits, Java's BatchWriteBuilder.COMMIT_IDENTIFIER = Long.MAX_VALUE.
const BatchCommitIdentifier int64 = math.MaxInt64

// CommitKind is the type of change a snapshot records (Snapshot.CommitKind).
type CommitKind string

// The commit kinds Java Paimon knows.
const (
	// CommitAppend: new data files were added and none were deleted.
	CommitAppend CommitKind = "APPEND"
	// CommitCompact: existing data files were rewritten by compaction.
	CommitCompact CommitKind = "COMPACT"
	// CommitOverwrite: data files were deleted (overwrite, drop partition,
	// truncate, or an append that also deletes files or changes deletion
	// vectors).
	CommitOverwrite CommitKind = "OVERWRITE"
	// CommitAnalyze: only statistics were collected.
	CommitAnalyze CommitKind = "ANALYZE"
)

// Valid reports whether k is one of the four kinds Java knows.
func (k CommitKind) Valid() bool {
	switch k {
	case CommitAppend, CommitCompact, CommitOverwrite, CommitAnalyze:
		return true
	}
	return false
}

// Operation is the logical operation that produced a snapshot, a field added
// by Paimon 2.0 (Snapshot.Operation). Paimon 1.4.2 neither writes nor reads it.
type Operation string

// The operations Paimon 2.0 knows. Decode keeps any other value as is.
const (
	OperationWrite                        Operation = "WRITE"
	OperationOverwrite                    Operation = "OVERWRITE"
	OperationDelete                       Operation = "DELETE"
	OperationTruncate                     Operation = "TRUNCATE"
	OperationUpdate                       Operation = "UPDATE"
	OperationMerge                        Operation = "MERGE"
	OperationCreateTableAsSelect          Operation = "CREATE_TABLE_AS_SELECT"
	OperationReplaceTableAsSelect         Operation = "REPLACE_TABLE_AS_SELECT"
	OperationCreateOrReplaceTableAsSelect Operation = "CREATE_OR_REPLACE_TABLE_AS_SELECT"
)

// Snapshot is the content of a snapshot/snapshot-N file; it mirrors Java
// org.apache.paimon.Snapshot of Paimon 1.4.2 plus the two members Paimon 2.0
// added (UUID, Operation). Fields are listed in the order Java writes them.
//
// Pointer fields are Java's @Nullable members written with
// @JsonInclude(NON_NULL): nil means absent from the file. Plain string fields
// that Java always writes use "" for Java null (written as null).
type Snapshot struct {
	// Version is the format version, CurrentVersion for new snapshots. Encode
	// writes CurrentVersion when it is 0; Decode reports VersionLegacy when the
	// member is missing.
	Version int32
	// UUID is a random UUID per snapshot object [Paimon 2.0].
	UUID *string
	// ID equals the N of the file name snapshot-N.
	ID int64
	// SchemaID is the id of the table schema at commit time.
	SchemaID int64
	// BaseManifestList names (in manifest/) the manifest list holding all
	// data manifests of the previous snapshot.
	BaseManifestList string
	// BaseManifestListSize is that file's size in bytes (nil for Paimon <= 1.0).
	BaseManifestListSize *int64
	// DeltaManifestList names the manifest list of the changes made by this
	// snapshot.
	DeltaManifestList string
	// DeltaManifestListSize is that file's size in bytes.
	DeltaManifestListSize *int64
	// ChangelogManifestList names the manifest list of the changelog files
	// produced by this snapshot (nil when none).
	ChangelogManifestList *string
	// ChangelogManifestListSize is that file's size in bytes.
	ChangelogManifestListSize *int64
	// IndexManifest names the index manifest holding all live index files
	// (nil when the table has none).
	IndexManifest *string
	// CommitUser identifies the writer job.
	CommitUser string
	// CommitIdentifier is the checkpoint id, BatchCommitIdentifier for batch
	// commits.
	CommitIdentifier int64
	// CommitKind is the type of change; "" stands for Java null.
	CommitKind CommitKind
	// TimeMillis is the commit time, milliseconds since the epoch.
	TimeMillis int64
	// TotalRecordCount is the number of records in the table after the commit
	// (0 in version 1 and 2 snapshots, which lack it).
	TotalRecordCount int64
	// DeltaRecordCount is the number of records this snapshot added minus
	// those it deleted.
	DeltaRecordCount int64
	// ChangelogRecordCount is the number of changelog records produced.
	ChangelogRecordCount *int64
	// Watermark is the input watermark; Flink may write math.MinInt64.
	Watermark *int64
	// Statistics names the statistics file in statistics/.
	Statistics *string
	// Properties are the commit properties. Java leaves the member out when the
	// map is null; a non-nil empty map is written as "{ }".
	Properties map[string]string
	// NextRowID is the row-tracking counter; every Paimon 1.4 commit writes it.
	NextRowID *int64
	// Operation is the logical operation [Paimon 2.0].
	Operation *Operation

	// propOrder is the document order of Properties when decoded from a file
	// whose keys were not sorted; Encode writes those keys in that order.
	propOrder []string
}

// Changelog is the content of a changelog/changelog-N file, which Java
// (org.apache.paimon.Changelog) gives exactly the shape of a snapshot: it is
// the snapshot's JSON, moved there when the snapshot expires. Decode and
// Encode serve both.
type Changelog = Snapshot

// Decode parses the JSON of a snapshot or changelog file.
//
// It fails with an error wrapping ErrCorrupt for malformed JSON or members of
// the wrong kind, and with one wrapping ErrUnsupportedVersion when the version
// is newer than CurrentVersion.
func Decode(data []byte) (*Snapshot, error) {
	members, err := readObject(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	s := &Snapshot{}
	if _, err := s.decodeMembers(members); err != nil {
		return nil, err
	}
	return s, nil
}

// decodeMembers fills s from the members Java Snapshot knows and returns the
// others for a subclass (Tag) to look at.
func (s *Snapshot) decodeMembers(members []member) (rest []member, err error) {
	versionSeen := false
	present := map[string]bool{}
	for _, m := range members {
		if present[m.name] {
			// Java never writes a member twice; Jackson would keep the
			// last, so a damaged key that became another would go unseen.
			return nil, fmt.Errorf("%w: member %q appears twice", ErrCorrupt, m.name)
		}
		present[m.name] = true
		if err := s.decodeMember(m, &versionSeen); err != nil {
			if errors.Is(err, errUnknownMember) {
				rest = append(rest, m)
				continue
			}
			return nil, err
		}
	}
	if !versionSeen {
		s.Version = VersionLegacy
	}
	if s.Version < 0 {
		return nil, fmt.Errorf("%w: negative snapshot version %d", ErrCorrupt, s.Version)
	}
	if s.Version > CurrentVersion {
		return nil, fmt.Errorf("%w: version %d, this library reads up to %d",
			ErrUnsupportedVersion, s.Version, CurrentVersion)
	}
	required := requiredMembers
	if s.Version >= CurrentVersion {
		required = requiredMembersV3
	}
	for _, name := range required {
		if !present[name] {
			return nil, fmt.Errorf("%w: member %q is missing", ErrCorrupt, name)
		}
	}
	for _, m := range rest {
		if known := nearKnownMember(m.name); known != "" {
			return nil, fmt.Errorf("%w: unknown member %q looks like a damaged %q", ErrCorrupt, m.name, known)
		}
	}
	return rest, nil
}

// requiredMembers are the members every snapshot must carry with a
// non-null value: Java Snapshot's creator takes them as primitives or as
// references it dereferences without a check (a damaged or missing one
// would silently read as 0 or fail later), so their absence is damage.
// Snapshots of version 3 (Paimon 0.4 and later) always carry the record
// counts too.
var (
	requiredMembers = []string{"id", "schemaId", "baseManifestList", "deltaManifestList",
		"commitUser", "commitIdentifier", "commitKind", "timeMillis"}
	requiredMembersV3 = append(slices.Clone(requiredMembers), "totalRecordCount", "deltaRecordCount")
)

// knownMembers are the member names of Java's Snapshot (1.4.2 and 2.0.0),
// of its legacy versions (logOffsets, Paimon <= 0.3) and of Tag: an
// unknown member one edit away from one of them is a damaged key, not a
// member of a newer version.
var knownMembers = []string{"version", "uuid", "id", "schemaId", "baseManifestList",
	"baseManifestListSize", "deltaManifestList", "deltaManifestListSize", "changelogManifestList",
	"changelogManifestListSize", "indexManifest", "commitUser", "commitIdentifier", "commitKind",
	"timeMillis", "logOffsets", "totalRecordCount", "deltaRecordCount", "changelogRecordCount",
	"watermark", "statistics", "properties", "nextRowId", "operation",
	"tagCreateTime", "tagTimeRetained"}

// nearKnownMember returns the known member name that name is one edit
// (a changed, inserted or removed character) away from, or "" when there
// is none or name is itself known.
func nearKnownMember(name string) string {
	if slices.Contains(knownMembers, name) {
		return ""
	}
	for _, k := range knownMembers {
		if jackson.OneEdit(name, k) {
			return k
		}
	}
	return ""
}

// errUnknownMember tells decodeMembers that a member is not a Snapshot one.
var errUnknownMember = errors.New("unknown member")

func (s *Snapshot) decodeMember(m member, versionSeen *bool) error {
	var err error
	raw := m.value
	switch m.name {
	case "version":
		var ok bool
		s.Version, ok, err = parseInt32(raw)
		*versionSeen = ok
	case "uuid":
		s.UUID, err = optString(raw)
	case "id":
		s.ID, _, err = parseInt64(raw)
	case "schemaId":
		s.SchemaID, _, err = parseInt64(raw)
	case "baseManifestList":
		s.BaseManifestList, _, err = parseString(raw)
	case "baseManifestListSize":
		s.BaseManifestListSize, err = optInt64(raw)
	case "deltaManifestList":
		s.DeltaManifestList, _, err = parseString(raw)
	case "deltaManifestListSize":
		s.DeltaManifestListSize, err = optInt64(raw)
	case "changelogManifestList":
		s.ChangelogManifestList, err = optString(raw)
	case "changelogManifestListSize":
		s.ChangelogManifestListSize, err = optInt64(raw)
	case "indexManifest":
		s.IndexManifest, err = optString(raw)
	case "commitUser":
		s.CommitUser, _, err = parseString(raw)
	case "commitIdentifier":
		s.CommitIdentifier, _, err = parseInt64(raw)
	case "commitKind":
		var k string
		k, _, err = parseString(raw)
		if err == nil && k != "" && !CommitKind(k).Valid() {
			err = fmt.Errorf("unknown commit kind %q", k)
		}
		s.CommitKind = CommitKind(k)
	case "timeMillis":
		s.TimeMillis, _, err = parseInt64(raw)
	case "totalRecordCount":
		s.TotalRecordCount, _, err = parseInt64(raw)
	case "deltaRecordCount":
		s.DeltaRecordCount, _, err = parseInt64(raw)
	case "changelogRecordCount":
		s.ChangelogRecordCount, err = optInt64(raw)
	case "watermark":
		s.Watermark, err = optInt64(raw)
	case "statistics":
		s.Statistics, err = optString(raw)
	case "properties":
		var order []string
		s.Properties, order, err = parseStringMap(raw)
		s.propOrder = decodedOrder(order)
	case "nextRowId":
		s.NextRowID, err = optInt64(raw)
	case "operation":
		var op *string
		op, err = optString(raw)
		s.Operation = nil
		if op != nil {
			o := Operation(*op)
			s.Operation = &o
		}
	default:
		return errUnknownMember
	}
	if err != nil {
		return fmt.Errorf("%w: member %q: %v", ErrCorrupt, m.name, err)
	}
	return nil
}

// Encode returns the JSON Java Paimon writes for s (JsonSerdeUtil.toJson):
// Jackson's pretty printer, members in Java @JsonCreator order, nil optional
// members left out.
func (s *Snapshot) Encode() []byte {
	w := newPrettyWriter()
	w.BeginObject()
	s.encodeMembers(&w)
	w.EndObject()
	return w.Bytes()
}

func (s *Snapshot) encodeMembers(w *prettyWriter) {
	version := s.Version
	if version == 0 {
		version = CurrentVersion
	}
	w.int64Field("version", int64(version))
	w.optStringField("uuid", s.UUID)
	w.int64Field("id", s.ID)
	w.int64Field("schemaId", s.SchemaID)
	w.stringOrNullField("baseManifestList", s.BaseManifestList)
	w.optInt64Field("baseManifestListSize", s.BaseManifestListSize)
	w.stringOrNullField("deltaManifestList", s.DeltaManifestList)
	w.optInt64Field("deltaManifestListSize", s.DeltaManifestListSize)
	w.optStringField("changelogManifestList", s.ChangelogManifestList)
	w.optInt64Field("changelogManifestListSize", s.ChangelogManifestListSize)
	w.optStringField("indexManifest", s.IndexManifest)
	w.stringOrNullField("commitUser", s.CommitUser)
	w.int64Field("commitIdentifier", s.CommitIdentifier)
	w.stringOrNullField("commitKind", string(s.CommitKind))
	w.int64Field("timeMillis", s.TimeMillis)
	w.int64Field("totalRecordCount", s.TotalRecordCount)
	w.int64Field("deltaRecordCount", s.DeltaRecordCount)
	w.optInt64Field("changelogRecordCount", s.ChangelogRecordCount)
	w.optInt64Field("watermark", s.Watermark)
	w.optStringField("statistics", s.Statistics)
	if s.Properties != nil {
		w.stringMapField("properties", s.Properties, s.propOrder)
	}
	w.optInt64Field("nextRowId", s.NextRowID)
	if s.Operation != nil {
		op := string(*s.Operation)
		w.optStringField("operation", &op)
	}
}
