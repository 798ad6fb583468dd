/* The dense 4x4 pattern-table builder (see solver/search/pdb/database.py for what a table holds), compiled
 * and called like kernel4x4.c (solver/search/native.py). It writes the very bytes the numba
 * builder (solver/search/pdb/build.py) writes, with a fifth of its memory.
 *
 * A breadth-first search from the goal over states (placement rank, lowest cell of the blank's
 * region), one layer at a time: the layer being expanded and the next one are bitmaps over all
 * states, scanned in rank order, so reads and writes sweep memory instead of jumping. A
 * placement's distance is the layer where any of its states is first reached; its excess over
 * the pattern tiles' Manhattan distance (halved, capped at cap) goes straight into the packed
 * base-6 table. Memory: three bitmaps of placements x 16 bits (115 MB each for 7 tiles), a
 * bitmap of placements reached and the packed table; no queue.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NN 16
#ifndef K
#define K 7 /* tiles per pattern: the 4x4 seven-tile tables (8 for the top eight; the tests build smaller ones) */
#endif
#ifndef QUAD
#define QUAD (K >= 8) /* four 2-bit entries per byte instead of three base-6 ones (layout.QUAD_FROM) */
#endif
#define FIRST_COL 0x1111u
#define LAST_COL 0x8888u

static inline uint32_t flood(uint32_t reg, uint32_t free_cells)
{
    while (1) {
        uint32_t grow = (reg | ((reg << 1) & ~FIRST_COL) | ((reg >> 1) & ~LAST_COL) | (reg << 4) | (reg >> 4)) &
                        free_cells;
        if (grow == reg)
            return reg;
        reg = grow;
    }
}

/* W(i): the rank weight of pattern tile i, the product of (16 - m) for m = i+1 .. K-1; a constant
 * wherever i is one (the loops over i are unrolled). */
static inline int64_t W(int i)
{
    int64_t w = 1;
    for (int m = K - 1; m > i; m--)
        w *= NN - m;
    return w;
}
#define PLACEMENTS (W(-1))

static inline int64_t rank_of(const int *cell)
{
    int64_t r = 0;
    for (int i = 0; i < K; i++) {
        int lower = 0;
        for (int j = 0; j < i; j++)
            lower += cell[j] < cell[i];
        r += (cell[i] - lower) * W(i);
    }
    return r;
}

/* How the rank changes when tile i slides from cell p to the adjacent cell q: sideways its
 * digit changes by one; up or down it passes three cells, and the pattern tiles there change
 * its digit (earlier tiles) or theirs (later tiles). */
static inline int64_t moved(int i, int p, int q, uint32_t used, const int *who)
{
    int step = q - p;
    if (step == 1 || step == -1)
        return step * W(i);
    int lo = step > 0 ? p : q, below = 0;
    int64_t passed = 0;
    for (int x = lo + 1; x < lo + 4; x++) {
        if (!(used >> x & 1))
            continue;
        if (who[x] < i)
            below++;
        else
            passed += W(who[x]);
    }
    int64_t delta = (4 - below) * W(i) + passed;
    return step > 0 ? delta : -delta;
}

typedef struct {
    int64_t state; /* rank * 16 + lowest cell of the blank's region */
    int64_t man;   /* the pattern tiles' Manhattan distance */
} Succ;

/* Mark successors first reached at depth + 1: seen, in the next layer, and their placement's
 * entry if it is new. Returns 1 if an excess is odd or negative (not a pattern table). */
static inline int settle(const Succ *succ, int n, int64_t depth, int64_t cap, uint64_t *seen, uint64_t *next,
                         uint64_t *reached, uint8_t *packed, int64_t *worst, int64_t *count, int64_t *any)
{
#if !QUAD
    static const int scale[3] = {1, 6, 36};
#endif
    for (int j = 0; j < n; j++) {
        int64_t s2 = succ[j].state, r2 = s2 >> 4;
        if (seen[s2 >> 6] >> (s2 & 63) & 1)
            continue;
        seen[s2 >> 6] |= 1ull << (s2 & 63);
        next[s2 >> 6] |= 1ull << (s2 & 63);
        *any = 1;
        if (reached[r2 >> 6] >> (r2 & 63) & 1)
            continue;
        reached[r2 >> 6] |= 1ull << (r2 & 63);
        int64_t excess2 = depth + 1 - succ[j].man;
        if (excess2 < 0 || excess2 % 2)
            return 1;
        int64_t excess = excess2 / 2;
        if (excess > *worst)
            *worst = excess;
#if QUAD
        packed[r2 >> 2] |= (uint8_t)((excess < cap ? excess : cap) << ((r2 & 3) * 2));
#else
        packed[r2 / 3] += (uint8_t)((excess < cap ? excess : cap) * scale[r2 % 3]);
#endif
        (*count)++;
    }
    return 0;
}

/* Build the table of the k tiles whose goal cells are goal[0..k-1]. packed (zeroed) receives
 * three base-6 entries per byte; reached, seen, layer and next are zeroed bitmaps of
 * placements, states, states and states. progress counts the placements reached so far (read
 * by another thread); a nonzero *cancel stops the build. Returns the largest excess before the
 * cap, or -1 if an excess is odd or negative (not a pattern table), -2 if cancelled. */
