// Wait sequences from Resilience4j's own IntervalFunction, for the engine's conformance test.
//
// gen_resilience4j.sh compiles this beside the library's
// resilience4j-core/src/main/java/io/github/resilience4j/core/IntervalFunction.java (its
// one `Math.random()` pointed at Draws.next(), a recorded java.util.Random stream) and
// prints one line per case:
//
//     resilience4j <settings as JSON> | <draws> | <waits in ms>
package io.github.resilience4j.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

public class GenResilience4j {
    static final int RETRIES = 8;
    static final Random PICK = new Random(20261202L);

    static <T> T pick(T[] xs) {
        return xs[PICK.nextInt(xs.length)];
    }

    public static void main(String[] args) {
        Long[] waits = {1L, 100L, 500L, 1000L, 2500L};
        Double[] multipliers = {1.0, 1.5, 2.0, 3.0, 1.1};
        Double[] factors = {0.0, 0.25, 0.5, 0.9, 1.0};
        Long[] maxes = {1000L, 5000L, 60000L, 700L};
        for (int i = 0; i < 200; i++) {
            long wait = pick(waits);
            double mult = pick(multipliers);
            double factor = pick(factors);
            long max = Math.max(pick(maxes), wait);
            int shape = i % 5;
            IntervalFunction f;
            String s;
            switch (shape) {
                case 0:
                    f = IntervalFunction.of(wait);
                    s = String.format("{\"wait_ms\":%d}", wait);
                    break;
                case 1:
                    f = IntervalFunction.ofRandomized(wait, factor);
                    s = String.format("{\"wait_ms\":%d,\"randomized_factor\":%s}", wait, factor);
                    break;
                case 2:
                    f = IntervalFunction.ofExponentialBackoff(wait, mult, max);
                    s = String.format("{\"wait_ms\":%d,\"multiplier\":%s,\"max_wait_ms\":%d}", wait, mult, max);
                    break;
                case 3:
                    f = IntervalFunction.ofExponentialRandomBackoff(wait, mult, factor, max);
                    s = String.format("{\"wait_ms\":%d,\"multiplier\":%s,\"randomized_factor\":%s,\"max_wait_ms\":%d}", wait, mult, factor, max);
                    break;
                default:
                    f = IntervalFunction.ofExponentialRandomBackoff(wait, mult, factor);
                    s = String.format("{\"wait_ms\":%d,\"multiplier\":%s,\"randomized_factor\":%s}", wait, mult, factor);
            }
            Draws.drawn.clear();
            List<String> out = new ArrayList<>();
            for (int n = 1; n <= RETRIES; n++) {
                out.add(Long.toString(f.apply(n)));
            }
            List<String> draws = new ArrayList<>();
            for (double u : Draws.drawn) draws.add(Double.toString(u));
            System.out.println("resilience4j " + s + " | " + String.join(" ", draws) + " | " + String.join(" ", out));
        }
    }
}

class Draws {
    static final Random STREAM = new Random(42L);
    static final List<Double> drawn = new ArrayList<>();

    static double next() {
        double u = STREAM.nextDouble();
        drawn.add(u);
        return u;
    }
}
