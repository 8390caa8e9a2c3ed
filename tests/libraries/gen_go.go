// Delay sequences from cenkalti/backoff's own ExponentialBackOff, for the engine's
// conformance test.
//
// Calls the real NextBackOff() (exponential.go, Debian golang-github-cenkalti-backoff-dev
// 4.1.3-1, i.e. v4.1.3) repeatedly for random settings and prints one line per case:
//
//	cenkalti <settings as JSON> | <draws> | <waits in ns, as NextBackOff returns them>
//
// NextBackOff draws rand.Float64() from the *global* math/rand source once per call (also
// when RandomizationFactor is 0, where the draw is then unused). Each case seeds the global
// source and a parallel rand.New(rand.NewSource(seed)) with the same seed and reads the
// draws from the parallel one; after the case both sources must agree on their next
// value, which checks that the library drew exactly as many values as recorded.
// MaxElapsedTime is 0 (never Stop) and the clock is fixed, so only the delay rule runs.
//
// Output: crate/tests/data/library_vectors_go.txt. Regenerate offline with
//
//	apt-get install golang-go golang-github-cenkalti-backoff-dev
//	GO111MODULE=off GOPATH=/usr/share/gocode go run tests/libraries/gen_go.go \
//	    > crate/tests/data/library_vectors_go.txt
//
// Run on amd64 (Go 1.19.8, GOAMD64=v1): there Go never fuses a*b+c into an FMA, like the
// engine; on arm64 it may, and a last-ulp difference could move a wait by 1 ns.
package main

import (
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"time"

	"github.com/cenkalti/backoff"
)

const cases = 300
const retries = 12

// fixedClock keeps GetElapsedTime at 0.
type fixedClock struct{}

func (fixedClock) Now() time.Time { return time.Unix(0, 0) }

// ms converts the engine's millisecond setting the way the engine does: ms × 10^6 ns,
// truncated.
func ms(x float64) time.Duration { return time.Duration(x * 1e6) }

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func main() {
	// The settings come from their own fixed stream, apart from the library's draws.
	pickRng := rand.New(rand.NewSource(20261203))
	pick := func(xs []float64) float64 { return xs[pickRng.Intn(len(xs))] }

	fmt.Println("# cenkalti/backoff v4.1.3 (Debian golang-github-cenkalti-backoff-dev 4.1.3-1), exponential.go; go1.19.8 linux/amd64")
	for i := 0; i < cases; i++ {
		initial := pick([]float64{0.5, 1, 10, 12.5, 50, 100, 250, 500, 1000, 1500})
		factor := pick([]float64{0, 0.1, 0.25, 0.333, 0.5, 0.75, 0.9, 1})
		multiplier := pick([]float64{1, 1.1, 1.5, 1.6, 2, 2.5, 3})
		max := pick([]float64{1, 100, 800, 1000, 5000, 30000, 60000, 120000})
		seed := int64(1000 + i)

		b := &backoff.ExponentialBackOff{
			InitialInterval:     ms(initial),
			RandomizationFactor: factor,
			Multiplier:          multiplier,
			MaxInterval:         ms(max),
			MaxElapsedTime:      0,
			Stop:                backoff.Stop,
			Clock:               fixedClock{},
		}
		b.Reset()

		rand.Seed(seed)
		parallel := rand.New(rand.NewSource(seed))
		draws := make([]string, 0, retries)
		waits := make([]string, 0, retries)
		for r := 0; r < retries; r++ {
			d := b.NextBackOff()
			if d == backoff.Stop {
				panic("Stop with MaxElapsedTime 0")
			}
			draws = append(draws, fmtFloat(parallel.Float64()))
			waits = append(waits, strconv.FormatInt(int64(d), 10))
		}
		if rand.Int63() != parallel.Int63() {
			panic(fmt.Sprintf("case %d: the library drew a different number of values", i))
		}

		settings := fmt.Sprintf(`{"initial_ms":%s,"randomization_factor":%s,"multiplier":%s,"max_ms":%s}`,
			fmtFloat(initial), fmtFloat(factor), fmtFloat(multiplier), fmtFloat(max))
		fmt.Printf("cenkalti %s | %s | %s\n", settings, strings.Join(draws, " "), strings.Join(waits, " "))
	}
}
