package main

import (
	"encoding/json"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"

	"github.com/paimon-go/paimon-go/paimon"
)

// state is what the ingester keeps between runs, as a streaming engine
// keeps a checkpoint: where its source stands (the next row id, the
// equivalent of a queue offset), the next commit identifier, and the commit
// it prepared but has not seen the outcome of.
//
// The table itself is the record of what was committed; the state only
// has to remember what might have been.
type state struct {
	NextIdentifier int64    `json:"nextIdentifier"`
	NextRowID      int64    `json:"nextRowId"`
	Pending        *pending `json:"pending,omitempty"`
}

// pending is a prepared commit: its identifier, the source position after
// its rows, and its serialized commit messages (CommitMessage is
// encoding.BinaryMarshaler, so a commit can be retried by another process).
type pending struct {
	Identifier int64    `json:"identifier"`
	Rows       int64    `json:"rows"`
	NextRowID  int64    `json:"nextRowId"`
	Messages   [][]byte `json:"messages"`
}

// newPending serializes a prepared commit.
func newPending(identifier, rows, nextRowID int64, msgs []paimon.CommitMessage) (*pending, error) {
	p := &pending{Identifier: identifier, Rows: rows, NextRowID: nextRowID}
	for _, m := range msgs {
		b, err := m.MarshalBinary()
		if err != nil {
			return nil, err
		}
		p.Messages = append(p.Messages, b)
	}
	return p, nil
}

// messages decodes the commit messages.
func (p *pending) messages() ([]paimon.CommitMessage, error) {
	msgs := make([]paimon.CommitMessage, len(p.Messages))
	for i, b := range p.Messages {
		if err := msgs[i].UnmarshalBinary(b); err != nil {
			return nil, fmt.Errorf("pending commit %d: %w", p.Identifier, err)
		}
	}
	return msgs, nil
}

// loadState reads the state file; a missing file is a first run.
func loadState(path string) (*state, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, iofs.ErrNotExist) {
		return &state{NextIdentifier: 1}, nil
	}
	if err != nil {
		return nil, err
	}
	var s state
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("state file %s: %w", path, err)
	}
	if s.NextIdentifier < 1 || s.NextRowID < 0 {
		return nil, fmt.Errorf("state file %s: bad values %+v", path, s)
	}
	return &s, nil
}

// save replaces the state file atomically: a crash leaves either the old
// state or the new one, never a torn file.
func (s *state) save(path string) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // gone after the rename; cleans up on failure
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
