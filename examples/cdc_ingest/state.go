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

// state is the consumer's checkpoint: the offset of the next event to
// apply, the next commit identifier, and the commit it prepared but has not
// seen the outcome of. The table is the record of what was committed.
type state struct {
	NextOffset     int64    `json:"nextOffset"`
	NextIdentifier int64    `json:"nextIdentifier"`
	Pending        *pending `json:"pending,omitempty"`
}

// pending is a prepared commit: its identifier, the offset after its
// events, and its serialized commit messages.
type pending struct {
	Identifier int64    `json:"identifier"`
	Events     int64    `json:"events"`
	NextOffset int64    `json:"nextOffset"`
	Messages   [][]byte `json:"messages"`
}

func loadState(path string) (*state, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, iofs.ErrNotExist) {
		return &state{NextIdentifier: 1}, nil
	}
	if err != nil {
		return nil, err
	}
	var st state
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("state %s: %w", path, err)
	}
	return &st, nil
}

// save writes the state through a temporary file and a rename, so that a
// crash leaves the old state or the new one.
func (st *state) save(path string) error {
	b, err := json.MarshalIndent(st, "", " ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".state-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func newPending(id, events, nextOffset int64, msgs []paimon.CommitMessage) (*pending, error) {
	p := &pending{Identifier: id, Events: events, NextOffset: nextOffset}
	for i := range msgs {
		b, err := msgs[i].MarshalBinary()
		if err != nil {
			return nil, err
		}
		p.Messages = append(p.Messages, b)
	}
	return p, nil
}

func (p *pending) messages() ([]paimon.CommitMessage, error) {
	out := make([]paimon.CommitMessage, len(p.Messages))
	for i, b := range p.Messages {
		if err := out[i].UnmarshalBinary(b); err != nil {
			return nil, err
		}
	}
	return out, nil
}
