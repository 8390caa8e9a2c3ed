// The payments client: failsafe-go retries inside a circuit breaker
// (github.com/failsafe-go/failsafe-go).
package payments

import (
	"net/http"
	"time"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
)

var retryPolicy = retrypolicy.NewBuilder[*http.Response]().
	HandleIf(func(r *http.Response, err error) bool { return err != nil || r.StatusCode >= 500 }).
	WithMaxRetries(3). // three retries: four attempts in all
	WithBackoff(200*time.Millisecond, 5*time.Second).
	WithJitterFactor(0.25).
	WithMaxDuration(30 * time.Second).
	OnRetry(func(e failsafe.ExecutionEvent[*http.Response]) { retries.Inc() }).
	Build()

var breaker = circuitbreaker.NewBuilder[*http.Response]().
	WithFailureThreshold(5).
	WithDelay(30 * time.Second).
	WithSuccessThreshold(2).
	Build()

func Charge(req *http.Request) (*http.Response, error) {
	return failsafe.Get(func() (*http.Response, error) { return http.DefaultClient.Do(req) }, retryPolicy, breaker)
}
