/* Benchmark baseline only: a plain C brute-force sweep of Warnsdorff's rule.
 *
 * Every start x every one of the 40,320 tie orders of one N x N board (or R x C), one
 * run after another, each walked from scratch with a fixed tie order (docs/conventions.md:
 * least degree first, ties to the move ranked first by the order, stop when no candidate
 * is left). The board is padded by two squares on every side and the degrees are kept
 * up to date as squares are visited (the usual way, and the way knight's numba brute
 * kernel works), so a step is 8 reads and 8 decrements. Nothing is written; the totals
 * are printed so that they can be checked against `knight sweep`.
 *
 * Build and run (benchmarks/bench_census.py --vs-c does both):
 *     gcc -O2 -o warnsdorff_sweep benchmarks/warnsdorff_sweep.c
 *     ./warnsdorff_sweep 24          # or ./warnsdorff_sweep 6 8 for 6 rows, 8 columns
 * Prints: "RxC runs complete closed ties steps cpu_seconds".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BLOCKED 100 /* degree of margin and visited squares: never the least */

/* (d_row, d_col) of moves 1..8 (docs/conventions.md). */
static const int DR[8] = {2, 2, 1, -1, -2, -2, -1, 1};
static const int DC[8] = {1, -1, -2, -2, -1, 1, 2, 2};

/* Next permutation in lexicographic order; 0 after the last one. */
static int next_order(int *a) {
    int i = 6;
    while (i >= 0 && a[i] > a[i + 1])
        i--;
    if (i < 0)
        return 0;
    int j = 7;
    while (a[j] < a[i])
        j--;
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
    for (int l = i + 1, r = 7; l < r; l++, r--) {
        t = a[l];
        a[l] = a[r];
        a[r] = t;
    }
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: %s N | ROWS COLS\n", argv[0]);
        return 2;
    }
    int rows = atoi(argv[1]);
    int cols = argc == 3 ? atoi(argv[2]) : rows;
    if (rows < 1 || cols < 1 || rows * cols > 65536) {
        fprintf(stderr, "board %s: sides at least 1, at most 65,536 squares\n", argv[1]);
        return 2;
    }
    int width = cols + 4;
    int cells = (rows + 4) * width;
    int size = rows * cols;
    int *deg0 = malloc(sizeof(int) * cells);
    int *deg = malloc(sizeof(int) * cells);
    int off[8];
    for (int m = 0; m < 8; m++)
        off[m] = DR[m] * width + DC[m];
    for (int p = 0; p < cells; p++)
        deg0[p] = BLOCKED;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            int d = 0;
            for (int m = 0; m < 8; m++) {
                int nr = r + DR[m], nc = c + DC[m];
                d += nr >= 0 && nr < rows && nc >= 0 && nc < cols;
            }
            deg0[(r + 2) * width + c + 2] = d;
        }
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    uint64_t runs = 0, complete = 0, closed = 0, ties_total = 0, steps = 0;
    for (int s = 0; s < size; s++) {
        int p0 = (s / cols + 2) * width + s % cols + 2;
        int order[8] = {0, 1, 2, 3, 4, 5, 6, 7};
        do {
            int o[8];
            for (int i = 0; i < 8; i++)
                o[i] = off[order[i]];
            memcpy(deg, deg0, sizeof(int) * cells);
            int cur = p0, n = 1, ties = 0;
            deg[cur] = BLOCKED;
            for (int k = 0; k < 8; k++)
                deg[cur + off[k]]--;
            for (;;) {
                int best = -1, bestd = BLOCKED - 8, nbest = 0;
                for (int i = 0; i < 8; i++) {
                    int d = deg[cur + o[i]];
                    if (d < bestd) {
                        bestd = d;
                        best = cur + o[i];
                        nbest = 1;
                    } else if (d == bestd) {
                        nbest++;
                    }
                }
                if (best < 0)
                    break;
                ties += nbest > 1;
                cur = best;
                deg[cur] = BLOCKED;
                for (int k = 0; k < 8; k++)
                    deg[cur + off[k]]--;
                n++;
            }
            runs++;
            steps += n - 1;
            ties_total += ties;
            if (n == size) {
                complete++;
                for (int k = 0; k < 8; k++)
                    if (cur + off[k] == p0)
                        closed++;
            }
        } while (next_order(order));
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    printf("%dx%d %llu %llu %llu %llu %llu %.3f\n", rows, cols, (unsigned long long)runs,
           (unsigned long long)complete, (unsigned long long)closed, (unsigned long long)ties_total,
           (unsigned long long)steps,
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    free(deg0);
    free(deg);
    return 0;
}