int64_t build_dense(const int *goal, int64_t cap, uint8_t *packed, uint64_t *reached, uint64_t *seen,
                    uint64_t *layer, uint64_t *next, volatile int64_t *progress, volatile int64_t *cancel)
{
    int64_t words = PLACEMENTS * NN / 64;
    /* lowest[free << 4 | c]: the lowest cell of the blank's region from c through the free cells
       (filled for the free sets a placement leaves: 16 - K cells); one load instead of a flood */
    uint8_t *lowest = calloc((size_t)1 << 20, 1);
    if (!lowest)
        return -3;
    for (uint32_t free_cells = 0; free_cells < 1u << NN; free_cells++) {
        if (__builtin_popcount(free_cells) != NN - K)
            continue;
        for (int c = 0; c < NN; c++)
            if (free_cells >> c & 1)
                lowest[free_cells << 4 | c] = (uint8_t)__builtin_ctz(flood(1u << c, free_cells));
    }
    int cell[NN];
    uint32_t occupied = 0;
    for (int i = 0; i < K; i++) {
        cell[i] = goal[i];
        occupied |= 1u << goal[i];
    }
    uint32_t all = 0xFFFFu;
    int64_t start_rank = rank_of(cell);
    int start_cell = __builtin_ctz(flood(1u << (NN - 1), all & ~occupied));
    int64_t start = start_rank * NN + start_cell;
    seen[start >> 6] |= 1ull << (start & 63);
    layer[start >> 6] |= 1ull << (start & 63);
    reached[start_rank >> 6] |= 1ull << (start_rank & 63);
    *progress = 1;
    int64_t worst = 0, count = 1, depth = 0, any = 1;
    Succ buf_a[4 * K], buf_b[4 * K], *batch = buf_a, *older = buf_b;
    int fill = 0, n_older = 0;
    while (any) {
        any = 0;
        for (int64_t wi = 0; wi < words; wi++) {
            uint64_t bits = layer[wi];
            while (bits) {
                int64_t state = wi * 64 + __builtin_ctzll(bits);
                bits &= bits - 1;
                int64_t r = state >> 4;
                int blank = (int)(state & 15);
                /* unrank: digit i is the index of tile i's cell among the cells still unused */
                uint32_t used = 0;
                int man = 0, who[NN];
                int64_t rest = r;
#pragma GCC unroll 16
                for (int i = 0; i < K; i++) {
                    int c = (int)(rest / W(i));
                    rest -= c * W(i);
                    for (uint32_t u = used; u && __builtin_ctz(u) <= c; u &= u - 1)
                        c++; /* each used cell at or below it pushes it one further */
                    cell[i] = c;
                    who[c] = i;
                    used |= 1u << c;
                    int dr = c / 4 - goal[i] / 4, dc = c % 4 - goal[i] % 4;
                    man += (dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc);
                }
                uint32_t region = flood(1u << blank, all & ~used);
                for (int i = 0; i < K; i++) {
                    int p = cell[i];
                    /* cells next to p that the blank can reach: tile i may slide into them */
                    uint32_t around = ((1u << p) >> 4) | ((1u << p) << 4);
                    if (p % 4)
                        around |= (1u << p) >> 1;
                    if (p % 4 != 3)
                        around |= (1u << p) << 1;
                    around &= region;
                    while (around) {
                        int q = __builtin_ctz(around);
                        around &= around - 1;
                        uint32_t occ = (used & ~(1u << p)) | (1u << q);
                        int64_t r2 = r + moved(i, p, q, used, who);
                        int64_t s2 = r2 * NN + lowest[(all & ~occ) << 4 | p];
                        int gr = goal[i] / 4, gc = goal[i] % 4;
                        int before = (p / 4 > gr ? p / 4 - gr : gr - p / 4) + (p % 4 > gc ? p % 4 - gc : gc - p % 4);
                        int after = (q / 4 > gr ? q / 4 - gr : gr - q / 4) + (q % 4 > gc ? q % 4 - gc : gc - q % 4);
                        __builtin_prefetch(&seen[s2 >> 6]);
                        __builtin_prefetch(&reached[r2 >> 6]);
                        batch[fill].state = s2;
                        batch[fill].man = man - before + after;
                        fill++;
                    }
                }
                /* the previous state's successors, whose lines were asked for one state ago */
                if (settle(older, n_older, depth, cap, seen, next, reached, packed, &worst, &count, &any)) {
                    free(lowest);
                    return -1;
                }
                Succ *swap = older;
                older = batch;
                batch = swap;
                n_older = fill;
                fill = 0;
            }
            if ((wi & 0xFFFF) == 0) {
                *progress = count;
                if (*cancel) {
                    free(lowest);
                    return -2;
                }
            }
        }
        if (settle(older, n_older, depth, cap, seen, next, reached, packed, &worst, &count, &any)) {
            free(lowest);
            return -1;
        }
        n_older = 0;
        uint64_t *t = layer;
        layer = next;
        next = t;
        memset(next, 0, (size_t)words * 8);
        depth++;
    }
    *progress = count;
    free(lowest);
    return worst;
}

/* The number of tiles this library's builder was compiled for. */
int64_t build_tiles(void) { return K; }
