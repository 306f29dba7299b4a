package rest

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/paimon-go/paimon-go/fs"
)

// Catalog options, with Java's names (RESTCatalogOptions, CatalogOptions,
// RESTCatalogInternalOptions, RESTTokenFileIO).
const (
	OptionMetastore                = "metastore"
	OptionURI                      = "uri"
	OptionWarehouse                = "warehouse"
	OptionTokenProvider            = "token.provider"
	OptionToken                    = "token"
	OptionDLFRegion                = "dlf.region"
	OptionDLFTokenPath             = "dlf.token-path"
	OptionDLFAccessKeyID           = "dlf.access-key-id"
	OptionDLFAccessKeySecret       = "dlf.access-key-secret"
	OptionDLFSecurityToken         = "dlf.security-token"
	OptionDLFTokenLoader           = "dlf.token-loader"
	OptionDLFTokenECSMetadataURL   = "dlf.token-ecs-metadata-url"
	OptionDLFTokenECSRoleName      = "dlf.token-ecs-role-name"
	OptionDLFSigningAlgorithm      = "dlf.signing-algorithm"
	OptionDLFOSSEndpoint           = "dlf.oss-endpoint"
	OptionPrefix                   = "prefix"
	OptionDataTokenEnabled         = "data-token.enabled"
	OptionTableDefaultPrefix       = "table-default."
	OptionHeaderPrefix             = "header."
	optionCaseSensitive            = "case-sensitive"
	defaultMaxRetries              = 5
	defaultRetryBase               = time.Second
	defaultTimeout                 = 3 * time.Minute
	defaultMaxResultsNotConfigured = 0
)

// MetastoreName is the value of the metastore option that selects this
// catalog (Java RESTCatalogFactory.IDENTIFIER).
const MetastoreName = "rest"

// Options configures New beyond the catalog options.
type Options struct {
	// HTTPClient sends the requests; nil means a client with
	// http.DefaultTransport's settings.
	HTTPClient *http.Client
	// Auth, if set, replaces the provider the token.provider option
	// names.
	Auth AuthProvider
	// Timeout bounds each request, its answer included (Java: 3 minutes).
	Timeout time.Duration
	// MaxRetries bounds the retries of a request the server answered 429
	// or 503, or an idempotent one whose connection broke (Java: 5).
	MaxRetries int
	// RetryBase is the first retry's wait, doubled each time up to 64
	// times it (Java: 1 s); a server's Retry-After takes precedence.
	RetryBase time.Duration
	// DataFS opens the file system of a table whose server hands out data
	// tokens (data-token.enabled); nil uses the openers registered with
	// RegisterDataFS.
	DataFS DataFSOpener
	// FS opens the file system of a table path when the catalog has no
	// data tokens; nil means fs.OpenURI.
	FS func(ctx context.Context, uri string) (fs.FS, string, error)
	// Now is the clock used to decide token refreshes; nil means time.Now.
	Now func() time.Time
}

// tableDefaults returns the table-default.* options without the prefix
// (Java CatalogUtils.tableDefaultOptions).
func tableDefaults(opts map[string]string) map[string]string {
	return prefixed(opts, OptionTableDefaultPrefix)
}

// prefixed mirrors Java RESTUtil.extractPrefixMap.
func prefixed(opts map[string]string, prefix string) map[string]string {
	out := map[string]string{}
	for k, v := range opts {
		if rest, ok := strings.CutPrefix(k, prefix); ok {
			out[rest] = v
		}
	}
	return out
}
