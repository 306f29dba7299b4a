package blobfs_test

import (
	"context"
	iofs "io/fs"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gocloud.dev/gcerrors"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/blobfs"
)

// fastRetry keeps the tests quick: the pauses are a microsecond.
func fastRetry(attempts int) *blobfs.RetryPolicy {
	return &blobfs.RetryPolicy{Attempts: attempts, Backoff: time.Microsecond, MaxBackoff: time.Microsecond}
}

func newFaultFS(t *testing.T, attempts int) (*blobfs.FS, *faultDriver) {
	t.Helper()
	b, d := newFaultBucket(t, false)
	fsys, err := blobfs.New(b, "wh", &blobfs.Options{Retry: fastRetry(attempts)})
	require.NoError(t, err)
	return fsys, d
}

// TestCreateIfAbsentVerification drives create-if-absent through the
// answers a store can give after SDK retries and lost responses, and
// checks the verdict blobfs derives by reading the object back.
func TestCreateIfAbsentVerification(t *testing.T) {
	const name = "snapshot/snapshot-7"
	mine, theirs := []byte("commit by me"), []byte("commit by someone else")
	sameSize := []byte("commit by XY") // as long as mine
	tests := []struct {
		name     string
		existing []byte  // content present before the create
		write    []fault // faults of the successive uploads
		attrs    []fault // faults of the read-back's size lookups
		read     []fault // faults of the read-back's reads
		cancel   bool    // the write fault's hook cancels the context
		empty    bool    // create an empty file instead of mine
		want     string  // "win", "exist", "unverified" or "error"
		stored   []byte  // content afterwards
		uploads  int     // upload requests made
	}{
		{name: "plain win", want: "win", stored: mine, uploads: 1},
		{name: "plain loss", existing: theirs, want: "exist", stored: theirs, uploads: 1},
		{
			name:  "412 after our first attempt landed (SDK retry)",
			write: []fault{{code: gcerrors.FailedPrecondition, after: true}},
			want:  "win", stored: mine, uploads: 1,
		},
		{
			name:  "ambiguous answer after landing",
			write: []fault{{code: gcerrors.Unknown, after: true}},
			want:  "win", stored: mine, uploads: 1,
		},
		{
			name:  "ambiguous answer, nothing landed: upload repeated",
			write: []fault{{code: gcerrors.Internal}, {code: gcerrors.Unknown}},
			want:  "win", stored: mine, uploads: 3,
		},
		{
			name:     "S3 409 ConditionalRequestConflict while another writer won",
			existing: theirs,
			write:    []fault{{code: gcerrors.Unknown}},
			want:     "exist", stored: theirs, uploads: 1,
		},
		{
			name:     "412, same size, other bytes",
			existing: sameSize,
			want:     "exist", stored: sameSize, uploads: 1,
		},
		{
			name:     "412 and the size lookup fails",
			existing: theirs,
			attrs:    []fault{{code: gcerrors.Internal}, {code: gcerrors.Internal}, {code: gcerrors.Internal}},
			want:     "unverified", stored: theirs, uploads: 1,
		},
		{
			name:     "412, same size, and the read fails",
			existing: sameSize,
			read:     []fault{{code: gcerrors.Internal}, {code: gcerrors.Internal}, {code: gcerrors.Internal}},
			want:     "unverified", stored: sameSize, uploads: 1,
		},
		{
			name:     "412 and the read-back is refused",
			existing: theirs,
			attrs:    []fault{{code: gcerrors.PermissionDenied}},
			want:     "unverified", stored: theirs, uploads: 1,
		},
		{
			name:     "412 and a transient read-back failure",
			existing: sameSize,
			attrs:    []fault{{code: gcerrors.Unknown}},
			read:     []fault{{code: gcerrors.Internal}, {short: true}},
			want:     "exist", stored: sameSize, uploads: 1,
		},
		{
			name:  "412 yet no object",
			write: []fault{{code: gcerrors.FailedPrecondition}},
			want:  "unverified", uploads: 1,
		},
		{
			name:  "ambiguous every time, nothing landed",
			write: []fault{{code: gcerrors.Unknown}, {code: gcerrors.Unknown}, {code: gcerrors.Unknown}},
			want:  "unverified", uploads: 3,
		},
		{
			name:   "context canceled while the upload was in flight",
			write:  []fault{{code: gcerrors.Unknown, after: true}},
			cancel: true,
			want:   "unverified", stored: mine, uploads: 1,
		},
		{
			name:  "412 after landing, empty content",
			empty: true,
			write: []fault{{code: gcerrors.FailedPrecondition, after: true}},
			want:  "win", stored: []byte{}, uploads: 1,
		},
		{
			name:     "412, empty content, someone else's object",
			empty:    true,
			existing: theirs,
			want:     "exist", stored: theirs, uploads: 1,
		},
		{
			name:  "definite refusal",
			write: []fault{{code: gcerrors.PermissionDenied}},
			want:  "error", uploads: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys, d := newFaultFS(t, 3)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.existing != nil {
				require.NoError(t, fs.WriteFile(ctx, fsys, name, tt.existing, nil))
			}
			d.reset()
			if tt.cancel {
				tt.write[0].hook = cancel
			}
			d.inject(opWrite, tt.write...)
			d.inject(opAttrs, tt.attrs...)
			d.inject(opRead, tt.read...)

			content := mine
			if tt.empty {
				content = []byte{}
			}
			err := fs.WriteFile(ctx, fsys, name, content, &fs.CreateOptions{IfNotExist: true})
			switch tt.want {
			case "win":
				require.NoError(t, err)
			case "exist":
				require.ErrorIs(t, err, iofs.ErrExist)
				require.NotErrorIs(t, err, blobfs.ErrUnverifiedConflict)
			case "unverified":
				require.ErrorIs(t, err, blobfs.ErrUnverifiedConflict)
				require.NotErrorIs(t, err, iofs.ErrExist, "an unknown outcome must not read as a lost race")
				require.NotErrorIs(t, err, iofs.ErrNotExist)
				if tt.cancel {
					require.ErrorIs(t, err, context.Canceled)
				}
			case "error":
				require.Error(t, err)
				require.NotErrorIs(t, err, iofs.ErrExist)
				require.NotErrorIs(t, err, blobfs.ErrUnverifiedConflict)
			}
			if err != nil {
				var pe *iofs.PathError
				require.ErrorAs(t, err, &pe)
				require.Equal(t, name, pe.Path)
			}
			require.Equal(t, tt.uploads, d.count(opWrite), "upload requests")

			got, rerr := fs.ReadFile(context.Background(), fsys, name)
			if tt.stored == nil {
				require.ErrorIs(t, rerr, iofs.ErrNotExist)
			} else {
				require.NoError(t, rerr)
				require.Equal(t, string(tt.stored), string(got))
			}
		})
	}
}

