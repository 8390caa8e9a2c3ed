// The orders client: Finagle's retry budget and a retry policy of three tries.
import com.twitter.conversions.DurationOps._
import com.twitter.finagle.Http
import com.twitter.finagle.service.{Backoff, RetryBudget, RetryPolicy}

object OrdersClient {
  // 20% of the requests of the last 10 s may be retried, plus 5 retries a second always.
  val budget = RetryBudget(ttl = 10.seconds, minRetriesPerSec = 5, percentCanRetry = 0.2)
  val policy = RetryPolicy.tries(3) // three tries: the first call and two retries
  val backoff = Backoff.const(100.milliseconds)

  val client = Http.client
    .withRetryBudget(budget)
    .withRetryBackoff(backoff)
    .newService("orders:8080")
}
