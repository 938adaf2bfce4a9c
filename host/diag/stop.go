package diag

import (
	"context"
	"errors"
)

// StopReason says, in a few words, why ctx stopped a run: the text of its
// cause (context.WithCancelCause, context.WithTimeoutCause), e.g. "the
// run's time limit of 10m0s was reached" or "interrupted"; for a context
// stopped without a cause, "canceled" or "the deadline was reached". It is
// "" while ctx is not done.
func StopReason(ctx context.Context) string {
	cause := context.Cause(ctx)
	switch {
	case cause == nil:
		return ""
	case errors.Is(cause, context.Canceled) && cause == ctx.Err():
		return "canceled"
	case errors.Is(cause, context.DeadlineExceeded) && cause == ctx.Err():
		return "the deadline was reached"
	}
	return cause.Error()
}

// StoppedBy reports whether err is ctx stopping a call: a *CanceledError
// (a script call stopped between two instructions), or ctx's own error
// once ctx is done.
func StoppedBy(ctx context.Context, err error) bool {
	var ce *CanceledError
	return errors.As(err, &ce) || ctx.Err() != nil && errors.Is(err, ctx.Err())
}
