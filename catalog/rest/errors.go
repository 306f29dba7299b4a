package rest

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/paimon"
)

var (
	// ErrInvalidOption reports a catalog option that is missing or wrong.
	ErrInvalidOption = errors.New("invalid option")

	// ErrAuth reports that a request could not be signed (no usable
	// credentials, a token file that cannot be read).
	ErrAuth = errors.New("cannot authenticate")

	// ErrTransport reports a request that got no answer: connection
	// refused or dropped, timeout. For a commit the outcome is unknown.
	ErrTransport = errors.New("no answer from server")

	// ErrProtocol reports an answer that is not what the REST API
	// specifies: malformed or missing JSON, a field out of range.
	ErrProtocol = errors.New("malformed answer")

	// ErrBadRequest reports a request the server refused as invalid (400)
	// or with another 4xx code this package does not map.
	ErrBadRequest = errors.New("bad request")

	// ErrNotAuthorized reports credentials the server did not accept (401).
	ErrNotAuthorized = errors.New("not authorized")

	// ErrNotFound reports a resource the server does not have (404);
	// catalog operations wrap the catalog's more specific sentinels too.
	ErrNotFound = errors.New("not found")

	// ErrAlreadyExists reports a resource that exists already (409).
	ErrAlreadyExists = errors.New("already exists")

	// ErrServer reports a server failure (5xx other than 501).
	ErrServer = errors.New("server error")

	// ErrNotImplemented reports an API the server does not implement
	// (501). It wraps paimon.ErrUnsupported.
	ErrNotImplemented error = &derived{"not implemented by the server", paimon.ErrUnsupported}
)

type derived struct {
	msg    string
	parent error
}

func (e *derived) Error() string { return e.msg }
func (e *derived) Unwrap() error { return e.parent }

// Error is a failed answer of the server (Java ErrorResponse). errors.Is
// matches it against this package's sentinel for its code (ErrBadRequest,
// ErrNotAuthorized, ErrNotFound, ErrAlreadyExists, ErrServer,
// ErrNotImplemented) and catalog.ErrForbidden for 403.
type Error struct {
	Method, Path string
	// Code is the error code: the answer's "code" member, else the HTTP
	// status.
	Code int
	// ResourceType and ResourceName say what was missing or conflicting
	// ("TABLE", "DATABASE", "SNAPSHOT", "TAG", "BRANCH", "COLUMN" ...).
	ResourceType, ResourceName string
	// Message is the server's message (clipped, with its request id).
	Message string
}

func (e *Error) Error() string {
	return fmt.Sprintf("rest catalog: %s %s: %d %s: %s", e.Method, e.Path, e.Code,
		strings.ToLower(http.StatusText(e.Code)), e.Message)
}

// Unwrap returns the sentinel of the code.
func (e *Error) Unwrap() error {
	switch {
	case e.Code == http.StatusUnauthorized:
		return ErrNotAuthorized
	case e.Code == http.StatusForbidden:
		return catalog.ErrForbidden
	case e.Code == http.StatusNotFound:
		return ErrNotFound
	case e.Code == http.StatusConflict:
		return ErrAlreadyExists
	case e.Code == http.StatusNotImplemented:
		return ErrNotImplemented
	case e.Code >= 500:
		return ErrServer
	default:
		return ErrBadRequest
	}
}

// resourceIs reports whether err is a 404 (or 409) about resource type t.
func resourceIs(err error, t string) bool {
	var e *Error
	return errors.As(err, &e) && strings.EqualFold(e.ResourceType, t)
}

// Resource types of Java's ErrorResponse.
const (
	resourceDatabase = "DATABASE"
	resourceTable    = "TABLE"
	resourceColumn   = "COLUMN"
	resourceSnapshot = "SNAPSHOT"
	resourceBranch   = "BRANCH"
	resourceTag      = "TAG"
)

const prefix = "rest catalog: "

// ctxError adds context to an error of this package without repeating its
// prefix: "rest catalog: <context>: <the error without prefix>".
type ctxError struct {
	msg  string
	errs []error
}

func (e *ctxError) Error() string   { return e.msg }
func (e *ctxError) Unwrap() []error { return e.errs }

func wrapf(err error, format string, args ...any) error {
	msg := strings.TrimPrefix(err.Error(), prefix)
	return &ctxError{msg: prefix + fmt.Sprintf(format, args...) + ": " + msg, errs: []error{err}}
}

// wrapKind is wrapf for an error that also matches kind (a sentinel the
// context names in words).
func wrapKind(err, kind error, format string, args ...any) error {
	e := wrapf(err, format, args...).(*ctxError)
	e.errs = append(e.errs, kind)
	return e
}
