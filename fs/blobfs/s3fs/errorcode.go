package s3fs

import (
	"context"
	"errors"
	"net/http"

	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	"gocloud.dev/gcerrors"
)

// errorCode classifies the errors of the S3 SDK for blobfs, replacing
// s3blob's ErrorCode (gocloud.dev v0.46.0). That one maps every error whose
// message contains "301" to NotFound, to catch the redirect AWS sends for
// a bucket in another region; but the message also holds a random request
// ID, host ID and sometimes a port number, so about one S3 error in two
// thousand — a 412 lost race, a 503 — came out as "not found". Measured:
// a 200-name cross-process race against versitygw reported one loser as
// "file does not exist" (request ID "YJO0OB8VP3017CV0").
//
// Here the S3 error code decides, then the HTTP status. Transport failures
// (no HTTP answer) are Unknown, which blobfs treats as transient. Errors
// that did not come from the SDK (gocloud's own argument checks, a closed
// bucket) keep gocloud's code.
func errorCode(err error) gcerrors.ErrorCode {
	var oe *smithy.OperationError
	if !errors.As(err, &oe) {
		return gcerrors.Code(err)
	}
	var ae smithy.APIError
	if errors.As(err, &ae) {
		switch ae.ErrorCode() {
		case "NoSuchKey", "NoSuchBucket", "NotFound", "PermanentRedirect":
			return gcerrors.NotFound
		case "PreconditionFailed":
			return gcerrors.FailedPrecondition
		case "AccessDenied", "Forbidden", "InvalidAccessKeyId", "SignatureDoesNotMatch",
			"ExpiredToken", "InvalidToken", "AllAccessDisabled":
			return gcerrors.PermissionDenied
		case "SlowDown", "Throttling", "ThrottlingException", "RequestLimitExceeded", "TooManyRequests":
			return gcerrors.ResourceExhausted
		case "InternalError", "ServiceUnavailable":
			return gcerrors.Internal
		case "ConditionalRequestConflict":
			// A competing conditional write is in flight: the outcome of
			// ours is unknown until the object is read back.
			return gcerrors.Unknown
		case "InvalidArgument", "InvalidRequest", "InvalidRange", "KeyTooLongError", "InvalidBucketName":
			return gcerrors.InvalidArgument
		}
	}
	var re *smithyhttp.ResponseError
	if errors.As(err, &re) {
		switch s := re.HTTPStatusCode(); {
		case s == http.StatusNotFound || s == http.StatusMovedPermanently:
			return gcerrors.NotFound
		case s == http.StatusPreconditionFailed:
			return gcerrors.FailedPrecondition
		case s == http.StatusForbidden || s == http.StatusUnauthorized:
			return gcerrors.PermissionDenied
		case s == http.StatusTooManyRequests || s == http.StatusServiceUnavailable:
			return gcerrors.ResourceExhausted
		case s >= 500:
			return gcerrors.Internal
		case s == http.StatusBadRequest || s == http.StatusRequestedRangeNotSatisfiable:
			return gcerrors.InvalidArgument
		}
		return gcerrors.Unknown
	}
	switch {
	case errors.Is(err, context.Canceled):
		return gcerrors.Canceled
	case errors.Is(err, context.DeadlineExceeded):
		return gcerrors.DeadlineExceeded
	}
	return gcerrors.Unknown
}
