// Produces the JDK test vectors checked by crate/tests/java_vectors.rs.
// Run: java tests/jdk/GenVectors.java > crate/tests/data/jdk_vectors.txt
// Lines: "random <seed> <method> <value>..." and "format <pattern> <double bits hex> <text>".
import java.util.Random;

public class GenVectors {
    public static void main(String[] args) {
        long[] seeds = {0L, 1L, 7L, 42L, 99L, 2026L, 4242L, 313131L, -1L, -4242L,
            9007199254740993L, Long.MAX_VALUE, Long.MIN_VALUE, 0x5DEECE66DL, 123456789012345L};
        for (long s : seeds) {
            Random r = new Random(s);
            StringBuilder b = new StringBuilder("random " + s + " nextDouble");
            for (int i = 0; i < 20; i++) b.append(' ').append(Double.doubleToRawLongBits(r.nextDouble()));
            System.out.println(b);
            r = new Random(s);
            b = new StringBuilder("random " + s + " nextInt");
            for (int i = 0; i < 20; i++) b.append(' ').append(r.nextInt());
            System.out.println(b);
            r = new Random(s);
            b = new StringBuilder("random " + s + " nextLong");
            for (int i = 0; i < 20; i++) b.append(' ').append(r.nextLong());
            System.out.println(b);
            int[] bounds = {1, 2, 3, 10, 100, 1 << 20, 1000000007, Integer.MAX_VALUE};
            for (int bound : bounds) {
                r = new Random(s);
                b = new StringBuilder("random " + s + " nextInt" + bound);
                for (int i = 0; i < 20; i++) b.append(' ').append(r.nextInt(bound));
                System.out.println(b);
            }
            r = new Random(s);
            byte[] bytes = new byte[13];
            r.nextBytes(bytes);
            b = new StringBuilder("random " + s + " nextBytes");
            for (byte x : bytes) b.append(' ').append(x & 0xff);
            System.out.println(b);
        }
        // String.format vectors: ratios and percentages of the kind the reports print,
        // plus the ties docs/model.md lists and values chosen at random.
        Random g = new Random(20261130L);
        double[] fixed = {0.145, 1.005, 0.125, 90.85, 2.675, 0.5, 1.5, 2.5, 99.95, 99.94999, 0.0, 1e-9, 12345.675};
        for (double d : fixed) emit(d);
        for (int i = 0; i < 3000; i++) {
            long a = g.nextInt(2_000_000);
            long n = 1 + g.nextInt(1_200_000);
            emit((double) a / n);
            emit(100.0 * a / n);
            emit(g.nextDouble() * 1000);
        }
        // Exact halves at two and one decimals.
        for (int i = 0; i < 500; i++) {
            emit((2 * g.nextInt(100000) + 1) / 200.0);
            emit((2 * g.nextInt(100000) + 1) / 20.0);
        }
    }

    static void emit(double d) {
        String hex = Long.toHexString(Double.doubleToRawLongBits(d));
        System.out.println("format %.1f " + hex + " " + String.format("%.1f", d));
        System.out.println("format %.2f " + hex + " " + String.format("%.2f", d));
        System.out.println("format %.3f " + hex + " " + String.format("%.3f", d));
    }
}
