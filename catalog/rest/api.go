package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"strings"
)

// paths builds the resource paths of the REST API (Java ResourcePaths):
// "/v1/<prefix>/databases/<db>/tables/<object>/...", every name encoded
// with encodeString.
type paths struct{ prefix string }

const configPath = "/v1/config"

func (p paths) join(parts ...string) string {
	var sb strings.Builder
	sb.WriteString("/v1")
	if p.prefix != "" {
		sb.WriteString("/" + encodeString(p.prefix))
	}
	for _, s := range parts {
		sb.WriteString("/" + s)
	}
	return sb.String()
}

func (p paths) databases() string         { return p.join("databases") }
func (p paths) database(db string) string { return p.join("databases", encodeString(db)) }
func (p paths) tables(db string) string {
	return p.join("databases", encodeString(db), "tables")
}
func (p paths) table(db, object string, sub ...string) string {
	return p.join(append([]string{"databases", encodeString(db), "tables", encodeString(object)}, sub...)...)
}
func (p paths) renameTable() string { return p.join("tables", "rename") }

// identifierJSON is Java's Identifier JSON: the object name carries the
// branch ("t$branch_b").
type identifierJSON struct {
	Database string `json:"database"`
	Object   string `json:"object"`
}

type configResponse struct {
	Defaults  map[string]string `json:"defaults"`
	Overrides map[string]string `json:"overrides"`
}

type pagedNames struct {
	Databases     []string `json:"databases"`
	Tables        []string `json:"tables"`
	Tags          []string `json:"tags"`
	NextPageToken *string  `json:"nextPageToken"`
}

// DatabaseInfo is what the server says about a database (Java
// GetDatabaseResponse).
type DatabaseInfo struct {
	ID       string            `json:"id"`
	Name     string            `json:"name"`
	Location string            `json:"location"`
	Options  map[string]string `json:"options"`
	Owner    string            `json:"owner,omitempty"`
}

// TableInfo is what the server says about a table (Java
// GetTableResponse): its uuid, storage path and latest schema.
type TableInfo struct {
	ID         string          `json:"id"`
	Name       string          `json:"name"`
	Path       string          `json:"path"`
	IsExternal bool            `json:"isExternal"`
	SchemaID   int64           `json:"schemaId"`
	Schema     json.RawMessage `json:"schema"`
	Owner      string          `json:"owner,omitempty"`
}

// Partition is a partition as the server tracks it (Java Partition).
type Partition struct {
	Spec                 map[string]string `json:"spec"`
	RecordCount          int64             `json:"recordCount"`
	FileSizeInBytes      int64             `json:"fileSizeInBytes"`
	FileCount            int64             `json:"fileCount"`
	LastFileCreationTime int64             `json:"lastFileCreationTime"`
	TotalBuckets         int32             `json:"totalBuckets"`
	Done                 bool              `json:"done"`
}

type partitionsResponse struct {
	Partitions    []Partition `json:"partitions"`
	NextPageToken *string     `json:"nextPageToken"`
}

type tableSnapshotJSON struct {
	Snapshot             json.RawMessage `json:"snapshot"`
	RecordCount          int64           `json:"recordCount"`
	FileSizeInBytes      int64           `json:"fileSizeInBytes"`
	FileCount            int64           `json:"fileCount"`
	LastFileCreationTime int64           `json:"lastFileCreationTime"`
}

type partitionStatisticsJSON struct {
	Spec                 map[string]string `json:"spec"`
	RecordCount          int64             `json:"recordCount"`
	FileSizeInBytes      int64             `json:"fileSizeInBytes"`
	FileCount            int64             `json:"fileCount"`
	LastFileCreationTime int64             `json:"lastFileCreationTime"`
	TotalBuckets         int32             `json:"totalBuckets"`
}

type commitRequest struct {
	TableID    string                    `json:"tableId"`
	Snapshot   json.RawMessage           `json:"snapshot"`
	Statistics []partitionStatisticsJSON `json:"statistics"`
}

type tokenResponse struct {
	Token           map[string]string `json:"token"`
	ExpiresAtMillis int64             `json:"expiresAtMillis"`
}

// get, post and del are the three verbs of the API.
func (c *Catalog) get(ctx context.Context, path string, query map[string]string, out any) error {
	return c.api.do(ctx, request{method: http.MethodGet, path: path, query: query, idempotent: true}, out)
}

func (c *Catalog) post(ctx context.Context, path string, body, out any) error {
	return c.api.do(ctx, request{method: http.MethodPost, path: path, body: body}, out)
}

// postOnce is post sent exactly once (request.once).
func (c *Catalog) postOnce(ctx context.Context, path string, body, out any) error {
	return c.api.do(ctx, request{method: http.MethodPost, path: path, body: body, once: true}, out)
}

func (c *Catalog) del(ctx context.Context, path string) error {
	return c.api.do(ctx, request{method: http.MethodDelete, path: path, idempotent: true}, nil)
}

// maxPages bounds a paged listing: a server that keeps answering with new
// page tokens must not keep the client looping forever.
const maxPages = 1 << 20

// pages yields the names of a paged listing (Java
// RESTApi.listDataFromPageApi): pages are requested until the server
// returns no token or an empty page. A repeated token is a server bug
// reported as ErrProtocol rather than looped on.
func (c *Catalog) pages(ctx context.Context, path string, pick func(*pagedNames) []string) iter.Seq2[string, error] {
	return func(yield func(string, error) bool) {
		query := map[string]string{}
		seen := map[string]bool{}
		for range maxPages {
			var page pagedNames
			if err := c.get(ctx, path, query, &page); err != nil {
				yield("", err)
				return
			}
			names := pick(&page)
			for _, n := range names {
				if !yield(n, nil) {
					return
				}
			}
			if page.NextPageToken == nil || *page.NextPageToken == "" || len(names) == 0 {
				return
			}
			tok := *page.NextPageToken
			if seen[tok] {
				yield("", fmt.Errorf("rest catalog: GET %s: %w: page token %q repeated", path, ErrProtocol, clip(tok, 64)))
				return
			}
			seen[tok] = true
			query = map[string]string{"pageToken": tok}
		}
		yield("", fmt.Errorf("rest catalog: GET %s: %w: more than %d pages", path, ErrProtocol, maxPages))
	}
}
