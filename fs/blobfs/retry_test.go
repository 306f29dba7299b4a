package blobfs_test

import (
	"context"
	"fmt"
	"io"
	iofs "io/fs"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gocloud.dev/gcerrors"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/blobfs"
)

// TestReadRetries checks which read failures are retried and how often:
// transient ones up to the policy's attempts, final ones never.
func TestReadRetries(t *testing.T) {
	const attempts = 3
	transient := func(n int) []fault {
		out := make([]fault, n)
		for i := range out {
			out[i] = fault{code: []gcerrors.ErrorCode{gcerrors.Unknown, gcerrors.Internal, gcerrors.ResourceExhausted, gcerrors.DeadlineExceeded}[i%4]}
		}
		return out
	}
	data := []byte("0123456789abcdefghij")

	// Each operation reads through one driver call kind.
	ops := []struct {
		name string
		op   string
		run  func(ctx context.Context, fsys *blobfs.FS) error
	}{
		{"ReadAt", opRead, func(ctx context.Context, fsys *blobfs.FS) error {
			f, err := fsys.Open(ctx, "d/f")
			if err != nil {
				return fmt.Errorf("open: %w", err)
			}
			defer f.Close()
			buf := make([]byte, 5)
			if _, err := f.ReadAt(buf, 3); err != nil {
				return err
			}
			if string(buf) != "34567" {
				return fmt.Errorf("ReadAt read %q", buf)
			}
			return nil
		}},
		{"ReadFile", opRead, func(ctx context.Context, fsys *blobfs.FS) error {
			b, err := fsys.ReadFile(ctx, "d/f")
			if err == nil && string(b) != string(data) {
				return fmt.Errorf("ReadFile read %q", b)
			}
			return err
		}},
		{"Open", opAttrs, func(ctx context.Context, fsys *blobfs.FS) error {
			f, err := fsys.Open(ctx, "d/f")
			if err == nil {
				f.Close()
			}
			return err
		}},
		{"Stat", opAttrs, func(ctx context.Context, fsys *blobfs.FS) error {
			_, err := fsys.Stat(ctx, "d/f")
			return err
		}},
		{"List", opList, func(ctx context.Context, fsys *blobfs.FS) error {
			infos, err := fs.ReadDir(ctx, fsys, "d")
			if err == nil && (len(infos) != 1 || infos[0].Name != "f") {
				return fmt.Errorf("ReadDir listed %v", infos)
			}
			return err
		}},
	}
	cases := []struct {
		name   string
		faults []fault
		calls  int  // calls of the operation's driver method
		ok     bool // the operation succeeds
		code   gcerrors.ErrorCode
	}{
		{"no fault", nil, 1, true, 0},
		{"transient then success", transient(attempts - 1), attempts, true, 0},
		{"transient until attempts run out", transient(attempts + 2), attempts, false, 0},
		{"NotFound is final", []fault{{code: gcerrors.NotFound}}, 1, false, gcerrors.NotFound},
		{"PermissionDenied is final", []fault{{code: gcerrors.PermissionDenied}}, 1, false, gcerrors.PermissionDenied},
		{"FailedPrecondition is final", []fault{{code: gcerrors.FailedPrecondition}}, 1, false, gcerrors.FailedPrecondition},
		{"InvalidArgument is final", []fault{{code: gcerrors.InvalidArgument}}, 1, false, gcerrors.InvalidArgument},
	}
	for _, op := range ops {
		for _, tc := range cases {
			t.Run(op.name+"/"+tc.name, func(t *testing.T) {
				ctx := context.Background()
				fsys, d := newFaultFS(t, attempts)
				require.NoError(t, fs.WriteFile(ctx, fsys, "d/f", data, nil))
				d.reset()
				d.inject(op.op, tc.faults...)
				err := op.run(ctx, fsys)
				if tc.ok {
					require.NoError(t, err)
				} else {
					require.Error(t, err)
					if tc.code != 0 {
						require.Equal(t, tc.code, gcerrors.Code(err))
					}
					if tc.code == gcerrors.NotFound && op.op != opList {
						require.ErrorIs(t, err, iofs.ErrNotExist)
					}
				}
				require.Equal(t, tc.calls, d.count(op.op), "driver calls")
			})
		}
	}
}

// TestReadAtTruncatedBody retries a ranged read whose body ended early, as
// when a connection drops mid-response.
func TestReadAtTruncatedBody(t *testing.T) {
	ctx := context.Background()
	fsys, d := newFaultFS(t, 3)
	require.NoError(t, fs.WriteFile(ctx, fsys, "f", []byte("0123456789"), nil))
	f, err := fsys.Open(ctx, "f")
	require.NoError(t, err)
	defer f.Close()

	d.reset()
	d.inject(opRead, fault{short: true})
	buf := make([]byte, 10)
	n, err := f.ReadAt(buf, 0)
	if err != nil {
		require.Equal(t, io.EOF, err)
	}
	require.Equal(t, 10, n)
	require.Equal(t, "0123456789", string(buf))
	require.Equal(t, 2, d.count(opRead))

	d.reset()
	d.inject(opRead, fault{short: true}, fault{short: true}, fault{short: true})
	_, err = f.ReadAt(buf, 0)
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	require.NotEqual(t, io.EOF, err)
	require.Equal(t, 3, d.count(opRead))
}

// TestRetryStopsWithContext checks that a pause between attempts ends as
// soon as the context does, and that the context's error is reported.
func TestRetryStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b, d := newFaultBucket(t, false)
	// Pauses of an hour: only cancellation can end this test quickly.
	fsys, err := blobfs.New(b, "", &blobfs.Options{Retry: &blobfs.RetryPolicy{Attempts: 5, Backoff: time.Hour}})
	require.NoError(t, err)
	require.NoError(t, fs.WriteFile(ctx, fsys, "f", []byte("x"), nil))
	d.reset()
	d.inject(opAttrs, fault{code: gcerrors.Unknown, hook: cancel})
	_, err = fsys.Stat(ctx, "f")
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, 1, d.count(opAttrs))
}

// TestListPages lists a directory spanning several listing pages, with a
// transient failure on a later page.
func TestListPages(t *testing.T) {
	ctx := context.Background()
	fsys, d := newFaultFS(t, 3)
	const n = 1500
	for i := range n {
		require.NoError(t, fs.WriteFile(ctx, fsys, fmt.Sprintf("dir/f%05d", i), nil, nil))
	}
	require.NoError(t, fs.WriteFile(ctx, fsys, "dir/sub/x", nil, nil))
	d.reset()
	d.inject(opList, fault{}, fault{code: gcerrors.Internal})
	infos, err := fs.ReadDir(ctx, fsys, "dir")
	require.NoError(t, err)
	require.Len(t, infos, n+1)
	require.Equal(t, fs.FileInfo{Name: "sub", IsDir: true}, infos[n])
	require.Equal(t, 3, d.count(opList), "two pages and one retry")
}
