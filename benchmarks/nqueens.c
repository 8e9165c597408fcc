/* Benchmark baseline only: a plain C bitmask N-queens counter with mirror halving.
 *
 * The same halving as knight's counter (knight/queens/nqueens.py): only the left half of
 * row 0 is searched, its count doubled, and for odd n the middle column of row 0 is
 * added once. Built and run by benchmarks/bench_queens.py (gcc -O2). Usage: nqueens N
 * Prints "N placements cpu_seconds" (CPU time of the process, so other load on a
 * shared machine disturbs it less than wall time).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t full;

/* Placements below a partial placement; `left` rows are still empty. */
static uint64_t count(uint64_t cols, uint64_t ld, uint64_t rd, int left) {
    uint64_t avail = full & ~(cols | ld | rd);
    if (left == 1)
        return avail ? 1 : 0; /* the last row has at most one free square */
    uint64_t total = 0;
    while (avail) {
        uint64_t b = avail & -avail;
        avail ^= b;
        total += count(cols | b, (ld | b) << 1, (rd | b) >> 1, left - 1);
    }
    return total;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s N (1..32)\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[1]);
    if (n < 1 || n > 32) {
        fprintf(stderr, "N must be within 1..32\n");
        return 2;
    }
    full = (1ULL << n) - 1;
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    uint64_t total = 0;
    if (n == 1) {
        total = 1;
    } else {
        for (int c = 0; c < n / 2; c++) { /* left half of row 0: each placement and its mirror */
            uint64_t b = 1ULL << c;
            total += 2 * count(b, b << 1, b >> 1, n - 1);
        }
        if (n % 2) { /* the middle column of row 0, once */
            uint64_t b = 1ULL << (n / 2);
            total += count(b, b << 1, b >> 1, n - 1);
        }
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    printf("%d %llu %.4f\n", n, (unsigned long long)total,
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    return 0;
}
