package s3fs

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"testing"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	"github.com/stretchr/testify/require"
	"gocloud.dev/gcerrors"
)

// sdkError builds an error shaped like the S3 SDK's: an operation error
// around a response error carrying the request ID, around the API error.
// The request ID contains "301", which fooled s3blob's classification.
func sdkError(status int, code string) error {
	var inner error = errors.New("no API error")
	if code != "" {
		inner = &smithy.GenericAPIError{Code: code, Message: "msg"}
	}
	return &smithy.OperationError{ServiceID: "S3", OperationName: "PutObject", Err: &awshttp.ResponseError{
		ResponseError: &smithyhttp.ResponseError{
			Response: &smithyhttp.Response{Response: &http.Response{StatusCode: status}},
			Err:      inner,
		},
		RequestID: "YJO0OB8VP3017CV0",
	}}
}

func TestErrorCode(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want gcerrors.ErrorCode
	}{
		{"412 lost race", sdkError(412, "PreconditionFailed"), gcerrors.FailedPrecondition},
		{"412 without code", sdkError(412, ""), gcerrors.FailedPrecondition},
		{"409 conditional conflict", sdkError(409, "ConditionalRequestConflict"), gcerrors.Unknown},
		{"404 key", sdkError(404, "NoSuchKey"), gcerrors.NotFound},
		{"404 HEAD", sdkError(404, "NotFound"), gcerrors.NotFound},
		{"301 wrong region", sdkError(301, ""), gcerrors.NotFound},
		{"403", sdkError(403, "AccessDenied"), gcerrors.PermissionDenied},
		{"bad key id", sdkError(403, "InvalidAccessKeyId"), gcerrors.PermissionDenied},
		{"503 slow down", sdkError(503, "SlowDown"), gcerrors.ResourceExhausted},
		{"500", sdkError(500, "InternalError"), gcerrors.Internal},
		{"502 without code", sdkError(502, ""), gcerrors.Internal},
		{"416", sdkError(416, "InvalidRange"), gcerrors.InvalidArgument},
		{"other 4xx", sdkError(418, ""), gcerrors.Unknown},
		{"connection refused on a port with 301", &smithy.OperationError{Err: &net.OpError{
			Op: "dial", Net: "tcp", Err: errors.New("connect: connection refused on 127.0.0.1:3010"),
		}}, gcerrors.Unknown},
		{"canceled", &smithy.OperationError{Err: fmt.Errorf("send: %w", context.Canceled)}, gcerrors.Canceled},
		{"deadline", &smithy.OperationError{Err: context.DeadlineExceeded}, gcerrors.DeadlineExceeded},
		{"not from the SDK", errors.New("plain"), gcerrors.Unknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, errorCode(tt.err))
			require.Equal(t, tt.want, errorCode(fmt.Errorf("wrapped: %w", tt.err)))
		})
	}
}
