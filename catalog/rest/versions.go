package rest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"

	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/paimon"
)

// Branches, tags and partitions as the REST API manages them on the server
// (Java RESTCatalog.createBranch ... listPartitions).

var (
	// ErrBranchNotFound reports a branch the server does not have; it is
	// paimon's sentinel, so that a table's DropBranch reports the same
	// error whether its branches are on the file system or the server's.
	ErrBranchNotFound = paimon.ErrBranchNotFound
	// ErrBranchExists reports a branch that exists already (paimon's
	// sentinel, as ErrBranchNotFound).
	ErrBranchExists = paimon.ErrBranchExists
)

// CreateBranch creates branch of the table, from the latest schema or
// from tag when it is set.
func (c *Catalog) CreateBranch(ctx context.Context, id paimon.Identifier, branch, fromTag string) error {
	id, err := ddlIdentifier(id, false)
	if err != nil {
		return err
	}
	if err := checkName(branch); err != nil {
		return wrapf(err, "branch %q", branch)
	}
	body := map[string]any{"branch": branch, "fromTag": nil}
	if fromTag != "" {
		body["fromTag"] = fromTag
	}
	err = c.post(ctx, c.paths.table(id.Database, id.Table, "branches"), body, nil)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrAlreadyExists):
		return fmt.Errorf("%w: %s of %s: %w", ErrBranchExists, branch, id, err)
	case errors.Is(err, ErrNotFound) && resourceIs(err, resourceTag):
		return fmt.Errorf("%w: %q of %s: %w", paimon.ErrTagNotFound, fromTag, id, err)
	}
	return tableError(id, err)
}

// DropBranch drops branch of the table.
func (c *Catalog) DropBranch(ctx context.Context, id paimon.Identifier, branch string) error {
	id, err := ddlIdentifier(id, false)
	if err != nil {
		return err
	}
	if err := checkName(branch); err != nil {
		return wrapf(err, "branch %q", branch)
	}
	err = c.del(ctx, c.paths.table(id.Database, id.Table, "branches", encodeString(branch)))
	if errors.Is(err, ErrNotFound) {
		return fmt.Errorf("%w: %s of %s: %w", ErrBranchNotFound, branch, id, err)
	}
	if err != nil {
		return tableError(id, err)
	}
	return nil
}

// FastForward makes branch from of the table (main when empty) continue
// as branch to, on the server (Java RESTCatalog.fastForward).
func (c *Catalog) FastForward(ctx context.Context, id paimon.Identifier, to string) error {
	id, err := normalize(id)
	if err != nil {
		return err
	}
	if err := checkName(to); err != nil {
		return wrapf(err, "branch %q", to)
	}
	err = c.post(ctx, c.paths.table(id.Database, objectName(id), "branches", encodeString(to), "forward"), map[string]any{}, nil)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrNotFound) && resourceIs(err, resourceBranch):
		return fmt.Errorf("%w: %s of %s: %w", ErrBranchNotFound, to, id, err)
	}
	return tableError(id, err)
}

// ListBranches returns the branches of the table (main not included).
func (c *Catalog) ListBranches(ctx context.Context, id paimon.Identifier) ([]string, error) {
	id, err := ddlIdentifier(id, false)
	if err != nil {
		return nil, err
	}
	var resp struct {
		Branches []string `json:"branches"`
	}
	if err := c.get(ctx, c.paths.table(id.Database, id.Table, "branches"), nil, &resp); err != nil {
		return nil, tableError(id, err)
	}
	return resp.Branches, nil
}

// CreateTag tags a snapshot of the table (the latest when snapshotID is
// 0); timeRetained ("1 d", "2 h" ...) is optional.
func (c *Catalog) CreateTag(ctx context.Context, id paimon.Identifier, name string, snapshotID int64, timeRetained string) error {
	id, err := normalize(id)
	if err != nil {
		return err
	}
	body := map[string]any{"tagName": name, "snapshotId": nil, "timeRetained": nil}
	if snapshotID > 0 {
		body["snapshotId"] = snapshotID
	}
	if timeRetained != "" {
		body["timeRetained"] = timeRetained
	}
	err = c.post(ctx, c.paths.table(id.Database, objectName(id), "tags"), body, nil)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrAlreadyExists):
		return fmt.Errorf("%w: %q of %s: %w", paimon.ErrTagExists, name, id, err)
	case errors.Is(err, ErrNotFound) && resourceIs(err, resourceSnapshot):
		return fmt.Errorf("%w: %d of %s: %w", paimon.ErrSnapshotNotFound, snapshotID, id, err)
	}
	return tableError(id, err)
}

