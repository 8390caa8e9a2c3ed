// Package inventory calls the inventory service with cenkalti/backoff's exponential
// backoff (github.com/cenkalti/backoff/v4).
package inventory

import (
	"context"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v4"
)

func (c *Client) Reserve(ctx context.Context, sku string) error {
	b := backoff.NewExponentialBackOff()
	b.InitialInterval = 100 * time.Millisecond
	b.MaxInterval = 2*time.Second // the wait can still reach 3 s: jitter comes after the cap
	b.Multiplier = 2
	b.RandomizationFactor = 0.5
	/* b.MaxElapsedTime = time.Minute */
	operation := func() error {
		resp, err := c.http.Post(c.url+"/reserve/"+sku, "application/json", nil)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 500 {
			return errServer
		}
		return nil
	}
	return backoff.Retry(operation, backoff.WithContext(backoff.WithMaxRetries(b, 4), ctx))
}