// TestCreateIfAbsentBuffered checks the buffered writer's own contract:
// nothing is sent before Close, Abort sends nothing, and a context that
// ends before Close publishes nothing.
func TestCreateIfAbsentBuffered(t *testing.T) {
	fsys, d := newFaultFS(t, 3)
	opts := &fs.CreateOptions{IfNotExist: true}
	ctx := context.Background()

	w, err := fsys.Create(ctx, "a", opts)
	require.NoError(t, err)
	_, err = w.Write([]byte("x"))
	require.NoError(t, err)
	require.Zero(t, d.count(opWrite), "buffered until Close")
	require.NoError(t, w.Abort())
	require.Zero(t, d.count(opWrite))
	require.ErrorIs(t, w.Close(), iofs.ErrClosed)
	_, err = w.Write([]byte("y"))
	require.ErrorIs(t, err, iofs.ErrClosed)

	cctx, cancel := context.WithCancel(ctx)
	w, err = fsys.Create(cctx, "b", opts)
	require.NoError(t, err)
	cancel()
	err = w.Close()
	require.ErrorIs(t, err, context.Canceled)
	require.NotErrorIs(t, err, blobfs.ErrUnverifiedConflict, "nothing was sent")
	require.Zero(t, d.count(opWrite))
	require.NoError(t, w.Abort())
}