// Tag is a tag as the server describes it (Java GetTagResponse).
type Tag struct {
	Name     string
	Snapshot *snapshot.Snapshot
}

// GetTag returns a tag of the table.
func (c *Catalog) GetTag(ctx context.Context, id paimon.Identifier, name string) (*Tag, error) {
	id, err := normalize(id)
	if err != nil {
		return nil, err
	}
	var resp struct {
		TagName  string          `json:"tagName"`
		Snapshot json.RawMessage `json:"snapshot"`
	}
	err = c.get(ctx, c.paths.table(id.Database, objectName(id), "tags", encodeString(name)), nil, &resp)
	if errors.Is(err, ErrNotFound) && resourceIs(err, resourceTag) {
		return nil, fmt.Errorf("%w: %q of %s: %w", paimon.ErrTagNotFound, name, id, err)
	}
	if err != nil {
		return nil, tableError(id, err)
	}
	s, err := snapshot.Decode(resp.Snapshot)
	if err != nil {
		return nil, fmt.Errorf("rest catalog: tag %q of %s: %w: %w", name, id, ErrProtocol, err)
	}
	return &Tag{Name: resp.TagName, Snapshot: s}, nil
}

// DeleteTag deletes a tag of the table.
func (c *Catalog) DeleteTag(ctx context.Context, id paimon.Identifier, name string) error {
	id, err := normalize(id)
	if err != nil {
		return err
	}
	err = c.del(ctx, c.paths.table(id.Database, objectName(id), "tags", encodeString(name)))
	if errors.Is(err, ErrNotFound) && resourceIs(err, resourceTag) {
		return fmt.Errorf("%w: %q of %s: %w", paimon.ErrTagNotFound, name, id, err)
	}
	if err != nil {
		return tableError(id, err)
	}
	return nil
}

// ListTags yields the tag names of the table, page by page.
func (c *Catalog) ListTags(ctx context.Context, id paimon.Identifier) iter.Seq2[string, error] {
	return func(yield func(string, error) bool) {
		id, err := normalize(id)
		if err != nil {
			yield("", err)
			return
		}
		for n, err := range c.pages(ctx, c.paths.table(id.Database, objectName(id), "tags"), func(p *pagedNames) []string { return p.Tags }) {
			if err != nil {
				yield("", tableError(id, err))
				return
			}
			if !yield(n, nil) {
				return
			}
		}
	}
}

// ListPartitions yields the partitions the server tracks for the table,
// with the statistics commits sent it. A server that does not track them
// yields an error wrapping paimon.ErrUnsupported (Java then lists them
// from the file system; see paimon's partition scan for that).
func (c *Catalog) ListPartitions(ctx context.Context, id paimon.Identifier) iter.Seq2[Partition, error] {
	return func(yield func(Partition, error) bool) {
		id, err := normalize(id)
		if err != nil {
			yield(Partition{}, err)
			return
		}
		query := map[string]string{}
		seen := map[string]bool{}
		for range maxPages {
			var page partitionsResponse
			if err := c.get(ctx, c.paths.table(id.Database, objectName(id), "partitions"), query, &page); err != nil {
				yield(Partition{}, tableError(id, err))
				return
			}
			for _, p := range page.Partitions {
				if !yield(p, nil) {
					return
				}
			}
			if page.NextPageToken == nil || *page.NextPageToken == "" || len(page.Partitions) == 0 {
				return
			}
			if seen[*page.NextPageToken] {
				yield(Partition{}, fmt.Errorf("rest catalog: partitions of %s: %w: page token repeated", id, ErrProtocol))
				return
			}
			seen[*page.NextPageToken] = true
			query = map[string]string{"pageToken": *page.NextPageToken}
		}
	}
}
